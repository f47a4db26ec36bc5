"""`firestep doctor`: what a club night needs on this laptop, one line each, checked where it stands (nothing is
created or changed to check it). Each line is ok, a note (works, worth knowing: what firestep serve will make,
or what to tighten) or FAIL (a club night needs it): every line that is not ok is one sentence with its remedy,
and any FAIL makes the command's exit status non-zero."""

from __future__ import annotations

import contextlib
import datetime
import errno
import http.client
import json
import os
import secrets
import socket
import ssl
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Literal

from cryptography import x509
from filelock import FileLock, Timeout
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from app.club import addresses, authority
from app.core.config import Settings
from app.core.database_url import url_problem
from app.core.datafolder import unusable
from app.core.db import head_revision, schema_problem
from app.core.pdf_engine import pdf_engine_problem
from app.core.platform import bind_exclusively, open_to_others

Status = Literal["ok", "note", "FAIL"]
MIN_PYTHON = (3, 11)  # pyproject.toml's requires-python
EXPIRES_SOON = datetime.timedelta(days=30)
# `firestep serve --club`'s ports (app/cli.py), the ones doctor checks unless told others.
CLUB_PORT = 8443
CLUB_HTTP_PORT = 8000


@dataclass(frozen=True)
class Line:
    topic: str
    status: Status
    said: str
    # A note a club night cannot start without (fixed on the night, so no FAIL): what the verdict names.
    lacking: str = ""

    def __str__(self) -> str:
        return f"{self.status:<4}  {self.topic}: {self.said}"


def _ok(topic: str, said: str) -> Line:
    return Line(topic, "ok", said)


def _note(topic: str, said: str) -> Line:
    return Line(topic, "note", said)


def _broken(topic: str, said: str) -> Line:
    return Line(topic, "FAIL", said)


def python_line() -> Line:
    running = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] < MIN_PYTHON:
        needed = ".".join(map(str, MIN_PYTHON))
        return _broken("Python", f"{running} is older than {needed}: install Python {needed} or newer.")
    return _ok("Python", f"{running} ({sys.executable})")


def firestep_line() -> Line:
    try:
        return _ok("firestep", version("firestep"))
    except PackageNotFoundError:
        return _broken(
            "firestep", "not installed as a package: install its wheel with pipx (see the README)."
        )


def data_folder_line(var: Path) -> Line:
    topic = "data folder"
    own = "set FIRESTEP_VAR_DIR to a folder of your own"
    if not var.exists():
        if (unmade := _unmakeable(var)) is not None:
            return _broken(topic, unusable(unmade, var, None) or f"{var} cannot be made: {own}.")
        return _note(topic, f"{var} does not exist yet: firestep serve makes it.")
    if not var.is_dir():
        return _broken(topic, f"{var} is not a folder: move that file away or {own}.")
    try:  # a real write: file modes do not stop root, a read-only disk or an immutable folder stop everyone
        with tempfile.NamedTemporaryFile(dir=var, prefix=".doctor-"):
            pass
    except OSError as e:
        return _broken(topic, f"{var} is not writable ({e.strerror}): make it writable by you, or {own}.")
    if open_to_others(var):
        mode = oct(var.stat().st_mode & 0o777)[2:]
        return _note(topic, f"{var} is open to other users of this laptop (mode {mode}): chmod 700 {var}.")
    return _ok(topic, f"{var}, writable, this user's only")


def _unmakeable(folder: Path) -> OSError | None:
    """The error making the missing `folder` (and any missing above it) would meet, as serve makes it, foreseen
    without making it: its nearest existing folder above not a folder (the error at `folder` itself), or one no
    folder can be made in (a trial folder made and removed there: file modes do not stop root, a read-only disk
    stops everyone), the error at the first folder to be made; None if it can be made."""
    above = next(p for p in folder.parents if p.exists())
    if not above.is_dir():
        return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    first = above / folder.relative_to(above).parts[0]
    try:
        os.rmdir(tempfile.mkdtemp(dir=above, prefix=".doctor-"))
    except OSError as e:
        return OSError(e.errno, e.strerror, str(first))
    return None


