"""What 2mm Earth 1418's rules of play forbid of an act on the table as a snapshot reads it (GameRules.forbidden
and roll_refusal's step by sub-unit): a plan outside what the SF's high command and the sub-unit's situation
allow, a dig-in the command or the troops do not allow, a sub-unit planning or moving in a step that does not
name it, a move by a sub-unit that stays put or beyond its distance, an assault planned beyond 300 m, a second
shot in a bound, a melee between sub-units neither of which assaulted the other. (What the table refuses of a
shot itself, its range, sight, planned target and base contact, is the shot's: shots.py.) Each refusal one
sentence saying what to do, the rule in full as `why`, its printed line as `source`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from shapely import Point

from rules.core.acts import Act, EditUnit, MoveFormation, MoveStand, Roll
from rules.core.errors import Refusal
from rules.core.game import leaves_under
from rules.core.records import Snapshot, UnitState
from rules.core.ruleset import Context
from rules.earth2mm.data import (
    ASSAULT_REACH_M,
    COMMANDS,
    COVER,
    DIG_IN,
    SCALE_M_PER_CM,
    SRC_ARTILLERY,
    SRC_ASSAULT,
    SRC_COMMANDS,
    SRC_COVER,
    SRC_ORDER,
    SRC_VEHICLES,
    UNITS,
    MoveTerrain,
)
from rules.earth2mm.play import units as U
from rules.earth2mm.play.shots import (
    MOVING_PLANS,
    cover_at,
    cover_class,
    gap_cm,
    ground_index,
    in_contact,
    melee_now,
    stands,
)
from rules.earth2mm.play.steps import SHOOT, STEP_INDEX, STEPS, printed_number
from rules.earth2mm.play.table import terrain_class
from rules.earth2mm.resolvers import MoveRequest, allowed_plans
from rules.earth2mm.ruleset import Earth2mm
from rules.registry import get_ruleset
from rules.table.bases import BaseSpec
from rules.table.frame import shifted_about_centre

# The executing steps each sub-unit shoots and moves in (PLANNING & EXECUTING), by what it is and does.
_DUG_IN_GUNS = "execute-1"
_GUNS_STILL = "execute-2"
_DUG_IN_INF = "execute-4"
_OPEN_INF = "execute-5"
_ASSAULT_SHOOT = "execute-9"
_NAVAL = "execute-10"
_ASSAULT_MOVE = "execute-6"
_NORMAL_MOVE = "execute-7"
_DUG_IN_MOVE = "execute-8"

_DIG_QUOTE = (
    "Troops ordered to change or hold positions can dig in, but those ordered to make dramatic moves cannot"
)
_PACK_QUOTE = "Note that all artillery has to spend one bound packing or unpacking to move/fire"
_FIND_COVER = "find cover"
_FIND_COVER_QUOTE = (
    "Sub-units choosing to find cover may move in any direction the player chooses, as long as they will end "
    "up in or nearer to a better cover location."
)
_CARRY_ON_QUOTE = (
    "If the troops fall short of their target, they must continue assaulting the next turn (unless their orders "
    "or situation changes so that they are not allowed to assault"
)


class Ground:
    """The table's terrain under the stands: the scenario's features and the board's rough ground."""

    def __init__(self, terrain: Mapping[str, Any], board: Mapping[str, Any]) -> None:
        self.index = ground_index(terrain, board)

    def moving_at(self, xy: tuple[float, float]) -> MoveTerrain:
        """The movement modifier's terrain at a point: a road where there is one, else the worst ground under
        it (defensible and fortified ground move as open: erratum move-terrain)."""
        p = Point(xy)
        classes = {terrain_class(f) for f in self.index.intersecting(p) if f.geometry.covers(p)}
        return next((c for c in ("road", "impractical", "rough") if c in classes), "open")


