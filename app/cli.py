"""The `firestep` command line."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from app.cli_mistakes import ORDER, ClickException, Mistake, club_reach, said, said_as_options, usage_sentence

if TYPE_CHECKING:
    from app.services.seats import Credentials

ABOUT = "firestep: a tabletop assistant for Great War miniatures games."


def where() -> str:
    """Where this firestep keeps its data, from the settings as they stand (nothing is created to say so)."""
    from app.core.config import Settings
    from app.core.database_url import shown

    settings = Settings(secret_key="-")  # a stand-in, so that reading the settings writes no key file
    database = shown(settings.database_url)
    return (
        f"Data folder: {settings.var_dir} (FIRESTEP_VAR_DIR; ./var when the working folder has one, else "
        "the user's data folder).\n\n"
        f"Database: {database} (FIRESTEP_DATABASE_URL).\n\n"
        f"Club authority (serve --club): {settings.var_dir / 'club'}, its keys readable by this user only.\n\n"
        "Logs: printed to this terminal (standard error); to keep them, redirect it: "
        "firestep serve 2> firestep.log"
    )


class _Help(TyperGroup):
    """The top-level help ends with where the data is, worked out when the help is asked for, and lists the
    commands in the order an organiser meets them."""

    def format_help(self, ctx: Any, formatter: Any) -> None:  # typer's own click types
        # \b: each paragraph as written (a long data folder's path is never broken across lines)
        self.help = "\n\n".join(f"\b\n{paragraph}" for paragraph in [ABOUT, *where().split("\n\n")])
        super().format_help(ctx, formatter)

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(super().list_commands(ctx), key=lambda c: ORDER.index(c) if c in ORDER else len(ORDER))


# Plain help, as a person reads it (no boxes, no <bool> after a flag); no shell-completion options.
app = typer.Typer(cls=_Help, help=ABOUT, no_args_is_help=True, rich_markup_mode=None, add_completion=False)
PORT = {"min": 1, "max": 65535, "metavar": "PORT"}


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        typer.echo(f"firestep {version('firestep')}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print firestep's version and stop."
    ),
) -> None:
    from app.cli_mistakes import check_database  # a URL no command could keep a game in, before any opens it

    check_database(ctx.invoked_subcommand)


class _Terminated(SystemExit):
    pass


def _exit_on_term(signum: int, _frame: Any) -> None:
    raise _Terminated(128 + signum)


def _start_worker() -> None:
    """Spawn the rehearsal worker with Ctrl-C ignored from its first instruction (an ignored signal stays
    ignored in the new program, and Python keeps it so): a Ctrl-C while it still imports the app would print
    a traceback there. The worker ignores it again once started (Windows passes no such disposition on). Its
    first job warms the PDF engine (app.services.sheets.warm), while the server starts."""
    from app.services.rehearsal import start_worker
    from app.services.sheets import warm

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        start_worker(warm)
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _stopping_cleanly() -> Iterator[None]:
    """The server's rehearsal worker ends with it on Ctrl-C and SIGTERM (a kill -9 ends it through the
    worker's own watchdog). uvicorn stops gracefully on either signal, then raises it again: SIGTERM's default
    would end the process at once, skipping the stop below, so SIGTERM unwinds to here first, then ends the
    process as SIGTERM does (its exit status says so)."""
    from app.services.rehearsal import stop_worker

    previous = signal.signal(signal.SIGTERM, _exit_on_term)
    terminated = False
    try:
        yield
    except _Terminated:
        terminated = True
    finally:
        stop_worker()
        signal.signal(signal.SIGTERM, previous)
    if terminated:
        signal.raise_signal(signal.SIGTERM)


def _hold(url: str) -> Any:
    """This server's lock on its SQLite database, for the server's life (app.core.datafolder): a second server
    on it stops here, before it migrates or serves anything."""
    from app.core.datafolder import hold_database

    return hold_database(url)


def _ready(url: str) -> None:
    """Refuse, before serving, a database this firestep cannot serve (not migrated, not at head, drifted): the
    app would refuse it as it starts, with a traceback from the server's start-up."""
    from app.core.db import check_schema, make_engine

    engine = make_engine(url)
    try:
        check_schema(engine)
    finally:
        engine.dispose()


