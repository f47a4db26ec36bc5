"""The General's Wargame battle and its dice, as pure functions the campaign and the resolvers share:
initiative, troop bonuses and situation modifiers, who wins, and the rolls to destroy and capture."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.firestorm import data as D
from rules.firestorm.data import (
    ADJACENCY,
    AIF_NIGHT_BATTLES,
    AREA_NAMES,
    BATTLES,
    DESTROY_BY_VP,
    DESTROY_LOSER,
    DESTROY_WINNER_PRINTED,
    FIXED_ATTACKS,
    GAS_BONUS,
    INITIAL_CONTROL,
    INITIATIVE_BONUS,
    KIND_LABELS,
    KINDS,
    LAST_TURN,
    LAST_WINNER_BONUS,
    MAX_COMMITTED,
    OUT_OF_SUPPLY,
    OUT_OF_SUPPLY_EFFECTS,
    SRC_CAPTURE,
    SRC_DESTROY,
    SRC_DESTROY_GW,
    SRC_INITIATIVE,
    SRC_OUTCOME,
    SRC_RESOLVE,
    SRC_SITUATION,
    SRC_SUPPLY,
    SRC_VALUES,
    SRC_VP,
    SUPPLY,
    TANK_KINDS,
    TERRAIN,
    TRENCH_FROM_ENEMY_TRENCH,
    TRENCH_FROM_OTHER,
    TRENCH_OWNER,
    TROOPS,
    VALUES,
    VICTORY_LEVELS,
    VP_AREAS,
    VP_PER_CAPTURED,
    AreaId,
    Kind,
    Side,
)
from rules.firestorm.ruleset import Firestorm, FirestormRequest


def other(side: Side) -> Side:
    return "bef" if side == "german" else "german"


# -- the turn rules: one definition each, read by the campaign engine and the battle resolver ---------------
# "At the end of turn 2 all tank Firestorm Troops that remain in play from both sides are removed."
TANKS_LAST_TURN = 2
NON_TANK_KINDS: tuple[Kind, ...] = tuple(k for k in KINDS if k not in TANK_KINDS)


def tanks_in_play(turn: int) -> bool:
    """Tank Firestorm Troops fight on turns 1 and 2 only."""
    return turn <= TANKS_LAST_TURN


def aif_night_battle(turn: int, battle: int) -> bool:
    """Turn 3: 'Start by playing two Night Fight battles' led by the 13th and 15th Bde AIF (battle is 0-based)."""
    return turn == 3 and battle < AIF_NIGHT_BATTLES


def fixed_attack(turn: int, battle: int) -> tuple[str, str] | None:
    """Turn 1: 'The first attacks must be made as follows: D-2 attacks C-3 / D-3 attacks C-4 / C-5 attacks
    B-4' (battle is 0-based); the fourth is 'one more attack into any area of his choosing'."""
    if turn == 1 and battle < len(FIXED_ATTACKS):
        return FIXED_ATTACKS[battle]
    return None


def automatic_attacker(turn: int, battle: int) -> Side | None:
    """Turn 1: 'The German player is automatically the attacker in all four battles'; turn 3: 'AIF are
    automatically attackers in the first two battles'."""
    if turn == 1:
        return "german"
    if aif_night_battle(turn, battle):
        return "bef"
    return None


