"""2mm Earth 1418's rolls in a game: a shot's request filled from the table (shooting, shooting while
assaulting, melee), the hits it scores waiting on the target for the aggressor to allocate, the allocation
injuring then removing bases, the recovery die of an injured base under fire from a new shooter, and the
rolls a stand's card offers by its sub-unit's state.

Who injured a base is kept on it (`injured_by`): "This reduction stays for as long as the target platoon is
under fire from the SAME shooter. If it remains under fire but from a different shooter, it rolls a recovery
die" (ARMING and RESILIENCE); a new shooter is one that has shot at its sub-unit this bound."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.errors import Refusal, RulesError
from rules.core.game import GameRules
from rules.core.records import (
    Change,
    Claims,
    Filled,
    FillRequest,
    SetState,
    Snapshot,
    StandAct,
    TargetMark,
    UnitState,
)
from rules.core.rolls import Outcome, RollTerms
from rules.core.ruleset import Context, Erratum, Reading
from rules.earth2mm.data import (
    SCALE_M_PER_CM,
    SRC_ARMING,
    SRC_ASSAULT,
    SRC_COVER,
    SRC_ORDER,
    SRC_UNITS,
    UNITS,
)
from rules.earth2mm.play.errata import JUDGED_BY_EYE
from rules.earth2mm.play.judge import assaulting
from rules.earth2mm.play.shots import (
    Measured,
    built_in_resilience,
    company_of,
    gassed,
    ground,
    melee_now,
    posture,
    refused,
    shot,
    stands,
)
from rules.earth2mm.play.steps import SRC_BOUNDS
from rules.earth2mm.play.units import bases_of, context, sub_unit_of
from rules.earth2mm.resolvers import ALLOCATION_RULE, ShootRequest, pool
from rules.earth2mm.ruleset import Earth2mm
from rules.table.bases import BaseSpec

SHOOT, RECOVERY, ALLOCATE = "shoot", "recovery", "allocate-hits"
# What the table keeps of its rolls' requests: the hits waiting and the bases they land on, a sub-unit's
# bases, kind, assault, injuries and resilience ("The sub-unit targeted will be made up of bases identical to
# each other, so Resilience should be easily established"), and whether a shot is melee: the bound's melee step
# says so ("Resolve melee using the m side of Arming m/r", BOUNDS; rules.earth2mm.play.shots.melee_now). The
# ranges a shot needs are the table's refusals, never a request's field, so none is measured by the tape here.
# A sub-unit's cover ("Troops can gain a cover bonus even if they are not dug in: Moving Stationary Dug in",
# DIGGING IN & COVER; "A unit moving from one type of terrain into another counts as being in whatever the
# weaker type was") and a shooter under gas ("Short-term Gas ... Target suffers -1A -1R") are what the players
# see on the table, the book silent on who judges (erratum judged-by-eye): given, they are taken and marked as
# the player's beside the map's reading.
CLAIMS = Claims(
    kept=frozenset(
        {
            "hits",
            "sub_unit",
            "shooter",
            "bases",
            "assaulting",
            "target",
            "target_formation_resilience",
            "target_bases",
            "target_injured",
            "resilience",
            "melee",
        }
    ),
    seen=frozenset({"target_cover", "cover", "shooter_gassed"}),
    judged=JUDGED_BY_EYE,
)
RECOVERY_RULE = (
    "If it remains under fire but from a different shooter, it rolls a recovery die. A recovery die is when a "
    "platoon must roll equal to or under its own Resilience value (a roll of 6 fails). If it succeeds in "
    "rolling <=R, then its movement is restored even under fire."
)

Earth2mm.add_errata(
    Erratum(
        "recovery-repeat",
        "How often a platoon rolls its recovery die under the same new shooter",
        (
            Reading(
                "once-a-shooter",
                "Once: a success turns its fresh injury old (movement restored even under fire); after a "
                "failure the new shooter's fire is the fire that keeps its movement halved, so it rolls again "
                "only under yet another shooter's.",
                SRC_ARMING,
                "once",
            ),
        ),
        default="once-a-shooter",
        note="The text says when a recovery die is rolled, not whether a failed one is rolled again under "
        "the same fire; rolled at will it would always succeed in the end.",
    ),
)


def injured(company: UnitState, snap: Snapshot) -> list[UnitState]:
    """A sub-unit's injured bases (fresh or old)."""
    return [b for b in bases_of(company, snap) if b.base_injury]