@app.command(short_help="Migrate the database (serve does it).")
def migrate(
    revision: str = typer.Option(
        "head", "--revision", metavar="REVISION", help="The revision to upgrade to (0001, ...)."
    ),
) -> None:
    """Migrate the database to this firestep's schema (firestep serve does it as it starts)."""
    from alembic.util import CommandError

    from app.core.db import revisions

    known = revisions()
    unknown = Mistake(
        f"There is no revision {revision[:24]!r}: give --revision head, or one of {known[0]} to {known[-1]}"
    )
    if revision != "head" and revision not in known:  # alembic's own forms (+1, heads, head-1) are not taken
        raise unknown
    try:
        _migrate(revision)
    except CommandError:
        raise unknown from None


@app.command(short_help="Load the demo game (Mons 1914).")
def demo() -> None:
    """Load the demo game (Mons, autumn 1914) if there is no game yet."""
    _demo()


def _migrate(revision: str) -> None:
    """Migrate the database; at head, the data folder is marked with this firestep's version, and the first
    start of another version than the one that marked it says so, naming both (after an update)."""
    from sqlalchemy.engine import make_url

    from app.core.config import get_settings
    from app.core.datafolder import VERSION_FILE, record_version, running_version
    from app.core.db import head_revision
    from app.core.db import migrate as run_migrations

    settings = get_settings()
    url = settings.database_url
    shown = make_url(url).render_as_string(hide_password=True)  # a PostgreSQL URL's password is not printed
    had = _revision(url) if not (settings.var_dir / VERSION_FILE).exists() else None
    run_migrations(url, revision)
    if revision != "head":
        if (current := _revision(url)) != revision:  # alembic's upgrade leaves a database past it as it is
            raise Mistake(
                f"The database is at revision {current}, past {revision}: firestep migrate only upgrades "
                "(give --revision head, or no --revision)"
            )
        typer.echo(f"database at {revision}: {shown}")
        return
    _store_clocks(url)
    typer.echo(f"database at {revision}: {shown}")
    now = running_version()
    # A database kept by a firestep before the mark (every wheel of those was 0.1.0) is an update too.
    before = record_version(settings.var_dir, now) or (had and "0.1.0")
    if before and before != now:
        typer.echo(
            f"{_changed(before, now)} firestep {before} to {now}: the data folder {settings.var_dir} is kept, its "
            f"database at revision {head_revision()}."
        )


def _store_clocks(url: str) -> None:
    """The clock of each game that has none stored, counted once here rather than from its whole log at every
    read (app.services.clock.store_missing): a revision never runs the app's rules."""
    from app.core.db import make_engine
    from app.services.clock import store_missing

    engine = make_engine(url)
    try:
        store_missing(engine)
    finally:
        engine.dispose()


def _changed(before: str, now: str) -> str:
    """How firestep changed under the data folder: "Updated from" a lower version, "Went back from" a higher
    one (an older wheel installed, or one built from a shallow clone: setup.py)."""
    from packaging.version import InvalidVersion, Version

    try:
        return "Went back from" if Version(now) < Version(before) else "Updated from"
    except InvalidVersion:
        return "Changed from"


def _revision(url: str) -> str | None:
    """The database's revision as it stands (None for none yet: a new database), read without creating it."""
    from app.core.datafolder import sqlite_file
    from app.core.db import current_revision, make_engine

    file = sqlite_file(url)
    if file is not None and not file.exists():
        return None
    engine = make_engine(url)
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def _demo(address: str | None = None) -> None:
    """Load the demo game; its sign-in line names `address` (what `serve` serves), else the configured one."""
    from sqlmodel import Session

    from app.core.config import get_settings
    from app.core.db import make_engine
    from app.services.demo import ensure_demo
    from app.services.seats import reissue_credentials
    from app.services.writing import unit_of_work

    settings = get_settings()
    _ready(settings.database_url)  # a database this firestep cannot serve is said, not written into
    engine = make_engine(settings.database_url)
    with Session(engine) as session:
        game = ensure_demo(session, settings.secret_key)
        if game is None:
            typer.echo(
                "database already has games; demo not loaded (new codes for one: firestep credentials GAME; "
                "firestep credentials alone lists them)"
            )
        else:
            assert game.id is not None
            typer.echo(f"demo game {game.id} loaded: {game.name}")
            with unit_of_work(session):
                creds = reissue_credentials(session, settings.secret_key, game.id)
            _print_credentials(creds, address)
    engine.dispose()


