"""The game's board (`Game.board`, a JSON column) as one typed model: what is on the table besides the
stands (rolling barrages, gas clouds and the wind that moves them, arrived fire-plan fire, the players'
templates, the aiming points the batteries fired at) and the random-event pack's discards. Every service
reads it with `read_board` and writes it with `board_json` / `write_board`, never by key.

The items inside the lists (a barrage, a cloud, a template, ...) stay JSON objects: the rules write them
and read them back whole (`rules.core.records.Snapshot` keeps them so), and the board only carries them.

The JSON stored is the JSON stored before this model existed, so no migration and every game loads:
a key is written only if it was stored or has been assigned (an empty board stays `{}`), and the keys
keep their stored order, new ones after them, as a `{**board, key: value}` update did.

Unknown keys are kept, on purpose: the board is replaced whole on every write, so a key this version
does not know (written by a newer version, or a rule set's own) would otherwise be silently dropped by
the next barrage or template write; the game's `/state` answers the board as stored either way."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from app.data.models import Game

__all__ = ["BOARD_COLUMNS", "Board", "EventPack", "JsonObject", "board_json", "read_board", "write_board"]

JsonObject = dict[str, Any]


class _Stored(BaseModel):
    # Assignment is validated and marks the field as set, so it is written; the lists are tuples so that
    # nothing appends to a list in place (an in-place change to a field never assigned would be lost).
    model_config = ConfigDict(extra="allow", validate_assignment=True)


class EventPack(_Stored):
    """The random-event pack (`board["events"]`): the cards out of play, and how many are left to draw."""

    out: tuple[str, ...] = ()
    cards_left: int | None = None


class Board(_Stored):
    barrages: tuple[JsonObject, ...] = ()  # rolling barrages firing, as the rules keep them
    clouds: tuple[JsonObject, ...] = ()  # gas clouds on the table
    # Declared in the order a write first adds them (the wind before the clouds it disperses), so that
    # new keys land where the dict updates before this model put them.
    wind: JsonObject | None = None  # the last gas-wind roll (absent until the first)
    wind_turn: int | None = None  # the game turn of that roll: one a turn
    clouds_gone: tuple[JsonObject, ...] = ()  # clouds the wind has dispersed or blown off the table
    fire: tuple[JsonObject, ...] = ()  # arrived fire-plan fire other than gas and barrages
    templates: tuple[JsonObject, ...] = ()  # the templates the players have laid on the map
    templates_placed: int = 0  # templates ever placed: the next template's id, never reused
    events: EventPack | None = None  # the random-event pack, once a card is drawn or played
    # The batteries' aiming points on the table (unit id -> [x, y]): where each last fired (app.services.units).
    aiming_points: JsonObject = {}


# Board values the game keeps in a column of its own (the rules read and set them as board keys).
BOARD_COLUMNS = ("deep_suppression",)


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
