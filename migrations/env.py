"""Alembic's environment: the only source of the schema is migrations/versions, one revision per change.

A landed revision never changes: migrations/manifest.json pins each revision id to its file's sha256, and tests
fail when a file or an entry differs from what landed (git history included). Ids 0004 and 0005 were once
reused (empty placeholders, then the access and secrets schema), so a database upgraded in between was stamped
past them without their columns: 0008 adds whatever of them is missing. 0010 was changed after it landed (the
scenario's period column); 0011 adds the column where the first 0010 left it out. app.core.db.schema_drift
lists what the models need and the live schema lacks; the app refuses to start on a drifted database. A
downgrade through 0005 or 0004 drops data for good (LOSSY_DOWNGRADES): refused unless `-x lose_data=yes`."""

from __future__ import annotations

from alembic import context
from alembic.runtime.migration import RevisionStep
from alembic.util import CommandError
from sqlmodel import SQLModel

import app.data.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.core.config import get_settings
from app.core.db import make_engine

config = context.config
target_metadata = SQLModel.metadata

# Undoing these drops data no later revision can bring back: refused unless asked for by name.
LOSSY_DOWNGRADES = {
    "0005": "the side-private parts of events (card hands) and the per-side fire-plan edits",
    "0004": "the devices' revocations (revoked tokens would work again) and which games are archived",
}


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _refuse_lossy_downgrade() -> None:
    """A downgrade through 0005 or 0004 stops before its first step unless `-x lose_data=yes` is given (or
    app.core.db.downgrade is told lose_data)."""
    asked = context.get_x_argument(as_dictionary=True).get("lose_data") == "yes"
    if asked or config.attributes.get("lose_data"):
        return
    try:
        context.get_revision_argument()
    except KeyError:  # a command that migrates nothing (current, check): no destination
        return
    migration = context.get_context()
    # The steps this command is about to run (alembic computes them the same way when it runs them).
    steps = migration._migrations_fn(migration.get_current_heads(), migration)  # type: ignore[misc]
    lost = [
        f"{step.revision.revision} ({LOSSY_DOWNGRADES[step.revision.revision]})"
        for step in steps
        if isinstance(step, RevisionStep) and step.is_downgrade and step.revision.revision in LOSSY_DOWNGRADES
    ]
    if lost:
        raise CommandError(
            f"Refusing to downgrade: undoing {' and '.join(lost)} destroys that data for good; back the database "
            "up and run again with `-x lose_data=yes` if that is what you want."
        )


def run_migrations_online() -> None:
    engine = make_engine(_url())
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        _refuse_lossy_downgrade()
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
