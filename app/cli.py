"""The `firestep` command line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from app.services.seats import Credentials

app = typer.Typer(help="firestep: a tabletop assistant for Great War miniatures games.", no_args_is_help=True)


@app.command()
def migrate(revision: str = typer.Option("head", help="Alembic revision to upgrade to.")) -> None:
    """Apply database migrations (FIRESTEP_DATABASE_URL; SQLite under ./var by default)."""
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


def _demo() -> None:
    from sqlmodel import Session

    from app.core.config import get_settings
    from app.core.db import make_engine
    from app.services.demo import ensure_demo
    from app.services.seats import reissue_credentials

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
            creds = reissue_credentials(session, settings.secret_key, game.id)
            session.commit()
            _print_credentials(creds)
    engine.dispose()


def _print_credentials(creds: Credentials) -> None:
    from app.core.config import get_settings

    settings = get_settings()
    typer.echo(f"  referee token: {creds.referee_token}")
    for side, code in creds.join_codes.items():
        typer.echo(f"  join code for the {side}: {code}")
    typer.echo(
        f"  to sign in, open http://{settings.host}:{settings.port}/ on any device and enter the referee token "
        "(the referee) or a side's join code (its players) under 'Join a game'"
    )


@app.command()
def credentials(game_id: int = typer.Argument(..., help="Game id (see GET /api/v1/games).")) -> None:
    """Issue a new referee token and new join codes for a game (old join codes stop working)."""
    from sqlmodel import Session

    from app.core.config import get_settings
    from app.core.db import make_engine
    from app.services.seats import reissue_credentials

    settings = get_settings()
    engine = make_engine(settings.database_url)
    with Session(engine) as session:
        creds = reissue_credentials(session, settings.secret_key, game_id)
        session.commit()
        _print_credentials(creds)
    engine.dispose()


@app.command()
def serve(
    host: str | None = typer.Option(None, help="Interface to bind (default FIRESTEP_HOST, 127.0.0.1)."),
    port: int | None = typer.Option(None, help="Port (default FIRESTEP_PORT, 8000)."),
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
    import uvicorn
    from sqlalchemy.engine import make_url

    from app.core.config import get_settings
    from app.server import uvicorn_options

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
    if setup:
        _migrate("head")
        _demo()
    if count == 1 and not reload:  # this process serves: its rehearsal worker can start while it starts
        from app.services.rehearsal import start_worker

        start_worker()
    # Migrated and seeded once, above; each worker then imports app.main:app on its own.
    uvicorn.run(
        "app.main:app",
        host=host or settings.host,
        port=port or settings.port,
        reload=reload,
        workers=count,
        **uvicorn_options(settings.graceful_shutdown_seconds),
    )


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

    Path(output).write_bytes(template_kit_pdf(paper))
    typer.echo(f"template kit ({paper}) written to {output}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
