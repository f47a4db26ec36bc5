"""The Firestorm rules that shape a Great War game fought for the campaign: which mission, the defender's trench
HMG nests, the light (night battles and the Dusk/Dawn optional rule) and the roll for nightfall at Dusk, the
historical tank limits, Firestorm Troops taken as points, and the Out of Supply roll."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, NotRequired, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.firestorm.battle import aif_night_battle, check_turn_rules, fixed_attack, other
from rules.firestorm.data import (
    ADJACENCY,
    AIF_NIGHT_BATTLES,
    BATTLES,
    LAST_TURN,
    SRC_SUPPLY,
    TRENCH_OWNER,
    AreaId,
    Side,
)
from rules.firestorm.great_war_data import (
    ATTACKER_RULE,
    BIG_PUSH,
    DUSK_FIRST_DEFENDER_TURN,
    DUSK_TURN_LIMIT,
    FORCE_POINTS_LIMIT,
    GASSED_BEF_TROOPS,
    GREAT_WAR_PAGE,
    GREEN_FIELDS,
    HISTORICAL_TANK_TURNS,
    MISSION_NAMES,
    MORALE_RAISED,
    MORALE_REDUCED,
    MUD_FROM_ELSEWHERE,
    MUD_FROM_ENEMY_TRENCH,
    MUD_OWN_LOST,
    NESTS_FROM_ENEMY_TRENCH,
    NESTS_FROM_OTHER,
    NESTS_GASSED,
    NIGHT_RULES,
    NIGHTFALL_ON,
    POINTS_CARDS,
    SRC_ATTACKER,
    SRC_CARDS,
    SRC_DUSK,
    SRC_DUSK_DAWN,
    SRC_GAS,
    SRC_HISTORICAL,
    SRC_MISSION,
    SRC_NEST_CARD,
    SRC_NESTS,
    SRC_NIGHT,
    SRC_OOS_CAPTURED,
    SRC_OUT_OF_SUPPLY,
    SRC_POINTS,
    SRC_TURN_1,
    STRENGTH_KEPT_PERCENT,
    TANK_ALLOWANCES,
    Card,
    Light,
    Mission,
    Motivation,
    SupplyEffect,
    TankTroop,
    gassed_half,
)
from rules.firestorm.ruleset import Firestorm, FirestormRequest

TurnField = Field(ge=1, le=LAST_TURN, description="Campaign turn, 1 to 4.")


# -- mission -------------------------------------------------------------------------------------------------
def mission_for(attacker: Side, from_area: str, to_area: str) -> tuple[Mission, str]:
    """The mission and the clause of the text that picks it. The attacker holds from_area and the defender
    to_area, so only who started in each trench matters."""
    defender = other(attacker)
    from_owner, to_owner = TRENCH_OWNER.get(from_area), TRENCH_OWNER.get(to_area)
    if from_owner == defender:
        return "through-the-mud-and-blood", MUD_FROM_ENEMY_TRENCH
    if to_owner == attacker:
        return "through-the-mud-and-blood", MUD_OWN_LOST
    if to_owner == defender:
        if from_owner == attacker:
            return "the-big-push", BIG_PUSH
        return "through-the-mud-and-blood", MUD_FROM_ELSEWHERE
    return "the-green-fields-beyond", GREEN_FIELDS


def trench_hmg_nests(
    ctx: Context, attacker: Side, from_area: str, to_area: str, turn: int
) -> tuple[int, str, tuple[str, ...]]:
    """The defender's HMG nests: (count, why, sources). The attacker holds from_area, so under the card's
    reading (erratum hmg-nests-enemy-trench) any trench attacked from is an enemy trench."""
    defender = other(attacker)
    if to_area not in TRENCH_OWNER:
        return 0, f"{to_area} is not a trench area", (SRC_NESTS,)
    if TRENCH_OWNER[to_area] != defender:
        return 0, "You get no bonus for defending in trenches you have captured from the enemy.", (SRC_NESTS,)
    sources = (SRC_NESTS, SRC_NEST_CARD, ctx.citation("hmg-nests-enemy-trench"))
    if ctx.value("hmg-nests-enemy-trench") == "held" and from_area in TRENCH_OWNER:
        nests, why = NESTS_FROM_ENEMY_TRENCH, "attacked from an enemy trench"
    elif TRENCH_OWNER.get(from_area) == attacker:
        nests, why = NESTS_FROM_ENEMY_TRENCH, "attacked from trenches that started in enemy control"
    else:
        nests, why = NESTS_FROM_OTHER, "attacked from any other area"
    if gassed(turn, defender):
        # "one HMG nest instead of two", and a trench attacked from the side or rear keeps its single nest.
        return min(nests, NESTS_GASSED), f"{why}; halved by the turn 1 gas attack", (*sources, SRC_GAS)
    return nests, why, sources


def gassed(turn: int, side: Side) -> bool:
    """'In turn 1 the Germans use gas in their initial attack. This means that all BEF Firestorm Troops and
    Trench defences are halved on turn 1.'"""
    return turn == 1 and side == "bef"


