"""The faces a lookup's form sends (`dice.0`, `dice.1`, ...), read as a hostile client may send them (issue 64's
hostile pass, h64d): a position is an ASCII whole number under the API's 64 dice. "dice.²" passed str.isdigit and
was a 500 in int(), and "dice.999999999" made a list of a billion places for one face."""

from __future__ import annotations

import pytest
from starlette.datastructures import FormData

from app.pages.forms import dice_from


@pytest.mark.parametrize(
    "key", ["dice.²", "dice.999999999", "dice." + "9" * 5000, "dice.64", "dice.-1", "dice.1.5"]
)
def test_a_die_at_no_place_a_lookup_has_is_left_out(key: str) -> None:
    assert dice_from(FormData([("dice.0", "4"), (key, "3")])) == [4]


@pytest.mark.parametrize("face", ["²", "9" * 5000, "-3", ""])
def test_a_face_that_is_no_small_whole_number_is_left_out(face: str) -> None:
    assert dice_from(FormData([("dice.0", "4"), ("dice.1", face)])) == [4]


def test_the_faces_tapped_come_by_place() -> None:
    assert dice_from(FormData([("dice.2", "6"), ("dice.0", "1")])) == [1, None, 6]
