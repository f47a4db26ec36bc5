"""A hex map numbered column-row ('xxyy'): which hexes touch and how far apart two are, with the even columns
lowered (SPI's and Decision Games' way: 0201 half a hex below 0101) or the odd ones."""

from __future__ import annotations

from rules.table.hexes import adjacent, distance, neighbours


def test_the_six_neighbours_of_a_raised_and_a_lowered_column() -> None:
    assert neighbours("0910", "even") == {"0909", "0911", "0809", "0810", "1009", "1010"}
    assert neighbours("1010", "even") == {"1009", "1011", "0910", "0911", "1110", "1111"}
    assert neighbours("0910", "odd") == {"0909", "0911", "0810", "0811", "1010", "1011"}
    assert neighbours("0101", "even") == {"0102", "0201"}  # the map's corner: no column or row 00


def test_distance_counts_the_fewest_hexes_between() -> None:
    assert distance("0910", "0910", "even") == 0
    # 0201 lies half a hex below 0101: it touches 0101 and 0102; raised, it would touch 0101 alone.
    assert adjacent("0101", "0201", "even") and adjacent("0102", "0201", "even")
    assert adjacent("0101", "0201", "odd") and not adjacent("0102", "0201", "odd")
    assert distance("0910", "1810", "even") == 9  # nine columns east along a row
    assert distance("0101", "0105", "even") == 4  # four rows south down a column
    assert distance("1010", "1410", "even") == 4
    assert all(
        distance(a, b, "even") == distance(b, a, "even") for a in ("0910", "1534") for b in ("2001", "0101")
    )
