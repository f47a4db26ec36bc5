"""Shared fixtures: fresh databases on every backend, a migrated app, and the CI rule that nothing the
suite needs may silently skip there.

A new test keeps `make test` (2 workers on 2 cores) quick by taking the cheapest fixture that serves it:
- `sqlite_client`: the app on a copy of the worker's migrated SQLite template (a file copy, no migration);
  `client` / `migrated_url` only when storage matters, since they run the test on both backends (a PostgreSQL
  clone of the worker's template each); `database_url` (empty, unmigrated) only for migration tests.
- In the browser tests (tests/frontend/conftest.py) one Chromium and one server per backend are shared by a
  worker's tests; a test opens contexts with `new_page` (or `new_page_any_backend` when storage matters).
- Wait for an event (a queue, a threading.Event, a response), never a fixed sleep or a timeout expiring.
- Mark a test that takes over ~10 s on CI `@pytest.mark.long`: it is scheduled first, so that it does not
  hold one core at the end while the other idles.
- Mark a test that holds the app to a wall-clock limit (a live event within 500 ms) `@pytest.mark.timed`:
  `make test` runs those alone after the parallel run, so that the limit measures the app, not the suite's
  other worker sharing the machine."""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import sys
import tempfile
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url

IN_CI = os.environ.get("CI", "").lower() == "true"
PG_ENV = "FIRESTEP_TEST_DATABASE_URL"
BACKENDS = ["sqlite", "postgresql"]

# CI (CI=true) runs every property with 200 examples; a developer's run uses 50 so the suite stays quick.
# Either can be chosen by hand with `pytest --hypothesis-profile=firestep-ci` (or firestep-local).
settings.register_profile(
    "firestep-ci", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "firestep-local", deadline=None, max_examples=50, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("firestep-ci" if IN_CI else "firestep-local")

# Importing app.main builds a default app; keep its files out of the work tree.
_SESSION_VAR = tempfile.mkdtemp(prefix="firestep-test-var-")
os.environ.setdefault("FIRESTEP_VAR_DIR", _SESSION_VAR)
os.environ.setdefault("FIRESTEP_DATABASE_URL", f"sqlite:///{_SESSION_VAR}/default.db")
# Every test's client asks from one address ("testclient") and many render sheets: the per-address budget for
# new sheets is tested on its own (tests/playsheets/test_sheet_limits.py), with its own limit.
os.environ.setdefault("FIRESTEP_SHEET_RENDER_LIMIT", "100000 per 1 minute")


@pytest.fixture(scope="session", autouse=True)
def _rule_set_routes_built_once() -> None:
    """Building the rule sets' generated routes is most of create_app (~0.1 s of CPU), and the suite builds an
    app for almost every test: the routes are the same for each, so each process builds them once. An app
    shares them as it shares every other router (module-level objects that every app includes)."""
    rulesets = sys.modules.get("app.routes.rulesets")
    if rulesets is not None:  # else nothing collected in this process imports the app
        rulesets.build_routers = functools.cache(rulesets.build_routers)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked `long` (over ~10 s on the 2-core CI machine) run first. xdist's worksteal gives each
    worker a half of the collection and lets an idle one take the other's queued tests, but not the one it
    is running: a long test started near the end keeps one core busy while the other idles."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: the rest keep their order


def require(condition: bool, what: str) -> None:
    """Skip a test whose service is missing on a developer's machine; in CI, fail it instead."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{what} is required in CI (CI=true) but is not available")
    pytest.skip(f"{what} not available")


def _postgresql_base() -> str:
    base = os.environ.get(PG_ENV)
    require(bool(base), f"PostgreSQL ({PG_ENV})")
    assert base
    return base


# DROP DATABASE waits for a checkpoint (a second or more on a busy server): a test's databases are dropped
# by this one thread while the next tests run, and every drop has finished (or failed the run) by the end.
_dropper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drop-database")
_drops: list[Future[None]] = []


def _drop_database(admin: Engine, name: str) -> None:
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def pytest_sessionfinish() -> None:
    _dropper.shutdown(wait=True)
    for drop in _drops:
        drop.result()  # a drop that failed fails the run here


@contextmanager
def _postgresql_database(base: str, template: str | None = None) -> Iterator[str]:
    """A new database on the server of `base` (a copy of `template` if given), dropped afterwards."""
    name = f"firestep_{uuid.uuid4().hex[:12]}"
    admin = create_engine(make_url(base).set(database="postgres"), isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{template}"' if template else ""
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        _drops.append(_dropper.submit(_drop_database, admin, name))


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A URL of a brand-new, empty database on each backend (for the migration tests)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'firestep.db'}"
        return
    with _postgresql_database(_postgresql_base()) as url:
        yield url


# Migrating takes far longer than copying, so each backend is migrated once per test session into a template
# that every test then clones. Session fixtures are per process, so each xdist worker has its own template and
# no two workers clone (or lock) the same one.
@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from app.core.db import migrate

    path = tmp_path_factory.mktemp("template") / "firestep.db"
    migrate(f"sqlite:///{path}")
    # Fold the write-ahead log into the file, so that copying the one file copies the whole database.
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
    return path


@pytest.fixture(scope="session")
def postgresql_template() -> Iterator[str]:
    """The name of a migrated database; CREATE DATABASE ... TEMPLATE needs it to have no open connection,
    which holds because migrating disposes its engine and only clones are used by tests."""
    from app.core.db import migrate

    with _postgresql_database(_postgresql_base()) as url:
        migrate(url)
        name = make_url(url).database
        assert name
        yield name


def _sqlite_clone(template: Path, directory: Path) -> str:
    path = directory / "firestep.db"
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=BACKENDS)
def migrated_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A URL of a database at the head revision on each backend, cloned from the session's template."""
    if request.param == "sqlite":
        yield _sqlite_clone(request.getfixturevalue("sqlite_template"), tmp_path_factory.mktemp("db"))
        return
    template = request.getfixturevalue("postgresql_template")
    with _postgresql_database(_postgresql_base(), template=template) as url:
        yield url


def refusal_is_one_sentence(response: httpx.Response) -> None:
    """Issue 26, on every answer of every test client: a JSON refusal (4xx) says what to do in one sentence of
    at most 120 characters, with `why` beside it (tests/app/test_refusals.py)."""
    from app.errors import is_one_sentence

    if 400 <= response.status_code < 500 and "json" in response.headers.get("content-type", ""):
        response.read()
        body = response.json()
        assert is_one_sentence(body.get("detail", "")) and body.get("why"), (str(response.url), body)


@pytest.fixture(scope="session", autouse=True)
def _every_client_checks_refusals() -> Iterator[None]:
    """Every TestClient a test makes (the fixtures' and the hostile suites' own) checks each answer it gets."""
    original = TestClient.__init__

    def checked(self: TestClient, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.event_hooks["response"].append(refusal_is_one_sentence)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TestClient, "__init__", checked)
        yield


def make_client(url: str, var_dir: Path) -> TestClient:
    from app.core.config import Settings
    from app.main import create_app

    return TestClient(create_app(Settings(database_url=url, var_dir=var_dir)))


@pytest.fixture
def client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a migrated database, once per backend."""
    with make_client(migrated_url, tmp_path) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_template: Path, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a migrated SQLite database only, for tests that are not about persistence."""
    with make_client(_sqlite_clone(sqlite_template, tmp_path), tmp_path) as c:
        yield c