def check_turn_rules(
    turn: int, battle: int | None, attacker: Side, from_area: str, to_area: str, troops: dict[str, list[Kind]]
) -> None:
    """Refuse a battle its turn cannot have. `battle` is 0-based, None when unknown (then only the rules of
    the whole turn apply); `troops` maps a request field to the kinds it commits."""
    if battle is not None and battle >= BATTLES[turn]:
        raise RulesError("battle", f"turn {turn} has {BATTLES[turn]} battles", range(1, BATTLES[turn] + 1))
    # Without the battle's number only what holds for every battle of the turn applies: that of its last.
    auto = automatic_attacker(turn, BATTLES[turn] - 1 if battle is None else battle)
    if auto is not None and attacker != auto:
        rule = (
            "turn 1: the German player is automatically the attacker in all four battles"
            if turn == 1
            else "turn 3: the AIF are automatically the attackers in the first two (night) battles"
        )
        raise RulesError("attacker", rule, [auto])
    if battle is not None and (fixed := fixed_attack(turn, battle)) and (from_area, to_area) != fixed:
        raise RulesError(
            "to_area",
            f"turn {turn}, battle {battle + 1}: the first attacks are fixed, {fixed[0]} attacks {fixed[1]}",
            [f"{fixed[0]}->{fixed[1]}"],
        )
    if not tanks_in_play(turn):
        for field, kinds in troops.items():
            for i, kind in enumerate(kinds):
                if kind in TANK_KINDS:
                    raise RulesError(
                        f"{field}.{i}",
                        f"turn {turn}: tank Firestorm Troops are removed at the end of turn {TANKS_LAST_TURN}",
                        NON_TANK_KINDS,
                    )


# -- initiative -------------------------------------------------------------------------------------------


def initiative_modifiers(turn: int, last_winner: Side | None) -> dict[Side, list[Modifier]]:
    mods: dict[Side, list[Modifier]] = {"german": [], "bef": []}
    if turn in INITIATIVE_BONUS:
        mods[INITIATIVE_BONUS[turn]].append(
            Modifier(f"turn {turn} initiative bonus (wins ties)", 1, SRC_INITIATIVE)
        )
    if last_winner is not None:
        mods[last_winner].append(Modifier("won the last battle this turn", LAST_WINNER_BONUS, SRC_INITIATIVE))
    return mods


def initiative_winner(
    turn: int, last_winner: Side | None, german_die: int, bef_die: int
) -> tuple[Side, int, int]:
    mods = initiative_modifiers(turn, last_winner)
    g = german_die + sum(m.value for m in mods["german"])
    b = bef_die + sum(m.value for m in mods["bef"])
    if g == b:
        return INITIATIVE_BONUS[turn], g, b
    return ("german" if g > b else "bef"), g, b


