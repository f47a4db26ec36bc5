"""What the table says of a 2mm Earth 1418 shot: a sub-unit's bases (all of them, or those in base contact
with the enemy for melee), the ground under them by the book's terrain classes, its posture and cover, the
chart's range in cm and scale metres, the line of sight past terrain, smoke and gas, and the refusals that
keep a sub-unit from taking a target now. The readings the text leaves open are errata here."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import LineString, Point, Polygon

from rules.core.errors import Refusal, RulesError
from rules.core.records import Snapshot, UnitState
from rules.core.ruleset import Context, Erratum, Reading
from rules.earth2mm.data import (
    COVER,
    SCALE_M_PER_CM,
    SRC_ARMING,
    SRC_ASSAULT,
    SRC_COVER,
    SRC_ORDER,
    SRC_UNITS,
    TERRAINS,
    UNITS,
    Posture,
    Terrain,
)
from rules.earth2mm.play.fields import plan_anonymous
from rules.earth2mm.play.steps import STEPS
from rules.earth2mm.play.table import ROUGH_GROUND_KEY, terrain_class, with_rough_ground
from rules.earth2mm.play.units import bases_of, formation_of, quality_of, sub_unit_of
from rules.earth2mm.ruleset import Earth2mm, cite
from rules.earth2mm.sight import SRC_THROUGH_TERRAIN, Cloud, cloud_blocks
from rules.table.bases import BaseSpec, Stand
from rules.table.los import lines_of_sight
from rules.table.placed import stand_of
from rules.table.terrain import Feature, TerrainIndex, geojson_text, indexed, terrain_from_geojson

# Our bases' distances to theirs, edge to edge: a row a base of ours, a column a base of theirs (cm).
Gaps = NDArray[np.float64]
SRC_PLANNING = cite("PLANNING & EXECUTING")
MELEE_STEP = "melee"
# The kit's cordon kinds as the line-of-sight lookup names them (sight.Cloud).
SHORT_TERM_GAS = "short-term-gas"
CLOUD_OF: Mapping[str, Cloud] = {
    "smoke": "smoke",
    SHORT_TERM_GAS: "immediate-gas",
    "long-delayed-gas": "long-delayed-gas",
}
# Plans that move the sub-unit (every plan but staying put): "Sub-units choosing to find cover may move".
MOVING_PLANS = frozenset({"move", "find cover", "assault", "retreat"})
SIGHT_RULE = (
    "If one or more of the bases can draw a direct line from their base to the base of the enemy, they can "
    "shoot. If the marker cannot touch because of a slope or intervening terrain then the target cannot be hit, "
    "but the firer can always use overwatch"
)
CONTACT_RULE = (
    "Melee combat itself is worked out the same way as shooting, but count the number of bases in your "
    "sub-unit as only the number of bases in base-to-base contact with the enemy."
)
PLAN_RULE = (
    "the players will systematically plan moves/shoots for each unit based on their type and situation"
)
ALLOCATE_FIRST = "Casualties (from shooting and assault) are ALL removed as they happen."
SRC_CASUALTIES = cite("CASUALTIES & ENDING THE BOUND")
OWN_SIDE = (
    "Arming is the number of dice that a sub-unit rolls to try and beat their target's Resilience value."
)

Earth2mm.add_errata(
    Erratum(
        "moving-target",
        "When a target counts as 'Moving' on the cover table",
        (
            Reading(
                "planned-or-moved",
                "A sub-unit whose plan this bound moves it (move, find cover, assault, retreat), or that has "
                "moved this bound, is moving (unless still dug in and not yet moved): the plans are marked "
                "before anyone executes, and the shooting steps (1)-(5) come before the moving steps (6)-(8). "
                "Artillery plans 'Anon', unmarked: a battery is moving once it has moved.",
                f"{SRC_COVER}; {SRC_ORDER}",
                "planned",
            ),
            Reading(
                "moved-only",
                "Only a sub-unit that has already moved this bound is moving; until it moves it is stationary.",
                SRC_COVER,
                "moved",
            ),
        ),
        default="planned-or-moved",
        note="Read as 'moved', no shot of executing steps (1)-(5) would ever find a target moving.",
    ),
    Erratum(
        "cover-of-road-and-impractical",
        "The cover of a road and of impractical ground: the cover table names only four terrains",
        (
            Reading(
                "open",
                "'Open ... Rough ... Defensible ... Fortification': a road and impractical ground (marsh, a "
                "river) lend no cover and count as open.",
                SRC_COVER,
                {"road": "open", "impractical": "open"},
            ),
            Reading(
                "impractical-rough",
                "A road is open; impractical ground, broken enough to slow a move by 75%, counts as rough.",
                SRC_COVER,
                {"road": "open", "impractical": "rough"},
            ),
        ),
        default="open",
    ),
    Erratum(
        "split-ground",
        "The terrain of a sub-unit whose bases stand in two terrains and that is not moving",
        (
            Reading(
                "most-bases",
                "'A unit moving from one type of terrain into another counts as being in whatever the weaker "
                "type was': a moving sub-unit astride two terrains counts the weaker; one standing still "
                "counts where most of its bases stand (a tie: the weaker).",
                SRC_COVER,
                "most",
            ),
            Reading(
                "weaker", "Astride two terrains a sub-unit always counts the weaker.", SRC_COVER, "weaker"
            ),
        ),
        default="most-bases",
        note="'The sub-unit targeted will be made up of bases identical to each other, so Resilience should be "
        "easily established' (ARMING and RESILIENCE): the text does not expect a sub-unit astride two terrains.",
    ),
    Erratum(
        "as-sf-resilience",
        "The Resilience of a sub-unit whose chart row reads 'As S.F.'",
        (
            Reading(
                "quality-row",
                "'As S.F.': the strategic formation's own infantry row, by its quality: Reserve inf R3, "
                "Line/good inf R4, Elite (rare) inf R5.",
                SRC_UNITS,
                {"reserve": "reserve-inf", "line": "line-inf", "elite": "elite-inf"},
            ),
        ),
        default="quality-row",
    ),
    Erratum(
        "mounted-rifles-range",
        "The range '300/100' of Mounted rifles",
        (
            Reading(
                "first",
                "The first figure, 300 m, the range of their rifles (the chart's other rifles have 300).",
                SRC_UNITS,
                0,
            ),
            Reading("second", "The second figure, 100 m, as shooting from the saddle.", SRC_UNITS, 1),
        ),
        default="first",
        note="The chart gives two figures and says neither when each applies; no state says a sub-unit is "
        "mounted.",
    ),
    Erratum(
        "base-contact",
        "How near two bases are to be in 'base-to-base contact' on the map",
        (
            Reading(
                "half-centimetre",
                "Bases within 0.5 cm (5 scale metres) of each other touch: stands are placed by hand on the map.",
                SRC_ASSAULT,
                0.5,
            ),
            Reading("touching", "Only bases whose edges meet exactly are in contact.", SRC_ASSAULT, 0.0),
        ),
        default="half-centimetre",
    ),
)


# -- the sub-units and their bases on the table ------------------------------------------------------------
def company_of(snap: Snapshot, unit_id: int | None, field: str) -> UnitState:
    """The sub-unit a roll names, by itself or by one of its bases; a RulesError naming `field` otherwise."""
    if unit_id is None:
        raise RulesError(field, "pick a sub-unit or one of its bases")
    company = sub_unit_of(snap.unit(unit_id, field), snap.by_id)
    if company is None or company.kind not in UNITS:
        raise RulesError(field, "pick a sub-unit (a company) or one of its bases")
    return company


def stands(
    company: UnitState, snap: Snapshot, bases: Mapping[str, BaseSpec]
) -> list[tuple[UnitState, Stand]]:
    """A sub-unit's living bases placed on the table, each with its stand."""
    out = []
    for b in bases_of(company, snap):
        s = stand_of(b, bases)
        if s is not None:
            out.append((b, s))
    return out


