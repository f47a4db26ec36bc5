"""What Flanders Fields forbids of a shot beyond the step, the side and the orders (the turn's `forbidden`, with
game_orders'): a firer whose state forbids fire (suppressed, its crew gone, limbered or on its packs), and a
target out of range, out of arc or out of sight, or, for a machine gun, not the nearest troops; and a
suppressed stand moving. The same
check marks the stands a firer may not take as its target while the player picks one (`target_marks`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely import Polygon

from rules.core.acts import Act, MoveFormation, MoveStand, Roll
from rules.core.errors import Refusal
from rules.core.game import GameRules, leaves_under
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
from rules.table.bases import Stand, nearer_than_none
from rules.table.coverage import AREA_EPS
from rules.table.los import line_of_sight
from rules.table.placed import stand_of

# -- the firer's state ------------------------------------------------------------------------------------------
SUPPRESSED = "A suppressed unit may not move or fire and has its close combat ability reduced."
SRC_SUPPRESSED = cite("SUPPRESSION")
LIMBERING = "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack."
SRC_LIMBERING = cite("MOVEMENT, MOVEMENT DISTANCES")
# The morale table's results that leave a weapon without its crew.
ABANDONED = (
    "Retreat 40cm, become Suppressed, abandon crewed weapons. "
    "Retreat 20cm, become Suppressed, abandon crewed weapons."
)


def firer_refusals(snap: Snapshot, firer: UnitState) -> tuple[Refusal, ...]:
    """What the firer's own state forbids of any shot, whatever the target."""
    name = firer.name
    out = []
    if firer.state.get("suppression", 0) > 0:
        sentence = f"{name} is suppressed and may not fire: remove a suppression level first"
        out.append(Refusal(sentence, SUPPRESSED, SRC_SUPPRESSED, "recover-markers"))
    if firer.state.get("crew_abandoned"):
        sentence = f"{name}'s crew abandoned it: it may not fire until the crew is back at the gun"
        out.append(Refusal(sentence, ABANDONED, cite(T.MORALE_SECTION, snap.period)))
    if firer.state.get("limbered"):
        sentence = f"{name} is limbered: unlimber it first (1 order)"
        out.append(Refusal(sentence, LIMBERING, SRC_LIMBERING, "limbered"))
    if firer.state.get("packed"):
        sentence = f"{name} is on its packs: unpack it first (1 order)"
        out.append(Refusal(sentence, LIMBERING, SRC_LIMBERING, "packed"))
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
    """A firer's shot as the table measures it: who fires (its firing-table firer and its stand), the
    weapon's reach with its rule, and for direct fire (which needs sight) the arc it may fire into."""

    name: str
    side: str
    firer: str
    stand: Stand
    limit_cm: float | None
    min_cm: float
    limit_source: str
    direct: bool
    arc: Polygon | None


def _shot(snap: Snapshot, firer: UnitState, given: Mapping[str, Any]) -> Shot | None:
    """The shot `firer` makes with the fields the player gave (a special rule, indirect fire); None when it
    is off the table (nothing to measure) or the resolver would refuse the request itself (naming the field)."""
    stand = stand_of(firer, BASES)
    if stand is None:
        return None
    try:
        req = ShootingRequest.model_validate(
            {
                "period": snap.period,
                "variants": dict(snap.variants),
                "range_cm": 0,
                **{k: given[k] for k in ("target", "cover", "indirect", "special_rule") if k in given},
                "firer": given.get("firer", FIRER.get(firer.kind)),
            }
        )
        ctx = FlandersFields().context(snap.period, snap.variants)
    except ValueError:
        return None
    limit, source = max_range(req, ctx)
    spec = T.FIRER_SPECS[req.firer]
    direct = req.firer not in T.MORTAR_FIRERS and req.firer != "gas" and not req.indirect
    arc = None
    if direct and req.firer in ARC_KIND:
        # "Model may pivot up to 45o as part of a fire action": a machine gun's arc, widened by the pivot.
        mg_half = float(ctx.value(MG_ARC)) + MG_PIVOT_DEG
        base = stand.spec
        arc = arc_polygon(
            ARC_KIND[req.firer],
            stand.center,
            stand.facing_deg,
            base.width_cm,
            base.depth_cm,
            ARC_SIZES,
            mg_half,
        )
    source = source or spec.range_source
    return Shot(
        firer.name, firer.side, req.firer, stand, limit, float(spec.min_range_cm), source, direct, arc
    )


@dataclass(frozen=True)
class _Marked:
    mark: str
    refusal: Refusal


def _measured(
    snap: Snapshot, shot: Shot, target: UnitState, tape_cm: float | None
) -> tuple[float, _Marked | None] | None:
    """The target's distance from the firer and why the firer may not take it (None: it may), by range (the
    tape's when given), arc and sight; None when the target is off the table (nothing to measure)."""
    it = stand_of(target, BASES)
    if it is None:
        return None
    measured = float(shot.stand.polygon().distance(it.polygon()))
    d = measured if tape_cm is None else tape_cm
    t, name = target.name, shot.name
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
    if shot.arc is not None and shot.arc.intersection(it.polygon()).area <= AREA_EPS:
        if shot.firer == "mg":
            sentence = f"{t} is outside {name}'s arc even pivoted {MG_PIVOT_DEG:g}°: turn it first (a move)"
            return measured, _Marked("out of arc", Refusal(sentence, MG_PIVOT, ARCS))
        sentence = f"{t} is outside {name}'s arc of fire: reface it first (a move)"
        return measured, _Marked("out of arc", Refusal(sentence, ARC_RULE, ARCS))
    if shot.direct:
        sight = line_of_sight(shot.stand, it, terrain_index(snap.terrain))
        if not sight.clear:
            by = sight.blocked_by.kind if sight.blocked_by else "terrain"
            sentence = f"{name} cannot see {t}: the line is blocked by {by}"
            return measured, _Marked("out of sight", Refusal(sentence, SIGHT_RULE, SRC_VISIBILITY))
    return measured, None