# -- the battle -------------------------------------------------------------------------------------------
def troop_bonus(ctx: Context, kind: Kind, side: Side, area: str, turn: int) -> Modifier:
    terrain = TERRAIN[area]
    value = VALUES[kind][terrain]
    label = f"{KIND_LABELS[kind]} in {terrain}"
    if turn == 1 and side == "bef" and ctx.value("gas"):
        return Modifier(f"{label}, halved by gas", value // 2, ctx.citation("gas"))
    return Modifier(label, value, SRC_VALUES)


def trench_bonus(ctx: Context, defender: Side, from_area: str, to_area: str, turn: int) -> Modifier | None:
    if TERRAIN[to_area] != "trench":
        return None
    if ctx.value("trench-bonus") == "own" and TRENCH_OWNER[to_area] != defender:
        return None
    from_enemy_trench = TERRAIN[from_area] == "trench" and TRENCH_OWNER[from_area] == other(defender)
    value = TRENCH_FROM_ENEMY_TRENCH if from_enemy_trench else TRENCH_FROM_OTHER
    label = "trench attacked from enemy trench" if from_enemy_trench else "trench attacked from another area"
    if turn == 1 and defender == "bef" and ctx.value("gas"):
        return Modifier(f"{label}, halved by gas", value // 2, ctx.citation("gas"))
    return Modifier(label, value, ctx.citation("trench-bonus"))


@dataclass(frozen=True)
class BattleSetup:
    turn: int
    attacker: Side
    from_area: str
    to_area: str
    attacker_kinds: tuple[Kind, ...]
    defender_kinds: tuple[Kind, ...]
    attacker_in_supply: bool = True
    defender_in_supply: bool = True


def battle_modifiers(ctx: Context, b: BattleSetup) -> tuple[list[Modifier], list[Modifier]]:
    defender = other(b.attacker)
    att = [troop_bonus(ctx, k, b.attacker, b.to_area, b.turn) for k in b.attacker_kinds]
    dfn = [troop_bonus(ctx, k, defender, b.to_area, b.turn) for k in b.defender_kinds]
    tb = trench_bonus(ctx, defender, b.from_area, b.to_area, b.turn)
    if tb:
        dfn.append(tb)
    if b.turn == 1 and b.attacker == "german":
        att.append(Modifier("German gas attack", GAS_BONUS, SRC_SITUATION))
    if not b.attacker_in_supply:
        att.append(Modifier("out of supply", OUT_OF_SUPPLY, SRC_SUPPLY))
    if not b.defender_in_supply:
        dfn.append(Modifier("out of supply", OUT_OF_SUPPLY, SRC_SUPPLY))
    return att, dfn


@dataclass(frozen=True)
class BattleResult:
    winner: Side
    attacker_total: int
    defender_total: int
    difference: int
    attacker_won: bool


def battle_result(ctx: Context, b: BattleSetup, att_die: int, def_die: int) -> BattleResult:
    att, dfn = battle_modifiers(ctx, b)
    a = att_die + sum(m.value for m in att)
    d = def_die + sum(m.value for m in dfn)
    # "The higher roll wins the battle. A tie ... results in an attacker defeated."
    won = a > d
    return BattleResult(b.attacker if won else other(b.attacker), a, d, abs(a - d), won)


def destroy_target(ctx: Context, difference: int, lost: bool) -> int | None:
    """Score needed to destroy a Firestorm Troop after a General's Wargame battle (None: no roll)."""
    row = min(difference, int(ctx.value("destroy-beyond-5")))
    if lost:
        return DESTROY_LOSER[row]
    if row in DESTROY_WINNER_PRINTED:
        return DESTROY_WINNER_PRINTED[row]
    value = ctx.value("destroy-winner")
    return None if value is None else int(value)


def destroy_target_by_vp(opponent_vp: int) -> int | None:
    """Great War games: the score needed depends on the victory points the opponent scored."""
    return DESTROY_BY_VP[min(opponent_vp, 8)]


def great_war_attacker_won(ctx: Context, attacker_vp: int, defender_vp: int) -> bool:
    return attacker_vp >= int(ctx.value("great-war-victory")) and attacker_vp > defender_vp


# -- campaign score -----------------------------------------------------------------------------------------
def campaign_points(control: dict[str, Side], captured_by: dict[Side, int]) -> dict[Side, int]:
    pts: dict[Side, int] = {"german": 0, "bef": 0}
    for area, vp in VP_AREAS.items():
        pts[control[area]] += vp
    for side in pts:
        pts[side] += VP_PER_CAPTURED * captured_by[side]
    return pts


def campaign_outcome(ctx: Context, german: int, bef: int) -> tuple[str, str]:
    """(key, text): the level of victory by the difference in campaign points."""
    if german == bef:
        return "draw", "Draw"
    winner, name = ("bef", "Entente") if bef > german else ("german", "Central Powers")
    margin = abs(bef - german)
    for at_least, level in VICTORY_LEVELS:
        if margin >= at_least:
            return f"{winner} {level}", f"{name} {level} victory"
    if ctx.value("campaign-margin") == "draw":
        return "draw", "Draw"
    return f"{winner} victory", f"{name} victory"


# -- resolvers ----------------------------------------------------------------------------------------------
TurnField = Field(ge=1, le=LAST_TURN, description="Campaign turn, 1 to 4.")


class InitiativeRequest(FirestormRequest):
    turn: int = TurnField
    battle: int = Field(default=1, ge=1, le=5, description="Which battle of the turn (1-based).")
    last_winner: Side | None = Field(default=None, description="Side that won the last battle this turn.")


@Firestorm.resolver
class Initiative(Resolver[InitiativeRequest]):
    id = "initiative"
    summary = "Who attacks the next battle: automatic, or each side rolls a die with the turn's bonuses"
    Request = InitiativeRequest
    examples = ({"turn": 2, "battle": 2, "last_winner": "bef"}, {"turn": 1})

    def check(self, req: InitiativeRequest, ctx: Context) -> None:
        if req.battle > BATTLES[req.turn]:
            raise RulesError(
                "battle", f"turn {req.turn} has {BATTLES[req.turn]} battles", range(1, BATTLES[req.turn] + 1)
            )

    def dice(self, req: InitiativeRequest, ctx: Context) -> tuple[int, ...]:
        return () if automatic_attacker(req.turn, req.battle - 1) else (6, 6)

    def evaluate(self, req: InitiativeRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        auto = automatic_attacker(req.turn, req.battle - 1)
        if auto:
            return Evaluation(auto, f"{auto} attacks (automatic)", sources=(SRC_INITIATIVE,))
        mods = initiative_modifiers(req.turn, req.last_winner)
        winner, g, b = initiative_winner(req.turn, req.last_winner, dice[0], dice[1])
        labelled = tuple(
            Modifier(f"{s}: {m.label}", m.value, m.source) for s in ("german", "bef") for m in mods[s]
        )
        return Evaluation(
            winner,
            f"{winner} wins the initiative and attacks",
            labelled,
            None,
            (SRC_INITIATIVE,),
            {"german_total": g, "bef_total": b, "dice_order": ["german", "bef"]},
        )


class BattleRequest(FirestormRequest):
    turn: int = TurnField
    battle: int | None = Field(
        default=None,
        ge=1,
        le=max(BATTLES.values()),
        description="Which battle of the turn (1-based), for the turn's fixed attacks and automatic "
        "attackers; omit to check only the rules of the whole turn.",
    )
    attacker: Side
    from_area: AreaId = Field(description="Area attacked from.")
    to_area: AreaId = Field(description="Area attacked into (its terrain sets the troop values).")
    attacker_troops: list[Kind] = Field(
        min_length=1, max_length=MAX_COMMITTED, description="Committed Firestorm Troops."
    )
    defender_troops: list[Kind] = Field(default_factory=list, max_length=MAX_COMMITTED)
    attacker_in_supply: bool = True
    defender_in_supply: bool = True


def setup_of(req: BattleRequest) -> BattleSetup:
    return BattleSetup(
        req.turn,
        req.attacker,
        req.from_area,
        req.to_area,
        tuple(req.attacker_troops),
        tuple(req.defender_troops),
        req.attacker_in_supply,
        req.defender_in_supply,
    )


@Firestorm.resolver
class Battle(Resolver[BattleRequest]):
    id = "battle"
    summary = "The General's Wargame: each side rolls a die plus troop values and situation modifiers"
    Request = BattleRequest
    examples = (
        {
            "turn": 1,
            "attacker": "german",
            "from_area": "D-2",
            "to_area": "C-3",
            "attacker_troops": ["other-infantry", "heavy-tank"],
            "defender_troops": ["other-infantry"],
        },
        {
            "turn": 3,
            "attacker": "bef",
            "from_area": "B-1",
            "to_area": "B-2",
            "attacker_troops": ["veteran-british", "veteran-british"],
            "dice": [5, 2],
        },
    )

    def check(self, req: BattleRequest, ctx: Context) -> None:
        check_turn_rules(
            req.turn,
            None if req.battle is None else req.battle - 1,
            req.attacker,
            req.from_area,
            req.to_area,
            {"attacker_troops": req.attacker_troops, "defender_troops": req.defender_troops},
        )
        if req.to_area not in ADJACENCY[req.from_area]:
            raise RulesError(
                "to_area",
                f"{req.to_area} is not adjacent to {req.from_area} (map.json)",
                ADJACENCY[req.from_area],
            )

    def dice(self, req: BattleRequest, ctx: Context) -> tuple[int, ...]:
        return (6, 6)  # attacker's die, defender's die

    def evaluate(self, req: BattleRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        b = setup_of(req)
        att, dfn = battle_modifiers(ctx, b)
        r = battle_result(ctx, b, dice[0], dice[1])
        loser_target = destroy_target(ctx, r.difference, lost=True)
        winner_target = destroy_target(ctx, r.difference, lost=False)
        key = "attacker wins" if r.attacker_won else "defender wins"
        return Evaluation(
            key,
            {"winner": r.winner, "area_captured": r.attacker_won, "difference": r.difference},
            (
                *(Modifier(f"attacker: {m.label}", m.value, m.source) for m in att),
                *(Modifier(f"defender: {m.label}", m.value, m.source) for m in dfn),
            ),
            r.attacker_total - r.defender_total,
            (SRC_RESOLVE, SRC_DESTROY_GW),
            {
                "attacker_total": r.attacker_total,
                "defender_total": r.defender_total,
                "dice_order": ["attacker", "defender"],
                "destroy_losing_troops_on": loser_target,
                "destroy_winning_troops_on": winner_target,
            },
        )


class DestroyRequest(FirestormRequest):
    mode: Literal["generals-wargame", "great-war"] = "generals-wargame"
    difference: int = Field(
        default=0, ge=0, le=40, description="General's Wargame: difference of the totals."
    )
    opponent_vp: int = Field(
        default=0, ge=0, le=20, description="Great War: victory points the opponent scored."
    )
    lost: bool = Field(description="The troop's side lost the battle (then a second roll may capture it).")
    out_of_supply: bool = Field(
        default=False, description="Destroyed while out of supply: captured outright."
    )


@Firestorm.resolver
class Destroy(Resolver[DestroyRequest]):
    id = "roll-to-destroy"
    summary = "Roll to destroy a committed Firestorm Troop, then to capture it if its side lost"
    Request = DestroyRequest
    examples = (
        {"lost": True, "mode": "great-war", "opponent_vp": 7, "dice": [5, 6]},
        {"lost": False, "difference": 1},
    )

    def target(self, req: DestroyRequest, ctx: Context) -> int | None:
        if req.mode == "great-war":
            return destroy_target_by_vp(req.opponent_vp)
        return destroy_target(ctx, req.difference, req.lost)

    def dice(self, req: DestroyRequest, ctx: Context) -> tuple[int, ...]:
        if self.target(req, ctx) is None:
            return ()
        return (6, 6) if req.lost and not req.out_of_supply else (6,)

    def evaluate(self, req: DestroyRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        target = self.target(req, ctx)
        srcs: tuple[str, ...] = (SRC_DESTROY if req.mode == "great-war" else SRC_DESTROY_GW,)
        if req.mode == "generals-wargame" and not req.lost and req.difference >= 3:
            srcs = (*srcs, ctx.citation("destroy-winner"))
        if target is None:
            return Evaluation(
                "survives", "no roll: the troop survives", sources=srcs, details={"needed": None}
            )
        if dice[0] < target:
            return Evaluation("survives", "survives", total=dice[0], sources=srcs, details={"needed": target})
        if req.lost and (req.out_of_supply or dice[1] >= target):
            return Evaluation(
                "captured",
                "destroyed and captured",
                total=dice[0],
                sources=(*srcs, SRC_CAPTURE),
                details={"needed": target},
            )
        return Evaluation("destroyed", "destroyed", total=dice[0], sources=srcs, details={"needed": target})


class OutcomeRequest(FirestormRequest):
    german_points: int = Field(ge=0, le=2000)
    bef_points: int = Field(ge=0, le=2000)


@Firestorm.resolver
class Outcome(Resolver[OutcomeRequest]):
    id = "campaign-outcome"
    summary = "The level of victory from both sides' campaign victory points"
    Request = OutcomeRequest
    examples = ({"german_points": 180, "bef_points": 250},)

    def dice(self, req: OutcomeRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: OutcomeRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        key, text = campaign_outcome(ctx, req.german_points, req.bef_points)
        return Evaluation(
            key,
            text,
            total=req.bef_points - req.german_points,
            sources=(SRC_OUTCOME, ctx.citation("campaign-margin")),
        )


# -- datasets --------------------------------------------------------------------------------------------------
class MapArea(TypedDict):
    """An area of the campaign map: its name, terrain, victory points, whose trench, who holds it first, and
    its neighbours."""

    id: str
    name: str
    terrain: D.Terrain
    victory_points: int
    trench_of: D.Side | None
    initial_control: D.Side
    adjacent: list[str]


class CampaignMapData(TypedDict):
    areas: list[MapArea]
    supply: dict[D.Side, list[str]]
    captured_troop_points: int
    sources: list[str]
    errata: list[str]


class TroopRow(TypedDict):
    id: str
    name: str
    side: D.Side
    kind: D.Kind
    points: int
    area: str | None
    brigade: str


class TroopsData(TypedDict):
    """The Firestorm Troops, each kind's value by terrain, and the situation modifiers."""

    troops: list[TroopRow]
    values: dict[D.Kind, dict[D.Terrain, int]]
    situation_modifiers: dict[str, int]


class TurnsData(TypedDict):
    """The campaign's turns: battles a turn, initiative bonuses, fixed attacks, the rolls to destroy by result,
    victory levels and the effects of being out of supply."""

    battles: dict[int, int]
    initiative_bonus: dict[int, D.Side]
    turn_1_fixed_attacks: list[list[str]]
    aif_night_battles_turn_3: int
    destroy_generals_wargame_losing: dict[int, int]
    destroy_generals_wargame_winning_printed: dict[int, int]
    destroy_great_war_by_vp: dict[int, int | None]
    victory_levels: dict[int, str]
    out_of_supply_effects: list[str]


@Firestorm.dataset(
    "map", "Campaign map: areas, terrain, victory points, supply edges, adjacency (reconstructed)"
)
def _map(_p: str | None) -> CampaignMapData:
    return {
        "areas": [
            {
                "id": a,
                "name": AREA_NAMES.get(a, ""),
                "terrain": TERRAIN[a],
                "victory_points": VP_AREAS.get(a, 0),
                "trench_of": TRENCH_OWNER.get(a),
                "initial_control": INITIAL_CONTROL[a],
                "adjacent": list(ADJACENCY[a]),
            }
            for a in ADJACENCY
        ],
        "supply": {s: list(v) for s, v in SUPPLY.items()},
        "captured_troop_points": VP_PER_CAPTURED,
        "sources": [SRC_VP],
        "errata": ["map-adjacency", "initial-control"],
    }


@Firestorm.dataset("troops", "Firestorm Troops: side, kind, points, starting area; values by terrain")
def _troops(_p: str | None) -> TroopsData:
    return {
        "troops": [
            {
                "id": t.id,
                "name": t.name,
                "side": t.side,
                "kind": t.kind,
                "points": t.points,
                "area": t.area,
                "brigade": t.brigade,
            }
            for t in TROOPS
        ],
        "values": {k: VALUES[k] for k in KINDS},
        "situation_modifiers": {
            "trench attacked from enemy trench": TRENCH_FROM_ENEMY_TRENCH,
            "trench attacked from any other area": TRENCH_FROM_OTHER,
            "German gas attack (first turn attacking)": GAS_BONUS,
            "out of supply": OUT_OF_SUPPLY,
        },
    }


@Firestorm.dataset("turns", "Campaign turns: battles, initiative bonuses, roll-to-destroy tables")
def _turns(_p: str | None) -> TurnsData:
    return {
        "battles": BATTLES,
        "initiative_bonus": INITIATIVE_BONUS,
        "turn_1_fixed_attacks": [list(p) for p in FIXED_ATTACKS],
        "aif_night_battles_turn_3": AIF_NIGHT_BATTLES,
        "destroy_generals_wargame_losing": DESTROY_LOSER,
        "destroy_generals_wargame_winning_printed": DESTROY_WINNER_PRINTED,
        "destroy_great_war_by_vp": DESTROY_BY_VP,
        "victory_levels": dict(VICTORY_LEVELS),
        "out_of_supply_effects": list(OUT_OF_SUPPLY_EFFECTS),
    }
