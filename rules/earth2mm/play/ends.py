"""What a 2mm Earth 1418 step still needs (the turn panel's list) and what the end of the bound does to the
table by itself: digging becomes dug in and dug in counts its bounds, a sub-unit that moved is no longer dug
in, the shots of the bound become the next bound's "under fire", a fresh injury no longer under fire becomes
an old one, an assault that fell short carries on, the bound's commands, plans and marks are cleared."""

from __future__ import annotations

from collections.abc import Callable

from rules.core.game import Need
from rules.core.records import Change, SetState, Snapshot, UnitState
from rules.earth2mm.data import COMMANDS, SRC_ARTILLERY, SRC_ASSAULT, SRC_COMMANDS, SRC_COVER, SRC_ORDER
from rules.earth2mm.play import units as U
from rules.earth2mm.play.fields import plan_anonymous
from rules.earth2mm.play.judge import (
    MOVING_PLANS,
    Board,
    dug_in,
    moving_step,
    packing,
    shooting_steps,
)
from rules.earth2mm.play.rolls import new_shooter
from rules.earth2mm.play.steps import PLANNING_STEPS, SRC_CASUALTIES


def _unit_id(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def needs(b: Board, step_id: str) -> list[str]:
    """What the current step still needs done, sub-unit by sub-unit, each by its name (the app names the
    snapshot's units so that no two share one)."""
    units = [u for u in b.snap.units if not u.killed]
    companies = [u for u in units if u.level == U.SUB_UNIT and u.kind in U.UNITS]
    if step_id == "high-commands":
        sfs = {c.parent_id for c in companies}
        return [
            f"a high command for {u.name}"
            for u in units
            if u.id in sfs and u.state.get("high_command") not in COMMANDS  # none, or a word the book lacks
        ]
    planning = dict(PLANNING_STEPS).get(step_id)
    if planning is not None:
        return [
            f"a plan for {c.name}"
            for c in companies
            if U.planning_of(c, b.by_id, b.ctx) == planning
            and not c.state.get("sub_plan")
            and not c.state.get("digging_in")
        ]
    if step_id == "execute-3":
        return [
            f"mark {c.name} as leaving its dugout"
            for c in companies
            if dug_in(c) and U.is_infantry(c.kind) and c.state.get("sub_plan") in MOVING_PLANS
            if not c.state.get("leaving_dugout")
        ]
    out: list[str] = [  # each allocated from the card of the sub-unit whose shot scored them (hits_from)
        Need(
            f"allocate the {c.state['hits_to_allocate']} hit(s) on {c.name}",
            _unit_id(c.state.get("hits_from")),
        )
        for c in companies
        if c.state.get("hits_to_allocate")
    ]
    if step_id.startswith("execute-"):
        # Every device reads these: a plan still its side's alone (an artillery sub-unit's, "Anon") is not told.
        told = [c for c in companies if not plan_anonymous(c)]
        out += [
            f"{c.name} shoots its planned target"
            for c in told
            if step_id in shooting_steps(c, b)
            and c.state.get("plan_target") is not None
            and not c.state.get("fired_this_bound")
        ]
        out += [
            f"{c.name} moves"
            for c in told
            if moving_step(c) == step_id
            and c.state.get("sub_plan") in MOVING_PLANS
            and not c.state.get("digging_in")
            and not c.state.get("moved_this_bound")
            and not packing(c)
        ]
    out += [
        f"a recovery die for {u.name}, under a new shooter's fire"
        for u in units
        if new_shooter(u, b.snap) is not None
    ]
    return out


def bound_ended(b: Board, drifted: Callable[[Snapshot], tuple[Change, ...]] | None) -> tuple[Change, ...]:
    """The end of the bound, unit by unit (then the smoke drifting, "after melee & casualties")."""
    out: list[Change] = []
    for u in b.snap.units:
        if u.killed:
            continue
        if u.level == U.SUB_UNIT:
            out += _sub_unit_ended(b, u)
        elif u.level == U.BASE:
            out += _base_ended(b, u)
        elif u.state.get("high_command"):
            out.append(SetState("a new bound: a new high command", SRC_COMMANDS, u.id, "high_command", ""))
    if drifted is not None:
        out += drifted(b.snap)
    return tuple(out)


def _set(u: UnitState, field: str, value: object, reason: str, source: str) -> list[Change]:
    return [SetState(reason, source, u.id, field, value)] if u.state.get(field) != value else []


def _sub_unit_ended(b: Board, c: UnitState) -> list[Change]:
    s = c.state
    moved = bool(s.get("moved_this_bound"))
    digging = bool(s.get("digging_in"))
    out: list[Change] = []
    # DIGGING IN & COVER: "digging in ... means the company must stay put for a whole turn"; "If a company moves
    # AT ALL, they no longer count as dug-in".
    if moved:
        out += _set(c, "dug_in_bounds", 0, f"{c.name} moved: no longer dug in", SRC_COVER)
    elif digging:
        out += _set(c, "dug_in_bounds", 1, f"{c.name} dug in", SRC_COVER)
    elif dug_in(c):
        bounds = int(s.get("dug_in_bounds", 0)) + 1
        out += _set(c, "dug_in_bounds", bounds, f"{c.name} dug in for {bounds} bounds", SRC_ORDER)
    # The situation the next bound plans by (HIGH COMMANDS: "under fire last turn") and EXECUTING (2): "who did
    # not move or dig in last turn".
    shot_at = bool(s.get("shot_at_by"))
    out += _set(
        c, "under_fire", shot_at, f"{c.name} {'was' if shot_at else 'was not'} under fire", SRC_COMMANDS
    )
    out += _set(c, "moved_last_bound", moved or digging, "moved or dug in this bound", SRC_ORDER)
    # ARTILLERY: "all artillery has to spend one bound packing or unpacking to move/fire": a bound planning a
    # move packs it, one planning none unpacks it.
    if U.is_artillery(c.kind):
        packed = s.get("sub_plan") in MOVING_PLANS
        said = f"{c.name} {'packed its guns to move' if packed else 'unpacked its guns'}"
        out += _set(c, "packed", packed, said, SRC_ARTILLERY)
    # An assault that fell short carries on ("they must continue assaulting the next turn").
    target = s.get("plan_target") if s.get("sub_plan") == "assault" else s.get("assault_target")
    enemy = b.by_id.get(target) if target is not None else None
    carried = target if enemy is not None and not enemy.killed and not b.in_contact(c, enemy) else None
    out += _set(c, "assault_target", carried, "the assault carries on into the next bound", SRC_ASSAULT)
    for field, cleared in (
        ("sub_plan", ""),
        ("plan_target", None),
        ("digging_in", False),
        ("shot_at_by", ()),
        ("fired_this_bound", False),
        ("moved_this_bound", False),
        ("leaving_dugout", False),
        ("hits_to_allocate", 0),
        ("hits_from", None),
    ):
        if s.get(field) not in (cleared, [] if cleared == () else cleared):
            out.append(SetState("a new bound", SRC_ORDER, c.id, field, cleared))
    return out


def _base_ended(b: Board, base: UnitState) -> list[Change]:
    out = _set(base, "moved_cm", 0.0, "a new bound", SRC_ORDER)
    company = U.sub_unit_of(base, b.by_id)
    if base.state.get("base_injury") != "fresh" or (company is not None and company.state.get("shot_at_by")):
        # Still under fire: halved while the same shooter fires; under a different one the recovery die was
        # this bound's (end-of-bound), and a fresh injury it did not restore stays fresh.
        return out
    # "old injuries are those that can move normally again": no longer under fire at all.
    reason = f"{base.name} is no longer under fire: an old injury"
    return [*out, SetState(reason, SRC_CASUALTIES, base.id, "base_injury", "old")]
