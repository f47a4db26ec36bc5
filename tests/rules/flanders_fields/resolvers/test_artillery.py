"""Deep suppression, the artillery action roll, SOS fire and deep shelters, against the rule book."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.core.errors import RulesError
from tests.rules.flanders_fields.resolving import ff, odds, resolve


def test_deep_suppression_table() -> None:
    # "1-2 No Effective Deep Suppression ... 3- 4 Effective Deep Suppression -1 ... 5 Very Effective
    # Suppression -2 ... 6 Extremely Effective Suppression one defending artillery battery is destroyed AND
    # -1 Deep Suppression factor." (playsheets: "6 = -1 & 1 battery lost")
    expected = {1: (0, False), 2: (0, False), 3: (1, False), 4: (1, False), 5: (2, False), 6: (1, True)}
    for face, (penalty, destroyed) in expected.items():
        answer = resolve("deep-suppression", period="late", dice=[face])
        assert answer["outcome"] == {"penalty": penalty, "battery_destroyed": destroyed}
    assert odds("deep-suppression", period="mid") == {
        "penalty-0": Fraction(1, 3),
        "penalty-1": Fraction(1, 3),
        "penalty-2": Fraction(1, 6),
        "battery-destroyed": Fraction(1, 6),
    }


def actions(period: str, face: int, **body: object) -> int:
    return int(resolve("artillery-action", period=period, dice=[face], **body)["outcome"]["actions"])


def test_action_table_early_and_late() -> None:
    # "1914 to Early 1915 1 -2 = No Action 3 - 5 = 1 Action 6+ = 2 Actions" and "Mid 1917 to end of War 1-2 =
    # No Action 3-5 = 1 Action 6+ = 2 Actions" (late playsheet: "1-2 = No Action 3-5 = 1 Action 6 = 2
    # Actions")
    for period in ("early", "late"):
        assert [actions(period, f) for f in range(1, 7)] == [0, 0, 1, 1, 1, 2]


def test_action_table_mid_playsheet_by_default_main_text_as_variant() -> None:
    # Playsheet: "1-3 = No Action 4-5 = 1 Action 6 = 2 Actions"
    assert [actions("mid", f) for f in range(1, 7)] == [0, 0, 0, 1, 1, 2]
    # Main text: "Mid 1915 to Mid 1917 1 -3 = No Action 4 - 6 = 1 Action 7+ = 2 Actions"
    variant = {"artillery-action-mid": "main-text"}
    assert [actions("mid", f, variants=variant) for f in range(1, 7)] == [0, 0, 0, 1, 1, 1]
    # +1 over open sights lifts a 6 to 7: two actions under the main text.
    assert actions("mid", 6, variants=variant, line_of_sight=True) == 2
    answer = resolve("artillery-action", period="mid", dice=[6], variants=variant)
    assert any("[variant]" in s for s in answer["sources"])


def test_open_sights_and_deep_suppression_modifiers() -> None:
    # "When Field artillery fire over 'open sights' at an enemy they can see they have a bonus of +1"
    answer = resolve("artillery-action", period="mid", artillery="field", line_of_sight=True, dice=[2])
    assert answer["total"] == 3 and answer["outcome"] == {"actions": 0}
    # The early playsheet has separate, identical tables with and without line of sight: no +1 by default
    # (erratum artillery-line-of-sight-early); the main text's +1 as its variant.
    early = resolve("artillery-action", period="early", line_of_sight=True, dice=[2])
    assert early["total"] == 2 and early["outcome"] == {"actions": 0}
    variant = {"artillery-line-of-sight-early": "main-text"}
    early = resolve("artillery-action", period="early", line_of_sight=True, dice=[2], variants=variant)
    assert early["total"] == 3 and early["outcome"] == {"actions": 1}
    # Deep Suppression: "-2 when ordering all defenders assets (Artillery etc.)"
    answer = resolve("artillery-action", period="late", deep_suppression=2, dice=[6])
    assert answer["total"] == 4 and answer["outcome"] == {"actions": 1}
    assert [m["value"] for m in answer["modifiers"]] == [-2]
    assert odds("artillery-action", period="late", deep_suppression=2) == {
        "no-action": Fraction(4, 6),
        "1-action": Fraction(2, 6),
    }


def test_open_sights_for_heavy_artillery_only_late_per_playsheet() -> None:
    # Mid playsheet "+1 Field Artillery with their own line of sight"; late playsheet "+1 Artillery with
    # their own line of sight."
    with pytest.raises(RulesError) as err:
        resolve("artillery-action", period="mid", artillery="heavy", line_of_sight=True, dice=[3])
    assert err.value.field == "line_of_sight"
    assert actions("late", 5, artillery="heavy", line_of_sight=True) == 2
    with pytest.raises(RulesError):
        resolve(
            "artillery-action",
            period="late",
            artillery="heavy",
            line_of_sight=True,
            variants={"artillery-line-of-sight-late": "main-text"},
        )


def test_artillery_action_table_dataset() -> None:
    rs = ff()
    assert rs.data("artillery-action-table", "early")["thresholds"] == {"one": 3, "two": 6}
    mid = rs.data("artillery-action-table", "mid")
    assert mid["thresholds"] == {"one": 4, "two": 6}
    assert mid["readings"]["main-text"] == {"one": 4, "two": 7}


def test_sos() -> None:
    # "If the result is one or less nothing happens, if the result is two or more the artillery aiming point
    # is moved AND one turn of fire arrives."
    assert resolve("sos", period="mid", dice=[2])["outcome"] == "fire-arrives"
    assert resolve("sos", period="mid", dice=[1])["outcome"] == "nothing"
    assert resolve("sos", period="mid", deep_suppression=1, dice=[2])["outcome"] == "nothing"
    assert odds("sos", period="late", deep_suppression=2) == {
        "nothing": Fraction(3, 6),
        "fire-arrives": Fraction(3, 6),
    }


def test_deep_shelter_regain() -> None:
    # "Platoons require 4+ to regain their fighting positions, with Experienced have +1 on the die roll and
    # Raw -1."
    def regained(quality: str, **kw: object) -> list[bool]:
        return [
            resolve("deep-shelter", period="mid", quality=quality, dice=[f], **kw)["outcome"] == "regained"
            for f in range(1, 7)
        ]

    assert regained("experienced") == [False, False, True, True, True, True]
    assert regained("raw") == [False, False, False, False, True, True]
    # Veterans: the text is silent; +1 by default, nothing under the literal reading.
    assert regained("veteran") == regained("experienced")
    assert regained("storm", variants={"deep-shelter-veteran": "none"}) == [False] * 3 + [True] * 3


def test_deep_shelter_super_heavy() -> None:
    # "safe from everything except Super Heavy artillery which requires a 6 for a kill"
    assert odds("deep-shelter", period="late", action="super-heavy") == {
        "killed": Fraction(1, 6),
        "safe": Fraction(5, 6),
    }
    assert resolve("deep-shelter", period="late", action="super-heavy", dice=[6])["outcome"] == "killed"


@pytest.mark.parametrize("period", ["early", "mid", "late"])
@pytest.mark.parametrize("reading", ["playsheet", "main-text"])
def test_action_table_agrees_with_the_order_roll_tables(period: str, reading: str) -> None:
    # One table, two resolvers: artillery-action must answer as order-roll's regimental artillery table.
    from rules.flanders_fields.book.tables import actions_for as order_actions
    from rules.flanders_fields.resolvers.orders import order_table

    ctx = ff().context(period, {"artillery-action-mid": reading})
    table = order_table("regimental-artillery", ctx)
    assert table is not None
    for face in range(1, 7):
        answer = resolve(
            "artillery-action", period=period, dice=[face], variants={"artillery-action-mid": reading}
        )
        assert answer["outcome"]["actions"] == order_actions(face, table.bands)