def distances(ours: Sequence[tuple[UnitState, Stand]], theirs: Sequence[tuple[UnitState, Stand]]) -> Gaps:
    """Each of our bases' distance to each of theirs, edge to edge (a row a base of ours), in one pass."""
    mine = np.array([s.polygon() for _, s in ours], dtype=object)
    others = np.array([s.polygon() for _, s in theirs], dtype=object)
    return cast(Gaps, shapely.distance(mine[:, np.newaxis], others[np.newaxis, :]))


def in_contact(
    ours: Sequence[tuple[UnitState, Stand]],
    theirs: Sequence[tuple[UnitState, Stand]],
    ctx: Context,
    apart: Gaps | None = None,
) -> list[UnitState]:
    """Our bases in base-to-base contact with one of theirs (erratum base-contact). `apart`: their
    `distances`, where the caller has them."""
    reach = float(ctx.value("base-contact")) + 1e-9
    apart = distances(ours, theirs) if apart is None else apart
    touching = cast(list[bool], np.any(apart <= reach, axis=1).tolist())
    return [b for (b, _), touches in zip(ours, touching, strict=True) if touches]


def gap_cm(
    ours: Sequence[tuple[UnitState, Stand]],
    theirs: Sequence[tuple[UnitState, Stand]],
    apart: Gaps | None = None,
) -> float:
    """The range between two sub-units: their nearest bases, edge to edge. `apart`: their `distances`, where
    the caller has them."""
    apart = distances(ours, theirs) if apart is None else apart
    return float(apart.min())