class BattleAreasRequest(FirestormRequest):
    turn: int = TurnField
    battle: int | None = Field(
        default=None,
        ge=1,
        le=max(BATTLES.values()),
        description="Which battle of the turn (1-based), for the turn's fixed attacks and night battles.",
    )
    attacker: Side = Field(description="The side that won the initiative.")
    from_area: AreaId = Field(description="Area attacked from.")
    to_area: AreaId = Field(description="Area attacked into.")


def check_battle_areas(req: BattleAreasRequest) -> None:
    check_turn_rules(
        req.turn, None if req.battle is None else req.battle - 1, req.attacker, req.from_area, req.to_area, {}
    )
    if req.to_area not in ADJACENCY[req.from_area]:
        raise RulesError(
            "to_area",
            f"{req.to_area} is not adjacent to {req.from_area} (map.json)",
            ADJACENCY[req.from_area],
        )


@Firestorm.resolver
class MissionSelection(Resolver[BattleAreasRequest]):
    id = "mission"
    summary = "Which Great War mission a battle is: The Big Push, Through the Mud and Blood or The Green Fields Beyond"
    Request = BattleAreasRequest
    examples = (
        {"turn": 1, "battle": 1, "attacker": "german", "from_area": "D-2", "to_area": "C-3"},
        {"turn": 2, "attacker": "german", "from_area": "C-3", "to_area": "C-2"},
    )

    def check(self, req: BattleAreasRequest, ctx: Context) -> None:
        check_battle_areas(req)

    def dice(self, req: BattleAreasRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: BattleAreasRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mission, clause = mission_for(req.attacker, req.from_area, req.to_area)
        nests, why, nest_sources = trench_hmg_nests(ctx, req.attacker, req.from_area, req.to_area, req.turn)
        sources: tuple[str, ...] = (SRC_MISSION, SRC_ATTACKER, *nest_sources)
        changes = [ATTACKER_RULE, f"the defender gets {nests} trench HMG nest(s): {why}"]
        battle0 = None if req.battle is None else req.battle - 1
        if battle0 is not None and fixed_attack(req.turn, battle0):
            changes.append("turn 1: 'All these missions are played as The Big Push'")
            sources = (*sources, SRC_TURN_1)
        if req.turn == 1:
            changes.append(
                "the entire turn is under gas: BEF Firestorm Troops and trench defences are halved"
            )
            changes.extend(f"BEF {t}" for t in GASSED_BEF_TROOPS)
            sources = (*sources, SRC_GAS)
        if battle0 is not None and aif_night_battle(req.turn, battle0):
            changes.extend(NIGHT_RULES)
            sources = (*sources, SRC_NIGHT)
        return Evaluation(
            mission,
            MISSION_NAMES[mission],
            sources=sources,
            details={
                "mission": MISSION_NAMES[mission],
                "why": clause,
                "attacker": req.attacker,
                "defender": other(req.attacker),
                "defender_hmg_nests": nests,
                "changes": changes,
                "mission_rules": "the mission's own rules are in the Great War rulebook",
            },
        )


@Firestorm.resolver
class TrenchHmgNests(Resolver[BattleAreasRequest]):
    id = "trench-hmg-nests"
    summary = "HMG nests a defender gets in the trenches it started in: two, one, or none"
    Request = BattleAreasRequest
    examples = (
        {"turn": 2, "attacker": "german", "from_area": "D-2", "to_area": "C-3"},
        {"turn": 1, "battle": 2, "attacker": "german", "from_area": "D-3", "to_area": "C-4"},
    )

    def check(self, req: BattleAreasRequest, ctx: Context) -> None:
        check_battle_areas(req)

    def dice(self, req: BattleAreasRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: BattleAreasRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        nests, why, sources = trench_hmg_nests(ctx, req.attacker, req.from_area, req.to_area, req.turn)
        return Evaluation(
            f"{nests} HMG nests",
            {"hmg_nests": nests, "side": other(req.attacker)},
            total=nests,
            sources=sources,
            details={
                "why": why,
                "points": None,  # the card prints "N/A": nests cost nothing and are not Firestorm Troops
                "in_addition_to_firestorm_troops": True,
            },
        )


# -- light: night battles, Dusk and Dawn -----------------------------------------------------------------------
def first_day_battle(turn: int) -> int:
    """1-based: the first battle fought after the night, on turns 3 and 4."""
    return AIF_NIGHT_BATTLES + 1 if turn == 3 else 1


def battle_light(turn: int, battle: int, dusk_and_dawn: bool) -> Light:
    """Battle is 1-based. 'Turn 1 is all in daylight. Fight the last battle in turn 2 using the rules for Dusk.
    After fighting the two night time battles on turn 3, play the first battle using the rules for Dawn and the
    last for Dusk and the first battle on turn 4 with Dawn and the last with Dusk.'"""
    if aif_night_battle(turn, battle - 1):
        return "night"
    if not dusk_and_dawn or turn == 1:
        return "daylight"
    if turn in (3, 4) and battle == first_day_battle(turn):
        return "dawn"
    if battle == BATTLES[turn]:
        return "dusk"
    return "daylight"


LIGHT_RULES: dict[Light, tuple[str, ...]] = {
    "daylight": ("fought in daylight",),
    "night": NIGHT_RULES,
    "dawn": (f"the rules for Dawn: Great War rulebook, page {GREAT_WAR_PAGE} (not printed in Firestorm)",),
    "dusk": (
        "the game starts in Daylight",
        f"from the start of the Defender's turn {DUSK_FIRST_DEFENDER_TURN}, roll for nightfall (resolver 'dusk')",
    ),
}


class BattleLightRequest(FirestormRequest):
    turn: int = TurnField
    battle: int = Field(ge=1, le=max(BATTLES.values()), description="Which battle of the turn (1-based).")
    dusk_and_dawn: bool = Field(default=True, description="The Dusk and Dawn optional rule is in play.")


def check_battle_number(turn: int, battle: int) -> None:
    if battle > BATTLES[turn]:
        raise RulesError("battle", f"turn {turn} has {BATTLES[turn]} battles", range(1, BATTLES[turn] + 1))


@Firestorm.resolver
class BattleLight(Resolver[BattleLightRequest]):
    id = "battle-light"
    summary = (
        "Daylight, night, dawn or dusk for a battle of the turn (night battles and the Dusk/Dawn option)"
    )
    Request = BattleLightRequest
    examples = (
        {"turn": 2, "battle": 5},
        {"turn": 3, "battle": 1},
        {"turn": 4, "battle": 1, "dusk_and_dawn": False},
    )

    def check(self, req: BattleLightRequest, ctx: Context) -> None:
        check_battle_number(req.turn, req.battle)

    def dice(self, req: BattleLightRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: BattleLightRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        light = battle_light(req.turn, req.battle, req.dusk_and_dawn)
        sources: tuple[str, ...] = (SRC_NIGHT,) if light == "night" else (SRC_DUSK_DAWN,)
        if light == "dusk":
            sources = (*sources, SRC_DUSK)
        return Evaluation(light, light, sources=sources, details={"rules": list(LIGHT_RULES[light])})


def dusk_dice(player: Literal["attacker", "defender"], game_turn: int) -> int:
    """Dice rolled for nightfall: one at the Defender's turn 3, then one more at each player's turn after."""
    # Player turns run attacker 1, defender 1, attacker 2, ...: the Defender's turn 3 is the 6th.
    player_turn = 2 * game_turn - (1 if player == "attacker" else 0)
    return player_turn - 2 * DUSK_FIRST_DEFENDER_TURN + 1


class DuskRequest(FirestormRequest):
    turn: int = Field(ge=1, le=LAST_TURN, description="Campaign turn with a Dusk battle: 2, 3 or 4.")
    battle: int | None = Field(
        default=None, ge=1, le=max(BATTLES.values()), description="Battle of the turn (1-based): its last."
    )
    player: Literal["defender", "attacker"] = Field(
        description="Whose turn of the Great War game is starting."
    )
    game_turn: int = Field(
        ge=1,
        le=DUSK_TURN_LIMIT,
        description="That player's turn number in the game (first roll: Defender's 3).",
    )


@Firestorm.resolver
class Dusk(Resolver[DuskRequest]):
    id = "dusk"
    summary = "Dusk (optional rule): does night fall at the start of this player's turn? Any die of 5+"
    Request = DuskRequest
    examples = (
        {"turn": 2, "battle": 5, "player": "defender", "game_turn": 3},
        {"turn": 4, "player": "attacker", "game_turn": 4},
    )

    def check(self, req: DuskRequest, ctx: Context) -> None:
        dusk_turns = [t for t in BATTLES if battle_light(t, BATTLES[t], True) == "dusk"]
        if req.turn not in dusk_turns:
            raise RulesError(
                "turn", f"turn {req.turn} is all in daylight: no battle is fought at Dusk", dusk_turns
            )
        if req.battle is not None:
            check_battle_number(req.turn, req.battle)
            if battle_light(req.turn, req.battle, True) != "dusk":
                raise RulesError(
                    "battle", f"turn {req.turn}: only the last battle is fought at Dusk", [BATTLES[req.turn]]
                )
        if dusk_dice(req.player, req.game_turn) < 1:
            first = DUSK_FIRST_DEFENDER_TURN if req.player == "defender" else DUSK_FIRST_DEFENDER_TURN + 1
            raise RulesError(
                "game_turn",
                f"wait for turn {first}: the {req.player} rolls for nightfall from then on",
                range(first, DUSK_TURN_LIMIT + 1),
                why=f"the first roll for nightfall is at the start of the Defender's turn {DUSK_FIRST_DEFENDER_TURN}; "
                f"the {req.player} first rolls at turn {first}",
            )

    def dice(self, req: DuskRequest, ctx: Context) -> tuple[int, ...]:
        return (6,) * dusk_dice(req.player, req.game_turn)

    def evaluate(self, req: DuskRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        fallen = any(d >= NIGHTFALL_ON for d in dice)
        return Evaluation(
            "night falls" if fallen else "still light",
            "night has fallen: the rest of the battle is fought in Darkness" if fallen else "still light",
            total=max(dice),
            sources=(SRC_DUSK, SRC_DUSK_DAWN),
            details={"dice_rolled": len(dice), "needed": NIGHTFALL_ON},
        )

    def probabilities(self, req: DuskRequest, ctx: Context) -> dict[str, Fraction]:
        # Exact without enumerating 6**n rolls: night stays away only if every die is under 5.
        light = Fraction(NIGHTFALL_ON - 1, 6) ** dusk_dice(req.player, req.game_turn)
        return {"night falls": 1 - light, "still light": light}


# -- historical tank limits ----------------------------------------------------------------------------------
class HistoricalTanksRequest(FirestormRequest):
    turn: int = TurnField
    battle: int | None = Field(
        default=None, ge=1, le=max(BATTLES.values()), description="Battle of the turn."
    )
    troop: TankTroop = Field(description="The tank Firestorm Troop present in the battle.")
    extra_tanks: int = Field(
        default=0, ge=0, le=25, description="Tanks added beyond the Firestorm Troop's own."
    )


def tank_limit_choices(troop: str, ctx: Context) -> list[int]:
    allowance = TANK_ALLOWANCES[troop]
    if troop == "x-coy-price" and ctx.value("whippet-extras") == "all-or-none":
        return [0, allowance.max_extra]
    return list(range(allowance.max_extra + 1))


@Firestorm.resolver
class HistoricalTanks(Resolver[HistoricalTanksRequest]):
    id = "historical-tanks"
    summary = "Historical play: the tanks a force may field with a tank Firestorm Troop, and their points"
    Request = HistoricalTanksRequest
    examples = ({"turn": 1, "troop": "group-iii", "extra_tanks": 5}, {"turn": 2, "troop": "x-coy-price"})

    def check(self, req: HistoricalTanksRequest, ctx: Context) -> None:
        if req.turn not in HISTORICAL_TANK_TURNS:
            raise RulesError(
                "turn",
                f"turn {req.turn}: in turns 3 and 4 there are no tanks available",
                HISTORICAL_TANK_TURNS,
            )
        if req.battle is not None:
            check_battle_number(req.turn, req.battle)
        allowed = tank_limit_choices(req.troop, ctx)
        if req.extra_tanks not in allowed:
            a = TANK_ALLOWANCES[req.troop]
            raise RulesError(
                "extra_tanks", f"{req.troop} may add {a.max_extra} {a.extra_tank}(s) at most", allowed
            )

    def dice(self, req: HistoricalTanksRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: HistoricalTanksRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        a = TANK_ALLOWANCES[req.troop]
        sources: tuple[str, ...] = (SRC_HISTORICAL,)
        if req.troop == "x-coy-price":
            sources = (*sources, ctx.citation("whippet-extras"))
        return Evaluation(
            "allowed",
            {"tanks": a.base_tanks + req.extra_tanks, "extra_points": a.points_each * req.extra_tanks},
            total=a.base_tanks + req.extra_tanks,
            sources=sources,
            details={
                "printed": a.printed,
                "extra_tank": a.extra_tank,
                "max_extra": a.max_extra,
                "points_each": a.points_each,
                "rating": "All have the same rating as the Firestorm Troop.",
            },
        )


# -- Firestorm Troops taken as points ---------------------------------------------------------------------------
class TroopPointsRequest(FirestormRequest):
    force_points: int = Field(
        ge=1, le=FORCE_POINTS_LIMIT, description="Points of your force before Firestorm Troops."
    )
    first_troop: Card = Field(description="Firestorm Troop card taken as points instead of its unit.")
    second_troop: Card | None = Field(default=None, description="A second Firestorm Troop card (up to two).")
    turn: int | None = Field(
        default=None,
        ge=1,
        le=LAST_TURN,
        description="Campaign turn: on turn 1 the gas halves BEF Firestorm Troops (erratum gassed-troop-points).",
    )


@Firestorm.resolver
class TroopPoints(Resolver[TroopPointsRequest]):
    id = "troop-points"
    summary = "Firestorm Troop points value: add the card's points to your force instead of its unit"
    Request = TroopPointsRequest
    examples = (
        {"force_points": 100, "first_troop": "stoss", "second_troop": "a7v"},
        {"force_points": 100, "first_troop": "58-bn-mgc", "turn": 1},
    )

    def check(self, req: TroopPointsRequest, ctx: Context) -> None:
        if req.second_troop is not None:
            side = POINTS_CARDS[req.first_troop].side
            if POINTS_CARDS[req.second_troop].side != side:
                raise RulesError(
                    "second_troop",
                    f"both Firestorm Troops must be of one side ({side})",
                    [c.id for c in POINTS_CARDS.values() if c.side == side],
                )

    def dice(self, req: TroopPointsRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: TroopPointsRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        cards = [POINTS_CARDS[c] for c in (req.first_troop, req.second_troop) if c is not None]
        sources: tuple[str, ...] = (SRC_POINTS, SRC_CARDS)
        gas = req.turn is not None and gassed(req.turn, cards[0].side)
        halve = gas and ctx.value("gassed-troop-points") == "halved"
        if gas:
            sources = (*sources, SRC_GAS, ctx.citation("gassed-troop-points"))
        points = [gassed_half(c.points) if halve else c.points for c in cards]
        added = sum(points)
        return Evaluation(
            "points",
            {"force_points": req.force_points + added, "added_points": added},
            total=req.force_points + added,
            sources=sources,
            details={
                "instead_of": [
                    {"card": c.printed, "points": c.points, "unit": c.unit, "points_added": p}
                    for c, p in zip(cards, points, strict=True)
                ],
                "gassed": gas,
                "note": "They are of less value than the Firestorm Troop itself: that is intentional.",
            },
        )


# -- Out of Supply ---------------------------------------------------------------------------------------------
class OutOfSupplyRequest(FirestormRequest):
    motivation: Motivation | None = Field(
        default=None, description="Motivation of a platoon, to see its change."
    )
    force_points: int | None = Field(
        default=None, ge=1, le=FORCE_POINTS_LIMIT, description="Points of your force before Firestorm Troops."
    )


class SupplyOutcome(TypedDict):
    """The Out of Supply roll's effect, and with them given, the platoon's motivation and the force's points
    after it."""

    effect: SupplyEffect
    motivation: NotRequired[str]
    force_points: NotRequired[int]


def reduced_force(points: int, ctx: Context) -> int:
    kept = Fraction(points * STRENGTH_KEPT_PERCENT, 100)
    whole = kept.numerator // kept.denominator
    return whole if ctx.value("out-of-supply-strength-rounding") == "down" or kept == whole else whole + 1


@Firestorm.resolver
class OutOfSupply(Resolver[OutOfSupplyRequest]):
    id = "out-of-supply"
    summary = "Out of Supply (Great War games): roll a D6 on the table; the effect lasts the whole game"
    Request = OutOfSupplyRequest
    examples = ({"motivation": "confident", "force_points": 1250}, {"dice": [6], "motivation": "fearless"})

    def evaluate(self, req: OutOfSupplyRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        effect: SupplyEffect = ctx.value("out-of-supply-table")[dice[0] - 1]
        outcome: SupplyOutcome = {"effect": effect}
        sources: tuple[str, ...] = (SRC_OUT_OF_SUPPLY, ctx.citation("out-of-supply-table"), SRC_SUPPLY)
        if req.motivation is not None and effect in ("morale reduced", "one motivational level higher"):
            table = MORALE_REDUCED if effect == "morale reduced" else MORALE_RAISED
            outcome["motivation"] = table[req.motivation]
        if req.force_points is not None:
            strength_cut = effect == "strength reduced"
            outcome["force_points"] = (
                reduced_force(req.force_points, ctx) if strength_cut else req.force_points
            )
            if strength_cut:
                sources = (*sources, ctx.citation("out-of-supply-strength-rounding"))
        return Evaluation(
            effect,
            outcome,
            total=dice[0],
            sources=(*sources, SRC_OOS_CAPTURED),
            details={
                "lasts": "the effects last for the duration of the game",
                "firestorm_troops_affected": effect != "strength reduced",
                "destroyed_firestorm_troops_are_captured": True,
            },
        )


# -- dataset -------------------------------------------------------------------------------------------------
class HmgNests(TypedDict):
    from_enemy_trench: int
    from_other_area: int
    gassed: int


class TankAllowanceRow(TypedDict):
    """A tank troop's tanks under the historical-play option: the base, the extra as printed, how many, cost."""

    base: int
    extra: str
    max_extra: int
    points_each: int


class PointsCardRow(TypedDict):
    side: str
    points: int
    unit: str
    troops: list[str]


class SupplyTables(TypedDict):
    morale_reduced: dict[Motivation, str]
    one_level_higher: dict[Motivation, str]


class GreatWarData(TypedDict):
    """Great War games in the campaign: the mission by where the attack comes from, the trench HMG nests, the
    light of each battle, the historical tanks, the troops' points cards, out of supply, the errata."""

    missions: dict[str, list[str]]
    trench_hmg_nests: HmgNests
    light_with_dusk_and_dawn: dict[int, list[Light]]
    historical_tanks: dict[str, TankAllowanceRow]
    points_cards: dict[str, PointsCardRow]
    out_of_supply: SupplyTables
    errata: list[str]


@Firestorm.dataset(
    "great-war", "Great War games: missions, trench HMG nests, light, tank limits, points, supply"
)
def _great_war(_p: str | None) -> GreatWarData:
    return {
        "missions": {
            MISSION_NAMES["the-big-push"]: [BIG_PUSH],
            MISSION_NAMES["through-the-mud-and-blood"]: [
                MUD_FROM_ENEMY_TRENCH,
                MUD_FROM_ELSEWHERE,
                MUD_OWN_LOST,
            ],
            MISSION_NAMES["the-green-fields-beyond"]: [GREEN_FIELDS],
        },
        "trench_hmg_nests": {
            "from_enemy_trench": NESTS_FROM_ENEMY_TRENCH,
            "from_other_area": NESTS_FROM_OTHER,
            "gassed": NESTS_GASSED,
        },
        "light_with_dusk_and_dawn": {
            t: [battle_light(t, b, True) for b in range(1, n + 1)] for t, n in BATTLES.items()
        },
        "historical_tanks": {
            t: {
                "base": a.base_tanks,
                "extra": a.extra_tank,
                "max_extra": a.max_extra,
                "points_each": a.points_each,
            }
            for t, a in TANK_ALLOWANCES.items()
        },
        "points_cards": {
            c.id: {"side": c.side, "points": c.points, "unit": c.unit, "troops": list(c.troops)}
            for c in POINTS_CARDS.values()
        },
        "out_of_supply": {"morale_reduced": MORALE_REDUCED, "one_level_higher": MORALE_RAISED},
        "errata": [
            "out-of-supply-table",
            "out-of-supply-strength-rounding",
            "whippet-extras",
            "hmg-nests-enemy-trench",
            "gassed-troop-points",
        ],
    }
