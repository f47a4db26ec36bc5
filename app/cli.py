"""The `firestep` command line."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from app.services.seats import Credentials

ABOUT = "firestep: a tabletop assistant for Great War miniatures games."


def where() -> str:
    """Where this firestep keeps its data, from the settings as they stand (nothing is created to say so)."""
    from sqlalchemy.engine import make_url

    from app.core.config import Settings

    settings = Settings(secret_key="-")  # a stand-in, so that reading the settings writes no key file
    database = make_url(settings.database_url).render_as_string(hide_password=True)
    return (
        f"Data folder: {settings.var_dir} (FIRESTEP_VAR_DIR; ./var when the working folder has one, else "
        "the user's data folder).\n\n"
        f"Database: {database} (FIRESTEP_DATABASE_URL).\n\n"
        f"Club authority (serve --club): {settings.var_dir / 'club'}, its keys readable by this user only.\n\n"
        "Logs: printed to this terminal (standard error); to keep them, redirect it: "
        "firestep serve 2> firestep.log"
    )


class _Help(TyperGroup):
    """The top-level help ends with where the data is, worked out when the help is asked for."""

    def format_help(self, ctx: Any, formatter: Any) -> None:  # typer's own click types
        self.help = f"{ABOUT}\n\n{where()}"
        super().format_help(ctx, formatter)


app = typer.Typer(cls=_Help, help=ABOUT, no_args_is_help=True)


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        typer.echo(f"firestep {version('firestep')}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print firestep's version and stop."
    ),
) -> None:
    pass


class _Terminated(SystemExit):
    pass


def _exit_on_term(signum: int, _frame: Any) -> None:
    raise _Terminated(128 + signum)


def _start_worker() -> None:
    """Spawn the rehearsal worker with Ctrl-C ignored from its first instruction (an ignored signal stays
    ignored in the new program, and Python keeps it so): a Ctrl-C while it still imports the app would print
    a traceback there. The worker ignores it again once started (Windows passes no such disposition on)."""
    from app.services.rehearsal import start_worker

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        start_worker()
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


@app.command()
def migrate(revision: str = typer.Option("head", help="Alembic revision to upgrade to.")) -> None:
    """Apply database migrations (FIRESTEP_DATABASE_URL; SQLite in the data folder by default: see --help)."""
    _migrate(revision)


@app.command()
def demo() -> None:
    """Load the demo game (Mons, autumn 1914) if the database has no game yet."""
    _demo()


def _migrate(revision: str) -> None:
    from app.core.config import get_settings
    from app.core.db import migrate as run_migrations

    url = get_settings().database_url
    run_migrations(url, revision)
    typer.echo(f"database at {revision}: {url}")


def _demo(address: str | None = None) -> None:
    """Load the demo game; its sign-in line names `address` (what `serve` serves), else the configured one."""
    from sqlmodel import Session

    from app.core.config import get_settings
    from app.core.db import make_engine
    from app.services.demo import ensure_demo
    from app.services.seats import reissue_credentials
    from app.services.writing import unit_of_work

    settings = get_settings()
    engine = make_engine(settings.database_url)
    with Session(engine) as session:
        game = ensure_demo(session, settings.secret_key)
        if game is None:
            typer.echo(
                "database already has games; demo not loaded (new codes: firestep credentials GAME_ID)"
            )
        else:
            assert game.id is not None
            typer.echo(f"demo game {game.id} loaded: {game.name}")
            with unit_of_work(session):
                creds = reissue_credentials(session, settings.secret_key, game.id)
            _print_credentials(creds, address)
    engine.dispose()


def _print_credentials(creds: Credentials, address: str | None = None) -> None:
    from app.core.config import get_settings

    settings = get_settings()
    typer.echo(f"  referee token: {creds.referee_token}")
    for side, code in creds.join_codes.items():
        typer.echo(f"  join code for the {side}: {code}")
    # A club server prints its own address (the laptop's LAN one) once it has looked it up.
    configured = f"http://{settings.host}:{settings.port}/"
    where = "the club address below" if settings.club_port else address or configured
    typer.echo(
        f"  to sign in, open {where} on any device and enter the referee token "
        "(the referee) or a side's join code (its players) under 'Join a game'"
    )


@app.command()
def credentials(game_id: int = typer.Argument(..., help="Game id (see GET /api/v1/games).")) -> None:
    """Issue a new referee token and new join codes for a game (old join codes stop working)."""
    from sqlmodel import Session

    from app.core.config import get_settings
    from app.core.db import make_engine
    from app.services.seats import reissue_credentials
    from app.services.writing import unit_of_work

    settings = get_settings()
    engine = make_engine(settings.database_url)
    with Session(engine) as session:
        with unit_of_work(session):
            creds = reissue_credentials(session, settings.secret_key, game_id)
        _print_credentials(creds)
    engine.dispose()


@app.command()
def serve(
    host: str | None = typer.Option(None, help="Interface to bind (default FIRESTEP_HOST, 127.0.0.1)."),
    port: int | None = typer.Option(
        None, help="Port (default FIRESTEP_PORT, 8000; with --club the HTTPS port, default 8443)."
    ),
    club: bool = typer.Option(
        False,
        "--club",
        help="Serve HTTPS on every interface with the club's own certificate authority (trusted once per "
        "tablet at /trust); the plain port (--http-port) serves /trust and redirects the rest.",
    ),
    http_port: int = typer.Option(8000, help="With --club: the plain-HTTP port for /trust and the redirect."),
    workers: int | None = typer.Option(
        None,
        min=1,
        max=64,
        help="Worker processes (default FIRESTEP_WORKERS, 1). More than one needs PostgreSQL: the workers "
        "share live updates through it.",
    ),
    setup: bool = typer.Option(True, help="Migrate and load the demo game before serving."),
    reload: bool = typer.Option(False, help="Reload on code changes (development)."),
) -> None:
    """Serve the web app and API (migrates the database and loads the demo game first)."""
    from app.core.config import get_settings

    # First of all, before the app is imported (seconds): a second server on this database stops at once.
    held = _hold(get_settings().database_url)  # noqa: F841  (held, not used: it lasts as long as the server)
    import uvicorn
    from sqlalchemy.engine import make_url

    from app.club.addresses import url_host
    from app.server import uvicorn_options

    if club:
        with _stopping_cleanly():
            _serve_club(host or "0.0.0.0", port or 8443, http_port, setup, workers, reload)
        return
    settings = get_settings()
    count = workers or settings.workers
    if count > 1 and make_url(settings.database_url).get_backend_name() != "postgresql":
        raise typer.BadParameter(
            f"{count} workers need PostgreSQL (FIRESTEP_DATABASE_URL=postgresql+psycopg://...): on SQLite "
            "each worker would show only the changes made through itself. Use --workers 1.",
            param_hint="--workers",
        )
    if count > 1 and reload:
        raise typer.BadParameter(
            "--reload runs one process; drop --workers or --reload", param_hint="--workers"
        )
    served_host, served_port = host or settings.host, port or settings.port
    with _stopping_cleanly():
        if setup:
            _migrate("head")
            _demo(f"http://{url_host(served_host)}:{served_port}/")  # the served address, not the configured
        _ready(settings.database_url)
        if count == 1 and not reload:  # this process serves: its rehearsal worker can start while it starts
            _start_worker()
        # Migrated and seeded once, above; each worker then imports app.main:app on its own.
        uvicorn.run(
            "app.main:app",
            host=served_host,
            port=served_port,
            reload=reload,
            workers=count,
            **uvicorn_options(settings.graceful_shutdown_seconds),
        )


def _serve_club(host: str, port: int, http_port: int, setup: bool, workers: int | None, reload: bool) -> None:
    import os

    from app.club import addresses, authority, signing
    from app.club.qr import terminal_qr
    from app.core.config import get_settings
    from app.server import serve_club

    if (workers or 1) > 1 or reload:
        raise typer.BadParameter(
            "--club serves from one process: drop --workers and --reload", param_hint="--club"
        )
    if port == http_port:
        raise typer.BadParameter("the HTTPS and the plain port must differ", param_hint="--http-port")
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
    _start_worker()
    # The address served: the one given to --host, or on every interface (0.0.0.0, ::) the laptop's LAN one.
    lan = addresses.lan_addresses()
    if host not in ("0.0.0.0", "::"):
        where = addresses.url_host(host)
    else:
        where = addresses.url_host(lan[0]) if lan else "127.0.0.1"
    trust = f"http://{where}:{http_port}/trust"
    typer.echo(f"Club server: https://{where}:{port}/ (trust the club's authority once per device: {trust})")
    typer.echo(terminal_qr(trust))
    ca = authority.authority_cert(settings.var_dir)
    assert ca is not None
    typer.echo(
        f"The club authority's SHA-256 fingerprint (/trust shows the same): {authority.fingerprint(ca)}"
    )
    hosts = [where, *names, *(addresses.url_host(a) for a in ips)]
    serve_club(
        host, port, http_port, files.server_cert, files.server_key, settings.graceful_shutdown_seconds, hosts
    )


def _require_pdf_engine() -> None:
    """Stop with the one sentence naming the remedy (exit status 1, no traceback) when PDFs cannot be made."""
    from app.core.pdf_engine import pdf_engine_problem

    if (problem := pdf_engine_problem()) is not None:
        typer.echo(problem, err=True)
        raise typer.Exit(1)


@app.command()
def doctor(
    port: int = typer.Option(8443, help="The HTTPS port serve --club will use."),
    http_port: int = typer.Option(8000, help="The plain port serve --club will use (/trust, the redirect)."),
) -> None:
    """Check what a club night needs on this laptop, one line each, and exit non-zero if any FAILs."""
    from app.core.config import Settings
    from app.doctor import check, summary

    lines = check(Settings(secret_key="-"), port, http_port)  # a stand-in key: checking writes no key file
    for line in lines:
        typer.echo(str(line))
    typer.echo(summary(lines))
    if any(line.status == "FAIL" for line in lines):
        raise typer.Exit(1)


@app.command()
def playsheet(
    period: str = typer.Option(..., help="War period: early, mid or late."),
    paper: str = typer.Option("a4", help="Paper: a4 or letter."),
    output: str = typer.Option(..., "-o", "--output", help="PDF file to write."),
    variant: list[str] = typer.Option([], help="A variant reading, erratum:reading (repeatable)."),
) -> None:
    """Print a period's playsheet (Flanders Fields) to a PDF."""
    from pathlib import Path

    from app.routes.playsheets import parse_variants
    from playsheets.render import render_pdf

    _require_pdf_engine()
    Path(output).write_bytes(render_pdf(period, paper, parse_variants(variant)))
    typer.echo(f"playsheet {period} ({paper}) written to {output}")


