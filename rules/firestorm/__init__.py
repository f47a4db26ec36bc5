"""Firestorm: Villers-Bretonneux. Importing the package registers the rule set, its tables, its battle
resolvers; rules.firestorm.campaign is the campaign as a pure state machine."""

from rules.firestorm import battle as battle
from rules.firestorm.ruleset import Firestorm

__all__ = ["Firestorm"]