def reach_m(kind: str, ctx: Context) -> int | None:
    """The chart's RANGE in scale metres (None: 'Infinite')."""
    text = UNITS[kind].range_m
    if text == "Infinite":
        return None
    figures = text.split("/")
    return int(figures[min(int(ctx.value("mounted-rifles-range")), len(figures) - 1)])


# -- the ground ---------------------------------------------------------------------------------------------
def terrain_index(terrain: Mapping[str, Any]) -> TerrainIndex:
    """A game's terrain (GeoJSON), kept per terrain (read-only once built)."""
    return indexed(terrain, None)


def ground_index(terrain: Mapping[str, Any], board: Mapping[str, Any]) -> TerrainIndex:
    """The ground under the stands: the game's terrain and the rough ground dugouts left in the open."""
    left = board.get(ROUGH_GROUND_KEY) or ()
    if not left:
        return terrain_index(terrain)
    return _ground_index(geojson_text(terrain), json.dumps(left, sort_keys=True, separators=(",", ":")))


@lru_cache(maxsize=16)
def _ground_index(geojson: str, left: str) -> TerrainIndex:
    ground = with_rough_ground(json.loads(geojson), {ROUGH_GROUND_KEY: json.loads(left)})
    return TerrainIndex.build(terrain_from_geojson(ground, wire_belt_cm=None))


def cover_terrain(stand: Stand, index: TerrainIndex, ctx: Context) -> Terrain:
    """The cover table's terrain a base stands in: the cover at its centre."""
    return cover_at(stand.center, index, ctx)


def cover_at(xy: tuple[float, float], index: TerrainIndex, ctx: Context) -> Terrain:
    """The cover table's terrain at a point: the best cover of the features under it, a road and impractical
    ground as erratum cover-of-road-and-impractical reads them; open where there is none."""
    return _best({cover_class(f, ctx) for f in index.intersecting(Point(xy))})


def covers_at(points: Sequence[tuple[float, float]], index: TerrainIndex, ctx: Context) -> list[Terrain]:
    """`cover_at` of each point, the points put to the terrain's index in one query (a sub-unit's bases)."""
    found: list[set[str]] = [set() for _ in points]
    if points and index.features:
        which, near = index.tree.query(shapely.points(points), predicate="intersects")
        for i, f in zip(which.tolist(), near.tolist(), strict=True):
            found[i].add(cover_class(index.features[f], ctx))
    return [_best(classes) for classes in found]


def _best(found: set[str]) -> Terrain:
    """The best cover among the cover table's terrains found (open where there is none)."""
    best: Terrain = max((t for t in TERRAINS if t in found), key=lambda t: COVER[t][1], default="open")
    return best


