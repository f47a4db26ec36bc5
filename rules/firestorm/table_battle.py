"""A Firestorm campaign battle fought on a Flanders Fields table, and its result offered back to the campaign.

table_battle(state, layout_seed) reads the battle waiting for its result (phase "resolve") and sets up the table
game: the campaign turn's date and the Flanders Fields period it falls in, the forces of both sides from the
organisation tables (one battalion-scale unit per committed Firestorm Troop), and a starting layout of the
contested area's terrain in the shape app.services.game_setup.create_game accepts. offer_from_outcome(outcome) turns the finished game's
result (who holds the field, stands lost) into the Great War score the campaign's resolve action takes.

Where the texts are silent the choice is a Firestorm erratum (rules/firestorm/great_war_data.py):
campaign-turn-date, firestorm-troop-to-force, a7v-table, out-of-supply-on-the-table, campaign-table-layout,
table-result-to-campaign-vp, firestorm-grade (the printed grades as Flanders Fields grades), gassed-bef-force
(how the turn 1 gas halves a BEF troop's battalion), hmg-nest-on-the-table and hmg-nests-enemy-trench (the
defender's trench HMG nests, each a machine-gun stand placed in its front trench).

The generated layout (erratum campaign-table-layout, reading "generated") is firestep's, not the book's. Table
frame as everywhere (rules/table/frame.py): x across the 120 cm, y from the attacker's base edge to the
defender's over 180 cm; both sides deploy 15 cm deep (DEPLOY_DEPTH) and every area feature stays clear of both
deployment zones and 2 cm inside the table edges; roads may run from edge to edge.
- open: one road the length of the table, one or two copses, a hill on half the tables; named places add their
  features: Cachy a village with its short switch trench ("A-3 Cachy has a small trench line"), Fouilloy/Hill
  104 a village and the hill, Rue de Péronnes the road across the table.
- wood: the area's wood, large, in the defender's half, with two or three copses, never the whole table.
- trench: the defender's front trench across the table in its half, built of 15-30 cm runs (the book's felt
  strips), a support trench behind it and a wire belt in front (behind it when the trench was the attacker's
  own, captured by the defender), two to four patches of shell-torn ground in no man's land, and the
  attacker's own front trench when it attacks from a trench it started in. Monument Wood adds its
  burned-down trees.
- city: the town's blocks about a crossroads in the defender's half, one copse on the attacker's side.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import JsonValue
from shapely import Polygon
from shapely.geometry import shape

from rules.core.errors import RulesError
from rules.core.ruleset import REQUEST_INT_LIMIT, Context
from rules.firestorm.battle import aif_night_battle, destroy_target_by_vp, great_war_attacker_won, other
from rules.firestorm.campaign import CampaignState, GreatWarResult, check_state
from rules.firestorm.data import (
    AREA_NAMES,
    DESTROY_BY_VP,
    SRC_SUPPLY,
    SRC_VALUES,
    TERRAIN,
    TRENCH_OWNER,
    TROOP_BY_ID,
    Kind,
    Side,
)
from rules.firestorm.great_war import gassed, mission_for, trench_hmg_nests
from rules.firestorm.great_war_data import (
    FF_ORGANISATION,
    FF_QUALITY,
    FF_TERRAIN,
    MISSION_NAMES,
    NIGHT_RULES,
    SRC_CHOOSE_TROOPS,
    SRC_DEFEATED,
    SRC_DEPLOYMENT,
    SRC_GAS,
    SRC_MISSION,
    SRC_NEST_CARD,
    SRC_NIGHT,
    SRC_OUT_OF_SUPPLY,
    SRC_REINFORCEMENTS,
    SRC_ROLL_TO_DESTROY,
    SRC_TERRAIN,
    gassed_half,
)
from rules.firestorm.ruleset import Firestorm, cite
from rules.flanders_fields.book.organisation import ORGANISATION_TABLES, TABLES, build_force, build_template
from rules.flanders_fields.book.organisation import Unit as OrgUnit
from rules.flanders_fields.planning.scenarios import DEPLOY_DEPTH, HILL_HEIGHT_CM, ROAD_WIDTH_CM
from rules.flanders_fields.ruleset import cite as ff_cite
from rules.table.frame import TABLE_LENGTH_CM, TABLE_WIDTH_CM
from rules.table.geojson import FeatureCollection, GeoFeature, GeoGeometry

Role = Literal["attacker", "defender"]
ROLES: tuple[Role, ...] = ("attacker", "defender")
NATIONS: dict[Side, str] = {"german": "german", "bef": "british"}
SIDE_NAMES: dict[Side, str] = {"german": "the Germans", "bef": "the BEF"}

SRC_DATES = cite("title page: 24-27 APRIL 1918")
# The playsheet headings, each with its printed range.
PERIOD_HEADINGS = {
    "early": "WESTERN FRONT 1914 TO MID 1915",
    "mid": "WESTERN FRONT MID 1915 TO MID 1917",
    "late": "WESTERN FRONT MID 1917 TO END OF WAR",
}
SRC_QUALITY = FF_QUALITY


@dataclass(frozen=True)
class TableForce:
    """One entry for app.services.game_setup.create_game(forces=...): {side, table_id=table, quality,
    template, name}."""

    side: Role
    table: str  # a key of rules.flanders_fields.book.organisation.ORGANISATION_TABLES
    quality: str | None  # a Flanders Fields quality id, or None for the table's default
    name: str  # the Firestorm Troop's card name
    troop: str  # the Firestorm Troop id it comes from; "" for the force a side fields without one
    # The table's named part the force is (e.g. "battalion"); None: the whole table, itself a battalion.
    template: str | None = None
    # kind -> boxes kept of that kind under each parent, fewer than the chart draws (a gassed BEF troop); the
    # organisation builders' `counts`.
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TableNest:
    """A trench HMG nest of the defender (erratum hmg-nest-on-the-table): one machine-gun stand."""

    unit: OrgUnit
    # Its centre inside the defender's front trench, rules/table/frame.py's frame; None when no trench is laid
    # (the table is laid by hand): it starts off the table.
    center: tuple[float, float] | None
    facing_deg: float


@dataclass(frozen=True)
class TableBattle:
    area: str
    area_name: str
    terrain_kind: str
    date: str
    period: str
    attacker: Side
    attacker_nation: str
    defender_nation: str
    forces: tuple[TableForce, ...]
    terrain: FeatureCollection  # as a scenario's and create_game(terrain=...) take
    # rules/table/frame.py: 120 cm across (x), 180 cm from the attacker's base edge to the defender's (y).
    table_width_cm: float
    table_length_cm: float
    sources: tuple[str, ...]
    errata: tuple[str, ...]
    # Added fields (optional): the campaign's readings (offer_from_outcome scores with them), the attacking
    # area, each side's deployment zone [x_min, y_min, x_max, y_max], and plain-language notes for the table.
    variants: Mapping[str, str] = field(default_factory=dict)
    from_area: str = ""
    deployment_zones: Mapping[str, tuple[float, float, float, float]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    # The defender's trench HMG nests, "in addition to any Firestorm Troops".
    nests: tuple[TableNest, ...] = ()
    # The table's objectives (erratum campaign-table-objectives), as a scenario's `table_objectives`.
    objectives: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TableOutcome:
    attacker_bases: int  # stands each side started with
    defender_bases: int
    attacker_lost: int  # stands killed
    defender_lost: int
    field_held_by: Role | None  # who holds the contested ground at the end; None if not recorded


@dataclass(frozen=True)
class ResultOffer:
    attacker_vp: int  # 0..20, the great_war score of the campaign's resolve action
    defender_vp: int
    # The Firestorm side ("german" | "bef") the campaign gives the battle to, or "draw" for level scores (which
    # the campaign counts for the defender); "attacker" | "defender" when no battle was given.
    winner: str
    reasons: tuple[str, ...]
    sources: tuple[str, ...]
    # Added: great_war_attacker_won for these scores (a "draw" counts as a defender victory in the campaign).
    attacker_won: bool = False


# -- the date and the period ------------------------------------------------------------------------------------
# Firestorm: "24-27 APRIL 1918"; each turn's date is the erratum campaign-turn-date.
# Flanders Fields PLAYSHEETS: "WESTERN FRONT 1914 TO MID 1915", "WESTERN FRONT MID 1915 TO MID 1917", "WESTERN
# FRONT MID 1917 TO END OF WAR": (first year, last year) of each, the last None for "end of war". A date in a
# "mid" year is in two ranges: the playsheets do not say which month ends one and starts the next.
PERIOD_YEARS: dict[str, tuple[int, int | None]] = {
    "early": (1914, 1915),
    "mid": (1915, 1917),
    "late": (1917, None),
}


def period_of(day: str) -> str:
    """The Flanders Fields period whose printed range holds the ISO date ("1918-04-24"); RulesError for a
    'mid' year. (Dates stay strings: the rules never import the clock's module.)"""
    year = int(day[:4])
    fits = [p for p, (a, b) in PERIOD_YEARS.items() if a <= year and (b is None or year <= b)]
    if len(fits) != 1:
        raise RulesError("date", f"{day} falls where the playsheets' ranges meet or outside them", fits)
    return fits[0]


def turn_date(ctx: Context, turn: int) -> str:
    """The ISO date of a campaign turn, as the erratum campaign-turn-date reads it."""
    return str(ctx.value("campaign-turn-date")[turn - 1])


# -- forces -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ForceChoice:
    table: str
    quality: str | None
    printed: str  # the line that picks the table or its grade
    template: str | None = None  # the table's named part (its "battalion"); None: the whole table


# Late war (every campaign date is in April 1918): (side, kind) -> the battalion-scale unit of the tables that
# represents it (erratum firestorm-troop-to-force: a Flanders Fields game is "a battalion at a time", not a
# division a troop). The A7V has none (erratum a7v-table); a side fielding no Firestorm Troop uses its
# "other-infantry" unit.
FORCE_TABLES: dict[str, dict[tuple[Side, Kind], ForceChoice]] = {
    "late": {
        ("german", "stoss"): ForceChoice(
            "de-storm-battalion",
            "storm",
            "GERMAN STORM BATTALION, the whole table: 'A Storm Troop battalion are always classed as Veteran'",
        ),
        ("german", "other-infantry"): ForceChoice(
            "de-1916",
            None,
            "GERMAN INFANTRY DIVISION 1916-1918, one Infantry Battalion, graded as the table's default",
            "battalion",
        ),
        ("german", "hmg"): ForceChoice(
            "de-storm-battalion",
            "storm",
            "GERMAN STORM BATTALION, its MMG Company ('3-6 Maxim MMG'): the one German machine-gun company "
            "the tables print as a part of its own; 'Crewed Weapons such as artillery, machineguns and "
            "mortars are always classed as Experienced'",
            "mmg-company",
        ),
        ("bef", "other-infantry"): ForceChoice(
            "gb-1917",
            None,
            "BRITISH AND EMPIRE DIVISION SPRING 1917 ONWARDS, one Infantry Battalion: 'All battalions may be "
            "Experienced'",
            "battalion",
        ),
        ("bef", "veteran-british"): ForceChoice(
            "gb-1917",
            None,
            "BRITISH AND EMPIRE DIVISION SPRING 1917 ONWARDS, one Infantry Battalion: 'one quarter may be "
            "upgraded to Veteran'; Firestorm values the AIF as 'Veteran British'",
            "battalion",
        ),
        ("bef", "hmg"): ForceChoice(
            "gb-1917",
            None,
            "BRITISH AND EMPIRE DIVISION SPRING 1917 ONWARDS, its Machine Gun Battalion (4 MMG Companies of "
            "4 Vickers): the British 1917 table prints its machine guns only there, and 58 Bn MGC is such a "
            "battalion; 'Crewed Weapons ... are always classed as Experienced'",
            "mg-battalion",
        ),
        ("bef", "heavy-tank"): ForceChoice(
            "gb-tank-battalion",
            "experienced",
            "BRITISH TANK BATTALION AUTUMN 1916 ONWARDS, the whole table: 'All tank battalions are Raw from the "
            "Autumn of 1916 to Mid 1917 after which they may be upgraded to Experienced'",
        ),
        ("bef", "whippet"): ForceChoice(
            "gb-tank-battalion",
            "experienced",
            "BRITISH TANK BATTALION AUTUMN 1916 ONWARDS, the one British tank table (its sections take "
            "'Whippet Light Tank 4 x LMG' models); 'after which they may be upgraded to Experienced'",
        ),
    }
}
# erratum a7v-table's tables -> (quality, the battalion-scale part the A7V brings)
A7V_FORCE: dict[str, tuple[str | None, str | None]] = {
    "de-storm-battalion": ("storm", None),
    "de-1916": (None, "battalion"),
}


def force_choice(ctx: Context, period: str, side: Side, kind: Kind) -> ForceChoice:
    tables = FORCE_TABLES.get(period)
    if tables is None:
        raise RulesError("period", "campaign battles are fought in the late war", sorted(FORCE_TABLES))
    if side == "german" and kind == "heavy-tank":
        table = str(ctx.value("a7v-table"))
        title = ORGANISATION_TABLES[table]["title"]
        quality, template = A7V_FORCE[table]
        part = f", one {template}" if template else ""
        return ForceChoice(
            table, quality, f"{title}{part}, for an A7V: no German tank table is printed", template
        )
    return tables[(side, kind)]


def _part_name(choice: ForceChoice) -> str:
    """'Infantry Battalion, German Infantry Division 1916-1918': the part and the table it is printed in."""
    table = TABLES[choice.table]
    if choice.template is None:
        return table.title
    return f"{table.templates[choice.template].name or choice.template}, {table.title}"


def _forces(ctx: Context, state: CampaignState, period: str) -> tuple[list[TableForce], list[str]]:
    c = state.current
    assert c is not None
    agreed = ctx.value("firestorm-troop-to-force") == "agreed-force-plus-troops"
    forces: list[TableForce] = []
    used = ["firestorm-troop-to-force"]
    sides: tuple[tuple[Role, Side, tuple[str, ...]], ...] = (
        ("attacker", c.attacker, c.attacker_troops),
        ("defender", other(c.attacker), c.defender_troops),
    )
    for role, side, troops in sides:
        if agreed or not troops:
            infantry = force_choice(ctx, period, side, "other-infantry")
            why = "the force agreed for the game" if agreed else "no Firestorm Troop committed"
            forces.append(
                TableForce(
                    role, infantry.table, infantry.quality, f"{_part_name(infantry)} ({why})", "",
                    infantry.template,
                )
            )  # fmt: skip
        for tid in troops:
            spec = TROOP_BY_ID[tid]
            choice = force_choice(ctx, period, side, spec.kind)
            if spec.kind == "heavy-tank" and side == "german":
                used.append("a7v-table")
            if spec.kind == "veteran-british":
                used.append("veteran-british")
            quality = choice.quality
            if tid in FIRESTORM_GRADES:
                quality = troop_quality(ctx, tid)
                used.append("firestorm-grade")
            counts: dict[str, int] = {}
            if gassed(state.turn, side):
                counts = gassed_counts(ctx, choice.table, choice.template, quality)
                used.append("gassed-bef-force")
            forces.append(TableForce(role, choice.table, quality, spec.name, tid, choice.template, counts))
    return forces, used


# -- grades -------------------------------------------------------------------------------------------------------
# Each grade Firestorm prints for a troop (troop id -> (grade, where and the printed line)); erratum
# firestorm-grade maps it to a Flanders Fields grade. Troops printed without one take their table's grade
# (FORCE_TABLES).
_D1 = f"{SRC_DEPLOYMENT}: 478 RIR (veteran infantry, use Jägerkompanie) at D-1"
_D2 = (
    f"{SRC_DEPLOYMENT}: 48 RIR (veteran infantry), 207 RIR (veteran infantry, use Jägerkompanie) and Group I "
    "(A7V tanks) at D-2"
)
_D3 = (
    f"{SRC_DEPLOYMENT}: G Gr. 5 (Stoss), 93 RIR (veteran infantry, use Jägerkompanie) and Group III (A7V "
    "tanks) at D-3"
)
_C5 = (
    f"{SRC_DEPLOYMENT}: 257 (Stoss) and 419 RIR (trained infantry, use infanteriekompanie) and Group II (A7V "
    "tanks) at C-5"
)
_AIF = (
    f"{SRC_REINFORCEMENTS}: the British player receives four Veteran Infantry Firestorm Troops. Two are from "
    "the 13th AIF Brigade and two are from the 15th AIF Brigade; the 14th shares their card, '13 POINTS 13th, "
    "14th and 15th Bde AIF'"
)
FIRESTORM_GRADES: dict[str, tuple[str, str]] = {
    "478-rir": ("veteran", _D1),
    "48-rir": ("veteran", _D2),
    "207-rir": ("veteran", _D2),
    "93-rir": ("veteran", _D3),
    "g-gr-5": ("stoss", _D3),
    "257-rir": ("stoss", _C5),
    "419-rir": ("trained", _C5),
    **dict.fromkeys(
        ("14-bde-aif", "13-bde-aif-a", "13-bde-aif-b", "15-bde-aif-a", "15-bde-aif-b"), ("veteran", _AIF)
    ),
}


def troop_quality(ctx: Context, troop: str) -> str:
    """The Flanders Fields grade of a troop Firestorm grades (erratum firestorm-grade)."""
    return str(ctx.value("firestorm-grade")[FIRESTORM_GRADES[troop][0]])


# -- the turn 1 gas -----------------------------------------------------------------------------------------------
def gassed_counts(ctx: Context, table: str, template: str | None, quality: str | None) -> dict[str, int]:
    """What a gassed BEF troop's unit keeps (erratum gassed-bef-force), as organisation `counts`: half of its
    companies, or half of each company's platoons, rounded up; its HQ stays."""
    built = (
        build_force(table, quality=quality)
        if template is None
        else build_template(table, template, quality=quality, id_prefix=table)
    )
    by_company = ctx.value("gassed-bef-force") == "companies"
    parents = [built] if by_company else [u for u in built.children if u.children]
    kept: dict[str, int] = {}
    for parent in parents:
        drawn = Counter(u.kind for u in parent.children if u.children or not by_company)
        kept |= {kind: gassed_half(n) for kind, n in drawn.items()}
    return kept


# -- the table ----------------------------------------------------------------------------------------------------
EDGE_GAP_CM = 2.0  # firestep's gap between a feature and a table edge or deployment zone (not a rule)
# "Brown felt lines about 1.5-2cm wide and 15-30cm long offers plenty of flexibility when laying out trench lines"
TRENCH_FELT_CM = 2.0
TRENCH_RUN_CM = (15.0, 30.0)
Y_MIN = DEPLOY_DEPTH + EDGE_GAP_CM  # area features stay between the deployment zones
Y_MAX = TABLE_LENGTH_CM - DEPLOY_DEPTH - EDGE_GAP_CM
X_MIN = EDGE_GAP_CM
X_MAX = TABLE_WIDTH_CM - EDGE_GAP_CM
BLOB_VERTICES = 10
PLACING_TRIES = 40


def _r(v: float) -> float:
    return float(round(v, 1))


class _Layout:
    """Features laid one by one; area features never overlap one another."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.features: list[GeoFeature] = []
        self.taken: list[Any] = []

    def _add(self, kind: str, geometry: GeoGeometry, props: dict[str, JsonValue], solid: bool) -> None:
        self.features.append(
            {
                "type": "Feature",
                "id": f"campaign-{len(self.features) + 1}",
                "properties": {"kind": kind, **props},
                "geometry": geometry,
            }
        )
        if solid:
            self.taken.append(shape(geometry).buffer(EDGE_GAP_CM))

    def line(self, kind: str, points: list[tuple[float, float]], solid: bool = True, **props: Any) -> None:
        geometry: GeoGeometry = {"type": "LineString", "coordinates": [[_r(x), _r(y)] for x, y in points]}
        self._add(kind, geometry, props, solid)

    def blob(
        self,
        kind: str,
        centre: tuple[tuple[float, float], tuple[float, float]],
        radii: tuple[float, float],
        **props: Any,
    ) -> bool:
        """An irregular round patch with its centre in the box ((x0, x1), (y0, y1)), kept inside the band
        between the deployment zones and off every feature laid so far; False if none fits."""
        (x0, x1), (y0, y1) = centre
        for _ in range(PLACING_TRIES):
            rx = radii[0] * self.rng.uniform(0.8, 1.0)
            ry = radii[1] * self.rng.uniform(0.8, 1.0)
            cx = min(max(self.rng.uniform(x0, x1), X_MIN + rx), X_MAX - rx)
            cy = min(max(self.rng.uniform(y0, y1), Y_MIN + ry), Y_MAX - ry)
            ring = []
            for i in range(BLOB_VERTICES):
                a = 2 * math.pi * i / BLOB_VERTICES
                k = self.rng.uniform(0.75, 1.0)
                ring.append([_r(cx + rx * k * math.cos(a)), _r(cy + ry * k * math.sin(a))])
            ring.append(ring[0])
            poly = Polygon(ring)
            if poly.is_valid and not any(poly.intersects(t) for t in self.taken):
                self._add(kind, {"type": "Polygon", "coordinates": [ring]}, props, True)
                return True
        return False

    def trench(self, y: float, x_from: float, x_to: float, **props: Any) -> None:
        """A trench line of felt runs across the table at about y, each run's end moved up to 3 cm."""
        points = [(x_from, y + self.rng.uniform(-3, 3))]
        x = x_from
        while x < x_to:
            x = min(x + self.rng.uniform(*TRENCH_RUN_CM), x_to)
            points.append((x, y + self.rng.uniform(-3, 3)))
        self.line("trench", points, width_cm=TRENCH_FELT_CM, **props)

    def wire(self, y: float, **props: Any) -> None:
        """A standard wire belt across the table at y in three runs with two gaps."""
        gaps = sorted(self.rng.uniform(X_MIN + 20, X_MAX - 20) for _ in range(2))
        if gaps[1] - gaps[0] < 20:
            gaps[1] = min(gaps[0] + 20, X_MAX - 10)
        ends = [X_MIN, gaps[0] - 4, gaps[0] + 4, gaps[1] - 4, gaps[1] + 4, X_MAX]
        for a, b in zip(ends[::2], ends[1::2], strict=True):
            self.line("wire", [(a, y), (b, y)], **props)

    def road(self, points: list[tuple[float, float]], **props: Any) -> None:
        """A road from a table edge to another: it leaves each edge square, so its flat ends stay on the table."""

        def square(p: tuple[float, float]) -> tuple[float, float]:
            x, y = p
            if y in (0.0, TABLE_LENGTH_CM):
                return x, abs(y - EDGE_GAP_CM)
            return abs(x - EDGE_GAP_CM), y

        path = [points[0], square(points[0]), *points[1:-1], square(points[-1]), points[-1]]
        self.line("road", path, width_cm=ROAD_WIDTH_CM, **props)


# Named places and what the Firestorm text says is there.
VILLAGES = {"A-3": "Cachy", "B-1": "Fouilloy"}
HILLS = {"B-1": "Hill 104"}
ROADS_ACROSS = {"C-2": "Rue de Péronnes"}
SWITCH_TRENCHES = {"A-3": "Cachy switch line"}  # "A-3 Cachy has a small trench line"
# "burned down trees like Hangard or Monument woods"
BURNED_WOODS = {"C-4": "Monument Wood"}

MID_Y = TABLE_LENGTH_CM / 2
DEFENDER_HALF = (MID_Y, Y_MAX)
ATTACKER_HALF = (Y_MIN, MID_Y)
ACROSS = (X_MIN, X_MAX)


def _copses(t: _Layout, n: int, ys: tuple[float, float]) -> None:
    for i in range(n):
        t.blob("woods", (ACROSS, ys), (9.0, 7.0), name=f"copse {i + 1}")


def _open(t: _Layout, area: str) -> None:
    x = t.rng.uniform(25, TABLE_WIDTH_CM - 25)
    t.road(
        [(x, 0.0), (x + t.rng.uniform(-15, 15), MID_Y), (x + t.rng.uniform(-20, 20), TABLE_LENGTH_CM)],
        name="road",
    )
    if area in ROADS_ACROSS:
        y = t.rng.uniform(MID_Y, Y_MAX - 15)
        t.road(
            [(0.0, y), (TABLE_WIDTH_CM / 2, y + t.rng.uniform(-8, 8)), (TABLE_WIDTH_CM, y)],
            name=ROADS_ACROSS[area],
        )
    if area in HILLS:
        t.blob(
            "hill",
            (ACROSS, DEFENDER_HALF),
            (26.0, 18.0),
            name=HILLS[area],
            height=1,
            height_cm=HILL_HEIGHT_CM,
        )
    elif t.rng.random() < 0.5:
        t.blob(
            "hill", (ACROSS, (Y_MIN, Y_MAX)), (16.0, 12.0), name="hill", height=1, height_cm=HILL_HEIGHT_CM
        )
    if area in VILLAGES:
        t.blob("village", (ACROSS, DEFENDER_HALF), (13.0, 10.0), name=VILLAGES[area])
    if area in SWITCH_TRENCHES:
        x0 = t.rng.uniform(X_MIN, X_MAX - 45)
        t.trench(t.rng.uniform(MID_Y - 5, MID_Y + 10), x0, x0 + 40, name=SWITCH_TRENCHES[area])
    _copses(t, t.rng.randint(1, 2), (Y_MIN, Y_MAX))


def _wood(t: _Layout, area: str) -> None:
    t.blob(
        "woods",
        ((30, TABLE_WIDTH_CM - 30), (MID_Y + 15, Y_MAX - 20)),
        (30.0, 22.0),
        name=AREA_NAMES.get(area, "wood"),
    )
    _copses(t, t.rng.randint(2, 3), (Y_MIN, Y_MAX))


def _trench(t: _Layout, area: str, attacker: Side, from_area: str) -> None:
    y = t.rng.uniform(136, 144)
    captured = TRENCH_OWNER[area] == attacker  # the defender holds a trench the attacker built
    built_by = SIDE_NAMES[TRENCH_OWNER[area]]
    t.trench(y, X_MIN, X_MAX, name=FRONT_TRENCH, built_by=built_by)
    if captured:
        # Its wire still faces the defender's side: the trench was dug against them.
        t.wire(y + 7, name="wire (facing the defender's side)")
    else:
        t.trench(y + t.rng.uniform(12, 14), X_MIN, X_MAX, name="support trench", built_by=built_by)
        t.wire(y - 7, name="wire")
    if TRENCH_OWNER.get(from_area) == attacker:
        ya = t.rng.uniform(28, 34)
        t.trench(
            ya, X_MIN, X_MAX, name=f"{SIDE_NAMES[attacker]}' front trench", built_by=SIDE_NAMES[attacker]
        )
        t.wire(ya + 7, name="wire")
    if area in BURNED_WOODS:
        t.blob(
            "woods", (ACROSS, (MID_Y, y - 15)), (16.0, 10.0), name=f"{BURNED_WOODS[area]} (burned-down trees)"
        )
    for i in range(t.rng.randint(2, 4)):
        t.blob("shell-torn", (ACROSS, (55.0, y - 15)), (9.0, 7.0), name=f"shell-torn ground {i + 1}")


def _city(t: _Layout, area: str) -> None:
    cx = t.rng.uniform(TABLE_WIDTH_CM / 2 - 15, TABLE_WIDTH_CM / 2 + 15)
    cy = t.rng.uniform(MID_Y + 10, Y_MAX - 30)
    name = AREA_NAMES.get(area, "town")
    t.road(
        [(cx + t.rng.uniform(-10, 10), 0.0), (cx, cy), (cx + t.rng.uniform(-10, 10), TABLE_LENGTH_CM)],
        name="road",
    )
    t.road(
        [(0.0, cy + t.rng.uniform(-6, 6)), (cx, cy), (TABLE_WIDTH_CM, cy + t.rng.uniform(-6, 6))], name="road"
    )
    block = 0
    for sx in (-1, 1):
        for sy in (-1, 1):
            for _ in range(2):
                xs = (cx + sx * 14, cx + sx * 34)
                ys = (cy + sy * 11, cy + sy * 26)
                if t.blob(
                    "village",
                    ((min(xs), max(xs)), (min(ys), max(ys))),
                    (12.0, 9.0),
                    name=f"{name} {block + 1}",
                ):
                    block += 1
    _copses(t, 1, (Y_MIN, MID_Y - 10))


def generate_terrain(state: CampaignState, layout_seed: int) -> FeatureCollection:
    """The generated starting layout of the contested area (see the module docstring)."""
    c = state.current
    assert c is not None and c.to_area and c.from_area
    rng = random.Random(f"{state.turn}/{state.battle}/{c.attacker}/{c.from_area}/{c.to_area}/{layout_seed}")
    t = _Layout(rng)
    kind = TERRAIN[c.to_area]
    if kind == "trench":
        _trench(t, c.to_area, c.attacker, c.from_area)
    elif kind == "wood":
        _wood(t, c.to_area)
    elif kind == "city":
        _city(t, c.to_area)
    else:
        _open(t, c.to_area)
    return {"type": "FeatureCollection", "features": t.features}


# -- the battle -------------------------------------------------------------------------------------------------
def table_battle(state: CampaignState, layout_seed: int) -> TableBattle:
    """The table game of the battle waiting for its result. Same state and seed, same answer; the seed varies
    the generated layout only."""
    check_state(state)
    c = state.current
    if state.phase != "resolve" or c is None or not c.to_area or not c.from_area:
        raise RulesError(
            "battle",
            f"no battle is waiting for its result (the campaign is at phase {state.phase})",
            ["resolve"],
        )
    if (
        isinstance(layout_seed, bool)
        or not isinstance(layout_seed, int)
        or not 0 <= layout_seed <= REQUEST_INT_LIMIT
    ):
        raise RulesError("layout_seed", f"a whole number from 0 to {REQUEST_INT_LIMIT}")
    ctx = Firestorm().context(None, state.variants)
    day = turn_date(ctx, state.turn)
    period = period_of(day)
    defender = other(c.attacker)
    forces, used = _forces(ctx, state, period)
    generated = ctx.value("campaign-table-layout") == "generated"
    terrain = (
        generate_terrain(state, layout_seed) if generated else {"type": "FeatureCollection", "features": []}
    )
    nests, nest_why, nest_sources = _nests(ctx, state, terrain, NATIONS[defender])
    notes, rule_sources = _battle_notes(ctx, state, nests, nest_why)
    if nests:
        used.append("hmg-nest-on-the-table")
        rule_sources += nest_sources
    sources = [
        SRC_DATES,
        ctx.citation("campaign-turn-date"),
        ff_cite(f"PLAYSHEETS, {PERIOD_HEADINGS[period]}"),
        SRC_CHOOSE_TROOPS,
        ctx.citation("firestorm-troop-to-force"),
        FF_ORGANISATION,
        SRC_QUALITY,
        *sorted({f"{FF_ORGANISATION}: {_choice_line(ctx, period, f)}" for f in forces if f.troop}),
        SRC_TERRAIN,
        ctx.citation("campaign-table-layout"),
        *rule_sources,
    ]
    if generated:
        sources.append(FF_TERRAIN)
    used += ["campaign-turn-date", "campaign-table-layout"]
    if "veteran-british" in used:
        sources.append(SRC_VALUES)
    if "a7v-table" in used:
        sources.append(ctx.citation("a7v-table"))
    if "firestorm-grade" in used:
        sources += [
            *sorted({FIRESTORM_GRADES[f.troop][1] for f in forces if f.troop in FIRESTORM_GRADES}),
            ctx.citation("firestorm-grade"),
        ]
    if "gassed-bef-force" in used:
        sources.append(ctx.citation("gassed-bef-force"))
    for role, side, supplied in (
        ("attacker", c.attacker, c.attacker_in_supply),
        ("defender", defender, c.defender_in_supply),
    ):
        if not supplied:
            used.append("out-of-supply-on-the-table")
            if ctx.value("out-of-supply-on-the-table") == "roll":
                notes.append(
                    f"{_cap(SIDE_NAMES[side])} ({role}) fight Out of Supply: roll a D6 on the Out of Supply "
                    "table before the game; the effect lasts the whole game."
                )
            notes.append(
                f"A Firestorm Troop of {SIDE_NAMES[side]} destroyed in the campaign after this battle is captured."
            )
    if "out-of-supply-on-the-table" in used:
        sources += [SRC_SUPPLY, SRC_OUT_OF_SUPPLY, ctx.citation("out-of-supply-on-the-table")]
    return TableBattle(
        area=c.to_area,
        area_name=AREA_NAMES.get(c.to_area, c.to_area),
        terrain_kind=TERRAIN[c.to_area],
        date=day,
        period=period,
        attacker=c.attacker,
        attacker_nation=NATIONS[c.attacker],
        defender_nation=NATIONS[defender],
        forces=tuple(forces),
        terrain=terrain,
        table_width_cm=TABLE_WIDTH_CM,
        table_length_cm=TABLE_LENGTH_CM,
        sources=tuple(dict.fromkeys(sources)),
        errata=tuple(dict.fromkeys(used)),
        variants=dict(state.variants),
        from_area=c.from_area,
        deployment_zones={
            "attacker": (0.0, 0.0, TABLE_WIDTH_CM, DEPLOY_DEPTH),
            "defender": (0.0, TABLE_LENGTH_CM - DEPLOY_DEPTH, TABLE_WIDTH_CM, TABLE_LENGTH_CM),
        },
        notes=tuple(notes),
        nests=tuple(nests),
        objectives=table_objectives(TABLE_WIDTH_CM, TABLE_LENGTH_CM),
    )


# -- the table's objectives (erratum campaign-table-objectives) ------------------------------------------------------
# "If your opponent scored at least three Victory Points in the game and scored more Victory Points than you did,
# then you have been defeated": each position is worth those three (the erratum's reading).
POSITION_VP = 3
POSITION_CM = 10.0
POSITION_ACROSS = (1 / 6, 1 / 2, 5 / 6)  # of the table's width
POSITION_ALONG = 2 / 3  # of its length, towards the defender's edge


def table_objectives(width_cm: float, length_cm: float) -> FeatureCollection:
    """The campaign table's objectives: the defender's three positions (erratum campaign-table-objectives), held
    by the defender until an attacking stand alone is in one, each scored as the game ends."""
    half = POSITION_CM / 2
    y = _r(length_cm * POSITION_ALONG)
    features: list[GeoFeature] = []
    for i, across in enumerate(POSITION_ACROSS, start=1):
        x = _r(width_cm * across)
        ring = [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]
        features.append(
            {
                "type": "Feature",
                "id": f"position-{i}",
                "geometry": {"type": "Polygon", "coordinates": [[*ring, ring[0]]]},
                "properties": {
                    "name": f"Position {i}",
                    "vp": POSITION_VP,
                    "scored": "game_end",
                    "held_by": "defender",
                },
            }
        )
    return {"type": "FeatureCollection", "features": features}


# -- trench HMG nests ---------------------------------------------------------------------------------------------
# Erratum hmg-nest-on-the-table: a nest is one machine gun of the defender's nation as its tables print it, the
# stand of kind "mmg" in this part of its table: the British Machine Gun Battalion's "Vickers MMG", the German
# Infantry Battalion's MMG Company's "Maxim MMG".
NEST_GUNS: dict[str, tuple[str, str]] = {
    "british": ("gb-1917", "mg-battalion"),
    "german": ("de-1916", "battalion"),
}
FRONT_TRENCH = "front trench"
DEFENDER_FACING_DEG = 270.0  # towards the attacker's base edge (y = 0), as the defender deploys


def _nests(
    ctx: Context, state: CampaignState, terrain: Mapping[str, Any], nation: str
) -> tuple[list[TableNest], str, tuple[str, ...]]:
    """The defender's trench HMG nests: each one machine-gun stand, spread evenly along the defender's front
    trench (off the table when none is laid)."""
    c = state.current
    assert c is not None and c.from_area and c.to_area
    n, why, sources = trench_hmg_nests(ctx, c.attacker, c.from_area, c.to_area, state.turn)
    if not n:
        return [], why, sources
    table, part = NEST_GUNS[nation]
    # One gun of each box: its stand is named as printed, without a number.
    built = build_template(table, part, id_prefix="nest", counts={"mmg": 1})
    gun = next(u for u in built.stands() if u.kind == "mmg")
    front = next(
        (
            shape(f["geometry"])
            for f in terrain["features"]
            if f["properties"].get("kind") == "trench" and f["properties"].get("name") == FRONT_TRENCH
        ),
        None,
    )
    nests = []
    for i in range(1, n + 1):
        at = None if front is None else front.interpolate(i / (n + 1), normalized=True)
        unit = replace(
            gun,
            id=f"trench-hmg-nest-{i}",
            name=f"Trench HMG nest {i} ({gun.name})",
            source=f"{SRC_NEST_CARD}; {gun.source}",
        )
        nests.append(TableNest(unit, None if at is None else (_r(at.x), _r(at.y)), DEFENDER_FACING_DEG))
    return nests, why, (*sources, ctx.citation("hmg-nest-on-the-table"))


def _battle_notes(
    ctx: Context, state: CampaignState, nests: list[TableNest], nest_why: str
) -> tuple[list[str], list[str]]:
    """The Firestorm rules that shape this battle whatever the table: mission, trench HMG nests, gas, night."""
    c = state.current
    assert c is not None and c.from_area and c.to_area
    mission, why = mission_for(c.attacker, c.from_area, c.to_area)
    notes = [f"Mission: {MISSION_NAMES[mission]} ({why})"]
    sources = [SRC_MISSION]
    if nests:
        where = (
            "in its front trench"
            if all(n.center is not None for n in nests)
            else "off the table: place them in its front trench"
        )
        notes.append(
            f"The defender gets {len(nests)} trench HMG nest(s) besides its Firestorm Troops ({nest_why}): "
            f"{', '.join(n.unit.name for n in nests)}, {where}."
        )
    if gassed(state.turn, other(c.attacker)):
        how = (
            "half of its companies"
            if ctx.value("gassed-bef-force") == "companies"
            else "half of each company's platoons"
        )
        notes.append(
            "Turn 1 is fought under the German gas attack: 'all BEF Firestorm Troops and Trench defences are "
            f"halved': each BEF Firestorm Troop fields {how}."
        )
        sources.append(SRC_GAS)
    if aif_night_battle(state.turn, state.battle):
        notes.append(f"Night battle: {'; '.join(NIGHT_RULES)}.")
        sources.append(SRC_NIGHT)
    return notes, sources


def _choice_line(ctx: Context, period: str, force: TableForce) -> str:
    spec = TROOP_BY_ID[force.troop]
    return force_choice(ctx, period, spec.side, spec.kind).printed


# -- the result back to the campaign --------------------------------------------------------------------------
# The Roll to Destroy table's rows, "8+ 4+ / 7 5+ / 3 or 6 6 / 2 or less No roll": its top row is the scale a
# side's share of the enemy's stands is read on (erratum table-result-to-campaign-vp).
VP_SCALE = max(DESTROY_BY_VP)
# The campaign's bound on a great_war score (GreatWarResult: "attacker_vp: int = Field(ge=0, le=20)").
VP_LIMIT = next(m.le for m in GreatWarResult.model_fields["attacker_vp"].metadata if hasattr(m, "le"))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# The Roll to Destroy table prints "4+", "5+" and "6": its highest score needed is a 6 exactly.
HIGHEST_NEEDED = max(v for v in DESTROY_BY_VP.values() if v is not None)


def _needed(target: int) -> str:
    return f"a {target}" if target == HIGHEST_NEEDED else f"{target}+"


def _check_outcome(o: TableOutcome) -> None:
    for role in ROLES:
        bases, lost = getattr(o, f"{role}_bases"), getattr(o, f"{role}_lost")
        for name, v in ((f"{role}_bases", bases), (f"{role}_lost", lost)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= REQUEST_INT_LIMIT:
                raise RulesError(f"outcome.{name}", f"a whole number of stands from 0 to {REQUEST_INT_LIMIT}")
        if lost > bases:
            raise RulesError(f"outcome.{role}_lost", f"at most the {bases} stands the {role} started with")
    if o.field_held_by not in (*ROLES, None):
        raise RulesError("outcome.field_held_by", "who holds the contested ground", [*ROLES, None])


def offer_from_outcome(
    outcome: TableOutcome, battle: TableBattle | None = None, variants: Mapping[str, str] | None = None
) -> ResultOffer:
    """The Great War score a finished table game offers the campaign, with its reasons. `variants` (default the
    battle's) are the campaign's readings. Without a battle the sides are named attacker and defender."""
    _check_outcome(outcome)
    ctx = Firestorm().context(
        None, variants if variants is not None else (battle.variants if battle else None)
    )
    names, sides = _names(battle)
    enemy: dict[Role, Role] = {"attacker": "defender", "defender": "attacker"}
    vp: dict[Role, int] = {}
    reasons: list[str] = []
    for role in ROLES:
        foe = enemy[role]
        killed, of = getattr(outcome, f"{foe}_lost"), getattr(outcome, f"{foe}_bases")
        vp[role] = VP_SCALE * killed // of if of else 0
        pct = f" ({100 * killed // of}%)" if of else ""
        reasons.append(
            f"{_cap(names[role])} destroyed {killed} of the {of} enemy stands{pct}: {vp[role]} victory "
            f"points on the 0 to {VP_SCALE} scale of the Roll to Destroy table."
        )
    least = int(ctx.value("great-war-victory"))
    held = outcome.field_held_by
    if ctx.value("table-result-to-campaign-vp") == "field-and-losses" and held is not None:
        score = max(vp[held], least, vp[enemy[held]] + 1)
        if score != vp[held]:
            reasons.append(
                f"{_cap(names[held])} hold the field: at least {least} and one more than the other side, "
                f"so {score}."
            )
        else:
            reasons.append(f"{_cap(names[held])} hold the field and already score more.")
        vp[held] = score
    elif held is None:
        reasons.append("Who holds the field was not recorded: the losses alone decide.")
    else:
        reasons.append("Who holds the field does not count (erratum table-result-to-campaign-vp).")
    return _offered(ctx, vp["attacker"], vp["defender"], reasons, names, sides)


def offer_from_score(
    attacker_vp: int,
    defender_vp: int,
    battle: TableBattle | None = None,
    variants: Mapping[str, str] | None = None,
) -> ResultOffer:
    """The Great War score a finished table game offers the campaign under the reading table-score of erratum
    table-result-to-campaign-vp: the points each side's table game scored from the stands are its Victory
    Points."""
    for name, v in (("attacker_vp", attacker_vp), ("defender_vp", defender_vp)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= REQUEST_INT_LIMIT:
            raise RulesError(
                f"score.{name}", f"a whole number of victory points from 0 to {REQUEST_INT_LIMIT}"
            )
    ctx = Firestorm().context(
        None, variants if variants is not None else (battle.variants if battle else None)
    )
    names, sides = _names(battle)
    scored: tuple[tuple[Role, int], ...] = (("attacker", attacker_vp), ("defender", defender_vp))
    reasons = [
        f"{_cap(names[role])} scored {vp} victory points on the table (its objectives)."
        for role, vp in scored
    ]
    return _offered(ctx, attacker_vp, defender_vp, reasons, names, sides)


def offer_of_game(outcome: TableOutcome, points: tuple[int, int] | None, battle: TableBattle) -> ResultOffer:
    """What a finished table game offers the campaign, as the campaign reads it (erratum
    table-result-to-campaign-vp): the points the game scored (`points`, attacker and defender) under the reading
    table-score, else the losses and the field (offer_from_outcome)."""
    reading = Firestorm().context(None, battle.variants).value("table-result-to-campaign-vp")
    if reading == "table-score" and points is not None:
        return offer_from_score(*points, battle)
    return offer_from_outcome(outcome, battle)


def _names(battle: TableBattle | None) -> tuple[dict[Role, str], dict[Role, str]]:
    """How the reasons name each side, and the Firestorm side each role is ("attacker", "defender" without a
    battle)."""
    names: dict[Role, str] = {"attacker": "the attacker", "defender": "the defender"}
    sides: dict[Role, str] = {"attacker": "attacker", "defender": "defender"}
    if battle is not None:
        side_of: dict[Role, Side] = {"attacker": battle.attacker, "defender": other(battle.attacker)}
        sides = {r: s for r, s in side_of.items()}
        names = {r: f"{SIDE_NAMES[s]} ({r})" for r, s in side_of.items()}
    return names, sides


def _offered(
    ctx: Context,
    attacker_vp: int,
    defender_vp: int,
    reasons: list[str],
    names: Mapping[Role, str],
    sides: Mapping[Role, str],
) -> ResultOffer:
    """The offer of these scores: who wins the area ("If your opponent scored at least three Victory Points in
    the game and scored more Victory Points than you did, then you have been defeated") and what each side's
    score destroys on the Roll to Destroy table, with their rules."""
    enemy: dict[Role, Role] = {"attacker": "defender", "defender": "attacker"}
    least = int(ctx.value("great-war-victory"))
    a, d = min(attacker_vp, VP_LIMIT), min(defender_vp, VP_LIMIT)
    won = great_war_attacker_won(ctx, a, d)
    if won:
        winner = sides["attacker"]
        reasons.append(
            f"{a}-{d}: the attacker scored at least {least} and more than the defender, so wins the area."
        )
    elif a == d:
        winner = "draw"
        reasons.append(f"{a}-{d}: level scores; the campaign counts a tie as a defender victory.")
    else:
        winner = sides["defender"]
        reasons.append(
            f"{a}-{d}: the attacker did not score at least {least} and more than the defender: the defender wins."
        )
    scores: tuple[tuple[Role, int], ...] = (("attacker", a), ("defender", d))
    for role, score in scores:
        target = destroy_target_by_vp(score)
        foe_name = names[enemy[role]]
        reasons.append(
            f"Firestorm Troops of {foe_name} are destroyed on {_needed(target)}."
            if target is not None
            else f"Firestorm Troops of {foe_name} are not rolled for."
        )
    sources = (
        ctx.citation("table-result-to-campaign-vp"),
        SRC_ROLL_TO_DESTROY,
        SRC_DEFEATED,
        ctx.citation("great-war-victory"),
    )
    return ResultOffer(a, d, winner, tuple(reasons), tuple(dict.fromkeys(sources)), won)
