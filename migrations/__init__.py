"""Alembic's scripts: the package carries this folder as app.migrations (setup.py; app/core/shipped.py finds it
there, in a wheel and in an editable checkout alike)."""