@dataclass(frozen=True)
class Board:
    """The snapshot as the rules of play read it: its units by id, the kit's bases, the errata readings."""

    snap: Snapshot
    bases: Mapping[str, BaseSpec]

    @cached_property
    def ctx(self) -> Context:
        return U.context(self.snap)

    @cached_property
    def ground(self) -> Ground:
        return Ground(self.snap.terrain, self.snap.board)

    @cached_property
    def allowances(self) -> dict[tuple[Any, ...], float]:
        """The move resolver's distances asked so far (kind, terrains, assaulting, injured): a formation's
        bases ask it once per kind and ground, not once each."""
        return {}

    @property
    def by_id(self) -> Mapping[int | None, UnitState]:
        return self.snap.by_id

    @property
    def step_id(self) -> str:
        return STEPS[self.snap.step].id if self.snap.step < len(STEPS) else ""

    def sub_unit(self, unit_id: int | None) -> UnitState | None:
        unit = self.by_id.get(unit_id)
        return None if unit is None else U.sub_unit_of(unit, self.by_id)

    def distance_cm(self, a: UnitState, b: UnitState) -> float | None:
        """The gap between two sub-units' nearest bases (None when either has none on the table)."""
        ours, theirs = stands(a, self.snap, self.bases), stands(b, self.snap, self.bases)
        return gap_cm(ours, theirs) if ours and theirs else None

    def in_contact(self, a: UnitState, b: UnitState) -> bool:
        ours, theirs = stands(a, self.snap, self.bases), stands(b, self.snap, self.bases)
        return bool(in_contact(ours, theirs, self.ctx)) if ours and theirs else False

    def command(self, company: UnitState) -> str:
        """The high command of the company's formation; "" for none, and for a word the book lacks (stored by an
        older firestep or a scenario file: no plan follows from it)."""
        sf = U.formation_of(company, self.by_id)
        command = str(sf.state.get("high_command") or "") if sf is not None else ""
        return command if command in COMMANDS else ""


# -- the sub-unit's situation --------------------------------------------------------------------------------
def dug_in(company: UnitState) -> bool:
    return int(company.state.get("dug_in_bounds", 0)) > 0


def assaulting(company: UnitState) -> bool:
    return company.state.get("sub_plan") == "assault" or company.state.get("assault_target") is not None


def packing(company: UnitState) -> bool:
    """An artillery sub-unit planning to move that is not packed yet: it spends this bound packing, neither
    moving nor firing ("all artillery has to spend one bound packing or unpacking to move/fire", ARTILLERY)."""
    return (
        U.is_artillery(company.kind)
        and company.state.get("sub_plan") in MOVING_PLANS
        and not company.state.get("packed")
    )


def shooting_steps(company: UnitState, b: Board) -> tuple[str, ...]:
    """The executing steps that name a sub-unit's shooting: dug in guns and heavy weapons (1), those that did
    not move or dig in last bound (2) (none for guns packing to move this bound), dug in infantry not assaulting (4), other infantry not assaulting (5),
    assaulting infantry (9), naval and railway artillery (10)."""
    planning = U.planning_of(company, b.by_id, b.ctx)
    if planning == "naval-railway":
        return (_NAVAL,)
    if planning == "artillery" and (
        company.state.get("sub_plan") in MOVING_PLANS or company.state.get("packed")
    ):
        # "all artillery has to spend one bound packing or unpacking to move/fire" (ARTILLERY): packing, moving
        # packed, or unpacking.
        return ()
    if planning in ("artillery", "heavy-weapons"):
        steps = (_DUG_IN_GUNS,) if dug_in(company) else ()
        return steps + (() if company.state.get("moved_last_bound") else (_GUNS_STILL,))
    if assaulting(company):
        return (_ASSAULT_SHOOT,)
    return (_DUG_IN_INF,) if dug_in(company) else (_OPEN_INF,)


def moving_step(company: UnitState) -> str:
    """The executing step that moves a sub-unit: assaulting (6), moving normally (7), dug in (8; heavy weapons
    and artillery with them: erratum executing-infantry)."""
    if assaulting(company):
        return _ASSAULT_MOVE
    if dug_in(company) or company.state.get("leaving_dugout"):
        return _DUG_IN_MOVE
    return _NORMAL_MOVE


