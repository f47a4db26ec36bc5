"""Shared fixtures: fresh databases on every backend, a migrated app, and the CI rule that nothing the
suite needs may silently skip there."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

settings.register_profile(
    "firestep", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("firestep")

# Importing app.main builds a default app; keep its files out of the work tree.
_SESSION_VAR = tempfile.mkdtemp(prefix="firestep-test-var-")
os.environ.setdefault("FIRESTEP_VAR_DIR", _SESSION_VAR)
os.environ.setdefault("FIRESTEP_DATABASE_URL", f"sqlite:///{_SESSION_VAR}/default.db")

IN_CI = os.environ.get("CI", "").lower() == "true"
PG_ENV = "FIRESTEP_TEST_DATABASE_URL"


def require(condition: bool, what: str) -> None:
    """Skip a test whose service is missing on a developer's machine; in CI, fail it instead."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{what} is required in CI (CI=true) but is not available")
    pytest.skip(f"{what} not available")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A URL of a brand-new, empty database on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'firestep.db'}"
        return
    base = os.environ.get(PG_ENV)
    require(bool(base), f"PostgreSQL ({PG_ENV})")
    assert base
    name = f"firestep_{uuid.uuid4().hex[:12]}"
    admin = create_engine(make_url(base).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def make_client(url: str, var_dir: Path) -> TestClient:
    from app.core.config import Settings
    from app.main import create_app

    return TestClient(create_app(Settings(database_url=url, var_dir=var_dir)))


@pytest.fixture
def migrated_url(database_url: str) -> str:
    from app.core.db import migrate

    migrate(database_url)
    return database_url


@pytest.fixture
def client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a migrated database, once per backend."""
    with make_client(migrated_url, tmp_path) as c:
        yield c


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a migrated SQLite database only, for tests that are not about persistence."""
    from app.core.db import migrate

    url = f"sqlite:///{tmp_path / 'firestep.db'}"
    migrate(url)
    with make_client(url, tmp_path) as c:
        yield c
