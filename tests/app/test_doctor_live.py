"""`firestep doctor`'s live updates line on PostgreSQL (issue 93), against the real server: a NOTIFY heard on a
listening connection (ok, and a server's own listener on the database hears nothing of it), and one that is
never heard (the listener on another database: NOTIFY is per database, as a pooler in transaction mode loses
it), which fails in one sentence naming the direct URL; checked before the schema is there, a note where the
database does not open. PostgreSQL only; in CI the tests fail rather than skip without it. SQLite has no such
line (its broker is in-process): tests/app/test_doctor.py's lines are all there is."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from app import doctor
from app.cli import app as cli
from app.core.live import CHANNEL
from tests.app.club.served import free_port, free_ports
from tests.conftest import _postgresql_base, _postgresql_database


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_doctor_on_postgresql_hears_its_notify_and_no_server_listening_there_sees_it(
    postgresql_template: str, tmp_path: Path
) -> None:
    with (
        _postgresql_database(_postgresql_base(), template=postgresql_template) as url,
        psycopg.connect(_libpq(url), autocommit=True) as server,  # as a worker's broker listens
    ):
        server.execute(f"LISTEN {CHANNEL}")
        env = {"FIRESTEP_VAR_DIR": str(tmp_path / "var"), "FIRESTEP_DATABASE_URL": url}
        https, plain = free_ports(2)
        ports = ["--port", str(https), "--http-port", str(plain)]
        run = CliRunner().invoke(cli, ["doctor", *ports], env=env, terminal_width=300)
        printed = run.output.splitlines()
        database = next(i for i, line in enumerate(printed) if "database: " in line)
        assert printed[database].startswith("ok    database: "), run.output
        assert printed[database + 1].startswith("ok    live updates: a NOTIFY heard in "), run.output
        # The server's listener hears the writes' notifications in commit order: a write's after the doctor's
        # check is the first it hears, so the check reached none of its devices.
        with psycopg.connect(_libpq(url), autocommit=True) as writer:
            writer.execute("SELECT pg_notify(%s, %s)", (CHANNEL, "7"))
        assert [note.payload for note in server.notifies(stop_after=1)] == ["7"]


def test_a_notify_never_heard_fails_in_one_sentence_naming_the_direct_url() -> None:
    """The listener on one scratch database, the NOTIFY sent on another: as through a pooler in transaction
    mode, the listening session never gets it."""
    base = _postgresql_base()
    with _postgresql_database(base) as listened, _postgresql_database(base) as notified:
        started = time.monotonic()
        line = doctor.live_line(listened, notified)
        waited = time.monotonic() - started
    assert line.status == "FAIL" and line.topic == "live updates", line
    assert line.said == (
        "would be lost (a NOTIFY went unheard): a pooler in transaction mode drops LISTEN; use the direct URL, "
        "not the pooler's."
    )
    assert doctor.HEAR_WITHIN <= waited < doctor.HEAR_WITHIN + 10, waited


def test_a_database_not_migrated_yet_is_checked_and_one_that_does_not_open_is_a_note() -> None:
    """A hosted database is checked before `firestep migrate` (LISTEN needs no schema); one that does not open
    is the database line's FAIL alone, not a second thing to fix."""
    with _postgresql_database(_postgresql_base()) as empty:
        (line,) = doctor.live_lines(empty)
        assert doctor.database_line(empty).status == "FAIL"
    assert line.status == "ok" and line.said.startswith("a NOTIFY heard in "), line
    gone = make_url(empty).set(port=free_port()).render_as_string(hide_password=False)
    assert doctor.database_line(gone).status == "FAIL"
    assert doctor.live_lines(gone) == [
        doctor.Line("live updates", "note", "not checked: the database does not open (its line says why).")
    ]