def _print_credentials(creds: Credentials, address: str | None = None) -> None:
    from urllib.parse import urlsplit

    from app.cli_mistakes import loopback
    from app.core.config import get_settings
    from app.core.datafolder import served_address

    settings = get_settings()
    typer.echo(f"  referee token: {creds.referee_token}")
    for side, code in creds.join_codes.items():
        typer.echo(f"  join code for the {side}: {code}")
    # A club server prints its own address (the laptop's LAN one) once it has looked it up.
    configured = served_address(settings.var_dir) or f"http://{settings.host}:{settings.port}/"
    where = "the club address below" if settings.club_port else address or configured
    # The words match the binding: 127.0.0.1 is reached from this laptop only.
    served = settings.host if settings.club_port else urlsplit(where).hostname or ""
    reach = "in a browser on this laptop" if loopback(served) else "on any device on the laptop's network"
    typer.echo(
        f"  to sign in, open {where} {reach} and enter the referee token "
        "(the referee) or a side's join code (its players) under 'Join a game'"
    )
    if not settings.club_port and loopback(served):
        typer.echo("  (tablets and phones reach a club server: firestep serve --club)")


@app.command(short_help="New referee token and join codes for a game.")
def credentials(
    game_id: int | None = typer.Argument(
        None, metavar="GAME", help="The game's number (firestep credentials alone lists the games)."
    ),
) -> None:
    """New referee token and join codes for a game (the old ones stop working)."""
    from sqlmodel import Session, select

    from app.cli_mistakes import games_sentence
    from app.core.config import get_settings
    from app.core.db import make_engine
    from app.data.models import Game
    from app.services.seats import reissue_credentials
    from app.services.writing import unit_of_work

    settings = get_settings()
    _ready(settings.database_url)  # a database this firestep cannot serve is said, not written into
    engine = make_engine(settings.database_url)
    try:
        with Session(engine) as session:
            # A number past a stored id's (app.data.bounded) names no game: not asked of the database.
            if game_id is None or not 0 < game_id < 2**31 or session.get(Game, game_id) is None:
                games = session.exec(select(Game.id, Game.name).order_by(Game.id)).all()  # type: ignore[arg-type]
                raise Mistake(games_sentence(game_id, [(g or 0, n) for g, n in games]).rstrip("."))
            with unit_of_work(session):
                creds = reissue_credentials(session, settings.secret_key, game_id)
            _print_credentials(creds)
    finally:
        engine.dispose()


