"""What the map draws of Flanders Fields' board (rules.core.kit `BoardKey.draw`): arrived fire-plan fire by
its template, gas clouds by their side's template, rolling barrages as bands across the table with their
danger zones, each labelled in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shapely import Polygon, box

from rules.core.kit import Drawn, DrawnStyle
from rules.flanders_fields.book.table_sizes import TEMPLATES
from rules.flanders_fields.play.board_items import Barrage, Cloud, Fire
from rules.flanders_fields.resolvers.barrage import DANGER_ZONE_CM
from rules.table.frame import AHEAD_DEG, Table, oriented_rect

# The template an arrived plan item of each kind is drawn with (a kind not named: by its point). Batteries
# fire on their "rectangle 10x10cm" (ARTILLERY BATTERIES AREA OF EFFECT); mortars and air missions are drawn
# at their aiming point.
ITEM_TEMPLATES: Mapping[str, str] = {
    "aiming-point": "artillery",
    "bombardment": "artillery",
    "superimposed": "artillery",
}
# A plan item without a template is drawn as a point of this radius (cm): a mark, not an area of the rules.
POINT_RADIUS_CM = 2.0


def _words(s: str) -> str:
    return s.replace("-", " ").replace("_", " ").capitalize()


def _drawn(style: DrawnStyle, label: str, area: Polygon, zone: Sequence[Drawn] = ()) -> Drawn:
    # Rounded to a hundredth of a millimetre: finer than the map draws, and the JSON stays short.
    ring = tuple((round(x, 3), round(y, 3)) for x, y in area.exterior.coords[:-1])
    return Drawn(style=style, label=label, polygon=ring, zone=tuple(zone))


def _at(p: Any) -> tuple[float, float]:
    return float(p[0]), float(p[1])


def draw_fire(fire: Sequence[Fire], table: Table) -> list[Drawn]:
    """Arrived fire other than gas and barrages, where its deviation put it (`lands`) as it arrived."""
    out = []
    for f in fire:
        if not f.get("point"):
            continue
        side = f["side"]
        battery = f" ({f['battery']})" if f.get("battery") else ""
        label = f"{_words(f['kind'])} of the {side}{battery}"
        at = _at(f.get("lands") or f["point"])
        spec = TEMPLATES.get(ITEM_TEMPLATES.get(f["kind"], ""))
        if spec:
            out.append(
                _drawn("board-fire", label, oriented_rect(at, AHEAD_DEG[side], spec.width_cm, spec.depth_cm))
            )
        else:
            out.append(Drawn(style="board-fire", label=label, point=at, radius_cm=POINT_RADIUS_CM))
    return out


def draw_clouds(clouds: Sequence[Cloud], table: Table) -> list[Drawn]:
    """Gas clouds: "an area 20cm wide by 10cm deep if launched by the attacker but only 10x5 if used by a
    defender" (GAS), facing the enemy of the side that released it."""
    out = []
    for c in clouds:
        side = c["side"]
        spec = TEMPLATES["gas-attacker" if side == "attacker" else "gas-defender"]
        label = f"{_words(c['gas']) + ' gas' if c.get('gas') else 'Gas'} cloud of the {side}"
        area = oriented_rect(_at(c["center"]), AHEAD_DEG[side], spec.width_cm, spec.depth_cm)
        out.append(_drawn("board-gas", label, area))
    return out


def draw_barrages(barrages: Sequence[Barrage], table: Table) -> list[Drawn]:
    """Rolling barrages: the band each covers across the table, and "a danger area 6cm behind the RB" on its
    own side's side of it; both clipped to the table."""
    out = []
    for b in barrages:
        side = b["side"]
        lo, hi = sorted(float(y) for y in b["covers_y"])
        behind = (lo - DANGER_ZONE_CM, lo) if side == "attacker" else (hi, hi + DANGER_ZONE_CM)
        band, danger = (
            box(0.0, y0, table.width_cm, y1).intersection(table.polygon()) for y0, y1 in ((lo, hi), behind)
        )
        zone = [_drawn("board-danger", "Its danger zone", danger)] if danger.area > 0 else []
        if band.area > 0:
            out.append(_drawn("board-barrage", f"Rolling barrage of the {side}", band, zone))
        else:
            out += zone
    return out
