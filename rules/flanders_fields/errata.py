"""Errata of order rolls, shooting, morale, assault, wire and the national special rules.

Each erratum quotes both readings with their locations. Where a period playsheet is one of them it is the
default (the rule book: the period's quick reference sheet governs a game); where the text is silent the
erratum says so and the default is a referee's reading. Errata of artillery action rolls, air support,
block house range and light mortar templates live in errata_engine2*.py and are reused, not repeated.
"""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

RAW_ORDER_MODIFIER = "raw-order-modifier"
STAFF_SUPPORT_BONUS = "staff-support-bonus"
ARTILLERY_LINE_OF_SIGHT_EARLY = "artillery-line-of-sight-early"
BEATEN_ZONE_PENALTY = "beaten-zone-penalty"
RAW_FIRER_PENALTY = "raw-firer-penalty"
MID_FIRING_TABLE = "mid-firing-table"
BARRAGE_UPHILL = "barrage-uphill"
ARMOUR_FIELD_ARTILLERY_OVER_75 = "armour-field-artillery-over-75"
EARLY_WIRE_CROSSING = "early-wire-crossing"
EARLY_FIRERS_NOT_ON_PLAYSHEET = "early-firers-not-on-playsheet"
EARLY_REGIMENTAL_MORTAR_ORDERS = "early-regimental-mortar-orders"
DEFENDER_REAR_SUPPORT = "defender-rear-support"
CAVALRY_VS_OTHER_FOOT = "cavalry-vs-other-foot"
ELAN_IN_ASSAULT = "elan-in-assault"
MAD_MINUTE_LIMIT = "mad-minute-limit"
PRUSSIAN_DISCIPLINE_MORALE = "prussian-discipline-morale"

ORDER_MODIFIERS = "ORDER SEQUENCE NOTES, Modifiers to Order Rolls"
DIRECT_FIRE_FACTORS = "DIRECT FIRE FACTORS"


def _sheets(section: str, periods: tuple[str, ...] = ("early", "mid", "late")) -> str:
    return "; ".join(cite(section, p) for p in periods)


