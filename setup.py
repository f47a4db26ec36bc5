"""Which packages the firestep distribution holds (pyproject.toml has the rest of its metadata).

The repository keeps frontend/ (templates, static files, vendored libraries) and migrations/ (Alembic's scripts
and their manifest) at its top; the package carries them as `app.frontend` and `app.migrations`, so that an
installed firestep serves from any folder (app/core/shipped.py finds them through the import system, in a
wheel and in an editable checkout alike). pyproject.toml cannot list packages found under a folder mapped
elsewhere, hence this file.
"""

from __future__ import annotations

from setuptools import find_namespace_packages, setup

# A package named after its folder (rules/flanders_fields/data/... hold data only: namespace packages).
OWN = find_namespace_packages(include=["app", "app.*", "rules", "rules.*", "playsheets", "playsheets.*"])
OWN = [p for p in OWN if "__pycache__" not in p]
# Folders at the repository's top, carried inside app/ (each of their folders a namespace package).
MAPPED = {"app.frontend": "frontend", "app.migrations": "migrations"}
CARRIED = [
    f"{package}{'.' + sub if sub else ''}"
    for package, folder in MAPPED.items()
    for sub in ["", *find_namespace_packages(where=folder, exclude=["__pycache__", "*.__pycache__"])]
]
FRONTEND = [p for p in CARRIED if p.startswith("app.frontend")]

setup(
    packages=[*OWN, *CARRIED],
    package_dir=MAPPED,
    package_data={
        "": ["*.json", "*.toml", "*.html", "*.css", "*.js", "*.svg", "*.png", "*.mako", "*.webmanifest"],
        # Every file under frontend/, whatever its kind (the vendored libraries keep their LICENSE files).
        **{p: ["*"] for p in FRONTEND},
    },
    exclude_package_data={"": ["*.pyc"]},
)
