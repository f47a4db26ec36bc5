"""The `firestep` command line against a temp database: a real subprocess where the process is what is tested,
its code in this process otherwise."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.core.config import get_settings
from app.core.db import current_revision, head_revision, make_engine


def _run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "FIRESTEP_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}",
        "FIRESTEP_VAR_DIR": str(tmp_path / "var"),
    }
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_help_lists_the_commands(tmp_path: Path) -> None:
    out = _run(["--help"], tmp_path)
    assert out.returncode == 0
    for cmd in ("serve", "migrate", "demo"):
        assert cmd in out.stdout


def test_migrate_then_demo_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commands' own code in this process (a subprocess each was ~1.5 s of starting Python, issue 65); the
    installed `firestep serve` migrating and loading the demo from an empty folder, in a process of its own, is
    tests/app/test_install.py's."""
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    assert run_main(["migrate"], monkeypatch, capsys)[0] == 0
    engine = make_engine(f"sqlite:///{tmp_path / 'cli.db'}")
    assert current_revision(engine) == head_revision()
    engine.dispose()
    code, first, _ = run_main(["demo"], monkeypatch, capsys)
    assert code == 0 and "loaded" in first
    code, second, _ = run_main(["demo"], monkeypatch, capsys)
    assert "referee token:" in first and "join code for the" in first
    # What `make run` prints tells the referee how to sign in: the token, where to enter it, and the address.
    assert re.search(r"referee token: ([\w-]+)", first)
    assert "enter the referee token" in first and "http://127.0.0.1:8000/" in first
    assert code == 0 and "already has games" in second
    assert (tmp_path / "var" / "secret_key").exists()
    # A game kept with no stored clock (as before migration 0034) has one stored by the next migrate.
    engine = make_engine(f"sqlite:///{tmp_path / 'cli.db'}")
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM stored_clock"))
    assert run_main(["migrate"], monkeypatch, capsys)[0] == 0
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM stored_clock")).scalar() == 1
    engine.dispose()