def injured_half(company: UnitState, b: Board) -> bool:
    """ "When the majority (50%+) of the sub-unit ... is injured, the unit suffers a halved movement speed":
    fresh injuries only (old ones "can move normally again")."""
    bases = U.bases_of(company, b.snap)
    fresh = sum(1 for u in bases if u.state.get("base_injury") == "fresh")
    return bool(bases) and 2 * fresh >= len(bases)


# -- the acts ------------------------------------------------------------------------------------------------
def forbidden(b: Board, act: Act) -> tuple[Refusal, ...]:
    """The refusals the rules of play give `act` now (none: allowed); nothing is judged in set-up."""
    if b.snap.turn < 1:
        return ()
    if isinstance(act, EditUnit):
        return _edited(b, act)
    if isinstance(act, MoveStand):
        return _moved(b, [b.snap.unit(act.unit_id)], {act.unit_id: (act.x, act.y)})
    if isinstance(act, MoveFormation):
        to = destinations(b, act)
        return _moved(b, [b.snap.unit(uid) for uid in to], to)
    if isinstance(act, Roll) and act.apply:
        return _rolled(b, act)
    return ()


def _edited(b: Board, act: EditUnit) -> tuple[Refusal, ...]:
    unit = b.snap.unit(act.unit_id)
    values = act.values
    out: list[Refusal] = []
    if unit.level != U.SUB_UNIT:
        return ()
    planning = U.planning_of(unit, b.by_id, b.ctx)
    planning_step = f"plan-{planning}"
    if any(k in values for k in ("sub_plan", "plan_target", "digging_in")) and b.step_id != planning_step:
        step = next(s for s in STEPS if s.id == planning_step)
        out.append(
            Refusal(
                f"{unit.name} plans in planning step {printed_number(step)}, {planning.replace('-', ' ')}: wait for it",
                f"{unit.name} is {planning.replace('-', ' ')} and plans in “{step.printed}” (PLANNING & "
                "EXECUTING: the players plan “for each unit based on their type and situation” in that order)",
                SRC_ORDER,
            )
        )
    command = b.command(unit)
    plan = values.get("sub_plan", unit.state.get("sub_plan", ""))
    if (
        ("sub_plan" in values or values.get("digging_in"))
        and not command
        and (plan or values.get("digging_in"))
    ):
        out.append(
            Refusal(
                f"Give {unit.name}'s strategic formation its high command first",
                "The Plans for a sub-unit are restricted to the Command given to the sub-unit's parent Strategic "
                "Formation (HIGH COMMANDS)",
                SRC_COMMANDS,
            )
        )
        return tuple(out)
    if values.get("sub_plan"):
        allowed = allowed_plans(b.ctx, command, dug_in(unit), bool(unit.state.get("under_fire")))  # type: ignore[arg-type]
        if plan not in allowed:
            situation = f"{'dug in' if dug_in(unit) else 'not dug in'}, {'under fire' if unit.state.get('under_fire') else 'safe'}"
            out.append(
                Refusal(
                    f"Under {command.upper()}, {situation}, {unit.name} may plan only: {', '.join(allowed)}",
                    f"The high commands chart allows a sub-unit whose SF is commanded to {command.upper()} and "
                    f"which is {situation} only {' or '.join(allowed)} (HIGH COMMANDS)",
                    f"{SRC_COMMANDS}; {b.ctx.citation('assault-column')}"
                    if command == "assault"
                    else SRC_COMMANDS,
                )
            )
    target = values.get("plan_target", unit.state.get("plan_target"))
    out += _carried_on(b, unit, command, plan, target, values)
    if plan == "assault" and target is None:
        out.append(
            Refusal(
                f"Name the enemy sub-unit {unit.name} assaults (its planned target)",
                f"“An Assault can only be directed directly towards an enemy within {ASSAULT_REACH_M}m” "
                "(ASSAULTING & MELEE COMBAT)",
                SRC_ASSAULT,
            )
        )
    if target is not None and plan == "assault":
        enemy = b.sub_unit(target)  # a base tapped on the map names its sub-unit
        cm = b.distance_cm(unit, enemy) if enemy is not None else None
        if cm is not None and cm * SCALE_M_PER_CM > ASSAULT_REACH_M:
            out.append(
                Refusal(
                    f"{enemy.name} is {cm * SCALE_M_PER_CM:.0f} m away: assault an enemy within {ASSAULT_REACH_M} m",  # type: ignore[union-attr]
                    f"“An Assault can only be directed directly towards an enemy within {ASSAULT_REACH_M}m” "
                    f"(ASSAULTING & MELEE COMBAT; 1 cm is {SCALE_M_PER_CM} scale metres)",
                    SRC_ASSAULT,
                )
            )
    if values.get("digging_in"):
        out += _dig_refused(b, unit, command)
    if values.get("leaving_dugout") and not (
        dug_in(unit) and U.is_infantry(unit.kind) and plan in MOVING_PLANS
    ):
        out.append(
            Refusal(
                f"Only dug in infantry planning to leave are marked: {unit.name} is not one",
                f"“{STEPS[STEP_INDEX['execute-3']].printed}”: a sub-unit that is dug in, infantry, and plans to "
                "move (PLANNING & EXECUTING)",
                SRC_ORDER,
            )
        )
    return tuple(out)


