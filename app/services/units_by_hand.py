"""A unit added or edited by hand, as the units API and the counter editor's form save one (issue 67): the
body checked as the API checks it (its rule set's words, only the state fields set by hand, each typed as an edit
types it), then played as the act (AddUnit, EditUnit) so a refused one leaves nothing behind and an edit is
over the version it was read at (a stale one a 409). The caller holds the game (app.services.writing)."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlmodel import Session

from app.data.models import Game
from app.data.schemas_unit_edits import EDIT_TYPES, UnitEdit, UnitEditFields, UnitIn
from app.services import acts
from app.services import units as units_service
from app.services.markers import rules_of
from app.services.played import Played
from app.services.seating import Viewer
from rules.core.acts import AddUnit, EditUnit
from rules.core.errors import RulesError
from rules.core.game import GameRules


def state_in(rules: GameRules, state: dict[str, Any]) -> dict[str, Any]:
    """A unit's state given as it is added: only the fields its rule set lets a player set by hand, each typed
    as a unit edit types it (a RulesError naming the first that is not)."""
    by_hand = {f.name: f for f in rules.book.state_fields if f.edit}
    out: dict[str, Any] = {}
    for name, value in sorted(state.items()):
        if name not in by_hand:
            raise RulesError(
                f"state.{name}", f"{name} is not set by hand under this game's rules", sorted(by_hand)
            )
        try:
            out[name] = TypeAdapter(EDIT_TYPES[by_hand[name].edit]).validate_python(value)
        except ValidationError as e:
            raise RulesError(f"state.{name}", e.errors()[0]["msg"]) from None
    return out


def add_unit(session: Session, game: Game, viewer: Viewer, body: UnitIn) -> Played[Any]:
    """A unit added by hand with its state in one act (a unit refused leaves nothing behind)."""
    fields = body.model_dump(exclude={"override", "side", "state"})
    if body.state:
        fields["state"] = state_in(rules_of(game), body.state)
    return acts.play(session, game, viewer, AddUnit(side=body.side, fields=fields, override=body.override))


def edit_unit(session: Session, game: Game, viewer: Viewer, unit_id: int, body: UnitEdit) -> Played[Any]:
    """A unit's whole-object edit over its version: only the fields its rule set lets a player set by hand."""
    values = body.model_dump(exclude_none=True, exclude={"version", "override"})
    rules = rules_of(game)
    units_service.check_vocabulary(rules, quality=body.quality)
    by_hand = {f.name for f in rules.book.state_fields if f.edit}
    for k in sorted(set(values) - set(UnitEditFields.model_fields) - by_hand):
        raise RulesError(k, f"{k} is not set by hand under this game's rules", sorted(by_hand))
    act = EditUnit(unit_id=unit_id, version=body.version, values=values, override=body.override)
    return acts.play(session, game, viewer, act)
