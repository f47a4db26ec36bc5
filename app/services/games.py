"""Games in the database: the lobby, reading a game, taking its row lock with the expected version, bumping
its version, archive and delete. Every service that writes expects the game row taken with `lock_game` and
leaves the commit to its caller (a route handler, a page, the CLI)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import bindparam, delete
from sqlalchemy.orm import QueryableAttribute, defer
from sqlmodel import Session, col, func, select

from app.core import live
from app.data.changes import GameSet
from app.data.models import Game, TournamentTable, utcnow
from app.services.versioned import check_version, lock_row
from rules.core.errors import NotFoundError
from rules.core.kit import Drawn, board_values, drawn
from rules.core.readings import now_played
from rules.registry import game_rules_or_none, get_ruleset
from rules.table.frame import Table


def list_games(session: Session) -> list[Game]:
    # Archived games have left the lobby (their tokens still read them). The lobby shows no terrain or board:
    # never load them here, however large they are (issue 12); a later read of one loads it then.
    query = (
        select(Game)
        .options(*(defer(cast("QueryableAttribute[Any]", c)) for c in (Game.terrain, Game.board)))
        .where(col(Game.archived_at).is_(None))
        .order_by(col(Game.id))
    )
    return list(session.exec(query))


def at_event_tables(session: Session) -> set[int]:
    """The games played at an event's tables: each is listed on its event's page, not among the club's."""
    query = select(TournamentTable.game_id).where(col(TournamentTable.game_id).is_not(None))
    return {game_id for game_id in session.exec(query) if game_id is not None}


def get_game(session: Session, game_id: int, unread: Sequence[Any] = ()) -> Game:
    """The game; `unread`: columns left unread until asked for (its terrain, hundreds of kilobytes at the
    largest, where the request answers none of it)."""
    game = session.get(Game, game_id, options=[defer(c) for c in unread])
    if game is None:
        raise NotFoundError("game", str(game_id))
    return game


def count_games(session: Session) -> int:
    return session.exec(select(func.count()).select_from(Game)).one()


def lock_game(session: Session, game_id: int) -> Game:
    """Start a write on a game: every write takes the game row first, so writes to one game run one at a
    time and event ids commit in order (Last-Event-ID resume relies on it). PostgreSQL: SELECT .. FOR
    UPDATE; SQLite: a no-op UPDATE, which takes the database's write lock at once (as a campaign's)."""
    # Its terrain, the largest column by far, is read once the write asks for it (app.services.kept_units).
    return lock_row(session, Game, game_id, "game", (Game.terrain,))


def readings_changed(game: Game, values: dict[str, Any]) -> dict[str, list[str]]:
    """`{"readings": [...]}` for an edit of the game changing its readings (each erratum with the reading it now
    plays), which its record's line and its seats' notice name rather than "Game updated" (issue 69); else {}."""
    read = now_played(get_ruleset(game.ruleset), game.variants, values.get("variants", game.variants))
    return {"readings": read} if read else {}


def bump_game(session: Session, game: Game, expected_version: int | None = None, **values: Any) -> None:
    """Change game fields and its version; with `expected_version`, a stale client gets 409."""
    if expected_version is not None:
        check_version("game", game.version, expected_version, lambda: game_state(game))
    for k, v in values.items():
        if k in Game.model_fields:
            setattr(game, k, v)
        else:  # one of its rule set's values: a new mapping, so that the JSON column sees the change
            game.state = {**game.state, k: v}
    game.version += 1
    game.updated_at = utcnow()
    session.add(game)


def game_state(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "version": game.version,
        "status": game.status,
        "turn": game.turn,
        "side_to_move": game.side_to_move,
        "step": game.step,
        **game_values(game),
        "board": game.board,
    }


def game_values(game: Game) -> dict[str, Any]:
    """The game's rule-set values (its table kit's, rules.core.kit), each at its default until set."""
    return board_values(game_rules_or_none(game.ruleset).book.kit, game.state)


def board_drawing(game: Game) -> list[Drawn]:
    """What the map draws of the game's board, as its rule set's table kit draws it."""
    table = Table(game.table_width_cm, game.table_length_cm)
    return drawn(game_rules_or_none(game.ruleset).book.kit, game.board, table)


def map_state(game: Game) -> dict[str, Any]:
    """The game's state as a live frame carries it to the map: with what the map draws of its board."""
    return {**game_state(game), "board_drawn": [d.model_dump(mode="json") for d in board_drawing(game)]}


def game_field(game: Game, name: str) -> Any:
    """A field of the game, or one of its rule set's values."""
    return (
        getattr(game, name)
        if name in Game.model_fields
        else game_values(game).get(name, game.state.get(name))
    )


def set_archived(session: Session, game_id: int, archived: bool) -> Game:
    """Archived games leave the lobby; their tokens still read them. Not a play change: the version stays."""
    game = lock_game(session, game_id)
    game.archived_at = (game.archived_at or utcnow()) if archived else None
    session.add(game)
    session.flush()
    return game


def delete_game(session: Session, game_id: int) -> None:
    """The game and everything under it (sides, tokens, units, plans, events: ON DELETE CASCADE)."""
    lock_game(session, game_id)
    session.execute(delete(Game).where(col(Game.id) == game_id))
    live.mark(session, game_id)
    session.flush()


def set_game(session: Session, game: Game, **values: Any) -> list[GameSet]:
    changes = [
        GameSet(game=game.pk, field=k, before=game_field(game, k), after=v)
        for k, v in values.items()
        if game_field(game, k) != v
    ]
    bump_game(session, game, None, **values)
    return changes


def table_of_game(session: Session, game_id: int) -> TournamentTable | None:
    """The event's table the game is played at, if any: there its organiser is the referee, away from the table,
    and the two seats start and end the game themselves (app.services.turns.seat_ready)."""
    return session.exec(_TABLE_OF_GAME, params={"game_id": game_id}).first()


# Built once, its game bound at each read (every turn read asks it: building it anew was a third of the turn's
# endpoint's CPU, py-spy's samples).
_TABLE_OF_GAME = select(TournamentTable).where(col(TournamentTable.game_id) == bindparam("game_id"))