def cover_class(feature: Feature, ctx: Context) -> str:
    """The cover table's terrain a feature gives (erratum cover-of-road-and-impractical)."""
    as_cover: Mapping[str, str] = ctx.value("cover-of-road-and-impractical")
    c = terrain_class(feature)
    return as_cover.get(c, c)


def ground(
    placed: Sequence[tuple[UnitState, Stand]], snap: Snapshot, moving: bool, ctx: Context
) -> tuple[Terrain, Terrain | None, str]:
    """(terrain, the other terrain it is astride, in words) of a sub-unit: one terrain, else the weaker when it
    moves ('A unit moving from one type of terrain into another counts as being in whatever the weaker type
    was'), else as erratum split-ground reads it."""
    index = ground_index(snap.terrain, snap.board)
    under = covers_at([s.center for _, s in placed], index, ctx) or ["open"]
    kinds = sorted(set(under), key=lambda t: COVER[t][1])  # weakest first
    if len(kinds) == 1:
        return kinds[0], None, f"in {kinds[0]} ground"
    if moving or ctx.value("split-ground") == "weaker":
        return kinds[0], kinds[-1], f"astride {' and '.join(kinds)}: the weaker, {kinds[0]}"
    most = max(kinds, key=lambda t: (under.count(t), -COVER[t][1]))
    return most, None, f"most of its bases in {most} ground"


def posture(company: UnitState, ctx: Context) -> tuple[Posture, str]:
    """Moving, stationary, digging in or dug in, from the sub-unit's state (erratum moving-target)."""
    if company.digging_in:
        return "digging", "digging in this bound"
    if company.dug_in_bounds and not company.moved_this_bound:
        return "dug-in", f"dug in for {company.dug_in_bounds} bound(s)"
    if company.moved_this_bound:
        return "moving", "it has moved this bound"
    if (
        ctx.value("moving-target") == "planned"
        and company.sub_plan in MOVING_PLANS
        and not plan_anonymous(company)
    ):
        return "moving", f"its plan this bound is to {company.sub_plan}"
    return "stationary", "stationary this bound"


def built_in_resilience(company: UnitState, snap: Snapshot, ctx: Context) -> tuple[int, str, str]:
    """A sub-unit's own Resilience, with why and the rule: the chart's, or 'As S.F.' its SF quality's row."""
    unit = UNITS[company.kind]
    if unit.resilience is not None:
        return unit.resilience, f"{company.name} is {unit.name}: R{unit.resilience}", SRC_UNITS
    q = quality_of(company, snap.by_id)
    row = UNITS[ctx.value("as-sf-resilience")[q]]
    sf = formation_of(company, snap.by_id)
    whose = f"its SF {sf.name} is {q}" if sf is not None and sf.quality == q else f"it counts as {q}"
    r = row.resilience or 0
    return (
        r,
        f"{company.name} is {unit.name}, 'As S.F.': {whose}, {row.name} R{r}",
        ctx.citation("as-sf-resilience"),
    )


# -- smoke and gas on the board -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Cordon:
    """A smoke or gas cordon on the table, its kind as sight.Cloud names it."""

    polygon: Polygon
    kind: Cloud


def clouds(board: Mapping[str, Any]) -> list[Cordon]:
    """The smoke and gas cordons on the board (the kit's `cordons`), each as sight.Cloud names its kind."""
    out = []
    for c in board.get("cordons", ()):
        kind = "transparent-gas" if c.get("transparent") else CLOUD_OF.get(c.get("cloud", ""), "smoke")
        out.append(Cordon(Polygon(c["polygon"]), kind))
    return out


def gassed(placed: Sequence[tuple[UnitState, Stand]], board: Mapping[str, Any]) -> bool:
    """Whether a base of the sub-unit stands under short-term gas ('Target suffers -1A -1R')."""
    gas = [Polygon(c["polygon"]) for c in board.get("cordons", ()) if c.get("cloud") == SHORT_TERM_GAS]
    return any(s.polygon().intersects(g) for _, s in placed for g in gas)