@app.command("template-kit")
def template_kit(
    paper: str = typer.Option("a4", help="Paper: a4 or letter."),
    output: str = typer.Option(..., "-o", "--output", help="PDF file to write."),
) -> None:
    """Print the 1:1 template kit (artillery, SOS, mortars, MG, gas, rolling barrage) to a PDF."""
    from pathlib import Path

    from playsheets.render import template_kit_pdf

    _require_pdf_engine()
    Path(output).write_bytes(template_kit_pdf(paper))
    typer.echo(f"template kit ({paper}) written to {output}")


def said(error: BaseException) -> str | None:
    """A first-run or misconfiguration error in one sentence saying what to do (no traceback); None for an
    error of firestep itself, which keeps its traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, OperationalError

    from app.core.datafolder import PrivateFolderError, ServedElsewhere
    from app.core.db import SchemaError

    if isinstance(error, SchemaError | ServedElsewhere):
        return str(error)
    if isinstance(error, PrivateFolderError):
        return f"{str(error)[:1].upper()}{str(error)[1:]}."
    if isinstance(error, ArgumentError):
        return "FIRESTEP_DATABASE_URL is not a database URL: correct it (e.g. postgresql+psycopg://user@host/db)."
    if isinstance(error, OperationalError):
        from app.core.config import Settings

        url = make_url(Settings(secret_key="-").database_url).render_as_string(hide_password=True)
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0][:200]
        return f"The database {url} cannot be opened ({reason}): start it, or correct FIRESTEP_DATABASE_URL."
    if isinstance(error, PermissionError | IsADirectoryError | NotADirectoryError):
        return f"{error.strerror}: {error.filename}: set FIRESTEP_VAR_DIR to a folder of your own and start again."
    return None


def main() -> None:
    try:
        app()
    except Exception as error:
        sentence = said(error)
        if sentence is None:
            raise
        typer.echo(sentence, err=True)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
