"""The game's table in Shapely: stands from unit rows, terrain from the game's GeoJSON, and the geometry the
game layer reads (range, cover and line of sight of a shot; what a rolling barrage or a gas cloud covers).
Glue only: every rule comes from rules/table and rules/flanders_fields."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from shapely import LineString, Polygon

from app.models import Game, Unit
from rules.flanders_fields.cover import cover_for, cover_source
from rules.flanders_fields.gas import DENYING_MOVE_TURNS, OFFENSIVE_MAX_TURNS, SRC_GAS
from rules.flanders_fields.ruleset import cite
from rules.flanders_fields.table_rules import DANGER_ZONE_CM, WIRE_BELT_CM
from rules.table import barrage as table_barrage
from rules.table import gas as table_gas
from rules.table.bases import BASES, Stand
from rules.table.coverage import Coverage, StandIndex, classify
from rules.table.frame import AHEAD_DEG, Table
from rules.table.los import line_of_sight
from rules.table.templates import TEMPLATES, Template
from rules.table.terrain import TerrainIndex, terrain_from_geojson

SRC_RANGE = cite("MEASURING (closest distance between the bases)")


SRC_BARRAGE_AREA = TEMPLATES["rolling-barrage"].source


BARRAGE_DEPTH_CM = TEMPLATES["rolling-barrage"].depth_cm


def table_of(game: Game) -> Table:
    return Table(game.table_width_cm, game.table_length_cm)


def terrain_of(game: Game) -> TerrainIndex:
    return TerrainIndex.build(terrain_from_geojson(game.terrain, wire_belt_cm=WIRE_BELT_CM))


def stand_of(u: Unit) -> Stand | None:
    """The unit as a stand on the table, or None when it is not a placed, living stand with a known base."""
    if u.killed or u.off_table or u.x is None or u.y is None or u.base not in BASES:
        return None
    return Stand(
        str(u.id), u.side, str(u.base), (u.x, u.y), u.facing_deg if u.facing_deg is not None else 90.0
    )


def index_of(units: Iterable[Unit]) -> StandIndex:
    return StandIndex.build([s for s in (stand_of(u) for u in units) if s is not None])


def ids(coverage_ids: Iterable[str]) -> list[int]:
    return sorted(int(i) for i in coverage_ids)


# -- a shot -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Measured:
    """One request field measured on the table, and why."""

    field: str
    value: Any
    why: str


def target_cover(game: Game, target: Unit, quality: str | None, terrain: TerrainIndex) -> Measured | None:
    stand = stand_of(target)
    if stand is None:
        return None
    kinds = sorted(terrain.kinds_at(stand.polygon()))
    cover = cover_for(kinds, quality)
    where = f"in {', '.join(kinds)}" if kinds else "in open ground"
    return Measured("cover", cover, f"{target.name} stands {where} ({cover_source(kinds, quality)})")


def shot(game: Game, firer: Unit, target: Unit, terrain: TerrainIndex) -> list[Measured]:
    """Range (closest distance between the bases), line of sight (centre to centre) and whether the line
    crosses a rolling barrage on the board, for a firer and a target that are both on the table."""
    a, b = stand_of(firer), stand_of(target)
    if a is None or b is None:
        return []
    pa, pb = a.polygon(), b.polygon()
    out = [Measured("range_cm", round(pa.distance(pb), 2), f"{SRC_RANGE}: {firer.name} to {target.name}")]
    sight = line_of_sight(a, b, terrain)
    why = (
        "the line from firer to target is clear"
        if sight.clear
        else f"the line is blocked by {sight.blocked_by.kind if sight.blocked_by else 'terrain'}"
        + (" (dead ground)" if sight.dead_ground else "")
    )
    out.append(Measured("direct_line_of_sight", sight.clear, why))
    line = LineString([a.center, b.center])
    table = table_of(game)
    crossed = [br for br in game.board.get("barrages", []) if barrage_polygon(br, table).intersects(line)]
    if crossed:
        out.append(
            Measured(
                "through_barrage",
                True,
                f"the line crosses rolling barrage {crossed[0]['item_id']} ({SRC_BARRAGE_AREA})",
            )
        )
    return out


# -- rolling barrages -------------------------------------------------------------------------------------------
def _ahead(side: str) -> float:
    return AHEAD_DEG["attacker" if side == "attacker" else "defender"]


def _sign(side: str) -> float:
    return 1.0 if side == "attacker" else -1.0


def barrage_template(b: dict[str, Any], table: Table) -> Template:
    """The board keeps a barrage as `front_y`, the line it starts from (its start line, then where each
    advance leaves its rear edge); the 20 cm band lies beyond it in the direction it advances."""
    centre_y = float(b["front_y"]) + _sign(b["side"]) * BARRAGE_DEPTH_CM / 2
    return Template("rolling-barrage", (table.width_cm / 2, centre_y), _ahead(b["side"]))


def barrage_polygon(b: dict[str, Any], table: Table) -> Polygon:
    return barrage_template(b, table).polygon(table)


def barrage_step(
    b: dict[str, Any], distance_cm: float, units: Sequence[Unit], table: Table
) -> dict[str, Any]:
    """Advance (or hold) a barrage and say whom it reaches: every stand it passes over gets a rolling-barrage
    roll ("Roll a D6 for every platoon or crewed weapon as it comes under the barrage, or at the start of a
    turn when the barrage remains in the same place"); its own side's stands in the 6 cm behind it get a
    barrage-danger roll."""
    adv = table_barrage.advance(
        barrage_template(b, table), distance_cm, index_of(units), DANGER_ZONE_CM, table
    )
    front = float(b["front_y"]) + _sign(b["side"]) * distance_cm
    lo, hi = sorted((front, front + _sign(b["side"]) * BARRAGE_DEPTH_CM))
    danger = [
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
def cloud_template(c: dict[str, Any]) -> Template:
    kind = "gas-attacker" if c["side"] == "attacker" else "gas-defender"
    return Template(kind, (float(c["center"][0]), float(c["center"][1])), _ahead(c["side"]))


def classified(cov: Coverage) -> dict[str, list[int]]:
    return {"full": ids(cov.full), "partial": ids(cov.partial)}


def cloud_arrives(c: dict[str, Any], units: Sequence[Unit]) -> dict[str, Any]:
    """A cloud as it is delivered: the stands under it are attacked (full, or partial at -2)."""
    cov = classify(cloud_template(c).polygon(), index_of(units), 0.0)
    return {**c, "moves": 0, "passed": classified(cov), "source": SRC_GAS}


def clouds_on_wind(
    clouds: Sequence[dict[str, Any]], wind: dict[str, Any], units: Sequence[Unit]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One turn of wind for every cloud: "An OFFENSIVE gas attack will continue to move on the wind for 6
    turns (after which it has dispersed) or until a roll on the Gas Movement Table ... indicates it has
    dispersed ... while a DENYING gas attack will move for 1 turn before the heavy vapours sink". Returns
    the clouds still on the table and those gone."""
    index = index_of(units)
    kept: list[dict[str, Any]] = []
    gone: list[dict[str, Any]] = []
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
        after = {
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


def in_gas(clouds: Sequence[dict[str, Any]], units: Sequence[Unit]) -> dict[int, str]:
    """Stand id -> 'full' or 'partial' for every stand a cloud now covers."""
    index = index_of(units)
    out: dict[int, str] = {}
    for c in clouds:
        cov = classify(cloud_template(c).polygon(), index, 0.0)
        for i in ids(cov.partial):
            out.setdefault(i, "partial")
        for i in ids(cov.full):
            out[i] = "full"
    return out
