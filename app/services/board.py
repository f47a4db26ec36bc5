"""What the referee board reads of a game's units: each unit's place in its force tree and the state a
stand tile shows, as plain rows (one query, no ORM objects: the board reads every unit on each change)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import select
from sqlmodel import Session, col

from app.core import live
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
    killed: bool
    state: dict[str, Any]  # the rule set's state fields by name; each also reads as an attribute

    @property
    def pk(self) -> int:  # as a stored row gives it (app.data.models.Stored.pk): a row read has its id
        return self.id

    def __getattr__(self, name: str) -> Any:
        try:
            return self.state[name]
        except KeyError:
            raise AttributeError(name) from None


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
    col(Unit.killed),
    col(Unit.state),
]


def board_units(session: Session, game_id: int, only: Iterable[int] | None = None) -> list[UnitRow]:
    """The game's units in id order (parents before children, as they were created); `only` these."""
    query = select(*COLUMNS).where(col(Unit.game_id) == game_id)
    if only is not None:
        query = query.where(col(Unit.id).in_(list(only)))
    rows = session.connection().execute(query.order_by(col(Unit.id)))
    return [UnitRow(**row) for row in rows.mappings()]


def shared_units(session: Session, game_id: int, ids: Iterable[int], shared: live.Shared) -> list[Unit]:
    """The game's units `ids` in id order, read once for every rendering that shares `shared` (a live event's
    map and board frames both take the units it touched from this one read)."""
    wanted = frozenset(ids)

    def read() -> list[Unit]:
        query = select(Unit).where(col(Unit.game_id) == game_id, col(Unit.id).in_(wanted))
        return list(session.scalars(query.order_by(col(Unit.id))))

    got: list[Unit] = shared.get(("units", wanted), read)
    return got


def unit_row(unit: Unit) -> UnitRow:
    """A unit read whole as the board reads it."""
    return UnitRow(**{f.name: getattr(unit, f.name) for f in fields(UnitRow)})
