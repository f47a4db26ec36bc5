"""Battle for 2mm Earth 1418. Importing the package registers the rule set, its tables and resolvers."""

from rules.earth2mm import resolvers as resolvers
from rules.earth2mm import sight as sight
from rules.earth2mm import special as special
from rules.earth2mm.play import errata as errata
from rules.earth2mm.play import game as game
from rules.earth2mm.ruleset import Earth2mm

__all__ = ["Earth2mm"]