def carries_assault(b: Board, unit: UnitState, command: str) -> UnitState | None:
    """The enemy a sub-unit that fell short in its assault must carry on assaulting this bound, while its
    command and situation still allow the assault and the enemy is in reach (None: it is free)."""
    enemy = b.sub_unit(unit.state.get("assault_target"))
    if enemy is None or enemy.killed or not command:
        return None
    allowed = allowed_plans(b.ctx, command, dug_in(unit), bool(unit.state.get("under_fire")))  # type: ignore[arg-type]
    cm = b.distance_cm(unit, enemy)
    if "assault" not in allowed or (cm is not None and cm * SCALE_M_PER_CM > ASSAULT_REACH_M):
        return None
    return enemy


def _carried_on(
    b: Board, unit: UnitState, command: str, plan: str, target: Any, values: Mapping[str, Any]
) -> list[Refusal]:
    """A sub-unit carrying an assault plans it again, at the same enemy (ASSAULTING & MELEE COMBAT)."""
    if not (values.get("sub_plan") or "plan_target" in values) or not plan:
        return []
    enemy = carries_assault(b, unit, command)
    aimed = b.sub_unit(target) if target is not None else enemy
    if enemy is None or (plan == "assault" and aimed is not None and aimed.id == enemy.id):
        return []
    return [
        Refusal(
            f"{unit.name} fell short of {enemy.name}: it must plan to assault {enemy.name} again",
            f"“{_CARRY_ON_QUOTE}” (ASSAULTING & MELEE COMBAT): {command.upper()} still allows it to assault",
            SRC_ASSAULT,
        )
    ]


def _dig_refused(b: Board, unit: UnitState, command: str) -> list[Refusal]:
    if U.is_vehicle(unit.kind):
        return [
            Refusal(
                f"{unit.name} is a vehicle: vehicles may never dig in",
                "“Vehicles may never dig in” (SPECIAL TROOP TYPES: VEHICLES)",
                SRC_VEHICLES,
            )
        ]
    if U.is_artillery(unit.kind) and not b.ctx.value("dug-in-artillery"):
        return [
            Refusal(
                f"{unit.name} is artillery: artillery can never dig in",
                "“all artillery has to spend one bound packing or unpacking to move/fire, and can never dig in” "
                "(ARTILLERY)",
                b.ctx.citation("dug-in-artillery"),
            )
        ]
    if not DIG_IN.get(command, False):  # type: ignore[call-overload]
        return [
            Refusal(
                f"Under {command.upper()} {unit.name} may not dig in: only under ADVANCE or HOLD",
                f"“{_DIG_QUOTE}”: the chart's “Can choose to dig in?” reads Yes for ADVANCE and HOLD, No for "
                "ASSAULT and RETREAT (DIGGING IN & COVER)",
                SRC_COVER,
            )
        ]
    if dug_in(unit):
        return [
            Refusal(
                f"{unit.name} is already dug in",
                "A company dug in stays dug in while it stays put (DIGGING IN & COVER)",
                SRC_COVER,
            )
        ]
    return []


