"""A Flanders Fields fire-plan item reaching the table: a gas cloud delivered (the stands under it attacked),
a rolling barrage starting to fire, other fire put on the board (a battery's fire where its deviation puts
it), and planned deep suppression rolled. Then each planned battery or mortar firing in the turn as a card
(rules.core.fire_cards): where it lands, the stands under it, what is rolled and, with the dice, what it does.

Planned fire is read as the fire-plan rehearsal reads it (rules/flanders_fields/play/rehearsal.py): a
battery's planned fire comes from its artillery action roll ("This point will be pre-registered and does not
require an order to acquire it, only an order to fire", ARTILLERY FIRE PLANS), each action one turn of fire
(erratum artillery-two-actions), except a bombardment where the playsheet deploys it and rolls its effects
in its own step (erratum planned-bombardment-order: one turn of fire); a mortar's planned fire is delivered; off-table batteries deviate as they
arrive (erratum planned-fire-deviation), a battery the plan names standing on the table does not (nor in the
rehearsal); every stand fully under the template is attacked at full effect,
partly under at -2 ("Any infantry platoon or support weapon which falls fully with the area of effect are
attacked at full effect, if the platoon or weapon falls only partially within the area of effect it is
attacked at -2", ARTILLERY BATTERIES AREA OF EFFECT); artillery and mortar suppression spreads to the
company (game_consequences)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from rules.core.errors import RulesError
from rules.core.fire_cards import MEASURED, CardRoll, DiceGiven, FireCard, Fired, FiredRoll
from rules.core.game import FirePlanTerms
from rules.core.records import Arrival, Filled, FillRequest, PlanItem, Snapshot
from rules.core.rolls import Outcome
from rules.core.ruleset import Context
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.errata import (
    ARTILLERY_TWO_ACTIONS,
    PLANNED_BOMBARDMENT_ORDER,
    PLANNED_FIRE_DEVIATION,
)
from rules.flanders_fields.errata.fire_plan import SRC_DEVIATION_RULE, SRC_FIRE_PLANS
from rules.flanders_fields.play import game_consequences, game_fill, game_rehearsal
from rules.flanders_fields.play.board_items import Barrage, Cloud, Fire
from rules.flanders_fields.play.game_rehearsal import FlandersFieldsRehearsal
from rules.flanders_fields.play.game_table import barrage_step, cloud_arrives
from rules.flanders_fields.play.rehearsal import (
    ARTILLERY_KIND,
    BATTERY_KINDS,
    BOMBARDMENT_STEP,
    DEFAULT_FIRER,
    DEFAULT_MORTAR,
    RehearsalIn,
    fires_on_order,
    plan_marks,
    range_from_rear,
)
from rules.flanders_fields.play.units import FIRER, AimingPointFirers
from rules.flanders_fields.resolvers.artillery import SRC_DEEP_SUPPRESSION, ArtilleryAction
from rules.flanders_fields.resolvers.barrage import PLAN_ITEM_SIDES, PLAN_ITEM_STEPS
from rules.flanders_fields.resolvers.deviation import Deviation, DeviationRequest
from rules.flanders_fields.resolvers.gas import SRC_GAS
from rules.flanders_fields.resolvers.shooting import Shooting, ShootingRequest
from rules.flanders_fields.ruleset import FlandersFields
from rules.table.coverage import classify
from rules.table.frame import AHEAD_DEG, Side, Table, deviate, grid_to_table
from rules.table.placed import index_of, stand_of
from rules.table.templates import Template

SRC_AREA = TEMPLATES["artillery"].source
SRC_MORTAR_AREA = TEMPLATES["medium-mortar"].source
# The planned items that come as cards: batteries and mortars, each with a template of its own.
CARD_KINDS = (*BATTERY_KINDS, "mortar")


def _side(side: str) -> Side:
    return "attacker" if side == "attacker" else "defender"


def _context(snap: Snapshot) -> Context:
    return FlandersFields().context(snap.period, snap.variants)


# -- the cards -------------------------------------------------------------------------------------------------
def _firer(snap: Snapshot, f: Fire, names: Mapping[int, str]) -> tuple[str, str]:
    """What the item fires as: the kind of the battery or mortar the plan names; else field guns for a
    battery and medium mortars for a mortar, as the rehearsal takes them."""
    mortar = f["kind"] == "mortar"
    fits = T.MORTAR_FIRERS if mortar else T.ARTILLERY_FIRERS
    named = str(f.get("battery") or "")
    u = game_rehearsal.named_gun(snap, str(f["side"]), named, fits, names)
    if u is not None:
        return FIRER[u.kind], f"the plan names {named}, a {u.kind}"
    default = DEFAULT_MORTAR if mortar else DEFAULT_FIRER[f["kind"]]
    what = (
        f"no {'mortar' if mortar else 'battery'} of the table is named {named!r}" if named else "none named"
    )
    return default, f"{what}: fired as {default.replace('-', ' ')}s"


def _firing_now(snap: Snapshot, f: Fire) -> bool:
    """An item that arrived before the board kept its turn cannot say when it fires: no card for it."""
    first = int(f.get("turn", 0))
    return (
        "turn" in f
        and f.get("kind") in CARD_KINDS
        and bool(f.get("point"))
        and f.get("side") == snap.side_to_move
        and first <= snap.turn < first + int(f.get("turns", 1))
    )


def _card(snap: Snapshot, f: Fire, names: Mapping[int, str]) -> FireCard:
    ctx = _context(snap)
    side = _side(str(f["side"]))
    table = Table(snap.table_width_cm, snap.table_length_cm)
    firer, firer_why = _firer(snap, f, names)
    battery = firer in ARTILLERY_KIND
    lands = (float(f.get("lands", f["point"])[0]), float(f.get("lands", f["point"])[1]))
    polygon = Template(TEMPLATES[firer if not battery else "artillery"], lands, AHEAD_DEG[side]).polygon(
        table
    )
    cov = classify(polygon, index_of(snap.units, BASES))
    close = set(cov.ambiguous)
    ordered = battery and fires_on_order(ctx, str(f["kind"]))
    times = int(ctx.value(ARTILLERY_TWO_ACTIONS)) if ordered else 1
    fired_as = Filled("firer", firer, firer_why, SRC_FIRE_PLANS)
    notes = [
        "Stands too close to call: measure them on the table; firestep rolls each as the card lists it "
        "(fully under where the map places it fully under, else partly) unless you say how it measured."
    ]
    stands = []
    for under, ids in (("full", cov.full), ("partial", cov.partial), ("close", cov.ambiguous)):
        for i in ids:
            if under != "close" and i in close:
                continue
            # Rolled as listed: a stand the map places fully under is full, any other close one partly under.
            measured = ("full" if cov.class_of(i) == "full" else "partial") if under == "close" else ""
            try:
                stands.append(_stand_roll(snap, ctx, table, side, fired_as, int(i), under, measured, times))
            except RulesError as e:  # the firing table has no such shot (e.g. this fire at a tank)
                notes.append(f"{names.get(int(i), snap.unit(int(i)).name)} is not rolled: {e.message}")
    first = None
    if ordered:
        first = _action_roll(snap, ctx, side, firer)
        notes.insert(
            0, f"The battery's artillery action roll: each action is one turn of fire, at most {times}."
        )
    what = f"{str(f['kind']).replace('-', ' ').capitalize()} of the {side}"
    if f.get("battery"):
        what += f", {f['battery']}"
    if battery and not ordered:
        notes.insert(0, "Deployed and rolled in its step: one turn of fire, no action roll.")
    rules = [SRC_FIRE_PLANS, SRC_AREA if battery else SRC_MORTAR_AREA, SRC_DEVIATION_RULE]
    if f["kind"] == "bombardment" and BOMBARDMENT_STEP.has(snap.period):
        rules.append(ctx.citation(PLANNED_BOMBARDMENT_ORDER))
    source = "; ".join(rules)
    return FireCard(
        item_id=int(f["item_id"]),
        side=side,
        kind=str(f["kind"]),
        what=f"{what} ({firer.replace('-', ' ')})",
        source=source,
        aimed=(float(f["point"][0]), float(f["point"][1])),
        lands=lands,
        polygon=tuple((round(x, 2), round(y, 2)) for x, y in polygon.exterior.coords),
        deviation=dict(f.get("deviation") or {}),
        first=first,
        stands=tuple(stands),
        notes=tuple(notes),
    )


def _action_roll(snap: Snapshot, ctx: Context, side: Side, firer: str) -> CardRoll:
    filled = [
        Filled(
            "artillery",
            ARTILLERY_KIND[firer],
            f"the item fires as {firer.replace('-', ' ')}s",
            SRC_FIRE_PLANS,
        )
    ]
    penalty = int(snap.board.get("deep_suppression", 0) or 0)
    if side == "defender" and penalty:
        filled.append(
            Filled(
                "deep_suppression", penalty, "the deep suppression in force this turn", SRC_DEEP_SUPPRESSION
            )
        )
    request = {f.field: f.value for f in filled}
    req = ArtilleryAction.Request.model_validate(
        {**request, "period": snap.period, "variants": dict(snap.variants)}
    )
    ArtilleryAction().check(req, ctx)
    odds = ArtilleryAction().probabilities(req, ctx)
    return CardRoll(
        "action", ArtilleryAction.id, request, tuple(filled), ArtilleryAction().dice(req, ctx), odds
    )


def _stand_roll(
    snap: Snapshot,
    ctx: Context,
    table: Table,
    side: Side,
    fired_as: Filled,
    unit_id: int,
    under: str,
    measured: str,
    times: int,
) -> CardRoll:
    target = snap.unit(unit_id)
    stand = stand_of(target, BASES)
    assert stand is not None  # classified stands are on the table
    fields = frozenset(ShootingRequest.model_fields)
    partial = (measured or under) != "full"
    filled = [
        fired_as,
        *game_fill.FlandersFieldsFill.fill("shooting", snap, FillRequest(fields, target_id=unit_id)),
        Filled("indirect", True, "planned fire is indirect", SRC_FIRE_PLANS),
        Filled(
            "range_cm",
            round(range_from_rear(side, stand, table), 2),
            f"{target.name} from the {side}'s rear edge, where the guns fire from",
            SRC_FIRE_PLANS,
        ),
        Filled(
            "partial_template",
            partial,
            f"{target.name} is {'partly' if partial else 'fully'} under the template"
            + (" (too close to call)" if under == "close" else ""),
            SRC_AREA,
        ),
    ]
    request = {f.field: f.value for f in filled}
    req = _shot_request(snap, request)
    Shooting().check(req, ctx)
    odds = Shooting().probabilities(req, ctx)
    return CardRoll(
        str(unit_id),
        Shooting.id,
        request,
        tuple(filled),
        Shooting().dice(req, ctx),
        odds,
        times,
        unit_id,
        under,
        measured,
    )


def _shot_request(
    snap: Snapshot, request: Mapping[str, Any], dice: Sequence[int] | None = None
) -> ShootingRequest:
    body = {**request, "period": snap.period, "variants": dict(snap.variants), "dice": dice}
    return ShootingRequest.model_validate(body)


# -- applying a card ---------------------------------------------------------------------------------------------
def _dice(dice: DiceGiven, roll: CardRoll, n: int) -> list[int]:
    """The n-th roll's dice of `roll` (one roll per turn of fire)."""
    width = len(roll.dice)
    given = list(dice.get(roll.key, ()))
    got = given[n * width : (n + 1) * width]
    if len(got) != width:
        raise RulesError(
            f"dice.{roll.key}", f"{width * (n + 1)} dice are needed for this roll", list(roll.dice)
        )
    return got


