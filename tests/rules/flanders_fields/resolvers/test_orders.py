"""Order rolls: every cell of the three playsheets' order tables, the modifiers, and the refusals."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from tests.rules.flanders_fields import FF, resolve

# Actions for an unmodified die 1..6, transcribed from each playsheet's ORDER SEQUENCE NOTES.
# Rifle companies, all periods: "1 = No Action 2-4 = 1 Action 5-6 = 2 Actions 7 = 3 Actions"
RIFLE = (0, 1, 1, 1, 2, 2)
# MGs, all periods: "1 = No Action 2 = 1 Action 3-5 = 2 Actions 6 = 3 Actions"
MG = (0, 1, 2, 2, 2, 3)
# Artillery early ("ARTILLERY WITH LINE OF SIGHT / FROM OFF TABLE 1-2 = No Action 3-5 = 1 Action 6+ = 2
# Actions") and late ("1-2 = No Action 3-5 = 1 Action 6 = 2 Actions")
ART_EARLY_LATE = (0, 0, 1, 1, 1, 2)
# Artillery and mortars, mid: "1-3 = No Action 4-5 = 1 Action 6 = 2 Actions"
ART_MID = (0, 0, 0, 1, 1, 2)
# Battalion mortars mid and late: "1-2 = No Action 3-4 = 1 Action 5-6 = 2 Actions"
BN_MORTAR = (0, 0, 1, 1, 2, 2)
# Tanks mid: "1-2 = No Action 3-5 + 1 Action 6 = 2 Actions"; late: "1 = No Action 2-5 + 1 Action 6 = 2 Actions"
TANK_MID = (0, 0, 1, 1, 1, 2)
TANK_LATE = (0, 1, 1, 1, 1, 2)
# Late: "Direct Air Support mission Roll D6 1-4 no effect, 5 or 6 Biggles/Red Baron arrives where required."
AIR = (0, 0, 0, 0, 1, 1)

CELLS = {
    ("early", "rifle-company"): RIFLE,
    ("early", "battalion-mg"): MG,
    ("early", "regimental-mg"): MG,
    ("early", "regimental-artillery"): ART_EARLY_LATE,
    ("mid", "rifle-company"): RIFLE,
    ("mid", "battalion-mg"): MG,
    ("mid", "regimental-mg"): MG,
    ("mid", "blockhouse"): MG,  # "Individual Regimental/Brigade MGs, including Block Houses"
    ("mid", "regimental-artillery"): ART_MID,
    ("mid", "regimental-mortar"): ART_MID,
    ("mid", "battalion-mortar"): BN_MORTAR,
    ("mid", "tank"): TANK_MID,
    ("late", "rifle-company"): RIFLE,
    ("late", "battalion-mg"): MG,
    ("late", "regimental-mg"): MG,
    ("late", "blockhouse"): MG,
    ("late", "regimental-artillery"): ART_EARLY_LATE,
    ("late", "regimental-mortar"): ART_EARLY_LATE,
    ("late", "battalion-mortar"): BN_MORTAR,
    ("late", "tank"): TANK_LATE,
    ("late", "air-support"): AIR,
}


@pytest.mark.parametrize(("period", "unit"), sorted(CELLS))
@pytest.mark.parametrize("die", range(1, 7))
def test_every_order_table_cell(period: str, unit: str, die: int) -> None:
    res = resolve("order-roll", period=period, unit=unit, dice=[die])
    assert res.evaluation.outcome == {"actions": CELLS[(period, unit)][die - 1]}
    assert res.evaluation.total == die and res.evaluation.modifiers == ()


def test_top_bands_are_reached_only_with_modifiers() -> None:
    # Rifle companies: "7 = 3 Actions" -> a veteran (+1) rolling 6.
    assert resolve(
        "order-roll", period="mid", unit="rifle-company", quality="veteran", dice=[6]
    ).evaluation.outcome == {"actions": 3}
    # A total of 0 or less is "No Action" (lowest band clamps).
    res = resolve("order-roll", period="late", unit="rifle-company", command_suppression=3, dice=[3])
    assert res.evaluation.total == 0 and res.evaluation.outcome == {"actions": 0}


def test_units_a_period_does_not_have_are_refused() -> None:
    for unit in ("tank", "battalion-mortar", "blockhouse", "air-support"):
        with pytest.raises(RulesError) as err:
            resolve("order-roll", period="early", unit=unit, dice=[4])
        assert err.value.field == "unit" and "rifle-company" in (err.value.allowed or [])
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="mid", unit="air-support", dice=[4])
    assert err.value.field == "unit" and "air-support" not in (err.value.allowed or [])


def test_early_regimental_mortar_uses_the_artillery_table_or_is_refused_by_variant() -> None:
    assert resolve("order-roll", period="early", unit="regimental-mortar", dice=[3]).evaluation.outcome == {
        "actions": 1
    }
    with pytest.raises(RulesError):
        resolve(
            "order-roll",
            period="early",
            unit="regimental-mortar",
            dice=[3],
            variants={"early-regimental-mortar-orders": "unavailable"},
        )


def test_natural_one_fails_whatever_the_modifiers() -> None:
    # "+1 Veteran or Storm troops (but a 1 is a FAIL)"; staff support "BUT A NATURAL 1 IS STILL A FAIL".
    res = resolve(
        "order-roll", period="late", unit="rifle-company", quality="veteran", staff_support=True, dice=[1]
    )
    assert res.evaluation.total == 4 and res.evaluation.outcome == {"actions": 0}
    assert res.probabilities["actions-0"] == pytest.approx(1 / 6)


@pytest.mark.parametrize(
    ("period", "variant", "bonus"),
    [
        ("early", None, 1),  # "1 BATTALION COMMANDER +1 ON 1 DIE ROLL ONCE PER TURN"
        ("mid", None, 1),
        ("late", None, 2),  # late: "+2 ON 1 DIE ROLL"
        ("early", "main-text", 2),  # main text: "may give a +2 bonus to a single order roll"
        ("mid", "main-text", 2),
    ],
)
def test_staff_support(period: str, variant: str | None, bonus: int) -> None:
    variants = {"staff-support-bonus": variant} if variant else {}
    res = resolve(
        "order-roll", period=period, unit="rifle-company", staff_support=True, dice=[3], variants=variants
    )
    assert [m.value for m in res.evaluation.modifiers] == [bonus]
    assert res.evaluation.total == 3 + bonus


def test_raw_troops_playsheet_and_main_text_readings() -> None:
    # Playsheets: "Raw Troops = +1 Until they receive any fire then -1"
    fresh = resolve("order-roll", period="mid", unit="rifle-company", quality="raw", dice=[4])
    assert fresh.evaluation.total == 5 and fresh.evaluation.outcome == {"actions": 2}
    under_fire = resolve(
        "order-roll", period="mid", unit="rifle-company", quality="raw", raw_under_fire=True, dice=[2]
    )
    assert under_fire.evaluation.total == 1 and under_fire.evaluation.outcome == {"actions": 0}
    # Main text: "-2 penalty applied if the die roll is 4 or more"
    main = {"raw-order-modifier": "main-text"}
    low = resolve(
        "order-roll",
        period="mid",
        unit="rifle-company",
        quality="raw",
        raw_under_fire=True,
        dice=[2],
        variants=main,
    )
    assert low.evaluation.total == 2 and low.evaluation.outcome == {"actions": 1}
    high = resolve(
        "order-roll",
        period="mid",
        unit="rifle-company",
        quality="raw",
        raw_under_fire=True,
        dice=[5],
        variants=main,
    )
    assert high.evaluation.total == 3 and high.evaluation.outcome == {"actions": 1}


def test_commander_modifiers_add_up() -> None:
    # "-1 ... GAS cloud", "-1 Any platoon is more than 25cm", "-1 ... Field Promotion", "-1 For each Suppression
    # marker on a Unit's Command Stand"
    res = resolve(
        "order-roll",
        period="early",
        unit="rifle-company",
        in_gas=True,
        platoon_beyond_25cm=True,
        field_promotion=True,
        command_suppression=2,
        dice=[6],
    )
    assert sorted(m.value for m in res.evaluation.modifiers) == [-2, -1, -1, -1]
    assert res.evaluation.total == 1 and res.evaluation.outcome == {"actions": 0}


def test_tank_failed_last_turn_and_amiens() -> None:
    # mid: "-1 If commanding a tank model which failed its action roll last turn."
    assert resolve(
        "order-roll", period="mid", unit="tank", tank_failed_last_turn=True, dice=[3]
    ).evaluation.outcome == {"actions": 0}
    # late: "DO NOT apply this after July 1918 (Battle of Amiens)."
    late = resolve(
        "order-roll", period="late", unit="tank", tank_failed_last_turn=True, after_amiens=True, dice=[2]
    )
    assert late.evaluation.modifiers == () and late.evaluation.outcome == {"actions": 1}
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="mid", unit="tank", after_amiens=True, dice=[2])
    assert err.value.field == "after_amiens"


def test_artillery_line_of_sight_and_mid_artillery_erratum() -> None:
    # mid: "+1 Field Artillery with their own line of sight." 5 + 1 = 6 -> "6 = 2 Actions"
    res = resolve(
        "order-roll", period="mid", unit="regimental-artillery", artillery_own_line_of_sight=True, dice=[5]
    )
    assert res.evaluation.outcome == {"actions": 2}
    # Main text mid: "4 - 6 = 1 Action 7+ = 2 Actions"
    main = resolve(
        "order-roll",
        period="mid",
        unit="regimental-artillery",
        artillery_own_line_of_sight=True,
        dice=[5],
        variants={"artillery-action-mid": "main-text"},
    )
    assert main.evaluation.outcome == {"actions": 1}
    assert resolve(
        "order-roll",
        period="mid",
        unit="regimental-artillery",
        dice=[6],
        variants={"artillery-action-mid": "main-text"},
    ).evaluation.outcome == {"actions": 1}
    # Early playsheet: the line-of-sight table equals the off-table one (no bonus); main text +1.
    early = resolve(
        "order-roll", period="early", unit="regimental-artillery", artillery_own_line_of_sight=True, dice=[5]
    )
    assert early.evaluation.outcome == {"actions": 1} and early.evaluation.modifiers == ()
    early_main = resolve(
        "order-roll",
        period="early",
        unit="regimental-artillery",
        artillery_own_line_of_sight=True,
        dice=[5],
        variants={"artillery-line-of-sight-early": "main-text"},
    )
    assert early_main.evaluation.outcome == {"actions": 2}


def test_mortar_without_line_of_sight_and_deep_suppression() -> None:
    # "-1 Mortar which does not have its own line of sight." 3 - 1 = 2 -> "1-2 = No Action"
    assert resolve(
        "order-roll", period="late", unit="battalion-mortar", mortar_without_line_of_sight=True, dice=[3]
    ).evaluation.outcome == {"actions": 0}
    # Deep Suppression -2 on regiment/brigade artillery: 6 - 2 = 4 -> "3-5 = 1 Action" (late)
    res = resolve("order-roll", period="late", unit="regimental-artillery", deep_suppression=2, dice=[6])
    assert res.evaluation.total == 4 and res.evaluation.outcome == {"actions": 1}
    # No Deep Suppression modifier on a rifle company (a note instead).
    rifle = resolve("order-roll", period="late", unit="rifle-company", deep_suppression=2, dice=[5])
    assert rifle.evaluation.modifiers == ()
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="early", unit="regimental-artillery", deep_suppression=1, dice=[5])
    assert err.value.field == "deep_suppression" and err.value.allowed == [0]


def test_wire_on_the_order_roll() -> None:
    # Early playsheet: "apply extra -2 to die result for them"
    early = resolve("order-roll", period="early", unit="rifle-company", through_wire=True, dice=[4])
    assert early.evaluation.total == 2
    # Main-text reading and later periods: a separate Action and a roll by platoons, no order penalty.
    for period, variants in (("early", {"early-wire-crossing": "platoon-roll"}), ("mid", {}), ("late", {})):
        res = resolve(
            "order-roll", period=period, unit="rifle-company", through_wire=True, dice=[4], variants=variants
        )
        assert res.evaluation.total == 4


def test_air_support_main_text_reading() -> None:
    # "a penalty of -3" on a normal order (Regiment/Brigade table, needing 3+): a 6 gives 3, a 5 gives 2.
    main = {"air-mission-order": "main-text"}
    assert resolve(
        "order-roll", period="late", unit="air-support", dice=[6], variants=main
    ).evaluation.outcome == {"actions": 1}
    assert resolve(
        "order-roll", period="late", unit="air-support", dice=[5], variants=main
    ).evaluation.outcome == {"actions": 0}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"unit": "battalion-mg", "quality": "veteran"}, "quality"),
        ({"unit": "rifle-company", "raw_under_fire": True}, "raw_under_fire"),
        ({"unit": "regimental-mg", "staff_support": True}, "staff_support"),
        ({"unit": "rifle-company", "tank_failed_last_turn": True}, "tank_failed_last_turn"),
        ({"unit": "tank", "mortar_without_line_of_sight": True}, "mortar_without_line_of_sight"),
        ({"unit": "regimental-mortar", "artillery_own_line_of_sight": True}, "artillery_own_line_of_sight"),
        ({"unit": "battalion-mg", "through_wire": True}, "through_wire"),
    ],
)
def test_flags_that_do_not_fit_the_unit_are_refused(body: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="late", dice=[4], **body)
    assert err.value.field == field


def test_special_rules_on_order_rolls() -> None:
    # Pals: "add +2 to an action roll" (raw battalions, mid)
    pals = resolve(
        "order-roll", period="mid", unit="rifle-company", quality="raw", special_rule="pals", dice=[2]
    )
    assert pals.evaluation.total == 5 and pals.evaluation.outcome == {"actions": 2}
    # Professionalism: "add two to their action roll although a natural 1 will still be a failure" (late)
    prof = resolve("order-roll", period="late", unit="tank", special_rule="professionalism", dice=[1])
    assert prof.evaluation.total == 3 and prof.evaluation.outcome == {"actions": 0}
    # Elan: "+1 to the action die roll when ordering French troops to move forward"
    elan = resolve("order-roll", period="early", unit="rifle-company", special_rule="elan", dice=[4])
    assert elan.evaluation.total == 5
    # Prussian Discipline: "gain +2 on any action die roll"
    pd = resolve(
        "order-roll", period="early", unit="regimental-mg", special_rule="prussian-discipline", dice=[4]
    )
    assert pd.evaluation.total == 6 and pd.evaluation.outcome == {"actions": 3}
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="mid", unit="rifle-company", special_rule="pals", dice=[2])
    assert err.value.field == "special_rule"
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="late", unit="rifle-company", special_rule="pals", dice=[2])
    assert err.value.field == "special_rule" and "professionalism" in (err.value.allowed or [])
    with pytest.raises(RulesError) as err:
        resolve("order-roll", period="late", unit="rifle-company", special_rule="mutiny", dice=[2])
    assert err.value.field == "special_rule"


def test_order_tables_dataset_matches_the_resolver() -> None:
    for period in ("early", "mid", "late"):
        data = FF.data("order-tables", period)
        assert data["source"].endswith("ORDER SEQUENCE NOTES")
        for unit, table in data["units"].items():
            assert table["source"]
            for die in range(1, 7):
                band = next(b for b in table["bands"] if _in(b["roll"], die) or _last(table["bands"], b, die))
                res = resolve("order-roll", period=period, unit=unit, dice=[die])
                expected = 0 if die == 1 else band["actions"]
                assert res.evaluation.outcome == {"actions": expected}
    assert "tank" not in FF.data("order-tables", "early")["units"]
    assert "air-support" in FF.data("order-tables", "late")["units"]


def _in(printed: str, die: int) -> bool:
    lo, _, hi = printed.partition("-")
    return int(lo) <= die <= int(hi or lo)


def _last(bands: list[dict[str, object]], band: dict[str, object], die: int) -> bool:
    return band is bands[-1] and die >= int(str(band["roll"]).split("-")[0])