@app.command(short_help="Serve firestep (--club: for a club night).")
def serve(
    host: str | None = typer.Option(
        None,
        metavar="ADDRESS",
        help="The address to serve on: 127.0.0.1 (the default, FIRESTEP_HOST) reaches this laptop only, "
        "0.0.0.0 every network it is on.",
    ),
    port: int | None = typer.Option(
        None,
        "--port",
        min=1,
        max=65535,
        metavar="PORT",
        help="The port (default FIRESTEP_PORT, 8000; with --club the HTTPS port, default 8443).",
    ),
    club: bool = typer.Option(
        False,
        "--club",
        help="For a club night: HTTPS on every network the laptop is on, with the club's own certificate "
        "authority (each tablet trusts it once at /trust); the plain port (--http-port) serves /trust and "
        "sends the rest to HTTPS.",
    ),
    http_port: int = typer.Option(
        8000, min=1, max=65535, metavar="PORT", help="With --club: the plain-HTTP port for /trust."
    ),
    workers: int | None = typer.Option(
        None,
        min=1,
        max=64,
        metavar="N",
        help="Worker processes (default FIRESTEP_WORKERS, 1). More than one needs PostgreSQL: the workers "
        "share live updates through it.",
    ),
    setup: bool = typer.Option(
        True, help="--no-setup: serve the database as it is (no migration, no demo game)."
    ),
    reload: bool = typer.Option(False, help="Restart on code changes (development)."),
    backup_every: int | None = typer.Option(
        None,
        "--backup-every",
        min=1,
        max=1440,
        metavar="MINUTES",
        help="Back up (SQLite) as serve starts and then every MINUTES into --backup-to, as firestep backup "
        "does; the newest 5 copies are kept, to step back past a mistake noticed late. A copy that "
        "cannot be written (the stick pulled out) is said in one line and serving goes on.",
    ),
    backup_to: Path | None = typer.Option(
        None,
        "--backup-to",
        metavar="DIR",
        help="The folder --backup-every writes into: another disk than the data folder's, e.g. a USB stick.",
    ),
) -> None:
    """Serve firestep's pages and API (migrating the database and loading the demo game first)."""
    from app.core.config import get_settings

    backups = _backups(backup_every, backup_to)  # said before anything starts
    # First of all, before the app is imported (seconds): a second server on this database stops at once.
    held = _hold(get_settings().database_url)  # as long as the server serves, and released as it ends
    try:
        _serve(host, port, club, http_port, workers, setup, reload, backups)
    finally:
        if held is not None:
            held.release()


def _serve(
    host: str | None,
    port: int | None,
    club: bool,
    http_port: int,
    workers: int | None,
    setup: bool,
    reload: bool,
    backups: tuple[int, Path] | None = None,
) -> None:
    import uvicorn
    from sqlalchemy.engine import make_url

    from app.cli_mistakes import check_binding
    from app.club.addresses import url_host
    from app.core.config import get_settings
    from app.core.datafolder import record_address
    from app.server import uvicorn_options

    if club:
        with _stopping_cleanly():
            _serve_club(host or "0.0.0.0", port or 8443, http_port, setup, workers, reload, backups)
        return
    settings = get_settings()
    count = workers or settings.workers
    if count > 1 and make_url(settings.database_url).get_backend_name() != "postgresql":
        raise Mistake(
            f"{count} workers need PostgreSQL (FIRESTEP_DATABASE_URL=postgresql+psycopg://...), where on SQLite "
            "each would show only the changes made through itself: give --workers 1"
        )
    if count > 1 and reload:
        raise Mistake("--reload runs one process: drop --workers or --reload")
    served_host, served_port = host or settings.host, port or settings.port
    address = f"http://{url_host(_reached(served_host))}:{served_port}/"  # served, not configured
    with _stopping_cleanly():
        if setup:
            _migrate("head")
            _demo(address)
        _ready(settings.database_url)
        check_binding(served_host, served_port, "--port")
        record_address(settings.var_dir, address)  # what `firestep credentials` prints, in its own process
        if count == 1 and not reload:  # this process serves: its rehearsal worker can start while it starts
            _start_worker()
        # Migrated and seeded once, above; each worker then imports app.main:app on its own.
        with _backing_up(backups):
            uvicorn.run(
                "app.main:app",
                host=served_host,
                port=served_port,
                reload=reload,
                workers=count,
                **uvicorn_options(settings.graceful_shutdown_seconds, settings.trusted_proxies),
            )


def _backups(every: int | None, folder: Path | None) -> tuple[int, Path] | None:
    """serve's --backup-every and --backup-to, both or neither, checked before the server starts: SQLite's
    database only (PostgreSQL's own tool backs it up), into a folder there now."""
    from app.core.backup import postgresql
    from app.core.config import get_settings

    if every is None and folder is None:
        return None
    if every is None or folder is None:
        raise Mistake(
            "--backup-every and --backup-to go together: give both, e.g. --backup-every 10 --backup-to DIR"
        )
    if postgresql(get_settings().database_url):
        raise Mistake(
            "--backup-every copies SQLite only: on PostgreSQL back up with pg_dump (firestep backup says how)"
        )
    if not folder.is_dir():
        raise Mistake(
            f"The folder {folder} does not exist: plug in the stick or make the folder, then start again"
        )
    return every, folder


