"""A Flanders Fields fire-plan item reaching the table: a gas cloud delivered (the stands under it attacked),
a rolling barrage starting to fire, other fire put on the board, and planned deep suppression rolled."""

from __future__ import annotations

from rules.core.game import Arrival, PlanItem, Snapshot
from rules.flanders_fields.play.game_table import barrage_step, cloud_arrives
from rules.flanders_fields.resolvers.barrage import require_plan_item
from rules.flanders_fields.resolvers.gas import SRC_GAS
from rules.table.frame import Side, Table, grid_to_table

__all__ = ["arrival", "require_plan_item"]


def arrival(snap: Snapshot, item: PlanItem) -> Arrival:
    data = dict(item.data)
    table = Table(snap.table_width_cm, snap.table_length_cm)
    side: Side = "attacker" if item.side == "attacker" else "defender"
    if "grid" in data:
        data["point"] = list(grid_to_table(side, data["grid"][0], data["grid"][1], table))
    board = snap.board
    if item.kind == "gas":
        cloud = cloud_arrives(
            {"item_id": item.id, "side": item.side, **data, "center": data["point"]}, snap.units
        )
        return Arrival(
            {"clouds": (*board.get("clouds", ()), cloud)},
            "gas-arrived",
            {"cloud": cloud},
            SRC_GAS,
            step="gas",
        )
    if item.kind == "rolling-barrage":
        b = {
            "item_id": item.id,
            "side": item.side,
            "front_y": grid_to_table(side, 0.0, float(data["start_up_cm"]), table)[1],
            "duration_turns": int(data["duration_turns"]),
            "halts": list(data.get("halts", [])),
            "turns_fired": 1,
        }
        return Arrival({"barrages": (*board.get("barrages", ()), barrage_step(b, 0.0, snap.units, table))})
    if item.kind == "deep-suppression":
        # "ATTACKERS ROLL D6 FOR DEEP SUPPRESSION": the server rolls it as the turn starts.
        return Arrival(roll="deep-suppression", step="deep-suppression")
    fire = {"item_id": item.id, "side": item.side, "kind": item.kind, **data}
    return Arrival({"fire": (*board.get("fire", ()), fire)})
