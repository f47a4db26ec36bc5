"""Shared fixtures: fresh databases on every backend, a migrated app, and the CI rule that nothing the
suite needs may silently skip there.

The suite has four tiers (TIERS below: rules, service, api, browser); a fact is proved once, at the lowest
tier that can prove it, and `make test` fails when the browser tier takes over BROWSER_SHARE_LIMIT of the
test time.
A new test keeps `make test` (a worker a core: 2 on CI's 2, under 8 minutes) quick by taking the cheapest
fixture that serves it:
- `reading_client`: for a test that writes nothing (a lookup, a dataset, geometry, a refusal), the app and
  database its module's other such tests share (checked unchanged after each test);
- `sqlite_client`: the app on a copy of the worker's migrated SQLite template (a file copy, no migration);
  `client` / `migrated_url` / `database_url` (empty, unmigrated, for migration tests) take the `backend`
  fixture: SQLite, and a PostgreSQL clone of the worker's template as well where the test is marked
  `@pytest.mark.storage` (its subject is storage: migrations, locking, concurrency, what a backend stores).
- In the browser tests (tests/frontend/conftest.py) one Chromium per worker (started again should a context's
  close stick) and one server and database per module, over SQLite; a test opens contexts with `new_page`.
  State is seeded through the API; a flow runs once at its reference size, the other sizes check its layout.
- The order is shuffled (pytest-randomly; `-p no:randomly` keeps the written order, `--randomly-seed=N`
  replays a run): no test may depend on another having run.
- Wait for an event (a queue, a threading.Event, a response), never a fixed sleep or a timeout expiring.
- Mark a test that takes over ~6 s on CI `@pytest.mark.long`: it is scheduled first, so that it does not
  hold one core at the end while the other idles.
- Mark a test that holds the app to a wall-clock limit (every live event on every device within 100 ms) `@pytest.mark.timed`:
  `make test` runs those alone after the parallel run, so that the limit measures the app, not the suite's
  other worker sharing the machine."""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import socket
import sqlite3
import sys
import tempfile
import threading
import time
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

from tests.shared_routes import shared_resolutions

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
# Likewise a new scenario draft counts as a scenario imported: the editor's browser tests make many from one address
# (tests/app/test_scenario_drafts.py and tests/app/test_scenarios_api.py test the limit with their own).
os.environ.setdefault("FIRESTEP_SCENARIO_IMPORT_LIMIT", "100000 per 1 minute")

# What tests keep to look at afterwards (screenshots, PDFs, timings; git-ignored). A fresh clone has no such
# folder, and no test may count on another having made it first.
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARTIFACTS.mkdir(exist_ok=True)


@pytest.fixture(scope="session", autouse=True)
def _rule_set_routes_built_once() -> None:
    """Building the rule sets' generated routes is most of create_app (~0.1 s of CPU), and the suite builds an
    app for almost every test: the routes are the same for each, so each process builds them once. An app
    shares them as it shares every other router (module-level objects that every app includes)."""
    rulesets = sys.modules.get("app.routes.rulesets")
    if rulesets is not None:  # else nothing collected in this process imports the app
        rulesets.build_routers = functools.cache(rulesets.build_routers)


@pytest.fixture(scope="session", autouse=True)
def _included_routes_resolved_once() -> Iterator[None]:
    """Each process resolves a router's routes once for all its apps (tests/shared_routes.py)."""
    found = shared_resolutions()
    if found is None:
        yield
        return
    cls, methods = found
    with pytest.MonkeyPatch.context() as patch:
        for name, method in methods.items():
            patch.setattr(cls, name, method)
        yield


# What a database's schema is, as rows, read in one query: on SQLite its DDL; on PostgreSQL every column, index and
# constraint of the schema the app reads (schema_drift reflects the same three kinds in current_schema()).
_SQLITE_SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_master"
_POSTGRESQL_SCHEMA = """
SELECT 'column', c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL SELECT 'index', tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL SELECT 'constraint', conrelid::regclass::text, conname || ' ' || pg_get_constraintdef(oid)
 FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
"""


