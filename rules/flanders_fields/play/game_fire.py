"""What Flanders Fields forbids of a shot beyond the step, the side and the orders (the turn's `forbidden`, with
game_orders'): a firer whose state forbids fire (suppressed, its crew gone, limbered or on its packs), and a
target out of range, out of arc or out of sight, or, for a machine gun, not the nearest troops. The same
check marks the stands a firer may not take as its target while the player picks one (`target_marks`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from rules.core.acts import Act, Roll
from rules.core.errors import Refusal
from rules.core.records import Snapshot, TargetMark, UnitState
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.reference import ARCS, ARCS_OF_FIRE
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.errata import MG_ARC
from rules.flanders_fields.play.game_table import terrain_index
from rules.flanders_fields.play.table_rules import ARC_SIZES
from rules.flanders_fields.play.units import FIRER
from rules.flanders_fields.resolvers.shooting import (
    RESOLVER,
    SRC_BEATEN_ZONE,
    ShootingRequest,
    max_range,
)
from rules.flanders_fields.resolvers.visibility import SRC_VISIBILITY
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.table.arcs import arc_polygon
from rules.table.bases import Stand
from rules.table.coverage import AREA_EPS
from rules.table.los import line_of_sight
from rules.table.placed import stand_of

# -- the firer's state ------------------------------------------------------------------------------------------
SUPPRESSED = "A suppressed unit may not move or fire and has its close combat ability reduced."
SRC_SUPPRESSED = cite("SUPPRESSION")
LIMBERING = "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack."
SRC_LIMBERING = cite("MOVEMENT, MOVEMENT DISTANCES")
ABANDONED = (
    'A morale result of "Retreat ..., become Suppressed, abandon crewed weapons": the crew has left its '
    "weapon, so no one is there to fire it."
)


def firer_refusals(snap: Snapshot, firer: UnitState) -> tuple[Refusal, ...]:
    """What the firer's own state forbids of any shot, whatever the target."""
    name = firer.name
    out = []
    if firer.state.get("suppression", 0) > 0:
        sentence = f"{name} is suppressed and may not fire: remove a suppression level first"
        out.append(Refusal(sentence, SUPPRESSED, SRC_SUPPRESSED))
    if firer.state.get("crew_abandoned"):
        sentence = f"{name}'s crew abandoned it: it may not fire until the crew is back at the gun"
        out.append(Refusal(sentence, ABANDONED, cite(T.MORALE_SECTION, snap.period)))
    if firer.state.get("limbered"):
        out.append(Refusal(f"{name} is limbered: unlimber it first (1 order)", LIMBERING, SRC_LIMBERING))
    if firer.state.get("packed"):
        out.append(Refusal(f"{name} is on its packs: unpack it first (1 order)", LIMBERING, SRC_LIMBERING))
    return tuple(out)


# -- the target -------------------------------------------------------------------------------------------------
# ARCS OF FIRE, by the firing table's firer: the arc shape each is measured with (rules.table.arcs); tanks
# ("Dependent on type of machine"), gas and flamethrowers have none the table can draw.
ARC_KIND = {
    **{f: "infantry" for f in ("infantry", "lmg-unit", "cavalry")},
    **{f: "artillery" for f in T.FIELD_ARTILLERY | {"heavy-artillery", "super-heavy-artillery"}},
    **{f: "mortar" for f in T.MORTAR_FIRERS},
    "mg": "mg",
}
ARC_RULE = (
    "Troops and weapons have specific arcs of fire and/or beaten zones which are used to determine if a unit "
    "or weapon may fire at a target without requiring an order to reface."
)
MG_PIVOT_DEG = float(ARCS_OF_FIRE["machine-gun"]["free_pivot_deg"])
MG_PIVOT = ARCS_OF_FIRE["machine-gun"]["text"]
RANGE_RULE = (
    "Maximum effective ranges for weapons are shown below ... for game purposes those given below are for "
    "effective direct shooting."
)
SIGHT_RULE = "Direct: the shooting unit must have a direct line of sight to the target."
NEAREST_RULE = (
    "The initial point of aim for a machine gun must be the nearest troops, the beaten zone extends for 15cm "
    "(10cm for block houses) behind the rear edge of the first base attacked."
)


