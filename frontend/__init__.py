"""Templates and static files: the package carries this folder as app.frontend (setup.py; app/core/shipped.py
finds it there, in a wheel and in an editable checkout alike)."""