@pytest.fixture(scope="session", autouse=True)
def _schema_checked_once() -> Iterator[None]:
    """Every app checks its database's schema at its start (check_schema: ~20 ms of CPU on SQLite, some 170
    reflection queries; ~70 ms on a fresh PostgreSQL clone, three reflections through the inspector), and almost
    every test starts an app on a copy of one template: each process checks a schema once per backend and
    answers the same for a database whose schema, revision and models are the same (what schema_problem
    reads), read in one query (~25 ms on a fresh PostgreSQL clone). A database that differs in any of them (a
    migration test's, a drifted one) is checked in full; tests/app/core tests check_schema itself."""
    main = sys.modules.get("app.main")
    if main is None:  # nothing collected in this process imports the app
        yield
        return
    from sqlmodel import SQLModel

    from app.core.db import SchemaError, head_revision, schema_problem

    answers: dict[tuple[Any, ...], str | None] = {}
    # The models' shape, the same for every app of the run: read once.
    models = tuple(
        (name, len(t.columns), len(t.indexes), len(t.constraints))
        for name, t in SQLModel.metadata.tables.items()
    )

    def check_schema(engine: Engine) -> None:
        backend = engine.url.get_backend_name()
        with engine.connect() as conn:
            schema = conn.exec_driver_sql(_SQLITE_SCHEMA if backend == "sqlite" else _POSTGRESQL_SCHEMA).all()
            names = {row[1] for row in schema}  # a table's name on each backend
            revision = (
                conn.exec_driver_sql("SELECT version_num FROM alembic_version").all()
                if "alembic_version" in names
                else None
            )
        key = (backend, frozenset(map(tuple, schema)), str(revision), head_revision(), models)
        if key not in answers:
            answers[key] = schema_problem(engine)
        problem = answers[key]
        if problem:
            raise SchemaError(problem)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(main, "check_schema", check_schema)
        yield


# The tiers, lowest first: each fact is proved at the lowest that can prove it.
# - rules: pure functions of rules/ and playsheets/ (no database, no app);
# - service: a service or the app's infrastructure (database, unit of work, board state) called directly;
# - api: the app over HTTP (TestClient or a real server): contracts, refusals, access, pages as HTML;
# - browser: only what Chromium adds (JavaScript, layout, touch, accessibility), marked `browser`.
TIERS = ("rules", "service", "api", "browser")
_TIER_OF_FOLDER = {"tests/rules": "rules", "tests/playsheets": "rules", "tests/app/core": "service",
                   "tests/app/data": "service", "tests/app/services": "service"}  # fmt: skip
# Of the whole suite's test time (issue 33): the browser tier renders no PDF (the golden sheets), replays no flow
# at the other sizes (it resizes the page in hand), opens a page once for what it checks there and waits for no
# server to start. 35% until the API tier's own time fell by a fifth (issue 65: apps and databases shared by the
# tests that write nothing, one secret key, fewer random examples where they only reach a refusal) while the
# issues' flows that only a browser proves came in (Vimy from the lobby to its victory, a result's three states at
# four sizes in two rule sets): the same browser work, a larger share (37.9% in a green run on this 2-core kind).
BROWSER_SHARE_LIMIT = 0.40


def tier_of(item: pytest.Item) -> str:
    for tier in TIERS:
        if item.get_closest_marker(tier) is not None:
            return tier
    return _tier_of_file(str(item.path))


