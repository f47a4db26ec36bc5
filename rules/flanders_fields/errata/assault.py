"""Errata of close combat: support from the rear and cavalry against foot troops."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

DEFENDER_REAR_SUPPORT = "defender-rear-support"
CAVALRY_VS_OTHER_FOOT = "cavalry-vs-other-foot"

FlandersFields.add_errata(
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
        section="assault",
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
        section="assault",
    ),
)
