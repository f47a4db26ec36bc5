"""A stand's card on the table map once its roll is recorded, rendered by the server (issue 67): the roll as its
event says it (its dice and outcome, each other stand its shot attacked, what it did to whom, the readings its
answer was decided by), its Undo as the undo service would answer this seat, and the stand's next acts as the act
pipeline now offers them (`app.pages.stand_acts.stand_acts`, from `app.services.card.stand_card`); read by
frontend/static/js/table-act.js once the roll's write is answered (the part's data-done)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Path, Query
from sqlmodel import Session

from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Game
from app.deps import SessionDep
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.pages.stand_acts import StandActs, stand_acts
from app.pages.stand_count import counted_more
from app.pages.stand_next import CardQuery
from app.pages.stand_play import also_lines, rolled_words
from app.pages.templates import humanise
from app.services import events as events_service
from app.services.markers import kept_of, rules_of
from app.services.seating import Viewer
from app.services.undo import undo_refused
from rules.core.consequences import outcome_words, said
from rules.core.errors import RulesError
from rules.core.readings import readings_deciding
from rules.core.records import AddToState, Change, SetState
from rules.registry import get_ruleset

__all__ = ["StandDone", "stand_done", "stand_done_page"]

router = Router()


@dataclass(frozen=True)
class StandDone:
    """The card once its roll is recorded, as the roll's event says it: its dice and outcome (`line`), each
    other stand its shot attacked, what it did to whom, its Undo, and the stand's next acts as the act
    pipeline now offers them (`acts`)."""

    event_id: int
    line: str
    also: tuple[str, ...]
    said: tuple[str, ...]
    acts: StandActs
    undo_refused: str = ""  # why this seat may not undo the roll now (the undo service's sentence), or ""
    readings: tuple[str, ...] = ()  # each erratum's reading the recorded answer was decided by, citing it

    def context(self) -> dict[str, object]:
        """The context `_stand_done.html` renders (tests/app/games/test_stand_card_page.py holds the two together)."""
        return {"done": self}


def stand_done(
    session: Session, game: Game, viewer: Viewer, unit_id: int, event_id: int, label: str
) -> StandDone:
    """The card of stand `unit_id` after its roll `label` was recorded as event `event_id`, as `viewer` reads
    that event (none the viewer may not read, nor one of another game or of another kind: one refusal for all,
    so that it tells no seat which event ids exist)."""
    ev = events_service.readable(session, game.pk, viewer, event_id, "roll")
    payload = events_service.event_dict(ev, events_service.roles_of(viewer))["payload"]
    res = payload.get("resolution") or {}
    done: list[Change] = []
    for c in changes_in(payload):
        if isinstance(c, UnitSet):
            done.append(SetState("", "", c.unit, c.field, c.after))
        elif isinstance(c, UnitCounted):
            done.append(AddToState("", "", c.unit, c.field, c.delta))
    words = outcome_words(res.get("outcome"))
    name = label or humanise(str(payload.get("resolver") or "roll"))
    short = kept_of(session, game).short_names
    target = payload.get("target_id")
    dice, whom = rolled_words(res.get("dice") or [], res.get("also") or [], short.get(target or 0, ""))
    if n := res.get("count"):  # entered as a count: its dice stand for it, the count is what was rolled
        dice = f"{n['reached']} of {n['dice']} dice reaching {n['reach']}+{counted_more(n)}"
    rolled = "firestep rolled" if res.get("rolled_by_server") else "rolled"  # whose dice, as the log keeps it
    return StandDone(
        ev.pk,
        f"{name}: {rolled} {dice}{whom}, {words}." if dice else f"{name}: {words}.",
        also_lines(res, short),
        tuple(said(done, rules_of(game).book.state_fields, short)),
        stand_acts(session, game, viewer, unit_id),
        undo_refused(session, game, viewer, ev),
        _recorded_readings(game, payload),
    )


def _recorded_readings(game: Game, payload: Mapping[str, Any]) -> tuple[str, ...]:
    """The readings a recorded roll's answer was decided by, from its request and dice as the log keeps them
    (and this seat reads them): named, not offered, for the roll stands as it was recorded."""
    rs = get_ruleset(game.ruleset)
    resolver = str(payload.get("resolver") or "")
    dice = (payload.get("resolution") or {}).get("dice")
    if resolver not in rs.resolvers or not dice:
        return ()
    try:
        req = rs.resolvers[resolver].Request.model_validate({**(payload.get("request") or {}), "dice": None})
        used = readings_deciding(rs, resolver, req, tuple(dice))
    except (ValueError, RulesError):
        return ()  # a request this seat reads only in part names no reading rather than a wrong one
    return tuple(f"{u.line} {u.mark} ({u.here or u.used.source})" for u in used)


@panel_page(router, "/games/{game_id}/map/units/{unit_id}/done/{event_id}", "_stand_done.html")
def stand_done_page(
    game: Game,
    seat: Seat,
    session: SessionDep,
    unit_id: Annotated[int, Path(ge=1, le=INT32_MAX)],
    event_id: Annotated[int, Path(ge=1, le=INT32_MAX)],
    asked: Annotated[CardQuery, Query()],
) -> StandDone:
    """The card of a stand once its roll (its query's `act`: the card's words for it) is recorded, for this seat."""
    return stand_done(session, game, seat.viewer, unit_id, event_id, asked.label)
