"""A game played on the players' own board of counters, not on a table (its rule set's kit names a
`rules.core.kit.CounterBoard`): what the page of counters shows besides the units themselves, read from the
rule set through the hook: the field holding a counter's place and what a place is called, the level the
counters are grouped under, the values printed on a counter, the game's turn track and its named places."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from app.data.models import Game
from app.services.markers import rules_of, snapshot_of
from app.services.units import list_units
from rules.core.errors import NotFoundError
from rules.core.kit import TrackTurn, badges


@dataclass(frozen=True)
class CounterBoardView:
    """What a page of counters reads of the game's rule set and state (the units come from `/units`)."""

    place_field: str
    place_word: str
    group_level: str
    values: tuple[str, ...]
    track: tuple[TrackTurn, ...]
    places: dict[str, str]
    badges: tuple[str, ...]  # the rule set's game-wide values set, in words (an allotment left)


def plays_on_counters(game: Game) -> bool:
    """Whether the game is played on a board of counters (its page of counters replaces the table map)."""
    return rules_of(game).book.kit.counters is not None


def counter_board(session: Session, game: Game) -> CounterBoardView:
    """The game's board of counters as the page shows it; a 404 for a game played on a table."""
    rules = rules_of(game)
    board = rules.book.kit.counters
    if board is None:
        raise NotFoundError("board of counters", str(game.id))
    snapshot = snapshot_of(session, game, list_units(session, game.pk))
    return CounterBoardView(
        place_field=board.place_field,
        place_word=board.place_word,
        group_level=board.group_level,
        values=board.values,
        track=board.track(snapshot),
        places=dict(board.place_notes(snapshot)),
        badges=tuple(badges(rules.book.kit, game.state)),
    )
