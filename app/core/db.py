"""Engine, sessions and migrations. Alembic is the only thing that creates the schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn, TypedDict

from sqlalchemy import BindParameter, UniqueConstraint, bindparam, event, inspect
from sqlalchemy.engine import Connection, Engine, make_url
from sqlmodel import Session, SQLModel, create_engine

from app.core import shipped
from app.core.datafolder import private_database

if TYPE_CHECKING:  # alembic imported where a migration or a revision is read: not by a read (league publish)
    from alembic.config import Config
    from alembic.script import ScriptDirectory

# The connection pool, named because the server keeps descriptors free for it (app/server.py): at most
# POOL_SIZE + POOL_OVERFLOW connections, each up to 3 descriptors (SQLite in WAL mode: the database, its -wal
# and -shm; SQLite keeps a closed connection's descriptor while another holds a lock on the file).
POOL_SIZE = 5  # SQLAlchemy's defaults
POOL_OVERFLOW = 10
POOL_DESCRIPTORS = (POOL_SIZE + POOL_OVERFLOW) * 3

# Session.info key: the commit under way records no one's act (app/guard/idempotency.py's hook skips it).
BOOKKEEPING = "firestep.bookkeeping"


def commit_bookkeeping(session: Session) -> None:
    """Commit what records nobody's act (when a device was last seen), so that it is not taken for the act of
    the request it happens in."""
    session.info[BOOKKEEPING] = True
    try:
        session.commit()
    finally:
        session.info.pop(BOOKKEEPING, None)


class SharedJson(dict[str, Any]):
    """A JSON object many rows are written with, encoded once (a round's games made together share their
    scenario's terrain: 64 of the largest table's, 20,000 points each, were encoded 64 times, half of the
    round's commit). Read-only, so its text is always its value's: a write sets a new value."""

    def __init__(self, value: dict[str, Any]) -> None:
        super().__init__(value)
        self.text = json_text(value)

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a shared JSON value is read-only: set a new value instead")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only


def json_text(value: Any) -> str:
    """The engine's JSON encoder: json.dumps without the spaces after its separators (a tenth of a unit's
    state, a seventh of a large table's terrain: a round of 64 of the largest 2mm tables writes 128,000
    units, issue 63), a SharedJson's text as it was encoded."""
    return value.text if isinstance(value, SharedJson) else json.dumps(value, separators=(",", ":"))


# The C scanner json.loads ends in (a decoder's scan_once, set as it is made), one for every thread as
# json.loads's own is.
_scan_json: Callable[[str, int], tuple[Any, int]] = vars(json.JSONDecoder())["scan_once"]


def json_value(text: str | bytes) -> Any:
    """The engine's JSON decoder: json.loads, less its wrapper's work (its whitespace scans) for a text as
    json_text wrote it, read by the scanner at once. A game's units are read whole on most requests, and their
    JSON was 40% of that read (issue 65). PostgreSQL's driver hands it UTF-8 bytes, read as their text (json.loads
    looked for their encoding first: a third of the JSON's time on the organiser's board, issue 93). Any other
    text (spaces around it, not JSON, not UTF-8) is json.loads's."""
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            return json.loads(text)
    try:
        value, end = _scan_json(text, 0)
    except StopIteration:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def ids_written(name: str) -> BindParameter[Any]:
    """A statement's list of ids (ints, or tuples of them) named `name`, written into its text as it runs rather
    than bound one by one: psycopg reads a statement's placeholders in Python, about 8 ms for the 400 of a round's
    games, where the organiser's board asked seven such statements (issue 93). A number written is a number."""
    return bindparam(name, expanding=True, literal_execute=True)


# The databases firestep keeps its data in: SQLite (Python's own driver) and PostgreSQL through psycopg (its
# live updates are psycopg's LISTEN/NOTIFY: app.core.live). SQLAlchemy 2.1's postgresql:// is psycopg.
SUPPORTED_DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql", "postgresql+psycopg")


def unsupported(url: str) -> str | None:
    """Why firestep cannot keep its data in the database `url` names, in one sentence; None if it can."""
    kind = make_url(url).drivername
    if kind in SUPPORTED_DRIVERS:
        return None
    return (
        f"FIRESTEP_DATABASE_URL names a {kind[:40]} database, which firestep cannot keep its data in: give "
        "postgresql+psycopg://user@host/db, or leave it empty for SQLite in the data folder."
    )


class EngineOptions(TypedDict, total=False):
    """What `make_engine` gives SQLAlchemy's create_engine besides the URL and the JSON codec."""

    pool_pre_ping: bool
    pool_size: int
    max_overflow: int
    connect_args: dict[str, bool | int]


def make_engine(url: str) -> Engine:
    if (refused := unsupported(url)) is not None:
        raise SchemaError(refused)
    parsed = make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    # A server's connection may have dropped (a restart, an idle timeout): asked before use. A file's never does.
    kwargs: EngineOptions = {"pool_pre_ping": not sqlite}
    in_memory = sqlite and parsed.database in (None, "", ":memory:")
    if not in_memory:  # an in-memory SQLite has one connection, no pool to size
        kwargs["pool_size"], kwargs["max_overflow"] = POOL_SIZE, POOL_OVERFLOW
    if sqlite:
        private_database(url)  # owner-only from its first byte (app.core.datafolder)
        # Several devices hit one game: let threads share the file and wait on locks instead of failing.
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, json_serializer=json_text, json_deserializer=json_value, **kwargs)
    if sqlite:

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    return engine