def new_shooter(base: UnitState, snap: Snapshot) -> int | None:
    """The shooter under whose fire a freshly injured base rolls its recovery die now, if any: a sub-unit that
    has shot at its sub-unit this bound since the one that injured it did (any, if that one has not)."""
    company = sub_unit_of(base, snap.by_id)
    if base.level != "platoon" or base.killed or base.base_injury != "fresh" or company is None:
        return None
    by = list(company.shot_at_by)
    since = by[by.index(base.injured_by) + 1 :] if base.injured_by in by else by
    others = [s for s in since if s != base.injured_by]
    return others[-1] if others else None


# -- what the table refuses before anything is rolled -----------------------------------------------------------
def refused_now(snap: Snapshot, request: FillRequest, resolver: str, bases: Mapping[str, BaseSpec]) -> None:
    """Refuse (a RulesError naming the unit or the target, with the rule) a roll the table does not allow now:
    a shot at a sub-unit out of range, out of sight, not its planned target, of its own side or with hits
    still waiting; a recovery die not due; an allocation of hits that do not wait."""
    if resolver == RECOVERY:
        base = snap.unit(request.unit_id, "unit_id") if request.unit_id is not None else None
        if base is None or new_shooter(base, snap) is None:
            raise RulesError(
                "unit_id",
                "pick a freshly injured base under a new shooter's fire: no other rolls a recovery die",
                source=SRC_ARMING,
                why=RECOVERY_RULE,
            )
        return
    unit = company_of(snap, request.unit_id, "unit_id")
    target = company_of(snap, request.target_id, "target_id")
    if resolver == ALLOCATE and (target.hits_from != unit.id or not target.hits_to_allocate):
        raise RulesError(
            "target_id",
            f"no hits of {unit.name} wait on {target.name}: pick the sub-unit it hit",
            source=SRC_ARMING,
            why=ALLOCATION_RULE,
        )
    if resolver == SHOOT:
        # Whether it is melee is the table's (CLAIMS): a claim of it is weighed with the others.
        refused(shot(snap, unit, target, bases, context(snap), melee_now(snap, {})))


