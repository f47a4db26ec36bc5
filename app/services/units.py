"""A game's units: queries and writes, a unit as a viewer may read it, a row as the rules read it, and walking
the force tree."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.data.board_state import board_json, read_board
from app.data.models import Game, Unit
from app.errors import Conflict
from app.guard.auth import SIDES, Viewer
from app.services.games import set_game
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import StateField, UnitState
from rules.core.game import ancestor_at as ancestor_at
from rules.core.game import ancestors as ancestors
from rules.core.game import leaves_under as leaves_under


# -- units -----------------------------------------------------------------------------------------------
def list_units(session: Session, game_id: int) -> list[Unit]:
    return list(
        session.exec(
            select(Unit)
            .where(Unit.game_id == game_id)
            .order_by(col(Unit.id))
            .execution_options(populate_existing=True)
        )
    )


def get_unit(session: Session, game_id: int, unit_id: int, field: str | None = None) -> Unit:
    """A unit of this game. With `field`, a unit named in a request body: unknown is a 422 naming it."""
    unit = session.exec(
        select(Unit)
        .where(Unit.id == unit_id, Unit.game_id == game_id)
        .execution_options(populate_existing=True)
    ).first()
    if unit is None:
        if field:
            raise RulesError(field, f"game {game_id} has no unit {unit_id}")
        raise NotFoundError("unit", str(unit_id))
    return unit


def add_unit_tree(
    session: Session,
    game_id: int,
    side: str,
    node: Any,
    placements: Mapping[str, Mapping[str, Any]],
    parent_id: int | None = None,
    off_table: Iterable[str] = (),
    off_parent: bool = False,
) -> Unit:
    """Insert a rules.flanders_fields.book.organisation.Unit tree (id, name, level, kind, base, quality, models,
    children, source); `placements` maps stand ids to {center, facing_deg}; units named in `off_table`
    (reinforcements, off-table batteries) and everything under them start off the table."""
    off = set(off_table)
    place = placements.get(node.id)
    row = Unit(
        game_id=game_id,
        parent_id=parent_id,
        side=side,
        ref=node.id,
        name=node.name,
        level=node.level,
        kind=node.kind,
        base=node.base,
        quality=node.quality,
        models=node.models,
        is_command=node.kind.endswith("-command"),
        off_table=off_parent or node.id in off,
        x=float(place["center"][0]) if place else None,
        y=float(place["center"][1]) if place else None,
        facing_deg=float(place.get("facing_deg", 90.0)) if place else None,
        source=node.source,
    )
    session.add(row)
    session.flush()
    assert row.id is not None
    for child in node.children:
        add_unit_tree(session, game_id, side, child, placements, row.id, off, row.off_table)
    return row


def update_unit(
    session: Session, unit: Unit, expected_version: int | None = None, **values: Any
) -> list[dict]:
    """Set fields on a unit, bumping its version; returns the changes as {unit, field, before, after}.
    With `expected_version` the write only lands on that version: else 409 with the current unit."""
    assert unit.id is not None
    # A change to a side's secret names the side, so the log keeps it in that side's part (events.split).
    changes = [
        {"unit": unit.id, "field": k, "before": getattr(unit, k), "after": v}
        | ({"side": unit.side} if k in SECRET_FIELDS else {})
        for k, v in values.items()
        if getattr(unit, k) != v
    ]
    stmt = update(Unit).where(col(Unit.id) == unit.id)
    if expected_version is not None:
        stmt = stmt.where(col(Unit.version) == expected_version)
    result = session.execute(stmt.values(version=Unit.version + 1, **values))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        session.refresh(unit)
        raise Conflict(f"unit version is {unit.version}, not {expected_version}", current=unit_dict(unit))
    session.refresh(unit)
    return changes


def increment(session: Session, unit: Unit, field: str, delta: int, floor: int = 0) -> dict[str, Any] | None:
    """An atomic `field = field + delta` (never below `floor`): two devices adding a marker at once make two.
    Returns the change, or None when it would go below the floor."""
    assert unit.id is not None
    column = getattr(Unit, field)
    stmt = update(Unit).where(col(Unit.id) == unit.id)
    if delta < 0:
        stmt = stmt.where(column + delta >= floor)
    result = session.execute(stmt.values({field: column + delta, "version": Unit.version + 1}))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        return None
    session.refresh(unit)
    return {"unit": unit.id, "field": field, "delta": delta, "after": getattr(unit, field)}


# -- what a viewer reads of a unit -------------------------------------------------------------------------
# Where a side's batteries are aimed is its secret, as its fire plan is, until the rules put it on the table:
# "When a battery fires at a target using either direct or indirect fire from on or off table an aiming point
# is placed on the table at the designated spot" (Flanders Fields, ARTILLERY AIMING POINT); the whole plan
# once the game is over. Every answer, log entry and page that carries a unit reads it through a Reader.
SECRET_FIELDS = frozenset({"aiming_point"})
# The rolls in which a battery fires: it shoots (direct or indirect fire), or its aiming point is rolled for
# deviation as it fires ("ARTILLERY AIMING POINT - DEVIATION").
FIRING_RESOLVERS = frozenset({"shooting", "deviation"})


@dataclass(frozen=True)
class Reader:
    """What one viewer reads of a game's units: the secrets of the sides in `sides` (its own; both for the
    referee, or once the game is over), and of the other side only the aiming points on the table."""

    sides: frozenset[str] = frozenset()
    on_table: Mapping[str, Any] = field(default_factory=dict)  # unit id -> where it last fired

    def __call__(self, unit: Unit) -> dict[str, Any]:
        out = {name: getattr(unit, name) for name in Unit.model_fields}  # loads a row expired by a commit
        if unit.side not in self.sides and out["aiming_point"] != self.on_table.get(str(unit.id)):
            out["aiming_point"] = None
        return out


PUBLIC = Reader()  # what anyone may read (a device without a token, and the public part of the log)


def reader(game: Game, viewer: Viewer | None) -> Reader:
    sees_all = game.status == "finished" or (viewer is not None and viewer.is_referee)
    sides: frozenset[str] = frozenset(SIDES if sees_all else [viewer.role] if viewer is not None else [])
    return Reader(sides, read_board(game).aiming_points)


def unit_dict(unit: Unit, read: Reader = PUBLIC) -> dict[str, Any]:
    """A unit as `read`'s viewer may read it; by default as anyone may."""
    return read(unit)