def _serve(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`firestep serve` on `url` with the data folder tmp_path/var, which must stop by itself."""
    env = {**os.environ, "FIRESTEP_DATABASE_URL": url, "FIRESTEP_VAR_DIR": str(tmp_path / "var")}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", "1", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_serve_without_setup_on_a_fresh_folder_says_what_to_do_in_one_sentence(tmp_path: Path) -> None:
    """Issue 52: the schema check failed in the server's start-up, a traceback before its sentence."""
    out = _serve(tmp_path, f"sqlite:///{tmp_path / 'var' / 'firestep.db'}", "--no-setup")
    assert out.returncode == 1 and out.stdout == ""
    assert (
        out.stderr
        == "The database has no firestep schema yet: run `firestep migrate` (firestep serve does).\n"
    )
    unreachable = _serve(tmp_path, "postgresql+psycopg://firestep@127.0.0.1:1/firestep", "--no-setup")
    assert unreachable.returncode == 1 and "Traceback" not in unreachable.stderr
    assert len(unreachable.stderr.splitlines()) == 1
    assert unreachable.stderr.startswith(
        "The database postgresql+psycopg://firestep@127.0.0.1:1/firestep cannot"
    )


def test_a_second_server_on_the_same_sqlite_database_stops_at_once(tmp_path: Path) -> None:
    """Issue 52: a second `serve` with other ports started without a word and split the live updates. The lock
    is the one `serve` holds for its life, taken here as a first server would."""
    from app.core.datafolder import hold_database

    url = f"sqlite:///{tmp_path / 'var' / 'firestep.db'}"
    first = hold_database(url)
    assert first is not None
    try:
        out = _serve(tmp_path, url)
    finally:
        first.release()
    assert out.returncode == 1 and out.stdout == "" and "Traceback" not in out.stderr
    held = tmp_path / "var" / "firestep.db"
    assert out.stderr == (
        f"Another firestep server is already serving {held}: use that one, or stop it and start again.\n"
    )
    # Released (as when the first server ends, however it ends): the next one may take it.
    again = hold_database(url)
    assert again is not None
    again.release()


@pytest.mark.storage
def test_only_sqlite_takes_the_servers_lock(migrated_url: str) -> None:
    """PostgreSQL shares live updates between servers (LISTEN/NOTIFY): several may serve one database."""
    from app.core.datafolder import ServedElsewhere, hold_database

    first = hold_database(migrated_url)
    if migrated_url.startswith("postgresql"):
        assert first is None and hold_database(migrated_url) is None
        return
    assert first is not None
    try:
        with pytest.raises(ServedElsewhere):
            hold_database(migrated_url)
    finally:
        first.release()


# -- a mistake on the command line: one sentence with what to type instead, a non-zero exit (issue 68) --------
# Run in this process (app.cli.main, what the `firestep` script runs): a subprocess each would cost ~1 s.
DEMO = "Demo: German attack on the BEF near Mons, autumn 1914"
MISTAKES = {
    "an unknown game": (
        ["credentials", "99"],
        f"There is no game 99 in this database: type firestep credentials 1 ({DEMO}).",
    ),
    "no game named": (["credentials"], f"Name the game: type firestep credentials 1 ({DEMO})."),
    "a game that is no number": (["credentials", "one"], "Invalid value for 'GAME': "),
    "an unknown period": (
        ["playsheet", "--period", "nope", "-o", "x.pdf"],
        "Unknown period 'nope': give --period early, mid or late.",
    ),
    "an unknown paper": (
        ["template-kit", "--paper", "a3", "-o", "x.pdf"],
        "Unknown paper 'a3': give --paper a4 or letter.",
    ),
    "a variant without its reading": (
        ["playsheet", "--period", "early", "--variant", "mg-arc", "-o", "x.pdf"],
        "Expected erratum:reading, got 'mg-arc': give --variant ERRATUM:READING, ERRATUM air-attack-machine-gun, ",
    ),
    "an unknown reading": (
        ["playsheet", "--period", "early", "--variant", "mg-arc:both", "-o", "x.pdf"],
        "Unknown reading 'both': give --variant mg-arc:READING, READING each-side or total.",
    ),
    "a missing output folder": (
        ["playsheet", "--period", "late", "-o", "missing/late.pdf"],
        "The folder missing does not exist: make it, or write here: -o late.pdf.",
    ),
    "a folder for a file": (["template-kit", "-o", "."], ". is a folder: name a file in it, e.g. -o "),
    "a missing option": (
        ["playsheet", "-o", "x.pdf"],
        "Missing option '--period': see firestep playsheet --help.",
    ),
    "an unknown revision": (
        ["migrate", "--revision", "nope"],
        f"There is no revision 'nope': give --revision head, or one of 0001 to {head_revision()}.",
    ),
    "no revision at all": (["migrate", "--revision", ""], "There is no revision '': give --revision head"),
    "a game number past any stored id": (
        ["credentials", "9" * 32],
        f"There is no game {'9' * 32} in this database: type firestep credentials 1 ({DEMO}).",
    ),
    "a revision before the database's": (
        ["migrate", "--revision", "0001"],
        f"The database is at revision {head_revision()}, past 0001: firestep migrate only upgrades (give ",
    ),
    "an unknown command": (
        ["serv"],
        "No such command 'serv' (did you mean 'serve'?): type one of doctor, serve, ",
    ),
    "an unknown option": (["serve", "--clubb"], "No such option: --clubb (Possible options: --club): see "),
    "a port out of range": (["doctor", "--port", "70000"], "Invalid value for '--port': "),
    "the same two ports": (
        ["serve", "--club", "--port", "8000"],
        "--port and --http-port are both 8000: give two ports, e.g. --port 8443 --http-port 8000.",
    ),
    "workers on SQLite": (["serve", "--workers", "2", "--no-setup"], "give --workers 1."),
    "an address the laptop has not": (
        ["serve", "--host", "nope.invalid", "--no-setup"],
        "This laptop has no address nope.invalid: give --host 127.0.0.1 (this laptop only) or --host 0.0.0.0 ",
    ),
    "a port another program holds": (
        ["serve", "--port", "{taken}", "--no-setup"],
        "Port {taken} is taken on ",
    ),
    "backups without their folder": (
        ["serve", "--backup-every", "10"],
        "--backup-every and --backup-to go together: give both, e.g. --backup-every 10 --backup-to DIR.",
    ),
    "backups into a missing folder": (
        ["serve", "--backup-every", "10", "--backup-to", "missing"],
        "The folder missing does not exist: plug in the stick or make the folder, then start again.",
    ),
    "a backup into a missing folder": (
        ["backup", "missing/b.zip"],
        "The folder missing does not exist: make it, or name a folder that does.",
    ),
    "a restore of no file": (
        ["restore", "nope.zip"],
        "There is no file nope.zip: name a backup firestep backup wrote.",
    ),
}


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A data folder as `firestep serve` leaves it: migrated, the demo game loaded (game 1)."""
    from app.cli import main

    var = tmp_path_factory.mktemp("cli-mistakes") / "var"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FIRESTEP_VAR_DIR", str(var))
        patch.setenv("FIRESTEP_DATABASE_URL", "")
        for command in ("migrate", "demo"):
            patch.setattr(sys, "argv", ["firestep", command])
            get_settings.cache_clear()
            with pytest.raises(SystemExit) as done:
                main()
            assert done.value.code == 0
    get_settings.cache_clear()
    yield var
    get_settings.cache_clear()


def run_main(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    from app.cli import main

    monkeypatch.setattr(sys, "argv", ["firestep", *args])
    get_settings.cache_clear()
    try:
        with pytest.raises(SystemExit) as done:
            main()
    finally:
        get_settings.cache_clear()
    said = capsys.readouterr()
    return int(done.value.code or 0), said.out, said.err


@pytest.mark.parametrize("mistake", MISTAKES)
def test_each_command_line_mistake_is_one_sentence_saying_what_to_type(
    mistake: str,
    demo_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args, sentence = MISTAKES[mistake]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(demo_folder))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = str(held.getsockname()[1])
        args = [a.replace("{taken}", taken) for a in args]
        code, out, err = run_main(args, monkeypatch, capsys)
    assert code != 0 and out == "", (code, out, err)
    assert len(err.splitlines()) == 1 and err.endswith(".\n") and "Traceback" not in err, err
    assert sentence.replace("{taken}", taken) in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written where the command was typed


def test_an_output_the_system_will_not_write_is_a_mistake_not_a_traceback() -> None:
    """The newcomer pass: a traceback (FileNotFoundError) where the system refuses the file itself. The write
    comes after the PDF is made (~5 s of CPU from the command line, issue 65), so its refusal is proved here on
    write_output; a Mistake is said as one sentence as every other above is."""
    from app.cli_mistakes import Mistake, usage_sentence, write_output

    with pytest.raises(Mistake) as refused:
        write_output("/proc/late.pdf", b"%PDF-", "late.pdf")
    said = usage_sentence(refused.value)
    assert said.startswith("/proc/late.pdf cannot be written (") and "\n" not in said, said
    assert said.endswith(": write elsewhere, e.g. -o late.pdf."), said


def test_a_setting_of_the_wrong_kind_is_one_sentence_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The newcomer pass: FIRESTEP_PORT=abc printed pydantic's 45-line traceback."""
    monkeypatch.setenv("FIRESTEP_PORT", "abc")
    get_settings.cache_clear()
    try:
        code, out, err = run_main(["doctor"], monkeypatch, capsys)
    finally:
        get_settings.cache_clear()
    assert code == 1 and out == "" and "Traceback" not in err, err
    assert err == "FIRESTEP_PORT='abc' is not a value it takes: correct it in the environment or .env.\n"


def test_the_help_is_a_guide_commands_in_use_order_flags_without_types(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(["--help"], monkeypatch, capsys)
    assert code == 0
    commands = out[out.index("Commands:") :].split()[1::1]
    listed = [word for word in commands if word in {"doctor", "serve", "credentials", "playsheet", "migrate"}]
    assert listed[:3] == ["doctor", "serve", "credentials"], out
    assert commands.index("template-kit") < commands.index("league") < commands.index("migrate"), out
    for command in ("serve", "credentials", "playsheet", "doctor", "migrate", "template-kit"):
        code, out, _ = run_main([command, "--help"], monkeypatch, capsys)
        assert code == 0 and "<bool>" not in out and "<str>" not in out and "─" not in out, out
        assert "/api/" not in out, out  # the organiser is never sent to the HTTP API
    code, out, _ = run_main(["serve", "--help"], monkeypatch, capsys)
    assert re.search(r"^  --club  ", out, re.M) and "--port PORT" in out and "--host ADDRESS" in out, out
    code, out, _ = run_main(["credentials", "--help"], monkeypatch, capsys)
    assert "firestep credentials alone lists the games" in out


def test_the_first_start_of_another_version_says_so_once_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The data folder's mark (app.core.datafolder.record_version), as `firestep migrate` and `firestep serve`
    read and write it: a new folder is marked silently; another version's mark is named once; a database kept
    by a firestep before the mark was kept by 0.1.0 (every build then was)."""
    from app.core.datafolder import VERSION_FILE, running_version

    var = tmp_path / "var"
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(var))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "")
    now = running_version()

    def started() -> list[str]:
        code, out, err = run_main(["migrate"], monkeypatch, capsys)
        assert code == 0, err
        return out.splitlines()[1:]

    assert started() == [] and (var / VERSION_FILE).read_text() == f"{now}\n"
    (var / VERSION_FILE).write_text("0.1.5\n")
    updated = f"the data folder {var} is kept, its database at revision {head_revision()}."
    assert started() == [f"Updated from firestep 0.1.5 to {now}: {updated}"]
    assert started() == []
    (var / VERSION_FILE).unlink()
    assert started() == [f"Updated from firestep 0.1.0 to {now}: {updated}"]
    assert (var / VERSION_FILE).stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    ("address", "reach"),
    [
        ("http://127.0.0.1:8000/", "in a browser on this laptop and"),
        ("http://[::1]:8000/", "in a browser on this laptop and"),
        ("http://192.168.1.20:8000/", "on any device on the laptop's network and"),
    ],
)
def test_the_sign_in_line_says_who_reaches_the_address_served(
    address: str,
    reach: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 68: plain `serve` (127.0.0.1) said "open ... on any device"; only this laptop reaches it."""
    from app.cli import _print_credentials
    from app.services.seating import Credentials

    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        _print_credentials(Credentials("token", {"attacker": "A", "defender": "D"}), address)
    finally:
        get_settings.cache_clear()
    out = capsys.readouterr().out
    assert f"to sign in, open {address} {reach} enter the referee token" in out, out
    assert ("firestep serve --club" in out) is ("this laptop" in reach)


def test_credentials_prints_the_port_the_server_serves_on(
    migrated_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The newcomer's pass of session 17: `firestep credentials`, run beside `firestep serve --port 8123`,
    printed the configured 8000. The server records the address it serves at in the data folder."""
    import uvicorn

    import app.cli as cli
    from app.services.seating import Credentials

    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", migrated_url)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # served no further than its start
    monkeypatch.setattr(cli, "_start_worker", lambda: None)
    with socket.socket() as free:  # a port nothing holds, as check_binding asks
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    get_settings.cache_clear()
    try:
        cli._serve(None, port, False, 8000, 1, False, False)
        capsys.readouterr()
        cli._print_credentials(Credentials("token", {"attacker": "A", "defender": "D"}))
    finally:
        get_settings.cache_clear()
    assert f"to sign in, open http://127.0.0.1:{port}/ in a browser" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("host", "lan", "said"),
    [
        ("0.0.0.0", [], "No network yet, so only this laptop reaches it: join the club's wifi"),
        ("::", [], "No network yet"),
        ("127.0.0.1", ["192.168.1.20"], "Only this laptop reaches 127.0.0.1: leave out --host"),
        ("0.0.0.0", ["192.168.1.20"], None),
        ("192.168.1.20", [], None),
    ],
)
def test_a_club_server_no_tablet_can_reach_says_so(host: str, lan: list[str], said: str | None) -> None:
    """A newcomer's `serve --club` on a laptop with no network printed 127.0.0.1 in every QR code under "open
    the club address on any device on the laptop's network": now one sentence says only this laptop reaches it."""
    from app.cli_mistakes import club_reach

    reach = club_reach(host, lan)
    assert (
        reach is None
        if said is None
        else (reach is not None and reach.startswith(said) and len(reach) <= 120)
    )


def test_migrate_prints_no_database_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hostile pass: a PostgreSQL URL's password was printed by every migrate and serve ("database at head:
    postgresql://bob:HUNTER2@..."); it is masked as SQLAlchemy masks it."""
    import app.cli as cli_module
    import app.core.db as db

    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(tmp_path))
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", "postgresql+psycopg://bob:HUNTER2@127.0.0.1:1/fs")
    get_settings.cache_clear()
    monkeypatch.setattr(db, "migrate", lambda url, revision="head": None)  # a reachable server, migrated
    monkeypatch.setattr(cli_module, "_revision", lambda url: head_revision())
    monkeypatch.setattr(cli_module, "_store_clocks", lambda url: None)
    try:
        cli_module._migrate("head")
    finally:
        get_settings.cache_clear()
    out = capsys.readouterr().out
    assert "database at head: postgresql+psycopg://bob:***@127.0.0.1:1/fs" in out and "HUNTER2" not in out
