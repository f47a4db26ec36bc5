"""Properties every fire-support and special-rule resolver keeps: examples resolve, odds sum to one, any
roll's key has positive odds, every answer cites its source."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rules.flanders_fields.resolving import SUPPORT_AND_SPECIAL_RESOLVERS, ff, odds, resolve


@pytest.mark.parametrize("resolver_id", SUPPORT_AND_SPECIAL_RESOLVERS)
def test_registered_with_summary_and_examples(resolver_id: str) -> None:
    cls = ff().resolvers[resolver_id]
    assert cls.summary and len(cls.examples) >= 1
    for example in cls.examples:
        answer = resolve(resolver_id, **example)
        assert answer["sources"], resolver_id
        assert sum(Fraction(v) for v in answer["probabilities_exact"].values()) == 1
        assert answer["outcome_key"] in answer["probabilities_exact"]


@given(data=st.data(), resolver_id=st.sampled_from(SUPPORT_AND_SPECIAL_RESOLVERS))
def test_any_roll_lands_on_a_key_with_positive_odds(data: st.DataObject, resolver_id: str) -> None:
    rs = ff()
    cls = rs.resolvers[resolver_id]
    example = dict(data.draw(st.sampled_from(list(cls.examples))))
    example.pop("dice", None)
    resolver = cls()
    req = cls.Request(**example)
    sides = resolver.dice(req, rs.context(req.period, req.variants))
    dice = [data.draw(st.integers(min_value=1, max_value=s)) for s in sides]
    answer = resolve(resolver_id, dice=dice, **example)
    table = odds(resolver_id, **example)
    assert table[answer["outcome_key"]] > 0
    assert sum(table.values()) == 1


def test_datasets_registered() -> None:
    names = set(ff().datasets)
    assert {
        "artillery-action-table",
        "rolling-barrage-table",
        "gas-movement-table",
        "random-events",
        "visibility-distances",
        "deviation",
    } <= names


def test_errata_registered_with_sources() -> None:
    errata = ff().errata
    for eid in (
        "gas-speed-below-zero",
        "artillery-action-mid",
        "artillery-line-of-sight-late",
        "barrage-duration",
        "barrage-danger-row",
        "rolling-barrage-natural-one",
        "air-mission-order",
        "deep-shelter-veteran",
        "casualty-rounding",
        "events-pack-exhausted",
    ):
        assert len(errata[eid].readings) == 2 and all(r.source for r in errata[eid].readings)
