"""The game's table in Shapely: the table of a game row, and the table geometry the game layer uses
(rolling barrages advancing, gas clouds arriving). Glue only: the geometry and every rule are in
rules/flanders_fields/play/game_table.py (on rules/table), which reads the game's unit rows as they are."""

from __future__ import annotations

from app.data.models import Game
from rules.flanders_fields.play.game_table import barrage_step, cloud_arrives
from rules.table.frame import Table

__all__ = ["barrage_step", "cloud_arrives", "table_of"]


def table_of(game: Game) -> Table:
    return Table(game.table_width_cm, game.table_length_cm)
