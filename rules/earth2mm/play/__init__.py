"""Battle for 2mm Earth 1418 played as a game (rules.core.game's hook), assembled in `game.py`."""
