"""The game's board (`Game.board`, a JSON column) as one typed model: the players' templates, which are the
app's, and what each rule set keeps on the table besides the stands, by the keys its table kit declares
(rules.core.kit.BoardKey: Flanders Fields' rolling barrages, gas clouds and the wind that moves them, arrived
fire-plan fire, the random-event pack, the batteries' aiming points). Every service reads it with
`read_board` and writes it with `board_json` / `write_board`, never by key.

The items inside the lists (a barrage, a cloud, a template, ...) stay JSON objects: the rules write them
and read them back whole (`rules.core.records.Snapshot` keeps them so), and the board only carries them.

The JSON stored is the JSON stored before this model existed, so no migration and every game loads:
a key is written only if it was stored or has been assigned (an empty board stays `{}`), and the keys
keep their stored order, new ones after them, as a `{**board, key: value}` update did.

Unknown keys are kept, on purpose: the board is replaced whole on every write, so a key this version
does not know (written by a newer version, or a rule set's own) would otherwise be silently dropped by
the next barrage or template write; the game's `/state` answers the board as stored either way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, create_model

from app.data.models import Game
from rules.core.kit import BoardKey
from rules.registry import all_game_rules

__all__ = ["Board", "JsonObject", "board_json", "read_board", "write_board"]

JsonObject = dict[str, Any]


class _Stored(BaseModel):
    # Assignment is validated and marks the field as set, so it is written; the lists are tuples so that
    # nothing appends to a list in place (an in-place change to a field never assigned would be lost).
    model_config = ConfigDict(extra="allow", validate_assignment=True)


class AppBoard(_Stored):
    templates: tuple[JsonObject, ...] = ()  # the templates the players have laid on the map
    templates_placed: int = 0  # templates ever placed: the next template's id, never reused
    # From the game's scenario: its objectives (rules.table.objectives) and its last turn (None: no limit).
    table_objectives: JsonObject | None = None
    victory_conditions: tuple[JsonObject, ...] | None = (
        None  # rules.core.victory, as the scenario writes them
    )
    last_turn: int | None = None


def _board_keys() -> dict[str, BoardKey]:
    """Every playable rule set's board keys by name (the first rule set to name one types it)."""
    out: dict[str, BoardKey] = {}
    for rules in all_game_rules():
        for k in rules.book.kit.on_board:
            out.setdefault(k.name, k)
    return out


if TYPE_CHECKING:  # built from the rule sets' kits; type-checked as its base
    Board = AppBoard
else:
    Board = create_model(
        "Board", __base__=AppBoard, **{n: (k.annotation, k.default) for n, k in _board_keys().items()}
    )


def read_board(game: Game) -> Board:
    return Board.model_validate(game.board)


def board_json(game: Game, board: Board) -> dict[str, Any]:
    """The JSON to store for `board` on `game`: a new object (so the JSON column sees the change), keys
    in the stored order, keys never stored nor assigned left out."""
    new = board.model_dump(mode="json", exclude_unset=True)
    return {**{k: new[k] for k in game.board if k in new}, **new}


def write_board(game: Game, board: Board) -> None:
    """Replace the game's board; no version bump (services that bump pass `board_json` to `set_game`)."""
    game.board = board_json(game, board)
