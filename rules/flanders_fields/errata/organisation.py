"""Errata of the tables of organisation: formations per division, chart boxes, default grades."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

ORG_INFANTRY_FORMATIONS_PER_DIVISION = "org-infantry-formations-per-division"
ORG_CHART_MULTIPLES = "org-chart-multiples"
ORG_DEFAULT_QUALITY = "org-default-quality"

FlandersFields.add_errata(
    Erratum(
        ORG_INFANTRY_FORMATIONS_PER_DIVISION,
        "How many infantry brigades (British) or regiments (French, German) a division has",
        (
            Reading(
                "normally-three",
                "The organisation charts draw a single infantry brigade box under the division (the French "
                "and German 1914-15 charts one brigade of two regiments). ORGANISATION: a division "
                "comprises '2-4 (normally 3) regiments' and the game ignores the early French and German "
                "brigade level, so a division is built with three infantry brigades or regiments.",
                cite("ORGANISATION"),
                3,
            ),
            Reading(
                "as-drawn",
                "Build exactly the boxes the chart draws: one British brigade; one French/German brigade "
                "of two regiments in 1914-15, three regiments from 1916.",
                cite("TABLES OF ORGANISATION"),
                None,
            ),
        ),
        default="normally-three",
        section="organisation",
    ),
    Erratum(
        ORG_CHART_MULTIPLES,
        "Organisation chart boxes that stand for several units",
        (
            Reading(
                "referee",
                "The charts lost their layout in extraction: they give no multiplier for the field artillery "
                "brigade boxes (British), ranges like 'Div HQ 4-5 Figs' or 'MMG Company 2-4 Maxim', and no "
                "parent for boxes listed after the platoons. A referee builds one unit per box drawn and the "
                "lower end of each range; boxes after the platoons are divisional assets, except the French "
                "Heavy Weapons Company and German Heavy Weapons Platoon, listed right after an Infantry "
                "Regiment box, which go to each regiment; '2 Batteries 2 x 18ld Field Guns' is two batteries "
                "of one model each, as the spring 1917 chart says '(2 x 18ld & 1 x 4.5\" Models)'.",
                cite("TABLES OF ORGANISATION"),
                "low",
            ),
            Reading(
                "high",
                "Take the upper end of each range in the charts (e.g. 5 figures, 4 Maxims, 4 flamethrowers); "
                "placements as in the referee reading.",
                cite("TABLES OF ORGANISATION"),
                "high",
            ),
        ),
        default="referee",
        section="organisation",
    ),
    Erratum(
        ORG_DEFAULT_QUALITY,
        "Grade of a French or German division built from its table",
        (
            Reading(
                "experienced",
                "The text is silent: the French 1914-15 and 1917 and German 1914-15 and 1916-18 tables give no "
                "grade (the British ones do). A referee builds them Experienced, the grade of 'Units and men "
                "who have survived their baptism of fire' and of every crewed weapon; a game may pick another "
                "grade when it builds the force.",
                cite("TABLES OF ORGANISATION"),
                "experienced",
            ),
        ),
        default="experienced",
        section="organisation",
    ),
)
