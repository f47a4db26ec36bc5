"""What follows on the table from a result, as change records: actions from an order roll, markers and kills
from fire (suppression spreading to the company, three markers killing), the morale tests losses make due,
a morale result carried out, raw troops coming under fire, the wind blowing the gas clouds, a stand's roll
under the barrages; and the markers placed and recovered by hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.core.acts import Roll
from rules.core.errors import RulesError
from rules.core.game import GameRules, ancestor_at, leaves_under
from rules.core.records import Change, SetBoard, SetState, Snapshot, UnitState
from rules.core.rolls import Outcome
from rules.core.vocabulary import other_side
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.cover import COVER_RULES
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.errata import (
    AIRCRAFT_SUPPRESSION_SPREAD,
    BECOME_SUPPRESSED,
    SHOT_SUPPRESSES_COMPANY,
    SRC_AIR,
    SRC_EVENTS,
)
from rules.flanders_fields.errata.barrage import SRC_BARRAGE_DANGER, SRC_ROLLING_BARRAGE
from rules.flanders_fields.errata.gas import SRC_GAS_MOVEMENT
from rules.flanders_fields.play import game_reinforcements
from rules.flanders_fields.play.board_items import Barrage, Cloud
from rules.flanders_fields.play.changes import (
    HAND_KEY,
    ActionsGranted,
    BarragesRolled,
    BecameSuppressed,
    CameUnderFire,
    CrewAbandoned,
    DeepSuppressionSet,
    GasMarked,
    MoraleDue,
    MoraleStage,
    MoraleTested,
    Ordered,
    SuppressionAdded,
    SuppressionRecovered,
    UnitKilled,
    hand_set,
)
from rules.flanders_fields.play.game_orders import (
    RECOVER,
    SHOOTING,
    SRC_ONCE_A_TURN,
    act_spent,
    actions_spent,
)
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from rules.flanders_fields.play.game_table import clouds_on_wind, context, in_gas
from rules.flanders_fields.play.game_turn import HEROIC_KEY
from rules.flanders_fields.play.units import (
    CREWED_KINDS,
    SRC_ORDERED_UNITS,
    AimingPointFirers,
    quality_of,
)
from rules.flanders_fields.resolvers.artillery import SRC_DEEP_SUPPRESSION
from rules.flanders_fields.resolvers.assault import RESOLVER as ASSAULT
from rules.flanders_fields.resolvers.assault import SRC_CLOSE
from rules.flanders_fields.resolvers.events import PACK
from rules.flanders_fields.resolvers.gas import SRC_GAS, WindDict
from rules.flanders_fields.resolvers.heroic import SRC_HEROIC
from rules.flanders_fields.resolvers.morale import morale_test_due
from rules.flanders_fields.resolvers.orders import RESOLVER as ORDER_ROLL
from rules.flanders_fields.resolvers.orders import SRC_CREWED
from rules.flanders_fields.resolvers.reinforcements import RESOLVER as REINFORCEMENTS
from rules.flanders_fields.resolvers.shooting import FIRE_TYPE as SHOOTING_FIRE_TYPE
from rules.flanders_fields.resolvers.suppression import (
    SRC_BATTLE_SUPPRESSION,
    SRC_DEATH,
    SRC_RECOVERY,
    is_killed,
    spreads_to_company,
)
from rules.flanders_fields.ruleset import cite
from rules.table.placed import stand_of
from rules.table.terrain import FEATURE_KINDS, Feature

SRC_RAW_UNDER_FIRE = cite("TROOP QUALITY, RAW")
SRC_AIMING_POINT = cite("ARTILLERY AIMING POINT")
# "Firing Table  Open  Soft Cover  Medium Cover  Hard Cover" (1914 to mid 1915 playsheet): no Fortified column,
# so no fortified positions (FlandersFieldsTable.terrain_refused).
SRC_EARLY_FIRING_TABLE = cite("Firing Table", "early")

# The suppression rules' fire types of the template resolvers (shooting uses the firer's).
TEMPLATE_FIRE_TYPE = {
    "rolling-barrage": "artillery",
    "barrage-danger": "artillery",
    "air-attack": "aircraft",
}
# The result keys that destroy the target, with the rule: fire's, and the aircraft's "Win by 3 or more, the
# looser is destroyed".
KILLED = {"killed": SRC_DEATH, "destroyed": SRC_AIR}
# The barrage list of the board each barrage resolver rolls a stand off.
BARRAGE_ROLL_LIST = {"rolling-barrage": "pending", "barrage-danger": "danger"}


def _morale_source(snap: Snapshot) -> str:
    return cite(T.MORALE_SECTION, snap.period)


# The rolls in which a battery fires: it shoots (direct or indirect fire), or its aiming point is rolled for
# deviation as it fires ("ARTILLERY AIMING POINT - DEVIATION").
FIRING_RESOLVERS = frozenset({"shooting", "deviation"})


def aiming_point_shown(snap: Snapshot, resolver: str, unit_id: int) -> tuple[Change, ...]:
    """ "When a battery fires at a target using either direct or indirect fire from on or off table an aiming
    point is placed on the table at the designated spot": both sides read it from then on."""
    unit = snap.unit(unit_id)
    aimed = unit.state.get("aiming_point")
    if resolver not in FIRING_RESOLVERS or aimed is None or not AimingPointFirers.fires_plan(unit):
        return ()
    shown = dict(snap.board.get("aiming_points", {}))
    if shown.get(str(unit.id)) == aimed:
        return ()
    return (
        SetBoard(f"{unit.name} fires", SRC_AIMING_POINT, "aiming_points", {**shown, str(unit.id): aimed}),
    )


