"""A stored row's id is read as an int (`app.data.models.Stored.pk`), never guessed: `.id or 0` would read a
row not yet flushed as id 0, a row that does not exist, so no module of app/ writes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.data.models import Game, Unit

APP = Path(__file__).resolve().parents[2] / "app"


def test_no_module_of_app_reads_an_id_as_or_0() -> None:
    guessed = re.compile(r"\.id\s+or\s+0\b")
    found = [
        f"{p.relative_to(APP.parent)}:{n}"
        for p in sorted(APP.rglob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if guessed.search(line)
    ]
    assert found == []


def test_a_row_gives_its_id_once_stored_and_refuses_before() -> None:
    assert Game(id=7, name="g", ruleset="r").pk == 7
    with pytest.raises(RuntimeError, match="a Unit has no id until it is flushed"):
        _ = Unit(game_id=1, side="attacker", name="Plt", kind="rifle-platoon", level="platoon").pk