def carries_aiming_point(unit: Unit) -> bool:
    """Batteries and mortars: the units that carry an aiming point."""
    words = f"{unit.level} {unit.kind}".lower()
    return "battery" in words or "artillery" in words or "mortar" in words


def battery_fired(session: Session, game: Game, unit: Unit, resolver: str) -> list[dict[str, Any]]:
    """A roll by `unit`: when it is a battery firing, its aiming point goes on the table for both sides to
    read. Returns the change to the board (none when nothing new is shown)."""
    if resolver not in FIRING_RESOLVERS or unit.aiming_point is None or not carries_aiming_point(unit):
        return []
    board = read_board(game)
    if board.aiming_points.get(str(unit.id)) == unit.aiming_point:
        return []
    board.aiming_points = {**board.aiming_points, str(unit.id): unit.aiming_point}
    return set_game(session, game, board=board_json(game, board))


# -- the force tree ---------------------------------------------------------------------------------------
# Walking the tree (ancestors, ancestor_at, leaves_under) is rules.core.game's: it reads the rows as they are.
def subtree(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    """The root and everything under it, in id order."""
    inside = {root.id}
    for u in sorted(units, key=lambda u: u.id or 0):  # parents are inserted before their children
        if u.parent_id in inside:
            inside.add(u.id)
    return [u for u in units if u.id in inside]


def unit_state(u: Unit, fields: Iterable[StateField]) -> UnitState:
    """A unit row as the rules read it (rules.core.game), with the state `fields` of its rule set."""
    assert u.id is not None
    return UnitState(
        id=u.id,
        parent_id=u.parent_id,
        side=u.side,
        level=u.level,
        kind=u.kind,
        name=u.name,
        quality=u.quality,
        base=u.base,
        is_command=u.is_command,
        off_table=u.off_table,
        x=u.x,
        y=u.y,
        facing_deg=u.facing_deg,
        killed=u.killed,
        state={f.name: getattr(u, f.name) for f in fields},
    )