@dataclass(frozen=True)
class Shot:
    """What a firer's shot reads of the table: its firing-table firer, the weapon's reach, its arc, and
    whether it fires directly (so needs sight and an arc)."""

    firer: str
    limit_cm: float | None
    min_cm: float
    limit_source: str
    direct: bool
    stand: Stand | None


def _shot(snap: Snapshot, firer: UnitState, given: Mapping[str, Any]) -> Shot | None:
    """The shot `firer` makes with the fields the player gave (a special rule, indirect fire); None when the
    resolver would refuse the request itself (it answers the field)."""
    kind = given.get("firer", FIRER.get(firer.kind))
    try:
        req = ShootingRequest.model_validate(
            {
                "period": snap.period,
                "variants": dict(snap.variants),
                "range_cm": 0,
                **{k: given[k] for k in ("target", "cover", "indirect", "special_rule") if k in given},
                "firer": kind,
            }
        )
        ctx = FlandersFields().context(snap.period, snap.variants)
    except (ValidationError, ValueError):
        return None
    limit, source = max_range(req, ctx)
    sight = req.firer not in T.MORTAR_FIRERS and req.firer != "gas" and not req.indirect
    spec = T.FIRER_SPECS[req.firer]
    return Shot(
        req.firer, limit, float(spec.min_range_cm), source or spec.range_source, sight, stand_of(firer, BASES)
    )


def _in_arc(snap: Snapshot, shot: Shot, target: Stand) -> bool:
    kind = ARC_KIND.get(shot.firer)
    me = shot.stand
    if kind is None or me is None:
        return True
    # "Model may pivot up to 45o as part of a fire action": a machine gun's arc, widened by the pivot.
    mg_half = float(FlandersFields().context(snap.period, snap.variants).value(MG_ARC)) + MG_PIVOT_DEG
    spec = me.spec
    arc = arc_polygon(kind, me.center, me.facing_deg, spec.width_cm, spec.depth_cm, ARC_SIZES, mg_half)
    return arc.intersection(target.polygon()).area > AREA_EPS


@dataclass(frozen=True)
class _Marked:
    mark: str
    refusal: Refusal


def _geometry(
    snap: Snapshot, firer: UnitState, shot: Shot, target: UnitState, range_cm: float | None
) -> tuple[float, _Marked | None] | None:
    """The target's distance and why the firer may not take it (None: it may), by range (the tape's when
    given), arc and sight; None when either stand is off the table (nothing to measure)."""
    me, it = shot.stand, stand_of(target, BASES)
    if me is None or it is None:
        return None
    measured = float(me.polygon().distance(it.polygon()))
    d = measured if range_cm is None else range_cm
    t, name = target.name, firer.name
    if shot.limit_cm is not None and d > shot.limit_cm:
        sentence = f"{t} is {d:.0f} cm away, beyond {name}'s {shot.limit_cm:g} cm: pick a nearer target"
        why = f"{RANGE_RULE} {shot.firer}: {shot.limit_cm:g} cm"
        return measured, _Marked("out of range", Refusal(sentence, why, shot.limit_source))
    if d < shot.min_cm:
        sentence = (
            f"{t} is {d:.0f} cm away, inside {name}'s {shot.min_cm:g} cm minimum: pick a farther target"
        )
        why = f"{RANGE_RULE} {shot.firer}: {shot.min_cm:g} cm at least"
        return measured, _Marked("too close", Refusal(sentence, why, shot.limit_source))
    if shot.direct and not _in_arc(snap, shot, it):
        if shot.firer == "mg":
            sentence = f"{t} is outside {name}'s arc even pivoted {MG_PIVOT_DEG:g}°: turn it first (a move)"
            return measured, _Marked("out of arc", Refusal(sentence, MG_PIVOT, ARCS))
        sentence = f"{t} is outside {name}'s arc of fire: reface it first (a move)"
        return measured, _Marked("out of arc", Refusal(sentence, ARC_RULE, ARCS))
    if shot.direct:
        sight = line_of_sight(me, it, terrain_index(snap.terrain))
        if not sight.clear:
            by = sight.blocked_by.kind if sight.blocked_by else "terrain"
            sentence = f"{name} cannot see {t}: the line is blocked by {by}"
            return measured, _Marked("out of sight", Refusal(sentence, SIGHT_RULE, SRC_VISIBILITY))
    return measured, None