def _unopenable(database: Path) -> OSError | None:
    """The error making the missing SQLite file would meet, foreseen as _unmakeable foresees a folder's."""
    if not database.parent.exists():
        return _unmakeable(database.parent)
    if not database.parent.is_dir():
        return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(database))
    try:
        with tempfile.NamedTemporaryFile(dir=database.parent, prefix=".doctor-"):
            return None
    except OSError as e:
        return OSError(e.errno, e.strerror, str(database))


def database_line(url: str, var: Path | None = None) -> Line:
    """The database's line; `var`, the data folder, whose own line says what keeps it from being made."""
    topic = "database"
    if (refused := url_problem(url)) is not None:
        return _broken(topic, refused)
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    sqlite = parsed.get_backend_name() == "sqlite"
    file = Path(str(parsed.database))
    if sqlite and not file.exists():
        unopened = _unopenable(file) if file.parent.absolute() != (var and var.absolute()) else None
        if unopened is not None:
            return _broken(
                topic, unusable(unopened, var, url) or f"{file} cannot be made: {unopened.strerror}."
            )
        return _note(topic, f"none yet at {parsed.database}: firestep serve (or firestep migrate) makes it.")
    # No pragma, no pool: reading the revision writes nothing. A server that does not answer is said within 5 s.
    waiting = {"connect_timeout": 5} if parsed.get_backend_name() == "postgresql" else {}
    engine = create_engine(url, connect_args=waiting)
    try:
        problem = schema_problem(engine)
    except SQLAlchemyError as e:
        said = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        fix = (
            "make its folder readable and writable by you"
            if sqlite
            else "start it or fix FIRESTEP_DATABASE_URL"
        )
        return _broken(topic, f"{shown} does not open ({said}): {fix}.")
    finally:
        engine.dispose()
    if problem:
        return _broken(topic, problem)
    if sqlite and open_to_others(Path(str(parsed.database))):
        return _note(topic, f"{parsed.database} is readable by other users of this laptop: chmod 600 it.")
    if sqlite and _served(Path(str(parsed.database))):
        return _note(
            topic,
            f"a firestep server is already running on {parsed.database}: use that one, or stop it (Ctrl-C in "
            "its window) before serving again.",
        )
    return _ok(topic, f"{shown}, at revision {head_revision()}")


# A channel of doctor's own: no firestep server listens on it (a worker's broker hears `firestep_events` alone,
# app.core.live), so checking beside a running server reaches none of its devices.
DOCTOR_CHANNEL = "firestep_doctor"
HEAR_WITHIN = 2.0  # seconds


def _listenable(url: str) -> str:
    """The URL as libpq reads it, as app.core.live.PostgresBroker connects with it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def live_line(listen_url: str, notify_url: str) -> Line:
    """Live updates end to end, as every worker gets them (app.core.live.PostgresBroker): LISTEN on a connection
    of `listen_url`, a NOTIFY sent on another of `notify_url` (doctor gives FIRESTEP_DATABASE_URL twice), heard
    within HEAR_WITHIN seconds. A pooler in transaction mode hands the listening session back to its pool once
    LISTEN is done, so nothing is ever heard on it: the writes of one worker would reach no other's devices."""
    import psycopg

    topic = "live updates"
    token = secrets.token_hex(8)  # another doctor checking the same database at once hears its own
    with contextlib.ExitStack() as opened:
        try:
            listener, notifier = (
                opened.enter_context(psycopg.connect(_listenable(url), autocommit=True, connect_timeout=5))
                for url in (listen_url, notify_url)
            )
        except psycopg.OperationalError:  # the database line FAILs naming why: one thing to fix, said once
            return _note(topic, "not checked: the database does not open (its line says why).")
        try:
            listener.execute(f"LISTEN {DOCTOR_CHANNEL}")
            sent = time.monotonic()
            notifier.execute("SELECT pg_notify(%s, %s)", (DOCTOR_CHANNEL, token))
            heard = next((n for n in listener.notifies(timeout=HEAR_WITHIN) if n.payload == token), None)
            took = time.monotonic() - sent
        except psycopg.Error as e:
            said = str(e).strip().splitlines()[0]
            return _broken(
                topic, f"not checked ({said}): if this URL is a pooler's, use the database's direct one."
            )
    if heard is None:
        return _broken(
            topic,
            "would be lost (a NOTIFY went unheard): a pooler in transaction mode drops LISTEN; use the direct "
            "URL, not the pooler's.",
        )
    return _ok(topic, f"a NOTIFY heard in {took * 1000:.0f} ms on a listening connection")