def lines(
    ours: Sequence[tuple[UnitState, Stand]],
    theirs: Sequence[tuple[UnitState, Stand]],
    terrain: Mapping[str, Any],
    board: Mapping[str, Any],
    table: Measured | None = None,
    enough: int | None = None,
) -> tuple[int, str]:
    """How many of our bases draw a direct line to a base of theirs past slope, terrain, smoke and gas ('Troops
    partially in smoke can shoot out freely'; 'some gas is transparent'), with what stopped the others;
    counted up to `enough` bases (None: all of them). `table`: the request's measures, else made here."""
    index = table.index if table is not None else terrain_index(terrain)
    cordons = table.cordons if table is not None else clouds(board)
    seeing, stopped = 0, ""
    for _, s in ours:
        if enough is not None and seeing >= enough:
            break
        mine = s.polygon()
        for (_, t), sight in zip(theirs, lines_of_sight(s, [t for _, t in theirs], index), strict=True):
            if not sight.clear:
                stopped = f"{sight.blocked_by.kind if sight.blocked_by else 'a slope'} in the way"
                continue
            line = LineString([s.center, t.center])
            cloud = next(
                (
                    c
                    for c in cordons
                    if line.intersects(c.polygon) and cloud_blocks(c.kind, mine.intersects(c.polygon))
                ),
                None,
            )
            if cloud is not None:
                stopped = f"{cloud.kind.replace('-', ' ')} across the line"
                continue
            seeing += 1
            break
    return seeing, stopped


def melee_now(snap: Snapshot, given: Mapping[str, Any]) -> bool:
    """Whether a `shoot` roll is melee: as the player gives it, else in the bound's melee step ("Resolve melee
    using the m side of Arming m/r"); in the executing steps sub-units shoot, in contact or not."""
    if "melee" in given:
        return bool(given["melee"])
    return snap.step < len(STEPS) and STEPS[snap.step].id == MELEE_STEP


# -- one request's measures -----------------------------------------------------------------------------------
class Measured:
    """A snapshot's table as its shots measure it, each part worked out once for a request that measures many
    shots (the map marks every enemy sub-unit at once: issue 52): the terrain's index, the cordons, each
    sub-unit's placed bases (each stand keeps its outline)."""

    def __init__(self, snap: Snapshot, bases: Mapping[str, BaseSpec]) -> None:
        self.snap, self.bases = snap, bases
        self._stands: dict[int | None, list[tuple[UnitState, Stand]]] = {}
        # Each shot measured, by shooter, target, melee and `first`, with the two it was measured of.
        self.shots: dict[tuple[int | None, int | None, bool, bool], tuple[UnitState, UnitState, Shot]] = {}

    @classmethod
    def of(cls, snap: Snapshot, bases: Mapping[str, BaseSpec]) -> Measured:
        """The snapshot's measures, made once for it: a roll's refusal before it is rolled and its fill
        measure the same shot on the same table (half a 2mm shot's CPU was measuring it twice)."""
        kept = snap.measures.get(cls.__qualname__)
        if not isinstance(kept, Measured) or kept.bases is not bases:
            kept = snap.measures[cls.__qualname__] = cls(snap, bases)
        return kept

    @cached_property
    def index(self) -> TerrainIndex:
        return terrain_index(self.snap.terrain)

    @cached_property
    def cordons(self) -> list[Cordon]:
        return clouds(self.snap.board)

    def stands(self, company: UnitState) -> list[tuple[UnitState, Stand]]:
        if company.id not in self._stands:
            self._stands[company.id] = stands(company, self.snap, self.bases)
        return self._stands[company.id]


# -- the refusals ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shot:
    """A shot of one sub-unit at another as the table measures it: melee or not, the bases that count, the
    range, the bases with a line, and what the rules forbid of it (each with a few words for the map)."""

    melee: bool
    contact: tuple[UnitState, ...]
    range_cm: float | None
    seeing: int
    refusals: tuple[tuple[str, Refusal], ...]


