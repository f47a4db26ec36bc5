"""Firestorm: Villers-Bretonneux as data: map areas, terrain, victory points, supply edges, Firestorm
Troops and their values, deployments, turns, situation modifiers, roll-to-destroy tables, campaign outcome.
The map's adjacency is a reconstruction kept in map.json (the text prints none)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rules.core.ruleset import Erratum, Reading
from rules.firestorm.ruleset import Firestorm, cite

Side = Literal["german", "bef"]
SIDES: tuple[Side, ...] = ("german", "bef")
AreaId = Literal[
    "A-1", "A-2", "A-3", "B-1", "B-2", "B-3", "B-4", "B-5", "C-1", "C-2",
    "C-3", "C-4", "C-5", "D-1", "D-2", "D-3", "D-4", "E-1", "E-2", "E-3",
]  # fmt: skip
AREAS: tuple[str, ...] = AreaId.__args__  # type: ignore[attr-defined]
Terrain = Literal["open", "wood", "trench", "city"]

SRC_MAP = cite("Firestorm Campaign Map")
SRC_DEPLOY = cite("Initial Deployment")
SRC_TURNS = cite("Turns")
SRC_INITIATIVE = cite("Order One, 2. Determine Initiative Bonus")
SRC_VALUES = cite("The General's Wargame: Firestorm Troop Values")
SRC_SITUATION = cite("The General's Wargame: Situation Modifiers")
SRC_RESOLVE = cite("The General's Wargame: 5. Resolve the Battle")
SRC_DESTROY_GW = cite("The General's Wargame: Roll to Destroy table")
SRC_DESTROY = cite("Order Two, 8A. Roll to Destroy")
SRC_CAPTURE = cite("8B. Roll to Capture")
SRC_RETREAT = cite("9. Retreat Defeated Troops")
SRC_ADVANCE = cite("10. Advance Victorious Troops")
SRC_SUPPLY = cite("5. Check for Supply")
SRC_STRATEGIC = cite("Order Three, Strategic Phase")
SRC_VP = cite("Campaign Victory Point Table")
SRC_OUTCOME = cite("Campaign Outcome")

# "B-4, B-5, C-1, C-3, C-4 (British) and C-5, D-1, D-2 and D-3 (German) are all trenches, A-2 (D'Arquenne) and
# D-4 (Lancer) are woods and B-2 Villers-Bretonneux is a town/city. All other areas are considered to be open"
BEF_TRENCHES = ("B-4", "B-5", "C-1", "C-3", "C-4")
GERMAN_TRENCHES = ("C-5", "D-1", "D-2", "D-3")
TERRAIN: dict[str, Terrain] = {a: "open" for a in AREAS}
TERRAIN.update({a: "trench" for a in BEF_TRENCHES + GERMAN_TRENCHES})
TERRAIN.update({"A-2": "wood", "D-4": "wood", "B-2": "city"})
TRENCH_OWNER: dict[str, Side] = {**{a: "bef" for a in BEF_TRENCHES}, **{a: "german" for a in GERMAN_TRENCHES}}

AREA_NAMES = {
    "A-2": "D'Arquenne Wood",
    "A-3": "Cachy",
    "B-1": "Fouilloy/Hill 104",
    "B-2": "Villers-Bretonneux",
    "C-2": "Rue de Péronnes",
    "C-4": "Monument Wood",
    "D-4": "Lancer Wood",
}
# "D'Arquenne Wood A-2 80 points / Fouilloy/Hill 104 B-1 80 / Villers-Bretonneux B-2 60 / Cachy A-3 60 /
# B-3 20 / Rue de Péronnes C-2 20 / Monument Wood C-4 20 / Each Firestorm Troop captured 10 points"
VP_AREAS: dict[str, int] = {"A-2": 80, "B-1": 80, "B-2": 60, "A-3": 60, "B-3": 20, "C-2": 20, "C-4": 20}
VP_PER_CAPTURED = 10
# "For the BEF this is the border touching A-1, A-2, A-3, B-1, B-5 and C-1 and for the Germans a border
# touching C-5, D-1, D-4, E-1, E-2 and E-3."
SUPPLY: dict[Side, tuple[str, ...]] = {
    "bef": ("A-1", "A-2", "A-3", "B-1", "B-5", "C-1"),
    "german": ("C-5", "D-1", "D-4", "E-1", "E-2", "E-3"),
}
GERMAN_START = ("C-5", "D-1", "D-2", "D-3", "D-4", "E-1", "E-2", "E-3")
INITIAL_CONTROL: dict[str, Side] = {a: ("german" if a in GERMAN_START else "bef") for a in AREAS}


def load_adjacency() -> dict[str, tuple[str, ...]]:
    raw = json.loads((Path(__file__).parent / "map.json").read_text())
    return validate_adjacency(raw["adjacency"])


def validate_adjacency(adj: dict[str, list[str]] | dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Every area listed, neighbours known, no self-loops, and symmetric."""
    if set(adj) != set(AREAS):
        raise ValueError(f"the map lists each of its {len(AREAS)} areas once, {AREAS[0]} to {AREAS[-1]}")
    for a, ns in adj.items():
        for n in ns:
            if n not in adj or n == a or a not in adj[n]:
                raise ValueError(f"adjacency {a} -> {n} is unknown, a self-loop, or not symmetric")
    return {a: tuple(sorted(set(adj[a]))) for a in AREAS}