def _enemies(snap: Snapshot, firer: UnitState) -> list[UnitState]:
    return [u for u in snap.units if u.side != firer.side and not u.killed and stand_of(u, BASES) is not None]


def _marked(
    snap: Snapshot, firer: UnitState, given: Mapping[str, Any], targets: Sequence[UnitState]
) -> dict[int, _Marked | None]:
    """Each of `targets` (by id) with why the firer may not take it, or None. A machine gun's first target
    must be the nearest troops it may fire at (none is refused for a beaten-zone target, given as such)."""
    shot = _shot(snap, firer, given)
    if shot is None:
        return {}
    tape = given.get("range_cm")
    out: dict[int, _Marked | None] = {}
    reach: dict[int, float] = {}
    for t in targets:
        got = _geometry(snap, firer, shot, t, tape if isinstance(tape, int | float) else None)
        if got is not None:
            out[t.id] = got[1]
            reach[t.id] = got[0]
    if shot.firer != "mg" or not shot.direct or given.get("beaten_zone_index"):
        return out
    may = {
        t.id: d for t, d in ((t, reach.get(t.id)) for t in targets) if d is not None and out.get(t.id) is None
    }
    others = [u for u in _enemies(snap, firer) if u.id not in reach]
    for u in others:
        got = _geometry(snap, firer, shot, u, None)
        if got is not None and got[1] is None:
            may[u.id] = got[0]
    if not may:
        return out
    nearest_id = min(may, key=lambda i: (may[i], i))
    nearest = snap.unit(nearest_id)
    for tid, d in may.items():
        if tid in out and d > may[nearest_id] + 1e-6:
            sentence = f"{firer.name} must aim first at the nearest troops, {nearest.name} ({may[nearest_id]:.0f} cm)"
            out[tid] = _Marked("not the nearest", Refusal(sentence, NEAREST_RULE, SRC_BEATEN_ZONE))
    return out


def target_marks(snap: Snapshot, unit_id: int, resolver: str) -> tuple[TargetMark, ...]:
    """The other side's stands on the table a shot by `unit_id` may not take as its target, each with why."""
    if resolver != RESOLVER:
        return ()
    firer = snap.unit(unit_id)
    marked = _marked(snap, firer, {}, _enemies(snap, firer))
    return tuple(
        TargetMark(tid, m.mark, str(m.refusal), m.refusal.why, m.refusal.source)
        for tid, m in marked.items()
        if m is not None
    )


def fire_forbidden(snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
    """What Flanders Fields forbids of a shot: the firer's state, then its target (range, arc, sight, and a
    machine gun's nearest troops)."""
    if not isinstance(act, Roll) or act.resolver != RESOLVER or act.unit_id is None:
        return ()
    firer = snapshot.unit(act.unit_id)
    out = firer_refusals(snapshot, firer)
    if act.target_id is not None:
        target = snapshot.unit(act.target_id, "target_id")
        m = _marked(snapshot, firer, act.fields, [target]).get(target.id)
        if m is not None:
            out = (*out, m.refusal)
    return out
