"""A formation laid out in its side's zone (rules.table.layout): rows from the zone's front, base to base with the
gap, around the stands already there, and the stands no row holds counted."""

from __future__ import annotations

from rules.table.layout import lay_out

ZONE = (0.0, 0.0, 20.0, 10.0)  # 20 cm wide, 10 cm deep


def test_rows_run_from_the_front_left_to_right_with_the_gap() -> None:
    stands = [(f"s{i}", 4.0, 2.0) for i in range(5)]
    laid = lay_out(ZONE, front_high=True, stands=stands, taken=[], gap=1.0)
    # Three 4 cm bases and their gaps fill a 20 cm row (1 + 4 + 1 + 4 + 1 + 4 + 1 = 16; a fourth needs 21).
    assert laid.at == {
        "s0": (3.0, 9.0), "s1": (8.0, 9.0), "s2": (13.0, 9.0), "s3": (3.0, 6.0), "s4": (8.0, 6.0)
    }  # fmt: skip
    assert laid.left == 0
    # The defender's front is the zone's low edge: its first row there.
    assert lay_out(ZONE, front_high=False, stands=stands[:1], taken=[], gap=1.0).at == {"s0": (3.0, 1.0)}


def test_stands_already_placed_are_stepped_round_and_what_no_row_holds_is_left() -> None:
    laid = lay_out(ZONE, True, [("a", 4.0, 2.0)], taken=[(0.0, 7.0, 6.0, 10.0)], gap=1.0)
    assert laid.at == {"a": (9.0, 9.0)}  # past the stand there, one gap on
    deep = lay_out(ZONE, True, [("a", 4.0, 6.0), ("b", 4.0, 6.0), ("c", 30.0, 2.0)], taken=[], gap=1.0)
    assert deep.at == {"a": (3.0, 7.0), "b": (8.0, 7.0)} and deep.left == 1  # too wide for any row
    assert (
        lay_out(ZONE, True, [(f"s{i}", 4.0, 6.0) for i in range(4)], [], 1.0).left == 1
    )  # one row deep only