@contextmanager
def _backing_up(backups: tuple[int, Path] | None) -> Iterator[None]:
    """While the server serves, a thread of this process backing up every N minutes (app.core.backup.every),
    each copy written said on standard error as the server's own lines are."""
    if backups is None:
        yield
        return
    from app.core.backup import every
    from app.core.config import get_settings

    settings = get_settings()
    minutes, folder = backups
    with every(
        settings.database_url, settings.var_dir, folder, minutes, lambda line: typer.echo(line, err=True)
    ):
        yield


def _reached(host: str) -> str:
    """The address devices open for a server on `host`: on every interface, the laptop's LAN one."""
    from app.club.addresses import lan_addresses

    if host not in ("0.0.0.0", "::"):
        return host
    lan = lan_addresses()
    return str(lan[0]) if lan else "127.0.0.1"


def _serve_club(
    host: str,
    port: int,
    http_port: int,
    setup: bool,
    workers: int | None,
    reload: bool,
    backups: tuple[int, Path] | None,
) -> None:
    import os

    from app.cli_mistakes import check_binding
    from app.club import addresses, authority, signing
    from app.club.qr import terminal_qr
    from app.core.config import get_settings
    from app.core.datafolder import record_address
    from app.server import serve_club, uvicorn_options

    if (workers or 1) > 1 or reload:
        raise Mistake("--club serves from one process: drop --workers and --reload")
    if port == http_port:
        raise Mistake(
            f"--port and --http-port are both {port}: give two ports, e.g. --port 8443 --http-port 8000"
        )
    # The pages of this process read the ports from the settings (the /trust link, the join cards).
    os.environ["FIRESTEP_CLUB_PORT"], os.environ["FIRESTEP_CLUB_HTTP_PORT"] = str(port), str(http_port)
    os.environ["FIRESTEP_HOST"] = host
    get_settings.cache_clear()
    settings = get_settings()
    settings.var_dir.mkdir(parents=True, exist_ok=True)
    # The addresses the laptop has now: the server certificate names them, and the plain port's redirects
    # go to them only (never to whatever host a request names).
    ips, names = addresses.current_addresses(), addresses.current_names()
    try:
        files = authority.ensure_authority(settings.var_dir)
        signing.result_key(settings.var_dir)  # the key that signs the results this club exports
        authority.check_authority(files)
        authority.issue_server_cert(files, ips, names)
        authority.check_server(files)
    except authority.ClubFileError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(1) from None
    if setup:
        _migrate("head")
        _demo()
    _ready(settings.database_url)
    check_binding(host, port, "--port")
    check_binding(host, http_port, "--http-port")
    _start_worker()
    # The address served: the one given to --host, or on every interface (0.0.0.0, ::) the laptop's LAN one.
    lan = addresses.lan_addresses()
    if host not in ("0.0.0.0", "::"):
        where = addresses.url_host(host)
    else:
        where = addresses.url_host(lan[0]) if lan else "127.0.0.1"
    trust = f"http://{where}:{http_port}/trust"
    record_address(settings.var_dir, f"https://{where}:{port}/")  # as plain serve does
    typer.echo(f"Club server: https://{where}:{port}/ (trust the club's authority once per device: {trust})")
    if (unreached := club_reach(host, [str(a) for a in lan])) is not None:
        typer.echo(unreached)
    typer.echo(terminal_qr(trust))
    ca = authority.authority_cert(settings.var_dir)
    assert ca is not None
    typer.echo(
        f"The club authority's SHA-256 fingerprint (/trust shows the same): {authority.fingerprint(ca)}"
    )
    hosts = [where, *names, *(addresses.url_host(a) for a in ips)]
    options = uvicorn_options(settings.graceful_shutdown_seconds, settings.trusted_proxies)
    with _backing_up(backups):
        serve_club(host, port, http_port, files.server_cert, files.server_key, options, hosts)


