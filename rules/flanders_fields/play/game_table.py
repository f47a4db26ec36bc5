"""A game's table as Flanders Fields measures it: units as stands, the terrain, the range, cover and line of
sight of a shot, rolling barrages advancing and gas clouds arriving and drifting on the wind. Pure: the
geometry is rules.table's, the numbers and citations are this rule set's; units are any that are placed
(the game's rows or a snapshot's)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from shapely import LineString, Polygon

from rules.core.records import Filled, Snapshot, UnitState
from rules.core.ruleset import Context
from rules.flanders_fields.book.cover import cover_reading
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.errata.table_play import RANGE_MEASURED
from rules.flanders_fields.play import table_rules
from rules.flanders_fields.play.board_items import Barrage, BarrageDanger, Cloud, Passed
from rules.flanders_fields.play.table_rules import DANGER_ZONE_CM, WIRE_BELT_CM
from rules.flanders_fields.resolvers.gas import DENYING_MOVE_TURNS, OFFENSIVE_MAX_TURNS, SRC_GAS, WindDict
from rules.flanders_fields.resolvers.visibility import SRC_VISIBILITY
from rules.table import barrage as table_barrage
from rules.table import gas as table_gas
from rules.table.coverage import Coverage, classify
from rules.table.frame import AHEAD_DEG, Table
from rules.table.los import line_of_sight
from rules.table.placed import Placed, index_of, stand_of
from rules.table.templates import Template
from rules.table.terrain import TerrainIndex, indexed

SRC_BARRAGE_AREA = TEMPLATES["rolling-barrage"].source
BARRAGE_DEPTH_CM = TEMPLATES["rolling-barrage"].depth_cm


def ids(coverage_ids: Iterable[str]) -> list[int]:
    return sorted(int(i) for i in coverage_ids)


def terrain_index(terrain: Mapping[str, Any]) -> TerrainIndex:
    """A game's terrain (GeoJSON) with Flanders Fields' wire belts, kept per terrain (read-only once built)."""
    return indexed(terrain, WIRE_BELT_CM)


# -- a shot -------------------------------------------------------------------------------------------------
def context(snap: Snapshot) -> Context:
    """The rule set's context of a game: its period and the errata readings it chose."""
    return table_rules.context(snap.variants, snap.period)


def target_cover(
    target: UnitState, quality: str | None, terrain: TerrainIndex, road_march_open: bool = False
) -> Filled | None:
    """The cover of a stand on the table, by the terrain under its base and what it is: troops on wire and
    cavalry out of woods and built-up areas are in the open, tanks have no field craft."""
    stand = stand_of(target, BASES)
    if stand is None:
        return None
    kinds = sorted(terrain.kinds_at(stand.polygon()))
    got = cover_reading(
        kinds, quality, target.kind, on_wire=target.stuck_on_wire, road_march_open=road_march_open
    )
    where = f"in {', '.join(kinds)}" if kinds else "in open ground"
    if target.stuck_on_wire:
        where += ", stuck on the wire"
    return Filled("cover", got.cover, f"{target.name} stands {where} ({got.source})", got.source)


def shot(
    table: Table,
    barrages: Sequence[Barrage],
    firer: Placed,
    target: Placed,
    terrain: TerrainIndex,
    ctx: Context,
) -> list[Filled]:
    """Range (measured as erratum range-measured reads it), line of sight (centre to centre) and whether the
    line crosses a rolling barrage on the board, for a firer and a target that are both on the table."""
    a, b = stand_of(firer, BASES), stand_of(target, BASES)
    if a is None or b is None:
        return []
    pa, pb = a.polygon(), b.polygon()
    centres = ctx.value(RANGE_MEASURED) == "centres"
    measured = pa.centroid.distance(pb.centroid) if centres else pa.distance(pb)
    how = "centre to centre" if centres else "closest distance between the bases"
    src = ctx.citation(RANGE_MEASURED)
    out = [Filled("range_cm", round(measured, 2), f"{firer.name} to {target.name}, {how} ({src})", src)]
    sight = line_of_sight(a, b, terrain)
    why = (
        "the line from firer to target is clear"
        if sight.clear
        else f"the line is blocked by {sight.blocked_by.kind if sight.blocked_by else 'terrain'}"
        + (" (dead ground)" if sight.dead_ground else "")
    )
    out.append(Filled("direct_line_of_sight", sight.clear, why, SRC_VISIBILITY))
    line = LineString([a.center, b.center])
    crossed = [br for br in barrages if barrage_polygon(br, table).intersects(line)]
    if crossed:
        out.append(
            Filled(
                "through_barrage",
                True,
                f"the line crosses rolling barrage {crossed[0]['item_id']} ({SRC_BARRAGE_AREA})",
                SRC_BARRAGE_AREA,
            )
        )
    return out


# -- rolling barrages -------------------------------------------------------------------------------------------
def _ahead(side: str) -> float:
    return AHEAD_DEG["attacker" if side == "attacker" else "defender"]


def _sign(side: str) -> float:
    return 1.0 if side == "attacker" else -1.0


