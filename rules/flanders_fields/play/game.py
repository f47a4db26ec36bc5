"""Flanders Fields played as a game: one hook (rules.core.game.GameRules) whose methods are its modules' (its
turn, its unit state, its rolls, its fire plan, its table, its report, its new games), each overriding what the
book changes, and its book (`BOOK`: its state fields, turn, terms, table kit and scenarios as data)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.core.acts import Act, EditUnit, MoveFormation, MoveStand, PlaceMarker, RecoverMarker
from rules.core.game import BOARD_CHANGED, TURN_ENDED, TURN_STARTED, Answer, Book, GameRules, Held
from rules.core.records import Change, Snapshot, StandAct, StandEdit, StateField
from rules.core.turn import Notice
from rules.flanders_fields.book.artillery_tables import GUNS
from rules.flanders_fields.book.common import QUALITIES
from rules.flanders_fields.book.organisation import KINDS
from rules.flanders_fields.book.special_rules import SPECIAL_RULES
from rules.flanders_fields.errata.scenarios import SCENARIO_VICTORY
from rules.flanders_fields.play.changes import HAND_KEY, STATE_FIELDS, FlandersFieldsUnitState
from rules.flanders_fields.play.game_acts import ROLL_TERMS, FlandersFieldsRolls
from rules.flanders_fields.play.game_arrivals import FIRE_PLAN_TERMS, FlandersFieldsFirePlan
from rules.flanders_fields.play.game_consequences import (
    EDIT_ACTS,
    SIDE_STATE,
    FlandersFieldsTable,
    gas_marked,
    marker_added,
    marker_removed,
)
from rules.flanders_fields.play.game_orders import FlandersFieldsPacking, act_spent, command_moved
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from rules.flanders_fields.play.game_sequence import (
    END_OF_TURN_SOURCE,
    ORDERED_ACTS,
    SET_UP_NEEDS,
    SET_UP_SOURCE,
    TURN_SOURCE,
    FlandersFieldsTurn,
    turn_ended,
    turn_started,
)
from rules.flanders_fields.play.game_setup import NATIONS, UNIT_LEVELS, FlandersFieldsSetup
from rules.flanders_fields.play.kit import KIT
from rules.flanders_fields.play.sheet import FlandersFieldsSheet
from rules.flanders_fields.play.table_rules import DANGER_ZONE_CM, WIRE_BELT_CM
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.flanders_fields.shipped import DOCUMENTS
from rules.registry import register_game

# A small scenario, as the API's documentation shows a scenario document (docs/scenario-format.md).
SCENARIO_EXAMPLE = {
    "format": "firestep-scenario/1",
    "title": "Trench raid",
    "ruleset": FlandersFields.id,
    "period": "mid",
    "table": {"width_cm": 120, "length_cm": 180},
    "sides": {
        "attacker": {"nationality": "british", "forces": [{"table_id": "gb-1915", "template": "battalion"}]},
        "defender": {"nationality": "german", "forces": []},
    },
}

BOOK = Book(
    ruleset_id=FlandersFields.id,
    turn_source=TURN_SOURCE,
    set_up_needs=SET_UP_NEEDS,
    set_up_source=SET_UP_SOURCE,
    end_source=END_OF_TURN_SOURCE,
    ordered_acts=ORDERED_ACTS,
    state_fields=STATE_FIELDS,
    unit_state=FlandersFieldsUnitState,
    marker_field="suppression",  # the markers placed by hand are suppression markers
    side_state=SIDE_STATE,
    hand_key=HAND_KEY,
    edit_acts=EDIT_ACTS,
    roll_terms=ROLL_TERMS,
    plan_terms=FIRE_PLAN_TERMS,
    kit=KIT,
    wire_belt_cm=WIRE_BELT_CM,
    danger_zone_cm=DANGER_ZONE_CM,
    losses_counted="rifle platoons",
    told_fields=("suppression", "stuck_on_wire"),
    nations=NATIONS,
    qualities=QUALITIES,
    special_rules=tuple(SPECIAL_RULES),
    unit_levels=UNIT_LEVELS,
    unit_kinds=KINDS,
    guns=tuple(GUNS),
    scenarios=DOCUMENTS,
    scenario_example=SCENARIO_EXAMPLE,
    victory_erratum=SCENARIO_VICTORY,
    victory_source=cite("SPECIMEN GAMES"),
)


class FlandersFieldsGame(
    FlandersFieldsRolls,
    FlandersFieldsFirePlan,
    FlandersFieldsTurn,
    FlandersFieldsPacking,
    FlandersFieldsTable,
    FlandersFieldsReport,
    FlandersFieldsSetup,
    FlandersFieldsSheet,
):
    """The core's game with what a move (or a limbering, an unpacking) spends: an action of the unit the stands
    are ordered with, and one of a command stand's two moves; suppression markers placed and recovered by hand;
    what happens between turns; and an aiming point shown once it is on the table."""

    book = BOOK

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        if isinstance(act, PlaceMarker):
            return Answer(marker_added(snapshot, act.unit_id, act.cause, act.count))
        if isinstance(act, RecoverMarker):
            return Answer(marker_removed(snapshot, act.unit_id, act.spend_action))
        answer = super().play(snapshot, act)
        if not isinstance(act, (MoveStand, MoveFormation, EditUnit)):
            return answer
        if spent := (*act_spent(snapshot, act), *command_moved(snapshot, act)):
            return replace(answer, changes=(*answer.changes, *spent))
        return answer

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        """A stand's rolls (`FlandersFieldsRolls.stand_acts`), then its packing (`stand_edits`)."""
        return (*self.stand_acts(snapshot, unit_id), *self.stand_edits(snapshot, unit_id))

    def between_turns(self, snapshot: Snapshot, moment: str) -> tuple[tuple[Notice, ...], tuple[Change, ...]]:
        """A side's turn ends (command stands recover, actions lapse) or starts (barrages fire another turn);
        a cloud arrived marks the stands under it."""
        if moment == TURN_STARTED:
            return turn_started(snapshot)
        if moment == TURN_ENDED:
            return (), turn_ended(snapshot, snapshot.side_to_move)
        if moment == BOARD_CHANGED:
            return (), gas_marked(snapshot, snapshot.board.get("clouds", ()))
        return (), ()

    def secret(self, unit: Held, field: StateField, board: Mapping[str, Any] | None = None) -> bool:
        # "When a battery fires ... an aiming point is placed on the table at the designated spot": the other
        # side reads a battery's aiming point once it is the one on the table (the board's aiming_points).
        if board is None or field.name != "aiming_point" or unit.id is None:
            return field.secret
        shown = board.get("aiming_points", {}).get(str(unit.id))
        return field.secret and unit.state.get(field.name, field.default) != shown


GAME: GameRules = register_game(FlandersFieldsGame())
