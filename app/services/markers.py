"""The rules' decisions written to the rows: the game frozen into a snapshot for its rule set's hook
(rules.core.game), and the one interpreter of its generic change records (a unit's state set or counted, a
board key, a side's own state), answering the changes as the log keeps them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from pydantic import JsonValue
from sqlmodel import Session, col, select

from app.data.board_state import Board, board_json, read_board
from app.data.changes import LoggedChange, UnitCounted
from app.data.models import Game, GameSide, Unit
from app.errors import RuleRefused
from app.services.games import game_values, set_game
from app.services.kept_units import KeptUnits, kept_terrain, kept_units
from app.services.seats import get_side, set_side_allowance
from app.services.units import get_units, increment, unit_dict, unit_state, update_units
from rules.core.game import BOARD_CHANGED, GameRules
from rules.core.records import (
    AddToState,
    Change,
    SetBoard,
    SetSideState,
    SetState,
    Snapshot,
    UnitChange,
    UnitState,
)
from rules.registry import get_game_rules


# -- the game as the rules read it -------------------------------------------------------------------------
def rules_of(game: Game) -> GameRules:
    """The game rules of the game's rule set: a rule set without them is refused with a 422 naming it."""
    return get_game_rules(game.ruleset)


def snapshot_of(session: Session, game: Game, units: Iterable[Unit]) -> Snapshot:
    """The table as the rules read it, with `units` (rows the caller read)."""
    fields = rules_of(game).book.state_fields
    return table_snapshot(session, game, tuple(unit_state(u, fields) for u in units))


def kept_of(session: Session, game: Game) -> KeptUnits:
    """The game's units as the worker keeps them now, each as its rule set reads them (app.services.kept_units:
    each row decoded once per version)."""
    return kept_units(session, game, rules_of(game).book.state_fields)


@dataclass(frozen=True)
class TableRead:
    """The game's units as the worker keeps them and the table's snapshot of them, read once by a caller that
    judges many acts and writes nothing (a stand's card asks the act pipeline of each of its acts): the units
    decoded once per version, and the snapshot as a refusal names them worked out once per stand it names as
    its own (`named`), not once per act judged."""

    kept: KeptUnits
    snapshot: Snapshot
    _named: dict[int | None, Snapshot] = field(default_factory=dict, compare=False, repr=False)

    @property
    def units(self) -> tuple[UnitState, ...]:
        return self.kept.units

    def named(self, own: int | None) -> Snapshot:
        """The snapshot as a refusal of an act of stand `own` names its units (KeptUnits.told_apart)."""
        if own not in self._named:
            self._named[own] = replace(self.snapshot, units=self.kept.told_apart(own))
        return self._named[own]

    def version(self, unit_id: int) -> int:
        """The unit's version as read (0 for a unit of no game: the pipeline refuses it by its field)."""
        row = self.kept.rows.get(unit_id)
        return int(row.version) if row is not None else 0


def table_read(session: Session, game: Game) -> TableRead:
    """The table as the rules read it with every unit of the game, from the worker's kept state (`kept_of`),
    and that state."""
    kept = kept_of(session, game)
    return TableRead(kept, table_snapshot(session, game, kept.units))


def table_snapshot(session: Session, game: Game, units: tuple[UnitState, ...]) -> Snapshot:
    """The game's own fields, its sides' and `units`, frozen for its rule set's hook."""
    return Snapshot(
        ruleset=game.ruleset,
        period=game.period,
        units=units,
        variants=dict(game.variants),
        nations={
            s: n for s, n in (("attacker", game.attacker_nation), ("defender", game.defender_nation)) if n
        },
        turn=game.turn,
        side_to_move=game.side_to_move,
        step=game.step,
        table_width_cm=game.table_width_cm,
        table_length_cm=game.table_length_cm,
        terrain=kept_terrain(session, game),
        board={**game.board, **game_values(game)},
        sides=SidesRead(session, game.pk),
    )


