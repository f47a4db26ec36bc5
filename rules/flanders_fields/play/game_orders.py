"""What the orders and actions forbid of an act in a Flanders Fields game (issue 37, wt37b): each unit ordered
once a turn on its own table, and a shot, a move or a recovery refused to a stand whose ordered unit has no
action left."""

from __future__ import annotations

from rules.core.acts import Act
from rules.core.errors import Refusal
from rules.core.records import Snapshot


def orders_forbidden(snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
    """The refusals the orders and actions give `act` on the table as `snapshot` reads it (none: allowed)."""
    return ()
