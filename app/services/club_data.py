"""The club's own data of a game played on a board of counters (its rule set's
`rules.core.kit.CounterBoard.club`: key places, tracks, tables' values read from the club's copy), entered by
the referee from the scenario editor while the game is in set-up and set once it starts (issue 62), for every
seat, the referee's too: the club's roll that enters it at the rules tier (`CounterBoard.club_roll`) is refused in
a game's play. A game made from a scenario carries it in from the document's `board`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.data.board_state import board_json, read_board
from app.data.models import Game
from app.errors import RuleRefused
from app.services.markers import rules_of
from rules.core.errors import RulesError

# One sentence, the remedy with it: the club's data is the set-up's, as the table is.
SET_AT_START = (
    "The club's data is set once the game starts: the referee enters it in set-up, from its editor."
)


def _set(game: Game) -> RuleRefused:
    board = rules_of(game).book.kit.counters
    why = "a game's club data is entered before play and kept as entered once it starts"
    return RuleRefused(SET_AT_START, why=why, source=board.club_source if board is not None else None)


def require_unset_roll(game: Game, resolver: str) -> None:
    """Refuse the roll that enters the club's data (`CounterBoard.club_roll`) in a game, for every seat: a
    roll is made in play, when the data is set (a side could otherwise list its own counter's hex as a key
    hex and win at once)."""
    board = rules_of(game).book.kit.counters
    if board is not None and board.club_roll and resolver == board.club_roll:
        raise _set(game)


def club_edited(game: Game, entered: Mapping[str, Any]) -> dict[str, Any]:
    """The game's board with the club's data replaced by `entered` (a key left out is cleared), checked as a
    scenario's `board` is (a RulesError naming `club.<field>`); refused (409) once the game has started."""
    if game.status != "setup":
        raise _set(game)
    board = rules_of(game).book.kit.counters
    if board is None or board.club is None or board.club_check is None:
        raise RulesError("club", "this game's rule set takes no club data", [])
    board.club_check(entered, "club")
    values = board.club.model_validate(entered).model_dump(mode="json", exclude_none=True)
    # The board's own keys are kept; the club's are the club model's fields, replaced whole.
    kept = {k: v for k, v in board_json(game, read_board(game)).items() if k not in board.club.model_fields}
    return {**kept, **values}
