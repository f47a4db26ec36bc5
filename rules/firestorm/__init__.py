"""Firestorm: Villers-Bretonneux. Importing the package registers the rule set, its tables, its battle
resolvers and its Great War resolvers (great_war); rules.firestorm.campaign is the campaign as a pure state
machine, which campaign_book declares on the rule set (`Firestorm.campaign`)."""

from rules.firestorm import battle as battle
from rules.firestorm import campaign_book as campaign_book
from rules.firestorm import great_war as great_war
from rules.firestorm.ruleset import Firestorm

__all__ = ["Firestorm"]
