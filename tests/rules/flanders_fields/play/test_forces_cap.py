"""A scenario's forces are counted before they are built (issue 35): 1,000 entries of a British and 1,000 of a
German division built about 551,000 units (5.4 s of CPU, +400 MB) before the cap on a game's units refused
them. Each kind of entry is now built once to count it, and the entry that crosses the cap is named."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields.book.organisation import build_force, max_units_per_game
from rules.flanders_fields.play import game_setup
from rules.registry import get_ruleset


def flood(entries: int) -> dict[str, Any]:
    return {
        "table": {"width_cm": 120, "length_cm": 180},
        "sides": {
            "attacker": {"nationality": "british", "forces": [{"table_id": "gb-1915"}] * entries},
            "defender": {"nationality": "german", "forces": [{"table_id": "de-1916"}] * entries},
        },
    }


def test_two_thousand_entries_are_refused_at_the_one_that_crosses_the_cap_having_built_two(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []
    real = game_setup.FlandersFieldsSetup.force_from_table

    def counted(*args: Any) -> Any:
        built.append(args[3]["table_id"])
        return real(*args)

    monkeypatch.setattr(game_setup.FlandersFieldsSetup, "force_from_table", staticmethod(counted))
    game_setup._entry_size.cache_clear()
    ctx = get_ruleset("flanders-fields").context("mid", {})
    with pytest.raises(RulesError) as refused:
        game_setup.FlandersFieldsSetup.new_forces(ctx, flood(1000))
    division = sum(1 for _ in build_force("gb-1915", variants=ctx.variants).walk())
    crossing = max_units_per_game() // division  # entries 0.. that fit; the next one crosses the cap
    assert refused.value.field == f"sides.attacker.forces.{crossing}"
    assert f"at most {max_units_per_game()} units" in refused.value.message
    assert built == ["gb-1915"]  # one British division built to count them all; nothing built to deploy


def test_forces_within_the_cap_are_built_as_before() -> None:
    ctx = get_ruleset("flanders-fields").context("mid", {})
    made = game_setup.FlandersFieldsSetup.new_forces(ctx, flood(1))
    assert [n.id for n in made.forces["attacker"]] == ["attacker-0/gb-1915"]
    assert [n.id for n in made.forces["defender"]] == ["defender-0/de-1916"]
