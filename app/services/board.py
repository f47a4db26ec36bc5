"""What the referee board reads of a game's units: each unit's place in its force tree and the state a
stand tile shows, as plain rows (one query, no ORM objects: the board reads every unit on each change)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlmodel import Session, col

from app.data.models import Unit


@dataclass(frozen=True, slots=True)
class UnitRow:
    id: int
    parent_id: int | None
    side: str
    ref: str
    name: str
    level: str
    kind: str
    quality: str | None
    is_command: bool
    off_table: bool
    suppression: int
    killed: bool
    stuck_on_wire: bool
    in_gas: bool
    morale_due: bool
    morale_stage: int


COLUMNS = [
    col(Unit.id),
    col(Unit.parent_id),
    col(Unit.side),
    col(Unit.ref),
    col(Unit.name),
    col(Unit.level),
    col(Unit.kind),
    col(Unit.quality),
    col(Unit.is_command),
    col(Unit.off_table),
    col(Unit.suppression),
    col(Unit.killed),
    col(Unit.stuck_on_wire),
    col(Unit.in_gas),
    col(Unit.morale_due),
    col(Unit.morale_stage),
]


def board_units(session: Session, game_id: int) -> list[UnitRow]:
    """The game's units in id order (parents before children, as they were created)."""
    rows = session.connection().execute(
        select(*COLUMNS).where(col(Unit.game_id) == game_id).order_by(col(Unit.id))
    )
    return [UnitRow(**row) for row in rows.mappings()]