def shot(
    snap: Snapshot,
    shooter: UnitState,
    target: UnitState,
    bases: Mapping[str, BaseSpec],
    ctx: Context,
    melee: bool,
    table: Measured | None = None,
    first: bool = False,
) -> Shot:
    """The shot `shooter` makes at `target`, in melee or not (melee_now). `table`: the request's measures (one
    made here by default); `first`: only the first refusal is wanted (the map's mark), so the lines of sight
    are drawn only while nothing else refuses the shot, and only until one base sees (`seeing` then counts
    at most 1)."""
    table = table if table is not None else Measured.of(snap, bases)
    key = (shooter.id, target.id, melee, first)
    kept = table.shots.get(key)
    if kept is not None and kept[0] is shooter and kept[1] is target:
        return kept[2]
    measured = _shot(snap, shooter, target, ctx, melee, table, first)
    table.shots[key] = (shooter, target, measured)
    return measured


def _shot(
    snap: Snapshot,
    shooter: UnitState,
    target: UnitState,
    ctx: Context,
    melee: bool,
    table: Measured,
    first: bool,
) -> Shot:
    """The shot as `shot` says, measured."""
    ours, theirs = table.stands(shooter), table.stands(target)
    apart = distances(ours, theirs) if ours and theirs else None
    contact = tuple(in_contact(ours, theirs, ctx, apart)) if apart is not None else ()
    name, tname = shooter.name, target.name
    out: list[tuple[str, Refusal]] = []
    if target.side == shooter.side:
        out.append(
            ("own side", Refusal(f"{tname} is on your side: pick an enemy sub-unit", OWN_SIDE, SRC_ARMING))
        )
    if not theirs:
        out.append(
            (
                "not on the table",
                Refusal(f"{tname} has no base on the table: pick another", OWN_SIDE, SRC_ARMING),
            )
        )
    waiting = target.state.get("hits_to_allocate", 0)
    if waiting:
        out.append(
            (
                "hits waiting",
                Refusal(
                    f"Allocate the {waiting} hit(s) waiting on {tname} first", ALLOCATE_FIRST, SRC_CASUALTIES
                ),
            )
        )
    span = gap_cm(ours, theirs, apart) if apart is not None else None
    seeing = 0
    if melee:
        if not contact:
            out.append(
                (
                    "not in contact",
                    Refusal(
                        f"No base of {name} touches {tname}: melee needs base contact",
                        CONTACT_RULE,
                        SRC_ASSAULT,
                    ),
                )
            )
        return Shot(melee, contact, span, len(contact), tuple(out))
    planned = shooter.assault_target if shooter.assault_target is not None else shooter.plan_target
    if planned is not None and planned != target.id:
        aim = snap.by_id.get(planned)
        aimed = aim.name if aim is not None else f"unit {planned}"
        out.append(
            (
                "not its planned target",
                Refusal(f"{name} planned to shoot at {aimed}: shoot at it", PLAN_RULE, SRC_PLANNING),
            )
        )
    if span is not None:
        reach = reach_m(shooter.kind, ctx)
        if reach is not None and span * SCALE_M_PER_CM > reach:
            metres = span * SCALE_M_PER_CM
            out.append(
                (
                    "out of range",
                    Refusal(
                        f"{tname} is {span:.1f} cm ({metres:.0f} m) away, beyond {name}'s {reach} m",
                        f"{UNITS[shooter.kind].name} RANGE {UNITS[shooter.kind].range_m} (scale metres; 1 cm = "
                        f"{SCALE_M_PER_CM} scale metres)",
                        SRC_UNITS,
                    ),
                )
            )
        if first and out:
            return Shot(melee, contact, span, seeing, tuple(out))
        seeing, stopped = lines(ours, theirs, snap.terrain, snap.board, table, 1 if first else None)
        if not seeing:
            out.append(
                (
                    "no line of sight",
                    Refusal(
                        f"No base of {name} can see {tname} ({stopped}): overwatch it",
                        SIGHT_RULE,
                        SRC_THROUGH_TERRAIN,
                    ),
                )
            )
    return Shot(melee, contact, span, seeing, tuple(out))


def refused(s: Shot) -> None:
    """Raise the first refusal of a shot as the roll's answer (a RulesError on its target)."""
    if s.refusals:
        _, r = s.refusals[0]
        raise RulesError("target_id", str(r), source=r.source, why=r.why)
