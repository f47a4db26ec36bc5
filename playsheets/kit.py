"""The 1:1 template kit: the area templates a rule set declares to cut out (`Playsheet.kit`, laid out by its rule
set for the printable area A4 and US Letter share, rules.core.sheet), printed by the first rule set declaring one.
"""

from __future__ import annotations

from rules.core.errors import NotFoundError
from rules.core.sheet import AREA_LANDSCAPE_MM, AREA_PORTRAIT_MM, MARGIN_MM, TOP_MM, KitPage, KitPiece
from rules.registry import all_game_rules, get_ruleset

__all__ = [
    "AREA_LANDSCAPE_MM",
    "AREA_PORTRAIT_MM",
    "CALIBRATION_CM",
    "MARGIN_MM",
    "TOP_MM",
    "KitPage",
    "KitPiece",
]

CALIBRATION_CM = 10.0  # the bar at the top of each page a printer's scaling is checked against


def kit() -> tuple[str, tuple[KitPage, ...]]:
    """The name of the rule set printing the template kit, and the kit's pages in print order."""
    for rules in all_game_rules():
        pages = rules.playsheet(None).kit
        if pages:
            return get_ruleset(rules.book.ruleset_id).name, pages
    raise NotFoundError("template kit", "", [])


def pages() -> tuple[KitPage, ...]:
    """The kit's pages, in print order."""
    return kit()[1]
