"""Errata of the national special rules: French elan, the British mad minute, Prussian discipline."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

ELAN_IN_ASSAULT = "elan-in-assault"
MAD_MINUTE_LIMIT = "mad-minute-limit"
PRUSSIAN_DISCIPLINE_MORALE = "prussian-discipline-morale"

FlandersFields.add_errata(
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
        section="national-rules",
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
        section="national-rules",
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
        section="national-rules",
    ),
)
