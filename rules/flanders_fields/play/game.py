"""Flanders Fields played as a game: the hook (rules.core.game.GameRules) assembled from its modules' objects,
each the rule set's own (its unit state and markers, its turn, its rolls, its fire plan, its table, its report,
its new games and its table kit)."""

from __future__ import annotations

from rules.core.game import GameRules
from rules.flanders_fields.play.game_acts import FlandersFieldsRolls
from rules.flanders_fields.play.game_arrivals import FlandersFieldsFirePlan
from rules.flanders_fields.play.game_consequences import FlandersFieldsFields, FlandersFieldsTable
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from rules.flanders_fields.play.game_sequence import FlandersFieldsTurn
from rules.flanders_fields.play.game_setup import FlandersFieldsSetup
from rules.flanders_fields.play.kit import KIT
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import register_game

GAME: GameRules = register_game(
    GameRules(
        FlandersFields.id,
        fields=FlandersFieldsFields(),
        turn=FlandersFieldsTurn(),
        rolls=FlandersFieldsRolls(),
        fire_plan=FlandersFieldsFirePlan(),
        tabletop=FlandersFieldsTable(),
        report=FlandersFieldsReport(),
        setup=FlandersFieldsSetup(),
        kit=KIT,
    )
)
