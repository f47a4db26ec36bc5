"""Resolving an action inside a game: the game's rule set fills the resolver's inputs from a snapshot of the
table and says what the result does (rules.core.game); this runs the resolver, writes those changes and
records the roll. What asking costs (a once-a-game use) and a secret draw (a pack only the game sees, each
side reading its own view) are the rule set's too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session

from app.data.models import Event, Game, Unit
from app.errors import Conflict
from app.guard.auth import Viewer, other_side
from app.services.events import record
from app.services.games import game_state
from app.services.markers import apply_changes, rules_of, snapshot_of
from app.services.turns import step_of
from app.services.units import list_units
from rules.core.errors import RulesError
from rules.core.game import Outcome
from rules.core.records import AddToState, Change, Filled, FillRequest, SetState, Snapshot, UnitChange
from rules.core.ruleset import ResolveRequest
from rules.registry import get_ruleset

__all__ = ["Filled", "acts", "ask", "fill", "resolve"]


# -- resolving inside a game --------------------------------------------------------------------------------
def fill(
    session: Session,
    game: Game,
    resolver: str,
    fields: set[str],
    unit: Unit | None,
    target: Unit | None,
    units: list[Unit],
    given: dict[str, Any],
) -> list[Filled]:
    """The request fields the game's state knows, each with why (the game's rule set decides which)."""
    request = FillRequest(
        frozenset(fields),
        unit.id if unit is not None else None,
        target.id if target is not None else None,
        given,
    )
    return list(rules_of(game).fill(resolver, snapshot_of(session, game, units), request))


@dataclass(frozen=True)
class _WorkedOut:
    """A roll worked out against the table, nothing written yet."""

    units: list[Unit]
    snapshot: Snapshot
    spent: tuple[Change, ...]
    filled: list[Filled]
    request: ResolveRequest
    resolution: dict[str, Any]
    secret: bool


def _work_out(
    session: Session,
    game: Game,
    viewer: Viewer,
    resolver_id: str,
    fields: dict[str, Any],
    dice: list[int] | None,
    unit_id: int | None,
    target_id: int | None,
    apply: bool,
) -> _WorkedOut:
    rs = get_ruleset(game.ruleset)
    game_rules = rules_of(game)
    if resolver_id not in rs.resolvers:
        raise RulesError("resolver", f"unknown resolver {resolver_id!r}", sorted(rs.resolvers))
    if game.status != "playing":
        raise Conflict(
            f"Start the game first: it is in {game.status}, not playing",
            current=game_state(game),
            why=f"the game is in {game.status}, not playing",
        )
    units = list_units(session, game.id or 0)
    unit = _named(game, units, unit_id, "unit_id")
    _named(game, units, target_id, "target_id")  # an unknown target is refused before anything is rolled
    if unit is not None:
        viewer.require_side(unit.side, "resolve for a unit")
    request_model = rs.resolvers[resolver_id].Request
    snapshot = snapshot_of(session, game, units)
    asked = FillRequest(frozenset(request_model.model_fields), unit_id, target_id, fields)
    spent = game_rules.before_resolve(resolver_id, snapshot, asked, apply)
    snapshot = snapshot.after(spent)
    filled = list(game_rules.fill(resolver_id, snapshot, asked))
    secret = resolver_id in game_rules.secret_draws
    if secret:
        # A player draws at the start of its turn: the side to move draws.
        viewer.require_side(game.side_to_move, f"draw {game_rules.secret_draws[resolver_id]}")
        _check_draw(viewer, dice, apply)
        filled += game_rules.drawn(resolver_id, snapshot, fields)
    body = {
        **{f.field: f.value for f in filled},
        **fields,
        "period": game.period,
        "variants": game.variants,
        "dice": dice,
    }
    try:
        req = request_model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise RulesError(f"fields.{loc}" if loc not in ("dice",) else loc, err["msg"]) from None
    resolution = rs.resolve(resolver_id, req).as_dict()
    return _WorkedOut(units, snapshot, spent, filled, req, resolution, secret)


def ask(
    session: Session,
    game: Game,
    viewer: Viewer,
    resolver_id: str,
    fields: dict[str, Any],
    dice: list[int] | None,
    unit_id: int | None,
    target_id: int | None,
) -> dict[str, Any]:
    """A roll worked out and nothing written: what the table fills, the odds, the answer for the dice given
    and what it would do to whom (a stand card shows this before its Apply). A secret draw is never asked."""
    if resolver_id in rules_of(game).secret_draws:
        raise RulesError("resolver", "a card is drawn for good, never looked at first: draw it")
    w = _work_out(session, game, viewer, resolver_id, fields, dice, unit_id, target_id, False)
    outcome = Outcome(w.request, w.resolution, unit_id, target_id)
    effects = rules_of(game).consequences(resolver_id, w.snapshot, outcome) if dice else ()
    return {
        "resolver": resolver_id,
        "unit_id": unit_id,
        "target_id": target_id,
        "filled": [{**f.as_dict(), "source": f.source} for f in w.filled],
        "resolution": w.resolution,
        "effects": [_effect(c) for c in effects],
    }


def _effect(c: Change) -> dict[str, Any]:
    """A change as the card words it: whose field moves by how much (or to what), why and by which rule."""
    out: dict[str, Any] = {"reason": c.reason, "source": c.source}
    if isinstance(c, UnitChange):
        out["unit_id"] = c.unit_id
    if isinstance(c, AddToState):
        out.update(field=c.field, delta=c.delta)
    elif isinstance(c, SetState):
        out.update(field=c.field, value=c.value)
    return out


def resolve(
    session: Session,
    game: Game,
    viewer: Viewer,
    resolver_id: str,
    fields: dict[str, Any],
    dice: list[int] | None,
    unit_id: int | None,
    target_id: int | None,
    apply: bool,
) -> tuple[dict[str, Any], Event]:
    w = _work_out(session, game, viewer, resolver_id, fields, dice, unit_id, target_id, apply)
    units, snapshot = w.units, w.snapshot
    if w.spent:  # written, not logged: the roll's event says what was asked
        apply_changes(session, game, units, w.spent)
    changes = (
        apply_changes(
            session,
            game,
            units,
            rules_of(game).consequences(
                resolver_id, snapshot, Outcome(w.request, w.resolution, unit_id, target_id)
            ),
        )
        if apply
        else []
    )
    payload = {
        "resolver": resolver_id,
        "unit_id": unit_id,
        "target_id": target_id,
        "request": w.request.model_dump(mode="json"),
        "filled": [f.as_dict() for f in w.filled],
        "resolution": w.resolution,
        "applied": apply,
        "changes": changes,
    }
    step = step_of(game)
    here = step.id if step else ""
    if w.secret:
        # One event: what the opponent learns of the draw is public; the drawer reads its own draw, the
        # opponent only what changed in its own hand (a card handed over), the referee the whole draw.
        drawer = game.side_to_move
        public, mine = rules_of(game).draw_seen(resolver_id, payload, drawer, apply)
        rival = other_side(drawer)
        theirs = [c for c in changes if c.get("side") == rival]
        private = {drawer: mine, "referee": payload, **({rival: {"changes": theirs}} if theirs else {})}
        ev = record(session, game, "roll", viewer.role, public, step=here, private=private)
        return (payload if viewer.is_referee else mine), ev
    return payload, record(session, game, "roll", viewer.role, payload, step=here)


def acts(session: Session, game: Game, viewer: Viewer, unit_id: int) -> list[dict[str, Any]]:
    """The rolls a stand's card offers this viewer now: the rule set's for the stand, those the current step
    has, while the game is played, for a side the viewer may act for."""
    units = list_units(session, game.id or 0)
    unit = _named(game, units, unit_id, "unit_id")
    if game.status != "playing" or unit is None or not viewer.may_act_for(unit.side):
        return []
    step = step_of(game)
    now = set(step.resolvers) if step else None
    offered = rules_of(game).stand_acts(snapshot_of(session, game, units), unit_id)
    return [a.as_dict() for a in offered if now is None or a.resolver in now]


def _check_draw(viewer: Viewer, dice: list[int] | None, apply: bool) -> None:
    """A side draws its cards as from a shuffled pack: the dice index the undealt pack in the game's order,
    so a side giving them would pick its card, and each card it drew at a position it chose, or looked at
    without drawing, would tell it which cards are not in the pack (the opponent's hand). The referee, who
    sees the pack, may (to enter a draw made at the table)."""
    if viewer.is_referee:
        return
    if dice is not None:
        raise RulesError("dice", "a side does not pick its cards: omit dice and firestep draws from the pack")
    if not apply:
        raise RulesError("apply", "a side draws its cards for good: a draw cannot be looked at first", [True])


def _named(game: Game, units: Sequence[Unit], unit_id: int | None, field: str) -> Unit | None:
    """A unit named in the request, from the units already loaded: unknown is a 422 naming the field."""
    if unit_id is None:
        return None
    unit = next((u for u in units if u.id == unit_id), None)
    if unit is None:
        raise RulesError(field, "pick a stand of this game", why=f"game {game.id} has no unit {unit_id}")
    return unit
