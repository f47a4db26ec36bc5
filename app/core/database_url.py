"""FIRESTEP_DATABASE_URL read as firestep keeps its data (the hostile pass of issue 91): a URL it cannot keep a
game in is one sentence naming the setting, its password masked, before anything is made or opened, where each
was a traceback or worse: a port that is not a number (`ValueError` from SQLAlchemy's parser), a PostgreSQL
option its driver does not know (`ProgrammingError` as the first connection is made), an in-memory SQLite (it
keeps nothing: `migrate` left it empty), a SQLite path relative to the working folder or in SQLite's URI form
(`sqlite:///file:/x?uri=true` made `./file:/x` where the command ran). `serve`, `migrate`, `demo`,
`credentials` and `league` refuse it as they start (app.cli), `doctor` fails its database line with the same
sentence (app.doctor)."""

from __future__ import annotations

import re
from pathlib import PurePath, PurePosixPath, PureWindowsPath

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from app.core.db import SchemaError, unsupported

_PASSWORD = re.compile(r"(://[^/:@]*:)[^/@]*@")
NOT_A_URL = (
    "FIRESTEP_DATABASE_URL is not a database URL: correct it (e.g. postgresql+psycopg://user@host/db)."
)
EMPTY_FOR_SQLITE = "or leave it empty for SQLite in the data folder"


class DatabaseURLError(SchemaError):
    """FIRESTEP_DATABASE_URL names no database firestep can keep its data in; the message is the sentence."""


def masked(url: str) -> str:
    """The URL as written, its password (if any) shown as ***: for a URL too broken to parse."""
    return _PASSWORD.sub(r"\1***@", url)[:80]


def read_url(url: str) -> URL:
    """The URL parsed, or DatabaseURLError saying why not in one sentence."""
    try:
        return make_url(url)
    except ArgumentError:
        raise DatabaseURLError(NOT_A_URL) from None
    except ValueError as e:  # SQLAlchemy reads the port with int(): a word, or an IPv6 address left open
        value = str(e).rpartition(": ")[2]
        raise DatabaseURLError(
            f"FIRESTEP_DATABASE_URL {masked(url)} has a port that is not a number ({value[:20]}): correct it "
            "(e.g. postgresql+psycopg://user@host:5432/db)."
        ) from None


def url_problem(url: str) -> str | None:
    """Why firestep cannot keep its data in the database `url` names, in one sentence naming
    FIRESTEP_DATABASE_URL; None if it can."""
    try:
        parsed = read_url(url)
    except DatabaseURLError as e:
        return str(e)
    if (refused := unsupported(url)) is not None:
        return refused
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_problem(parsed)
    return _option_problem(parsed)


def check_url(url: str) -> None:
    """DatabaseURLError (one sentence) for a URL firestep cannot keep its data in."""
    if (problem := url_problem(url)) is not None:
        raise DatabaseURLError(problem)


def _sqlite_problem(parsed: URL) -> str | None:
    database = parsed.database or ""
    if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
        return (
            "FIRESTEP_DATABASE_URL names an in-memory database, which keeps nothing: give a file "
            f"(sqlite:////full/path/firestep.db), {EMPTY_FOR_SQLITE}."
        )
    if database.startswith("file:") or str(parsed.query.get("uri", "")).lower() in ("true", "1", "yes", "on"):
        return (
            f"FIRESTEP_DATABASE_URL names SQLite's URI form ({database[:40]}), which firestep does not open: give "
            f"an absolute path (sqlite:////full/path/firestep.db), {EMPTY_FOR_SQLITE}."
        )
    if not _absolute(database):
        return (
            f"FIRESTEP_DATABASE_URL names {database[:40]}, a path relative to the working folder: give an absolute "
            f"path (sqlite:////full/path/firestep.db), {EMPTY_FOR_SQLITE}."
        )
    return None


def _absolute(database: str) -> bool:
    """Whether a SQLite file's path is absolute on any system firestep runs on (C:/..., /...)."""
    paths: tuple[PurePath, ...] = (PurePosixPath(database), PureWindowsPath(database))
    return any(p.is_absolute() for p in paths)


def _option_problem(parsed: URL) -> str | None:
    """A PostgreSQL URL's option (`?name=value`) its driver would refuse as the first connection is made."""
    if not parsed.query:
        return None
    from psycopg import ProgrammingError
    from psycopg.conninfo import make_conninfo

    options = {key: value if isinstance(value, str) else value[-1] for key, value in parsed.query.items()}
    try:
        make_conninfo("", **options)
    except ProgrammingError as e:
        return (
            f"FIRESTEP_DATABASE_URL {parsed.render_as_string(hide_password=True)[:80]} has an option PostgreSQL "
            f"does not take ({str(e).strip()[:60]}): remove or correct it."
        )
    return None


def shown(url: str) -> str:
    """The URL as a sentence shows it: its password masked, whether or not it parses."""
    try:
        return read_url(url).render_as_string(hide_password=True)
    except DatabaseURLError:
        return masked(url)
