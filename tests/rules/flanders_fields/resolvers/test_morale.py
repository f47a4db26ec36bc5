"""Morale: the three playsheets' morale table (cell by cell), when a test is due, and the special rules."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from tests.rules.flanders_fields import FF, resolve

# "0 or Less Rout, Surrender etc. – Remove from play. / 1 Retreat 40cm, become Suppressed, abandon crewed
# weapons. / 2-3 Retreat 20cm, become Suppressed, abandon crewed weapons. / 4+ Morale OK" (all three sheets)
TABLE = {
    -1: "rout",
    0: "rout",
    1: "retreat-40",
    2: "retreat-20",
    3: "retreat-20",
    4: "ok",
    5: "ok",
    6: "ok",
    7: "ok",
}
# "Veteran Troops +1 / Raw Troops -1 / 75% Casualties -2"
QUALITY = {"raw": -1, "experienced": 0, "veteran": 1}


@pytest.mark.parametrize("period", ["early", "mid", "late"])
@pytest.mark.parametrize("quality", sorted(QUALITY))
@pytest.mark.parametrize("at_75", [False, True])
@pytest.mark.parametrize("die", range(1, 7))
def test_every_morale_cell(period: str, quality: str, at_75: bool, die: int) -> None:
    lost = (
        9 if at_75 else 6
    )  # of 12: "if a battalion starts the game with twelve rifle platoons and looses six"
    res = resolve(
        "morale", period=period, quality=quality, starting_platoons=12, lost_platoons=lost, dice=[die]
    )
    total = die + QUALITY[quality] + (-2 if at_75 else 0)
    key = TABLE[max(min(total, 7), -1)]
    out = res.as_dict()
    assert out["total"] == total and out["outcome"] == key and out["test_due"] is True
    assert out["retreat_cm"] == {"rout": 0, "retreat-40": 40, "retreat-20": 20, "ok": 0}[key]
    assert out["suppressed"] is out["abandon_crewed_weapons"] is (key in ("retreat-40", "retreat-20"))
    assert out["removed"] is (key == "rout")


def test_when_a_test_is_due() -> None:
    # 50% of starting rifle platoons: 6 of 12 is due, 5 of 12 is not; 75%: 9 of 12 rolls at -2.
    assert (
        resolve("morale", period="mid", starting_platoons=12, lost_platoons=5, dice=[1]).as_dict()["test_due"]
        is False
    )
    assert (
        resolve("morale", period="mid", starting_platoons=12, lost_platoons=5, dice=[1]).evaluation.key
        == "ok"
    )
    assert (
        resolve("morale", period="mid", starting_platoons=12, lost_platoons=8, dice=[4]).evaluation.total == 4
    )
    assert (
        resolve("morale", period="mid", starting_platoons=12, lost_platoons=9, dice=[4]).evaluation.total == 2
    )
    assert (
        resolve("morale", period="mid", starting_platoons=13, lost_platoons=7, dice=[4]).as_dict()["test_due"]
        is True
    )
    with pytest.raises(RulesError) as err:
        resolve("morale", period="mid", starting_platoons=4, lost_platoons=5, dice=[4])
    assert err.value.field == "lost_platoons"


def test_special_rules_in_morale() -> None:
    # Pals: "+2 to an action roll OR moral test" (raw battalions, mid)
    pals = resolve(
        "morale",
        period="mid",
        quality="raw",
        starting_platoons=12,
        lost_platoons=6,
        special_rule="pals",
        dice=[2],
    )
    assert pals.evaluation.total == 3 and pals.evaluation.key == "retreat-20"
    # Stubborn Resistance: "may ignore any adverse morale result and remain in place"
    sr = resolve(
        "morale",
        period="late",
        starting_platoons=12,
        lost_platoons=9,
        special_rule="stubborn-resistance",
        dice=[1],
    )
    assert sr.evaluation.key == "ok" and sr.evaluation.total == -1
    # Prussian Discipline: action rolls only by default; the specimen game adds morale rolls.
    with pytest.raises(RulesError) as err:
        resolve(
            "morale",
            period="early",
            starting_platoons=12,
            lost_platoons=6,
            special_rule="prussian-discipline",
            dice=[2],
        )
    assert err.value.field == "special_rule"
    pd = resolve(
        "morale",
        period="early",
        starting_platoons=12,
        lost_platoons=6,
        special_rule="prussian-discipline",
        dice=[2],
        variants={"prussian-discipline-morale": "action-or-morale"},
    )
    assert pd.evaluation.total == 4 and pd.evaluation.key == "ok"
    with pytest.raises(RulesError) as err:
        resolve(
            "morale",
            period="early",
            starting_platoons=12,
            lost_platoons=6,
            special_rule="mad-minute",
            dice=[2],
        )
    assert err.value.field == "special_rule"


def test_morale_table_dataset() -> None:
    for period in ("early", "mid", "late"):
        data = FF.data("morale-table", period)
        assert data["source"].endswith("MORALE – Test by rolling a D6")
        assert [r["roll"] for r in data["results"]] == ["0 or Less", "1", "2-3", "4+"]
        assert [m["value"] for m in data["modifiers"]] == [1, -1, -2]
