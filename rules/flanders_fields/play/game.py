"""Flanders Fields played as a game: the rule set's implementation of rules.core.game.GameRules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.game import Change, Filled, FillRequest, GameRules, Outcome, Snapshot
from rules.flanders_fields.play import game_consequences, game_fill
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import register_game


class FlandersFieldsGame:
    ruleset_id = FlandersFields.id

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        return game_fill.fill(resolver_id, snapshot, request)

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        return game_consequences.consequences(resolver_id, snapshot, outcome)

    def suppression_added(
        self, snapshot: Snapshot, unit_id: int, fire: str | None, count: int
    ) -> tuple[Change, ...]:
        return game_consequences.suppression_added(snapshot, unit_id, fire, count)

    def suppression_recovered(
        self, snapshot: Snapshot, unit_id: int, spend_action: bool
    ) -> tuple[Change, ...]:
        return game_consequences.suppression_recovered(snapshot, unit_id, spend_action)

    def end_of_turn(self, snapshot: Snapshot, side: str) -> tuple[Change, ...]:
        return game_consequences.end_of_turn(snapshot, side)

    def gas_marked(self, snapshot: Snapshot, clouds: Sequence[Mapping[str, Any]]) -> tuple[Change, ...]:
        return game_consequences.gas_marked(snapshot, clouds)


GAME: GameRules = register_game(FlandersFieldsGame())