ADJACENCY = load_adjacency()

# -- Firestorm Troops ------------------------------------------------------------------------------------
Kind = Literal["stoss", "veteran-british", "other-infantry", "hmg", "heavy-tank", "whippet"]
KINDS: tuple[Kind, ...] = ("stoss", "veteran-british", "other-infantry", "hmg", "heavy-tank", "whippet")
TANK_KINDS = ("heavy-tank", "whippet")
# FIRESTORM TROOP VALUES, "UNIT OPEN WOOD TRENCH CITY": "Stoss Platoon 2 3 4 3", "Veteran British 2 3 3 3",
# "Other infantry 1 2 2 2", "HMG platoon 3 2 3 2", "AV7/Mark IV 4 2 3 2", "Whippet 3 1 2 1".
VALUES: dict[Kind, dict[Terrain, int]] = {
    "stoss": {"open": 2, "wood": 3, "trench": 4, "city": 3},
    "veteran-british": {"open": 2, "wood": 3, "trench": 3, "city": 3},
    "other-infantry": {"open": 1, "wood": 2, "trench": 2, "city": 2},
    "hmg": {"open": 3, "wood": 2, "trench": 3, "city": 2},
    "heavy-tank": {"open": 4, "wood": 2, "trench": 3, "city": 2},
    "whippet": {"open": 3, "wood": 1, "trench": 2, "city": 1},
}
KIND_LABELS = {
    "stoss": "Stoss Platoon",
    "veteran-british": "Veteran British",
    "other-infantry": "Other infantry",
    "hmg": "HMG platoon",
    "heavy-tank": "AV7/Mark IV",
    "whippet": "Whippet",
}


@dataclass(frozen=True)
class TroopSpec:
    id: str
    name: str
    side: Side
    kind: Kind
    points: int
    area: str | None = None  # None: a reinforcement
    brigade: str = ""


def _t(
    id: str, name: str, side: Side, kind: Kind, points: int, area: str | None = None, brigade: str = ""
) -> TroopSpec:
    return TroopSpec(id, name, side, kind, points, area, brigade)


