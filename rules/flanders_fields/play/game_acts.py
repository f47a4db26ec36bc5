"""The rolls a stand's card offers in a Flanders Fields game: the order roll of the unit it is ordered with,
shooting, an assault and its battalion's morale test when one is due."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game import Outcome, Rolls, ancestor_at
from rules.core.records import Change, Filled, FillRequest, Played, Snapshot, StandAct, TargetMark, UnitState
from rules.flanders_fields.play import game_cards, game_consequences, game_fill, game_fire, game_turn
from rules.flanders_fields.play.game_orders import assault_spends
from rules.flanders_fields.play.units import FIRER, assault_kind, ordered_unit
from rules.flanders_fields.resolvers.assault import ATTACKERS
from rules.flanders_fields.resolvers.assault import RESOLVER as ASSAULT
from rules.flanders_fields.resolvers.morale import RESOLVER as MORALE
from rules.flanders_fields.resolvers.orders import RESOLVER as ORDER_ROLL


def stand_acts(snap: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
    unit = snap.unit(unit_id)
    if unit.killed:
        return ()
    by_id = snap.by_id
    acts: list[StandAct] = []
    # "ORDERS AND ACTIONS": a company rolls for its platoons, a battery or an MG for itself (under erratum
    # artillery-roll-per: brigade, its group for a battery).
    ordered = ordered_unit(unit, by_id, snap.variants)
    if ordered is not None:
        why = "" if ordered is unit else f"{unit.name} takes the order roll of {ordered.name}"
        acts.append(StandAct("Order roll", ORDER_ROLL, ordered.id or 0, why))
    if unit.kind in FIRER:
        acts.append(StandAct("Shoot", "shooting", unit_id, actions_left(unit, ordered), target=True))
    if assault_kind(unit) in ATTACKERS:
        # An assault is a move into contact, an action of the unit ordered (erratum assault-action).
        left = actions_left(unit, ordered) if assault_spends(snap.variants) else ""
        acts.append(StandAct("Assault", ASSAULT, unit_id, left, target=True, dice=2))
    bn = ancestor_at(unit, "battalion", by_id)
    if bn is not None and bn.morale_due:
        acts.append(StandAct("Morale test", MORALE, bn.id or 0, f"{bn.name} has a morale test due"))
    return tuple(acts)


def actions_left(unit: UnitState, ordered: UnitState | None) -> str:
    """What a stand's card says is left of the actions its shot spends ("2 actions left")."""
    if ordered is None:
        return ""
    n = ordered.actions_left
    left = f"{n} action{'' if n == 1 else 's'} left"
    return left if ordered is unit else f"{left} ({ordered.name})"


class FlandersFieldsRolls(Rolls):
    """Flanders Fields' rolls in a game: requests filled from the table, what results do, the rolls a stand's
    card offers, the heroic action and the gas-wind roll asked for, and the random-event cards."""

    secret_draws = {game_cards.RESOLVER: "the random event cards"}
    claims = game_fill.CLAIMS

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        return game_fill.fill(resolver_id, snapshot, request)

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        return game_consequences.consequences(resolver_id, snapshot, outcome)

    def stand_acts(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
        return stand_acts(snapshot, unit_id)

    def target_marks(self, snapshot: Snapshot, unit_id: int, resolver_id: str) -> tuple[TargetMark, ...]:
        return game_fire.target_marks(snapshot, unit_id, resolver_id)

    def before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]:
        return game_turn.before_resolve(resolver_id, snapshot, request, apply)

    def drawn(self, resolver_id: str, snapshot: Snapshot, given: Mapping[str, Any]) -> tuple[Filled, ...]:
        return game_cards.drawn(snapshot, given) if resolver_id == game_cards.RESOLVER else ()

    def drawn_at_table(self, snapshot: Snapshot) -> bool:
        return game_cards.drawn_at_table(snapshot)

    def draw_seen(
        self, resolver_id: str, payload: Mapping[str, Any], drawer: str, applied: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        return game_cards.draw_seen(payload, drawer, applied)

    def draw_taken_back(
        self, resolver_id: str, snapshot: Snapshot, payload: Mapping[str, Any]
    ) -> tuple[Change, ...]:
        return game_cards.draw_taken_back(snapshot, payload)

    def hand_played(self, snapshot: Snapshot, side: str, card: str) -> Played:
        return game_cards.hand_played(snapshot, side, card)
