"""Flanders Fields played as a game: the rule set's implementation of the hook, rules.core.game.GameRules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.game import (
    Arrival,
    Change,
    Filled,
    FillRequest,
    GameRules,
    Member,
    Outcome,
    PlanItem,
    Played,
    Snapshot,
)
from rules.flanders_fields.play import (
    game_arrivals,
    game_cards,
    game_consequences,
    game_fill,
    game_report,
    game_turn,
)
from rules.flanders_fields.play.changes import HAND_KEY, STATE_FIELDS
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import register_game


class FlandersFieldsGame(GameRules):
    ruleset_id = FlandersFields.id
    state_fields = STATE_FIELDS
    secret_draws = {game_cards.RESOLVER: "the random event cards"}
    hand_key = HAND_KEY

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        return game_fill.fill(resolver_id, snapshot, request)

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        return game_consequences.consequences(resolver_id, snapshot, outcome)

    def before_resolve(
        self, resolver_id: str, snapshot: Snapshot, request: FillRequest, apply: bool
    ) -> tuple[Change, ...]:
        return game_turn.before_resolve(resolver_id, snapshot, request, apply)

    def drawn(self, resolver_id: str, snapshot: Snapshot, given: Mapping[str, Any]) -> tuple[Filled, ...]:
        return game_cards.drawn(snapshot, given) if resolver_id == game_cards.RESOLVER else ()

    def draw_seen(
        self, resolver_id: str, payload: Mapping[str, Any], drawer: str, applied: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        return game_cards.draw_seen(payload, drawer, applied)

    def plan_item_allowed(self, kind: str, period: str | None, side: str, nation: str) -> None:
        game_arrivals.require_plan_item(kind, period, side, nation)

    def arrival(self, snapshot: Snapshot, item: PlanItem) -> Arrival:
        return game_arrivals.arrival(snapshot, item)

    def losses(self, formation: Member, units: Sequence[Member]) -> tuple[int, int]:
        return game_report.losses(formation, units)

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> dict[str, Any]:
        return game_report.casualties(period, variants, bases)

    def hand_played(self, snapshot: Snapshot, side: str, card: str) -> Played:
        return game_cards.hand_played(snapshot, side, card)

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
