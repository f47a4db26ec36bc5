"""Flanders Fields played as a game: the hook (rules.core.game.GameRules) assembled from its modules' objects,
each the rule set's own (its unit state and markers, its turn, its rolls, its fire plan, its table, its report,
its new games and its table kit)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.core.acts import Act, EditUnit, MoveFormation, MoveStand
from rules.core.game import Answer, GameRules
from rules.core.records import Snapshot
from rules.core.score import Victory
from rules.flanders_fields.errata.scenarios import SCENARIO_VICTORY
from rules.flanders_fields.play.game_acts import FlandersFieldsRolls
from rules.flanders_fields.play.game_arrivals import FlandersFieldsFirePlan
from rules.flanders_fields.play.game_consequences import FlandersFieldsFields, FlandersFieldsTable
from rules.flanders_fields.play.game_orders import act_spent, command_moved
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from rules.flanders_fields.play.game_sequence import FlandersFieldsTurn
from rules.flanders_fields.play.game_setup import FlandersFieldsSetup
from rules.flanders_fields.play.kit import KIT
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.registry import register_game


@dataclass(frozen=True)
class FlandersFieldsGame(GameRules):
    """The core's game with what a move (or a limbering, an unpacking) spends: an action of the unit the stands
    are ordered with, and one of a command stand's two moves."""

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        answer = super().play(snapshot, act)
        if not isinstance(act, (MoveStand, MoveFormation, EditUnit)):
            return answer
        if spent := (*act_spent(snapshot, act), *command_moved(snapshot, act)):
            return replace(answer, changes=(*answer.changes, *spent))
        return answer


GAME: GameRules = register_game(
    FlandersFieldsGame(
        FlandersFields.id,
        fields=FlandersFieldsFields(),
        turn=FlandersFieldsTurn(),
        rolls=FlandersFieldsRolls(),
        fire_plan=FlandersFieldsFirePlan(),
        tabletop=FlandersFieldsTable(),
        report=FlandersFieldsReport(),
        setup=FlandersFieldsSetup(),
        kit=KIT,
        victory=Victory(SCENARIO_VICTORY, cite("SPECIMEN GAMES")),
    )
)
