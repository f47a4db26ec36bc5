"""Fire-plan rehearsal: what a side's plan will likely do to the enemy stands now on the table, turn by turn.

Every number comes from the game's own resolvers (shooting, artillery-action, sos, rolling-barrage,
gas-wind) evaluated over every face of their dice, and from the table geometry the game uses (the
templates of rules/table, coverage, the rolling barrage's advance, the gas cloud's drift).

How the plan acts, turn by turn (turn t is the plan side's half of game turn t):
- a rolling barrage already firing advances its own width (or holds on a halt turn) and rolls for every
  stand it passes over; it lifts after its planned duration; a new one rolls for the stands in its band;
- gas clouds already on the table move on one wind (2D6+10 cm in the planned direction the first time, then
  the Gas Movement table) and attack every stand they pass over, fully covered or partly (-2);
  new clouds attack the stands under them;
- a planned battery fires on its aiming point in each of its planned turns when its artillery-action roll
  gives at least one action ("only an order to fire"); a mortar's planned fire is taken as delivered;
  every stand fully under the 10 x 10 cm template is shot at, partly under at -2;
- an SOS call (defender only) brings one turn of fire on its 10 x 5 cm template when the sos roll succeeds.
A suppression by artillery or mortar fire suppresses the stand's whole company; three markers kill.

Exact: the stands of one company share their markers, so each company's markers are enumerated exactly
over every die and every delivery roll; companies are independent for what one stand can suffer. The
wind's course cannot be enumerated (its speed and turns branch hundreds of ways each turn): with gas on the
table, `samples` wind courses are drawn from `seed`, the rest is still exact for each course, and the
answer states the standard error of the mean over the courses.

Not rehearsed (they do not put markers on enemy stands): deep suppression and air missions, the enemy's
recovery from suppression (it spends the enemy's own actions) and the enemy moving.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from shapely import Polygon
from shapely.affinity import translate

from rules.core.dice import all_rolls, count_rolls
from rules.core.errors import RulesError
from rules.flanders_fields import tables as T
from rules.flanders_fields.artillery import SOS, ArtilleryAction, ArtilleryActionRequest, SOSRequest
from rules.flanders_fields.barrage import (
    DANGER_ZONE_CM,
    ROLLING_BARRAGE_STEP,
    RollingBarrage,
    RollingBarrageRequest,
)
from rules.flanders_fields.gas import (
    DENYING_MOVE_TURNS,
    OFFENSIVE_MAX_TURNS,
    GasWind,
    GasWindRequest,
    Wind,
)
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.flanders_fields.shooting import FIRE_TYPE, Shooting, ShootingRequest
from rules.flanders_fields.suppression import KILLING_MARKERS, spreads_to_company
from rules.table import barrage as table_barrage
from rules.table import gas as table_gas
from rules.table.bases import Stand
from rules.table.coverage import StandIndex, classify
from rules.table.frame import AHEAD_DEG, Side, Table, grid_to_table
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
# Courses of the wind x turns x gas clouds one request may sample (each is a template laid on the table).
MAX_CLOUD_TURNS = 24_000
# Company states x die outcomes one request may work through (a few seconds of one core).
WORK_LIMIT = 1_500_000

FIRE_KINDS = ("aiming-point", "bombardment", "superimposed", "mortar")
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

Effect = tuple[str, int]  # ("killed" | "suppressed" | "no-effect", markers)
Prob = Fraction | float


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


def plan_from_items(
    side: Side,
    items: Iterable[Mapping[str, Any]],
    table: Table,
    firers: Mapping[str, str] | None = None,
    sos: Sequence[Mapping[str, Any]] = (),
) -> Plan:
    """A plan from fire-plan items ({"id", "kind", "arrival_turn", "data"} as the game stores them, grid
    references from the side's own rear edge) and SOS calls ({"grid", "turn"}). `firers` names the firer
    of an item by its id; otherwise batteries fire as field guns and mortars as medium mortars."""
    firers = dict(firers or {})
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
                FireItem(item_id, kind, point, turn, int(data.get("turns", 1)), firer, template, battery)
            )
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
    for unknown in sorted(set(firers) - known):
        raise RulesError(f"firers.{unknown}", "no item of the plan has this id", sorted(known))
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

    def shot(self, firer: str, target: TargetStand, partial: bool, range_cm: float) -> dict[Effect, Fraction]:
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
        return dict(self.cache[key])

    def barrage_roll(self, target: TargetStand) -> dict[Effect, Fraction]:
        key = ("barrage", target.cover)
        if key not in self.cache:
            req = self._req(RollingBarrageRequest, cover=target.cover)
            self.cache[key] = _effects(RollingBarrage(), req, self.ctx)
        return dict(self.cache[key])

    def delivered(self, item: FireItem) -> Fraction:
        """The chance that a planned turn of fire arrives: an artillery-action of at least one action for a
        battery ("only an order to fire"), the sos roll for an SOS call; a mortar's fire as planned."""
        key = ("delivered", item.kind, item.firer)
        if key not in self.cache:
            resolver: Any
            if item.kind == "sos":
                req, resolver, ok = self._req(SOSRequest), SOS(), {"fire-arrives"}
            elif item.firer in ARTILLERY_KIND:
                req = self._req(ArtilleryActionRequest, artillery=ARTILLERY_KIND[item.firer])
                resolver, ok = ArtilleryAction(), {"1-action", "2-actions"}
            else:
                self.cache[key] = Fraction(1)
                return Fraction(1)
            resolver.check(req, self.ctx)
            probs = resolver.probabilities(req, self.ctx)
            self.cache[key] = sum((p for k, p in probs.items() if k in ok), Fraction(0))
        return Fraction(self.cache[key])

    def wind(self, current: Wind | None, direction_deg: float, rng: random.Random) -> Wind:
        """One gas-wind roll with dice drawn from rng: the first from the planned direction, later ones on
        the Gas Movement table."""
        resolver = GasWind()
        key = ("wind-request", current, direction_deg)
        if key not in self.cache:  # one validated request per wind: the courses of the wind revisit them
            if current is None:
                self.cache[key] = self._req(GasWindRequest, direction_deg=direction_deg)
            else:
                self.cache[key] = self._req(GasWindRequest, wind=current.as_dict())
        req = self.cache[key]
        dice = tuple(rng.randint(1, s) for s in resolver.dice(req, self.ctx))
        out = resolver.evaluate(req, self.ctx, dice).outcome
        return Wind(float(out["direction_deg"]), int(out["speed_cm"]), bool(out["dispersed"]))

    def gas_shot(self, target: TargetStand, partial: bool) -> dict[Effect, float]:
        """A gas attack's effects in floats (the sampled courses are averaged in floats)."""
        key = ("gas-float", target.cover, partial, target.is_command, target.armour)
        if key not in self.cache:
            self.cache[key] = {e: float(p) for e, p in self.shot("gas", target, partial, 0.0).items()}
        return dict(self.cache[key])


# -- the schedule: which rolls each turn brings ------------------------------------------------------------------
@dataclass(frozen=True)
class Volley:
    """One delivery: with probability `chance` every shot in it happens (in order), otherwise none."""

    source: str
    chance: Fraction
    spreads: bool
    shots: tuple[tuple[str, dict[Effect, Fraction]], ...]
    item: str = ""


def _covered(template: Polygon, index: StandIndex) -> list[tuple[str, bool]]:
    cov = classify(template, index, 0.0)
    return sorted([(i, False) for i in cov.full] + [(i, True) for i in cov.partial])


def _range_from_rear(side: Side, stand: Stand, table: Table) -> float:
    y = stand.center[1]
    return y if side == "attacker" else table.length_cm - y


def fixed_volleys(
    plan: Plan, targets: Mapping[str, TargetStand], index: StandIndex, rules: Rules, table: Table, turns: int
) -> list[list[Volley]]:
    """Turn by turn (index 0 is turn 1), the volleys that do not depend on the wind: planned batteries,
    mortars and SOS calls, and rolling barrages."""
    out: list[list[Volley]] = [[] for _ in range(turns)]
    sign = 1.0 if plan.side == "attacker" else -1.0
    for b in plan.barrages:
        ROLLING_BARRAGE_STEP.require_period(rules.ctx)
        centre = (
            table.width_cm / 2,
            b.front_y + sign * Template("rolling-barrage", (0, 0)).spec.depth_cm / 2,
        )
        template = Template("rolling-barrage", centre, _ahead(plan.side))
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
            out[t - 1].append(Volley(f"rolling barrage {what}", Fraction(1), True, shots, b.id))
    for f in plan.fire:
        template = Template(f.template, f.point, _ahead(plan.side)).polygon(table)
        covered = _covered(template, index)
        spreads = spreads_to_company(FIRE_TYPE[f.firer])
        for t in range(max(f.first_turn, 1), min(f.first_turn + f.turns, turns + 1)):
            shots = tuple(
                (
                    i,
                    rules.shot(
                        f.firer,
                        targets[i],
                        partial,
                        _range_from_rear(plan.side, index_stand(index, i), table),
                    ),
                )
                for i, partial in covered
            )
            name = f"SOS call {f.id.removeprefix('sos-')}" if f.kind == "sos" else f.kind.replace("-", " ")
            battery = f", battery {f.battery}" if f.battery else ""
            what = f"{name}{battery} ({f.firer.replace('-', ' ')})"
            out[t - 1].append(Volley(what, rules.delivered(f), spreads, shots, f.id))
    return out


def index_stand(index: StandIndex, stand_id: str) -> Stand:
    return next(s for s in index.stands if s.id == stand_id)


def gas_volleys(
    plan: Plan,
    targets: Mapping[str, TargetStand],
    index: StandIndex,
    rules: Rules,
    turns: int,
    rng: random.Random,
) -> list[list[Volley]]:
    """One course of the wind, drawn from rng, and the gas attacks it brings turn by turn."""
    out: list[list[Volley]] = [[] for _ in range(turns)]
    if not plan.gas:
        return out
    spreads = spreads_to_company(FIRE_TYPE["gas"])
    clouds: list[dict[str, Any]] = []
    wind: Wind | None = None
    first_direction = min(plan.gas, key=lambda g: (g.turn, g.id)).wind_deg
    kind = "gas-attacker" if plan.side == "attacker" else "gas-defender"

    # Where a cloud is depends on the sum of its moves, which the courses of the wind repeat: the stands a
    # move passes over are worked out once per (cloud, offset before, move).
    passed: dict[tuple[str, float, float, float, float], tuple[list[tuple[str, bool]], float, float]] = {}

    def attack(cloud_id: str, covered: Sequence[tuple[str, bool]], what: str, t: int) -> None:
        shots = tuple((i, rules.gas_shot(targets[i], p)) for i, p in covered)
        out[t - 1].append(Volley(f"gas cloud {what}", 1.0, spreads, shots, cloud_id))  # type: ignore[arg-type]

    for t in range(1, turns + 1):
        if clouds:
            wind = rules.wind(wind, first_direction, rng)
            kept = []
            for c in clouds:
                offensive = c["gas"] == "offensive"
                if offensive and wind.dispersed:
                    continue
                moving = offensive or c["moves"] < DENYING_MOVE_TURNS
                speed = float(wind.speed_cm) if moving else 0.0
                key = (c["id"], c["dx"], c["dy"], wind.direction_deg, speed)
                if key not in passed:
                    start = translate(c["polygon"], c["dx"], c["dy"])
                    moved, swept = table_gas.drift(start, wind.direction_deg, speed)
                    ox, oy = table_gas.offset(wind.direction_deg, speed)
                    area = swept if isinstance(swept, Polygon) else moved
                    passed[key] = (_covered(area, index), round(c["dx"] + ox, 6), round(c["dy"] + oy, 6))
                covered, dx, dy = passed[key]
                attack(c["id"], covered, "drifts", t)
                c = {**c, "dx": dx, "dy": dy, "moves": c["moves"] + (1 if moving else 0)}
                if not (offensive and c["moves"] >= OFFENSIVE_MAX_TURNS):
                    kept.append(c)
            clouds = kept
        for g in plan.gas:
            if g.turn == t:
                poly = Template(kind, g.point, _ahead(plan.side)).polygon()
                attack(g.id, _covered(poly, index), "arrives", t)
                clouds.append({"id": g.id, "gas": g.gas, "polygon": poly, "moves": 0, "dx": 0.0, "dy": 0.0})
    return out


# -- a company's markers, exactly ---------------------------------------------------------------------------------
State = tuple[int, ...]  # markers per stand of the company; KILLING_MARKERS means destroyed


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
                "this rehearsal is too much to work out at once: ask for fewer turns, or fewer courses of the "
                "wind (samples) when the plan has gas",
                [1, MAX_SAMPLES],
            )