def _enemies(snap: Snapshot, side: str) -> list[UnitState]:
    """The other side's stands on the table."""
    return [u for u in snap.units if u.side != side and stand_of(u, BASES) is not None]


def _marked(
    snap: Snapshot, firer: UnitState, given: Mapping[str, Any], targets: Sequence[UnitState]
) -> dict[int, _Marked | None]:
    """Each of `targets` on the table (by id) with why the firer may not take it, or None. A machine gun's
    first target must be the nearest troops it may fire at (a beaten-zone target, given as such, need not)."""
    shot = _shot(snap, firer, given)
    if shot is None:
        return {}
    tape = given.get("range_cm")
    tape_cm = float(tape) if isinstance(tape, int | float) and not isinstance(tape, bool) else None
    out: dict[int, _Marked | None] = {}
    # Each stand's distance where it is troops of the other side the MG may fire at, else None (as measured on
    # the table, the same for all): worked out once a stand, the targets' as they are marked without a tape.
    freed: dict[int, float | None] = {}
    for t in targets:
        got = _measured(snap, shot, t, tape_cm)
        if got is not None:
            out[t.id] = got[1]
            if tape_cm is None and t.side != shot.side:
                freed[t.id] = got[0] if got[1] is None else None
    if shot.firer != "mg" or not shot.direct or given.get("beaten_zone_index"):
        return out

    def free(u: UnitState) -> float | None:
        if u.id not in freed:
            got = None if u.side == shot.side else _measured(snap, shot, u, None)
            freed[u.id] = got[0] if got is not None and got[1] is None else None
        return freed[u.id]

    # The nearest troops the MG may fire at (the nearest id of those as near): measured nearest first by a
    # bound no nearer than their outlines, and no further than one that cannot be nearer than the nearest found.
    nearest: tuple[float, int] | None = None
    enemies = [(u, stand_of(u, BASES)) for u in _enemies(snap, shot.side)]
    bounded = sorted((nearer_than_none(shot.stand, it), u.id, u) for u, it in enemies if it is not None)
    for bound, uid, u in bounded:
        if nearest is not None and bound > nearest[0]:
            break
        d = free(u)
        if d is not None and (nearest is None or (d, uid) < nearest):
            nearest = (d, uid)
    if nearest is None:
        return out
    near = snap.unit(nearest[1])
    for tid, m in out.items():
        if m is None and (free(snap.unit(tid)) or 0.0) > nearest[0] + 1e-6:
            sentence = f"{shot.name} must aim first at the nearest troops, {near.name} ({nearest[0]:.0f} cm)"
            out[tid] = _Marked("not the nearest", Refusal(sentence, NEAREST_RULE, SRC_BEATEN_ZONE))
    return out


def moving(snap: Snapshot, act: Act) -> list[UnitState]:
    """The stands on the table a move moves or turns (a stand placed from off the table is deployed, not
    moved)."""
    if isinstance(act, MoveStand):
        u = snap.unit(act.unit_id)
        turned = (u.x, u.y, u.facing_deg) != (act.x, act.y, act.facing_deg)
        return [u] if turned and stand_of(u, BASES) is not None else []
    if isinstance(act, MoveFormation):
        return [u for u in leaves_under(snap.unit(act.unit_id), snap.units) if stand_of(u, BASES) is not None]
    return []


def fire_forbidden(snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
    """What Flanders Fields forbids of a shot: the firer's state, then its target (range, arc, sight, and a
    machine gun's nearest troops); and of a move, a suppressed stand moving (a morale result's retreat is
    moved by the referee's override)."""
    held = [u for u in moving(snapshot, act) if u.state.get("suppression", 0) > 0]
    if held:
        more = f" (and {len(held) - 1} more)" if len(held) > 1 else ""
        sentence = f"{held[0].name}{more} is suppressed and may not move: remove a suppression level first"
        return (Refusal(sentence, SUPPRESSED, SRC_SUPPRESSED, "recover-markers"),)
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


class FlandersFieldsTargets(GameRules):
    """The stands a Flanders Fields shot may not take as its target, marked while its target is picked (the
    game's rolls, `FlandersFieldsRolls`, are made of it)."""

    def target_marks(self, snapshot: Snapshot, unit_id: int, resolver_id: str) -> tuple[TargetMark, ...]:
        """The other side's stands on the table a shot by `unit_id` may not take as its target, each with why."""
        if resolver_id != RESOLVER:
            return ()
        firer = snapshot.unit(unit_id)
        marked = _marked(snapshot, firer, {}, _enemies(snapshot, firer.side))
        return tuple(
            TargetMark(tid, m.mark, str(m.refusal), m.refusal.why, m.refusal.source)
            for tid, m in marked.items()
            if m is not None
        )
