"""The game's table in Shapely: the table of a game row (its geometry and every rule on it are the rule
set's, reached through its game hook)."""

from __future__ import annotations

from app.data.models import Game
from rules.table.frame import Table

__all__ = ["table_of"]


def table_of(game: Game) -> Table:
    return Table(game.table_width_cm, game.table_length_cm)