def destinations(b: Board, act: MoveFormation) -> dict[int, tuple[float, float]]:
    """Where a formation move takes each of its stands on the table: shifted, turned about their centre."""
    top = b.snap.unit(act.unit_id)
    stands = [
        u for u in leaves_under(top, b.snap.units) if u.x is not None and u.y is not None and not u.killed
    ]
    to = shifted_about_centre([(u.x or 0, u.y or 0) for u in stands], act.dx, act.dy, act.turn_deg)
    return {u.id: p for u, p in zip(stands, to, strict=True)}


def move_allowance(
    b: Board, company: UnitState, start: tuple[float, float], end: tuple[float, float]
) -> tuple[float, list[MoveTerrain]]:
    """How far a base of `company` may move this bound from `start` to `end` (cm; the `move` resolver's
    answer: speed class, the terrain moved from and in added together, assault, halved by injury)."""
    terrains = list(dict.fromkeys([b.ground.moving_at(start), b.ground.moving_at(end)]))
    given = (company.kind, tuple(terrains), assaulting(company), injured_half(company, b))
    if given not in b.allowances:  # the same answer for each base of a kind on the same ground
        req = MoveRequest.model_validate(
            {
                "unit": given[0],
                "terrain": terrains,
                "assaulting": given[2],
                "injured": given[3],
                "variants": dict(b.snap.variants),
            }
        )
        res = get_ruleset(Earth2mm.id).resolve("move", req)
        b.allowances[given] = float(res.evaluation.outcome["distance_cm"])
    return b.allowances[given], terrains


def _moved(
    b: Board, stands: Sequence[UnitState], to: Mapping[int, tuple[float, float]]
) -> tuple[Refusal, ...]:
    out: list[Refusal] = []
    seen_companies: set[int] = set()
    for base in stands:
        company = U.sub_unit_of(base, b.by_id)
        if company is None or base.x is None or base.y is None or company.kind not in UNITS:
            continue
        plan = company.state.get("sub_plan", "")
        if company.id not in seen_companies:
            seen_companies.add(company.id)
            if company.state.get("digging_in") or plan not in MOVING_PLANS:
                why = (
                    "is digging in"
                    if company.state.get("digging_in")
                    else f"planned to {plan or 'do nothing'}"
                )
                out.append(
                    Refusal(
                        f"{company.name} {why}: it stays put this bound",
                        "Every sub-unit's action is made using the Plan/Execute system; digging in “means the "
                        "company must stay put for a whole turn” (HIGH COMMANDS; DIGGING IN & COVER)",
                        f"{SRC_COMMANDS}; {SRC_COVER}",
                    )
                )
                continue
            if packing(company):
                out.append(
                    Refusal(
                        f"{company.name} spends this bound packing its guns: it moves next bound",
                        f"“{_PACK_QUOTE}” (ARTILLERY): {company.name} is not packed yet, so this bound it packs",
                        SRC_ARTILLERY,
                    )
                )
                continue
            step = moving_step(company)
            if b.step_id != step:
                s = next(x for x in STEPS if x.id == step)
                out.append(
                    Refusal(
                        f"{company.name} moves in executing step {printed_number(s)}: wait for it",
                        f"EXECUTING {s.printed} (PLANNING & EXECUTING): {company.name} moves then",
                        SRC_ORDER,
                    )
                )
                continue
        x, y = to[base.id]
        if plan == _FIND_COVER and (nearer := _cover_found(b, company, (base.x, base.y), (x, y))) is not None:
            out.append(nearer)
            continue
        allowed, terrains = move_allowance(b, company, (base.x, base.y), (x, y))
        done = float(base.state.get("moved_cm", 0.0))
        step_cm = math.hypot(x - base.x, y - base.y)
        if done + step_cm > allowed + 1e-6:
            out.append(
                Refusal(
                    f"{base.name} may move {allowed:g} cm this bound ({done:g} moved): move it at most {max(0.0, allowed - done):g} cm",
                    f"{UNITS[company.kind].name} moves {allowed:g} cm this bound from and in {' and '.join(terrains)}"
                    + (", assaulting" if assaulting(company) else "")
                    + (", halved by injuries" if injured_half(company, b) else "")
                    + " (DIGGING IN & COVER; ARMING and RESILIENCE)",
                    SRC_COVER,
                )
            )
    return tuple(out)


