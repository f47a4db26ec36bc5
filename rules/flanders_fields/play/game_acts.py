"""The rolls a stand's card offers in a Flanders Fields game: the order roll of the unit it is ordered with,
shooting, an assault and its battalion's morale test when one is due."""

from __future__ import annotations

from rules.core.game import ancestor_at, ancestors
from rules.core.records import Snapshot, StandAct
from rules.flanders_fields.play.units import FIRER, assault_kind, order_unit
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
    # "ORDERS AND ACTIONS": a company rolls for its platoons, a battery or an MG for itself.
    ordered = next((a for a in (unit, *ancestors(unit, by_id)) if order_unit(a, by_id) is not None), None)
    if ordered is not None:
        why = "" if ordered is unit else f"{unit.name} takes the order roll of {ordered.name}"
        acts.append(StandAct("Order roll", ORDER_ROLL, ordered.id or 0, why))
    if unit.kind in FIRER:
        acts.append(StandAct("Shoot", "shooting", unit_id, target=True))
    if assault_kind(unit) in ATTACKERS:
        acts.append(StandAct("Assault", ASSAULT, unit_id, target=True, dice=2))
    bn = ancestor_at(unit, "battalion", by_id)
    if bn is not None and bn.morale_due:
        acts.append(StandAct("Morale test", MORALE, bn.id or 0, f"{bn.name} has a morale test due"))
    return tuple(acts)
