"""Flanders Fields' table kit (rules.core.kit): what its games keep on the table besides the stands."""

from __future__ import annotations

from rules.core.kit import BoardKey, TableKit

# The defender's order penalty in force this turn (0, 1 or 2): SUPPRESSION, Deep Suppression (DS).
DEEP_SUPPRESSION = BoardKey(
    "deep_suppression", "Deep suppression", 0, value=True, badge="Deep suppression −{}"
)

KIT = TableKit(board_keys=(DEEP_SUPPRESSION,))