def _step(
    dist: dict[State, Prob], volley: Volley, members: Mapping[str, int], budget: Budget
) -> dict[State, Prob]:
    """The company's markers after one volley: delivered (its shots in order) or not."""
    mine = [(members[i], eff) for i, eff in volley.shots if i in members]
    if not mine:
        return dist
    hit: dict[State, Prob] = {s: p * volley.chance for s, p in dist.items()}
    for pos, effects in mine:
        budget.spend(len(hit) * len(effects))
        nxt: dict[State, Prob] = {}
        for s, q in hit.items():
            if s[pos] >= KILLING_MARKERS:  # a destroyed stand is not shot at
                nxt[s] = nxt.get(s, 0) + q
                continue
            for eff, pe in effects.items():
                s2 = _apply(s, pos, eff, volley.spreads)
                nxt[s2] = nxt.get(s2, 0) + q * pe
        hit = nxt
    if volley.chance != 1:
        for s, p in dist.items():
            hit[s] = hit.get(s, 0) + p * (1 - volley.chance)
    return hit


def _marginals(dist: Mapping[State, Prob], pos: int) -> list[Prob]:
    """[P(0 markers), P(1), P(2), P(killed)] for one stand."""
    out: list[Prob] = [Fraction(0)] * (KILLING_MARKERS + 1)
    for s, p in dist.items():
        out[s[pos]] = out[s[pos]] + p
    return out


