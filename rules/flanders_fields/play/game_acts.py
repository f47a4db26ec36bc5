"""The rolls a stand's card offers in a Flanders Fields game: the order roll of the unit it is ordered with,
shooting, an assault and its battalion's morale test when one is due."""

from __future__ import annotations

from rules.core.errors import RulesError
from rules.core.game import ancestor_at
from rules.core.records import Change, FillRequest, Snapshot, StandAct, UnitState
from rules.core.rolls import RollTerms
from rules.flanders_fields.play import game_reinforcements
from rules.flanders_fields.play.game_cards import AT_TABLE, SECRET_DRAWS, FlandersFieldsCards
from rules.flanders_fields.play.game_consequences import FlandersFieldsConsequences
from rules.flanders_fields.play.game_fill import CLAIMS, FlandersFieldsFill
from rules.flanders_fields.play.game_fire import FlandersFieldsTargets
from rules.flanders_fields.play.game_orders import assault_spends
from rules.flanders_fields.play.game_turn import HEROIC_KEY, heroic_action_spent, own_table, wind_due
from rules.flanders_fields.play.units import FIRER, assault_kind, ordered_unit
from rules.flanders_fields.resolvers.assault import ATTACKERS
from rules.flanders_fields.resolvers.assault import RESOLVER as ASSAULT
from rules.flanders_fields.resolvers.morale import RESOLVER as MORALE
from rules.flanders_fields.resolvers.orders import RESOLVER as ORDER_ROLL
from rules.flanders_fields.resolvers.reinforcements import RESOLVER as REINFORCEMENTS


def actions_left(unit: UnitState, ordered: UnitState | None) -> str:
    """What a stand's card says is left of the actions its shot spends ("2 actions left")."""
    if ordered is None:
        return ""
    n = ordered.actions_left
    left = f"{n} action{'' if n == 1 else 's'} left"
    return left if ordered is unit else f"{left} ({ordered.name})"


# The rolls' terms in the book (rules.core.game.Book.roll_terms): the random-event cards drawn in secret, the
# table's claims and the option to draw at the table.
ROLL_TERMS = RollTerms(SECRET_DRAWS, CLAIMS, AT_TABLE)


class FlandersFieldsRolls(
    FlandersFieldsFill, FlandersFieldsConsequences, FlandersFieldsTargets, FlandersFieldsCards
):
    """Flanders Fields' rolls in a game: requests filled from the table (`game_fill`), what results do
    (`game_consequences`), the stands a shot may not target (`game_fire`) and the random-event cards
    (`game_cards`); its own, the rolls a stand's card offers and the heroic action and the gas-wind roll asked
    for."""

    def stand_acts(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
        unit = snapshot.unit(unit_id)
        if unit.killed:
            return ()
        by_id = snapshot.by_id
        acts: list[StandAct] = []
        # "ORDERS AND ACTIONS": a company rolls for its platoons, a battery or an MG for itself (under erratum
        # artillery-roll-per: brigade, its group for a battery).
        ordered = ordered_unit(unit, by_id, snapshot.variants)
        if ordered is not None:
            why = "" if ordered is unit else f"{unit.name} takes the order roll of {ordered.name}"
            acts.append(StandAct("Order roll", ORDER_ROLL, ordered.id or 0, why))
        if unit.kind in FIRER:
            acts.append(StandAct("Shoot", "shooting", unit_id, actions_left(unit, ordered), target=True))
        if assault_kind(unit) in ATTACKERS:
            # An assault is a move into contact, an action of the unit ordered (erratum assault-action).
            left = actions_left(unit, ordered) if assault_spends(snapshot.variants) else ""
            acts.append(StandAct("Assault", ASSAULT, unit_id, left, target=True, dice=2))
        bn = ancestor_at(unit, "battalion", by_id)
        if bn is not None and bn.morale_due:
            acts.append(StandAct("Morale test", MORALE, bn.id or 0, f"{bn.name} has a morale test due"))
        return tuple(acts)

    def _before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]:
        if resolver_id == ORDER_ROLL and request.unit_id is not None:
            own_table(snapshot, request.unit_id, request.given.get("unit"))
        if resolver_id == HEROIC_KEY:
            return heroic_action_spent(snapshot, request.unit_id)
        if resolver_id == REINFORCEMENTS:
            game_reinforcements.refused(snapshot, request.unit_id, apply)
        if (
            resolver_id == "gas-wind"
            and apply
            and not wind_due(snapshot.board, snapshot.turn, snapshot.side_to_move)
        ):
            raise RulesError(
                "resolver",
                "no gas-wind roll is due now: ask without applying it to leave the clouds where they are",
                why="no gas-wind roll is due: it is rolled once a turn by the attacker once a cloud is on the table "
                "(send apply: false to ask the table without moving the clouds)",
            )
        return ()