# INITIAL DEPLOYMENT (areas) and the troop cards (points: "17 POINTS Group I, II and III", "17 POINTS 5 Guard
# Grenadier Regiment ... and 257 RIR", "13 POINTS 48 RIR, 93 RIR, 207 RIR and 478 RIR", "9 POINTS 419 RIR",
# "9 POINTS MG Abt 4G and MG Abt 228", "15 POINTS No 1 and No 2 Sections of A Company", "16 points X Company",
# "13 POINTS 13th, 14th and 15th Bde AIF", "10 POINTS 23rd, 24th, 25th ... and 173 Bde", "13 POINTS 58 Bn MGC").
TROOPS: tuple[TroopSpec, ...] = (
    _t("478-rir", "478 RIR (Jägerkompanie)", "german", "other-infantry", 13, "D-1"),
    _t("48-rir", "48 RIR (Jägerkompanie)", "german", "other-infantry", 13, "D-2"),
    _t("207-rir", "207 RIR (Jägerkompanie)", "german", "other-infantry", 13, "D-2"),
    _t("group-i", "Group I Skopnik (A7V)", "german", "heavy-tank", 17, "D-2"),
    _t("g-gr-5", "5 Guard Grenadier Regiment (Stoss)", "german", "stoss", 17, "D-3"),
    _t("93-rir", "93 RIR (Jägerkompanie)", "german", "other-infantry", 13, "D-3"),
    _t("group-iii", "Group III Steinhardt (A7V)", "german", "heavy-tank", 17, "D-3"),
    _t("257-rir", "257 RIR (Stoss)", "german", "stoss", 17, "C-5"),
    _t("419-rir", "419 RIR (Infanteriekompanie)", "german", "other-infantry", 9, "C-5"),
    _t("group-ii", "Group II Uihlein (A7V)", "german", "heavy-tank", 17, "C-5"),
    _t("a-coy-grove", "No 2 - A Coy Grove (Mark IV)", "bef", "heavy-tank", 15, "A-1"),
    _t("a-coy-mitchell", "No 1 - A Coy Mitchell (Mark IV)", "bef", "heavy-tank", 15, "A-2"),
    _t("x-coy-price", "X Coy Price (Whippets)", "bef", "whippet", 16, "A-2"),
    _t("24-bde", "24 Bde (Line Division)", "bef", "other-infantry", 10, "B-2"),
    _t("58-bn-mgc", "58 Bn MGC (Line Division HMG)", "bef", "hmg", 13, "B-4"),
    _t("173-bde", "173 Bde (Line Division)", "bef", "other-infantry", 10, "B-5"),
    _t("14-bde-aif", "14 Bde AIF", "bef", "veteran-british", 13, "C-1"),
    _t("25-bde", "25 Bde (Line Division)", "bef", "other-infantry", 10, "C-3"),
    _t("23-bde", "23 Bde (Line Division)", "bef", "other-infantry", 10, "C-4"),
    # Reinforcements at the end of turn 2.
    _t("mg-abt-4g", "MG Abt 4G (Jäger Machine-gun Platoon)", "german", "hmg", 9),
    _t("mg-abt-228", "MG Abt 228 (Jäger Machine-gun Platoon)", "german", "hmg", 9),
    _t("13-bde-aif-a", "13th Bde AIF (first)", "bef", "veteran-british", 13, None, "13"),
    _t("13-bde-aif-b", "13th Bde AIF (second)", "bef", "veteran-british", 13, None, "13"),
    _t("15-bde-aif-a", "15th Bde AIF (first)", "bef", "veteran-british", 13, None, "15"),
    _t("15-bde-aif-b", "15th Bde AIF (second)", "bef", "veteran-british", 13, None, "15"),
)
TROOP_BY_ID = {t.id: t for t in TROOPS}
# "13th Brigade in A-3 Cachy or any friendly adjacent area. 15th Brigade in B-1 Fouilloy/Hill 104 or any
# friendly adjacent area."
BRIGADE_HOME = {"13": "A-3", "15": "B-1"}