def live_lines(url: str) -> list[Line]:
    """The live updates line on PostgreSQL, checked before the schema is there (a hosted database is checked
    before it is migrated). None on SQLite: its broker is in-process, no connection between a write and a
    stream to check."""
    if url_problem(url) is not None or make_url(url).get_backend_name() != "postgresql":
        return []
    return [live_line(url, url)]


def _served(database: Path) -> bool:
    """Whether a `firestep serve` holds the database's lock now (app.core.datafolder.hold_database). Only a
    lock file one left is tried, so checking makes none."""
    path = database.with_name(database.name + ".lock")
    if not path.exists():
        return False
    try:
        with FileLock(path, timeout=0):
            return False
    except Timeout:
        return True
    except OSError:  # a lock file that cannot be opened (a read-only folder): the data folder line says so
        return False


def pdf_engine_line() -> Line:
    problem = pdf_engine_problem()
    if problem:
        return _broken("PDF engine", problem)
    return _ok("PDF engine", f"WeasyPrint {version('weasyprint')}")


def _expiry(cert: x509.Certificate, now: datetime.datetime) -> datetime.datetime | None:
    """When the certificate ends if it is no longer valid now (or not yet), else None."""
    if cert.not_valid_before_utc <= now <= cert.not_valid_after_utc:
        return None
    return cert.not_valid_after_utc


def authority_line(var: Path) -> Line:
    topic = "club authority"
    files = authority.ClubFiles.of(var)
    if not (files.authority_key.exists() or files.authority_cert.exists()):
        return _note(
            topic, "none yet: firestep serve --club makes one, which each tablet trusts once at /trust."
        )
    try:
        authority.check_authority(files)
    except authority.ClubFileError as e:
        return _broken(topic, str(e))
    ca = x509.load_pem_x509_certificate(files.authority_cert.read_bytes())
    now = datetime.datetime.now(datetime.UTC)
    remake = (
        f"move {files.authority_key.name} and {files.authority_cert.name} out of {files.folder} and serve "
        "--club again to make a new one (every tablet trusts it anew at /trust)"
    )
    if _expiry(ca, now) is not None:
        return _broken(topic, f"{files.authority_cert} is valid only {_dates(ca)}: {remake}.")
    if ca.not_valid_after_utc - now < EXPIRES_SOON:
        return _note(topic, f"{files.authority_cert} ends on {ca.not_valid_after_utc:%Y-%m-%d}: {remake}.")
    return _ok(topic, f"SHA-256 {authority.fingerprint(ca)}, valid until {ca.not_valid_after_utc:%Y-%m-%d}")


def _dates(cert: x509.Certificate) -> str:
    return f"from {cert.not_valid_before_utc:%Y-%m-%d} to {cert.not_valid_after_utc:%Y-%m-%d}"


def _named_addresses(cert: x509.Certificate) -> set[str]:
    try:
        sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return set()
    return {str(a) for a in sans.get_values_for_type(x509.IPAddress)}


def server_certificate_line(var: Path, lan: list[addresses.IPAddress]) -> Line:
    """The server certificate tablets are shown: this authority's, valid now, naming loopback and every
    address tablets reach the laptop by (serve --club issues one at each start, for the addresses then)."""
    topic = "club certificate"
    files = authority.ClubFiles.of(var)
    again = (
        "start firestep serve --club again, on the club's network: it issues one for the laptop's addresses"
    )
    if not files.authority_cert.exists():
        return _note(topic, "none yet: firestep serve --club issues one at every start.")
    if not (files.server_cert.exists() and files.server_key.exists()):
        return _note(topic, "none yet: firestep serve --club issues one at every start.")
    try:
        authority.check_server(files)
    except authority.ClubFileError as e:
        return _broken(topic, str(e))
    cert = x509.load_pem_x509_certificate(files.server_cert.read_bytes())
    if _expiry(cert, datetime.datetime.now(datetime.UTC)) is not None:
        return _broken(topic, f"{files.server_cert} is valid only {_dates(cert)}: {again}.")
    wanted = ["127.0.0.1", *(str(a) for a in lan)]
    missing = [a for a in wanted if a not in _named_addresses(cert)]
    if missing:
        return _broken(topic, f"{files.server_cert} does not name {', '.join(missing)}: {again}.")
    return _ok(topic, f"valid until {cert.not_valid_after_utc:%Y-%m-%d} for {', '.join(wanted)}")


