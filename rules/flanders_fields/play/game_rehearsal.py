"""A side's fire plan rehearsed on the game's table as it stands (rules/flanders_fields/play/rehearsal.py
for every number): the other side's living stands with the cover the terrain gives them and their markers now
(their positions are public), and the side's own plan (never the other side's), its items fired by a battery
standing on the table not deviating, as on the arrival cards (game_arrivals)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.game import GameRules, ancestor_at
from rules.core.records import Snapshot, UnitState
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.errata import ROAD_MARCH_COVER
from rules.flanders_fields.play import rehearsal as R
from rules.flanders_fields.play.game_table import context, target_cover, terrain_index
from rules.flanders_fields.play.units import FIRER, quality_of
from rules.table.frame import Side, Table
from rules.table.placed import stand_of


def named_gun(
    snap: Snapshot, side: str, named: str, fits: frozenset[str], names: Mapping[int, str]
) -> UnitState | None:
    """The side's battery or mortar a plan names: by its own name in the force ("Field Howitzer Battery") or
    the name the board and the fire plan show it by ("2 How Bty")."""
    if not named:
        return None
    return next(
        (
            u
            for u in snap.units
            if u.side == side and FIRER.get(u.kind, "") in fits and named in (u.name, names.get(u.id or 0))
        ),
        None,
    )


def fires_from_table(snap: Snapshot, side: str, data: Mapping[str, Any], names: Mapping[int, str]) -> bool:
    """Whether a planned battery item names a battery of the side standing on the table: its fire is not
    "unobserved off table artillery" and does not deviate (ARTILLERY AIMING POINT - DEVIATION). An item
    naming no battery of the table is taken as off-table artillery."""
    gun = named_gun(snap, side, str(data.get("battery") or ""), T.ARTILLERY_FIRERS, names)
    return gun is not None and stand_of(gun, BASES) is not None


def enemy_targets(snap: Snapshot, side: str, names: Mapping[int, str]) -> list[R.TargetStand]:
    """The other side's living stands on the table, each with its company (or itself), the cover the
    terrain under its base gives it, and its markers now."""
    by_id = snap.by_id
    terrain = terrain_index(snap.terrain)
    road = bool(context(snap).value(ROAD_MARCH_COVER))
    out: list[R.TargetStand] = []
    for u in snap.units:
        stand = stand_of(u, BASES)
        if u.side == side or stand is None:
            continue
        company = ancestor_at(u, "company", by_id)
        cover = target_cover(u, quality_of(u, by_id), terrain, road)
        out.append(
            R.TargetStand(
                id=str(u.id),
                name=names.get(u.id, u.name),
                group=f"company-{company.id}" if company is not None else f"stand-{u.id}",
                stand=stand,
                cover=str(cover.value) if cover is not None else "open",
                is_command=u.is_command,
                armour=u.kind == "tank",
                markers=int(u.state.get("suppression", 0)),
            )
        )
    return out


class FlandersFieldsRehearsal(GameRules):
    """A side's fire plan rehearsed against the table as it stands (the game's fire plan,
    `FlandersFieldsFirePlan`, is made of it)."""

    def _rehearse(
        self,
        snapshot: Snapshot,
        side: str,
        items: Sequence[Mapping[str, Any]],
        names: Mapping[int, str],
        options: Mapping[str, Any],
        turns: int | None,
        seed: int,
        samples: int,
    ) -> dict[str, Any]:
        """The plan against the enemy's stands as they stand now, by the snapshot's readings, as the answer's
        body (`options`: the request's firers, SOS fire and brigades)."""
        plan_side: Side = "attacker" if side == "attacker" else "defender"
        table = Table(snapshot.table_width_cm, snapshot.table_length_cm)
        on_table = [
            str(it["id"])
            for it in items
            if it["kind"] in R.BATTERY_KINDS and fires_from_table(snapshot, side, it.get("data") or {}, names)
        ]
        plan = R.plan_from_items(
            plan_side,
            list(items),
            table,
            dict(options["firers"]),
            list(options["sos"]),
            dict(options["brigades"]),
            on_table,
        )
        targets = enemy_targets(snapshot, plan_side, names)
        period = snapshot.period or "late"
        result = R.rehearse(
            plan, targets, table, period, snapshot.variants, turns=turns, seed=seed, samples=samples
        )
        body = result.as_dict()
        body["stands"] = [
            {
                "stand": t.id,
                "name": t.name,
                "center": list(t.stand.center) if t.stand else None,
                "cover": t.cover,
                "markers_now": t.markers,
            }
            for t in targets
        ]
        return {**body}
