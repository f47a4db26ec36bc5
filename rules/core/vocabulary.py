"""Words the rule sets, the table geometry and the service share, defined once."""

from __future__ import annotations

from typing import Literal, get_args

# The two sides at a table: the attacker sets up on the near edge (y = 0), the defender on the far one.
Side = Literal["attacker", "defender"]
SIDES: tuple[Side, ...] = get_args(Side)


def other_side(side: str) -> str:
    """The side across the table from `side`."""
    return "defender" if side == "attacker" else "attacker"
