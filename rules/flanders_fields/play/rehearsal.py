"""Fire-plan rehearsal: what a side's plan will likely do to the enemy stands now on the table, turn by turn.

Every number comes from the game's own resolvers (shooting, artillery-action, sos, rolling-barrage,
gas-wind, deviation, firewaltz) evaluated over every face of their dice, and from the table geometry the
game uses (the templates of rules/table, coverage, the rolling barrage's advance, the gas cloud's drift).

How the plan acts, turn by turn (turn t is the plan side's half of game turn t):
- a rolling barrage already firing advances its own width (or holds on a halt turn) and rolls for every
  stand it passes over; it lifts after its planned duration; a new one rolls for the stands in its band;
- gas clouds already on the table move on one wind (2D6+10 cm in the planned direction the first time, then
  the Gas Movement table) and attack every stand they pass over, fully covered or partly (-2);
  new clouds attack the stands under them;
- a planned battery fires on its aiming point in each of its planned turns as often as its artillery-action
  roll lets it (erratum artillery-two-actions; one roll per battery or per brigade: artillery-roll-per),
  a bombardment where the playsheet rolls it in its own step once (planned-bombardment-order);
  a mortar's planned fire is taken as delivered; every stand fully under the 10 x 10 cm template is shot
  at, partly under at -2;
- an SOS call (defender only) brings one turn of fire on its 10 x 5 cm template when the sos roll succeeds;
- a Firewaltz item attacks once, in its arrival turn, every stand under an artillery template at its grid
  reference: super heavy artillery on a strong point, heavy on a trench line;
- unobserved off-table fire (batteries, SOS, Firewaltz) and gas deviate when they arrive (erratum
  planned-fire-deviation), by the appendix method, 12 o'clock ahead of the plan side's rear edge; a battery
  the plan names that stands on the table (`on_table`) is not off-table artillery and does not deviate.
A suppression by artillery or mortar fire suppresses the stand's whole company; three markers kill.

Exact: the stands of one company share their markers, so each company's markers are enumerated exactly
over every die, every action and delivery roll and every deviation; companies are independent for what one
stand can suffer. The wind's course cannot be enumerated (its speed and turns branch hundreds of ways each
turn): with gas on the table, `samples` wind courses (and the clouds' deviations) are drawn from `seed`,
the rest is still exact for each course, and the answer states the standard error of the mean over the
courses.

Not rehearsed (they do not put markers on enemy stands): deep suppression and air missions, the enemy's
recovery from suppression (it spends the enemy's own actions) and the enemy moving.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field, Strict
from shapely import Polygon

from rules.core.dice import all_rolls, count_rolls
from rules.core.errors import RulesError
from rules.core.game import PlanMark, RehearsalRequest
from rules.core.kit import Grid
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.table_sizes import TEMPLATES
from rules.flanders_fields.errata import (
    ARTILLERY_ROLL_PER,
    ARTILLERY_TWO_ACTIONS,
    FIREWALTZ_STRONG_POINT_COVER,
    PLANNED_BOMBARDMENT_ORDER,
    PLANNED_FIRE_DEVIATION,
)
from rules.flanders_fields.resolvers.artillery import (
    SOS,
    ArtilleryAction,
    ArtilleryActionRequest,
    PeriodStep,
    SOSRequest,
    action_thresholds,
)
from rules.flanders_fields.resolvers.barrage import (
    DANGER_ZONE_CM,
    ROLLING_BARRAGE_STEP,
    RollingBarrage,
    RollingBarrageRequest,
)
from rules.flanders_fields.resolvers.deviation import Deviation, DeviationRequest
from rules.flanders_fields.resolvers.firewaltz import FIREWALTZ_ARTILLERY, FIREWALTZ_STEP, default_cover
from rules.flanders_fields.resolvers.gas import (
    DENYING_MOVE_TURNS,
    OFFENSIVE_MAX_TURNS,
    GasWind,
    GasWindRequest,
    Wind,
)
from rules.flanders_fields.resolvers.shooting import FIRE_TYPE, Shooting, ShootingRequest
from rules.flanders_fields.resolvers.suppression import KILLING_MARKERS, spreads_to_company
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.table import barrage as table_barrage
from rules.table import gas as table_gas
from rules.table.bases import Stand
from rules.table.coverage import StandIndex
from rules.table.frame import AHEAD_DEG, Side, Table, deviate, grid_to_table
from rules.table.templates import Template

SRC_FIRE_PLANS = cite("ARTILLERY FIRE PLANS")
# "It advances its own width at the start of the attacking side's turn." (ROLLING BARRAGE)
BARRAGE_ADVANCE_CM = 20.0
MAX_TURNS = 20
MAX_SAMPLES = 2000
DEFAULT_SAMPLES = 400
# A company's markers are enumerated jointly. Its reachable states stay few (a company-wide suppression
# moves all its stands together) and the work budget bounds the rest; a company larger than this is refused.
MAX_GROUP_STANDS = 12
# A company with at most this many states has each turn worked out as one matrix (states x states).
DENSE_STATES = 128


def _matrix_work(n: int) -> int:
    """Work units of one product of n x n matrices (numpy's n^3 products take about as long as n^3 / 2000
    steps of the enumeration's own Python loops)."""
    return max(1, n**3 // 2000)


# Courses of the wind x turns x gas clouds one request may sample (each is a template laid on the table).
MAX_CLOUD_TURNS = 24_000
# Company states x die outcomes one request may work through (a few seconds of one core).
WORK_LIMIT = 1_500_000

BATTERY_KINDS = ("aiming-point", "bombardment", "superimposed")
FIRE_KINDS = (*BATTERY_KINDS, "mortar")
NOT_REHEARSED = {
    "deep-suppression": "deep suppression changes the enemy's order rolls, not markers on stands",
    "air-mission": "an air mission's target is chosen when it arrives (air-attack resolver)",
}
# Which firer a planned item fires as when the request names none: field guns for batteries, medium
# mortars for mortars.
DEFAULT_FIRER = {"aiming-point": "field-gun", "bombardment": "field-gun", "superimposed": "field-gun"}
DEFAULT_MORTAR = "medium-mortar"
PLAN_FIRERS = tuple(sorted(T.ARTILLERY_FIRERS | T.MORTAR_FIRERS))
ARTILLERY_KIND = {
    "field-gun": "field",
    "field-howitzer": "field",
    "heavy-artillery": "heavy",
    "super-heavy-artillery": "super-heavy",
}
# "When unobserved off table artillery or ANY artillery delivered gas attack arrives roll a deviation dice"
# (ARTILLERY AIMING POINT - DEVIATION): the planned items fired by off-table artillery. Mortars are on the
# table; gas deviates where its cloud arrives (gas_volleys).
DEVIATING_KINDS = (*BATTERY_KINDS, "sos", "firewaltz")
COVER_ORDER = ("open", "soft", "medium", "hard", "fortified")
# Where the playsheet has "4 BARRAGES AND BOMBARDMENTS DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS - ROLL
# EFFECTS", a planned bombardment may be rolled in that step without an order (erratum planned-bombardment-order).
BOMBARDMENT_STEP = PeriodStep(
    "Pre-planned bombardments",
    "barrages-and-bombardments",
    "the 1914 to mid 1915 playsheet has no barrages and bombardments step",
)


def fires_on_order(ctx: Any, kind: str) -> bool:
    """Whether a planned battery item fires on its battery's artillery action roll ("This point will be
    pre-registered and does not require an order to acquire it, only an order to fire", ARTILLERY FIRE PLANS)
    rather than being rolled as it arrives: a bombardment in a period whose playsheet deploys and rolls it in
    its own step is rolled there, by the reading in force. The rehearsal and the game's arrival cards alike."""
    if kind not in BATTERY_KINDS:
        return False
    if kind == "bombardment" and BOMBARDMENT_STEP.has(ctx.period):
        return bool(ctx.value(PLANNED_BOMBARDMENT_ORDER))
    return True


Effect = tuple[str, int]  # ("killed" | "suppressed" | "no-effect", markers)
Prob = float  # the enumeration runs in floating point: a deviation's 7,776ths make fractions far too long
Shots = tuple[tuple[str, dict[Effect, Any]], ...]


@dataclass(frozen=True)
class TargetStand:
    """An enemy stand as the rehearsal sees it. `stand` is None for a stand of the company that is not on
    the table (it still takes a company-wide suppression). `group` is its company (or itself)."""

    id: str
    name: str
    group: str
    stand: Stand | None
    cover: str = "open"
    is_command: bool = False
    armour: bool = False
    markers: int = 0


@dataclass(frozen=True)
class FireItem:
    id: str
    kind: str
    point: tuple[float, float]
    first_turn: int
    turns: int
    firer: str
    template: str
    battery: str = ""
    brigade: str = ""
    target: str = ""  # a Firewaltz's strong-point or trench-line
    on_table: bool = False  # fired by a battery standing on the table: not "off table artillery"


@dataclass(frozen=True)
class GasItem:
    id: str
    point: tuple[float, float]
    turn: int
    gas: str
    wind_deg: float


@dataclass(frozen=True)
class BarrageItem:
    id: str
    front_y: float
    turn: int
    duration_turns: int
    halts: tuple[int, ...]

    @property
    def depth_cm(self) -> float:
        """How deep the barrage's band is up the table (its template's)."""
        return TEMPLATES["rolling-barrage"].depth_cm


@dataclass(frozen=True)
class Plan:
    side: Side
    fire: tuple[FireItem, ...] = ()
    gas: tuple[GasItem, ...] = ()
    barrages: tuple[BarrageItem, ...] = ()
    skipped: tuple[dict[str, str], ...] = ()

    @property
    def last_turn(self) -> int:
        ends = [f.first_turn + f.turns - 1 for f in self.fire]
        ends += [b.turn + b.duration_turns - 1 for b in self.barrages]
        ends += [
            g.turn + (OFFENSIVE_MAX_TURNS if g.gas == "offensive" else DENYING_MOVE_TURNS) for g in self.gas
        ]
        return max(ends, default=0)


def _ahead(side: Side) -> float:
    return AHEAD_DEG[side]


def _check_ids(field_name: str, named: Iterable[str], known: set[str]) -> None:
    for unknown in sorted(set(named) - known):
        raise RulesError(f"{field_name}.{unknown}", "no item of the plan has this id", sorted(known))


def plan_from_items(
    side: Side,
    items: Iterable[Mapping[str, Any]],
    table: Table,
    firers: Mapping[str, str] | None = None,
    sos: Sequence[Mapping[str, Any]] = (),
    brigades: Mapping[str, str] | None = None,
    on_table: Iterable[str] = (),
) -> Plan:
    """A plan from fire-plan items ({"id", "kind", "arrival_turn", "data"} as the game stores them, grid
    references from the side's own rear edge) and SOS calls ({"grid", "turn"}). `firers` names the firer
    of an item by its id; otherwise batteries fire as field guns and mortars as medium mortars. `brigades`
    names the brigade of a battery item, for the reading where a brigade's batteries share one action roll;
    `on_table` the battery items fired by a battery standing on the table (they do not deviate)."""
    firers = dict(firers or {})
    from_table = set(on_table)
    brigades = dict(brigades or {})
    fire: list[FireItem] = []
    gas: list[GasItem] = []
    barrages: list[BarrageItem] = []
    skipped: list[dict[str, str]] = []
    known: set[str] = set()
    for it in items:
        item_id, kind, data = str(it["id"]), str(it["kind"]), dict(it.get("data") or {})
        known.add(item_id)
        turn = int(it["arrival_turn"])
        if kind in NOT_REHEARSED:
            skipped.append({"id": item_id, "kind": kind, "why": NOT_REHEARSED[kind]})
            continue
        if not 1 <= turn <= MAX_TURNS:
            skipped.append({"id": item_id, "kind": kind, "why": f"it arrives outside turns 1 to {MAX_TURNS}"})
            continue
        grid = data.get("grid")
        point = grid_to_table(side, float(grid[0]), float(grid[1]), table) if grid else None
        if kind in FIRE_KINDS and point is not None:
            firer = firers.get(item_id) or (DEFAULT_MORTAR if kind == "mortar" else DEFAULT_FIRER[kind])
            if firer not in PLAN_FIRERS:
                raise RulesError(
                    f"firers.{item_id}", f"{firer!r} does not fire a planned template", PLAN_FIRERS
                )
            template = firer if firer in T.MORTAR_FIRERS else "artillery"
            battery = str(data.get("battery") or "")
            fire.append(
                FireItem(
                    item_id,
                    kind,
                    point,
                    turn,
                    int(data.get("turns", 1)),
                    firer,
                    template,
                    battery,
                    brigades.get(item_id, ""),
                    on_table=kind in BATTERY_KINDS and item_id in from_table,
                )
            )
        elif kind == "firewaltz" and point is not None:
            if item_id in firers:
                raise RulesError(
                    f"firers.{item_id}", "a Firewaltz's artillery is the rule's, not the plan's", []
                )
            target = str(data.get("target", "trench-line"))
            if target not in FIREWALTZ_ARTILLERY:
                raise RulesError(
                    f"items.{item_id}.target", "not a Firewaltz target", list(FIREWALTZ_ARTILLERY)
                )
            # "Each Strong Point will be attacked once by Super Heavy Artillery, normal trench lines by Heavy."
            firer = FIREWALTZ_ARTILLERY[target]
            fire.append(FireItem(item_id, kind, point, turn, 1, firer, "artillery", target=target))
        elif kind == "gas" and point is not None:
            gas.append(
                GasItem(item_id, point, turn, str(data.get("gas", "offensive")), float(data["wind_deg"]))
            )
        elif kind == "rolling-barrage":
            front_y = grid_to_table(side, 0.0, float(data["start_up_cm"]), table)[1]
            halts = tuple(int(h) for h in data.get("halts", ()))
            barrages.append(BarrageItem(item_id, front_y, turn, int(data["duration_turns"]), halts))
        else:
            skipped.append({"id": item_id, "kind": kind, "why": "the item has no grid reference"})
    _check_ids("firers", firers, known)
    _check_ids("brigades", brigades, known)
    for n, call in enumerate(sos):
        if side != "defender":
            raise RulesError("sos", "SOS fire is called by the defender's field batteries", [])
        point = grid_to_table(side, float(call["grid"][0]), float(call["grid"][1]), table)
        fire.append(FireItem(f"sos-{n + 1}", "sos", point, int(call["turn"]), 1, "field-gun", "sos"))
    return Plan(side, tuple(fire), tuple(gas), tuple(barrages), tuple(skipped))


# -- what one roll does ----------------------------------------------------------------------------------------
def _effects(resolver: Any, req: Any, ctx: Any) -> dict[Effect, Fraction]:
    """The resolver's answer over every face of its dice, as (result, markers) -> probability."""
    resolver.check(req, ctx)
    sides = resolver.dice(req, ctx)
    total = count_rolls(sides)
    out: dict[Effect, Fraction] = {}
    for dice in all_rolls(sides):
        ev = resolver.evaluate(req, ctx, dice)
        key = ev.key if ev.key in ("killed", "suppressed") else "no-effect"
        markers = int(ev.details.get("suppression_markers", 1)) if key == "suppressed" else 0
        out[(key, markers)] = out.get((key, markers), Fraction(0)) + Fraction(1, total)
    return out


@functools.cache
def deviation_outcomes() -> tuple[tuple[Fraction, int, int], ...]:
    """(probability, clock hour, distance cm) of an aiming point's deviation, the deviation resolver's
    appendix method over all its dice; hour 0 and distance 0 is no deviation."""
    resolver, req = Deviation(), DeviationRequest(period="late")
    ctx = FlandersFields().context("late", {})
    sides = resolver.dice(req, ctx)
    total = count_rolls(sides)
    counts: dict[tuple[int, int], int] = {}
    for dice in all_rolls(sides):
        out = resolver.evaluate(req, ctx, dice).outcome
        key = (int(out["clock"]), int(out["distance_cm"])) if out["deviates"] else (0, 0)
        counts[key] = counts.get(key, 0) + 1
    return tuple((Fraction(n, total), hour, cm) for (hour, cm), n in sorted(counts.items()))


@functools.cache
def _deviation_floats() -> tuple[tuple[float, int, int], ...]:
    return tuple((float(p), hour, cm) for p, hour, cm in deviation_outcomes())


@dataclass
class Rules:
    """The resolvers with one context, their answers cached by request (many stands share a request)."""

    period: str
    variants: Mapping[str, str]
    ctx: Any = None
    cache: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ctx = FlandersFields().context(self.period, self.variants)

    def _req(self, model: Any, **fields: Any) -> Any:
        return model.model_validate({**fields, "period": self.period, "variants": dict(self.variants)})

    @functools.cached_property
    def most_fire(self) -> int:
        """Turns of fire one battery delivers in a turn at most (erratum artillery-two-actions)."""
        return int(self.ctx.value(ARTILLERY_TWO_ACTIONS))

    @functools.cached_property
    def brigade_rolls(self) -> bool:
        return bool(self.ctx.value(ARTILLERY_ROLL_PER) == "brigade")

    @functools.cached_property
    def deviation(self) -> bool:
        return bool(self.ctx.value(PLANNED_FIRE_DEVIATION))

    def deviation_applies(self, item: FireItem) -> bool:
        """Unobserved off-table artillery deviates when it arrives (mortars and batteries standing on the
        table do not)."""
        return (
            self.deviation
            and item.kind in DEVIATING_KINDS
            and item.firer in ARTILLERY_KIND
            and not item.on_table
        )

    def shot(self, firer: str, target: TargetStand, partial: bool, range_cm: float) -> dict[Effect, Fraction]:
        """The effects of one roll on the firing table (shared: callers do not change it)."""
        cover = ("open" if target.cover == "open" else "cover") if target.armour else target.cover
        key = ("shot", firer, cover, partial, target.is_command, target.armour, round(range_cm, 1))
        if key not in self.cache:
            # Planned fire is indirect; gas needs no sight either (the resolver knows both).
            req = self._req(
                ShootingRequest,
                firer=firer,
                target="armour" if target.armour else "troops",
                cover=cover,
                range_cm=min(max(range_cm, 0.0), 1000.0),
                indirect=True,
                partial_template=partial,
                target_is_command=target.is_command and not target.armour,
            )
            self.cache[key] = _effects(Shooting(), req, self.ctx)
        return self.cache[key]

    def barrage_roll(self, target: TargetStand) -> dict[Effect, Fraction]:
        key = ("barrage", target.cover)
        if key not in self.cache:
            req = self._req(RollingBarrageRequest, cover=target.cover)
            self.cache[key] = _effects(RollingBarrage(), req, self.ctx)
        return self.cache[key]

    def actions(self, item: FireItem) -> dict[int, Fraction]:
        """Actions (0, 1, 2) of the roll that lets planned fire arrive: the artillery-action roll of a
        battery ("only an order to fire"), the sos roll of an SOS call (one turn of fire); a mortar's fire,
        a Firewaltz and a bombardment rolled in its own step arrive as planned."""
        key = ("actions", item.kind, item.firer)
        if key not in self.cache:
            if item.kind == "sos":
                req = self._req(SOSRequest)
                SOS().check(req, self.ctx)
                p = SOS().probabilities(req, self.ctx).get("fire-arrives", Fraction(0))
                self.cache[key] = {0: 1 - p, 1: p}
            elif self.rolls_actions(item):
                req = self._req(ArtilleryActionRequest, artillery=ARTILLERY_KIND[item.firer])
                ArtilleryAction().check(req, self.ctx)
                probs = ArtilleryAction().probabilities(req, self.ctx)
                self.cache[key] = {
                    n: probs.get(k, Fraction(0)) for n, k in enumerate(("no-action", "1-action", "2-actions"))
                }
            else:
                self.cache[key] = {1: Fraction(1)}
        return self.cache[key]

    def rolls_actions(self, item: FireItem) -> bool:
        """A battery's fire comes from its artillery-action roll (and may come twice); a bombardment rolled in
        its own step fires once (fires_on_order)."""
        return fires_on_order(self.ctx, item.kind) and item.firer in ARTILLERY_KIND

    def wind(self, current: Wind | None, direction_deg: float, rng: random.Random) -> Wind:
        """One gas-wind roll with dice drawn from rng: the first from the planned direction, later ones on
        the Gas Movement table."""
        resolver = GasWind()
        key = ("wind-request", current, direction_deg)
        if key not in self.cache:  # one validated request per wind: the courses of the wind revisit them
            if current is None:
                req = self._req(GasWindRequest, direction_deg=direction_deg)
            else:
                req = self._req(GasWindRequest, wind=current.as_dict())
            self.cache[key] = (req, resolver.dice(req, self.ctx))
        req, sides = self.cache[key]
        dice = tuple(rng.randint(1, s) for s in sides)
        if (key, dice) not in self.cache:  # the same wind and dice blow the same way
            out = resolver.evaluate(req, self.ctx, dice).outcome
            self.cache[(key, dice)] = Wind(
                float(out["direction_deg"]), int(out["speed_cm"]), bool(out["dispersed"])
            )
        return self.cache[(key, dice)]

    def deviation_offset(self, side: Side, rng: random.Random) -> tuple[float, float]:
        """Where a gas cloud lands from its aiming point: one deviation drawn from rng (none when the
        reading says planned fire does not deviate)."""
        if not self.deviation:
            return 0.0, 0.0
        draw = rng.random()
        for p, hour, cm in _deviation_floats():
            draw -= p
            if draw < 0:
                return deviate(side, (0.0, 0.0), hour, cm) if cm else (0.0, 0.0)
        return 0.0, 0.0

    def gas_shot(self, target: TargetStand, partial: bool) -> dict[Effect, float]:
        """A gas attack's effects in floats (the sampled courses are averaged in floats)."""
        key = ("gas-float", target.cover, partial, target.is_command, target.armour)
        if key not in self.cache:
            self.cache[key] = {e: float(p) for e, p in self.shot("gas", target, partial, 0.0).items()}
        return self.cache[key]


# -- the schedule: which rolls each turn brings ------------------------------------------------------------------
@dataclass(frozen=True)
class Attack:
    """One turn of fire arriving: where it may land (the deviation's outcomes, summing to 1) and the roll
    each stand there takes, in order. `reach` is every stand any landing covers."""

    spreads: bool
    landings: tuple[tuple[Prob, Shots], ...]
    reach: frozenset[str]

    @classmethod
    def certain(cls, spreads: bool, shots: Shots) -> Attack:
        return cls(spreads, ((1.0, shots),), frozenset(i for i, _ in shots))


@dataclass(frozen=True)
class Volley:
    """What one roll (or none) brings in a turn: each branch (probability, its attacks in order); in the
    rest of the cases nothing arrives. `aimed` are the stands under the aiming points as planned."""

    source: str
    branches: tuple[tuple[Prob, tuple[Attack, ...]], ...]
    item: str = ""
    aimed: tuple[str, ...] = ()
    deviates: bool = False

    @functools.cached_property
    def reach(self) -> frozenset[str]:
        return frozenset().union(*(a.reach for _, attacks in self.branches for a in attacks))

    @property
    def chance(self) -> Prob:
        return sum(p for p, attacks in self.branches if attacks)

    @property
    def expected_attacks(self) -> Prob:
        return sum(p * len(attacks) for p, attacks in self.branches)


def _is_box(geoms: Any) -> Any:
    """Per polygon: is it an axis-aligned rectangle (four corners at its bounds, edges along the axes)?"""
    out = np.zeros(len(geoms), dtype=bool)
    fives = np.flatnonzero(
        (shapely.get_num_coordinates(geoms) == 5) & (shapely.get_num_interior_rings(geoms) == 0)
    )
    if len(fives):
        ring = shapely.get_coordinates(geoms[fives]).reshape(-1, 5, 2)
        lo, hi = ring.min(axis=1, keepdims=True), ring.max(axis=1, keepdims=True)
        at_corners = ((ring == lo) | (ring == hi)).all(axis=(1, 2)) & (lo < hi).all(axis=(1, 2))
        along_axes = ((np.diff(ring, axis=1) == 0).sum(axis=2) == 1).all(axis=1)
        out[fives] = at_corners & along_axes
    return out


def _covered_many(templates: Sequence[Polygon], index: StandIndex) -> list[list[tuple[str, bool]]]:
    """The stands each template covers, (id, partial) sorted, as coverage.classify (no tolerance) finds them,
    for many templates in one vectorised pass (every landing of every item, every area a gas cloud passes
    over): full when the template covers the base, partial when their interiors meet otherwise (touching is
    outside).

    Most pairs are settled by their bounds alone, exactly (comparisons of the same coordinates GEOS reads):
    bounds whose interiors do not meet keep the interiors apart; an axis-aligned rectangle covers a base
    just when it covers the base's bounds; two such rectangles whose bounds' interiors meet overlap. GEOS
    answers only the rest (a turned or round base partly under a template, a gas cloud's slanting drift)."""
    out: list[list[tuple[str, bool]]] = [[] for _ in templates]
    if not templates or not index.stands:
        return out
    geoms = np.array(templates, dtype=object)
    t_idx, s_idx = index.tree.query(geoms)  # bounds that meet
    a, b = shapely.bounds(geoms)[t_idx], shapely.bounds(index.polys)[s_idx]  # (xmin, ymin, xmax, ymax)
    meets = (b[:, 0] < a[:, 2]) & (b[:, 2] > a[:, 0]) & (b[:, 1] < a[:, 3]) & (b[:, 3] > a[:, 1])
    t_box, s_box = _is_box(geoms)[t_idx], _is_box(index.polys)[s_idx]
    full = t_box & meets & (b[:, :2] >= a[:, :2]).all(axis=1) & (b[:, 2:] <= a[:, 2:]).all(axis=1)
    asked = meets & ~full & ~(t_box & s_box)
    if asked.any():
        ta, sb = geoms[t_idx[asked]], index.polys[s_idx[asked]]
        meets[asked] = ~shapely.touches(ta, sb) & shapely.intersects(ta, sb)
        full[asked] = meets[asked] & shapely.covers(ta, sb)
    ids = index.ids.tolist()
    for t, s, f in zip(t_idx[meets].tolist(), s_idx[meets].tolist(), full[meets].tolist(), strict=True):
        out[t].append((str(ids[s]), not f))
    return [sorted(c) for c in out]


def range_from_rear(side: Side, stand: Stand, table: Table) -> float:
    """The range of planned off-table fire at a stand: its distance up the table from `side`'s rear edge,
    where the guns fire from (the rehearsal and the game's arrival cards alike)."""
    y = stand.center[1]
    return y if side == "attacker" else table.length_cm - y


def _item_attack(
    f: FireItem,
    plan: Plan,
    targets: Mapping[str, TargetStand],
    index: StandIndex,
    rules: Rules,
    table: Table,
    covered: Sequence[tuple[Fraction, list[tuple[str, bool]]]],
) -> Attack:
    """One turn of fire of a planned item over its landings (`covered`: probability, stands covered)."""
    stands = {s.id: s for s in index.stands}

    def target_of(i: str) -> TargetStand:
        t = targets[i]
        if f.kind != "firewaltz":
            return t
        # The item names its place a trench line or a strong point: a stand there is at least in the cover
        # the Firewaltz gives that target, or in its own if stronger (a trench in a wood, in a village).
        floor = default_cover(f.target, rules.ctx)
        return replace(t, cover=max(t.cover, floor, key=COVER_ORDER.index))

    merged: dict[tuple[tuple[str, bool], ...], Prob] = {}
    for p, landing in covered:
        merged[tuple(landing)] = merged.get(tuple(landing), 0.0) + float(p)
    shots: dict[tuple[str, bool], dict[Effect, Fraction]] = {}
    for cov in merged:
        for i, partial in cov:
            if (i, partial) not in shots:
                rng = range_from_rear(plan.side, stands[i], table)
                shots[(i, partial)] = rules.shot(f.firer, target_of(i), partial, rng)
    landings = tuple((p, tuple((i, shots[(i, partial)]) for i, partial in cov)) for cov, p in merged.items())
    reach = frozenset(i for cov in merged for i, _ in cov)
    return Attack(spreads_to_company(FIRE_TYPE[f.firer]), landings, reach)


def _fire_attacks(
    plan: Plan, targets: Mapping[str, TargetStand], index: StandIndex, rules: Rules, table: Table
) -> dict[str, tuple[Attack, tuple[str, ...]]]:
    """Per planned fire item: its turn of fire (over every landing of its deviation) and the stands under
    its aiming point as planned. The templates of every landing are classified in one pass."""
    outcomes = deviation_outcomes()
    templates: list[Polygon] = []
    spans: list[tuple[FireItem, int, list[Fraction]]] = []
    for f in plan.fire:
        if rules.deviation_applies(f):
            # The game's template at each landing: the same rotated corners plus the deviated centre, added
            # in the order Template.polygon adds them (a base on a template's edge stays on the same side).
            ring = shapely.get_coordinates(
                Template(TEMPLATES[f.template], (0.0, 0.0), _ahead(plan.side)).polygon(table)
            )
            centres = np.array(
                [deviate(plan.side, f.point, hour, cm) if cm else f.point for _, hour, cm in outcomes]
            )
            polys = list(shapely.polygons(ring[None, :, :] + centres[:, None, :]))
            probs: list[Fraction] = [p for p, _, _ in outcomes]
        else:
            polys, probs = (
                [Template(TEMPLATES[f.template], f.point, _ahead(plan.side)).polygon(table)],
                [Fraction(1)],
            )
        spans.append((f, len(templates), probs))
        templates.extend(polys)
    covered = _covered_many(templates, index)
    out: dict[str, tuple[Attack, tuple[str, ...]]] = {}
    for f, start, probs in spans:
        cov = covered[start : start + len(probs)]
        aimed_at = next(n for n, (_, hour, cm) in enumerate(outcomes) if not cm) if len(probs) > 1 else 0
        attack = _item_attack(f, plan, targets, index, rules, table, list(zip(probs, cov, strict=True)))
        out[f.id] = (attack, tuple(i for i, _ in cov[aimed_at]))
    return out


def _describe_item(f: FireItem) -> str:
    if f.kind == "sos":
        name = f"SOS call {f.id.removeprefix('sos-')}"
    elif f.kind == "firewaltz":
        name = f"Firewaltz on a {f.target.replace('-', ' ')}"
    else:
        name = f.kind.replace("-", " ")
    battery = f", battery {f.battery}" if f.battery else ""
    return f"{name}{battery} ({f.firer.replace('-', ' ')})"


def _shared_roll(
    items: Sequence[FireItem], attacks: Mapping[str, tuple[Attack, tuple[str, ...]]], rules: Rules
) -> tuple[tuple[Prob, tuple[Attack, ...]], ...]:
    """The branches of one action roll shared by `items` (one battery, or a brigade's batteries firing this
    turn, in plan order): each action fires the next battery, round the brigade again while a battery may
    fire more than once (artillery-two-actions)."""
    dist = rules.actions(items[0])
    cap = rules.most_fire if rules.rolls_actions(items[0]) else 1
    branches = []
    for n, p in sorted(dist.items()):
        fired = [f for _ in range(cap) for f in items][:n]
        if p:
            branches.append((float(p), tuple(attacks[f.id][0] for f in fired)))
    return tuple(branches)


def fixed_volleys(
    plan: Plan, targets: Mapping[str, TargetStand], index: StandIndex, rules: Rules, table: Table, turns: int
) -> list[list[Volley]]:
    """Turn by turn (index 0 is turn 1), the volleys that do not depend on the wind: planned batteries,
    mortars, SOS calls and Firewaltz attacks, and rolling barrages."""
    out: list[list[Volley]] = [[] for _ in range(turns)]
    sign = 1.0 if plan.side == "attacker" else -1.0
    for b in plan.barrages:
        ROLLING_BARRAGE_STEP.require_period(rules.ctx)
        centre = (
            table.width_cm / 2,
            b.front_y + sign * TEMPLATES["rolling-barrage"].depth_cm / 2,
        )
        template = Template(TEMPLATES["rolling-barrage"], centre, _ahead(plan.side))
        for fired in range(1, min(b.duration_turns, turns - b.turn + 1) + 1):
            t = b.turn + fired - 1
            moving = fired > 1 and t not in b.halts
            adv = table_barrage.advance(
                template, BARRAGE_ADVANCE_CM if moving else 0.0, index, DANGER_ZONE_CM, table
            )
            template = adv.moved
            passed = sorted({*adv.passed_over.full, *adv.passed_over.partial})
            shots = tuple((i, rules.barrage_roll(targets[i])) for i in passed if not targets[i].armour)
            what = "holds" if fired > 1 and not moving else "advances" if moving else "opens"
            attack = Attack.certain(True, shots)
            out[t - 1].append(Volley(f"rolling barrage {what}", ((1.0, (attack,)),), b.id, tuple(passed)))
    if any(f.kind == "firewaltz" for f in plan.fire):
        FIREWALTZ_STEP.require_period(rules.ctx)
    attacks = _fire_attacks(plan, targets, index, rules, table)
    rolled: dict[tuple[str, ...], tuple[tuple[Prob, tuple[Attack, ...]], ...]] = {}
    for t in range(1, turns + 1):
        firing = [f for f in plan.fire if f.first_turn <= t < f.first_turn + f.turns]
        rolls: dict[str, list[FireItem]] = {}
        for f in firing:
            shared = rules.brigade_rolls and f.brigade and rules.rolls_actions(f)
            rolls.setdefault(f"brigade {f.brigade}" if shared else f"item {f.id}", []).append(f)
        for key, items in rolls.items():
            what = "; ".join(_describe_item(f) for f in items)
            if key.startswith("brigade"):
                what = f"{key}: {what}"
            out[t - 1].append(
                Volley(
                    what,
                    rolled.setdefault(tuple(f.id for f in items), _shared_roll(items, attacks, rules)),
                    ",".join(f.id for f in items),
                    tuple(sorted({i for f in items for i in attacks[f.id][1]})),
                    any(rules.deviation_applies(f) for f in items),
                )
            )
    return out


def index_stand(index: StandIndex, stand_id: str) -> Stand:
    return next(s for s in index.stands if s.id == stand_id)


GasArea = tuple[str, float, float, float, float]  # (cloud, offset before, wind direction, speed); -1: arrives


def gas_courses(
    plan: Plan,
    targets: Mapping[str, TargetStand],
    index: StandIndex,
    rules: Rules,
    turns: int,
    rng: random.Random,
    samples: int,
) -> list[list[list[Volley]]]:
    """`samples` courses of the wind (and each cloud's deviation where it arrives), drawn from rng one after
    the other, and the gas attacks each brings turn by turn. The courses are drawn first and the areas the
    clouds pass over classified afterwards, all in one vectorised pass: the draws need no geometry."""
    spreads = spreads_to_company(FIRE_TYPE["gas"])
    courses = [_gas_course(plan, rules, turns, rng) for _ in range(samples)]
    areas = sorted({area for course in courses for turn in course for _, _, area in turn})
    covered = dict(zip(areas, _gas_covered(plan, areas, index), strict=True))
    # Areas that cover the same stands alike bring the same volley: one object, which the companies' views
    # and answers are kept by.
    volleys: dict[tuple[str, str, tuple[tuple[str, bool], ...]], Volley] = {}

    def volley(cloud_id: str, what: str, area: GasArea) -> Volley:
        key = (cloud_id, what, tuple(covered[area]))
        if key not in volleys:
            shots = tuple((i, rules.gas_shot(targets[i], p)) for i, p in key[2])
            branches = ((1.0, (Attack.certain(spreads, shots),)),)
            volleys[key] = Volley(f"gas cloud {what}", branches, cloud_id, deviates=rules.deviation)
        return volleys[key]

    return [[[volley(*drift) for drift in turn] for turn in course] for course in courses]


class _Cloud(TypedDict):
    """A cloud on its course: its id, gas, how many turns it has moved, and how far it is from where it
    started."""

    id: str
    gas: str
    moves: int
    dx: float
    dy: float


def _gas_course(
    plan: Plan, rules: Rules, turns: int, rng: random.Random
) -> list[list[tuple[str, str, GasArea]]]:
    """One course of the wind drawn from rng: per turn, each cloud's (id, "arrives" or "drifts", the area
    it passes over)."""
    out: list[list[tuple[str, str, GasArea]]] = [[] for _ in range(turns)]
    clouds: list[_Cloud] = []
    wind: Wind | None = None
    first_direction = min(plan.gas, key=lambda g: (g.turn, g.id)).wind_deg
    for t in range(1, turns + 1):
        if clouds:
            wind = rules.wind(wind, first_direction, rng)
            kept: list[_Cloud] = []
            for c in clouds:
                offensive = c["gas"] == "offensive"
                if offensive and wind.dispersed:
                    continue
                moving = offensive or c["moves"] < DENYING_MOVE_TURNS
                speed = float(wind.speed_cm) if moving else 0.0
                out[t - 1].append((c["id"], "drifts", (c["id"], c["dx"], c["dy"], wind.direction_deg, speed)))
                ox, oy = table_gas.offset(wind.direction_deg, speed)
                # Rounded: positions are sums of moves, which the courses repeat (and share their areas).
                dx, dy = round(c["dx"] + ox, 6), round(c["dy"] + oy, 6)
                c = {**c, "dx": dx, "dy": dy, "moves": c["moves"] + (1 if moving else 0)}
                if not (offensive and c["moves"] >= OFFENSIVE_MAX_TURNS):
                    kept.append(c)
            clouds = kept
        for g in plan.gas:
            if g.turn == t:
                # "ANY artillery delivered gas attack arrives" deviated: the cloud starts where it lands.
                dx, dy = (round(v, 6) for v in rules.deviation_offset(plan.side, rng))
                out[t - 1].append((g.id, "arrives", (g.id, dx, dy, -1.0, -1.0)))
                clouds.append({"id": g.id, "gas": g.gas, "moves": 0, "dx": dx, "dy": dy})
    return out


def _gas_covered(plan: Plan, areas: Sequence[GasArea], index: StandIndex) -> list[list[tuple[str, bool]]]:
    """The stands each area covers: where a cloud arrives, or the hull of its start and end as it drifts
    (table_gas.drift, vectorised: the same translations and GEOS operations)."""
    kind = "gas-attacker" if plan.side == "attacker" else "gas-defender"
    rings = {
        g.id: shapely.get_coordinates(Template(TEMPLATES[kind], g.point, _ahead(plan.side)).polygon())
        for g in plan.gas
    }
    if not areas:
        return []
    # Every cloud of a plan is the side's one gas template: their rings have as many corners.
    start_rings = np.stack([rings[cloud] + np.array([dx, dy]) for cloud, dx, dy, _, _ in areas])
    moves = np.array([table_gas.offset(deg, speed) if speed >= 0 else (0.0, 0.0) for *_, deg, speed in areas])
    starts = shapely.polygons(start_rings)
    moved = shapely.polygons(start_rings + moves[:, None, :])
    swept = shapely.convex_hull(shapely.union(starts, moved))
    arrives = np.array([speed < 0 for *_, speed in areas])
    is_polygon = shapely.get_type_id(swept) == shapely.GeometryType.POLYGON
    return _covered_many(list(np.where(arrives, starts, np.where(is_polygon, swept, moved))), index)


# -- a company's markers, exactly ---------------------------------------------------------------------------------
State = tuple[int, ...]  # markers per stand of the company; KILLING_MARKERS means destroyed
# An attack as one company sees it: its landings that reach the company (probability, (stand position,
# effects) in order), the chance it misses the company, and whether a suppression spreads.
# Each landing: (probability, its shots, their signature: (stand position, id of the effects) per shot).
Landing = tuple[Prob, tuple[tuple[int, dict[Effect, Any]], ...], tuple[tuple[int, int], ...]]
Mine = tuple[tuple[Landing, ...], Prob, bool]


@functools.lru_cache(maxsize=65_536)
def _apply(state: State, pos: int, effect: Effect, spreads: bool) -> State:
    result, markers = effect
    if state[pos] >= KILLING_MARKERS or result == "no-effect":
        return state
    s = list(state)
    if result == "killed":
        s[pos] = KILLING_MARKERS
    elif spreads:
        s = [m if m >= KILLING_MARKERS else min(KILLING_MARKERS, m + markers) for m in s]
    else:
        s[pos] = min(KILLING_MARKERS, s[pos] + markers)
    return tuple(s)


@dataclass
class Budget:
    """The work one rehearsal may do (a company state times a die outcome is one unit): beyond it the request
    is refused, naming what to ask for less of, rather than keeping the server busy."""

    limit: int = WORK_LIMIT
    spent: int = 0

    def spend(self, units: int) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise RulesError(
                "samples",
                "ask for fewer turns, or fewer samples with gas: this is too much to work out at once",
                [1, MAX_SAMPLES],
                why="this rehearsal is too much to work out at once: ask for fewer turns, or fewer courses of the "
                "wind (samples) when the plan has gas",
            )


@dataclass
class _Views:
    """Each attack as every company sees it: per company its landings that reach it (landings that do the
    same to the company merged) and the chance none does. Worked out in one pass over the attack's landings
    (a deviating turn of fire reaches many companies) and kept for the rehearsal (an item's attack repeats
    every turn, and in every course of the wind)."""

    where: dict[str, tuple[str, int]]  # stand -> (its company, its position in the company)
    by_attack: dict[int, tuple[Attack, dict[str, Mine]]] = field(default_factory=dict)
    floats: dict[int, tuple[dict[Effect, Any], tuple[tuple[Effect, float], ...]]] = field(
        default_factory=dict
    )
    # (company, its first state, the shots its volleys bring) -> its dense states and matrices, or None.
    closures: dict[Any, Any] = field(default_factory=dict)

    def faces(self, effects: dict[Effect, Any]) -> tuple[tuple[Effect, float], ...]:
        """A roll's effects in floats, converted once (kept with the effects: its id stays its own)."""
        if id(effects) not in self.floats:
            self.floats[id(effects)] = (effects, tuple((e, float(x)) for e, x in effects.items()))
        return self.floats[id(effects)][1]

    @classmethod
    def of_groups(cls, groups: Mapping[str, Sequence[TargetStand]]) -> _Views:
        return cls({s.id: (g, pos) for g, stands in groups.items() for pos, s in enumerate(stands)})

    def mine(self, attack: Attack, company: str) -> Mine | None:
        if id(attack) not in self.by_attack:  # the attack is kept with its views: its id stays its own
            self.by_attack[id(attack)] = (attack, self._split(attack))
        return self.by_attack[id(attack)][1].get(company)

    def _split(self, attack: Attack) -> dict[str, Mine]:
        merged: dict[str, dict[tuple[tuple[int, int], ...], Landing]] = {}
        hit: dict[str, Prob] = {}
        for p, shots in attack.landings:
            per: dict[str, list[tuple[int, dict[Effect, Any]]]] = {}
            for i, eff in shots:
                g, pos = self.where[i]
                per.setdefault(g, []).append((pos, eff))
            for g, listed in per.items():
                mine = tuple(listed)
                sig = tuple([(pos, id(eff)) for pos, eff in mine])
                landings = merged.setdefault(g, {})
                landings[sig] = (landings[sig][0] + p, mine, sig) if sig in landings else (p, mine, sig)
                hit[g] = hit.get(g, 0.0) + p
        total = sum(p for p, _ in attack.landings)
        return {g: (tuple(m.values()), max(total - hit[g], 0.0), attack.spreads) for g, m in merged.items()}


@dataclass
class _Kernel:
    """One attack's transitions between a company's states, as arrays over the states seen so far."""

    built: int = 0
    rows: list[int] = field(default_factory=list)
    cols: list[int] = field(default_factory=list)
    vals: list[float] = field(default_factory=list)
    arrays: tuple[Any, Any, Any] | None = None


@dataclass
class _Company:
    """A company's states numbered (all up front when they are few: `prepare`, else as they are reached); a
    distribution is an array over them. What an attack does from each state is worked out once: an item
    fires on the same place turn after turn, and the company's states recur."""

    stands: Sequence[TargetStand]
    budget: Budget
    views: _Views
    members: dict[str, int] = field(default_factory=dict)
    states: list[State] = field(default_factory=list)
    number: dict[State, int] = field(default_factory=dict)
    kernels: dict[int, _Kernel] = field(default_factory=dict)
    # (the shots of a landing, as (stand, id of its effects), state) -> states after them: the landings of
    # different items and turns that hit the same stands alike are worked out once.
    landed: dict[tuple[tuple[tuple[int, int], ...], State], dict[State, float]] = field(default_factory=dict)
    floats: dict[int, tuple[tuple[Effect, float], ...]] = field(default_factory=dict)
    matrices: dict[Any, Any] = field(default_factory=dict)
    seen: dict[int, Any] = field(default_factory=dict)
    # Dense: every state the company's shots can reach is numbered up front (few), and each attack is one
    # matrix over them, built from one matrix per shot (numpy, not a Python loop per state and landing).
    dense: bool = False
    shot_matrices: dict[tuple[int, int, bool], Any] = field(default_factory=dict)
    landing_matrices: dict[tuple[bool, tuple[tuple[int, int], ...]], Any] = field(default_factory=dict)
    mine_arrays: dict[int, tuple[Any, Any, Any]] = field(default_factory=dict)  # by id of the kept Mine
    markers: Any = None  # the first states' markers, as an array

    def __post_init__(self) -> None:
        self.members = {s.id: n for n, s in enumerate(self.stands)}
        self.index_of(tuple(min(s.markers, KILLING_MARKERS) for s in self.stands))

    def index_of(self, state: State) -> int:
        if state not in self.number:
            self.number[state] = len(self.states)
            self.states.append(state)
        return self.number[state]

    def sized(self, dist: Any) -> Any:
        if len(dist) == len(self.states):
            return dist
        out = np.zeros(len(self.states))
        out[: len(dist)] = dist
        return out

    def landing(
        self,
        state: State,
        shots: tuple[tuple[int, dict[Effect, Any]], ...],
        sig: tuple[tuple[int, int], ...],
        spreads: bool,
    ) -> dict[State, float]:
        """The company's states after the shots of one landing, in order, from `state`."""
        key = (sig, state)
        if key not in self.landed:
            before = {state: 1.0} if len(shots) == 1 else self.landing(state, shots[:-1], sig[:-1], spreads)
            pos, effects = shots[-1]
            if id(effects) not in self.floats:
                self.floats[id(effects)] = tuple((e, float(x)) for e, x in effects.items())
            faces = self.floats[id(effects)]
            self.budget.spend(len(before) * len(faces))
            out: dict[State, float] = {}
            for s, q in before.items():
                if s[pos] >= KILLING_MARKERS:  # a destroyed stand is not shot at
                    out[s] = out.get(s, 0.0) + q
                    continue
                for eff, pe in faces:
                    s2 = _apply(s, pos, eff, spreads)
                    out[s2] = out.get(s2, 0.0) + q * pe
            self.landed[key] = out
        return self.landed[key]

    def kernel(self, state: State, mine: Mine) -> dict[State, float]:
        """Where one turn of fire takes the company from `state`, over every landing of its deviation."""
        landings, miss, spreads = mine
        out: dict[State, float] = {state: miss} if miss else {}
        for p, shots, sig in landings:
            for s, q in self.landing(state, shots, sig, spreads).items():
                out[s] = out.get(s, 0.0) + p * q
        return out

    def extend(self, mine: Mine, states: int) -> Any:
        """The attack's transitions from the first `states` states, as (rows, cols, probabilities)."""
        if self.dense:
            if id(mine) not in self.mine_arrays:
                m = self.mine_matrix(mine)
                rows, cols = np.nonzero(m)
                self.mine_arrays[id(mine)] = (rows, cols, m[rows, cols])
            return self.mine_arrays[id(mine)]
        k = self.kernels.setdefault(id(mine), _Kernel())
        if k.built < states:
            for i in range(k.built, states):
                for s2, r in self.kernel(self.states[i], mine).items():
                    k.rows.append(i)
                    k.cols.append(self.index_of(s2))
                    k.vals.append(r)
            k.built, k.arrays = states, None
        if k.arrays is None:
            k.arrays = (np.array(k.rows, dtype=np.intp), np.array(k.cols, dtype=np.intp), np.array(k.vals))
        return k.arrays

    def prepare(self, volleys: Iterable[Volley]) -> None:
        """Go dense when every state the shots of these volleys can reach, in any order and number, is at
        most DENSE_STATES (a superset of the states the plan reaches: the extra ones keep probability 0)."""
        mines = {id(m): m for v in volleys for _, ms in self.reaching(v)[1] for m in ms}
        shots: dict[tuple[int, int, bool], tuple[tuple[Effect, float], ...]] = {}
        for landings, _, spreads in mines.values():
            for _, mine, _ in landings:
                for pos, effects in mine:
                    if (pos, id(effects), spreads) not in shots:
                        shots[(pos, id(effects), spreads)] = self.views.faces(effects)
        # Runs of one company (one per course of the wind that passes over it differently) mostly bring the
        # same shots: their states and matrices are worked out once.
        key = (self.stands[0].group, self.states[0], tuple(sorted(shots)))
        if key not in self.views.closures:
            self.views.closures[key] = self._closure(shots)
        known = self.views.closures[key]
        if known is not None:
            states, self.shot_matrices, self.landing_matrices, self.mine_arrays = known
            self.states, self.number = list(states), {state: n for n, state in enumerate(states)}
            self.dense = True

    def _closure(self, shots: Mapping[tuple[int, int, bool], tuple[tuple[Effect, float], ...]]) -> Any:
        """Every state the shots reach from the company's first, each shot as a matrix over them, and room
        for the landings' and attacks' matrices (the runs share them); None past DENSE_STATES."""
        states, number = list(self.states), dict(self.number)
        moves: dict[tuple[int, int, bool], list[tuple[int, int, float]]] = {key: [] for key in shots}
        todo = list(range(len(states)))
        while todo:  # every state any shot reaches, and each shot's moves from each state
            i = todo.pop()
            state = states[i]
            for key, faces in shots.items():
                pos, _, spreads = key
                if state[pos] >= KILLING_MARKERS:  # a destroyed stand is not shot at
                    moves[key].append((i, i, 1.0))
                    continue
                for eff, pe in faces:
                    after = _apply(state, pos, eff, spreads)
                    if after not in number:
                        if (
                            len(states) >= DENSE_STATES
                        ):  # too many: the sparse path numbers only those reached
                            return None
                        number[after] = len(states)
                        states.append(after)
                        todo.append(number[after])
                    moves[key].append((i, number[after], pe))
        n = len(states)
        self.budget.spend(n * max(1, len(shots)))
        matrices = {}
        for key, listed in moves.items():
            rows, cols, vals = zip(*listed, strict=True) if listed else ((), (), ())
            m = np.zeros((n, n))
            np.add.at(m, (np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp)), vals)
            matrices[key] = m
        return states, matrices, {}, {}

    def mine_matrix(self, mine: Mine) -> Any:
        """One attack as a matrix over the states: a miss leaves them, each landing takes them through its
        shots in order (products kept by the landing's first shots, which landings share)."""
        landings, miss, spreads = mine
        n = len(self.states)
        out = miss * np.eye(n)
        for p, _, sig in landings:
            for k in range(1, len(sig) + 1):
                if (spreads, sig[:k]) not in self.landing_matrices:
                    shot = self.shot_matrices[(*sig[k - 1], spreads)]
                    before = self.landing_matrices[(spreads, sig[: k - 1])] if k > 1 else None
                    self.landing_matrices[(spreads, sig[:k])] = shot if before is None else before @ shot
                    self.budget.spend(_matrix_work(n))
            out += p * self.landing_matrices[(spreads, sig)]
        return out

    def attack(self, dist: Any, mine: Mine) -> Any:
        dist = self.sized(dist)  # the kernel may already know more states than `dist` has reached
        rows, cols, vals = self.extend(mine, len(dist))
        self.budget.spend(len(rows))
        return np.bincount(cols, weights=dist[rows] * vals, minlength=len(self.states))

    def reaching(self, volley: Volley) -> tuple[float, tuple[tuple[float, tuple[Mine, ...]], ...]]:
        """The volley as the company sees it: the chance nothing reaches it, and each branch that does
        (kept by the volley's branches, which the turns of one roll share)."""
        key = id(volley.branches)
        if key not in self.seen:
            self.seen[key] = self._reaching(volley)
        return self.seen[key]

    def _reaching(self, volley: Volley) -> tuple[float, tuple[tuple[float, tuple[Mine, ...]], ...]]:
        rest = 1.0 - sum(p for p, _ in volley.branches)
        out: list[tuple[float, tuple[Mine, ...]]] = []
        for p, attacks in volley.branches:
            group = self.stands[0].group
            mine = tuple(m for m in (self.views.mine(a, group) for a in attacks) if m is not None)
            if mine:
                out.append((p, mine))
            else:
                rest += p
        return max(rest, 0.0), tuple(out)

    def step(self, dist: Any, volley: Volley) -> Any:
        """The company's markers after one volley: each branch of its roll (its attacks in order) or nothing.
        Branches that begin alike (one and two turns of fire) share the work of their common start."""
        rest, reaching = self.reaching(volley)
        if not reaching:
            return dist
        after: dict[tuple[int, ...], Any] = {(): dist}
        ends: list[tuple[float, Any]] = []
        for p, mine in reaching:
            for n in range(1, len(mine) + 1):
                key = tuple(id(m) for m in mine[:n])
                if key not in after:
                    after[key] = self.attack(after[key[:-1]], mine[n - 1])
            ends.append((p, after[tuple(id(m) for m in mine)]))
        out = self.sized(dist) * rest
        for p, d in ends:
            out += p * self.sized(d)
        return out

    def turn(self, dist: Any, volleys: Sequence[Volley]) -> Any:
        """The company's markers after a turn's volleys. The second time the same volleys come (an item
        fires on the same place turn after turn), while the company has few states, the turn becomes one
        matrix over them, kept for the turns after; otherwise volley by volley."""
        seen = [view for view in map(self.reaching, volleys) if view[1]]
        if not seen:
            return dist
        key = tuple(map(id, seen))  # each volley's view is kept in self.seen: its id names it
        matrix = self.matrices.get(key)
        if key not in self.matrices:  # a turn that may not come again: no matrix yet
            self.matrices[key] = None
            for v in volleys:
                dist = self.step(dist, v)
            return dist
        if matrix is None or matrix.shape[0] < len(dist):
            while True:  # every state the turn can reach from the states seen so far
                known = len(self.states)
                for _, reaching in seen:
                    for _, mine in reaching:
                        for m in mine:
                            self.extend(m, len(self.states))
                if len(self.states) == known or known > DENSE_STATES:
                    break
            if len(self.states) > DENSE_STATES:
                for v in volleys:
                    dist = self.step(dist, v)
                return dist
            matrix = self.matrix(seen)
            self.matrices[key] = matrix
        n = matrix.shape[0]
        self.budget.spend(n)
        return self.sized(dist)[:n] @ matrix

    def matrix(self, seen: Sequence[tuple[float, tuple[tuple[float, tuple[Mine, ...]], ...]]]) -> Any:
        n = len(self.states)
        eye = np.eye(n)
        dense: dict[int, Any] = {}

        def of(m: Mine) -> Any:
            if id(m) not in dense:
                rows, cols, vals = self.extend(m, n)
                k = np.zeros((n, n))
                k[rows, cols] = vals
                dense[id(m)] = k
            return dense[id(m)]

        out = eye
        for rest, reaching in seen:
            step = rest * eye
            after: dict[tuple[int, ...], Any] = {(): eye}
            for p, mine in reaching:
                for k in range(1, len(mine) + 1):
                    key = tuple(id(m) for m in mine[:k])
                    if key not in after:
                        after[key] = after[key[:-1]] @ of(mine[k - 1])
                step = step + p * after[tuple(id(m) for m in mine)]
            self.budget.spend(_matrix_work(n) * (len(reaching) + 1))
            out = out @ step
        return out

    def marginals(self, dist: Any) -> list[list[float]]:
        """Per stand: [P(0 markers), P(1), P(2), P(killed)]."""
        if self.markers is None or len(self.markers) != len(dist):  # states are only ever added
            self.markers = np.array(self.states[: len(dist)], dtype=np.intp).reshape(
                len(dist), len(self.stands)
            )
        markers = self.markers
        return [
            np.bincount(markers[:, pos], weights=dist, minlength=KILLING_MARKERS + 1).tolist()
            for pos in range(len(self.stands))
        ]


def _group_run(
    stands: Sequence[TargetStand], volleys: Sequence[Sequence[Volley]], budget: Budget, views: _Views
) -> dict[str, list[list[float]]]:
    """Per stand of one company, per turn: [P(0), P(1), P(2), P(killed)], exact given the volleys (an
    enumeration in floating point)."""
    company = _Company(stands, budget, views)
    members = set(company.members)
    mine = [[v for v in turn if not v.reach.isdisjoint(members)] for turn in volleys]
    company.prepare(v for turn in mine for v in turn)
    dist = np.ones(1)
    per_turn: list[list[list[float]]] = []
    for turn in mine:
        dist = company.turn(dist, turn)
        per_turn.append(company.marginals(dist))
    return {s.id: [turn[n] for turn in per_turn] for n, s in enumerate(stands)}


def _exact_run(
    groups: Mapping[str, Sequence[TargetStand]],
    volleys: Sequence[Sequence[Volley]],
    budget: Budget,
    views: _Views,
) -> dict[str, list[list[float]]]:
    out: dict[str, list[list[float]]] = {}
    for stands in groups.values():
        out.update(_group_run(stands, volleys, budget, views))
    return out


# -- what the rehearsal assumes ----------------------------------------------------------------------------------
def assumptions(plan: Plan, rules: Rules, method: str) -> list[str]:
    """Every modelling choice of this rehearsal, in plain words, with the readings in force."""
    ctx = rules.ctx
    th = action_thresholds(ctx)
    on_table = [f.id for f in plan.fire if f.on_table]
    named_on_table = f" (items {', '.join(on_table)})" if on_table else ""
    twice = (
        "2 Actions fire it twice, both turns of fire landing (and deviating) apart"
        if rules.most_fire == 2
        else "it fires once a turn whatever the roll"
    )
    lines = [
        "The enemy's stands stay where they stand now and spend no action on recovering; the enemy moving "
        "is not rehearsed.",
        "Batteries fire as field guns and mortars as medium mortars unless `firers` names another; ranges "
        "are measured from the side's own rear edge (a mortar out of range from there does nothing).",
        "No Deep Suppression is in force against the rehearsing side (it would lower its action rolls).",
        f"A planned battery's turn of fire needs an artillery action roll of 1 Action or more ('only an "
        f"order to fire'; {rules.period} war: 1 Action on {th['one']}+, 2 Actions on {th['two']}+): {twice} "
        f"(erratum {ARTILLERY_TWO_ACTIONS}: {ctx.reading(ARTILLERY_TWO_ACTIONS)}); every roll is enumerated "
        "exactly.",
        (
            "The batteries a request names as one brigade's (`brigades`) share one action roll per turn, "
            "each action firing the next of them in plan order; a battery named in no brigade rolls alone"
            if rules.brigade_rolls
            else "Each battery rolls its own artillery action die"
        )
        + f" (erratum {ARTILLERY_ROLL_PER}: {ctx.reading(ARTILLERY_ROLL_PER)}).",
        (
            "Unobserved off-table fire deviates when it arrives: every turn of fire of a planned battery "
            "(field guns, howitzers, heavy and super heavy artillery), SOS call and Firewaltz deviates afresh "
            "('one turn of fire arrives'), by the appendix method (no deviation on a 5 or 6, the clock read "
            "from the rehearsing side's rear edge, 2D6 cm), all its outcomes enumerated exactly; mortars, and "
            f"the batteries the plan names that stand on the table{named_on_table}, are not off-table "
            "artillery and do not deviate; planned gas is taken as artillery delivered and deviates once, "
            "where it arrives"
            if rules.deviation
            else "Planned fire and gas fall where they were planned"
        )
        + f" (erratum {PLANNED_FIRE_DEVIATION}: {ctx.reading(PLANNED_FIRE_DEVIATION)}).",
        "A mortar's planned fire arrives as planned, once a turn; an SOS call brings one turn of fire when "
        "its sos roll succeeds.",
        "A suppression by artillery, mortar or gas fire suppresses the stand's whole company; three markers "
        "destroy a stand.",
    ]
    if any(f.kind == "firewaltz" for f in plan.fire):
        lines.append(
            "A Firewaltz item is one attack ('Each Strong Point will be attacked once') in its arrival turn, "
            "arriving as planned with no action roll (its schedule is 'set by Corps or Army staffs'), on every "
            "enemy stand under a 10 x 10 cm artillery template at its grid reference: super heavy artillery "
            "on a strong point, heavy on a trench line, each stand in its own cover or the target's if that "
            f"is stronger (a trench line medium, a strong point {default_cover('strong-point', ctx)}: erratum "
            f"{FIREWALTZ_STRONG_POINT_COVER}: {ctx.reading(FIREWALTZ_STRONG_POINT_COVER)}). The text gives no "
            "mechanics for its rolling 'over and back': each item is one place in one turn, and a plan rolls "
            "over and back with several items. Its Deep Suppression roll every turn and the German "
            "infantry's rolling barrage are not part of the item (plan them as their own items)."
        )
    lines.append(
        "Method: exact enumeration of every die, roll and deviation."
        if method == "exact"
        else "Method: the wind's course (and each gas cloud's deviation) sampled from the seed, everything "
        "else enumerated exactly for each course; each probability is the mean over the courses, with its "
        "standard error."
    )
    return lines


def readings_of(rules: Rules) -> dict[str, str]:
    """The readings in force of the errata the rehearsal reads."""
    ids = [ARTILLERY_TWO_ACTIONS, ARTILLERY_ROLL_PER, PLANNED_FIRE_DEVIATION, FIREWALTZ_STRONG_POINT_COVER]
    return {e: rules.ctx.reading(e) for e in ids}


# -- the answer ---------------------------------------------------------------------------------------------------
class VolleyRow(TypedDict):
    """A volley of a turn as the answer shows it: what fires, its plan item, the chance it arrives, the
    attacks it brings on average, whether it deviates, and the stands under its aiming points."""

    what: str
    item: str
    chance: float
    expected_attacks: float
    deviates: bool
    stands: list[str]


class MarkerOdds(TypedDict):
    markers: dict[str, float]
    killed: float


class StandOdds(MarkerOdds):
    """A stand's chances at a turn's end: of each number of markers and of being killed, the markers it may
    expect; sampled, their standard errors."""

    expected_markers: float
    standard_error: NotRequired[MarkerOdds]


class StandTurn(StandOdds):
    stand: str
    name: str


class TurnRow(TypedDict):
    turn: int
    volleys: list[VolleyRow]
    stands: list[StandTurn]


class RehearsedStand(TypedDict):
    """An enemy stand as the rehearsal found it: where it stands, its cover and markers now."""

    stand: str
    name: str
    center: list[float] | None
    cover: str
    markers_now: int


class RehearsalDict(TypedDict):
    """A rehearsal's answer: whose plan, over how many turns and how it was worked out, turn by turn, the items
    not rehearsed, the assumptions and readings, the rule; in a game, the enemy's stands as they stand."""

    side: str
    turns: int
    method: Literal["exact", "sampled"]
    samples: int | None
    seed: int | None
    how: str
    turn_by_turn: list[TurnRow]
    not_rehearsed: list[dict[str, str]]
    assumptions: list[str]
    readings: dict[str, str]
    sources: list[str]
    stands: NotRequired[list[RehearsedStand]]


@dataclass
class Rehearsal:
    side: str
    turns: int
    method: Literal["exact", "sampled"]
    samples: int | None
    seed: int | None
    # stand id -> per turn [P(0 markers), P(1), P(2), P(killed)] and, when sampled, their standard errors
    stands: dict[str, list[list[float]]]
    errors: dict[str, list[list[float]]]
    schedule: list[list[VolleyRow]]
    skipped: list[dict[str, str]]
    names: dict[str, str]
    assumptions: list[str] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> RehearsalDict:
        def row(sid: str, t: int) -> StandOdds:
            p = self.stands[sid][t]
            r: StandOdds = {
                "markers": {str(m): round(p[m], 6) for m in range(KILLING_MARKERS)},
                "killed": round(p[KILLING_MARKERS], 6),
                "expected_markers": round(sum(m * p[m] for m in range(KILLING_MARKERS)), 6),
            }
            if self.method == "sampled":
                e = self.errors[sid][t]
                r["standard_error"] = {
                    "markers": {str(m): round(e[m], 6) for m in range(KILLING_MARKERS)},
                    "killed": round(e[KILLING_MARKERS], 6),
                }
            return r

        return {
            "side": self.side,
            "turns": self.turns,
            "method": self.method,
            "samples": self.samples,
            "seed": self.seed,
            "how": (
                "exact: every die, delivery roll and deviation enumerated (in floating point)"
                if self.method == "exact"
                else f"the wind's course sampled {self.samples} times from seed {self.seed}, everything else "
                "enumerated for each course; each probability is the mean over the courses, with its "
                "standard error"
            ),
            "turn_by_turn": [
                {
                    "turn": t + 1,
                    "volleys": self.schedule[t],
                    "stands": [
                        {"stand": sid, "name": self.names[sid], **row(sid, t)}
                        for sid in sorted(self.stands, key=_sort_key)
                        if any(self.stands[sid][t][m] for m in range(1, KILLING_MARKERS + 1))
                    ],
                }
                for t in range(self.turns)
            ],
            "not_rehearsed": self.skipped,
            "assumptions": self.assumptions,
            "readings": self.readings,
            "sources": [SRC_FIRE_PLANS],
        }


def _sort_key(sid: str) -> tuple[int, str]:
    return (int(sid), sid) if sid.isdigit() else (0, sid)


def _describe(volleys: Sequence[Sequence[Volley]]) -> list[list[VolleyRow]]:
    return [
        [
            {
                "what": v.source,
                "item": v.item,
                "chance": float(v.chance),
                "expected_attacks": round(float(v.expected_attacks), 6),
                "deviates": v.deviates,
                "stands": list(v.aimed),
            }
            for v in turn
        ]
        for turn in volleys
    ]


def rehearse(
    plan: Plan,
    targets: Sequence[TargetStand],
    table: Table,
    period: str,
    variants: Mapping[str, str] | None = None,
    turns: int | None = None,
    seed: int = 1,
    samples: int = DEFAULT_SAMPLES,
    work_limit: int = WORK_LIMIT,
) -> Rehearsal:
    """The distribution of suppression markers and kills on each target stand after each turn of the plan."""
    last = turns if turns is not None else min(max(plan.last_turn, 1), MAX_TURNS)
    if not 1 <= last <= MAX_TURNS:
        raise RulesError("turns", f"rehearse 1 to {MAX_TURNS} turns", [1, MAX_TURNS])
    if not 1 <= samples <= MAX_SAMPLES:
        raise RulesError("samples", f"sample 1 to {MAX_SAMPLES} courses of the wind", [1, MAX_SAMPLES])
    rules = Rules(period, dict(variants or {}))
    budget = Budget(work_limit)
    by_id = {t.id: t for t in targets}
    groups: dict[str, list[TargetStand]] = {}
    for target in targets:
        groups.setdefault(target.group, []).append(target)
    for g, members in groups.items():
        if len(members) > MAX_GROUP_STANDS:
            raise RulesError(
                "targets", f"company {g} has {len(members)} stands; at most {MAX_GROUP_STANDS}", []
            )
    index = StandIndex.build([target.stand for target in targets if target.stand is not None])
    fixed = fixed_volleys(plan, by_id, index, rules, table, last)
    views = _Views.of_groups(groups)
    names = {target.id: target.name for target in targets}
    method: Literal["exact", "sampled"] = "sampled" if plan.gas else "exact"
    told = assumptions(plan, rules, method)
    readings = readings_of(rules)

    if not plan.gas:
        exact = _exact_run(groups, fixed, budget, views)
        return Rehearsal(
            plan.side,
            last,
            "exact",
            None,
            None,
            exact,
            {},
            _describe(fixed),
            list(plan.skipped),
            names,
            told,
            readings,
        )
    if samples * last * len(plan.gas) > MAX_CLOUD_TURNS:
        raise RulesError(
            "samples",
            "ask for fewer samples or turns: the gas clouds' winds are too many to work out at once",
            [1, MAX_CLOUD_TURNS // max(last * len(plan.gas), 1)],
            why=f"{samples} courses of the wind over {last} turns for {len(plan.gas)} gas clouds is too much to "
            f"answer at once (samples x turns x clouds at most {MAX_CLOUD_TURNS}): ask for fewer",
        )
    rng = random.Random(seed)
    # A company no cloud reaches in a course of the wind has the same answer in every course: work it out
    # once. A company a cloud reaches depends only on which of its stands the clouds pass over, and when:
    # courses that pass over them alike share one answer.
    base = _exact_run(groups, fixed, budget, views)
    group_of = {target.id: target.group for target in targets}
    cache: dict[tuple[str, Any], dict[str, np.ndarray]] = {}  # (company, what reached it) -> per stand
    # What a gas volley (shared by the courses that pass over the same place) does to each company it
    # reaches, named by a number: its shots there, as (stand, id of the effects: the rules' cached answer).
    seen_by: dict[int, dict[str, int]] = {}
    named: dict[tuple[tuple[str, int], ...], int] = {}
    courses = gas_courses(plan, by_id, index, rules, last, rng, samples)
    for v in {id(v): v for course in courses for turn in course for v in turn}.values():
        by_group: dict[str, list[tuple[str, int]]] = {}
        for _, attacks in v.branches:
            for a in attacks:
                for _, shots in a.landings:
                    for i, eff in shots:
                        by_group.setdefault(group_of[i], []).append((i, id(eff)))
        seen_by[id(v)] = {g: named.setdefault(tuple(listed), len(named)) for g, listed in by_group.items()}
    courses_of: dict[tuple[str, Any], int] = {}  # how many courses each answer stands for
    for gas in courses:
        seen = [[seen_by[id(v)] for v in turn] for turn in gas]
        for g in {g for turn in seen for volley in turn for g in volley}:
            key = (g, tuple(tuple(volley[g] for volley in turn if g in volley) for turn in seen))
            if key not in cache:
                volleys = [[*gas[t], *fixed[t]] for t in range(last)]
                run = _group_run(groups[g], volleys, budget, views)
                cache[key] = {sid: np.array(per, dtype=float) for sid, per in run.items()}
            courses_of[key] = courses_of.get(key, 0) + 1
    # Per stand, arrays of turns x [P(0), P(1), P(2), P(killed)]: the sum over the courses and of squares.
    sums = {sid: np.zeros((last, KILLING_MARKERS + 1)) for sid in base}
    squares = {sid: np.zeros((last, KILLING_MARKERS + 1)) for sid in base}
    reached: dict[str, int] = {}
    for (g, _), n in courses_of.items():
        reached[g] = reached.get(g, 0) + n
    for key, n in courses_of.items():
        for sid, per in cache[key].items():
            sums[sid] += n * per
            squares[sid] += n * per**2
    for sid, unreached in base.items():
        untouched = samples - reached.get(group_of[sid], 0)
        sums[sid] += untouched * np.array(unreached, dtype=float)
        squares[sid] += untouched * np.array(unreached, dtype=float) ** 2
    mean_arrays = {s: total / samples for s, total in sums.items()}
    means = {s: m.tolist() for s, m in mean_arrays.items()}
    errors = {
        s: np.sqrt(np.maximum(squares[s] / samples - m**2, 0.0) / max(samples - 1, 1)).tolist()
        for s, m in mean_arrays.items()
    }
    return Rehearsal(
        plan.side,
        last,
        "sampled",
        samples,
        seed,
        means,
        errors,
        _describe(fixed),
        list(plan.skipped),
        names,
        told,
        readings,
    )


# -- the request and the page's drawing the fire plan declares (rules.core.game.FirePlanTerms) ---------------
PlanFirer = Literal[PLAN_FIRERS]  # type: ignore[valid-type]
PlanItemId = Annotated[str, Field(max_length=12)]


class SOSCallIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    grid: Grid
    turn: Annotated[int, Strict(), Field(ge=1, le=MAX_TURNS, description="The turn the SOS is called in.")]


class RehearsalIn(RehearsalRequest):
    """What to rehearse: how many turns, the seed of the sampled wind, the firer of each battery."""

    turns: (
        Annotated[
            int,
            Strict(),
            Field(ge=1, le=MAX_TURNS, description="Turns to rehearse (default: to the plan's last)."),
        ]
        | None
    ) = None
    seed: Annotated[
        int, Strict(), Field(ge=0, le=2_147_483_647, description="Seed of the sampled wind (gas only).")
    ] = 1
    samples: Annotated[
        int, Strict(), Field(ge=1, le=MAX_SAMPLES, description="Courses of the wind to sample (gas only).")
    ] = DEFAULT_SAMPLES
    firers: dict[PlanItemId, PlanFirer] = Field(
        default_factory=dict,
        max_length=64,
        description="Plan item id -> what fires it (default: field guns for batteries, medium mortars).",
    )
    sos: list[SOSCallIn] = Field(
        default_factory=list, max_length=8, description="SOS calls to rehearse (defender only)."
    )
    variants: dict[
        Annotated[str, Field(min_length=1, max_length=64)], Annotated[str, Field(max_length=64)]
    ] = Field(
        default_factory=dict,
        max_length=32,
        description="Readings of the errata for this rehearsal, over the game's own (e.g. "
        "planned-fire-deviation: pre-registered); GET /api/v1/rulesets/flanders-fields lists them.",
    )
    brigades: dict[PlanItemId, Annotated[str, Field(max_length=64)]] = Field(
        default_factory=dict,
        max_length=64,
        description="Plan item id -> its battery's brigade: with artillery-roll-per: brigade, one action "
        "roll per brigade.",
    )


def plan_marks(side: str, items: Sequence[Mapping[str, Any]], table: Table) -> list[PlanMark]:
    """A side's plan items on the fire-plan page's grid: each template of fire where it lands, each gas
    cloud (the side's own gas template), each rolling barrage a band across the table from its front."""
    plan_side: Side = "attacker" if side == "attacker" else "defender"
    plan = plan_from_items(plan_side, items, table)
    marks = [PlanMark(f"T{f.first_turn}", f.kind, f.point, template=f.template) for f in plan.fire]
    gas_kind = "gas-attacker" if plan_side == "attacker" else "gas-defender"
    marks += [PlanMark(f"T{g.turn}", "gas", g.point, template=gas_kind) for g in plan.gas]
    sign = 1.0 if plan_side == "attacker" else -1.0
    for b in plan.barrages:
        y0, y1 = sorted((b.front_y, b.front_y + sign * b.depth_cm))
        marks.append(
            PlanMark(f"barrage T{b.turn}", "band", (table.width_cm / 2, (y0 + y1) / 2), band=(y0, y1))
        )
    return marks
