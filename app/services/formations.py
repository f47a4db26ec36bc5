"""A formation moved as one: every placed, living stand under a company or battalion (or any unit) shifted and
turned about the formation's centre, keeping its shape, in one write and one event (one Undo).

In time linear in the stands (issue 35: 690 stands cost 16.7 s of CPU when each stand read every unit again):
the move is worked out from one read before the game's write lock is taken (`plan`), so another game's write
never waits on the arithmetic, and written under the lock in one statement over the versions it was read at
(`write`, through app.services.acts); if a stand changed in between, the move is worked out again under the lock."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, update
from sqlmodel import Session

from app.data.models import Game, Unit
from app.errors import Conflict
from app.guard.auth import Viewer
from app.services.units import list_units
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import leaves_under

FIELDS = ("x", "y", "facing_deg")


@dataclass(frozen=True)
class Plan:
    """A move worked out from one read of the game's units: each stand's new place, over its version."""

    unit_id: int
    units: list[Unit]  # the game's units as read (the rules of play read the force tree from them)
    stands: list[Unit]
    placed: list[tuple[Unit, float, float, float]]  # stand, x, y, facing
    versions: dict[int, int]
    table: tuple[float, float]


def stands_under(units: list[Unit], formation: Unit) -> list[Unit]:
    """The formation's stands on the table and in play (the formation itself, when it is a stand)."""
    return [
        u
        for u in leaves_under(formation, units)
        if u.x is not None and u.y is not None and not u.killed and not u.off_table
    ]


def plan(
    session: Session, game: Game, viewer: Viewer, unit_id: int, dx: float, dy: float, turn_deg: float
) -> Plan:
    """Every stand's new place, from one read (no lock needed: the write checks the versions read)."""
    units = list_units(session, game.pk)
    formation = next((u for u in units if u.id == unit_id), None)
    if formation is None:
        raise RulesError("unit_id", "the game has no such unit: pick one of its units")
    viewer.require_side(formation.side, "move units")
    stands = stands_under(units, formation)
    if not stands:
        raise RulesError("unit_id", f"{formation.name} has no stand on the table to move")
    cx = sum(float(u.x or 0) for u in stands) / len(stands)
    cy = sum(float(u.y or 0) for u in stands) / len(stands)
    a = math.radians(turn_deg)
    cos, sin = math.cos(a), math.sin(a)
    placed: list[tuple[Unit, float, float, float]] = []
    for u in stands:
        rx, ry = float(u.x or 0) - cx, float(u.y or 0) - cy
        x = cx + dx + rx * cos - ry * sin
        y = cy + dy + rx * sin + ry * cos
        if not (0 <= x <= game.table_width_cm and 0 <= y <= game.table_length_cm):
            raise RulesError(
                "dx", f"that would put {u.name} off the table: move the formation less far", ["on the table"]
            )
        # A stand placed without a facing faces up the table (90, the default of a new stand); a facing of
        # 0 is a facing like any other (`or 90` turned it to 90 on a move without a turn).
        facing = 90.0 if u.facing_deg is None else float(u.facing_deg)
        placed.append((u, round(x, 2), round(y, 2), round((facing + turn_deg) % 360, 2)))
    versions = {u.pk: u.version for u in stands}
    return Plan(unit_id, units, stands, placed, versions, (game.table_width_cm, game.table_length_cm))


def asks(p: Plan) -> list[tuple[str, Unit | None, str | None]]:
    """The rules of play asked once per kind of stand under one parent (what they read of a stand: its kind,
    whether it commands and the units above it), not once per stand: the same answer for each."""
    out: dict[tuple[Any, ...], tuple[str, Unit | None, str | None]] = {}
    for stand in p.stands:
        key = (stand.parent_id, stand.side, stand.level, stand.kind, stand.is_command)
        out.setdefault(key, ("move-stands", stand, None))
    return list(out.values())


def _write(session: Session, p: Plan) -> list[dict[str, Any]] | None:
    """Every stand's new place in one statement, each over the version it was read at; None (nothing kept)
    when a stand changed since."""
    table = Unit.__table__  # type: ignore[attr-defined]
    c = table.c
    rows = [{"uid": u.id, "seen": p.versions[u.pk], "nx": x, "ny": y, "nf": f} for u, x, y, f in p.placed]
    result = session.execute(
        update(table)
        .where(and_(c.id == bindparam("uid"), c.version == bindparam("seen")))
        .values(x=bindparam("nx"), y=bindparam("ny"), facing_deg=bindparam("nf"), version=c.version + 1),
        rows,
    )
    if result.rowcount != len(rows):  # type: ignore[attr-defined]
        return None
    changes: list[dict[str, Any]] = []
    for u, x, y, facing in p.placed:
        for name, after in zip(FIELDS, (x, y, facing), strict=True):
            if getattr(u, name) != after:
                changes.append({"unit": u.id, "field": name, "before": getattr(u, name), "after": after})
        session.expire(u)  # the rows were written past the ORM: read anew when next asked
    return changes


def write(
    session: Session,
    game: Game,
    viewer: Viewer,
    p: Plan,
    dx: float,
    dy: float,
    turn_deg: float,
    asked_again: Callable[[Plan], None],
) -> list[dict[str, Any]]:
    """The planned move written under the game's lock (`game`, locked); when a stand (or the table) changed
    since the plan was read, planned again under the lock, its rules of play asked again (`asked_again`)."""
    changes = None
    if p.table == (game.table_width_cm, game.table_length_cm):
        changes = _write(session, p)
    if changes is None:
        p = plan(session, game, viewer, p.unit_id, dx, dy, turn_deg)
        asked_again(p)
        changes = _write(session, p)
        if changes is None:
            raise Conflict("A stand of the formation changed meanwhile: look again and try again")
    return changes


def planned(
    session: Session, game_id: int, viewer: Viewer, unit_id: int, dx: float, dy: float, turn_deg: float
) -> Plan:
    """`plan` before the game's write lock: the game read without locking it (404 for an unknown game)."""
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("game", str(game_id))
    return plan(session, game, viewer, unit_id, dx, dy, turn_deg)
