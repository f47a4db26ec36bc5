"""Flanders Fields played as a game: the rule set's implementation of the hook, rules.core.game.GameRules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game import Change, Filled, FillRequest, GameRules, Outcome, Snapshot
from rules.flanders_fields.play import game_consequences, game_fill
from rules.flanders_fields.play.changes import STATE_FIELDS
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import register_game


class FlandersFieldsGame(GameRules):
    ruleset_id = FlandersFields.id
    state_fields = STATE_FIELDS

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        return game_fill.fill(resolver_id, snapshot, request)

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        return game_consequences.consequences(resolver_id, snapshot, outcome)

    def marker_added(
        self, snapshot: Snapshot, unit_id: int, cause: str | None, count: int
    ) -> tuple[Change, ...]:
        # The marker is a suppression marker; what placed it is the fire type (MG, artillery ...).
        return game_consequences.suppression_added(snapshot, unit_id, cause, count)

    def marker_removed(self, snapshot: Snapshot, unit_id: int, spend_action: bool) -> tuple[Change, ...]:
        return game_consequences.suppression_recovered(snapshot, unit_id, spend_action)

    def end_of_turn(self, snapshot: Snapshot, side: str) -> tuple[Change, ...]:
        return game_consequences.end_of_turn(snapshot, side)

    def board_changed(self, snapshot: Snapshot) -> tuple[Change, ...]:
        return game_consequences.gas_marked(snapshot, snapshot.board.get("clouds", ()))

    def state_shown(self, board: Mapping[str, Any], unit_id: int, name: str, value: Any) -> bool:
        # "When a battery fires ... an aiming point is placed on the table at the designated spot": the other
        # side reads a battery's aiming point once it is the one on the table (the board's aiming_points).
        return name == "aiming_point" and value == board.get("aiming_points", {}).get(str(unit_id))


GAME: GameRules = register_game(FlandersFieldsGame())
