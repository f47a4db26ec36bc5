"""The allocate-hits resolver against ARMING and RESILIENCE: "One hit injures, two hits removes permanently"
and "Hit allocation is up to the aggressor's choice, but (as above) they cannot allocate kills until all bases
have injuries"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.earth2mm.resolvers import AllocateRequest
from rules.registry import get_ruleset

RS = get_ruleset("2mm-earth-1418")


def allocate(hits: int, injuries: list[str], order: list[int] | None = None) -> dict:
    bases = [{"base": i + 1, "injury": inj} for i, inj in enumerate(injuries)]
    req = AllocateRequest(hits=hits, sub_unit=bases, order=order)
    return dict(RS.resolve("allocate-hits", req).as_dict())


def test_the_books_order_injures_every_base_before_removing_one() -> None:
    # No order given: the uninjured bases along the rank first, then every base along it; no die is rolled.
    out = allocate(3, ["", "old", ""])
    assert out["outcome"] == {"injured": [1, 3], "removed": [1], "hits_waiting": 0}
    assert out["dice"] == [] and out["probabilities_exact"] == {"2 injured, 1 removed": "1/1"}


def test_the_aggressor_chooses_the_order() -> None:
    out = allocate(2, ["fresh", ""], order=[2, 1])
    assert out["outcome"] == {"injured": [2], "removed": [1], "hits_waiting": 0}
    # A base may take both hits once every other base is injured: injured, then removed.
    assert allocate(2, ["old", ""], order=[2, 2])["outcome"]["removed"] == [2]


def test_hits_not_yet_allocated_still_wait_and_hits_past_the_last_base_are_lost() -> None:
    assert allocate(3, ["", ""], order=[1])["outcome"]["hits_waiting"] == 2
    out = allocate(5, ["", ""])
    assert out["outcome"] == {"injured": [1, 2], "removed": [1, 2], "hits_waiting": 0}


def test_a_kill_while_a_base_is_uninjured_is_refused_with_the_rule() -> None:
    with pytest.raises(RulesError) as e:
        allocate(2, ["fresh", ""], order=[1])
    assert e.value.field == "order.0" and e.value.allowed == [2]
    assert "cannot allocate kills until all bases have injuries" in (e.value.why or "")
    assert e.value.source and "ARMING and RESILIENCE" in e.value.source


def test_more_hits_than_wait_a_stranger_and_a_removed_base_are_refused() -> None:
    with pytest.raises(RulesError) as e:
        allocate(1, ["", ""], order=[1, 2])
    assert e.value.field == "order" and "at most 1" in e.value.reason
    with pytest.raises(RulesError) as e:
        allocate(1, ["", ""], order=[9])
    assert e.value.field == "order.0" and e.value.allowed == [1, 2]
    with pytest.raises(RulesError) as e:
        allocate(3, ["old"], order=[1, 1])
    assert e.value.field == "order.1" and "already removed" in e.value.reason


def test_melee_hits_cite_the_aggressor_distributing_them() -> None:
    req = AllocateRequest(hits=1, sub_unit=[{"base": 4}], melee=True)
    assert "ASSAULTING & MELEE COMBAT" in RS.resolve("allocate-hits", req).as_dict()["sources"][0]


@given(st.lists(st.sampled_from(["", "fresh", "old"]), min_size=1, max_size=6), st.integers(1, 14))
def test_the_books_order_lands_every_hit_a_base_can_take(injuries: list[str], hits: int) -> None:
    # Each hit takes one step off a base (uninjured -> injured -> removed); none is lost while one can land.
    out = allocate(hits, injuries)["outcome"]
    room = sum(1 if inj else 2 for inj in injuries)
    assert len(out["injured"]) + len(out["removed"]) == min(hits, room)
    assert out["injured"] == [i + 1 for i, inj in enumerate(injuries) if not inj][:hits]
