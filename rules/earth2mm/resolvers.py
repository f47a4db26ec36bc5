"""2mm Earth 1418 resolvers: plans under a high command, resilience in cover, shooting and melee pools,
recovery, movement, bombardment shots, and the bombardment circle and smoke cordon templates."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from rules.core.dice import Threshold, convolve
from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.earth2mm import data as D
from rules.earth2mm import pools
from rules.earth2mm.data import (
    ASSAULT_DICE,
    ASSAULT_PERCENT,
    ASSAULT_REACH_M,
    BOUND,
    COMMANDS,
    COVER,
    COVER_POSTURE_INDEX,
    DIG_IN,
    EXECUTING_ORDER,
    GAS_ARMING,
    GAS_RESILIENCE,
    MOVE_PERCENT,
    PLANNING_ORDER,
    PLANS,
    SCALE_M_PER_CM,
    SITUATIONS,
    SPEEDS_CM,
    SRC_ARMING,
    SRC_ARTILLERY,
    SRC_ASSAULT,
    SRC_COMMANDS,
    SRC_COVER,
    SRC_HEAVY,
    SRC_ORDER,
    SRC_SMOKE,
    SRC_TRANSPORT,
    SRC_UNITS,
    SRC_VEHICLES,
    TERRAINS,
    TRANSPORT_MAX_CM,
    TRANSPORT_PERCENT,
    UNIT_IDS,
    UNITS,
    Command,
    MoveTerrain,
    Plan,
    Posture,
    Situation,
    Terrain,
    UnitType,
)
from rules.earth2mm.ruleset import Earth2mm, EarthRequest
from rules.earth2mm.templates import BaseRect, coords, drift, smoke_cordon, under_circle

UnitId = Literal[
    "reserve-inf",
    "line-inf",
    "elite-inf",
    "command",
    "machineguns",
    "early-mortar",
    "melee-cav",
    "mixed-cav",
    "mounted-rifles",
    "lmg-squad",
    "smg-squads",
    "grenadier-squads",
    "mother-tank",
    "whippets",
    "field-guns",
    "light-howitzers",
    "howitzers-120",
    "very-heavy-guns",
]
ArtilleryId = Literal["field-guns", "light-howitzers", "howitzers-120", "very-heavy-guns"]
assert set(UnitId.__args__) == set(UNIT_IDS)  # type: ignore[attr-defined]


def situation(dug_in: bool, under_fire: bool) -> Situation:
    return f"{'dug-in' if dug_in else 'not-dug-in'}-{'under-fire' if under_fire else 'safe'}"  # type: ignore[return-value]


def allowed_plans(ctx: Context, command: Command, dug_in: bool, under_fire: bool) -> list[Plan]:
    s = situation(dug_in, under_fire)
    if command == "assault":
        return list(ctx.value("assault-column")[s])
    return list(PLANS[command][SITUATIONS.index(s)])


def cover_modifier(terrain: Terrain, posture: Posture, from_terrain: Terrain | None) -> tuple[Terrain, int]:
    """The cover modifier, using the weaker terrain when moving from one into another."""
    idx = COVER_POSTURE_INDEX[posture]
    options = [terrain] if from_terrain is None else [terrain, from_terrain]
    weakest = min(options, key=lambda t: COVER[t][idx])
    return weakest, COVER[weakest][idx]


class Cover(BaseModel):
    model_config = ConfigDict(extra="forbid")

    terrain: Terrain = Field(default="open", description="Terrain the target is in.")
    posture: Posture = Field(
        default="stationary", description="Moving, stationary, digging in this bound, or dug in."
    )
    from_terrain: Terrain | None = Field(
        default=None, description="Terrain it is moving out of, if different."
    )
    gassed: bool = Field(default=False, description="Under short-term gas: -1R.")


def resilience(ctx: Context, base: int, cover: Cover, field: str) -> tuple[int, list[Modifier]]:
    weakest, mod = cover_modifier(cover.terrain, cover.posture, cover.from_terrain)
    mods = [Modifier(f"cover: {cover.posture} in {weakest}", mod, SRC_COVER)] if mod else []
    if cover.posture == "digging":
        mods.append(
            Modifier(
                "attacked while digging in", ctx.value("digging-penalty"), ctx.citation("digging-penalty")
            )
        )
    if cover.gassed:
        mods.append(Modifier("target under gas", GAS_RESILIENCE, SRC_UNITS))
    return base + sum(m.value for m in mods), mods


def base_resilience(unit: UnitType, formation_resilience: int | None, field: str) -> int:
    if unit.resilience is not None:
        return unit.resilience
    if formation_resilience is None:
        raise RulesError(
            field, f"{unit.name} has Resilience 'As S.F.': give the formation's resilience", range(1, 10)
        )
    return formation_resilience


class NoDice:
    """For look-ups that roll nothing: one outcome, probability 1."""

    def dice(self, req: Any, ctx: Context) -> tuple[int, ...]:
        return ()


# -- high commands -------------------------------------------------------------------------------------
class PlanRequest(EarthRequest):
    command: Command = Field(description="The high command given to the sub-unit's Strategic Formation.")
    dug_in: bool = Field(default=False, description="The sub-unit is dug in.")
    under_fire: bool = Field(default=False, description="The sub-unit was under fire last turn.")


@Earth2mm.resolver
class Plans(NoDice, Resolver[PlanRequest]):
    id = "plans"
    summary = "What a sub-unit may plan under its formation's high command, and whether it may dig in"
    Request = PlanRequest
    examples = (
        {"command": "advance", "dug_in": True, "under_fire": True},
        {"command": "assault", "under_fire": True},
    )

    def evaluate(self, req: PlanRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        plans = allowed_plans(ctx, req.command, req.dug_in, req.under_fire)
        srcs = [SRC_COMMANDS, SRC_COVER]
        if req.command == "assault":
            srcs.append(ctx.citation("assault-column"))
        notes = []
        if "find cover" in plans:
            notes.append("Find cover: move in any direction, ending in or nearer to a better cover location.")
        if "assault" in plans:
            notes.append(f"An assault goes only straight at an enemy within {ASSAULT_REACH_M} m.")
        return Evaluation(
            key=" or ".join(plans),
            outcome={
                "plans": plans,
                "may_dig_in": DIG_IN[req.command],
                "digging_in_penalty_if_attacked": -1 if DIG_IN[req.command] else None,
            },
            sources=tuple(srcs),
            details={"notes": notes},
        )


# -- resilience and shooting ----------------------------------------------------------------------------
class ResilienceRequest(EarthRequest):
    unit: UnitId
    formation_resilience: int | None = Field(default=None, ge=1, le=9, description="For 'As S.F.' units.")
    cover: Cover = Field(default_factory=Cover)


@Earth2mm.resolver
class ResilienceInCover(NoDice, Resolver[ResilienceRequest]):
    id = "resilience"
    summary = "A unit's Resilience in its terrain and posture (the cover table)"
    Request = ResilienceRequest
    examples = ({"unit": "line-inf", "cover": {"terrain": "open", "posture": "moving"}},)

    def check(self, req: ResilienceRequest, ctx: Context) -> None:
        check_vehicle_posture(UNITS[req.unit], req.cover, "cover.posture", ctx)

    def evaluate(self, req: ResilienceRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        base = base_resilience(UNITS[req.unit], req.formation_resilience, "formation_resilience")
        r, mods = resilience(ctx, base, req.cover, "cover")
        return Evaluation(f"R{r}", r, tuple(mods), r, (SRC_UNITS, SRC_COVER))


def check_vehicle_posture(unit: UnitType, cover: Cover, field: str, ctx: Context) -> None:
    if unit.kind == "vehicle" and cover.posture in ("digging", "dug-in"):
        raise RulesError(field, "vehicles may never dig in", ["moving", "stationary"])
    if (
        unit.kind == "artillery"
        and cover.posture in ("digging", "dug-in")
        and not ctx.value("dug-in-artillery")
    ):
        raise RulesError(field, "artillery can never dig in (ARTILLERY)", ["moving", "stationary"])


class ShootRequest(EarthRequest):
    shooter: UnitId
    bases: int = Field(ge=1, le=30, description="Bases in the sub-unit (in melee: bases in base contact).")
    melee: bool = Field(
        default=False, description="Melee uses the m side of Arming m/r; shooting the r side."
    )
    assaulting: bool = Field(default=False, description="Shooting while assaulting: one die fewer.")
    shooter_gassed: bool = Field(default=False, description="Shooter under short-term gas: -1A.")
    target: UnitId
    target_formation_resilience: int | None = Field(
        default=None, ge=1, le=9, description="For 'As S.F.' targets."
    )
    target_cover: Cover = Field(default_factory=Cover)
    target_bases: int = Field(default=3, ge=1, le=30)
    target_injured: int = Field(default=0, ge=0, le=30, description="Target bases already injured.")


def pool(req: ShootRequest) -> tuple[int, int, list[Modifier]]:
    """Dice and bonus of a shooting or melee pool, with the modifiers that built it."""
    unit = UNITS[req.shooter]
    arming = unit.melee if req.melee else unit.ranged
    mods = [Modifier(f"arming ({'m' if req.melee else 'r'})", arming.dice, SRC_UNITS)]
    if req.bases > 2:
        mods.append(Modifier(f"{req.bases - 2} base(s) beyond two", req.bases - 2, SRC_ARMING))
    if req.assaulting and not req.melee:
        mods.append(Modifier("shooting while assaulting", ASSAULT_DICE, SRC_ASSAULT))
    if req.shooter_gassed:
        mods.append(Modifier("shooter under gas", GAS_ARMING, SRC_UNITS))
    return max(0, sum(m.value for m in mods)), arming.bonus, mods


def must_reroll(req: ShootRequest, ctx: Context) -> bool:
    # "all infantry and heavy weapon rolls against them must be re-rolled (field guns and artillery don't)";
    # cavalry and vehicles shooting are read by the erratum reroll-shooters.
    shooter = UNITS[req.shooter].kind
    return UNITS[req.target].kind == "vehicle" and shooter in ctx.value("reroll-shooters")


@Earth2mm.resolver
class Shoot(Resolver[ShootRequest]):
    id = "shoot"
    summary = "Shooting or melee: an arming dice pool against the target's Resilience, injuries and kills"
    Request = ShootRequest
    named_by = (("melee", "Melee"),)  # the melee step's roll is the card's Melee (StandAct), not a shot
    examples = (
        {
            "shooter": "line-inf",
            "bases": 4,
            "target": "reserve-inf",
            "target_cover": {"terrain": "open", "posture": "moving"},
        },
        {
            "shooter": "machineguns",
            "bases": 2,
            "target": "mother-tank",
            "target_bases": 2,
            "dice": [6, 5, 3, 6, 1, 4],
        },
        {
            "shooter": "grenadier-squads",
            "bases": 3,
            "melee": True,
            "target": "line-inf",
            "target_cover": {"terrain": "fortification", "posture": "dug-in"},
        },
    )

    def check(self, req: ShootRequest, ctx: Context) -> None:
        check_vehicle_posture(UNITS[req.target], req.target_cover, "target_cover.posture", ctx)
        if req.target_injured > req.target_bases:
            raise RulesError(
                "target_injured", "more injured bases than bases", range(0, req.target_bases + 1)
            )
        n, _, _ = pool(req)
        if n == 0:
            raise RulesError(
                "melee" if req.melee else "shooter",
                f"{UNITS[req.shooter].name} has no dice to roll here",
                [not req.melee],
            )
        target_r(req, ctx)

    def dice(self, req: ShootRequest, ctx: Context) -> tuple[int, ...]:
        n, _, _ = pool(req)
        return (6,) * (2 * n if must_reroll(req, ctx) else n)

    def counted(self, req: ShootRequest, ctx: Context) -> Threshold | None:
        # "If the Resilience value is matched or beaten, then that target takes a hit" (ARMING AND RESILIENCE):
        # the hits are the dice reaching it; "The + bonus is a number added to one of the die that they roll"
        # (HEAVY WEAPONS): one die short of it lifted by the bonus is one more (the die it helps, or by the
        # erratum bonus-which-die the first die alone). At a vehicle "all infantry and heavy weapon rolls against
        # them must be re-rolled" (VEHICLES): the hits rolled again, those reaching it again counted; with a bonus
        # there too, each face is read.
        n, bonus, _ = pool(req)
        r = target_r(req, ctx)[0]
        if must_reroll(req, ctx):
            return None if bonus else Threshold(n, r, again=True)
        if not bonus:
            return Threshold(n, r)
        return Threshold(n, r, lift=max(1, r - bonus), first_only=bonus_on_marked_die(ctx))

    def evaluate(self, req: ShootRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        n, bonus, mods = pool(req)
        r, rmods = target_r(req, ctx)
        reroll = must_reroll(req, ctx)
        designated = bonus_on_marked_die(ctx)
        first, final = pools.pool_hits(dice, n, r, bonus, reroll, bool(ctx.value("bonus-die")), designated)
        fresh = min(final, req.target_bases - req.target_injured)
        kills = min(final - fresh, req.target_bases)
        injured = req.target_injured + fresh
        left = req.target_bases - kills
        srcs = [SRC_ARMING, SRC_UNITS]
        if bonus:
            srcs += [SRC_HEAVY, ctx.citation("bonus-which-die"), ctx.citation("bonus-die")]
        if reroll:
            srcs += [SRC_VEHICLES, ctx.citation("vehicle-reroll")]
            if UNITS[req.shooter].kind not in ("infantry", "heavy-weapon", "command"):
                srcs.append(ctx.citation("reroll-shooters"))
        return Evaluation(
            key=hits_key(final),
            outcome={"hits": final, "injuries": fresh, "kills": kills},
            modifiers=(*mods, *(Modifier(f"target {m.label}", m.value, m.source) for m in rmods)),
            total=n,
            sources=tuple(srcs),
            details={
                "dice_in_pool": n,
                "bonus": bonus,
                "melee": req.melee,
                "bonus_on": ("the first die" if designated else "the die it helps most") if bonus else None,
                "target_resilience": r,
                "hits_before_reroll": first if reroll else None,
                "target_after": {
                    "bases": left,
                    "injured": min(injured, left),
                    "movement_halved": left > 0 and 2 * min(injured, left) >= left,
                },
                "notes": ["Hits are allocated by the shooter; kills only once every base is injured."],
            },
        )

    def probabilities(self, req: ShootRequest, ctx: Context) -> dict[str, Fraction]:
        n, bonus, _ = pool(req)
        r, _ = target_r(req, ctx)
        dist = pools.pool_distribution(
            n, r, bonus, must_reroll(req, ctx), bool(ctx.value("bonus-die")), bonus_on_marked_die(ctx)
        )
        return {hits_key(k): p for k, p in dist.items()}


def bonus_on_marked_die(ctx: Context) -> bool:
    """The (+#) bonus goes on the first die only (marked before the roll), not on the die it helps most."""
    return bool(ctx.value("bonus-which-die") == "designated")


def target_r(req: ShootRequest, ctx: Context) -> tuple[int, list[Modifier]]:
    base = base_resilience(UNITS[req.target], req.target_formation_resilience, "target_formation_resilience")
    return resilience(ctx, base, req.target_cover, "target_cover")


def hits_key(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


# -- recovery ------------------------------------------------------------------------------------------
class RecoveryRequest(EarthRequest):
    resilience: int = Field(
        ge=0, le=12, description="The platoon's own (built-in) Resilience: the chart's, or its formation's."
    )
    cover: Cover | None = Field(
        default=None,
        description="Its terrain, posture and gas now: the recovery die's R under the reading 'current' of "
        "erratum recovery-resilience (needed then).",
    )


def recovery_resilience(ctx: Context, req: RecoveryRequest) -> tuple[int, list[Modifier]]:
    """The R a recovery die must roll equal to or under, by the reading in force."""
    if ctx.value("recovery-resilience") == "built-in":
        return req.resilience, []
    if req.cover is None:
        raise RulesError(
            "cover",
            "give the platoon's terrain and posture: this reading rolls against Resilience in cover",
            why="under the reading 'current' of recovery-resilience the die is rolled against Resilience in "
            "cover: give the platoon's terrain and posture",
        )
    return resilience(ctx, req.resilience, req.cover, "cover")


def recovers(die: int, r: int) -> bool:
    # "a platoon must roll equal to or under its own Resilience value (a roll of 6 fails)"
    return die <= r and die != 6


@Earth2mm.resolver
class Recovery(Resolver[RecoveryRequest]):
    id = "recovery"
    summary = "Recovery die: roll equal to or under Resilience (a 6 fails) to restore movement"
    Request = RecoveryRequest
    examples = ({"resilience": 4}, {"resilience": 3, "dice": [3]})

    def check(self, req: RecoveryRequest, ctx: Context) -> None:
        recovery_resilience(ctx, req)

    def evaluate(self, req: RecoveryRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        r, mods = recovery_resilience(ctx, req)
        ok = recovers(dice[0], r)
        return Evaluation(
            "recovered" if ok else "not recovered",
            "movement restored" if ok else "movement stays halved",
            modifiers=tuple(mods),
            total=dice[0],
            sources=(SRC_ARMING, ctx.citation("recovery-resilience")),
            details={"recovery_resilience": r},
        )


# -- hits allocated ------------------------------------------------------------------------------------
Injury = Literal["", "fresh", "old"]
ALLOCATION_RULE = (
    "One hit injures, two hits removes permanently. ... Once a sub-unit has been completely injured (as in, "
    "all bases have an injury), further hits will become Kills and bases removed. Hit allocation is up to the "
    "aggressor's choice, but (as above) they cannot allocate kills until all bases have injuries."
)
MELEE_ALLOCATION_RULE = "Injuries and casualties are distributed by the aggressor."


class HitBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base: int = Field(ge=0, description="The base's id.")
    injury: Injury = Field(default="", description="Its injury now: none, fresh (red smoke) or old (black).")


class AllocateRequest(EarthRequest):
    hits: int = Field(ge=1, le=60, description="Hits waiting on the sub-unit for the aggressor to allocate.")
    sub_unit: list[HitBase] = Field(
        min_length=1, max_length=30, description="The hit sub-unit's bases along its rank, as they stand."
    )
    order: list[int] | None = Field(
        default=None,
        max_length=60,
        description="The bases the hits land on, in order (a base twice: injured, then removed); none: "
        "the uninjured bases along the rank first, then every base along it.",
    )
    melee: bool = Field(default=False, description="The hits were scored in melee.")


def hits_landed(req: AllocateRequest) -> tuple[list[int], list[int], list[int]]:
    """(bases injured, bases removed, the order the hits landed in), refusing an order the rule forbids:
    more hits than wait, a base not of the sub-unit (or already removed), a kill while a base is uninjured."""
    injury: dict[int, str | None] = {b.base: b.injury for b in req.sub_unit}
    rule = MELEE_ALLOCATION_RULE + " " + ALLOCATION_RULE if req.melee else ALLOCATION_RULE
    source = f"{SRC_ASSAULT}; {SRC_ARMING}" if req.melee else SRC_ARMING
    if req.order is None:
        ranked = [b for b in injury if not injury[b]] + list(injury)
        order = ranked[: req.hits]
    else:
        order = req.order
        if len(order) > req.hits:
            raise RulesError(
                "order", f"only {req.hits} hit(s) wait: allocate at most {req.hits}", why=rule, source=source
            )
    injured: list[int] = []
    removed: list[int] = []
    for i, b in enumerate(order):
        if injury.get(b) is None:
            alive = [k for k, v in injury.items() if v is not None]
            said = "is already removed" if b in injury else "is not a base of the sub-unit hit"
            raise RulesError(
                f"order.{i}",
                f"a base picked {said}: pick one of its bases left",
                alive,
                source=source,
                ids=True,
            )
        if not injury[b]:
            injury[b] = "fresh"
            injured.append(b)
            continue
        if any(v == "" for v in injury.values()):
            fresh = [k for k, v in injury.items() if v == ""]
            raise RulesError(
                f"order.{i}",
                "injure every base before removing one",
                fresh,
                source=source,
                why=rule,
                ids=True,
            )
        injury[b] = None
        removed.append(b)
    return injured, removed, list(order)


@Earth2mm.resolver
class AllocateHits(NoDice, Resolver[AllocateRequest]):
    id = "allocate-hits"
    summary = "The aggressor allocates a shot's hits: each injures a base, and removes one only once all are injured"
    Request = AllocateRequest
    examples = (
        {"hits": 2, "sub_unit": [{"base": 1}, {"base": 2, "injury": "old"}, {"base": 3}]},
        {"hits": 2, "sub_unit": [{"base": 1, "injury": "fresh"}, {"base": 2}], "order": [2, 1]},
    )

    def check(self, req: AllocateRequest, ctx: Context) -> None:
        hits_landed(req)

    def evaluate(self, req: AllocateRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        injured, removed, order = hits_landed(req)
        left = len(req.sub_unit) - len(removed)
        # Hits past the last base are lost; hits the aggressor did not allocate yet still wait.
        waiting = req.hits - len(order) if left else 0
        return Evaluation(
            key=f"{len(injured)} injured, {len(removed)} removed",
            outcome={"injured": injured, "removed": removed, "hits_waiting": waiting},
            sources=(f"{SRC_ASSAULT}; {SRC_ARMING}",) if req.melee else (SRC_ARMING,),
            details={"order": order, "bases_left": left},
        )


# -- movement ------------------------------------------------------------------------------------------
class MoveRequest(EarthRequest):
    unit: UnitId
    terrain: list[MoveTerrain] = Field(
        default_factory=lambda: list[MoveTerrain](["open"]),
        min_length=1,
        max_length=4,
        description="Terrain moved from and through (road, open, rough, impractical).",
    )
    assaulting: bool = False
    enemy_distance_m: int | None = Field(
        default=None, ge=0, le=100000, description="Distance to the assaulted enemy."
    )
    injured: bool = Field(default=False, description="The platoon is injured, or most of the sub-unit is.")
    transport: Literal["none", "horse-drawn", "motorised"] = "none"


@Earth2mm.resolver
class Move(NoDice, Resolver[MoveRequest]):
    id = "move"
    summary = "Movement distance: speed, road and terrain percentages, assault, injury, transport"
    Request = MoveRequest
    examples = (
        {"unit": "line-inf", "terrain": ["road", "rough"]},
        {"unit": "reserve-inf", "terrain": ["open"], "assaulting": True, "enemy_distance_m": 250},
    )

    def check(self, req: MoveRequest, ctx: Context) -> None:
        unit = UNITS[req.unit]
        if req.assaulting and req.enemy_distance_m is not None and req.enemy_distance_m > ASSAULT_REACH_M:
            raise RulesError(
                "enemy_distance_m",
                f"an assault only goes at an enemy within {ASSAULT_REACH_M} m",
                range(0, ASSAULT_REACH_M + 1, 50),
            )
        if req.transport != "none" and unit.kind not in ("infantry", "heavy-weapon", "command"):
            raise RulesError(
                "transport", "only infantry formations (with their heavy weapons) are transported", ["none"]
            )

    def evaluate(self, req: MoveRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        unit = UNITS[req.unit]
        speed = Fraction(SPEEDS_CM[unit.speed])
        mods: list[Modifier] = [Modifier(f"{unit.speed} speed (cm)", int(speed), SRC_COVER)]
        terrains = sorted(set(req.terrain), key=req.terrain.index)
        pct = sum(MOVE_PERCENT[t] for t in terrains)
        # Where the motorised +50% and its 12cm cap come in (erratum transport-order).
        order = ctx.value("transport-order") if req.transport == "motorised" else None
        if order is not None:
            mods.append(
                Modifier("motorised transport (%)", TRANSPORT_PERCENT, ctx.citation("transport-order"))
            )
        if order == "additive":
            pct += TRANSPORT_PERCENT
        elif order is not None:
            speed = speed * (100 + TRANSPORT_PERCENT) / 100
        if order == "rate-first":
            speed = min(Fraction(TRANSPORT_MAX_CM), speed)
        for t in terrains:
            if MOVE_PERCENT[t]:
                mods.append(Modifier(f"{t} (%)", MOVE_PERCENT[t], SRC_COVER))
        dist = speed * (100 + pct) / 100
        if order == "additive":
            dist = min(Fraction(TRANSPORT_MAX_CM), dist)
        if req.assaulting:
            dist = dist * (100 + ASSAULT_PERCENT) / 100
            mods.append(Modifier("assaulting, after terrain (%)", ASSAULT_PERCENT, SRC_COVER))
        if req.injured:
            dist = dist / 2
            mods.append(Modifier("injured: movement halved (%)", -50, SRC_ARMING))
        if order == "cap-on-total":
            dist = min(Fraction(TRANSPORT_MAX_CM), dist)
        dist = max(dist, Fraction(0))
        cm = float(dist)
        return Evaluation(
            key="move",
            outcome={"distance_cm": cm, "scale_metres": cm * SCALE_M_PER_CM, "exact_cm": str(dist)},
            modifiers=tuple(mods),
            sources=(SRC_COVER, SRC_TRANSPORT) if req.transport != "none" else (SRC_COVER,),
        )


# -- artillery -------------------------------------------------------------------------------------------
class ShotAllocation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    shots: int = Field(ge=1, le=200, description="Shots laid on this target sub-unit.")
    resilience: int = Field(
        ge=0, le=12, description="The target's Resilience in its cover (see /resilience)."
    )
    more_than_half_outside: bool = Field(
        default=False, description="The chosen platoon is more than half outside the circle."
    )


class BombardRequest(EarthRequest):
    artillery: ArtilleryId
    bases_firing: int = Field(ge=1, le=30)
    targets: list[ShotAllocation] = Field(min_length=1, max_length=6)


def max_shots(req: BombardRequest) -> int:
    # "Player multiplies the Arming value of the Artillery Strategic Formation ... with the number of bases firing"
    return UNITS[req.artillery].ranged.dice * req.bases_firing


@Earth2mm.resolver
class Bombard(Resolver[BombardRequest]):
    id = "bombard"
    summary = (
        "A bombardment: shots = arming x bases, at most half on one target, re-rolls for targets half outside"
    )
    Request = BombardRequest
    examples = (
        {
            "artillery": "field-guns",
            "bases_firing": 4,
            "targets": [
                {"shots": 4, "resilience": 4},
                {"shots": 2, "resilience": 2, "more_than_half_outside": True},
            ],
        },
    )

    def check(self, req: BombardRequest, ctx: Context) -> None:
        total = max_shots(req)
        half = total // 2
        for i, t in enumerate(req.targets):
            if t.shots > half:
                raise RulesError(
                    f"targets.{i}.shots",
                    f"at most half of the {total} shots on one target",
                    range(1, half + 1),
                )
        used = sum(t.shots for t in req.targets)
        if used > total:
            raise RulesError("targets", f"{used} shots allocated but only {total} available", [total])

    def dice(self, req: BombardRequest, ctx: Context) -> tuple[int, ...]:
        return tuple(6 for t in req.targets for _ in range(t.shots * (2 if t.more_than_half_outside else 1)))

    def evaluate(self, req: BombardRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        bonus = UNITS[req.artillery].ranged.bonus
        at = 0
        per_target = []
        for t in req.targets:
            width = t.shots * (2 if t.more_than_half_outside else 1)
            _, final = pools.pool_hits(
                dice[at : at + width],
                t.shots,
                t.resilience,
                bonus,
                t.more_than_half_outside,
                bool(ctx.value("bonus-die")),
                bonus_on_marked_die(ctx),
            )
            per_target.append(final)
            at += width
        total = sum(per_target)
        return Evaluation(
            key=hits_key(total),
            outcome={"hits_per_target": per_target},
            total=total,
            sources=(SRC_ARTILLERY, ctx.citation("inner-circle"), SRC_HEAVY, ctx.citation("bonus-which-die")),
            details={"shots_available": max_shots(req), "shots_used": sum(t.shots for t in req.targets)},
        )

    def probabilities(self, req: BombardRequest, ctx: Context) -> dict[str, Fraction]:
        bonus = UNITS[req.artillery].ranged.bonus
        on_reroll = bool(ctx.value("bonus-die"))
        marked = bonus_on_marked_die(ctx)
        dists = [
            pools.pool_distribution(t.shots, t.resilience, bonus, t.more_than_half_outside, on_reroll, marked)
            for t in req.targets
        ]
        return {hits_key(k): p for k, p in convolve(dists).items()}


class BaseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    x: float = Field(ge=-1000, le=1000)
    y: float = Field(ge=-1000, le=1000)
    facing: float = Field(default=90.0, ge=-360, le=360)
    width: float = Field(default=2.0, gt=0, le=50, description="Frontage in cm.")
    depth: float = Field(default=1.0, gt=0, le=50)


# A sub-unit's bases at most: a formation built from the chart takes up to 100 bases a sub-unit (the app's
# SubUnitIn.bases), each sub-unit under the circle in a game is sent whole (play/artillery.py). Unbounded, one request
# of 40 sub-units of 2,500 bases (a 1.6 MB body) was 9.9 s of CPU (the hostile pass of issue 69); 40 x 100 is ~0.4 s.
SubunitBases = Annotated[list[BaseIn], Field(max_length=100)]


class CircleRequest(EarthRequest):
    center: tuple[float, float] = Field(description="Circle centre (cm).")
    subunits: list[SubunitBases] = Field(min_length=1, max_length=40, description="Each sub-unit's bases.")


@Earth2mm.resolver
class BombardmentCircle(NoDice, Resolver[CircleRequest]):
    id = "bombardment-circle"
    summary = 'Which sub-units a 3" bombardment circle damages, and which bases are more than half outside'
    Request = CircleRequest
    examples = (
        {"center": [50, 50], "subunits": [[{"x": 49, "y": 50}, {"x": 51, "y": 50}], [{"x": 53.5, "y": 50}]]},
    )

    def check(self, req: CircleRequest, ctx: Context) -> None:
        for i, bases in enumerate(req.subunits):
            if not bases:
                raise RulesError(f"subunits.{i}", "a sub-unit has at least one base", [1])

    def evaluate(self, req: CircleRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        found = under_circle(
            (req.center[0], req.center[1]),
            [[BaseRect(b.x, b.y, b.facing, b.width, b.depth) for b in bases] for bases in req.subunits],
        )
        out = [
            {
                "subunit": s.index,
                "affected": s.affected,
                "bases": [
                    {
                        "base": b.index,
                        "under": b.under,
                        "fraction_inside": round(b.fraction_inside, 4),
                        "reroll_hits": b.more_than_half_outside,
                    }
                    for b in s.bases
                ],
            }
            for s in found
        ]
        affected = [s.index for s in found if s.affected]
        return Evaluation(
            key=f"{len(affected)} affected",
            outcome={"affected": affected, "subunits": out},
            sources=(SRC_ARTILLERY, ctx.citation("inner-circle")),
        )


class CordonRequest(EarthRequest):
    center: tuple[float, float] = Field(description="Centre of the template (cm).")
    batteries: int = Field(ge=1, le=20, description="Batteries firing smoke or gas.")
    wind_deg: float = Field(
        ge=0, lt=360, description="Direction the wind blows towards (degrees, counter-clockwise from +x)."
    )
    bounds: int = Field(default=0, ge=0, le=50, description="Ends of bound since it was laid.")


@Earth2mm.resolver
class SmokeCordon(NoDice, Resolver[CordonRequest]):
    id = "smoke-cordon"
    summary = "A smoke or gas cordon square to the wind, and where it has drifted after some bounds"
    Request = CordonRequest
    examples = ({"center": [60, 40], "batteries": 2, "wind_deg": 90, "bounds": 1},)

    def evaluate(self, req: CordonRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        laid = smoke_cordon(
            (req.center[0], req.center[1]), req.batteries, req.wind_deg, float(ctx.value("cordon-width"))
        )
        now = drift(laid, req.wind_deg, req.bounds)
        c = now.centroid
        return Evaluation(
            key="cordon",
            outcome={
                "polygon_cm": coords(now),
                "center_cm": [round(c.x, 3), round(c.y, 3)],
                "laid_polygon_cm": coords(laid),
            },
            sources=(SRC_SMOKE, ctx.citation("cordon-width")),
            details={
                "notes": [
                    "Drifts at the end of each bound, after melee and casualties; some gas is transparent."
                ]
            },
        )


# -- datasets ------------------------------------------------------------------------------------------
class HighCommand(TypedDict):
    """A high command's plans in each situation, and whether it may dig in."""

    plans: dict[D.Situation, list[D.Plan]]
    may_dig_in: bool


# A terrain's resilience moving, stationary and dug in (functional form: "dug-in" is no Python name).
CoverRow = TypedDict("CoverRow", {"moving": int, "stationary": int, "dug-in": int})


class MovementData(TypedDict):
    speeds_cm: dict[D.SpeedClass, int]
    terrain_percent: dict[D.MoveTerrain, int]
    assault_percent: int
    assault_reach_m: int
    transport_percent: int
    transport_max_cm: int
    scale_metres_per_cm: int


class BoundData(TypedDict):
    bound: list[str]
    planning: list[str]
    executing: list[str]
    source: str


@Earth2mm.dataset("high-commands", "Plans each high command allows by situation, and digging in")
def _commands(_p: str | None) -> dict[D.Command, HighCommand]:
    ctx = Earth2mm().context(None)
    return {
        c: {
            "plans": {
                s: allowed_plans(ctx, c, s.startswith("dug-in"), s.endswith("under-fire")) for s in SITUATIONS
            },
            "may_dig_in": DIG_IN[c],
        }
        for c in COMMANDS
    }


@Earth2mm.dataset("cover", "The cover/resilience table (moving, stationary, dug in by terrain)")
def _cover(_p: str | None) -> dict[D.Terrain, CoverRow]:
    return {t: {"moving": COVER[t][0], "stationary": COVER[t][1], "dug-in": COVER[t][2]} for t in TERRAINS}


@Earth2mm.dataset("movement", "Speeds (cm), terrain and road percentages, assault and transport")
def _movement(_p: str | None) -> MovementData:
    return {
        "speeds_cm": SPEEDS_CM,
        "terrain_percent": MOVE_PERCENT,
        "assault_percent": ASSAULT_PERCENT,
        "assault_reach_m": ASSAULT_REACH_M,
        "transport_percent": TRANSPORT_PERCENT,
        "transport_max_cm": TRANSPORT_MAX_CM,
        "scale_metres_per_cm": SCALE_M_PER_CM,
    }


@Earth2mm.dataset("units", "Unit characteristics: speed, arming m/r, resilience, range")
def _units(_p: str | None) -> list[D.UnitTypeRow]:
    return [u.as_dict() for u in UNITS.values()]


@Earth2mm.dataset("bound", "The bound, and the planning and executing order")
def _bound(_p: str | None) -> BoundData:
    return {
        "bound": list(BOUND),
        "planning": list(PLANNING_ORDER),
        "executing": list(EXECUTING_ORDER),
        "source": SRC_ORDER,
    }
