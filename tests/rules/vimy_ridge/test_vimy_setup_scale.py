"""A scenario's counters checked at set-up (19.0, 20.0) with the club's data read once: the largest accepted
scenario (2000 counters, the club's longest lists) is judged when it is imported and again when a game is made
from it, each within the 1 s of CPU a request may take. Each counter was judged against every one placed before
it, and the side's set-up hexes and No Man's Land read again for each (1.5 s of CPU for 2000 counters). Proved
as a ratio of CPU times on one machine, not against a clock. The hexes are a test's, not map facts."""

from __future__ import annotations

import time
from typing import Any

import pytest

from rules.vimy_ridge.play.game import VIMY_GAME
from rules.vimy_ridge.ruleset import VimyRidge


def _hexes(first_column: int, n: int) -> list[str]:
    return [f"{first_column + i // 90:02d}{10 + i % 90:02d}" for i in range(n)]


def _document(counters: int, longest: bool) -> dict[str, Any]:
    """`counters` counters set up on their sides' hexes, with the club's longest lists or the shortest."""
    allied, german = _hexes(10, 2000), _hexes(40, 2000)
    n = 2000 if longest else 1
    board = {
        "allied_set_up": allied if longest else allied[:1000],
        "german_set_up": german if longest else german[:1000],
        "hex_terrain": {f"{6000 + i:04d}": ["no-mans-land"] for i in range(n)},
        "easternmost": _hexes(70, n // 10 or 1),
    }

    def side(name: str, division: str, hexes: list[str]) -> dict[str, Any]:
        state = {"division": division, "attack": 9, "defence": 9, "attack_depleted": 4, "defence_depleted": 4}
        forces = [
            {"name": f"{name} {i}", "level": "counter", "state": {**state, "hex": hexes[i]}}
            for i in range(counters // 2)
        ]
        return {"forces": forces}

    sides = {"attacker": side("A", "1st Canadian", allied), "defender": side("G", "79th Reserve", german)}
    return {"board": board, "sides": sides}


def _cpu(counters: int, longest: bool) -> float:
    ctx, doc = VimyRidge().context(None, {}), _document(counters, longest)
    spent = []
    for _ in range(3):
        began = time.process_time()
        VIMY_GAME.new_forces(ctx, doc)
        spent.append(time.process_time() - began)
    return min(spent)


# A speed test, however it is measured: run in the timed phase, alone on the machine (tests/conftest.py).
@pytest.mark.timed
def test_a_scenario_s_set_up_is_checked_in_time_linear_in_its_counters() -> None:
    small, large = _cpu(250, longest=False), _cpu(2000, longest=True)
    # Eight times the counters, the club's longest lists: about eight times the CPU when each counter is judged
    # once against data read once; some sixty times when each is judged against all placed before it.
    assert large < 24 * small, (small, large)