def _group_run(
    stands: Sequence[TargetStand], volleys: Sequence[Sequence[Volley]], budget: Budget
) -> dict[str, list[list[Prob]]]:
    """Per stand of one company, per turn: [P(0), P(1), P(2), P(killed)], exact given the volleys (in
    Fractions, or in floats when the volleys carry floats)."""
    members = {s.id: n for n, s in enumerate(stands)}
    one: Prob = Fraction(1) if all(isinstance(v.chance, Fraction) for t in volleys for v in t) else 1.0
    dist: dict[State, Prob] = {tuple(min(s.markers, KILLING_MARKERS) for s in stands): one}
    per_turn: list[dict[State, Prob]] = []
    for turn in volleys:
        for v in turn:
            dist = _step(dist, v, members, budget)
        per_turn.append(dist)
    return {s: [_marginals(d, n) for d in per_turn] for s, n in members.items()}


def _exact_run(
    groups: Mapping[str, Sequence[TargetStand]], volleys: Sequence[Sequence[Volley]], budget: Budget
) -> dict[str, list[list[Prob]]]:
    out: dict[str, list[list[Prob]]] = {}
    for stands in groups.values():
        out.update(_group_run(stands, volleys, budget))
    return out


def _floated(volleys: Sequence[Sequence[Volley]]) -> list[list[Volley]]:
    """The same volleys in floats: the sampled courses of the wind are averaged in floats anyway."""
    return [
        [
            Volley(
                v.source,
                float(v.chance),  # type: ignore[arg-type]
                v.spreads,
                tuple((i, {e: float(p) for e, p in eff.items()}) for i, eff in v.shots),  # type: ignore[misc]
                v.item,
            )
            for v in turn
        ]
        for turn in volleys
    ]