def _consequences(resolver: str, snap: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
    res = outcome.resolution
    key = res["outcome_key"]
    result = res["outcome"]
    unit = snap.unit(outcome.unit_id, "unit_id") if outcome.unit_id is not None else None
    target = snap.unit(outcome.target_id, "target_id") if outcome.target_id is not None else None
    changes: list[Change] = []
    if resolver == ORDER_ROLL and unit is not None and isinstance(result, Mapping):
        actions = int(result.get("actions", 0))
        changes.append(
            ActionsGranted(f"{unit.name} has {actions} actions", SRC_ORDERED_UNITS, unit.id, actions)
        )
        changes.append(
            Ordered(f"{unit.name} has been ordered this turn", SRC_ONCE_A_TURN, unit.id, snap.turn)
        )
    elif resolver == "deep-suppression" and isinstance(result, Mapping):
        penalty = int(result["penalty"])
        changes.append(DeepSuppressionSet("the deep suppression rolled", SRC_DEEP_SUPPRESSION, penalty))
    elif resolver == "morale" and unit is not None:
        changes += morale_result(snap, unit, res)
    elif resolver == "heroic-action" and unit is not None:
        if key == "platoon-destroyed":  # "if a failure the platoon is immediately destroyed"
            changes += kill(snap, unit.id, "the heroic action failed", SRC_HEROIC)
    elif resolver == "gas-wind":
        changes += wind_blows(snap, result)
    elif resolver == "random-event":
        changes += cards_drawn(snap, result)
    elif resolver == REINFORCEMENTS and unit is not None:
        changes += game_reinforcements.arrived(snap, unit, key)
    if target is None:
        return tuple(changes)
    if resolver == ASSAULT and unit is not None:
        # "The attacker destroys or captures the defender" / "The defender destroys or captures the attacker";
        # a draw moves nobody off the table (the attackers fall back: the player moves them).
        loser = {"attacker-wins": target, "defender-wins": unit}.get(key)
        if loser is not None:
            changes += kill(
                snap.after(changes), loser.id, f"{loser.name} is destroyed in the assault", SRC_CLOSE
            )
    if resolver in BARRAGE_ROLL_LIST:
        changes += rolled_under_barrage(snap, resolver, target.id)
    firer_kind = getattr(outcome.request, "firer", "")
    if res.get("also") and firer_kind:  # an area or a beaten zone: every stand's result together
        return (*changes, *area_shot(snap.after(changes), target.id, res, firer_kind))
    if key in ("suppressed", *KILLED):
        firer = getattr(outcome.request, "firer", None)
        fire = SHOOTING_FIRE_TYPE[firer] if firer else TEMPLATE_FIRE_TYPE.get(resolver)
        count = int(res.get("suppression_markers", 1))  # two dice: "two suppressions are two markers"
        now = snap.after(changes)
        if key in KILLED:
            changes += kill(now, target.id, f"{target.name} is destroyed", KILLED[key])
        else:
            changes += marker_added(now, target.id, fire, count)
    if resolver in ("shooting", *TEMPLATE_FIRE_TYPE):
        changes += fired_on(snap.after(changes), target.id)
    return tuple(changes)


def area_shot(snap: Snapshot, target_id: int, res: Mapping[str, Any], firer: str) -> tuple[Change, ...]:
    """A shot at its target and the other stands of its area or beaten zone, each attacked once on a die of
    its own ("Any infantry platoon or support weapon which falls fully with the area of effect are attacked",
    ARTILLERY BATTERIES AREA OF EFFECT): the stands it destroys first, then its suppressions, so a stand the
    shot destroys gains no marker from another's; a company it suppresses through two of its platoons gains
    one marker on each stand or one for each, as erratum shot-suppresses-company reads it."""
    fire = SHOOTING_FIRE_TYPE[firer]
    hits = [
        (target_id, str(res["outcome_key"]), int(res.get("suppression_markers", 1))),
        *(
            (int(a["unit_id"]), str(a["outcome"]), 1)
            for a in res.get("also", ())
            if a.get("unit_id") is not None
        ),
    ]
    changes: list[Change] = []
    for uid, key, _ in hits:
        if key in KILLED:
            unit = snap.unit(uid)
            changes += kill(snap.after(changes), uid, f"{unit.name} is destroyed", KILLED[key])
    once = bool(context(snap).value(SHOT_SUPPRESSES_COMPANY))
    suppressed: set[int] = set()  # the companies the shot has suppressed
    for uid, key, count in hits:
        now = snap.after(changes)
        if key != "suppressed" or now.unit(uid).killed:
            continue
        company = ancestor_at(now.unit(uid), "company", now.by_id) if _spreads(now, fire) else None
        if once and company is not None and company.id in suppressed:
            continue
        if company is not None:
            suppressed.add(company.id)
        changes += marker_added(now, uid, fire, count)
    for uid in dict.fromkeys(uid for uid, _, _ in hits):
        changes += fired_on(snap.after(changes), uid)
    return tuple(changes)


def cards_drawn(snap: Snapshot, drawn: Mapping[str, Any]) -> tuple[Change, ...]:
    """The hands and the pack after a draw: beneficial cards go to the drawer's hand, cards handed over to
    the opponent's; everything else drawn is out of play."""
    drawer = snap.side_to_move
    rival = other_side(drawer)
    # The other side keeps what it held and takes what was handed to it (a draw at the table asks the rules
    # without its hand: FlandersFieldsCards.drawn).
    held = list(snap.sides.get(rival, {}).get(HAND_KEY, []))
    hands = {
        drawer: tuple(drawn["hand"]),
        rival: (*held, *(c for c in drawn["opponent_hand"] if c not in held)),
    }
    changes: list[Change] = [
        hand_set(f"the {side}'s hand", SRC_EVENTS, side, hand)
        for side, hand in sorted(hands.items())
        if list(snap.sides.get(side, {}).get(HAND_KEY, [])) != list(hand)
    ]
    in_hand = {c for h in hands.values() for c in h}
    out = [c for c in PACK if c not in drawn["deck"] and c not in in_hand]
    pack = {"out": out, "cards_left": len([c for c in drawn["deck"] if c not in in_hand])}
    return (*changes, SetBoard("random event cards drawn", SRC_EVENTS, "events", pack))


# -- markers -------------------------------------------------------------------------------------------------
def _spreads(snap: Snapshot, fire: str) -> bool:
    """Whether this fire suppresses the whole company: MG, mortar and artillery fire does; an aircraft's as
    erratum aircraft-suppression-spread reads it."""
    if fire == "aircraft":
        return bool(context(snap).value(AIRCRAFT_SUPPRESSION_SPREAD))
    return spreads_to_company(fire)


def kill(snap: Snapshot, unit_id: int, reason: str, source: str) -> tuple[Change, ...]:
    """A stand destroyed, and the morale test its loss makes due (nothing when it is already destroyed)."""
    unit = snap.unit(unit_id)
    if unit.killed:
        return ()
    killed = UnitKilled(reason, source, unit.id)
    return (killed, *morale_flags(snap.after([killed]), [unit.id]))


def morale_flags(snap: Snapshot, newly_lost: Iterable[int]) -> tuple[Change, ...]:
    """Flag a battalion's morale test at 50% and again at 75% of its rifle platoons lost ("If a battalion's
    RIFLE PLATOONS are reduced to 50% it must roll morale. Roll again at -2 when rifle company casualties
    reach 75%."). `snap` already has the losses."""
    by_id = snap.by_id
    changes: list[Change] = []
    seen: set[int] = set()
    for lost_id in newly_lost:
        bn = ancestor_at(snap.unit(lost_id), "battalion", by_id)
        if bn is None or bn.id in seen or bn.morale_due:
            continue
        seen.add(bn.id)
        start, gone = FlandersFieldsReport.losses(bn, snap.units)
        if not start:
            continue
        half, three_quarters = morale_test_due(start, gone)
        if (bn.morale_stage == 0 and half) or (bn.morale_stage <= 1 and three_quarters):
            why = f"{bn.name} has lost {gone} of its {start} rifle platoons"
            changes.append(MoraleDue(why, _morale_source(snap), bn.id))
    return tuple(changes)


def morale_result(snap: Snapshot, bn: UnitState, res: Mapping[str, Any]) -> tuple[Change, ...]:
    """Carry out a morale result at once ("Troops which have suffered from a poor morale result carry out
    the result as soon as it is determined"): removed from play on a rout; on a retreat every stand is
    suppressed and the battalion's crewed weapons are abandoned (the players move the stands back by
    `retreat_cm`)."""
    source = _morale_source(snap)
    stage = None
    if res.get("test_due"):
        stage = max(2 if res.get("at_75_percent") else 1, bn.morale_stage)
    tested = f"{bn.name} has tested its morale"
    changes: list[Change] = [MoraleStage(tested, source, bn.id, stage)] if stage is not None else []
    changes.append(MoraleTested(tested, source, bn.id))
    living = [u for u in leaves_under(bn, snap.units) if not u.killed]
    if res.get("removed"):
        return (*changes, *(UnitKilled(f"{bn.name} is removed from play", source, u.id) for u in living))
    if res.get("suppressed"):
        if context(snap).value(BECOME_SUPPRESSED):  # a marker on every stand: a third kills
            for u in living:
                changes += marker_added(snap.after(changes), u.id, None)
        else:  # "become Suppressed": a stand already suppressed stays so; no marker is added that could kill
            changes += [
                BecameSuppressed(f"{bn.name} retreats suppressed", source, u.id)
                for u in living
                if u.suppression == 0
            ]
    if res.get("abandon_crewed_weapons"):
        changes += [
            CrewAbandoned(f"{u.name} abandons its crewed weapon", SRC_CREWED, u.id)
            for u in living
            if u.kind in CREWED_KINDS and not u.crew_abandoned
        ]
    return tuple(changes)


def fired_on(snap: Snapshot, target_id: int) -> tuple[Change, ...]:
    """Raw troops are +1 on orders "until they receive any fire": being shot at counts, whatever the
    result, and the order roll is the battalion's, so the battalion is marked."""
    target = snap.unit(target_id)
    by_id = snap.by_id
    if quality_of(target, by_id) != "raw":
        return ()
    marked = ancestor_at(target, "battalion", by_id) or target
    if marked.raw_under_fire:
        return ()
    return (CameUnderFire(f"{marked.name} has been fired on", SRC_RAW_UNDER_FIRE, marked.id),)


# -- gas and barrages ------------------------------------------------------------------------------------------
def wind_blows(snap: Snapshot, wind: WindDict) -> tuple[Change, ...]:
    """The wind blows every cloud on the table (all offensive gas shares "the same vagaries of weather");
    stands under a cloud are marked in gas, the others no longer."""
    kept, gone = clouds_on_wind(snap.board.get("clouds", ()), wind, snap.units)
    why = "the wind moves every gas cloud"
    blown: list[Change] = [
        SetBoard(why, SRC_GAS_MOVEMENT, "wind", dict(wind)),
        SetBoard(why, SRC_GAS_MOVEMENT, "wind_turn", snap.turn),
        SetBoard(why, SRC_GAS_MOVEMENT, "clouds", [dict(k) for k in kept]),
    ]
    if gone:
        dispersed = [*snap.board.get("clouds_gone", ()), *(dict(g) for g in gone)]
        blown.append(SetBoard(why, SRC_GAS_MOVEMENT, "clouds_gone", dispersed))
    return (*blown, *gas_marked(snap, kept))


def gas_marked(snap: Snapshot, clouds: Sequence[Cloud]) -> tuple[Change, ...]:
    """Stands a cloud now covers are in gas; the others on the table no longer are."""
    covered = in_gas(clouds, snap.units)
    return tuple(
        GasMarked(
            f"{u.name} is {'in' if u.id in covered else 'out of'} a gas cloud", SRC_GAS, u.id, u.id in covered
        )
        for u in snap.units
        if stand_of(u, BASES) is not None and u.in_gas != (u.id in covered)
    )


def rolled_under_barrage(snap: Snapshot, resolver: str, unit_id: int) -> tuple[Change, ...]:
    """A stand rolled for stops being due under every barrage."""
    listed = BARRAGE_ROLL_LIST[resolver]
    barrages: list[Barrage] = []
    b: Barrage
    for b in snap.board.get("barrages", ()):
        if listed == "pending":
            barrages.append({**b, "pending": [x for x in b.get("pending", []) if x != unit_id]})
        else:
            barrages.append({**b, "danger": [x for x in b.get("danger", []) if x["unit"] != unit_id]})
    if barrages == [dict(b) for b in snap.board.get("barrages", ())]:
        return ()
    source = SRC_ROLLING_BARRAGE if listed == "pending" else SRC_BARRAGE_DANGER
    return (BarragesRolled(f"unit {unit_id} has rolled under the barrage", source, unit_id, tuple(barrages)),)


# "Once per game each player may elect to attempt a Heroic Action" (HEROIC ACTIONS)
SIDE_STATE = {HEROIC_KEY: 1}
# Troops' names and quality are force building; an aiming point is redirected as an action.
EDIT_ACTS = {"name": "build-forces", "quality": "build-forces", "aiming_point": "redirect-aiming-points"}


def marker_added(snapshot: Snapshot, unit_id: int, cause: str | None, count: int = 1) -> tuple[Change, ...]:
    """Suppress a stand (`cause`: the fire type): MG, mortar and artillery fire suppresses its whole company; a
    third marker kills."""
    target = snapshot.unit(unit_id)
    if target.killed:
        raise RulesError("unit_id", f"{target.name} is already destroyed: pick another")
    by_id = snapshot.by_id
    hit = [target]
    company = ancestor_at(target, "company", by_id) if cause and _spreads(snapshot, cause) else None
    if company is not None and company is not target:
        hit = [u for u in leaves_under(company, snapshot.units) if not u.killed]
    changes: list[Change] = []
    for u in hit:
        why = f"{count} suppression marker{'s' if count != 1 else ''} on {u.name}"
        if u is not target:
            why += f" ({cause} fire on {target.name} suppresses its company)"
        changes.append(SuppressionAdded(why, SRC_BATTLE_SUPPRESSION, u.id, count, cause))
        if is_killed(u.suppression + count):
            changes.append(UnitKilled(f"three suppressions kill {u.name}", SRC_DEATH, u.id))
    killed = [c.unit_id for c in changes if isinstance(c, SetState) and c.field == "killed"]
    return (*changes, *morale_flags(snapshot.after(changes), killed))


def marker_removed(snapshot: Snapshot, unit_id: int, spend_action: bool) -> tuple[Change, ...]:
    """ "The only method of recovering from Battle Suppression is by the use of an Action": an action of the
    unit the stand is ordered with (its company's for a platoon); game_orders refuses it when none is left."""
    unit = snapshot.unit(unit_id)
    if unit.killed:
        raise RulesError("unit_id", f"{unit.name} is destroyed: pick another")
    if unit.suppression < 1:
        raise RulesError("delta", f"{unit.name} has no suppression marker to remove")
    spent = actions_spent(snapshot, RECOVER, (unit.id,), SRC_RECOVERY) if spend_action else ()
    return (*spent, SuppressionRecovered(f"a marker removed from {unit.name}", SRC_RECOVERY, unit.id))


class FlandersFieldsTable(GameRules):
    """Flanders Fields' table: the standard wire belt, a rolling barrage's danger zone, and gas clouds marking
    the stands under them."""

    def terrain_refused(self, features: Sequence[Feature], period: str | None, where: str) -> None:
        """Before mid 1915 no terrain may be a fortified position: the 1914 playsheet's firing table has no
        Fortified column, so a block house, or a trench or strong point dug into a village (TERRAIN AND ITS
        IMPACT ON COVER), is refused, naming the feature (a combination names the later of its two)."""
        if period != "early":
            return
        for i, f in enumerate(features):
            for needs, cover, _src, line in COVER_RULES:
                if cover != "fortified" or f.kind not in needs:
                    continue
                others = needs - {f.kind}
                partner = next(
                    (
                        g
                        for g in features[:i]
                        if g.kind in others and g.geometry.intersection(f.geometry).area > 0
                    ),
                    None,
                )
                if others and partner is None:
                    continue
                what = f"a {f.kind}" + (f" over a {partner.kind}" if partner else "")
                raise RulesError(
                    f"{where}.{i}",
                    f"{what} is a fortified position, which the 1914 to mid 1915 rules do not have",
                    [k for k in FEATURE_KINDS if k != "blockhouse"],
                    SRC_EARLY_FIRING_TABLE,
                    f"'{line}', and the 1914 to mid 1915 firing table has only the columns Open, Soft Cover, "
                    "Medium Cover and Hard Cover: no fortified positions before mid 1915",
                )


class FlandersFieldsConsequences(GameRules):
    """What a Flanders Fields result does to the table (the game's rolls, `FlandersFieldsRolls`, are made of
    it)."""

    @staticmethod
    def _consequences(resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        # A shot spends an action of the firer's ordered unit ("Actions are; ... MOVE or FIRE"), an assault its
        # move into contact ("Troops require an order to move into contact with an enemy", game_orders).
        acted = Roll(resolver=resolver_id, unit_id=outcome.unit_id)
        spent = act_spent(snapshot, acted) if resolver_id in (SHOOTING, ASSAULT) else ()
        changes = (*spent, *_consequences(resolver_id, snapshot.after(spent), outcome))
        if outcome.unit_id is not None:
            changes += aiming_point_shown(snapshot.after(changes), resolver_id, outcome.unit_id)
        return changes
