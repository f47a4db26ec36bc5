"""2mm Earth 1418's new games: its force tree (STRATEGIC FORMATIONS: an SF of sub-units (companies) of bases
(platoons)), the kinds a unit may be (the characteristics chart's rows, an SF a formation), the SF qualities,
the shipped demo battle."""

from __future__ import annotations

from rules.core.game import Setup
from rules.earth2mm.data import UNIT_IDS
from rules.earth2mm.play.units import FORMATION_KIND, LEVELS, QUALITIES


class EarthSetup(Setup):
    unit_levels = LEVELS
    unit_kinds = (FORMATION_KIND, *UNIT_IDS)
    qualities = QUALITIES
