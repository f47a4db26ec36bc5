"""The appendix artillery tables, row by row against the text."""

from __future__ import annotations

import pytest

from rules.flanders_fields.book.artillery_tables import GUNS, artillery_tables

# (id, range m, shell kg, weight t) from the rows of BRITISH / FRENCH / GERMAN ARTILLERY, e.g.
# "18ld Field Gun 6000 8.4 1.3 20 round/min", "60ld Field Gun 9,400 27.25   ", "105mm 12,000  2.3",
# "105mm Howitzer 6,300  1.14", "42cm Howitzer 12,500 820 43 "Big Bertha"".
ROWS = [
    ("18pdr-field-gun", 6000, 8.4, 1.3),
    ("4.5in-field-howitzer", 6650, 15.5, 1.36),
    ("60pdr-field-gun", 9400, 27.25, None),
    ("6in-howitzer", 8700, 45, 3.7),
    ("8in-howitzer", 10000, 90, 3.4),
    ("9.2in-howitzer", 9100, 131, 15),
    ("12in-howitzer", 11000, 340, None),
    ("15in-howitzer", 9800, 658, None),
    ("75mm", 8500, 7.25, 1.5),
    ("105mm", 12000, None, 2.3),
    ("155mm-howitzer", 11300, 43.6, 3.3),
    ("280mm-mortar", 11000, 205, 16),
    ("77mm-field-gun", 9100, 6.8, 1.3),
    ("105mm-howitzer", 6300, None, 1.14),
    ("105mm-field-gun", 12000, None, 2.8),
    ("150mm-howitzer", 7400, 40.5, 2),
    ("21cm-howitzer", 9400, 114, 15.5),
    ("42cm-howitzer", 12500, 820, 43),
]


@pytest.mark.parametrize(("gun_id", "range_m", "shell_kg", "weight_t"), ROWS)
def test_row(gun_id: str, range_m: int, shell_kg: float | None, weight_t: float | None) -> None:
    g = GUNS[gun_id]
    assert (g.range_m, g.shell_kg, g.weight_t) == (range_m, shell_kg, weight_t)


def test_every_row_once_by_nation() -> None:
    assert set(GUNS) == {r[0] for r in ROWS}
    data = artillery_tables(None)
    assert [len(data["nations"][n]) for n in ("british", "french", "german")] == [8, 4, 6]
    assert data["nations"]["french"][0]["notes"] == 'Le glorieux "soixante-quinze"'
