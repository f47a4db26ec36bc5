"""The folders the package carries besides its code: frontend/ and migrations/ of the repository, which the
build maps into the package as `app.frontend` and `app.migrations` (setup.py).

They are found through the import system, never from the working folder or the checkout: in an installed wheel
they lie inside app/, in an editable install (`pip install -e .`, make run) the install's finder maps them to
the checkout's folders."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


@cache
def folder(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"{package} is missing from this installation of firestep: install it again")
    return Path(next(iter(spec.submodule_search_locations)))


def frontend() -> Path:
    """Templates (templates/) and static files (static/, vendored libraries in static/vendor/)."""
    return folder("app.frontend")


def migrations() -> Path:
    """Alembic's env.py, versions/ and manifest.json."""
    return folder("app.migrations")
