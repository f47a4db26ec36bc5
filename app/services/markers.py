"""Markers on units, and the rules' decisions written to the rows: the game frozen into a snapshot for its
rule set's game rules (rules.core.game), and the one applier that writes their change records (markers,
kills, morale flags, gas, barrages, the deep suppression) to the game and its units, answering the changes
as the log keeps them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlmodel import Session

from app.data.board_state import board_json, read_board
from app.data.models import Game, Unit
from app.errors import Conflict
from app.services.games import get_game, set_game
from app.services.units import increment, list_units, unit_dict, unit_state, update_unit
from rules.core.game import (
    ActionsGranted,
    ActionsLapsed,
    ActionSpent,
    BarragesRolled,
    BecameSuppressed,
    CameUnderFire,
    Change,
    CloudsBlown,
    CrewAbandoned,
    DeepSuppressionSet,
    GameRules,
    GasMarked,
    MoraleDue,
    MoraleTaken,
    Snapshot,
    SuppressionAdded,
    SuppressionCleared,
    SuppressionRecovered,
    UnitChange,
    UnitKilled,
)
from rules.flanders_fields.play.units import rifle_losses as rifle_losses  # the battalion page and the report
from rules.registry import get_game_rules


# -- the game as the rules read it -------------------------------------------------------------------------
def rules_of(game: Game) -> GameRules:
    """The game rules of the game's rule set: a rule set without them is refused with a 422 naming it."""
    return get_game_rules(game.ruleset)


def snapshot_of(game: Game, units: Iterable[Unit]) -> Snapshot:
    board = read_board(game)
    return Snapshot(
        ruleset=game.ruleset,
        period=game.period,
        units=tuple(unit_state(u) for u in units),
        variants=dict(game.variants),
        nations={
            s: n for s, n in (("attacker", game.attacker_nation), ("defender", game.defender_nation)) if n
        },
        turn=game.turn,
        side_to_move=game.side_to_move,
        deep_suppression=game.deep_suppression,
        table_width_cm=game.table_width_cm,
        table_length_cm=game.table_length_cm,
        terrain=game.terrain,
        barrages=board.barrages,
        clouds=board.clouds,
        wind=board.wind,
    )


# -- writing the rules' changes ----------------------------------------------------------------------------
def _field_set(c: Change) -> tuple[str, Any] | None:
    """The unit field a record sets, and its value (None: not a plain field update)."""
    if isinstance(c, SuppressionCleared):
        return "suppression", 0
    if isinstance(c, BecameSuppressed):
        return "suppression", 1
    if isinstance(c, ActionsGranted):
        return "actions_left", c.actions
    if isinstance(c, ActionsLapsed):
        return "actions_left", 0
    if isinstance(c, UnitKilled):
        return "killed", True
    if isinstance(c, MoraleDue):
        return "morale_due", True
    if isinstance(c, CrewAbandoned):
        return "crew_abandoned", True
    if isinstance(c, CameUnderFire):
        return "raw_under_fire", True
    if isinstance(c, GasMarked):
        return "in_gas", c.in_gas
    return None


def apply_changes(
    session: Session, game: Game, units: Sequence[Unit], changes: Iterable[Change]
) -> list[dict[str, Any]]:
    """Write the rules' change records to the game and its unit rows, in order; the changes as the log keeps
    them ({unit|game, field, before, after} or {unit, field, delta, after} for markers counted atomically,
    so two devices adding a marker at once make two)."""
    rows = {u.id: u for u in units}
    out: list[dict[str, Any]] = []
    for c in changes:
        if isinstance(c, SuppressionAdded):
            added = increment(session, rows[c.unit_id], "suppression", c.count)
            assert added is not None  # a positive delta has no floor to hit
            out.append(added)
        elif isinstance(c, ActionSpent):
            out.append(_take_one(session, rows[c.unit_id], "actions_left", "the action was spent meanwhile"))
        elif isinstance(c, SuppressionRecovered):
            out.append(_take_one(session, rows[c.unit_id], "suppression", "the marker was removed meanwhile"))
        elif isinstance(c, MoraleTaken):
            bn = rows[c.unit_id]
            if c.stage is not None:
                out += update_unit(session, bn, morale_stage=c.stage)
            out += update_unit(session, bn, morale_due=False)
        elif isinstance(c, UnitChange) and (fv := _field_set(c)) is not None:
            out += update_unit(session, rows[c.unit_id], **{fv[0]: fv[1]})
        elif isinstance(c, DeepSuppressionSet):
            out += set_game(session, game, deep_suppression=c.penalty)
        elif isinstance(c, CloudsBlown):
            board = read_board(game)
            board.wind = dict(c.wind)
            board.wind_turn = c.turn
            board.clouds = tuple(dict(k) for k in c.kept)
            if c.gone:
                board.clouds_gone = (*board.clouds_gone, *(dict(g) for g in c.gone))
            out += set_game(session, game, board=board_json(game, board))
        elif isinstance(c, BarragesRolled):
            board = read_board(game)
            board.barrages = tuple(dict(b) for b in c.barrages)
            out += set_game(session, game, board=board_json(game, board))
        else:
            raise TypeError(f"no applier for {type(c).__name__}")
    return out


def _take_one(session: Session, unit: Unit, field: str, gone: str) -> dict[str, Any]:
    """One action or marker taken off atomically; 409 (`gone`, with the unit now) when another device took
    the last one first."""
    taken = increment(session, unit, field, -1)
    if taken is None:
        raise Conflict(gone, current=unit_dict(unit))
    return taken


# -- markers placed and removed by hand --------------------------------------------------------------------
def add_suppression(
    session: Session, game: Game, target: Unit, fire: str | None, count: int = 1
) -> list[dict[str, Any]]:
    """Suppress a stand (and what follows: the company suppressed, kills, morale tests due)."""
    units = list_units(session, game.id or 0)
    assert target.id is not None
    changes = rules_of(game).suppression_added(snapshot_of(game, units), target.id, fire, count)
    return apply_changes(session, game, units, changes)


def recover(session: Session, unit: Unit, spend_action: bool) -> list[dict[str, Any]]:
    """Remove a marker, spending the action it costs when `spend_action`."""
    game = get_game(session, unit.game_id)
    units = list_units(session, game.id or 0)
    assert unit.id is not None
    changes = rules_of(game).suppression_recovered(snapshot_of(game, units), unit.id, spend_action)
    return apply_changes(session, game, units, changes)


def gas_markers(
    session: Session, game: Game, clouds: Sequence[Mapping[str, Any]], units: Sequence[Unit]
) -> list[dict[str, Any]]:
    """Mark the stands the clouds now cover as in gas, and the others no longer."""
    changes = rules_of(game).gas_marked(snapshot_of(game, units), clouds)
    return apply_changes(session, game, units, changes)