# -- turns ------------------------------------------------------------------------------------------------
# "First turn has 4, second has 5, third has 5 and the fourth has 3"
BATTLES = {1: 4, 2: 5, 3: 5, 4: 3}
LAST_TURN = 4
# Turn 2: "Germans receive a +1 on initiative and win on ties"; turns 3 and 4: "The BEF receive a +1".
INITIATIVE_BONUS: dict[int, Side] = {2: "german", 3: "bef", 4: "bef"}
LAST_WINNER_BONUS = 1
# "D-2 attacks C-3 / D-3 attacks C-4 / C-5 attacks B-4"
FIXED_ATTACKS: tuple[tuple[str, str], ...] = (("D-2", "C-3"), ("D-3", "C-4"), ("C-5", "B-4"))
AIF_NIGHT_BATTLES = 2  # turn 3: "Start by playing two Night Fight battles"
MAX_COMMITTED = 2  # "You may add up to two Firestorm Troops"
MAX_ADVANCE = 3  # "you may move up to three Firestorm Troops into the newly-controlled area"

# -- situation modifiers and roll to destroy --------------------------------------------------------------
# "Trench - attacked from enemy trench +2 / Trench - attacked from any other area +1 / German Gas Attack
# (First Turn attacking Bonus) +2 / Out of supply -2"
TRENCH_FROM_ENEMY_TRENCH = 2
TRENCH_FROM_OTHER = 1
GAS_BONUS = 2
OUT_OF_SUPPLY = -2
# General's Wargame ROLL TO DESTROY, by die roll difference: "0 (Draw) 6 6 / 1 or 2 6 6 / 3 or 4 5+ ... / 5 4+ ..."
DESTROY_LOSER: dict[int, int] = {0: 6, 1: 6, 2: 6, 3: 5, 4: 5, 5: 4}
DESTROY_WINNER_PRINTED: dict[int, int] = {0: 6, 1: 6, 2: 6}
# Great War games: "Your Victory Points / Score needed: 8+ 4+ / 7 5+ / 3 or 6 6 / 2 or less No roll"
DESTROY_BY_VP: dict[int, int | None] = {8: 4, 7: 5, 6: 6, 5: 6, 4: 6, 3: 6, 2: None, 1: None, 0: None}
# "WIN BY 150 / 100 / 50 CAMPAIGN POINTS": strategic, operational, tactical.
VICTORY_LEVELS: tuple[tuple[int, str], ...] = ((150, "strategic"), (100, "operational"), (50, "tactical"))
# OUT OF SUPPLY TABLE effects, in the order printed (the die rolls were lost).
OUT_OF_SUPPLY_EFFECTS = ("morale reduced", "strength reduced", "no effect", "one motivational level higher")