def _cover_found(
    b: Board, company: UnitState, start: tuple[float, float], end: tuple[float, float]
) -> Refusal | None:
    """A base finding cover ends its move in better cover than it left, or nearer to some (None), else the
    refusal (HIGH COMMANDS: "in or nearer to a better cover location"): cover as the cover table ranks it."""
    here = cover_at(start, b.ground.index, b.ctx)
    there = cover_at(end, b.ground.index, b.ctx)
    # The stationary column: open -2R, rough -1R, defensible +1R, fortification +2R.
    ranks: dict[str, int] = {t: r[1] for t, r in COVER.items()}
    if ranks[there] > ranks[here]:
        return None
    better = [
        f.geometry
        for f in b.ground.index.features
        if ranks.get(cover_class(f, b.ctx), ranks["open"]) > ranks[here]
    ]
    if b.ctx.value("find-cover") == "nearest" and better:  # erratum find-cover
        better = [min(better, key=lambda g: g.distance(Point(start)))]
    if any(g.distance(Point(end)) < g.distance(Point(start)) - 1e-6 for g in better):
        return None
    return Refusal(
        f"{company.name} finds cover: end the move in or nearer to cover better than {here} ground",
        f"“{_FIND_COVER_QUOTE}” (HIGH COMMANDS): it would end in {there} ground, "
        + ("no nearer to better cover" if better else "and there is no better cover on the table"),
        b.ctx.citation("find-cover"),
    )


def _rolled(b: Board, act: Roll) -> tuple[Refusal, ...]:
    return _shot(b, act) if act.resolver == SHOOT else ()


def _shot(b: Board, act: Roll) -> tuple[Refusal, ...]:
    shooter, target = b.sub_unit(act.unit_id), b.sub_unit(act.target_id)
    if shooter is None or target is None or shooter.kind not in UNITS:
        return ()
    if melee_now(b.snap, act.fields):
        return _melee(shooter, target)
    if shooter.state.get("fired_this_bound"):
        return (
            Refusal(
                f"{shooter.name} has shot this bound: its plan was one shot",
                "“the players will systematically plan moves/shoots for each unit” (PLANNING & EXECUTING): "
                "a sub-unit's plan is one shot, worked out in the first executing step that names it",
                b.ctx.citation("one-shot-a-bound"),
            ),
        )
    return ()


def _melee(a: UnitState, d: UnitState) -> tuple[Refusal, ...]:
    """Melee only between sub-units one of which assaulted the other (base contact is the shot's to measure)."""

    def assaulted(x: UnitState, y: UnitState) -> bool:
        return x.state.get("assault_target") == y.id or (
            x.state.get("sub_plan") == "assault" and x.state.get("plan_target") == y.id
        )

    if assaulted(a, d) or assaulted(d, a):
        return ()
    return (
        Refusal(
            f"{a.name} and {d.name} fight in melee only if one assaulted the other",
            "“Troops do not have to be assaulted to get into base-to-base contact with an enemy, but they do "
            "have to have been assaulted themselves. You cannot casually walk your troops into your enemy's!” "
            "(ASSAULTING & MELEE COMBAT)",
            SRC_ASSAULT,
        ),
    )
