"""Flanders Fields: the rule set class. Its modules attach resolvers, datasets and errata to it."""

from __future__ import annotations

from rules.core.citation import Texts
from rules.core.ruleset import Period, RuleSet
from rules.registry import register

BOOK = "Flanders Fields rule book"
PLAYSHEET_EARLY = "Flanders Fields playsheet, Western Front 1914 to mid 1915"
PLAYSHEET_MID = "Flanders Fields playsheet, Western Front mid 1915 to mid 1917"
PLAYSHEET_LATE = "Flanders Fields playsheet, Western Front mid 1917 to end of war"
PLAYSHEETS = {"early": PLAYSHEET_EARLY, "mid": PLAYSHEET_MID, "late": PLAYSHEET_LATE}


@register
class FlandersFields(RuleSet):
    id = "flanders-fields"
    name = "Flanders Fields"
    source = "Flanders Fields: rules for Great War battles, regiment to division (10 mm, distances in cm)"
    periods = (
        Period("early", "Western Front 1914 to mid 1915", PLAYSHEET_EARLY),
        Period("mid", "Western Front mid 1915 to mid 1917", PLAYSHEET_MID),
        Period("late", "Western Front mid 1917 to end of war", PLAYSHEET_LATE),
    )
    most_used = (
        "order-roll",
        "shooting",
        "morale",
        "assault",
        "wire-crossing",
        "rolling-barrage",
        "deep-suppression",
        "sos",
        "gas-wind",
        "deviation",
        "air-attack",
        "heroic-action",
    )


# Texts quoted as one: the three playsheets where they agree (the movement table).
ALL_PLAYSHEETS = "Flanders Fields playsheets (all three periods)"
TEXTS = Texts(BOOK, PLAYSHEETS)
# A section of the period's playsheet when a period is given, else of the main rule book.
cite = TEXTS.cite
cite_playsheets = TEXTS.cite_periods