# -- fill -----------------------------------------------------------------------------------------------------
def fill(snap: Snapshot, request: FillRequest, resolver: str, bases: Mapping[str, BaseSpec]) -> list[Filled]:
    """What the table knows of the request: as much as the units named tell (none named, nothing)."""
    out: list[Filled] = []

    def put(field: str, value: Any, why: str, source: str) -> None:
        if field in request.fields and field not in request.given:
            out.append(Filled(field, value, why, source))

    ctx = context(snap)
    unit = _company(snap, request.unit_id)
    if unit is None:
        return out
    if resolver == RECOVERY:
        r, why, source = built_in_resilience(unit, snap, ctx)
        put("resilience", r, why, source)
        cover, why = cover_of(unit, snap, bases, ctx)
        put("cover", cover, why, SRC_COVER)
        return out
    target = _company(snap, request.target_id)
    if resolver == ALLOCATE and target is not None:
        waiting = target.hits_to_allocate if target.hits_from == unit.id else 0
        put("hits", waiting, f"{waiting} hit(s) of {unit.name} wait on {target.name}", SRC_ARMING)
        rank = [{"base": b.id, "injury": b.base_injury} for b in bases_of(target, snap)]
        put("sub_unit", rank, f"{target.name}'s bases along its rank, as they stand", SRC_ARMING)
        melee = melee_now(snap, {})
        put("melee", melee, "scored in the melee step" if melee else "scored shooting", SRC_ASSAULT)
    if resolver != SHOOT:
        return out
    melee = melee_now(snap, request.given)
    s = None if target is None else shot(snap, unit, target, bases, ctx, melee)
    put("shooter", unit.kind, f"{unit.name} is {UNITS[unit.kind].name}", SRC_UNITS)
    if melee:
        n = len(s.contact) if s is not None else 0
        whom = f" with {target.name}" if target is not None else ""
        put("melee", True, "the bound's melee step: the m side of Arming m/r", SRC_BOUNDS)
        put(
            "bases",
            n,
            f"only the {n} base(s) of {unit.name} in base-to-base contact{whom} count",
            SRC_ASSAULT,
        )
    else:
        n = len(bases_of(unit, snap))
        put("melee", False, "an executing step: it shoots with the r side of Arming m/r", SRC_ORDER)
        put("bases", n, f"{unit.name} has {n} base(s)", SRC_ARMING)
        on = assaulting(unit)
        put("assaulting", on, f"{unit.name} is {'' if on else 'not '}assaulting", SRC_ASSAULT)
    shooter_gas = gassed(stands(unit, snap, bases), snap.board)
    put("shooter_gassed", shooter_gas, f"{unit.name} is {'' if shooter_gas else 'not '}under gas", SRC_UNITS)
    if s is None or target is None:
        return out
    far = (
        ""
        if s.range_cm is None
        else f", {s.range_cm:.1f} cm ({s.range_cm * SCALE_M_PER_CM:.0f} scale metres) away, "
        f"{s.seeing} base(s) with a line"
    )
    put("target", target.kind, f"{target.name} is {UNITS[target.kind].name}{far}", SRC_UNITS)
    if UNITS[target.kind].resilience is None:
        r, why, source = built_in_resilience(target, snap, ctx)
        put("target_formation_resilience", r, why, source)
    cover, why = cover_of(target, snap, bases, ctx)
    put("target_cover", cover, why, SRC_COVER)
    live = bases_of(target, snap)
    hurt = injured(target, snap)
    put("target_bases", len(live), f"{target.name} has {len(live)} base(s)", SRC_ARMING)
    put("target_injured", len(hurt), f"{len(hurt)} of them injured", SRC_ARMING)
    return out


def _company(snap: Snapshot, unit_id: int | None) -> UnitState | None:
    try:
        return company_of(snap, unit_id, "unit_id")
    except RulesError:
        return None


def cover_of(
    company: UnitState, snap: Snapshot, bases: Mapping[str, BaseSpec], ctx: Context
) -> tuple[dict[str, Any], str]:
    """A sub-unit's cover as the resolvers take it (terrain, posture, the terrain it moves out of, gas)."""
    how, why_posture = posture(company, ctx)
    placed = stands(company, snap, bases)
    terrain, other, why_ground = ground(placed, snap, how == "moving", ctx)
    gas = gassed(placed, snap.board)
    cover = {"terrain": terrain, "posture": how, "from_terrain": other, "gassed": gas}
    return cover, f"{company.name}: {why_posture}, {why_ground}{', under gas' if gas else ''}"