def _require_pdf_engine() -> None:
    """Stop with the one sentence naming the remedy (exit status 1, no traceback) when PDFs cannot be made."""
    from app.core.pdf_engine import pdf_engine_problem

    if (problem := pdf_engine_problem()) is not None:
        typer.echo(problem, err=True)
        raise typer.Exit(1)


@app.command(short_help="Check this laptop for a club night.")
def doctor(
    port: int = typer.Option(
        8443, "--port", min=1, max=65535, metavar="PORT", help="The HTTPS port serve --club will use."
    ),
    http_port: int = typer.Option(
        8000, min=1, max=65535, metavar="PORT", help="The plain port serve --club will use (/trust)."
    ),
) -> None:
    """Check this laptop for a club night: one line a check, each ok or what to do."""
    from app.core.config import Settings
    from app.doctor import check, summary

    lines = check(Settings(secret_key="-"), port, http_port)  # a stand-in key: checking writes no key file
    for line in lines:
        typer.echo(str(line))
    typer.echo(summary(lines))
    if any(line.status == "FAIL" for line in lines):
        raise typer.Exit(1)


@app.command(short_help="Write a period's playsheet to a PDF.")
def playsheet(
    period: str = typer.Option(..., metavar="early|mid|late", help="The war period."),
    paper: str = typer.Option("a4", metavar="a4|letter", help="The paper."),
    output: str = typer.Option(..., "-o", "--output", metavar="FILE.pdf", help="The PDF file to write."),
    variant: list[str] = typer.Option(
        [], metavar="ERRATUM:READING", help="Another reading of an erratum than the default (repeatable)."
    ),
) -> None:
    """Write a period's playsheet (Flanders Fields) to a PDF."""

    from app.cli_mistakes import check_output, write_output
    from app.routes.playsheets import parse_variants
    from playsheets.render import html_to_pdf, render_html

    check_output(output, f"{period}.pdf")
    with said_as_options():  # the values first: a mistake is said where the PDF engine is missing too
        html = render_html(period, paper, parse_variants(variant))
    _require_pdf_engine()
    write_output(output, html_to_pdf(html), f"{period}.pdf")
    typer.echo(f"playsheet {period} ({paper}) written to {output}")


@app.command("template-kit", short_help="Write the 1:1 template kit to a PDF.")
def template_kit(
    paper: str = typer.Option("a4", metavar="a4|letter", help="The paper."),
    output: str = typer.Option(..., "-o", "--output", metavar="FILE.pdf", help="The PDF file to write."),
) -> None:
    """Write the 1:1 template kit (artillery, SOS, mortars, MG, gas, barrage) to a PDF."""

    from app.cli_mistakes import check_output, write_output
    from playsheets.render import html_to_pdf, template_kit_html

    check_output(output, "template-kit.pdf")
    with said_as_options():
        html = template_kit_html(paper)
    _require_pdf_engine()
    write_output(output, html_to_pdf(html), "template-kit.pdf")
    typer.echo(f"template kit ({paper}) written to {output}")


@contextmanager
def _backup_refused(path: Path) -> Iterator[None]:
    """What a backup or a restore refuses, or the system will not write, said as a mistake (one sentence)."""
    from app.core.backup import BackupRefused

    try:
        yield
    except BackupRefused as e:
        raise Mistake(str(e)) from None
    except FileExistsError:
        raise Mistake(
            f"{path} already exists and a backup never overwrites a file: name a new file"
        ) from None
    except OSError as e:
        raise Mistake(f"{e.filename or path} cannot be written ({e.strerror}): name another folder") from None


