"""The printable scenario sheet (issue 27): a scenario document (docs/scenario-format.md) on one page where it
fits, else on two. Page one: the table drawn to a stated scale with a labelled 10 cm grid, its terrain and a
legend, the deployment zones and the stands where they start. Then (on page two when one page does not hold
it) each side's order of battle, its special rules, the objectives, victory conditions and notes. The scenario's
objectives on the table (`table_objectives`, issue 55) are drawn on the map, lettered, and listed with their
worth, when they score and where they are.

The document's forces are read through its rule set's game hook (`GameRules.new_forces`, the one reading a
game is built by), so organisation-table entries are expanded and per-reading values chosen as a game with
the same readings would have them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import shape
from shapely.geometry.base import BaseGeometry

from playsheets.tables import fmt, label
from rules.core.kit import TERRAIN_CLASS, TerrainClass
from rules.core.scenario import SIDES, ForceNode, NewForces
from rules.core.victory import written
from rules.registry import get_game_rules, get_ruleset
from rules.table.frame import oriented_rect

GRID_CM = 10.0
# Scales the map may be drawn at (1:n), largest first: the first at which the table fits the map's box.
SCALES = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200)
# The map's box on page one (mm): beside a 56 mm legend column inside A4's and Letter's printable width, and
# below the title inside Letter's printable height.
MAP_BOX_MM = (136.0, 214.0)
# On a sheet of one page the map's box leaves the lower part of the page to the orders of battle and victory.
ONE_PAGE_MAP_BOX_MM = (136.0, 170.0)
# More order-of-battle lines a side than the ~100 mm below that map holds at 8.5 pt: two pages, not tried on one.
ONE_PAGE_MOST_LINES = 20
MARGIN_MM = 7.0  # around the table, for the grid labels and the table edges' names
FONT_MM = 8 * 25.4 / 72  # 8 pt, the sheets' smallest text
# Order-of-battle lines of both sides: formations below are summarised on their parent's line, so that the
# orders of battle, the special rules and the victory conditions share page two.
OOB_LINES = 64

# Terrain as drawn: (fill, stroke); line kinds are drawn as strokes their breadth wide.
STYLE: dict[str, tuple[str, str]] = {
    "hill": ("#e8d59a", "#a88a3c"),
    "marsh": ("#a9d3cc", "#4f8f86"),
    "river-bank": ("#c3ddb0", "#6f9a55"),
    "shell-torn": ("#c8b59c", "#7d6a52"),
    "shattered": ("#a89c8e", "#5e5449"),
    "woods": ("#3f9b4a", "#1f5e27"),
    "village": ("#c2703d", "#6b3716"),
    "strongpoint": ("#6e6e6e", "#222222"),
    "blockhouse": ("#3a3a3a", "#000000"),
    "road": ("none", "#9b7b52"),
    "stream": ("none", "#4a90d9"),
    "river": ("none", "#1f5fbf"),
    "trench": ("none", "#5a3d1e"),
    "wire": ("none", "#808080"),
}
DRAW_ORDER = tuple(STYLE)  # low ground first, lines over areas
LINE_KINDS = ("road", "stream", "river", "trench", "wire")
# A line's breadth as the document gives it (trench and road width, wire belt depth, a river's width).
BREADTH = {
    "road": "width_cm",
    "trench": "width_cm",
    "wire": "depth_cm",
    "river": "width_cm",
    "stream": "width_cm",
}
THIN_MM = 0.6  # a line drawn without a breadth: a visible stroke, not a measure
SIDE_COLOUR = {"attacker": "#b3261e", "defender": "#1b4f9c"}
TABLE_EDGE = "#202020"  # the table's outline: a colour nothing else on the sheet is drawn in
OBJECTIVE = "#7b1fa2"  # the objectives' outlines and letters: a colour nothing else on the sheet is drawn in


@dataclass
class Shape:
    kind: str
    d: str  # SVG path in sheet mm
    fill: str
    stroke: str
    width_mm: float  # stroke width (a line kind: its breadth to scale)
    line: bool
    number: int
    at: tuple[float, float]  # where its number is written


@dataclass
class LegendRow:
    kind: str
    name: str  # the kind as the rule set names it (its terrain-drawing dataset), else the kind's own words
    fill: str
    stroke: str
    line: bool
    features: list[tuple[int, str]]  # (number on the map, name)


@dataclass
class ObjectiveMark:
    """An objective (the document's `table_objectives`) as printed: its letter on the map, its outline (an area)
    or ring (a point), and its line: name, worth, when it scores, where it is, who holds it when empty."""

    letter: str
    name: str
    vp: int
    when: str
    where: str
    d: str  # SVG path in sheet mm (a point: a ring round it)
    at: tuple[float, float]  # where its letter is written
    held_by: str = ""  # the side holding it while no stand is on it ("": nobody)


@dataclass
class MapDrawing:
    scale: int  # 1:scale
    width_mm: float
    height_mm: float
    table: tuple[float, float, float, float]  # x, y, w, h of the table in sheet mm
    grid: list[str]  # SVG path of each grid line
    labels: list[tuple[float, float, str, str]]  # x, y, text, anchor
    shapes: list[Shape]
    zones: list[tuple[str, str, str]]  # side, path, colour
    stands: list[tuple[str, str]]  # side colour, path
    edges: list[tuple[float, float, str]]  # x, y, text
    font_mm: float = FONT_MM
    edge: str = TABLE_EDGE
    objective_colour: str = OBJECTIVE
    objectives: list[ObjectiveMark] = field(default_factory=list)
    bar_mm: float = 0.0  # the scale bar: its length on the sheet
    bar_cm: int = 0  # and on the table


@dataclass
class OobLine:
    depth: int
    name: str
    detail: str
    off_table: bool


@dataclass
class SideSheet:
    side: str
    nationality: str
    lines: list[OobLine]
    stands: int
    special_rules: list[tuple[str, str, str]]  # name, effect, source
    zone: bool  # its deployment zone is drawn
    colour: str


@dataclass
class ScenarioSheet:
    title: str
    meta: list[tuple[str, str]]
    source: str
    map: MapDrawing
    legend: list[LegendRow]
    sides: list[SideSheet]
    objectives: str
    victory: str
    notes: list[str]
    readings: list[tuple[str, str]] = field(default_factory=list)  # erratum, reading in force
    stands_word: str = "stands"  # the rule set's plural for what stands on the table


def scale_for(width_cm: float, length_cm: float, box: tuple[float, float] = MAP_BOX_MM) -> int:
    """The largest of SCALES at which the table and its margin fit the map's box."""
    for n in SCALES:
        if width_cm * 10 / n + 2 * MARGIN_MM <= box[0] and length_cm * 10 / n + 2 * MARGIN_MM <= box[1]:
            return n
    return SCALES[-1]


class _Frame:
    """Table cm to sheet mm: the attacker's edge at the bottom, its left-hand corner at the bottom left."""

    def __init__(self, width_cm: float, length_cm: float, scale: int) -> None:
        self.k = 10 / scale  # sheet mm per table cm
        self.width_cm, self.length_cm = width_cm, length_cm

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return MARGIN_MM + x * self.k, MARGIN_MM + (self.length_cm - y) * self.k

    def path(self, coords: Sequence[Sequence[float]], close: bool) -> str:
        pts = [self.pt(float(c[0]), float(c[1])) for c in coords]
        return "M" + " L".join(f"{x:.2f} {y:.2f}" for x, y in pts) + (" Z" if close else "")

    def geometry(self, geom: BaseGeometry) -> str:
        if geom.geom_type == "Polygon":
            rings = [geom.exterior, *geom.interiors]
            return " ".join(self.path(list(r.coords), True) for r in rings)
        if geom.geom_type in ("MultiPolygon", "MultiLineString", "GeometryCollection"):
            return " ".join(self.geometry(g) for g in geom.geoms)
        return self.path(list(geom.coords), False)


def _label_step(k: float) -> float:
    """Every how many cm the grid is numbered: every line when a three-digit number fits between two."""
    step = GRID_CM
    while step * k < 3 * 0.62 * FONT_MM + 1:
        step += GRID_CM
    return step


def draw_map(
    document: Mapping[str, Any],
    forces: NewForces,
    wire_belt_cm: float | None,
    box: tuple[float, float] = MAP_BOX_MM,
    turn_word: str = "turn",
) -> MapDrawing:
    width, length = float(document["table"]["width_cm"]), float(document["table"]["length_cm"])
    scale = scale_for(width, length, box)
    f = _Frame(width, length, scale)
    w_mm, l_mm = width * f.k, length * f.k
    grid = [f.path([(x, 0), (x, length)], False) for x in _steps(width)]
    grid += [f.path([(0, y), (width, y)], False) for y in _steps(length)]
    step = _label_step(f.k)
    labels = [(*_below(f.pt(x, 0)), fmt(x), "middle") for x in _steps(width) if _on_step(x, step, width)]
    labels += [
        (MARGIN_MM - 1.0, f.pt(0, y)[1] + FONT_MM * 0.35, fmt(y), "end")
        for y in _steps(length)
        if _on_step(y, step, length)
    ]
    shapes = _terrain(document.get("terrain") or {}, f, wire_belt_cm)
    zones = []
    for side in SIDES:
        zone = (document["sides"][side] or {}).get("deployment_zone")
        if zone:
            zones.append((side, f.geometry(shape(zone)), SIDE_COLOUR[side]))
    bases = get_game_rules(str(document["ruleset"])).book.kit.bases  # the rule set's bases, sized
    stands = []
    by_side = {side: list(_walk(forces.forces.get(side, ()))) for side in SIDES}
    for side, nodes in by_side.items():
        for node in nodes:
            place = forces.placements.get(node.id)
            base = bases.get(node.base or "")
            if place is None or base is None:
                continue
            rect = oriented_rect(
                (float(place["center"][0]), float(place["center"][1])),
                float(place["facing_deg"]),
                base.width_cm,
                base.depth_cm,
            )
            stands.append((SIDE_COLOUR[side], f.geometry(rect)))
    nations = {s: label(str((document["sides"][s] or {}).get("nationality") or "")) for s in SIDES}
    edges = [
        (
            MARGIN_MM + w_mm / 2,
            MARGIN_MM + l_mm + MARGIN_MM - 0.8,
            f"Attacker's edge ({nations['attacker']})",
        ),
        (MARGIN_MM + w_mm / 2, FONT_MM * 0.9, f"Defender's edge ({nations['defender']})"),
    ]
    objectives = _objectives(document.get("table_objectives") or {}, f, turn_word)
    bar_cm = 50 if 50 * f.k <= w_mm else int(GRID_CM)
    return MapDrawing(
        scale,
        w_mm + 2 * MARGIN_MM,
        l_mm + 2 * MARGIN_MM,
        (MARGIN_MM, MARGIN_MM, w_mm, l_mm),
        grid,
        labels,
        shapes,
        zones,
        stands,
        edges,
        bar_mm=bar_cm * f.k,
        bar_cm=bar_cm,
        objectives=objectives,
    )


def _steps(extent: float) -> list[float]:
    return [i * GRID_CM for i in range(math.floor(extent / GRID_CM + 1e-9) + 1)]


def _on_step(value: float, step: float, extent: float) -> bool:
    return abs(value / step - round(value / step)) < 1e-9 or abs(value - extent) < 1e-9


def _below(pt: tuple[float, float]) -> tuple[float, float]:
    return pt[0], pt[1] + FONT_MM + 0.4


def _terrain(collection: Mapping[str, Any], f: _Frame, wire_belt_cm: float | None) -> list[Shape]:
    features = list(collection.get("features") or [])
    order = {k: i for i, k in enumerate(DRAW_ORDER)}
    numbered = sorted(
        enumerate(features, start=1),
        key=lambda p: order.get(str((p[1].get("properties") or {}).get("kind")), len(order)),
    )
    out = []
    for number, feature in numbered:
        props = feature.get("properties") or {}
        kind = str(props.get("kind", ""))
        geom = shape(feature["geometry"])
        fill, stroke = STYLE.get(kind, ("#dddddd", "#555555"))
        line = geom.geom_type in ("LineString", "MultiLineString")
        breadth = props.get(BREADTH.get(kind, ""), wire_belt_cm if kind == "wire" else None)
        width_mm = (
            float(breadth) * f.k if line and isinstance(breadth, int | float) and breadth > 0 else THIN_MM
        )
        at = geom.interpolate(0.5, normalized=True) if line else geom.representative_point()
        out.append(
            Shape(
                kind,
                f.geometry(geom),
                fill if not line else "none",
                stroke,
                width_mm,
                line,
                number,
                f.pt(at.x, at.y),
            )
        )
    return out


POINT_RING_MM = 1.6  # a point objective's ring on the sheet
# When an objective scores (the document's `scored`), in the sheet's words; {turn}: the rules' word for a turn.
WHEN = {
    "each_turn": "at the end of each {turn}",
    "game_end": "at the end of the game",
    "first_taken": "the first time it is taken",
}


def _conditions(document: Mapping[str, Any]) -> str:
    """The scenario's victory conditions (rules.core.victory), printed after its victory text."""
    features = (document.get("table_objectives") or {}).get("features") or []
    names = {
        str(o.get("id") or f"objective-{i + 1}"): str((o.get("properties") or {}).get("name"))
        for i, o in enumerate(features)
    }
    return written(document.get("victory_conditions"), names)


def _when(props: Mapping[str, Any], turn_word: str) -> str:
    """When an objective scores, in the sheet's words (a held_turns objective with its count of turns)."""
    scored = str(props.get("scored") or "")
    if scored == "held_turns":
        n = int(props.get("turns") or 0)
        run = " in a row" if props.get("consecutive") else ""
        return f"once held at the end of {n} {turn_word}{'' if n == 1 else 's'}{run}"
    return WHEN.get(scored, scored).format(turn=turn_word)


def _objectives(collection: Mapping[str, Any], f: _Frame, turn_word: str) -> list[ObjectiveMark]:
    """Each objective lettered A, B, ... in the document's order, with where it is in table cm."""
    out = []
    for i, feature in enumerate(collection.get("features") or []):
        props = feature.get("properties") or {}
        geom = shape(feature["geometry"])
        letter = _letter(i)
        if geom.geom_type == "Point":
            x, y = f.pt(geom.x, geom.y)
            r = POINT_RING_MM
            d = f"M{x - r:.2f} {y:.2f} A{r} {r} 0 1 0 {x + r:.2f} {y:.2f} A{r} {r} 0 1 0 {x - r:.2f} {y:.2f} Z"
            where = f"the point {fmt(round(geom.x, 1))}, {fmt(round(geom.y, 1))} cm"
            at = (x, y - r - 0.6)
        else:
            x0, y0, x1, y1 = geom.bounds
            c = geom.representative_point()
            d = f.geometry(geom)
            where = (
                f"an area {fmt(round(x1 - x0, 1))} × {fmt(round(y1 - y0, 1))} cm "
                f"round {fmt(round(c.x, 1))}, {fmt(round(c.y, 1))} cm"
            )
            at = f.pt(c.x, c.y)
        held = str(props.get("held_by") or "")
        out.append(
            ObjectiveMark(
                letter,
                str(props.get("name") or feature.get("id") or letter),
                int(props.get("vp") or 0),
                _when(props, turn_word),
                where,
                d,
                at,
                held if held in SIDES else "",
            )
        )
    return out


def _letter(i: int) -> str:
    """A, B, ..., Z, AA, AB, ...: an objective's mark, unlike the terrain's numbers."""
    letters = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def _legend(
    document: Mapping[str, Any], shapes: Sequence[Shape], classes: Sequence[TerrainClass] = ()
) -> list[LegendRow]:
    """Each kind drawn with its pieces by number and name; where the rule set reads the ground by classes
    (its kit's), each piece's class after its name."""
    features = list((document.get("terrain") or {}).get("features") or [])
    ruleset = get_ruleset(str(document["ruleset"]))
    drawing = ruleset.data("terrain-drawing")["kinds"] if "terrain-drawing" in ruleset.datasets else {}
    rows: dict[str, LegendRow] = {}
    for s in sorted(shapes, key=lambda s: s.number):
        props = features[s.number - 1].get("properties") or {}
        name = str(props.get("name") or "")
        of = props.get(TERRAIN_CLASS) or next((c.id for c in classes if s.kind in c.kinds), None)
        if classes and of:
            name = f"{name} ({of})".strip()
        kind_name = str(drawing.get(s.kind, {}).get("name") or label(s.kind))
        row = rows.setdefault(s.kind, LegendRow(s.kind, kind_name, s.fill, s.stroke, s.line, []))
        row.features.append((s.number, name))
    return [rows[k] for k in sorted(rows, key=lambda k: DRAW_ORDER.index(k) if k in DRAW_ORDER else 99)]


# -- the order of battle ------------------------------------------------------------------------------------
def _walk(nodes: Sequence[ForceNode]) -> list[ForceNode]:
    out: list[ForceNode] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def _count(node: ForceNode) -> int:
    return sum(1 for n in _walk([node]) if not n.children)


def _summary(children: Sequence[ForceNode], stands_word: str) -> str:
    """What a line stands for below it: "4 × Infantry Company (4 stands), MMG", alike units counted."""
    alike: dict[tuple[str, int], int] = {}
    for c in children:
        key = (_generic(c.name), _count(c) if c.children else 0)
        alike[key] = alike.get(key, 0) + 1
    parts = []
    for (name, stands), n in alike.items():
        what = f"{name} ({stands} {stands_word})" if stands else name
        parts.append(f"{n} × {what}" if n > 1 else what)
    return ", ".join(parts)


def _generic(name: str) -> str:
    """A formation's name without its number ("Infantry Company 2" counted as "Infantry Company")."""
    head, _, tail = name.rpartition(" ")
    return head if head and tail.isdigit() else name


def order_of_battle(
    trees: Sequence[ForceNode], off_table: set[str], most: int, stands_word: str = "stands"
) -> list[OobLine]:
    """Each formation on a line (name, quality, stands), shallow first: formations deeper than the page holds
    are summarised on their parent's line, and stands always are."""
    depth_limit = 1
    while True:
        lines = _lines(trees, off_table, depth_limit, stands_word)
        deeper = _lines(trees, off_table, depth_limit + 1, stands_word)
        if len(deeper) > most or deeper == lines:
            return lines
        depth_limit += 1


def _lines(
    trees: Sequence[ForceNode], off_table: set[str], depth_limit: int, stands_word: str
) -> list[OobLine]:
    out: list[OobLine] = []

    def visit(node: ForceNode, depth: int, off: bool, parent_quality: str | None) -> None:
        arrives = node.id in off_table and not off  # marked once, on the unit that is off the table
        off = off or arrives
        shown = [c for c in node.children if c.children and depth + 1 < depth_limit]
        summarised = [c for c in node.children if c not in shown]
        quality = node.quality if node.quality != parent_quality else None
        detail = "; ".join(
            x
            for x in (
                label(quality) if quality else "",
                f"{_count(node)} {stands_word}" if node.children else label(node.kind),
                _summary(summarised, stands_word),
            )
            if x
        )
        out.append(OobLine(depth, node.name, detail, arrives))
        for c in shown:
            visit(c, depth + 1, off, node.quality)

    for tree in trees:
        visit(tree, 0, False, None)
    return out


def _special_rules(ruleset_id: str, ids: Sequence[str]) -> list[tuple[str, str, str]]:
    """Each rule by its name and effect where the rule set describes its special rules, else its id."""
    ruleset = get_ruleset(ruleset_id)
    known: dict[str, Mapping[str, Any]] = {}
    if "special-rules" in ruleset.datasets:
        known = {str(r["id"]): r for r in ruleset.data("special-rules").get("rules", [])}
    out = []
    for rid in ids:
        rule = known.get(str(rid))
        if rule is None:
            out.append((label(str(rid)), "", ""))
        else:
            out.append((str(rule["name"]), str(rule.get("effect", "")), str(rule.get("source", ""))))
    return out


def _by_reading(value: Any) -> list[str]:
    """The errata a document's per-reading values name."""
    if isinstance(value, Mapping):
        if "by_reading" in value:
            return [str(value["by_reading"])]
        return [e for v in value.values() for e in _by_reading(v)]
    if isinstance(value, list):
        return [e for v in value for e in _by_reading(v)]
    return []


# -- the sheet ----------------------------------------------------------------------------------------------
def scenario_sheet(
    document: Mapping[str, Any],
    variants: Mapping[str, str] | None = None,
    box: tuple[float, float] = MAP_BOX_MM,
) -> ScenarioSheet:
    """The sheet of a checked scenario document, by the readings in `variants` (else the document's own,
    else each erratum's default), its map drawn to fit `box` (mm). A RulesError names an unknown reading."""
    ruleset_id = str(document["ruleset"])
    ruleset = get_ruleset(ruleset_id)
    rules = get_game_rules(ruleset_id)
    chosen = {**dict(document.get("variants") or {}), **dict(variants or {})}
    ctx = ruleset.context(document.get("period"), chosen)
    forces = rules.new_forces(ctx, document)
    drawing = draw_map(document, forces, rules.book.wire_belt_cm, box, rules.book.turn_word)
    stands_word = f"{rules.book.stand_word}s"  # the rule set's word for what stands on the table
    off = set(forces.off_table)
    sides = []
    for side in SIDES:
        spec = document["sides"][side] or {}
        trees = forces.forces.get(side, ())
        sides.append(
            SideSheet(
                side,
                label(str(spec.get("nationality") or "")),
                order_of_battle(trees, off, OOB_LINES // 2, stands_word),
                sum(_count(t) for t in trees),
                _special_rules(ruleset_id, (document.get("special_rules") or {}).get(side, [])),
                bool(spec.get("deployment_zone")),
                SIDE_COLOUR[side],
            )
        )
    meta = [
        ("Rules", ruleset.name),
        (
            "Period",
            next(
                (p.name for p in ruleset.periods if p.id == document.get("period")),
                fmt(document.get("period")),
            ),
        ),
        ("Date", str(document.get("date") or "")),
        ("Table", f"{fmt(document['table']['width_cm'])} × {fmt(document['table']['length_cm'])} cm"),
        ("Turns", fmt(document.get("turns")) if document.get("turns") else "not given"),
        ("Moves first", label(str(document.get("first_side") or ""))),
    ]
    # The readings the sheet is printed by: those chosen, those the document's values depend on and those it
    # names as left open.
    relied = set(chosen) | set(_by_reading(document.get("sides"))) | set(document.get("errata") or [])
    readings = [(eid, ctx.reading(eid)) for eid in sorted(relied) if eid in ruleset.errata]
    return ScenarioSheet(
        str(document.get("title") or document.get("id") or ""),
        [(k, v) for k, v in meta if v],
        str(document.get("source") or ""),
        drawing,
        _legend(document, drawing.shapes, rules.book.kit.terrain_classes),
        sides,
        str(document.get("objectives") or ""),
        " ".join(filter(None, (str(document.get("victory") or ""), _conditions(document)))),
        [str(n) for n in document.get("notes") or []],
        readings,
        stands_word,
    )