Firestorm.add_errata(
    Erratum(
        "map-adjacency",
        "Which campaign map areas are adjacent",
        (
            Reading(
                "staggered-columns",
                "The text prints no adjacency; rules/firestorm/map.json reconstructs the grid (letters west "
                "to east, numbers north to south, columns staggered) so that the fixed turn 1 attacks are "
                "adjacent. A new campaign may be given a corrected adjacency.",
                SRC_MAP,
                "map.json",
            ),
        ),
        default="staggered-columns",
    ),
    Erratum(
        "initial-control",
        "Which areas each side controls at the start",
        (
            Reading(
                "front-line",
                "'The line between the BEF and German Trenches marks the front line': the Germans hold their "
                "trenches C-5, D-1 to D-3, Lancer Wood D-4 and the E areas (their supply edge); the BEF the rest.",
                SRC_MAP,
                list(GERMAN_START),
            ),
        ),
        default="front-line",
    ),
    Erratum(
        "veteran-british",
        "Which Firestorm Troops use the 'Veteran British' line of the values table",
        (
            Reading(
                "aif",
                "The AIF brigades (13th, 14th, 15th): the General's Wargame calls the AIF reinforcements "
                "'Veteran Infantry'. German veteran RIRs and BEF line brigades are 'Other infantry'.",
                SRC_VALUES,
                "aif",
            ),
        ),
        default="aif",
    ),
    Erratum(
        "destroy-winner",
        "Roll to destroy the winning side's Firestorm Troops at a difference of 3 or more",
        (
            Reading(
                "no-roll",
                "The cells are garbled in the text; as in the Great War table (a side scoring 2 or less rolls "
                "nothing), a clear win spares the winner: no roll.",
                SRC_DESTROY_GW,
                None,
            ),
            Reading("six", "Destroyed on a 6, as at smaller differences.", SRC_DESTROY_GW, 6),
        ),
        default="no-roll",
    ),
    Erratum(
        "destroy-beyond-5",
        "Differences above 5",
        (
            Reading(
                "use-5", "The table stops at 5; larger differences use the 5 row (4+).", SRC_DESTROY_GW, 5
            ),
        ),
        default="use-5",
    ),
    Erratum(
        "great-war-victory",
        "Victory points a Great War attacker needs to win",
        (
            Reading(
                "three",
                "'If your opponent scored at least three Victory Points ... and more Victory Points than you' "
                "and the example '3-1 for the attacker. He captures the area'.",
                SRC_RETREAT,
                3,
            ),
            Reading(
                "four",
                "'If neither side scores 4 points, the battle automatically counts as a defender victory'.",
                SRC_RETREAT,
                4,
            ),
        ),
        default="three",
    ),
    Erratum(
        "trench-bonus",
        "Which trenches give the defender the situation bonus",
        (
            Reading(
                "own-trenches",
                "'You get no bonus for defending in trenches you have captured from the enemy' (Defending in "
                "Trenches): only trenches the defender's side held at the start.",
                cite("Defending in Trenches"),
                "own",
            ),
            Reading(
                "any-trench",
                "The General's Wargame table says only 'Trench': any trench area.",
                SRC_SITUATION,
                "any",
            ),
        ),
        default="own-trenches",
    ),
    Erratum(
        "gas",
        "The German gas attack of turn 1 in the General's Wargame",
        (
            Reading("bonus", "The situation table's +2 to the German attack only.", SRC_SITUATION, False),
            Reading(
                "bonus-and-halved",
                "Also halve BEF Firestorm Troop values and trench defences (rounded down), as in the Great War game.",
                cite("Gas Attack"),
                True,
            ),
        ),
        default="bonus",
    ),
    Erratum(
        "campaign-margin",
        "A campaign won by fewer than 50 points, or tied",
        (
            Reading(
                "victory",
                "'wins if it has more Campaign Victory Points': a margin under 50 is a plain victory; equal totals a draw.",
                SRC_OUTCOME,
                "victory",
            ),
            Reading(
                "draw", "Only the three listed levels are victories; under 50 is a draw.", SRC_OUTCOME, "draw"
            ),
        ),
        default="victory",
    ),
    Erratum(
        "no-legal-attack",
        "An initiative winner with no attack it may make",
        (
            Reading(
                "forfeit",
                "The text is silent; the battle is forfeited: it counts towards the turn's number with no result.",
                SRC_INITIATIVE,
                "forfeit",
            ),
        ),
        default="forfeit",
    ),
    Erratum(
        "battles-per-turn",
        "Battles per turn",
        (
            Reading(
                "turn-pages",
                "Turns 1-4: 4, 5, 5, 3 ('for a total of 17'); the General's Wargame's 'between two and four' is not used.",
                SRC_TURNS,
                BATTLES,
            ),
        ),
        default="turn-pages",
    ),
    Erratum(
        "aif-placement",
        "Placing an AIF brigade when its home area and every area next to it are German",
        (
            Reading(
                "supply-edge",
                "The text is silent; the brigade is placed in any BEF-held supply area instead.",
                SRC_STRATEGIC,
                "supply-edge",
            ),
        ),
        default="supply-edge",
    ),
)
# The Out of Supply table's erratum (its lost dice) is registered with the Great War rules: great_war_data.py.