ERRATA = (
    Erratum(
        RAW_ORDER_MODIFIER,
        "Raw troops' order roll once they have come under fire",
        (
            Reading(
                "playsheet",
                "Raw Troops = +1 Until they receive any fire then -1 (but a 1 is always a FAIL)",
                _sheets(ORDER_MODIFIERS),
                {"under_fire": -1, "from_die": 1},
            ),
            Reading(
                "main-text",
                "Raw units have +1 to their order rolls until the battalion comes under any fire in a game "
                "after which they have a -2 penalty applied if the die roll is 4 or more.",
                cite("TROOP QUALITY, RAW"),
                {"under_fire": -2, "from_die": 4},
            ),
        ),
        default="playsheet",
        note="'from_die' is the lowest natural die the under-fire penalty applies to.",
    ),
    Erratum(
        STAFF_SUPPORT_BONUS,
        "Regiment/Brigade staff support to one battalion order roll per turn",
        (
            Reading(
                "playsheet",
                "EACH REGIMENT/BRIGADE MAY GIVE SUPPORT TO ANY OF ITS SUBORDINATE BATTALION COMMANDER BY "
                "ALLOWING 1 BATTALION COMMANDER +1 ON 1 DIE ROLL ONCE PER TURN, BUT A NATURAL 1 IS STILL A FAIL.",
                _sheets("ORDER SEQUENCE NOTES, SUPPORT ORDERS footnote", ("early", "mid")),
                1,
            ),
            Reading(
                "main-text",
                "every turn the Regimental commander may give a +2 bonus to a single order roll of a single "
                "battalion commander",
                cite("ORDERS AND ACTIONS, REGIMENT/BRIGADE ORDERS"),
                2,
            ),
        ),
        default="playsheet",
        periods=("early", "mid"),
        note="The late playsheet agrees with the main text (+2). The playsheets call the allocation 'Staff "
        "Re-Roll Markers' but their footnote describes a bonus, not a re-roll.",
    ),
    Erratum(
        ARTILLERY_LINE_OF_SIGHT_EARLY,
        "Artillery with its own line of sight, 1914 to mid 1915",
        (
            Reading(
                "playsheet",
                "Separate tables ARTILLERY WITH LINE OF SIGHT and ARTILLERY FIRING FROM OFF TABLE, both "
                "'1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions'; no +1 among the Modifiers to Order Rolls.",
                cite("1 SUPPORT ORDERS III", "early"),
                0,
            ),
            Reading(
                "main-text",
                "When Field artillery fire over 'open sights' at an enemy they can see they have a bonus of "
                "+1 to the action roll.",
                cite("ARTILLERY ACTION DIE ROLLS (INDIRECT SHOOTING)"),
                1,
            ),
        ),
        default="playsheet",
        periods=("early",),
    ),
    Erratum(
        BEATEN_ZONE_PENALTY,
        "Machine gun beaten zone: penalty for the targets beyond the first",
        (
            Reading(
                "per-target",
                "Up to three targets in the beaten zone are also attacked but at -1 on the die roll for the "
                "first target, -2 for the second etc.",
                cite("RANGED COMBAT, MACHINEGUN BEATEN ZONE"),
                "per-target",
            ),
            Reading(
                "flat",
                "Machinegun 'Beaten Zone' – 10 or 15cm beyond initial target -1",
                cite("RANGED COMBAT, DIRECT FIRE MODIFIERS"),
                "flat",
            ),
        ),
        default="per-target",
        note="Both readings are in the main text; the playsheets give the beaten zone's depth but no "
        "penalty. The beaten zone section is the specific rule, so a referee prefers it.",
    ),
    Erratum(
        RAW_FIRER_PENALTY,
        "Raw troops shooting",
        (
            Reading(
                "playsheet",
                "-1 ... Raw Troops (in the list of DIRECT FIRE FACTORS)",
                _sheets(DIRECT_FIRE_FACTORS),
                -1,
            ),
            Reading(
                "main-text",
                "DIRECT FIRE MODIFIERS lists no modifier for raw troops.",
                cite("RANGED COMBAT, DIRECT FIRE MODIFIERS"),
                0,
            ),
        ),
        default="playsheet",
    ),
    Erratum(
        MID_FIRING_TABLE,
        "The mid 1915 to mid 1917 firing table is headed 'Mid 1917 to End of War'",
        (
            Reading(
                "mid-playsheet",
                "The table as printed on the mid playsheet: Gas 4 6 4 6 4 5 4 6 5 6; Flame Thrower 5 6 4 5 3 4 "
                "3 5 3 6.",
                cite("Firing table – Mid 1917 to End of War (as printed)", "mid"),
                "mid",
            ),
            Reading(
                "late-table",
                "Its heading names mid 1917 to the end of the war: use that table, Gas 4 6 4 6 4 6 4 6 4 6 and "
                "Flame Thrower ... 3 5 (the main text's flame thrower row also ends '3 5').",
                f"{cite('Firing table – Mid 1917 to End of War', 'late')}; "
                f"{cite('RANGED COMBAT, SHOOTING MATRIX')}",
                "late",
            ),
        ),
        default="mid-playsheet",
        periods=("mid",),
        note="Only the Gas row and the flame thrower's Fortifications kill differ between the two tables.",
    ),
    Erratum(
        BARRAGE_UPHILL,
        "Shooting into or through a barrage uphill",
        (
            Reading(
                "instead",
                "'-2 Shooting into or through a barrage' and '-1 Shooting into or through a barrage if "
                "uphill' are two cases: uphill it is -1 in all.",
                f"{cite('RANGED COMBAT, DIRECT FIRE MODIFIERS')} (silent on adding; referee's reading)",
                -1,
            ),
            Reading(
                "cumulative",
                "The uphill -1 is added to the barrage -2: -3 in all.",
                f"{cite('RANGED COMBAT, DIRECT FIRE MODIFIERS')} (alternative reading)",
                -3,
            ),
        ),
        default="instead",
        note="The text does not say whether the two barrage modifiers add up.",
    ),
    Erratum(
        ARMOUR_FIELD_ARTILLERY_OVER_75,
        "Shooting at armour: 'Field artillery firing over 75 -1' gives no unit",
        (
            Reading(
                "range-over-75cm",
                "Read as field artillery firing at armour more than 75 cm away: -1.",
                f"{cite('RANGED COMBAT, SHOOTING WHEN TARGET IS ARMOUR')} (unit missing; referee's reading)",
                75,
            ),
            Reading(
                "not-applied",
                "The modifier is unreadable without its unit and is not applied.",
                f"{cite('RANGED COMBAT, SHOOTING WHEN TARGET IS ARMOUR')} (alternative reading)",
                None,
            ),
        ),
        default="range-over-75cm",
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
    ),
    Erratum(
        EARLY_FIRERS_NOT_ON_PLAYSHEET,
        "Super heavy artillery, heavy mortars and flame throwers, 1914 to mid 1915",
        (
            Reading(
                "main-text",
                "The early playsheet's firing table has no rows for them; the main text's SHOOTING MATRIX "
                "rows are used (Open to Hard Cover: the early sheet has no Fortifications column).",
                f"{cite('RANGED COMBAT, SHOOTING MATRIX')} (the playsheet is silent)",
                True,
            ),
            Reading(
                "unavailable",
                "Not on the period's playsheet, so not fielded in an early game.",
                f"{cite('Firing Table', 'early')} (no row: the playsheet is silent)",
                False,
            ),
        ),
        default="main-text",
        periods=("early",),
        note="The rule book says the main text fills what a playsheet does not say.",
    ),
    Erratum(
        EARLY_REGIMENTAL_MORTAR_ORDERS,
        "Ordering regimental/brigade mortars, 1914 to mid 1915",
        (
            Reading(
                "artillery-table",
                "The early playsheet orders only 'Individual Regimental/Brigade Artillery'; the later sheets "
                "order 'Artillery and Mortars' on one table, so mortars use the artillery table.",
                f"{cite('1 SUPPORT ORDERS III', 'early')} (silent on mortars; referee's reading)",
                True,
            ),
            Reading(
                "unavailable",
                "No mortar table on the early playsheet: mortars cannot be ordered.",
                f"{cite('1 SUPPORT ORDERS', 'early')} (silent on mortars; alternative reading)",
                False,
            ),
        ),
        default="artillery-table",
        periods=("early",),
        note="Main text MORTARS: 'only the German army went to war equipped with mortars'.",
    ),
    Erratum(
        DEFENDER_REAR_SUPPORT,
        "Does a supporting platoon to the rear help a defender?",
        (
            Reading(
                "attacker-only",
                "Only one stand may fight at a time but may be supported by one stand to the rear which adds "
                "+1 to the attacker's die roll.",
                cite("CLOSE COMBAT (ASSAULTING), Infantry & Cavalry Vs Infantry, Cavalry, Artillery"),
                False,
            ),
            Reading(
                "either-side",
                "ASSAULT FACTORS lists 'Supporting platoon to rear +1' without naming a side.",
                cite("CLOSE COMBAT (ASSAULTING), ASSAULT FACTORS"),
                True,
            ),
        ),
        default="attacker-only",
    ),
    Erratum(
        CAVALRY_VS_OTHER_FOOT,
        "Cavalry assaulting support weapons, command stands or flame throwers",
        (
            Reading(
                "as-infantry",
                "The factor is '+3 Vs Infantry' and CAVALRY gives +3 'When assaulting infantry or artillery'; "
                "other foot troops are treated as infantry.",
                f"{cite('CLOSE COMBAT (ASSAULTING), ASSAULT FACTORS')} (silent; referee's reading)",
                3,
            ),
            Reading(
                "no-bonus",
                "Only infantry and artillery are named, so no cavalry bonus against other troops.",
                cite("CAVALRY (rules)"),
                0,
            ),
        ),
        default="as-infantry",
    ),
    Erratum(
        ELAN_IN_ASSAULT,
        "French 'Elan' in an assault",
        (
            Reading(
                "order-roll-only",
                "add +1 to the action die roll when ordering French troops to move forward ... it is only "
                "to allow the units to advance 'al la bayonette!' (the order to assault, not the combat die)",
                cite("TABLES OF ORGANISATION, FRENCH INFANTRY DIVISION 1914-15, Special Rules: Elan"),
                0,
            ),
            Reading(
                "assault-die",
                "The text is silent on the combat die; the bayonet charge also gets +1 on it.",
                f"{cite('TABLES OF ORGANISATION, FRENCH INFANTRY DIVISION 1914-15, Special Rules: Elan')} "
                "(alternative reading)",
                1,
            ),
        ),
        default="order-roll-only",
        periods=("early", "mid"),
    ),
    Erratum(
        MAD_MINUTE_LIMIT,
        "How often the 'Mad Minute' may be used",
        (
            Reading(
                "per-company",
                "once per game each infantry company may roll twice for effect for a single successful fire "
                "order",
                cite("TABLES OF ORGANISATION, BRITISH AND EMPIRE DIVISION 1914-15, Special Rules"),
                "company",
            ),
            Reading(
                "per-battalion",
                "Each battalion may only use the 'Mad Minute' rule once in a game.",
                cite("SPECIMEN GAMES, BRITISH FORCES"),
                "battalion",
            ),
        ),
        default="per-company",
        periods=("early",),
        note="The specimen game is a scenario; the organisation page states the national rule.",
    ),
    Erratum(
        PRUSSIAN_DISCIPLINE_MORALE,
        "Does 'Prussian Discipline' apply to morale rolls?",
        (
            Reading(
                "action-rolls",
                "Three times during a game any battalion commander may invoke 'Prussian Discipline' and gain "
                "+2 on any action die roll.",
                cite("TABLES OF ORGANISATION, GERMAN INFANTRY DIVISION 1914-1915, Special Rule"),
                False,
            ),
            Reading(
                "action-or-morale",
                "allows each Regimental Commander and each Battalion commander to add +2 to any action or "
                "morale roll three times in a game",
                cite("SPECIMEN GAMES, GERMAN FORCES"),
                True,
            ),
        ),
        default="action-rolls",
        periods=("early", "mid"),
        note="The specimen game also extends it to regimental commanders.",
    ),
)

FlandersFields.add_errata(*ERRATA)