@functools.cache  # a module's tests share its file: resolved once (each resolve is a walk of the path's folders)
def _tier_of_file(file: str) -> str:
    path = Path(file).resolve().relative_to(Path(__file__).resolve().parents[1]).as_posix()
    return next((t for folder, t in _TIER_OF_FOLDER.items() if path.startswith(folder + "/")), "api")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier-budget",
        action="store_true",
        help="after a whole run, print each tier's count and time share and fail when the browser tier "
        f"takes over {BROWSER_SHARE_LIMIT:.0%} of the test time (make test)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test gets its tier's marker (so `-m browser` or `-m "not browser"` select a tier). Tests marked
    `long` (over ~6 s on the 2-core CI machine) run first: xdist's worksteal gives each worker a half of the
    collection and lets an idle one take the other's queued tests, but not the one it is running, so a long
    test started near the end keeps one core busy while the other idles."""
    for item in items:
        if not any(item.get_closest_marker(t) for t in TIERS):
            item.add_marker(tier_of(item))
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: the rest keep their order


_tier_counts = dict.fromkeys(TIERS, 0)
_tier_seconds = dict.fromkeys(TIERS, 0.0)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Each tier's tests and time (setup, call and teardown); under xdist the controller hears every
    worker's reports here."""
    tier = next((t for t in TIERS if t in report.keywords), "api")
    _tier_seconds[tier] += report.duration
    _tier_counts[tier] += report.when == "call"


def _browser_share() -> float:
    total = sum(_tier_seconds.values())
    return _tier_seconds["browser"] / total if total else 0.0


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    total = sum(_tier_seconds.values())
    if hasattr(config, "workerinput") or not total:
        return
    terminalreporter.section("tiers")
    for tier in TIERS:
        terminalreporter.write_line(
            f"{tier:8} {_tier_counts[tier]:5} tests {_tier_seconds[tier]:8.1f} s {_tier_seconds[tier] / total:6.1%}"
        )
    if config.getoption("--tier-budget") and _browser_share() > BROWSER_SHARE_LIMIT:
        terminalreporter.write_line(
            f"the browser tier took {_browser_share():.1%} of the test time, over its "
            f"{BROWSER_SHARE_LIMIT:.0%}: move what the browser does not add to a lower tier",
            red=True,
        )


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


