"""Vimy Ridge: Arras Diversion. Importing the package registers the rule set, its tables and resolvers."""

from rules.vimy_ridge import observation as observation
from rules.vimy_ridge import resolvers as resolvers
from rules.vimy_ridge import special as special
from rules.vimy_ridge.play import club as club
from rules.vimy_ridge.play import game as game
from rules.vimy_ridge.ruleset import VimyRidge

__all__ = ["VimyRidge"]