def barrage_template(b: Barrage, table: Table) -> Template:
    """The board keeps a barrage as `front_y`, the line it starts from (its start line, then where each
    advance leaves its rear edge); the 20 cm band lies beyond it in the direction it advances."""
    centre_y = float(b["front_y"]) + _sign(b["side"]) * BARRAGE_DEPTH_CM / 2
    return Template(TEMPLATES["rolling-barrage"], (table.width_cm / 2, centre_y), _ahead(b["side"]))


def barrage_polygon(b: Barrage, table: Table) -> Polygon:
    return barrage_template(b, table).polygon(table)


def barrage_step(b: Barrage, distance_cm: float, units: Sequence[Placed], table: Table) -> Barrage:
    """Advance (or hold) a barrage and say whom it reaches: every stand it passes over gets a rolling-barrage
    roll ("Roll a D6 for every platoon or crewed weapon as it comes under the barrage, or at the start of a
    turn when the barrage remains in the same place"); its own side's stands in the 6 cm behind it get a
    barrage-danger roll."""
    adv = table_barrage.advance(
        barrage_template(b, table), distance_cm, index_of(units, BASES), DANGER_ZONE_CM, table
    )
    front = float(b["front_y"]) + _sign(b["side"]) * distance_cm
    lo, hi = sorted((front, front + _sign(b["side"]) * BARRAGE_DEPTH_CM))
    danger: list[BarrageDanger] = [
        {
            "unit": int(h.id),
            "distance_cm": round(h.distance_cm, 2),
            "at_risk": float(h.at_risk),
            "at_risk_exact": f"{h.at_risk.numerator}/{h.at_risk.denominator}",
        }
        for h in adv.danger
        if h.side == b["side"]
    ]
    return {
        **b,
        "front_y": front,
        "covers_y": [max(lo, 0.0), min(hi, table.length_cm)],
        "pending": ids([*adv.passed_over.full, *adv.passed_over.partial]),
        "danger": danger,
    }


# -- gas clouds ---------------------------------------------------------------------------------------------------
def cloud_template(c: Cloud) -> Template:
    kind = "gas-attacker" if c["side"] == "attacker" else "gas-defender"
    return Template(TEMPLATES[kind], (float(c["center"][0]), float(c["center"][1])), _ahead(c["side"]))


def classified(cov: Coverage) -> Passed:
    return {"full": ids(cov.full), "partial": ids(cov.partial)}


def cloud_arrives(c: Cloud, units: Sequence[Placed]) -> Cloud:
    """A cloud as it is delivered: the stands under it are attacked (full, or partial at -2)."""
    cov = classify(cloud_template(c).polygon(), index_of(units, BASES), 0.0)
    return {**c, "moves": 0, "passed": classified(cov), "source": SRC_GAS}


def clouds_on_wind(
    clouds: Sequence[Cloud], wind: WindDict, units: Sequence[Placed]
) -> tuple[list[Cloud], list[Cloud]]:
    """One turn of wind for every cloud: "An OFFENSIVE gas attack will continue to move on the wind for 6
    turns (after which it has dispersed) or until a roll on the Gas Movement Table ... indicates it has
    dispersed ... while a DENYING gas attack will move for 1 turn before the heavy vapours sink". Returns
    the clouds still on the table and those gone."""
    index = index_of(units, BASES)
    kept: list[Cloud] = []
    gone: list[Cloud] = []
    for c in clouds:
        offensive = c.get("gas", "offensive") == "offensive"
        if offensive and wind.get("dispersed"):
            gone.append({**c, "why": "the Gas Movement table dispersed the gas"})
            continue
        # A denying cloud that has sunk stays put and attacks whoever remains in it.
        moving = offensive or c["moves"] < DENYING_MOVE_TURNS
        speed = float(wind["speed_cm"]) if moving else 0.0
        moved, swept = table_gas.drift(cloud_template(c).polygon(), float(wind["direction_deg"]), speed)
        dx, dy = table_gas.offset(float(wind["direction_deg"]), speed)
        passed = classify(swept if isinstance(swept, Polygon) else moved, index, 0.0)
        after: Cloud = {
            **c,
            "center": [round(c["center"][0] + dx, 4), round(c["center"][1] + dy, 4)],
            "moves": c["moves"] + (1 if moving else 0),
            "passed": classified(passed),
            "sunk": not offensive,
        }
        if offensive and after["moves"] >= OFFENSIVE_MAX_TURNS:
            gone.append({**after, "why": f"moved on the wind for {OFFENSIVE_MAX_TURNS} turns: dispersed"})
        else:
            kept.append(after)
    return kept, gone


def in_gas(clouds: Sequence[Cloud], units: Sequence[Placed]) -> dict[int, str]:
    """Stand id -> 'full' or 'partial' for every stand a cloud now covers."""
    index = index_of(units, BASES)
    out: dict[int, str] = {}
    for c in clouds:
        cov = classify(cloud_template(c).polygon(), index, 0.0)
        for i in ids(cov.partial):
            out.setdefault(i, "partial")
        for i in ids(cov.full):
            out[i] = "full"
    return out
