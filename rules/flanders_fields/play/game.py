"""Flanders Fields played as a game: the rule set's implementation of the hook, rules.core.game.GameRules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.fire_cards import FireCard, Fired
from rules.core.game import (
    Arrival,
    Change,
    Filled,
    FillRequest,
    GameRules,
    Member,
    Node,
    Outcome,
    PlanItem,
    Played,
    Snapshot,
    StandAct,
)
from rules.core.ruleset import Context
from rules.core.scenario import ForceNode, NewForces
from rules.flanders_fields.book.artillery_tables import GUNS
from rules.flanders_fields.book.common import QUALITIES
from rules.flanders_fields.book.organisation import KINDS, LEVELS, max_units_per_game
from rules.flanders_fields.book.special_rules import SPECIAL_RULES
from rules.flanders_fields.play import (
    game_acts,
    game_arrivals,
    game_cards,
    game_consequences,
    game_fill,
    game_rehearsal,
    game_report,
    game_sequence,
    game_setup,
    game_turn,
    table_rules,
)
from rules.flanders_fields.play.changes import HAND_KEY, STATE_FIELDS
from rules.flanders_fields.play.units import carries_aiming_point
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import register_game


class FlandersFieldsGame(GameRules):
    ruleset_id = FlandersFields.id
    state_fields = STATE_FIELDS
    marker_field = "suppression"  # the markers placed by hand are suppression markers
    secret_draws = {game_cards.RESOLVER: "the random event cards"}
    hand_key = HAND_KEY
    # "Once per game each player may elect to attempt a Heroic Action" (HEROIC ACTIONS)
    side_state = {game_turn.HEROIC_KEY: 1}
    turn = game_sequence.FlandersFieldsTurn()
    wire_belt_cm = table_rules.WIRE_BELT_CM
    danger_zone_cm = table_rules.DANGER_ZONE_CM
    # Troops' names and quality are force building; an aiming point is redirected as an action.
    edit_acts = {"name": "build-forces", "quality": "build-forces", "aiming_point": "redirect-aiming-points"}

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        return game_fill.fill(resolver_id, snapshot, request)

    def consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        return game_consequences.consequences(resolver_id, snapshot, outcome)

    def stand_acts(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
        return game_acts.stand_acts(snapshot, unit_id)

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

    def draw_taken_back(
        self, resolver_id: str, snapshot: Snapshot, payload: Mapping[str, Any]
    ) -> tuple[Change, ...]:
        return game_cards.draw_taken_back(snapshot, payload)

    def fires_plan(self, unit: Node) -> bool:
        return carries_aiming_point(unit)

    def plan_item_allowed(self, kind: str, period: str | None, side: str, nation: str) -> None:
        game_arrivals.require_plan_item(kind, period, side, nation)

    def arrival_dice(self, snapshot: Snapshot, item: PlanItem) -> tuple[int, ...]:
        return game_arrivals.arrival_dice(snapshot, item)

    def arrival(self, snapshot: Snapshot, item: PlanItem, dice: Sequence[int] = ()) -> Arrival:
        return game_arrivals.arrival(snapshot, item, dice)

    def arrival_cards(self, snapshot: Snapshot, names: Mapping[int, str]) -> tuple[FireCard, ...]:
        return game_arrivals.cards(snapshot, names)

    def arrival_fired(
        self,
        snapshot: Snapshot,
        card: FireCard,
        dice: Mapping[str, Sequence[int]],
        measured: Mapping[str, str],
        names: Mapping[int, str],
    ) -> Fired:
        return game_arrivals.fired(snapshot, card, dice, measured, names)

    def losses(self, formation: Member, units: Sequence[Member]) -> tuple[int, int]:
        return game_report.losses(formation, units)

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> dict[str, Any]:
        return game_report.casualties(period, variants, bases)

    def rehearse(
        self,
        snapshot: Snapshot,
        side: str,
        items: Sequence[Mapping[str, Any]],
        names: Mapping[int, str],
        options: Mapping[str, Any],
        turns: int | None,
        seed: int,
        samples: int,
    ) -> dict[str, Any]:
        return game_rehearsal.rehearse(snapshot, side, items, names, options, turns, seed, samples)

    def hand_played(self, snapshot: Snapshot, side: str, card: str) -> Played:
        return game_cards.hand_played(snapshot, side, card)

    def marker_added(
        self, snapshot: Snapshot, unit_id: int, cause: str | None, count: int
    ) -> tuple[Change, ...]:
        # The marker is a suppression marker; what placed it is the fire type (MG, artillery ...).
        return game_consequences.suppression_added(snapshot, unit_id, cause, count)

    def marker_removed(self, snapshot: Snapshot, unit_id: int, spend_action: bool) -> tuple[Change, ...]:
        return game_consequences.suppression_recovered(snapshot, unit_id, spend_action)

    def board_changed(self, snapshot: Snapshot) -> tuple[Change, ...]:
        return game_consequences.gas_marked(snapshot, snapshot.board.get("clouds", ()))

    def state_shown(self, board: Mapping[str, Any], unit_id: int, name: str, value: Any) -> bool:
        # "When a battery fires ... an aiming point is placed on the table at the designated spot": the other
        # side reads a battery's aiming point once it is the one on the table (the board's aiming_points).
        return name == "aiming_point" and value == board.get("aiming_points", {}).get(str(unit_id))

    # -- new games -------------------------------------------------------------------------------------------
    nations = game_setup.NATIONS
    qualities = QUALITIES
    special_rules = tuple(SPECIAL_RULES)
    unit_levels = LEVELS
    unit_kinds = KINDS
    guns = tuple(GUNS)

    def shipped_scenarios(self) -> Mapping[str, Mapping[str, Any]]:
        from rules.flanders_fields.planning.scenarios import DOCUMENTS  # planning imports play: read late

        return DOCUMENTS

    def unit_cap(self) -> tuple[int, str] | None:
        cap = max_units_per_game()
        return cap, game_setup.CAP_RULE.format(cap=cap)

    def new_forces(self, ctx: Context, document: Mapping[str, Any]) -> NewForces:
        return game_setup.new_forces(ctx, document)

    def forces_setup(self, entries: Sequence[Mapping[str, Any]]) -> tuple[str | None, dict[str, str]]:
        return game_setup.forces_setup(entries)

    def force_from_table(
        self,
        period: str | None,
        variants: Mapping[str, str],
        nation: str,
        entry: Mapping[str, Any],
        field: str,
        id_prefix: str,
    ) -> ForceNode:
        return game_setup.force_from_table(period, variants, nation, entry, field, id_prefix)


GAME: GameRules = register_game(FlandersFieldsGame())