class _Silent(Exception):
    """The program on the port took a connection and said nothing within the timeout: not firestep."""


def _get(port: int, path: str, tls: bool = False) -> bytes | None:
    """The answer's body when it is 200; None for another answer or a closed connection; _Silent for none."""
    try:
        if tls:  # only to recognise who answers: nothing is sent that needs the server trusted
            unverified = ssl.create_default_context()
            unverified.check_hostname, unverified.verify_mode = False, ssl.CERT_NONE
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                "127.0.0.1", port, timeout=2, context=unverified
            )
        else:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.read() if answer.status == 200 else None
    except TimeoutError:
        raise _Silent from None
    except (OSError, http.client.HTTPException):  # refused, reset, or another protocol (HTTP to TLS)
        return None


def _answers_as_firestep(port: int) -> bool:
    """Whether the server on the port answers as firestep does: its health over HTTP (serve) or HTTPS (serve
    --club's HTTPS port), or the club authority it hands tablets (serve --club's plain port, which redirects
    the rest)."""
    try:
        for tls in (False, True):
            with contextlib.suppress(ValueError):
                if "revision" in json.loads(_get(port, "/healthz", tls) or b"{}"):
                    return True
        return (_get(port, "/trust/firestep-club.pem") or b"").startswith(b"-----BEGIN CERTIFICATE-----")
    except _Silent:
        return False


def _taken(port: int) -> bool:
    """Something listens on the port (on loopback), or it cannot be bound on every interface as serve --club
    binds it (SO_REUSEADDR as uvicorn sets it, so a port left in TIME_WAIT is free; Windows' exclusive use,
    where reuse would let two servers share a port)."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    with socket.socket() as s:
        bind_exclusively(s)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return True
    return False


def port_line(port: int, what: str, option: str) -> Line:
    topic = f"port {port}"
    if not _taken(port):
        return _ok(topic, f"free for {what}")
    if _answers_as_firestep(port):
        return _broken(
            topic, f"a firestep server already serves on it: stop it (Ctrl-C in its window) or {option}."
        )
    return _broken(topic, f"another program holds it ({what} needs it): close that program or {option}.")


def network_line(lan: list[addresses.IPAddress], port: int, http_port: int) -> Line:
    topic = "network"
    if not lan:
        return Line(
            topic,
            "note",
            "no address tablets can reach yet: join the club's wifi (or start the laptop's hotspot) and run "
            "firestep doctor again.",
            lacking="tablets cannot reach this laptop yet (no network)",
        )
    where = addresses.url_host(lan[0])
    others = f" (also {', '.join(map(str, lan[1:]))})" if lan[1:] else ""
    return _ok(topic, f"tablets open http://{where}:{http_port}/trust, then https://{where}:{port}/{others}")


def check(settings: Settings, port: int = CLUB_PORT, http_port: int = CLUB_HTTP_PORT) -> list[Line]:
    """Every line, in the order a club laptop is set up."""
    var = Path(settings.var_dir)
    lan = addresses.lan_addresses()
    return [
        python_line(),
        firestep_line(),
        data_folder_line(var),
        database_line(settings.database_url, var),
        *live_lines(settings.database_url),
        pdf_engine_line(),
        authority_line(var),
        server_certificate_line(var, lan),
        port_line(
            port, "the club's HTTPS (serve --club)", "serve on another: firestep serve --club --port N"
        ),
        port_line(
            http_port,
            "/trust and the redirect (serve --club)",
            "serve on another: firestep serve --club --http-port N",
        ),
        network_line(lan, port, http_port),
    ]


def summary(lines: list[Line]) -> str:
    """The verdict, true to every line above it: what is to fix, else what is still lacking, else ready."""
    failed = sum(line.status == "FAIL" for line in lines)
    if failed:
        return f"{failed} to fix before a club night (the FAIL lines)."
    lacking = [line.lacking for line in lines if line.lacking]
    if lacking:
        return f"Not ready for a club night yet: {'; '.join(lacking)}."
    return "Ready for a club night."
