"""Errata of movement: the movement table, mixed terrain, turning, manhandled weapons and barbed wire."""

from __future__ import annotations

from rules.core.citation import Citation
from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.errata.order_rolls import ORDER_MODIFIERS
from rules.flanders_fields.ruleset import ALL_PLAYSHEETS, FlandersFields, cite

MOVE_CLOSE_INFANTRY = "move-close-infantry"
MOVE_TRENCH_FIELD_ARTILLERY = "move-trench-field-artillery"
MOVE_MOTOR_BROKEN_GROUND = "move-motor-broken-ground"
MOVE_MANHANDLED_ROUNDING = "move-manhandled-rounding"
MOVE_MIXED_TERRAIN = "move-mixed-terrain"
TURN_COST = "turn-cost"
EARLY_WIRE_CROSSING = "early-wire-crossing"

MOVEMENT = "MOVEMENT DISTANCES"
MAIN_MOVEMENT = cite(f"MOVEMENT, {MOVEMENT}")
PLAYSHEET_MOVEMENT = str(Citation(ALL_PLAYSHEETS, MOVEMENT))

FlandersFields.add_errata(
    Erratum(
        MOVE_CLOSE_INFANTRY,
        "Infantry move in close terrain (woods, built-up areas, marsh)",
        (
            Reading(
                "playsheet",
                "Close Terrain (Woods, BuA, Marsh etc unless on road) 10cm 15cm 10cm 10cm No",
                PLAYSHEET_MOVEMENT,
                10,
            ),
            Reading(
                "main-text",
                "Close Terrain (Woods, BuA, Marsh etc unless on road) 15cm 15cm 10cm 10",
                MAIN_MOVEMENT,
                15,
            ),
        ),
        default="playsheet",
        section="movement",
        short="Infantry in close terrain",
    ),
    Erratum(
        MOVE_TRENCH_FIELD_ARTILLERY,
        "Field artillery at a trench line",
        (
            Reading(
                "playsheet",
                "Moving along trench line 10cm No No 10cm No: field artillery may not pass a trench line",
                PLAYSHEET_MOVEMENT,
                None,
            ),
            Reading(
                "main-text",
                "Along Trench Lines 10cm No 1 Action to Cross 10cm: field artillery crosses with 1 action",
                MAIN_MOVEMENT,
                1,
            ),
        ),
        default="playsheet",
        section="movement",
    ),
    Erratum(
        MOVE_MOTOR_BROKEN_GROUND,
        "Motors on shell torn or shattered ground and at streams and rivers",
        (
            Reading(
                "no-passage",
                "The text is silent: only the playsheets have a MOTORS column (cross country 5, road 40, "
                "close terrain and trenches No) and the main table's shell torn, shattered, stream and river "
                "rows have no MOTORS entry. A referee keeps wheeled motors off ground worse than plain cross "
                "country, as the text does for close terrain.",
                PLAYSHEET_MOVEMENT,
                None,
            ),
            Reading(
                "cross-country-pace",
                "Treat shell torn and shattered ground as cross country for motors (5 cm); streams and "
                "rivers stay impassable.",
                PLAYSHEET_MOVEMENT,
                5,
            ),
        ),
        default="no-passage",
        section="movement",
        short="Motors on broken ground and water",
    ),
    Erratum(
        MOVE_MANHANDLED_ROUNDING,
        "Half infantry speed for manhandled machine guns and light mortars when it is not whole",
        (
            Reading(
                "round-down",
                "The text is silent on rounding 'half infantry speed if man handled' (e.g. 15 cm shell torn "
                "ground gives 7.5 cm); a referee rounds down to whole centimetres.",
                cite(MOVEMENT, None),
                "down",
            ),
            Reading("round-up", "Round half centimetres up.", cite(MOVEMENT, None), "up"),
        ),
        default="round-down",
        section="movement",
        short="Manhandled MG and mortar half speed",
    ),
    Erratum(
        MOVE_MIXED_TERRAIN,
        "A move that crosses more than one kind of terrain",
        (
            Reading(
                "proportional",
                "The text is silent; each stretch uses up its share of that terrain's allowance and the "
                "shares may not exceed the whole move.",
                f"{cite('MOVEMENT DISTANCES')} (silent; referee's reading)",
                "proportional",
            ),
            Reading(
                "slowest",
                "The text is silent; the whole move is limited by the slowest terrain crossed.",
                f"{cite('MOVEMENT DISTANCES')} (silent; alternative reading)",
                "slowest",
            ),
        ),
        default="proportional",
        section="movement",
    ),
    Erratum(
        TURN_COST,
        "Turning a stand through less than 180 degrees",
        (
            Reading(
                "proportional",
                "The text gives only 'it is considered to require 3cm to turn a stand through 180 degrees'; "
                "smaller turns cost their share (90 degrees: 1.5 cm).",
                f"{cite('MANOEUVRING FIGURES')} (silent on smaller turns; referee's reading)",
                True,
            ),
            Reading(
                "whole",
                "Any turn costs the full 3 cm.",
                f"{cite('MANOEUVRING FIGURES')} (silent on smaller turns; alternative reading)",
                False,
            ),
        ),
        default="proportional",
        section="movement",
    ),
    Erratum(
        EARLY_WIRE_CROSSING,
        "Crossing barbed wire, 1914 to mid 1915",
        (
            Reading(
                "order-penalty",
                "If some of a battalion's companies are trying to pass through wire apply extra -2 to die "
                "result for them ... others may end up 'Hanging on the Old Barbed Wire' if the -2 results in "
                "a failure.",
                cite(f"{ORDER_MODIFIERS} (wire)", "early"),
                {"order_modifier": -2, "platoon_roll": False},
            ),
            Reading(
                "platoon-roll",
                "Use one 'Action' from the battalion orders ... and roll platoon by platoon to see if they "
                "cross the wire, rolls are: 1914 to Early 1915 = 3+",
                cite("MOVEMENT, MOVING THROUGH BARBED WIRE"),
                {"order_modifier": 0, "platoon_roll": True},
            ),
        ),
        default="order-penalty",
        periods=("early",),
        note="The mid and late playsheets agree with the main text (a separate action and a roll by "
        "platoons, 5+ and 3+). Under the early playsheet's reading the wire-crossing roll is not used.",
        section="wire",
    ),
)
