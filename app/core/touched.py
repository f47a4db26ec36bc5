"""What a logged event touched (as `app.services.events.event_dict` gives it): the units a live frame carries,
and whether the game's own state moved (app.core.live's views and the referee board read it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.data.changes import GameSet, UnitCounted, UnitSet, changes_in
from rules.core.acts import GiveTime, PauseClock, ResumeClock, SetClockLimits

# Kinds that change stands only: the game's turn and board stay as they were unless a change names the game.
STAND_KINDS = frozenset({"marker", "move", "unit-update", "roll", "arrival-roll"})
# The referee's acts on the clock (app.services.acts._clock): logged, they change neither a stand nor the game's
# row (its turn, step, board or version); the frames carry the clock itself (app.routes.events). Counted as
# touching the game, a pause had every map redraw its whole table and every board read its units anew.
CLOCK_KINDS = frozenset({PauseClock.event, ResumeClock.event, GiveTime.event, SetClockLimits.event})


def touched_units(event: Mapping[str, Any]) -> set[int]:
    """The units an event (as `events.event_dict` gives it) names or changes (a marker may suppress a whole
    company)."""
    payload = event["payload"]
    out = {payload[key] for key in ("unit_id", "target_id") if isinstance(payload.get(key), int)}
    out.update(c.unit for c in changes_in(payload) if isinstance(c, UnitSet | UnitCounted))
    return out


def logged_kind(event: Mapping[str, Any]) -> str:
    """The kind of act an event records: an undo's, the kind of the event it undoes."""
    return str(event["payload"].get("kind") if event["kind"] == "undo" else event["kind"])


def touches_game(event: Mapping[str, Any]) -> bool:
    """Whether an event may have changed the game itself (its turn, step or board), not only stands."""
    kind = logged_kind(event)
    if kind in CLOCK_KINDS:
        return False
    if kind not in STAND_KINDS:
        return True
    return any(isinstance(c, GameSet) for c in changes_in(event["payload"]))
