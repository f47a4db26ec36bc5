"""Each resolver and dataset answers only what its period's playsheet has.

The 1914 to mid 1915 playsheet's order sequence starts "1 SUPPORT ORDERS - DIVISION/REGIMENT/BRIGADE": it has
no Deep Suppression step and no rolling barrage step. The mid and late playsheets start "1 ROLL D6 FOR DEEP
SUPPRESSION (DS) FACTOR" and "2 ROLLING BARRAGES - ADVANCE AND ROLL EFFECTS"; the main text dates Deep
Suppression to "the latter phase of the war" and rolling barrages "from late 1916".
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.flanders_fields.resolvers.artillery import DEEP_SUPPRESSION_STEP
from rules.flanders_fields.resolvers.barrage import ROLLING_BARRAGE_STEP
from tests.rules.flanders_fields.resolving import ff, resolve

# Every request that names a Deep Suppression penalty, with the field it is named in.
DS_PENALTY_REQUESTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("artillery-action", {"artillery": "field", "deep_suppression": 1, "dice": [6]}),
    ("sos", {"deep_suppression": 2, "dice": [3]}),
    ("order-roll", {"unit": "regimental-artillery", "deep_suppression": 1, "dice": [5]}),
)
BARRAGE_REQUESTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("rolling-barrage", {"cover": "medium", "dice": [4]}),
    ("barrage-duration", {"dice": [3]}),
    ("barrage-danger", {"distance_cm": 3, "dice": [5, 4]}),
)


def refusal(resolver_id: str, period: str, **body: Any) -> RulesError:
    with pytest.raises(RulesError) as err:
        resolve(resolver_id, period=period, **body)
    return err.value


@pytest.mark.parametrize(("resolver_id", "body"), DS_PENALTY_REQUESTS)
def test_no_deep_suppression_penalty_before_mid_1915(resolver_id: str, body: dict[str, Any]) -> None:
    err = refusal(resolver_id, "early", **body)
    assert err.field == "deep_suppression" and err.allowed == [0]
    assert "Deep Suppression" in err.message and "early" in err.message
    # The same penalty is accepted where the playsheet has the step.
    for period in ("mid", "late"):
        assert resolve(resolver_id, period=period, **body)["sources"]


def test_one_deep_suppression_check_for_every_resolver() -> None:
    # order-roll already refused it; the other resolvers refuse it with the very same words.
    messages = {refusal(r, "early", **body).message for r, body in DS_PENALTY_REQUESTS}
    assert len(messages) == 1
    # No penalty is no Deep Suppression: the early rolls still answer.
    assert resolve("sos", period="early", dice=[2])["outcome"] == "fire-arrives"
    assert resolve("artillery-action", period="early", dice=[3])["outcome"] == {"actions": 1}


def test_deep_suppression_roll_has_no_early_period() -> None:
    # Early playsheet: "1 SUPPORT ORDERS"; mid: "1 ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR".
    err = refusal("deep-suppression", "early", dice=[6])
    assert err.field == "period" and err.allowed == ["mid", "late"]
    assert "Deep Suppression" in err.message
    assert resolve("deep-suppression", period="mid", dice=[6])["outcome"]["battery_destroyed"]
    assert DEEP_SUPPRESSION_STEP.periods == ("mid", "late")


@pytest.mark.parametrize(("resolver_id", "body"), BARRAGE_REQUESTS)
def test_no_rolling_barrage_before_mid_1915(resolver_id: str, body: dict[str, Any]) -> None:
    # Mid playsheet "2 ROLLING BARRAGES - ADVANCE AND ROLL EFFECTS"; the early playsheet has no such step.
    err = refusal(resolver_id, "early", **body)
    assert err.field == "period" and err.allowed == ["mid", "late"]
    assert "rolling barrage" in err.message.lower() and "early" in err.message
    for period in ROLLING_BARRAGE_STEP.periods:
        assert resolve(resolver_id, period=period, **body)["sources"]


@pytest.mark.parametrize("period", ["early", "mid", "late"])
@pytest.mark.parametrize("reading", ["playsheet", "main-text"])
def test_artillery_action_dataset_and_resolver_give_the_same_open_sights_bonus(
    period: str, reading: str
) -> None:
    # Early playsheet: "ARTILLERY WITH LINE OF SIGHT 1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions" and
    # "ARTILLERY FIRING FROM OFF TABLE" the same: no +1 (erratum artillery-line-of-sight-early, its default).
    from rules.flanders_fields.resolvers.artillery import artillery_action_table

    variants = {"artillery-line-of-sight-early": reading}
    table = artillery_action_table(period, variants)
    answer = resolve("artillery-action", period=period, line_of_sight=True, dice=[3], variants=variants)
    assert table["open_sights_bonus"] == answer["total"] - 3
    if period == "early":
        assert table["open_sights_bonus"] == (0 if reading == "playsheet" else 1)
        assert table["open_sights_erratum"] == "artillery-line-of-sight-early"


def test_artillery_action_dataset_has_deep_suppression_only_where_the_period_has_it() -> None:
    rs = ff()
    assert rs.data("artillery-action-table", "early")["open_sights_bonus"] == 0
    assert "deep_suppression" not in rs.data("artillery-action-table", "early")
    for period in ("mid", "late"):
        assert "Deep Suppression" in rs.data("artillery-action-table", period)["deep_suppression"]


def test_order_tables_open_sights_bonus_is_the_artillery_resolvers() -> None:
    # One bonus for "Artillery with its own line of sight" (order-roll) and "over open sights"
    # (artillery-action): the early playsheet has none among its "Modifiers to Order Rolls".
    for period in ("early", "mid", "late"):
        order = resolve(
            "order-roll",
            period=period,
            unit="regimental-artillery",
            artillery_own_line_of_sight=True,
            dice=[3],
        )
        action = resolve("artillery-action", period=period, line_of_sight=True, dice=[3])
        assert order["total"] == action["total"], period
