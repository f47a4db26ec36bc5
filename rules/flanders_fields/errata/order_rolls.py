"""Errata of order rolls: raw troops, staff support, regimental mortars in the early war, and the table of the
units the order sequences do not name."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.ruleset import FlandersFields, cite, cite_playsheets

RAW_ORDER_MODIFIER = "raw-order-modifier"
STAFF_SUPPORT_BONUS = "staff-support-bonus"
EARLY_REGIMENTAL_MORTAR_ORDERS = "early-regimental-mortar-orders"
UNNAMED_ORDER_UNITS = "unnamed-order-units"

ORDER_MODIFIERS = "ORDER SEQUENCE NOTES, Modifiers to Order Rolls"

FlandersFields.add_errata(
    Erratum(
        RAW_ORDER_MODIFIER,
        "Raw troops' order roll once they have come under fire",
        (
            Reading(
                "playsheet",
                "Raw Troops = +1 Until they receive any fire then -1 (but a 1 is always a FAIL)",
                cite_playsheets(ORDER_MODIFIERS, PERIODS),
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
        section="actions",
        short="Raw troops' order roll under fire",
    ),
    Erratum(
        STAFF_SUPPORT_BONUS,
        "Regiment/Brigade staff support to one battalion order roll per turn",
        (
            Reading(
                "playsheet",
                "EACH REGIMENT/BRIGADE MAY GIVE SUPPORT TO ANY OF ITS SUBORDINATE BATTALION COMMANDER BY "
                "ALLOWING 1 BATTALION COMMANDER +1 ON 1 DIE ROLL ONCE PER TURN, BUT A NATURAL 1 IS STILL A FAIL.",
                cite_playsheets("ORDER SEQUENCE NOTES, SUPPORT ORDERS footnote", ("early", "mid")),
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
        section="actions",
        short="Staff support to an order roll",
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
        section="actions",
        short="Regimental mortars' orders",
    ),
    Erratum(
        UNNAMED_ORDER_UNITS,
        "The order table of cavalry squadrons, LMG platoons and flamethrower platoons",
        (
            Reading(
                "as-infantry",
                "The order sequences name only tanks, MGs, mortars, rifle companies and artillery; cavalry "
                "'must dismount to fire', LMGs 'fielded as separate support units ... attack as infantry', and "
                "'Only infantry or flamethrowers may launch an assault': each is ordered on the Battalion Rifle "
                "Companies table, its stands taking the roll as a company's platoons do.",
                f"{cite('ORDER SEQUENCE NOTES, BATTALION ORDERS')} (silent on these units; referee's reading)",
                {
                    "cavalry-squadron": "rifle-company",
                    "lmg": "rifle-company",
                    "flamethrower-platoon": "rifle-company",
                },
            ),
            Reading(
                "as-machine-guns",
                "LMG platoons and flamethrower platoons are battalion support weapons, ordered each on the "
                "Individual Battalion MGs table; cavalry squadrons as rifle companies.",
                f"{cite('ORDER SEQUENCE NOTES, BATTALION ORDERS')} (silent on these units; alternative reading)",
                {
                    "cavalry-squadron": "rifle-company",
                    "lmg": "battalion-mg",
                    "flamethrower-platoon": "battalion-mg",
                },
            ),
        ),
        default="as-infantry",
        note="Organisation kinds -> order-roll units. Every reading orders them in the battalion-orders step.",
        section="actions",
    ),
)