@app.command(short_help="Back up the games and the keys a restore needs.")
def backup(
    dest: Path = typer.Argument(
        ..., metavar="DEST", help="A new file, or a folder to write firestep-backup-DATE-TIME.zip into."
    ),
) -> None:
    """Back up this firestep into one new file, while it serves: never over a file already there.

    It carries what a restored install needs: the SQLite database (SQLite's online backup, consistent while a
    server serves and writes it); the data folder's secret key, without which every device's token and join code
    is dead (they are kept hashed with it); the club's keys (the authority each tablet trusts, the key that signs
    the club's results); not the kept sheets, made again when asked for. Keep it as privately as the laptop: it
    holds those keys. firestep restore puts it back. On PostgreSQL, pg_dump backs up: this says how.
    """
    from datetime import datetime

    from app.core.backup import pg_dump_refusal, postgresql, take, target
    from app.core.config import Settings

    settings = Settings(secret_key="-")  # a stand-in: backing up writes no key file
    now = datetime.now().astimezone()
    with _backup_refused(dest):
        if postgresql(settings.database_url):  # its own tool backs it up, into a new file too
            raise Mistake(pg_dump_refusal(settings.database_url, target(dest, now, ".dump")))
        taken = take(settings.database_url, settings.var_dir, target(dest, now))
    typer.echo(f"Backup written: {taken.path} ({taken.carried}; firestep restore {taken.path} puts it back).")
    if not taken.carried.key:
        typer.echo(
            "No secret key in the data folder: keep FIRESTEP_SECRET_KEY with the backup, as tokens need it."
        )


@app.command(short_help="Restore a backup into an empty data folder.")
def restore(
    src: Path = typer.Argument(..., metavar="SRC", help="A backup firestep backup wrote."),
) -> None:
    """Restore a backup into an empty data folder (FIRESTEP_VAR_DIR; never over an install): its database
    checked by SQLite's integrity check before anything else is written, migrated to this firestep's schema, then
    checked again and its games counted as the pages list them."""
    from app.core.backup import (
        foreign_programs,
        games_held,
        integrity,
        pg_restore_refusal,
        postgresql,
        unmigrated,
        whole_or_none,
    )
    from app.core.backup import restore as restore_backup
    from app.core.config import Settings

    settings = Settings(secret_key="-")  # a stand-in: the folder is checked empty before anything is made
    if postgresql(settings.database_url):
        raise Mistake(pg_restore_refusal(settings.database_url, src))
    with _backup_refused(settings.var_dir):
        restored = restore_backup(src, settings.database_url, settings.var_dir)
    if restored.carried.key:
        keys = f"{restored.carried}: every device's token works"
    else:
        keys = f"{restored.carried}, no secret key: set the FIRESTEP_SECRET_KEY it was taken with, or devices join again"
    try:
        # A schema the migration or the check after it refuses: what the restore wrote is taken away.
        with whole_or_none(settings.var_dir, restored.database, restored.made):
            _migrate("head")
            foreign_programs(restored.database)
            games = games_held(restored.database)
            checked = integrity(restored.database)
    except Exception as e:
        raise Mistake(str(unmigrated(src, e))) from None
    # The check first, then what was restored: "Restored" came before the check, and before a refusal that took
    # the restore away again. Then its games, counted as the pages list them, in the order the README's "Keep a
    # backup" tells (the count rode on the check's line, before "Restored", under pragma's own name: the
    # newcomer pass).
    typer.echo(f"SQLite's integrity check: {checked}.")
    typer.echo(f"Restored {src} into {settings.var_dir} ({keys}).")
    typer.echo(f"{games}.")


league_app = typer.Typer(help="A league's results, as its organiser publishes them.", no_args_is_help=True)
app.add_typer(league_app, name="league", short_help="Publish a league's static site.")


@league_app.command(short_help="Write a league's static site into a folder.")
def publish(
    out: str = typer.Argument(
        ..., metavar="OUT/", help="The folder to write the site into (made if missing)."
    ),
    league_id: int = typer.Option(..., "--league", min=1, metavar="ID", help="The league's number."),
) -> None:
    """Write a league's static site into OUT/: only the files that changed, pages of what left it removed."""
    from app.services.league_site import publish_league

    for line in publish_league(league_id, out):
        typer.echo(line)


def main() -> None:
    """The command line, every mistake on it and every first-run or settings error said in one sentence."""
    try:
        code = app(standalone_mode=False)
    except ClickException as error:  # a usage mistake (click's own or a Mistake)
        typer.echo(usage_sentence(error), err=True)
        raise SystemExit(error.exit_code) from None
    except Exception as error:
        sentence = said(error)
        if sentence is None:
            raise
        typer.echo(sentence, err=True)
        raise SystemExit(1) from None
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