# -- consequences ---------------------------------------------------------------------------------------------
def consequences(resolver: str, snap: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
    res = outcome.resolution
    if resolver == RECOVERY and outcome.unit_id is not None:
        base = snap.unit(outcome.unit_id)
        if res["outcome_key"] == "recovered":
            why = f"{base.name} recovers: its movement is restored even under fire"
            return (SetState(why, SRC_ARMING, base.id, "base_injury", "old"),)
        why = f"{base.name} fails to recover: its movement stays halved under the new shooter's fire"
        return (
            SetState(
                why, context(snap).citation("recovery-repeat"), base.id, "injured_by", new_shooter(base, snap)
            ),
        )
    unit = company_of(snap, outcome.unit_id, "unit_id")
    target = company_of(snap, outcome.target_id, "target_id")
    if resolver == SHOOT:
        return shot_landed(unit, target, res, bool(getattr(outcome.request, "melee", False)))
    if resolver == ALLOCATE:
        return hits_allocated(snap, unit, target, res, bool(getattr(outcome.request, "melee", False)))
    return ()


def shot_landed(
    unit: UnitState, target: UnitState, res: Mapping[str, Any], melee: bool
) -> tuple[Change, ...]:
    """The target has been shot at by the sub-unit, and its hits wait for the sub-unit's side to allocate."""
    changes: list[Change] = []
    if not melee and not unit.fired_this_bound:
        changes.append(
            SetState(f"{unit.name} has shot this bound", SRC_ARMING, unit.id, "fired_this_bound", True)
        )
    if unit.id not in target.shot_at_by:
        by = [*target.shot_at_by, unit.id]
        changes.append(
            SetState(f"{unit.name} shot at {target.name}", SRC_ARMING, target.id, "shot_at_by", by)
        )
    hits = int(res["outcome"]["injuries"]) + int(res["outcome"]["kills"])
    if hits:
        why = f"{hits} hit(s) of {unit.name} wait on {target.name}: the aggressor allocates them"
        source = f"{SRC_ASSAULT}; {SRC_ARMING}" if melee else SRC_ARMING
        changes += [
            SetState(why, source, target.id, "hits_to_allocate", hits),
            SetState(why, source, target.id, "hits_from", unit.id),
        ]
    return tuple(changes)


def hits_allocated(
    snap: Snapshot, unit: UnitState, target: UnitState, res: Mapping[str, Any], melee: bool
) -> tuple[Change, ...]:
    """Bases injured then removed as the aggressor allocated them; what is not yet allocated still waits."""
    source = f"{SRC_ASSAULT}; {SRC_ARMING}" if melee else SRC_ARMING
    done = res["outcome"]
    changes: list[Change] = []
    for b in done["injured"]:
        if b not in done["removed"]:
            why = f"{unit.name}'s hit injures {snap.unit(b).name}"
            changes += [
                SetState(why, source, b, "base_injury", "fresh"),
                SetState(why, source, b, "injured_by", unit.id),
                SetState(why, source, b, "injured_bound", snap.turn),
            ]
    for b in done["removed"]:
        changes.append(SetState(f"{unit.name}'s hit removes {snap.unit(b).name}", source, b, "killed", True))
    waiting = int(done["hits_waiting"])
    why = f"{waiting} hit(s) of {unit.name} still wait" if waiting else f"{unit.name}'s hits are allocated"
    changes.append(SetState(why, source, target.id, "hits_to_allocate", waiting))
    if not waiting:
        changes.append(SetState(why, source, target.id, "hits_from", None))
    return tuple(changes)


# -- the stand card -----------------------------------------------------------------------------------------------
def dice_before_target(company: UnitState, bases: int, melee: bool, assaulting: bool) -> int:
    """The dice a sub-unit's pool rolls before its target is known (a vehicle's re-rolls come with it)."""
    req = ShootRequest(
        shooter=company.kind, bases=max(1, bases), melee=melee, assaulting=assaulting, target=company.kind
    )
    return pool(req)[0]


# The rolls' terms in the book: what the table keeps, a player measures and the players judge by eye.
ROLL_TERMS = RollTerms(claims=CLAIMS)


class EarthRolls(GameRules):
    """2mm Earth 1418's rolls in a game, measured on the table with the kit's bases."""

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        if resolver_id not in (SHOOT, RECOVERY, ALLOCATE):
            return ()
        return tuple(fill(snapshot, request, resolver_id, self.book.kit.bases))

    def _before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]:
        if resolver_id in (SHOOT, RECOVERY, ALLOCATE):
            refused_now(snapshot, request, resolver_id, self.book.kit.bases)
        return ()

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        if resolver_id not in (SHOOT, RECOVERY, ALLOCATE):
            return ()
        return consequences(resolver_id, snapshot, outcome)

    def stand_acts(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
        bases = self.book.kit.bases
        stand = snapshot.unit(unit_id)
        if stand.killed:
            return ()
        try:
            company = company_of(snapshot, unit_id, "unit_id")
        except RulesError:
            return ()
        ctx = context(snapshot)
        name, cid = company.name, company.id
        chart = UNITS[company.kind]
        acts: list[StandAct] = []
        enemies = [
            u for u in snapshot.units if u.level == "company" and u.side != company.side and not u.killed
        ]
        if melee_now(snapshot, {}):
            contact = {e.id: shot(snapshot, company, e, bases, ctx, True).contact for e in enemies}
            touching = [e for e in enemies if contact[e.id]]
            if touching and chart.melee.dice:
                foes = ", ".join(e.name for e in touching)
                n = max(len(contact[e.id]) for e in touching)
                why = f"{name} is in base contact with {foes}"
                acts.append(
                    StandAct(
                        "Melee", SHOOT, cid, why, True, dice_before_target(company, n, True, False), True
                    )
                )
        elif chart.ranged.dice and not company.fired_this_bound:
            planned = company.assault_target if company.assault_target is not None else company.plan_target
            aim = snapshot.by_id.get(planned) if planned is not None else None
            at = f" at {aim.name}, its planned target" if aim is not None else ""
            assaults = assaulting(company)
            n = dice_before_target(company, len(bases_of(company, snapshot)), False, assaults)
            if assaults:
                why = f"{name} shoots as it assaults{at} (-1A)"
                acts.append(StandAct("Assault shooting", SHOOT, cid, why, True, n, True))
            else:
                acts.append(StandAct("Shoot", SHOOT, cid, f"{name} shoots{at}", True, n, True))
        shooter = new_shooter(stand, snapshot)
        if shooter is not None:
            by = snapshot.by_id.get(shooter)
            why = f"{stand.name}, freshly injured, is under fire from {by.name if by else 'a new shooter'}"
            acts.append(StandAct("Recovery die", RECOVERY, stand.id, why))
        for e in enemies:
            if e.hits_from == cid and e.hits_to_allocate:
                why = f"{e.hits_to_allocate} hit(s) of {name} wait on {e.name}"
                acts.append(StandAct("Allocate hits", ALLOCATE, cid, why, True, 0, order="order"))
        return tuple(acts)

    def target_marks(self, snapshot: Snapshot, unit_id: int, resolver_id: str) -> tuple[TargetMark, ...]:
        """The enemy bases the card's roll may not take as its target now, each with its reason."""
        bases = self.book.kit.bases
        if resolver_id not in (SHOOT, ALLOCATE):
            return ()
        company = company_of(snapshot, unit_id, "unit_id")
        ctx = context(snapshot)
        marks: list[TargetMark] = []
        table, melee = Measured.of(snapshot, bases), melee_now(snapshot, {})
        for e in snapshot.units:
            if e.level != "company" or e.side == company.side or e.killed:
                continue
            if resolver_id == SHOOT:  # only the first refusal marks the target
                refusals = shot(snapshot, company, e, bases, ctx, melee, table, first=True).refusals
            elif e.hits_from != company.id or not e.hits_to_allocate:
                sentence = f"No hits of {company.name} wait on {e.name}"
                refusals = (("no hits of it", Refusal(sentence, ALLOCATION_RULE, SRC_ARMING)),)
            else:
                refusals = ()
            if refusals:
                mark, r = refusals[0]
                marks += [TargetMark(b.id, mark, str(r), r.why, r.source) for b in bases_of(e, snapshot)]
        return tuple(marks)
