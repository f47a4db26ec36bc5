"""Which packages the firestep distribution holds (pyproject.toml has the rest of its metadata).

The repository keeps frontend/ (templates, static files, vendored libraries) and migrations/ (Alembic's scripts
and their manifest) at its top; the package carries them as `app.frontend` and `app.migrations`, so that an
installed firestep serves from any folder (app/core/shipped.py finds them through the import system, in a
wheel and in an editable checkout alike). pyproject.toml cannot list packages found under a folder mapped
elsewhere, hence this file.

The version is the repository's (setuptools-scm): 0.1.N, N the number of commits to the HEAD built, so every
commit builds a higher version than the one before it, and pipx and uv install a newer wheel over an older one
(the project tags no release: a tag would count from itself). A shallow clone holds only some of its commits:
its build warns so (setuptools-scm) and counts those, so a build to hand out is made from a full clone (the
workflow fetches the whole history); an sdist keeps the version it was made with.
"""

from __future__ import annotations

from typing import Any

from setuptools import find_namespace_packages, setup


def per_commit(version: Any) -> str:  # setuptools-scm's ScmVersion
    """0.1.N: N counts the commits to HEAD (setuptools-scm's distance from the root, no tag being made)."""
    return f"0.1.{version.distance}"


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
    use_scm_version={
        "version_scheme": per_commit,
        "local_scheme": "no-local-version",  # a build of uncommitted changes is numbered as its HEAD
    },
    packages=[*OWN, *CARRIED],
    package_dir=MAPPED,
    package_data={
        "": ["*.json", "*.toml", "*.html", "*.css", "*.js", "*.svg", "*.png", "*.mako", "*.webmanifest"],
        # Every file under frontend/, whatever its kind (the vendored libraries keep their LICENSE files).
        **{p: ["*"] for p in FRONTEND},
    },
    exclude_package_data={"": ["*.pyc"]},
)
