"""The turn panel's "needs" name units by their names, never by an id (issue 51): over the shipped scenarios
(Mons 1914, the Mons table in the late war, 2mm Earth 1418's demo battle), at every step of the turn or the
bound, with every line a step can list made due (Flanders Fields: reinforcements on turn 2, morale tests, a
rolling barrage's rolls; 2mm: high commands, plans, hits to allocate), no sentence carries a unit's id."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from rules.core.records import Snapshot, UnitState
from tests.rules.golden_play import Table, start

# A unit's id in a sentence: "(unit 40)", "units 12, 13", "unit 7", "#40".
ID = re.compile(r"\bunits? \d+|#\d+|\(\d+\)")
GAMES = [
    ("flanders-fields", "mons-1914", None),
    ("flanders-fields", "mons-1914", "late"),
    ("2mm-earth-1418", "earth2mm-demo-ferme", None),
]


def _due(table: Table) -> Snapshot:
    """The table with every line a step lists due: the reinforcements' turn (Flanders Fields: turn 2 for the
    defender), a morale test, a rolling barrage with a stand under it and one in danger behind it, hits to
    allocate on a sub-unit (2mm)."""
    snap = table.snap
    placed = [u for u in snap.units if u.x is not None and not u.killed and u.base]
    a, b = placed[0], placed[-1]

    def due(u: UnitState) -> UnitState:
        if u.id == a.id:
            return replace(u, state={**u.state, "morale_due": True, "hits_to_allocate": 2})
        if u.level == "company":  # 2mm's sub-units: hits to allocate
            return replace(u, state={**u.state, "hits_to_allocate": 1})
        return u

    barrage = {
        "side": "defender",
        "item_id": 3,
        "front_y": 40,
        "covers_y": [40, 60],
        "pending": [a.id],
        "danger": [{"unit": b.id, "distance_cm": 3.0, "at_risk": 0.5, "at_risk_exact": "1/2"}],
    }
    return replace(
        snap,
        turn=2,
        side_to_move="defender",
        units=tuple(due(u) for u in snap.units),
        board={**snap.board, "barrages": [barrage]},
    )


@pytest.mark.parametrize(
    ("ruleset", "scenario", "period"), GAMES, ids=[f"{s}:{p or 'own'}" for _, s, p in GAMES]
)
def test_no_line_of_the_turn_panel_names_a_unit_by_its_id(
    ruleset: str, scenario: str, period: str | None
) -> None:
    table = start({"ruleset": ruleset, "start": {"scenario": scenario, "period": period}})
    snap = _due(table)
    names = {u.name for u in snap.units}
    said: list[str] = []
    for step in table.rules.steps(snap.period):
        for line in table.rules.needs(replace(snap, step=0), step.id):
            assert not ID.search(line), (step.id, line)
            assert len(line) <= 120 or ", " in line, (step.id, line)  # a list of names may run longer
            said.append(line)
    # The lines were there to be read, each naming its units by name.
    assert said and all(any(n in line for n in names) or "gas wind" in line for line in said), said