# -- the answer ---------------------------------------------------------------------------------------------------
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
    exact: dict[str, list[list[Fraction]]]
    schedule: list[list[dict[str, Any]]]
    skipped: list[dict[str, str]]
    names: dict[str, str]

    def as_dict(self) -> dict[str, Any]:
        def row(sid: str, t: int) -> dict[str, Any]:
            p = self.stands[sid][t]
            r: dict[str, Any] = {
                "markers": {str(m): round(p[m], 6) for m in range(KILLING_MARKERS)},
                "killed": round(p[KILLING_MARKERS], 6),
                "expected_markers": round(sum(m * p[m] for m in range(KILLING_MARKERS)), 6),
            }
            if self.method == "exact":
                r["killed_exact"] = str(self.exact[sid][t][KILLING_MARKERS])
            else:
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
                "exact: every die and delivery roll enumerated"
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
            "sources": [SRC_FIRE_PLANS],
        }


def _sort_key(sid: str) -> tuple[int, str]:
    return (int(sid), sid) if sid.isdigit() else (0, sid)


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
    names = {target.id: target.name for target in targets}

    def describe(volleys: Sequence[Sequence[Volley]]) -> list[list[dict[str, Any]]]:
        return [
            [
                {
                    "what": v.source,
                    "item": v.item,
                    "chance": float(v.chance),
                    "stands": [i for i, _ in v.shots],
                }
                for v in turn
            ]
            for turn in volleys
        ]

    if not plan.gas:
        exact = _exact_run(groups, fixed, budget)
        return Rehearsal(
            plan.side,
            last,
            "exact",
            None,
            None,
            {s: [[float(x) for x in p] for p in per] for s, per in exact.items()},
            {},
            {s: [[Fraction(x) for x in p] for p in per] for s, per in exact.items()},
            describe(fixed),
            list(plan.skipped),
            names,
        )
    if samples * last * len(plan.gas) > MAX_CLOUD_TURNS:
        raise RulesError(
            "samples",
            f"{samples} courses of the wind over {last} turns for {len(plan.gas)} gas clouds is too much to "
            f"answer at once (samples x turns x clouds at most {MAX_CLOUD_TURNS}): ask for fewer",
            [1, MAX_CLOUD_TURNS // max(last * len(plan.gas), 1)],
        )
    rng = random.Random(seed)
    fixed_f = _floated(fixed)
    # A company no cloud reaches in a course of the wind has the same answer in every course: work it out
    # once. A company a cloud reaches depends only on which of its stands the clouds pass over, and when:
    # courses that pass over them alike share one answer.
    base = _exact_run(groups, fixed_f, budget)
    group_of = {target.id: target.group for target in targets}
    cache: dict[tuple[str, Any], dict[str, list[list[Prob]]]] = {}
    zero = [[0.0] * (KILLING_MARKERS + 1) for _ in range(last)]
    sums: dict[str, list[list[float]]] = {sid: [r[:] for r in zero] for sid in base}
    squares: dict[str, list[list[float]]] = {sid: [r[:] for r in zero] for sid in base}
    reached: dict[str, int] = {}
    for _ in range(samples):
        gas = gas_volleys(plan, by_id, index, rules, last, rng)
        touched = {group_of[i] for turn in gas for v in turn for i, _ in v.shots}
        for g in touched:
            ids_in = {m.id for m in groups[g]}
            key = (
                g,
                tuple(
                    tuple((i, tuple(sorted(eff.items()))) for v in turn for i, eff in v.shots if i in ids_in)
                    for turn in gas
                ),
            )
            if key not in cache:
                cache[key] = _group_run(groups[g], [[*gas[t], *fixed_f[t]] for t in range(last)], budget)
            reached[g] = reached.get(g, 0) + 1
            for sid, per in cache[key].items():
                for t, p in enumerate(per):
                    for m, x in enumerate(p):
                        sums[sid][t][m] += float(x)
                        squares[sid][t][m] += float(x) ** 2
    for sid, per in base.items():
        untouched = samples - reached.get(group_of[sid], 0)
        for t, p in enumerate(per):
            for m, x in enumerate(p):
                sums[sid][t][m] += untouched * float(x)
                squares[sid][t][m] += untouched * float(x) ** 2
    means = {s: [[x / samples for x in p] for p in per] for s, per in sums.items()}
    errors = {
        s: [
            [
                math.sqrt(max(squares[s][t][m] / samples - means[s][t][m] ** 2, 0.0) / max(samples - 1, 1))
                for m in range(KILLING_MARKERS + 1)
            ]
            for t in range(last)
        ]
        for s in means
    }
    return Rehearsal(
        plan.side,
        last,
        "sampled",
        samples,
        seed,
        means,
        errors,
        {},
        describe(fixed),
        list(plan.skipped),
        names,
    )
