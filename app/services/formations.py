"""A formation moved as one: every placed, living stand under a company or battalion (or any unit) shifted and
turned about the formation's centre, keeping its shape, in one write and one event (one Undo)."""

from __future__ import annotations

import math
from typing import Any

from sqlmodel import Session

from app.data.models import Event, Game, Unit
from app.guard.auth import Viewer
from app.services import events, turns
from app.services.units import list_units, update_unit
from rules.core.errors import RulesError
from rules.core.game import leaves_under


def stands_under(units: list[Unit], formation: Unit) -> list[Unit]:
    """The formation's stands on the table and in play (the formation itself, when it is a stand)."""
    return [
        u
        for u in leaves_under(formation, units)
        if u.x is not None and u.y is not None and not u.killed and not u.off_table
    ]


def move_formation(
    session: Session,
    game: Game,
    viewer: Viewer,
    unit_id: int,
    dx: float,
    dy: float,
    turn_deg: float,
    override: bool,
) -> tuple[list[dict[str, Any]], Event]:
    units = list_units(session, game.id or 0)
    formation = next((u for u in units if u.id == unit_id), None)
    if formation is None:
        raise RulesError("unit_id", f"game {game.id} has no unit {unit_id}")
    viewer.require_side(formation.side, "move units")
    stands = stands_under(units, formation)
    if not stands:
        raise RulesError("unit_id", f"{formation.name} has no stand on the table to move")
    overridden = None
    for stand in stands:
        overridden = (
            turns.rules_of_play(session, game, viewer, "move-stands", stand, override=override) or overridden
        )
    cx = sum(float(u.x or 0) for u in stands) / len(stands)
    cy = sum(float(u.y or 0) for u in stands) / len(stands)
    a = math.radians(turn_deg)
    placed: list[tuple[Unit, float, float, float]] = []
    for u in stands:
        rx, ry = float(u.x or 0) - cx, float(u.y or 0) - cy
        x = cx + dx + rx * math.cos(a) - ry * math.sin(a)
        y = cy + dy + rx * math.sin(a) + ry * math.cos(a)
        if not (0 <= x <= game.table_width_cm and 0 <= y <= game.table_length_cm):
            raise RulesError(
                "dx", f"that would put {u.name} off the table: move the formation less far", ["on the table"]
            )
        placed.append((u, round(x, 2), round(y, 2), round((float(u.facing_deg or 90) + turn_deg) % 360, 2)))
    changes: list[dict[str, Any]] = []
    for u, x, y, facing in placed:
        changes += update_unit(session, u, None, x=x, y=y, facing_deg=facing)
    payload = turns.with_override({"unit_id": unit_id, "changes": changes}, overridden)
    return changes, events.record(session, game, "move", viewer.role, payload, step=turns.logged_step(game))