def pytest_sessionfinish(session: pytest.Session) -> None:
    _dropper.shutdown(wait=True)
    for drop in _drops:
        drop.result()  # a drop that failed fails the run here
    budgeted = session.config.getoption("--tier-budget") and not hasattr(session.config, "workerinput")
    if budgeted and _browser_share() > BROWSER_SHARE_LIMIT and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database a test runs on: SQLite, and PostgreSQL as well for a test marked `storage` (whose subject
    is storage: migrations, locking, concurrency, durability, what a backend stores). Every fixture that gives
    a database, an app or a server on a backend takes it (pytest_generate_tests parametrizes it)."""
    return str(request.param)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        storage = metafunc.definition.get_closest_marker("storage") is not None
        metafunc.parametrize("backend", BACKENDS if storage else BACKENDS[:1], indirect=True)


@pytest.fixture
def database_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A URL of a brand-new, empty database on the test's backend (for the migration tests)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'firestep.db'}"
        return
    with _postgresql_database(_postgresql_base()) as url:
        yield url


# Migrating takes far longer than copying, so each backend is migrated once per test run into a template that
# every test then clones. SQLite's is one file, made by the first xdist worker to need it (a file lock) in the
# run's own temporary folder and only read after, by every worker; PostgreSQL's is per worker (a database used
# as a TEMPLATE may have no other connection, and each worker drops its own at its end).
@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from filelock import FileLock

    from app.core.db import migrate

    # Under xdist each worker's base folder is in the run's own folder (never an earlier run's).
    shared = "PYTEST_XDIST_WORKER" in os.environ
    folder = tmp_path_factory.getbasetemp().parent if shared else tmp_path_factory.mktemp("template")
    path = folder / "firestep-template.db"
    with FileLock(f"{path}.lock"):
        if not path.exists():
            making = folder / f"firestep-template-{uuid.uuid4().hex}.db"
            migrate(f"sqlite:///{making}")
            # Fold the write-ahead log into the file, so that copying the one file copies the whole database.
            with closing(sqlite3.connect(making)) as conn:
                conn.execute("PRAGMA journal_mode=DELETE")
            making.rename(path)
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


@contextmanager
def served_in_thread(app: Any, **options: Any) -> Iterator[int]:
    """`app` served by a real uvicorn in a thread of this process (its `options` besides the address): the port.
    The socket is bound here and held until uvicorn listens on it, so no other worker's server can take the port
    between the two, as it could a port picked free and let go."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def _sqlite_clone(template: Path, directory: Path) -> str:
    path = directory / "firestep.db"
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def migrated_url(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A URL of a database at the head revision on the test's backend, cloned from the session's template."""
    if backend == "sqlite":
        yield _sqlite_clone(request.getfixturevalue("sqlite_template"), tmp_path_factory.mktemp("db"))
        return
    template = request.getfixturevalue("postgresql_template")
    with _postgresql_database(_postgresql_base(), template=template) as url:
        yield url


@pytest.fixture
def session(migrated_url: str) -> Iterator[Any]:
    """A database session on a migrated database of the test's backend, for a service called directly."""
    from sqlmodel import Session

    from app.core.db import make_engine

    engine = make_engine(migrated_url)
    with Session(engine) as s:
        yield s
    engine.dispose()


def refusal_is_one_sentence(response: httpx.Response) -> None:
    """Issue 26, on every answer of every test client: a JSON refusal (4xx) says what to do in one sentence of
    at most 120 characters, with `why` beside it, and what a player is shown in one too, `said`
    (tests/app/test_refusals.py)."""
    from app.errors import is_one_sentence

    if 400 <= response.status_code < 500 and "json" in response.headers.get("content-type", ""):
        response.read()
        body = response.json()
        told = is_one_sentence(body.get("detail", "")) and is_one_sentence(body.get("said", ""))
        assert told and body.get("why"), (str(response.url), body)


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


# The fixtures' apps (test clients and live servers) share one secret key: it keys what one app issues and another
# checks (a token a test client issued, read by a live server's stream), and each app would otherwise write its
# own into its new data folder, two fsyncs per test. A test of the key the data folder keeps passes
# secret_key="" (tests/app/core/test_data_folder.py).
TEST_SECRET_KEY = secrets.token_urlsafe(48)


def make_client(url: str, var_dir: Path, secret_key: str = TEST_SECRET_KEY) -> TestClient:
    from app.core.config import Settings
    from app.main import create_app

    return TestClient(create_app(Settings(database_url=url, var_dir=var_dir, secret_key=secret_key)))


@pytest.fixture
def client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a migrated database: SQLite, and PostgreSQL too where the test is marked `storage`."""
    with make_client(migrated_url, tmp_path) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_template: Path, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a migrated SQLite database only, for tests that are not about persistence."""
    with make_client(_sqlite_clone(sqlite_template, tmp_path), tmp_path) as c:
        yield c


def _content(path: Path) -> list[str]:
    """Everything a SQLite database holds, as SQL (its write-ahead log included)."""
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.iterdump())


@pytest.fixture(scope="module")
def _module_app(
    sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[TestClient, Path]]:
    directory = tmp_path_factory.mktemp("module-app")
    with make_client(_sqlite_clone(sqlite_template, directory), directory) as c:
        yield c, directory / "firestep.db"


@pytest.fixture
def reading_client(_module_app: tuple[TestClient, Path]) -> Iterator[TestClient]:
    """The app on a migrated SQLite database, one per module, shared by its tests that write nothing (lookups,
    datasets, geometry, refusals): building an app per test is most of such a test's time. Each test starts
    with no cookie, and the database is checked unchanged after it (a test that writes takes `sqlite_client`)."""
    client, path = _module_app
    client.cookies.clear()
    before = _content(path)
    yield client
    assert _content(path) == before, "a test on reading_client wrote to the database: give it sqlite_client"
