"""2mm Earth 1418's account of a game (rules/earth2mm/play/report.py): what the referee board says of an SF, a
sub-unit and a base in the book's words, and a formation's bases lost in the after-action report."""

from __future__ import annotations

from typing import Any

from rules.core.records import UnitState
from rules.earth2mm.play.game import EARTH_GAME

REPORT = EARTH_GAME


def unit(uid: int, parent: int | None, level: str, killed: bool = False, **state: Any) -> UnitState:
    return UnitState(uid, parent, "defender", level, "line-inf", killed=killed, state=state)


SF = unit(1, None, "battalion", high_command="hold")


def test_a_sub_units_row_reads_its_injuries_posture_plan_and_its_formations_command() -> None:
    company = unit(2, 1, "company", dug_in_bounds=2, sub_plan="stay put", hits_to_allocate=1)
    bases = [
        unit(3, 2, "platoon", base_injury="fresh"),
        unit(4, 2, "platoon", base_injury="old"),
        unit(5, 2, "platoon", base_injury="old"),
        unit(6, 2, "platoon", killed=True, base_injury="old"),  # removed: no longer counted
        unit(7, 2, "platoon"),
    ]
    assert REPORT.board_notes(company, SF, bases, {}) == (
        ("", "1 fresh, 2 old injured"),
        ("", "dug in (2 bounds)"),
        ("plan", "stay put"),
        ("hits to allocate", "1"),
        ("SF", "hold"),
    )
    # Its posture as the shot reads it: one bound dug in, moving once it moves, else stationary.
    assert REPORT.board_notes(unit(2, 1, "company", dug_in_bounds=1), None, [], {}) == (
        ("", "dug in (1 bound)"),
    )
    moved = unit(2, 1, "company", dug_in_bounds=1, moved_this_bound=True)
    assert REPORT.board_notes(moved, None, [], {}) == (("", "moving"),)
    # Under the 'planned' reading of a moving target, a sub-unit planning to move is moving before it moves.
    planned = unit(2, 1, "company", sub_plan="move")
    assert REPORT.board_notes(planned, None, [], {"moving-target": "planned-or-moved"})[0] == ("", "moving")
    assert REPORT.board_notes(planned, None, [], {"moving-target": "moved-only"})[0] == ("", "stationary")


def test_an_sf_says_its_command_and_a_base_its_injury() -> None:
    assert REPORT.board_notes(SF, None, [], {}) == (("command", "hold"),)
    assert REPORT.board_notes(unit(3, 2, "platoon", base_injury="old"), None, [], {}) == (("", "old injury"),)
    assert REPORT.board_notes(unit(3, 2, "platoon", base_injury=""), None, [], {}) == ()


def test_a_formation_counts_its_bases_lost_untested_and_they_stand_for_platoons() -> None:
    units = [SF, unit(2, 1, "company"), unit(3, 2, "platoon", killed=True), unit(4, 2, "platoon")]
    assert REPORT.losses(SF, units) == (2, 1) and REPORT.book.tests_losses is False
    lost = REPORT.casualties(None, {}, 3)
    assert (lost["bases"], lost["platoons"]) == (3, 3)
    assert "two hits remove a base" in lost["words"] and lost["sources"]


def test_each_roll_is_told_in_its_own_words() -> None:
    """Issue 51: a melee reads as a melee (the shot resolved with its m side says so), not "'s shoot: 2 hits"."""
    from rules.earth2mm.resolvers import ShootRequest
    from rules.earth2mm.ruleset import Earth2mm
    from rules.registry import get_ruleset

    rules = get_ruleset(Earth2mm.id)
    request = {"shooter": "line-inf", "bases": 2, "target": "line-inf", "target_bases": 3}
    melee = rules.resolve("shoot", ShootRequest(**request, melee=True)).as_dict()
    shot = rules.resolve("shoot", ShootRequest(**request)).as_dict()
    said = REPORT.roll_words("shoot", melee, "1. Kompanie", decisive=True)
    assert said == f"fought 1. Kompanie in melee: {melee['outcome_key']}" and said.endswith(("hit", "hits"))
    assert (
        REPORT.roll_words("shoot", shot, "1. Kompanie", decisive=True)
        == f"shot at 1. Kompanie: {shot['outcome_key']}"
    )
    allocated = {"outcome_key": "1 injured, 1 removed"}
    assert REPORT.roll_words("allocate-hits", allocated, "A Company", decisive=True) == (
        "allocated its hits on A Company: 1 injured, 1 removed"
    )
    assert (
        REPORT.roll_words("recovery", {"outcome_key": "recovered"}, "", decisive=True)
        == "rolled its recovery die: recovered"
    )
    # The bound's sentences tell none of them: its bases injured and removed say what they did.
    assert REPORT.roll_words("shoot", melee, "1. Kompanie") == ""
