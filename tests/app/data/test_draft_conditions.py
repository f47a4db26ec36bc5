"""The editor's victory-condition fields show a scenario's first condition of each kind
(app.data.schemas_scenario.DraftParticulars): a change of the fields keeps every other condition a file had."""

from __future__ import annotations

from app.data.schemas_scenario import DraftParticulars


def test_the_fields_change_their_own_conditions_and_keep_the_files_others() -> None:
    taken = {"kind": "objective_taken", "objective": "ridge", "side": "defender"}
    first = {"kind": "side_broken", "side": "attacker", "stands_lost": 50}
    second = {"kind": "side_broken", "side": "defender", "stands_lost": 30}
    document = {"victory_conditions": [{"kind": "points", "points": 6}, first, second, taken]}
    shown = DraftParticulars.of(document)
    assert (shown.victory_points, shown.broken_side, shown.broken_stands_lost) == (6, "attacker", 50)
    changed = shown.model_copy(update={"victory_points": 8}).into(document)
    assert changed["victory_conditions"] == [second, {"kind": "points", "points": 8}, first, taken]
    cleared = shown.model_copy(update={"victory_points": None, "broken_side": "none"}).into(document)
    assert cleared["victory_conditions"] == [second, taken]