def alembic_config(url: str) -> Config:
    # No alembic.ini: the checkout's is for the `alembic` command; the app sets all it reads (the package carries
    # migrations/ as app.migrations, so that an installed firestep migrates from any folder).
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(shipped.migrations()))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


class SchemaError(RuntimeError):
    """The database cannot serve this firestep; the message says what to do about it."""


def migrate(url: str, revision: str = "head") -> None:
    """Upgrade to `revision`; refuse (SchemaError) a database a newer firestep migrated (alembic would say it
    cannot find the revision asked for) and, at head, a schema that still lacks what the models need."""
    engine = make_engine(url)  # a SQLite file made owner-only before alembic opens it
    try:
        newer = unknown_revision(current_revision(engine))
    finally:
        engine.dispose()
    if newer is not None:
        raise SchemaError(newer)
    from alembic import command

    command.upgrade(alembic_config(url), revision)
    if revision != "head":
        return
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            drift = schema_drift(conn)
    finally:
        engine.dispose()
    if drift:
        raise SchemaError(
            f"Migrating to {head_revision()} left the database without {'; '.join(drift)}: restore the backup "
            "taken before the upgrade and report this list (docs/architecture.md, Migrations)."
        )


def downgrade(url: str, revision: str = "base", lose_data: bool = False) -> None:
    """Below 0005 or 0004 a downgrade drops the columns and tables that hold card hands, plan edits and
    revocations: migrations/env.py refuses it (CommandError naming them) unless `lose_data`."""
    cfg = alembic_config(url)
    cfg.attributes["lose_data"] = lose_data
    from alembic import command

    command.downgrade(cfg, revision)


@cache
def _scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def head_revision() -> str | None:
    return _scripts().get_current_head()


def revisions() -> list[str]:
    """Every revision, oldest first."""
    return [script.revision for script in reversed(list(_scripts().walk_revisions()))]


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def unknown_revision(revision: str | None) -> str | None:
    """The one sentence for a database at a revision this firestep does not know (a newer one migrated it: a
    laptop's firestep rolled back), or None."""
    if revision is None or revision in {script.revision for script in _scripts().walk_revisions()}:
        return None
    return (
        f"The database is at revision {revision}, which this firestep (head {head_revision()}) does not know: "
        "run the newer firestep that migrated it, or restore a backup taken before that."
    )


def schema_drift(conn: Connection) -> list[str]:
    """What the models need that the live schema lacks: tables, columns, named indexes, unique constraints.
    A database stamped at head can still lack them (revision ids 0004 and 0005 were once reused with new
    content). Only what is missing: that is what turns requests into 500s. One reflection query per kind
    on PostgreSQL (~20 ms; alembic's compare_metadata reflects table by table, ~110 ms at every start)."""
    import app.data.models  # noqa: F401  (registers the tables on SQLModel.metadata)

    live = inspect(conn)
    columns = {name: {c["name"] for c in found} for (_, name), found in live.get_multi_columns().items()}
    indexes = live.get_multi_indexes()
    index_names = {name: {i["name"] for i in found} for (_, name), found in indexes.items()}
    uniques: dict[str, set[frozenset[str | None]]] = {}
    for (_, name), constraints in live.get_multi_unique_constraints().items():
        uniques.setdefault(name, set()).update(frozenset(u["column_names"]) for u in constraints)
    for (_, name), found in indexes.items():
        uniques.setdefault(name, set()).update(frozenset(i["column_names"]) for i in found if i["unique"])
    drift = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in columns:
            drift.append(f"table {table.name}")
            continue
        drift += [f"column {table.name}.{c.name}" for c in table.columns if c.name not in columns[table.name]]
        drift += [
            f"index {i.name}" for i in table.indexes if i.name not in index_names.get(table.name, set())
        ]
        drift += [
            f"unique constraint on {table.name}({', '.join(u.columns.keys())})"
            for u in table.constraints
            if isinstance(u, UniqueConstraint)
            and frozenset(u.columns.keys()) not in uniques.get(table.name, set())
        ]
    return drift


def schema_problem(engine: Engine) -> str | None:
    """Why this database cannot serve this firestep, as one sentence saying what to do; None if it can."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        revision = MigrationContext.configure(conn).get_current_revision()
        head = head_revision()
        if revision is None:
            return "The database has no firestep schema yet: run `firestep migrate` (firestep serve does)."
        if revision != head:
            if (newer := unknown_revision(revision)) is not None:
                return newer
            return f"The database is at revision {revision} and this firestep needs {head}: run `firestep migrate`."
        drift = schema_drift(conn)
    if drift:
        return (
            f"The database is stamped {revision} but lacks {'; '.join(drift)}: restore a backup taken before "
            "its last upgrade and run `firestep migrate` on it (docs/architecture.md, Migrations)."
        )
    return None


def check_schema(engine: Engine) -> None:
    """Refuse to serve a database that would answer requests with 500s (SchemaError, saying what to do)."""
    problem = schema_problem(engine)
    if problem:
        raise SchemaError(problem)