class SidesRead(Mapping[str, Mapping[str, Any]]):
    """Each side's own state (its hand of cards, its special rules' uses), read the first time a rule asks:
    most acts never do, and were each one statement the dearer for it (issue 88)."""

    def __init__(self, session: Session, game_id: int) -> None:
        self._session, self._game_id = session, game_id

    @cached_property
    def _read(self) -> dict[str, dict[str, JsonValue]]:
        q = select(col(GameSide.side), col(GameSide.special_uses)).where(
            col(GameSide.game_id) == self._game_id
        )
        return {side: dict(uses) for side, uses in self._session.execute(q.order_by(col(GameSide.id)))}

    def __getitem__(self, side: str) -> Mapping[str, Any]:
        return self._read[side]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read)

    def __len__(self) -> int:
        return len(self._read)

    def __reduce__(self) -> tuple[type[dict[str, object]], tuple[dict[str, dict[str, JsonValue]]]]:
        # Sent to another process (a rehearsal's worker) or copied: as the sides read now, a plain dict.
        return dict, (self._read,)


# -- writing the rules' changes: the one interpreter -------------------------------------------------------
def apply_changes(
    session: Session, game: Game, units: Sequence[Unit] | None, changes: Iterable[Change]
) -> list[LoggedChange]:
    """Write the rules' change records to the game, its sides and its unit rows, in order; the changes as the
    log keeps them (app.data.changes: a unit's, the game's or a side's field set, before and after, or a
    unit's counter moved atomically, so two devices adding a marker at once make two). Board keys set one
    after another are written as one change of the board. The rows written are those of `units` the changes
    name, the others read by id (`units` None: every one read, so an act writes the rows it changes alone)."""
    changes = list(changes)
    touched = {c.unit_id for c in changes if isinstance(c, UnitChange)}
    rows = {u.pk: u for u in units or () if u.pk in touched}
    if len(rows) < len(touched):
        rows.update((u.pk, u) for u in get_units(session, game.pk, touched - rows.keys()))
    out: list[LoggedChange] = []
    board: Board | None = None  # the board being set, written when the run of board keys ends
    values = rules_of(game).book.kit.values_by_name  # board keys the game keeps as values of its own
    sets: list[tuple[Unit, str, Any]] = []  # a run of states set, written together when the run ends
    for c in changes:
        if isinstance(c, SetState):
            if board is not None:
                out += set_game(session, game, board=board_json(game, board))
                board = None
            sets.append((rows[c.unit_id], c.field, c.value))
            continue
        if sets:
            out += update_units(session, sets)
            sets = []
        if isinstance(c, SetBoard) and c.key not in values:
            board = board or read_board(game)
            setattr(board, c.key, c.value)
            continue
        if board is not None:
            out += set_game(session, game, board=board_json(game, board))
            board = None
        if isinstance(c, AddToState):
            out.append(_add(session, rows[c.unit_id], c))
        elif isinstance(c, SetBoard):
            out += set_game(session, game, **{c.key: c.value})
        elif isinstance(c, SetSideState):
            row = get_side(session, game.pk, c.side)
            if row.special_uses.get(c.key) != c.value:
                out.append(set_side_allowance(session, row, c.key, c.value))
        else:
            raise TypeError(f"no applier for {type(c).__name__}")
    if sets:
        out += update_units(session, sets)
    if board is not None:
        out += set_game(session, game, board=board_json(game, board))
    return out


def _add(session: Session, unit: Unit, c: AddToState) -> UnitCounted:
    """A counter moved atomically; 409 (`gone`, with the unit now) when another device took the last one
    first."""
    moved = increment(session, unit, c.field, c.delta)
    if moved is None:
        raise RuleRefused(
            c.gone or f"{unit.name} has no {c.field.replace('_', ' ')} left", current=unit_dict(unit)
        )
    return moved


# -- the board changed ---------------------------------------------------------------------------------------
def board_changed(session: Session, game: Game, units: Sequence[Unit]) -> list[LoggedChange]:
    """What follows for the units from the board as it now reads."""
    _, changes = rules_of(game).between_turns(snapshot_of(session, game, units), BOARD_CHANGED)
    return apply_changes(session, game, units, changes)
