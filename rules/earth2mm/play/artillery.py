"""2mm Earth 1418's artillery in a game: each side's bound plan of bombardments and smoke or gas cordons, sealed
for the bound ("Artillery plans are done on a map", PLANNING & EXECUTING), landing in its executing step, the
bombardment fired as a card (rules.core.fire_cards) and the cordons drifting as the bound ends.

"Player multiplies the Arming value of the Artillery Strategic Formation ... with the number of bases firing.
The total is the maximum number of 'Shots' the player can allocate across the circle. Place a bombardment
circle (diameter 3") and every sub-unit with more than one base, or its only base, under the circle takes
damage as allocated by the player. They can choose to lay up to half the shots on a single target or can
distribute as far as one shot on every base ... if a shot(s) is chosen on a platoon more than half-way outside
the inner circle, any successful shots must be re-rolled" (ARTILLERY): the lookups `bombardment-circle` (who
is under it) and `bombard` (the shots) work it out; the hits then wait on each sub-unit for the firing side to
allocate them, as any shot's (`allocate-hits`).

"a cordon of smoke, 3" long for every battery firing, laid with its centre of the template's centre ... the
smoke-cordon will be angled 90 degrees from the wind and will travel 3" in that direction at the end of each
bound, after melee & casualties" (SMOKE SCREENS & POISON GAS): the lookup `smoke-cordon` lays and drifts it;
`gas-cloud` says whether short-term gas is still there."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_args

from shapely import Polygon

from rules.core.errors import RulesError
from rules.core.fire_cards import CardRoll, FireCard, Fired, FiredRoll
from rules.core.game import FirePlanTerms, GameRules, Node
from rules.core.records import (
    Arrival,
    Change,
    Filled,
    PlanItem,
    SetBoard,
    SetState,
    Snapshot,
    UnitState,
)
from rules.core.ruleset import Context, Erratum, Reading
from rules.earth2mm.data import (
    GRID_SQUARE_MIN_IN,
    SRC_ARMING,
    SRC_ARTILLERY,
    SRC_COVER,
    SRC_ORDER,
    SRC_SMOKE,
    UNITS,
)
from rules.earth2mm.play.judge import Board, shooting_steps
from rules.earth2mm.play.kit import BASES, KIT, Circle, Cloud, Cordon, CordonLanded, Wind, cordon_words
from rules.earth2mm.play.rolls import cover_of
from rules.earth2mm.play.shots import built_in_resilience
from rules.earth2mm.play.units import SUB_UNIT, bases_of, context, is_artillery
from rules.earth2mm.resolvers import (
    Bombard,
    BombardRequest,
    CircleRequest,
    CordonRequest,
    ResilienceRequest,
    hits_key,
)
from rules.earth2mm.ruleset import Earth2mm
from rules.earth2mm.sight import GasRequest
from rules.earth2mm.templates import CIRCLE_RADIUS_CM, INCH_CM, bombardment_circle
from rules.table.bases import Stand, max_extent_cm
from rules.table.frame import Side, Table, clock_to_deg, grid_to_table
from rules.table.placed import stand_of

BOMBARDMENT = "circle-bombardment"
NAVAL_RAILWAY = "naval-railway-bombardment"
CORDON = "smoke-cordon"
# The executing step at whose start each kind lands (erratum bombardment-step).
ARRIVAL_STEPS: Mapping[str, str] = {
    BOMBARDMENT: "execute-2",
    CORDON: "execute-2",
    NAVAL_RAILWAY: "execute-10",
}
# The printed lines a refusal gives in full (ARTILLERY; SMOKE SCREENS & POISON GAS).
ORDER_RULE = (
    "At the beginning of the bound, when the player gives Commands to Strategic Formations, the player must also "
    "order bombardments on a grid reference ... Poison Gas and smokescreens can be fired by artillery pieces ... "
    "by using the normal template and laying a cordon of smoke"
)
SHOTS_RULE = (
    "Player multiplies the Arming value of the Artillery Strategic Formation ... with the number of bases firing. "
    "The total is the maximum number of 'Shots' the player can allocate across the circle."
)
CIRCLE_RULE = (
    'Place a bombardment circle (diameter 3") and every sub-unit with more than one base, or its only base, '
    "under the circle takes damage as allocated by the player."
)
HALF_RULE = (
    "They can choose to lay up to half the shots on a single target or can distribute as far as one shot on "
    "every base ... if a shot(s) is chosen on a platoon more than half-way outside the inner circle, any "
    "successful shots must be re-rolled."
)
# The gas-cloud lookup's name for each cloud a cordon may be.
GAS_OF: Mapping[Cloud, str] = {
    "smoke": "smoke",
    "short-term-gas": "short-term",
    "long-delayed-gas": "long-delayed",
}

Earth2mm.add_errata(
    Erratum(
        "bombardment-step",
        "When a planned bombardment or cordon lands in the bound",
        (
            Reading(
                "executing-2",
                "'(2) All Artillery and Heavy Weapons who did not move or dig in last turn, now shoot': "
                "artillery 'can never dig in', so (1) never names it and every battery's bombardment or "
                "cordon lands at the start of (2), fired by the batteries that did not move last bound ('all "
                "artillery has to spend one bound packing or unpacking to move/fire'); naval and railway "
                "artillery's at the start of (10), 'Naval and railway artillery shots are worked out'.",
                f"{SRC_ORDER}; {SRC_ARTILLERY}",
                dict(ARRIVAL_STEPS),
            ),
        ),
        default="executing-2",
        note="The ARTILLERY section orders bombardments 'at the beginning of the bound' and fires on-table "
        "guns' direct fire 'at the same time as bombardments'; the EXECUTING list is the only place that "
        "says when artillery shoots. An item's step is fixed as it is written, so a reading of "
        "dug-in-artillery that digs guns in moves their direct fire to (1), not their planned bombardment.",
    ),
    Erratum(
        "grid-reference",
        "Where in its grid square a bombardment circle or a cordon is placed",
        (
            Reading(
                "square-centre",
                "'order bombardments on a grid reference (grid squares should be minimum 6\"x6\" in size)': "
                "a grid reference names a square of the side's map, and the circle (or the cordon's "
                "template) is placed on its centre.",
                SRC_ARTILLERY,
                "centre",
            ),
            Reading(
                "point",
                "The plan's grid reference is the point the circle is centred on; the squares only say how "
                "finely a point may be named.",
                SRC_ARTILLERY,
                "point",
            ),
        ),
        default="square-centre",
        note="The text names the square's size, not where in it the circle goes.",
    ),
    Erratum(
        "wind",
        "How the die that dictates the wind reads, and how often it is rolled",
        (
            Reading(
                "d6-once",
                "'The scenario (or a die roll) should dictate wind direction': where the scenario gives none, "
                "a D6 is rolled as the first cordon lands, and it blows for the game: a face f blows towards "
                "the clock hour 2f seen from the attacker's base edge (12 towards the defender).",
                SRC_SMOKE,
                "game",
            ),
            Reading(
                "d6-each-bound",
                "The same D6, rolled anew as the first cordon of each bound lands: a cordon drifts with the "
                "wind it was laid across.",
                SRC_SMOKE,
                "bound",
            ),
        ),
        default="d6-once",
        note="The text names neither the die nor how it reads; the game's one die is the D6.",
    ),
    Erratum(
        "bombardment-firer",
        "Whose Arming and bases make a bombardment's shots",
        (
            Reading(
                "battery",
                "'multiplies the Arming value of the Artillery Strategic Formation (use the mean value if it "
                "is a mixed unit) with the number of bases firing': the plan names one battery (a sub-unit, "
                "'made up of bases identical to each other') and its Arming times its bases firing is the "
                "total; a formation's several batteries each order their own bombardment, so no mean is "
                "taken in play (the mixed-artillery lookup gives the formation's).",
                f"{SRC_ARTILLERY}; {SRC_ARMING}",
                "battery",
            ),
        ),
        default="battery",
    ),
    Erratum(
        "bombardment-target",
        "The 'single target' that may take at most half a bombardment's shots",
        (
            Reading(
                "sub-unit",
                "'They can choose to lay up to half the shots on a single target': the target is a sub-unit, "
                "as a shot's is ('The sub-unit targeted', 'A Hit is usually scored on a sub-unit (or isolated "
                "base)'), so the shots laid on all its platoons together are at most half; a battery of 4 "
                "shots lays at most 2 on one company.",
                f"{SRC_ARTILLERY}; {SRC_ARMING}",
                "sub-unit",
            ),
            Reading(
                "platoon",
                "The target is each platoon the shots are laid on ('distribute as far as one shot on every "
                "base', 'a shot(s) is chosen on a platoon'): at most half the shots on one platoon, so all 4 "
                "shots of a battery may land on one company of two or more platoons.",
                SRC_ARTILLERY,
                "platoon",
            ),
        ),
        default="sub-unit",
        note="The text supports both: shots are chosen platoon by platoon, but a 'target' is a sub-unit "
        "everywhere else in the rules. The default plays the word 'target' as the shooting rules use it.",
    ),
    Erratum(
        "bombardment-hits",
        "Where a bombardment's hits land on a sub-unit",
        (
            Reading(
                "aggressor-allocates",
                "'every sub-unit ... under the circle takes damage as allocated by the player' and 'Shots "
                "allocated to targets within the circle are rolled as if the target were under normal "
                "attack': the hits of the shots laid on a sub-unit's platoons wait on the sub-unit, and the "
                "firing side allocates them as any shooter's ('Hit allocation is up to the aggressor's "
                "choice, but ... they cannot allocate kills until all bases have injuries').",
                f"{SRC_ARTILLERY}; {SRC_ARMING}",
                "allocate",
            ),
        ),
        default="aggressor-allocates",
    ),
)


def _side(side: str) -> Side:
    return "attacker" if side == "attacker" else "defender"


def _table(snap: Snapshot) -> Table:
    return Table(snap.table_width_cm, snap.table_length_cm)


def _cite(*sources: str) -> str:
    """One source field of several rules, each printed line once (an erratum's reading cites its lines)."""
    return "; ".join(dict.fromkeys(p for s in sources for p in s.split("; ")))


def _round(p: Iterable[float]) -> list[float]:
    return [round(float(v), 3) for v in p]


# -- where an item lands -------------------------------------------------------------------------------------
def landing_point(snap: Snapshot, item: PlanItem) -> tuple[float, float]:
    """The table point a grid reference names (erratum grid-reference): its square's centre, or the point."""
    along, up = (float(v) for v in item.data["grid"])
    if context(snap).value("grid-reference") == "centre":
        square = int(item.data.get("square_in", GRID_SQUARE_MIN_IN)) * INCH_CM
        along, up = ((math.floor(v / square) + 0.5) * square for v in (along, up))
    return grid_to_table(_side(item.side), along, up, _table(snap))


def _battery(snap: Snapshot, side: str, name: str) -> UnitState | None:
    """The side's artillery sub-unit of that name, still in play."""
    return next(
        (
            u
            for u in snap.units
            if u.side == side
            and u.level == SUB_UNIT
            and u.name == name
            and is_artillery(u.kind)
            and not u.killed
        ),
        None,
    )


def _not_firing(snap: Snapshot, kind: str, battery: UnitState | None, name: str) -> str:
    """Why the battery an item names fires nothing ("" when it fires)."""
    if battery is None:
        return f"the side has no artillery sub-unit named {name!r} in play"
    naval = battery.kind in context(snap).value("naval-railway")
    if naval != (kind == NAVAL_RAILWAY):
        what = "is" if naval else "is not"
        return f"{name} {what} naval or railway artillery (erratum naval-railway)"
    if ARRIVAL_STEPS[kind] not in shooting_steps(battery, Board(snap, BASES)):
        # "(2) All Artillery ... who did not move or dig in last turn, now shoot"; "all artillery has to spend
        # one bound packing or unpacking to move/fire" (ARTILLERY)
        return f"{name} moved last bound or moves this one: it spends this bound packing or unpacking"
    if not bases_of(battery, snap):
        return f"{name} has no bases left"
    return ""


def _wind(snap: Snapshot, dice: Sequence[int]) -> tuple[float, Wind | None]:
    """The wind's direction (degrees, table frame, where it blows towards), and the board's new wind when the
    die given was rolled for it (erratum wind)."""
    if not _wind_due(snap):
        return float(snap.board["wind"]["deg"]), None
    face = int(dice[0])
    deg = clock_to_deg("attacker", 2 * face)
    return deg, {"deg": deg, "die": face, "bound": snap.turn, "source": context(snap).citation("wind")}


def _wind_due(snap: Snapshot) -> bool:
    """Whether the wind is rolled as a cordon lands: none yet, or (erratum wind) none this bound."""
    wind = snap.board.get("wind")
    if not wind:
        return True
    return (
        context(snap).value("wind") == "bound"
        and wind.get("die") is not None
        and wind.get("bound") != snap.turn
    )


def _cordon_now(snap: Snapshot, cordon: Cordon, drifts: int) -> tuple[list[list[float]], bool]:
    """A cordon's polygon after `drifts` ends of bound, and whether its gas is still there (the lookups
    smoke-cordon and gas-cloud)."""
    rs = Earth2mm()
    body = {"variants": dict(snap.variants)}
    laid = rs.resolve(
        "smoke-cordon",
        CordonRequest.model_validate(
            {
                **body,
                "center": cordon["laid_at"],
                "batteries": len(cordon["batteries"]),
                "wind_deg": cordon["wind_deg"],
                "bounds": drifts,
            }
        ),
    ).as_dict()
    gas = rs.resolve(
        "gas-cloud",
        GasRequest.model_validate({**body, "gas": GAS_OF[cordon["cloud"]], "bounds_since_laid": drifts}),
    ).as_dict()
    return laid["outcome"]["polygon_cm"], bool(gas["outcome"]["present"])


# -- the bombardment as a card --------------------------------------------------------------------------------
def _stands(units: Iterable[UnitState]) -> list[tuple[UnitState, Stand]]:
    """The bases among `units` standing on the table, each with its stand (the kit's bases)."""
    return [(u, s) for u in units if (s := stand_of(u, BASES)) is not None]


def under_the_circle(
    snap: Snapshot, center: tuple[float, float]
) -> list[tuple[UnitState, list[tuple[UnitState, float, bool]]]]:
    """Each sub-unit the circle damages, with its bases under it, the share of each inside and whether it is
    more than half outside (the lookup bombardment-circle): "every sub-unit with more than one base, or its
    only base, under the circle"."""
    reach = CIRCLE_RADIUS_CM + max_extent_cm(BASES.values())
    # A stand's centre is its unit's place: the units far from the circle are passed before a stand is made.
    close = [
        u
        for u in snap.units
        if u.x is not None and u.y is not None and math.hypot(u.x - center[0], u.y - center[1]) <= reach
    ]
    near = {u.parent_id for u, _ in _stands(close)}
    companies = [u for u in snap.units if u.id in near and u.level == SUB_UNIT and not u.killed]
    placed = [_stands(bases_of(c, snap)) for c in companies]
    body = [
        [
            {
                "x": s.center[0],
                "y": s.center[1],
                "facing": s.facing_deg,
                "width": s.spec.width_cm,
                "depth": s.spec.depth_cm,
            }
            for _, s in stands
        ]
        for stands in placed
    ]
    if not body:  # the circle fell on empty ground
        return []
    req = CircleRequest.model_validate(
        {"variants": dict(snap.variants), "center": list(center), "subunits": body}
    )
    found = Earth2mm().resolve("bombardment-circle", req).as_dict()["outcome"]["subunits"]
    out = []
    for row, company, stands in zip(found, companies, placed, strict=True):
        if row["affected"]:
            out.append(
                (
                    company,
                    [
                        (stands[b["base"]][0], float(b["fraction_inside"]), bool(b["reroll_hits"]))
                        for b in row["bases"]
                        if b["under"]
                    ],
                )
            )
    return out


def _target_resilience(snap: Snapshot, ctx: Context, company: UnitState) -> Filled:
    """The Resilience a shot on the sub-unit rolls against, "as if the target were under normal attack": its
    own in its terrain, posture and gas, as a shot at it reads them (the lookup resilience)."""
    own, why_own, source_own = built_in_resilience(company, snap, ctx)
    cover, why_cover = cover_of(company, snap, BASES, ctx)
    chart = UNITS[company.kind].resilience
    body: dict[str, Any] = {"unit": company.kind, "cover": cover, "variants": dict(snap.variants)}
    if chart is None:
        body["formation_resilience"] = own
    r = int(Earth2mm().resolve("resilience", ResilienceRequest.model_validate(body)).as_dict()["total"])
    return Filled("resilience", r, f"{why_own}; {why_cover}: R{r}", f"{source_own}; {SRC_COVER}")


def _firing(snap: Snapshot, circle: Circle) -> tuple[UnitState | None, int, str]:
    """The battery a landed circle's plan named, its bases firing and its shots ("Player multiplies the Arming
    value ... with the number of bases firing. The total is the maximum number of 'Shots'"), or why it fires
    nothing."""
    name = str(circle["battery"])
    firer = snap.by_id.get(circle.get("firer_id"))
    if firer is not None and firer.killed:
        firer = None
    why = _not_firing(snap, str(circle["kind"]), firer, name)
    if why or firer is None:
        return None, 0, why
    return firer, len(bases_of(firer, snap)), ""


def _circle_card(snap: Snapshot, c: Circle) -> FireCard:
    ctx = context(snap)
    side = str(c["side"])
    name = str(c["battery"])
    center = (float(c["center"][0]), float(c["center"][1]))
    firer, n, why = _firing(snap, c)
    what = f"Bombardment of the {side}, {name}"
    rules = [
        SRC_ARTILLERY,
        ctx.citation("bombardment-firer"),
        ctx.citation("bombardment-step"),
        ctx.citation("bombardment-target"),
    ]
    notes = [f"No shots: {why}."]
    stands: list[CardRoll] = []
    total = UNITS[firer.kind].ranged.dice * n if firer is not None else 0
    if firer is not None:
        what += f" ({n} {firer.kind.replace('-', ' ')} bases: {total} shots)"
        notes = [
            f"Lay up to {total // 2} shots on one {_target_word(ctx)}, {total} in all: give each platoon shot at "
            "one die a shot, then, more than half outside the circle, one re-roll a shot.",
            "The hits wait on each sub-unit for the firing side to allocate them (allocate-hits).",
        ]
        fired_as = (
            Filled("artillery", firer.kind, f"{name} is {UNITS[firer.kind].name}", rules[1]),
            Filled("bases_firing", n, f"{name} has {n} bases in play", SRC_ARTILLERY),
        )
        for company, under in under_the_circle(snap, center):
            r = _target_resilience(snap, ctx, company)
            stands += [
                _base_roll(snap, ctx, fired_as, b, inside, out, r, total // 2) for b, inside, out in under
            ]
    return FireCard(
        item_id=int(c["item_id"]),
        side=side,
        kind=str(c["kind"]),
        what=what,
        source=_cite(*rules, ctx.citation("inner-circle")),
        aimed=center,
        lands=center,
        polygon=tuple((round(x, 2), round(y, 2)) for x, y in bombardment_circle(center).exterior.coords),
        stands=tuple(stands),
        notes=tuple(notes),
        shots=total,
    )


def _base_roll(
    snap: Snapshot,
    ctx: Context,
    fired_as: Sequence[Filled],
    base: UnitState,
    inside: float,
    outside: bool,
    resilience: Filled,
    most: int,
) -> CardRoll:
    """One platoon under the circle: a shot's roll on it, `most` shots at most ("up to half the shots on a
    single target"), each re-rolled when it hits a platoon more than half outside the circle."""
    half = Filled(
        "more_than_half_outside",
        outside,
        f"{round(100 * inside)}% of {base.name} is under the circle",
        ctx.citation("inner-circle"),
    )
    request: dict[str, Any] = {f.field: f.value for f in fired_as}
    request["targets"] = [{"shots": 1, "resilience": resilience.value, "more_than_half_outside": outside}]
    req = BombardRequest.model_validate({**request, "variants": dict(snap.variants)})
    return CardRoll(
        key=str(base.id),
        resolver=Bombard.id,
        request=request,
        filled=(*fired_as, resilience, half),
        dice=Bombard().dice(req, ctx),
        odds=Bombard().probabilities(req, ctx),
        times=most,
        unit_id=base.id,
        under="partial" if outside else "full",
    )


def _target_word(ctx: Context) -> str:
    """What a bombardment's 'single target' is (erratum bombardment-target)."""
    return "company" if ctx.value("bombardment-target") == "sub-unit" else "platoon"


def _laid(snap: Snapshot, card: FireCard, dice: Mapping[str, Sequence[int]], total: int) -> dict[str, int]:
    """The shots the firing player lays on each platoon, read from its dice (one a shot, and one a re-roll
    more than half outside); a RulesError for more than half on one target (a sub-unit or a platoon: erratum
    bombardment-target) or more than the battery has."""
    rolls = {s.key: s for s in card.stands}
    laid: dict[str, int] = {}
    for key, faces in dice.items():
        roll = rolls.get(key)
        if roll is None:
            raise RulesError(
                f"dice.{key}",
                "shoot at a platoon under the circle",
                sorted(rolls),
                SRC_ARTILLERY,
                CIRCLE_RULE,
            )
        width = len(roll.dice)
        shots, rest = divmod(len(faces), width)
        if rest or not 1 <= shots <= roll.times:
            raise RulesError(
                f"dice.{key}",
                f"give {width} dice a shot, at most {roll.times} shots on one platoon",
                list(range(width, roll.times * width + 1, width)),
                SRC_ARTILLERY,
                HALF_RULE,
            )
        laid[key] = shots
    if sum(laid.values()) > total:
        raise RulesError(
            "dice", f"lay at most the battery's {total} shots", [total], SRC_ARTILLERY, SHOTS_RULE
        )
    ctx = context(snap)
    if ctx.value("bombardment-target") == "sub-unit":
        on: dict[int | None, int] = {}
        for key, shots in laid.items():
            company = snap.unit(int(key)).parent_id
            on[company] = on.get(company, 0) + shots
            if on[company] > total // 2:
                raise RulesError(
                    "dice",
                    f"lay at most {total // 2} of the {total} shots on {snap.unit(company or 0).name}'s platoons",
                    None,
                    ctx.citation("bombardment-target"),
                    HALF_RULE,
                )
    return laid


# -- the end of the bound -------------------------------------------------------------------------------------
def drifted(snap: Snapshot) -> tuple[Change, ...]:
    """What the board's artillery does as the bound ends, "after melee & casualties": every cordon travels 3"
    downwind (one blown wholly off the table, or short-term gas past its time, is gone) and the bound's
    bombardment circles are lifted."""
    out: list[Change] = []
    if snap.board.get("circles"):
        out.append(SetBoard("the bound's bombardments are over", SRC_ARTILLERY, "circles", ()))
    cordons = snap.board.get("cordons", ())
    if cordons:
        table = _table(snap).polygon()
        kept: list[Cordon] = []
        c: Cordon
        for c in cordons:
            drifts = int(c["drifts"]) + 1
            polygon, present = _cordon_now(snap, c, drifts)
            if present and Polygon(polygon).intersects(table):
                kept.append({**c, "drifts": drifts, "polygon": polygon})
        why = 'smoke and gas travel 3" downwind at the end of each bound'
        source = _cite(SRC_SMOKE, context(snap).citation("gas-duration"))
        out.append(SetBoard(why, source, "cordons", tuple(kept)))
    return tuple(out)


# The artillery plan's terms in the book: written each bound, sealed, each item landing in its executing step;
# a cordon said by the cloud chosen for it ("Chlorine cordon", as the board labels it once laid).
FIRE_PLAN_TERMS = FirePlanTerms(
    sealed_each_turn=True,
    arrival_steps=ARRIVAL_STEPS,
    item_words={CORDON: ("cloud", {c: cordon_words(c) for c in get_args(Cloud)})},
)


class EarthFirePlan(GameRules):
    """2mm Earth 1418's artillery plan: written each bound, sealed, each item landing in its executing step."""

    def fires_plan(self, unit: Node) -> bool:
        """Artillery sub-units (batteries) fire the plan's bombardments and cordons."""
        return unit.level == SUB_UNIT and is_artillery(str(getattr(unit, "kind", "")))

    def _plan_item_allowed(self, kind: str, period: str | None, side: str, nation: str) -> None:
        if kind not in KIT.plan_kind_names:
            raise RulesError(
                "item.kind",
                "plan a bombardment, or a smoke or gas cordon",
                KIT.plan_kind_names,
                _cite(SRC_ARTILLERY, SRC_SMOKE),
                ORDER_RULE,
            )

    def _arrival_dice(self, snapshot: Snapshot, item: PlanItem, names: Mapping[int, str]) -> tuple[int, ...]:
        """A cordon rolls the wind's die as it lands, when it is due (erratum wind)."""
        return (6,) if item.kind == CORDON and _wind_due(snapshot) else ()

    def _arrival(self, snapshot: Snapshot, item: PlanItem, dice: Sequence[int] = ()) -> Arrival:
        """An item landing: a bombardment's circle put on the board where its grid reference names (its card then
        fires it), or a cordon laid square to the wind (rolled with `dice` when due) by the batteries named that
        can fire it, none laid when none can."""
        at = _round(landing_point(snapshot, item))
        step = ARRIVAL_STEPS[item.kind]
        if item.kind != CORDON:
            name = str(item.data["battery"])
            battery = _battery(snapshot, item.side, name)
            circle: Circle = {
                "item_id": item.id,
                "side": item.side,
                "kind": item.kind,
                "battery": name,
                "firer_id": battery.id if battery is not None else None,
                "center": at,
                "bound": snapshot.turn,
            }
            return Arrival({"circles": (*snapshot.board.get("circles", ()), circle)})
        names = [str(n) for n in item.data["batteries"]]
        why_not = {n: _not_firing(snapshot, CORDON, _battery(snapshot, item.side, n), n) for n in names}
        firing = [n for n in names if not why_not[n]]
        if not firing:
            why = "no battery named fires it: " + "; ".join(why_not.values())
            return Arrival(
                event="cordon-not-laid", shown={"item": item.id, "why": why}, source=SRC_SMOKE, step=step
            )
        wind_deg, new_wind = _wind(snapshot, dice)
        cordon: Cordon = {
            "item_id": item.id,
            "side": item.side,
            "cloud": item.data.get("cloud", "smoke"),
            "transparent": bool(item.data.get("transparent", False)),
            "batteries": firing,
            "laid_at": at,
            "wind_deg": round(wind_deg, 3),
            "bound": snapshot.turn,
            "drifts": 0,
        }
        cordon["polygon"], _ = _cordon_now(snapshot, cordon, 0)
        board: CordonLanded = {"cordons": (*snapshot.board.get("cordons", ()), cordon)}
        if new_wind is not None:
            board["wind"] = new_wind
        shown = {"cordon": cordon, "wind": new_wind or snapshot.board.get("wind")}
        return Arrival(
            board, "cordon-laid", shown, _cite(SRC_SMOKE, context(snapshot).citation("wind")), step=step
        )

    def arrival_cards(self, snapshot: Snapshot, names: Mapping[int, str]) -> tuple[FireCard, ...]:
        """The bound's landed bombardments, one card each."""
        return tuple(
            _circle_card(snapshot, c)
            for c in snapshot.board.get("circles", ())
            if c.get("bound") == snapshot.turn
        )

    def _arrival_fired(
        self,
        snapshot: Snapshot,
        card: FireCard,
        dice: Mapping[str, Sequence[int]],
        measured: Mapping[str, str],
        names: Mapping[int, str],
    ) -> Fired:
        """The card applied: the shots laid platoon by platoon, each platoon's shots rolled by the lookup
        `bombard`, every sub-unit shot at under the battery's fire and its hits waiting for the firing side to
        allocate them (erratum bombardment-hits)."""
        for key in measured:
            raise RulesError(
                f"measured.{key}", "measure nothing: the circle's platoons are rolled as listed", []
            )
        circle = next(c for c in snapshot.board.get("circles", ()) if int(c["item_id"]) == card.item_id)
        firer, _, _ = _firing(snapshot, circle)
        laid = _laid(snapshot, card, dice, card.shots)
        if firer is None or not card.stands:
            return Fired((), (), f"{card.what}: no shots, no platoon under the circle or no battery firing.")
        if not laid:
            raise RulesError(
                "shots",
                f"lay the battery's {card.shots} shots on the platoons under the circle",
                [card.shots],
                SRC_ARTILLERY,
                f"{SHOTS_RULE} {CIRCLE_RULE}",
            )
        rolls = {s.key: s for s in card.stands}
        by_company: dict[int, list[str]] = {}
        for key in laid:
            by_company.setdefault(snapshot.unit(int(key)).parent_id or 0, []).append(key)
        waiting = [
            snapshot.unit(c)
            for c in by_company
            if snapshot.unit(c).hits_to_allocate and snapshot.unit(c).hits_from != firer.id
        ]
        if waiting:
            raise RulesError(
                "dice",
                f"allocate the hits waiting on {waiting[0].name} first",
                source=SRC_ARMING,
                why="Hit allocation is up to the aggressor's choice: a sub-unit's hits are allocated before more land",
            )
        source = _cite(SRC_ARTILLERY, context(snapshot).citation("bombardment-hits"))
        out_rolls: list[FiredRoll] = []
        changes: list[Change] = []
        said: list[str] = []
        for company_id, keys in by_company.items():
            company = snapshot.unit(company_id)
            hits = 0
            for key in keys:
                roll = rolls[key]
                target = {**roll.request["targets"][0], "shots": laid[key]}
                body = {
                    **roll.request,
                    "targets": [target],
                    "variants": dict(snapshot.variants),
                    "dice": list(dice[key]),
                }
                res = Earth2mm().resolve(Bombard.id, BombardRequest.model_validate(body)).as_dict()
                out_rolls.append(
                    {
                        "key": key,
                        "index": 0,
                        "unit_id": roll.unit_id,
                        "resolver": Bombard.id,
                        "resolution": res,
                    }
                )
                hits += int(res["total"])
            shot_at = tuple(company.shot_at_by or ())
            if firer.id not in shot_at:
                changes.append(
                    SetState(
                        f"{company.name} is under {firer.name}'s fire",
                        source,
                        company_id,
                        "shot_at_by",
                        (*shot_at, firer.id),
                    )
                )
            if hits:
                waits = int(company.hits_to_allocate or 0) + hits
                changes += [
                    SetState(
                        f"{waits} hit(s) of {firer.name} wait on {company.name}",
                        source,
                        company_id,
                        "hits_to_allocate",
                        waits,
                    ),
                    SetState(
                        f"{firer.name}'s side allocates them", source, company_id, "hits_from", firer.id
                    ),
                ]
            said.append(f"{company.name} {hits_key(hits)}")
        shots = sum(laid.values())
        return Fired(tuple(out_rolls), tuple(changes), f"{card.what}: {shots} shots laid; {'; '.join(said)}.")
