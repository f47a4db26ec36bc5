"""A hex map numbered column-row ('xxyy', column xx from 01 at the west edge, row yy from 01 at the north), its
hexes in vertical columns, every other column half a hex lower (`lower`: "even" or "odd", the columns shifted
down): which hexes touch, and how many hexes apart two hexes are (the fewest steps from hex to neighbouring
hex), by the cube coordinates of an offset grid. Knows no rule set: a rule set says how its map is numbered.
No library here: the few lines below are the whole of it (the hex-grid packages on the registry draw grids)."""

from __future__ import annotations

from typing import Literal

Lower = Literal["even", "odd"]


def column_row(number: str) -> tuple[int, int]:
    """'1534' -> (15, 34): the first two digits its column, the last two its row."""
    return int(number[:2]), int(number[2:])


def _cube(number: str, lower: Lower) -> tuple[int, int, int]:
    col, row = column_row(number)
    q = col - 1  # counted from 0: with "even", the odd q are the lowered columns
    # A lowered column's rows sit half a hex down: the cube's z counts rows less half the columns passed.
    z = row - (q - (q & 1)) // 2 if lower == "even" else row - (q + (q & 1)) // 2
    return q, -q - z, z


def distance(a: str, b: str, lower: Lower) -> int:
    """How many hexes apart `a` and `b` are: the fewest steps from one to the other through touching hexes."""
    ax, ay, az = _cube(a, lower)
    bx, by, bz = _cube(b, lower)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def adjacent(a: str, b: str, lower: Lower) -> bool:
    """Whether two hexes share a side."""
    return distance(a, b, lower) == 1


def neighbours(number: str, lower: Lower) -> frozenset[str]:
    """The (up to six) hexes sharing a side with `number`, within the numbering's 01..99."""
    col, row = column_row(number)
    near = {f"{c:02d}{r:02d}" for c in (col - 1, col, col + 1) for r in (row - 1, row, row + 1)}
    return frozenset(
        h for h in near if h != number and "00" not in (h[:2], h[2:]) and adjacent(h, number, lower)
    )