def _effect(card: FireCard, turns: int, results: Mapping[int, list[str]], names: Mapping[int, str]) -> str:
    if not turns:
        return f"{card.what}: no action, no fire this turn."
    rolled = "; ".join(
        f"{names.get(u, str(u))} {', '.join(k.replace('-', ' ') for k in keys)}"
        for u, keys in results.items()
    )
    fire = f"{turns} turn{'s' if turns != 1 else ''} of fire"
    return f"{card.what}: {fire}; {rolled or 'no stand under it'}."


# The fire plan's terms in the book: a battery carries its aiming point (changes.py's STATE_FIELDS), a side's
# plan is rehearsed (its request, play/rehearsal.py) and drawn on the page's grid by its items' kinds.
FIRE_PLAN_TERMS = FirePlanTerms(aiming_field="aiming_point", rehearsal=RehearsalIn, marks=plan_marks)


class FlandersFieldsFirePlan(AimingPointFirers, FlandersFieldsRehearsal):
    """Flanders Fields' fire plan: batteries with an aiming point fire it, each item kind as the period and
    nation allow, each arriving (a battery's deviation rolled) and fired as a card; a plan rehearsed."""

    def _plan_item_allowed(self, kind: str, period: str | None, side: str, nation: str) -> None:
        """Refuse (422 on `item.kind`) a fire-plan item whose step the period's order sequence does not have, or
        that the planning side (or its nation, when the game names it) does not plan."""
        step = PLAN_ITEM_STEPS.get(kind)
        if step is not None and not step.has(period):
            raise RulesError(
                "item.kind", f"{step.message(period)}; only the {' and '.join(step.periods)} periods have it"
            )
        only = PLAN_ITEM_SIDES.get(kind)
        if only is not None and (side != only[0] or nation not in ("", only[1])):
            raise RulesError(
                "item.kind",
                f"only the {only[0]}'s fire plan holds a {kind}, when the {only[1]}s attack",
                [only[0]],
            )

    def _arrival_dice(self, snapshot: Snapshot, item: PlanItem, names: Mapping[int, str]) -> tuple[int, ...]:
        """The dice a battery's planned fire rolls as it arrives: its deviation ("When unobserved off table
        artillery ... arrives roll a deviation dice and 2D6", by the appendix D6 method), unless the reading in
        force says planned fire falls where it was planned or the plan names a battery standing on the table, by
        its name or the name the fire plan shows it by (`names`): only off table artillery deviates."""
        ctx = _context(snapshot)
        if item.kind not in BATTERY_KINDS or not ctx.value(PLANNED_FIRE_DEVIATION) or "grid" not in item.data:
            return ()
        if game_rehearsal.fires_from_table(snapshot, item.side, item.data, names):
            return ()
        return Deviation().dice(DeviationRequest(period=snapshot.period), ctx)

    def _arrival(self, snapshot: Snapshot, item: PlanItem, dice: Sequence[int] = ()) -> Arrival:
        data = dict(item.data)
        table = Table(snapshot.table_width_cm, snapshot.table_length_cm)
        side = _side(item.side)
        if "grid" in data:
            data["point"] = list(grid_to_table(side, data["grid"][0], data["grid"][1], table))
        board = snapshot.board
        if item.kind == "gas":
            # The plan item's data as its GasItem checked it, placed on the table.
            arrived = cast(Cloud, {"item_id": item.id, "side": item.side, **data, "center": data["point"]})
            cloud = cloud_arrives(arrived, snapshot.units)
            return Arrival(
                {"clouds": (*board.get("clouds", ()), cloud)},
                "gas-arrived",
                {"cloud": cloud},
                SRC_GAS,
                step="gas",
            )
        if item.kind == "rolling-barrage":
            b: Barrage = {
                "item_id": item.id,
                "side": side,
                "front_y": grid_to_table(side, 0.0, float(data["start_up_cm"]), table)[1],
                "duration_turns": int(data["duration_turns"]),
                "halts": list(data.get("halts", [])),
                "turns_fired": 1,
            }
            return Arrival(
                {"barrages": (*board.get("barrages", ()), barrage_step(b, 0.0, snapshot.units, table))}
            )
        if item.kind == "deep-suppression":
            # "ATTACKERS ROLL D6 FOR DEEP SUPPRESSION": the server rolls it as the turn starts.
            return Arrival(roll="deep-suppression", step="deep-suppression")
        fire = {"item_id": item.id, "side": item.side, "kind": item.kind, "turn": item.arrival_turn, **data}
        if dice:
            # The aiming point deviates: the board keeps where it was aimed (`point`), where it lands and the dice,
            # which the luck ledger reads (with their odds) among the card's rolls when the card is applied.
            req = DeviationRequest(period=snapshot.period, variants=dict(snapshot.variants), dice=list(dice))
            res = FlandersFields().resolve("deviation", req)
            out = res.evaluation.outcome
            aimed = (float(data["point"][0]), float(data["point"][1]))
            lands = (
                deviate(side, aimed, int(out["clock"]), float(out["distance_cm"]))
                if out["deviates"]
                else aimed
            )
            fire.update(lands=[round(lands[0], 2), round(lands[1], 2)], deviation={"dice": list(dice), **out})
        return Arrival({"fire": (*board.get("fire", ()), fire)})

    def arrival_cards(self, snapshot: Snapshot, names: Mapping[int, str]) -> tuple[FireCard, ...]:
        """The side to move's arrived batteries and mortars that fire this turn, one card each."""
        return tuple(
            _card(snapshot, f, names) for f in snapshot.board.get("fire", ()) if _firing_now(snapshot, f)
        )

    def _arrival_fired(
        self,
        snapshot: Snapshot,
        card: FireCard,
        dice: DiceGiven,
        measured: Mapping[str, str],
        names: Mapping[int, str],
    ) -> Fired:
        """The card applied with its dice: the battery's action roll says how many turns of fire arrive; each
        turn every stand under the template still standing is rolled on the firing table and its result carried
        out (game_consequences: markers spread to the company, three kill). `measured` takes a stand too close
        to call as the players measured it."""
        for key, how in measured.items():
            roll = next((s for s in card.stands if s.key == key and s.under == "close"), None)
            if roll is None:
                close = [s.key for s in card.stands if s.under == "close"]
                raise RulesError(f"measured.{key}", "only a stand too close to call is measured", close)
            if how not in MEASURED:
                raise RulesError(f"measured.{key}", f"{how!r} is not how a stand measures", MEASURED)
        rs = FlandersFields()
        rolls: list[FiredRoll] = []
        if card.deviation:  # rolled as it arrived: one of the card's rolls, worked out again from its dice
            dev = DeviationRequest(
                period=snapshot.period, variants=dict(snapshot.variants), dice=card.deviation["dice"]
            )
            res = rs.resolve("deviation", dev).as_dict()
            rolls.append(
                {"key": "deviation", "index": 0, "unit_id": None, "resolver": "deviation", "resolution": res}
            )
        turns = 1
        if card.first is not None:
            action = ArtilleryAction.Request.model_validate(
                {
                    **card.first.request,
                    "period": snapshot.period,
                    "variants": dict(snapshot.variants),
                    "dice": _dice(dice, card.first, 0),
                }
            )
            res = rs.resolve(card.first.resolver, action).as_dict()
            rolls.append(
                {
                    "key": "action",
                    "index": 0,
                    "unit_id": None,
                    "resolver": card.first.resolver,
                    "resolution": res,
                }
            )
            turns = min(int(res["outcome"]["actions"]), int(_context(snapshot).value(ARTILLERY_TWO_ACTIONS)))
        changes: list[Any] = []
        now = snapshot
        results: dict[int, list[str]] = {}
        for n in range(turns):
            for s in card.stands:
                how = measured.get(s.key, s.measured) if s.under == "close" else s.under
                if how == "outside" or s.unit_id is None or now.unit(s.unit_id).killed:
                    continue
                req = _shot_request(
                    snapshot, {**s.request, "partial_template": how == "partial"}, _dice(dice, s, n)
                )
                res = rs.resolve(s.resolver, req).as_dict()
                rolls.append(
                    {
                        "key": s.key,
                        "index": n * len(s.dice),
                        "unit_id": s.unit_id,
                        "resolver": s.resolver,
                        "resolution": res,
                    }
                )
                results.setdefault(s.unit_id, []).append(str(res["outcome_key"]))
                more = game_consequences.FlandersFieldsConsequences._consequences(
                    s.resolver, now, Outcome(req, res, None, s.unit_id)
                )
                changes += more
                now = now.after(more)
        return Fired(tuple(rolls), tuple(changes), _effect(card, turns, results, names))
