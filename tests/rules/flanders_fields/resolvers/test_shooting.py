"""Shooting: every cell of the three playsheets' firing tables and the main text's armour table, the direct
fire modifiers, natural ones, Auto, ranges and refusals."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from tests.rules.flanders_fields import FF, resolve

COVERS = ("open", "soft", "medium", "hard", "fortified")

# The printed rows, Suppress/Kill pairs for Open, Soft, Medium, Hard[, Fortifications].
# Early playsheet "Firing Table" (002 lines ~4937-4948; 004 prints the heavy artillery medium kill "- 5").
EARLY = {
    "mg": "3 4 4 5 5 7 6 7",  # "MG – Max 70cm 3 4 4 5 5 7 6 7"
    "infantry": "3 4 5 6 6 7 7 Ass",  # "Infantry (Max 45) 3 4 5 6 6 7 7 Ass"
    "field-gun": "3 4 4 5 5 6 6 7",  # "Field Artillery – Guns 3 4 4 5 5 6 6 7"
    "field-howitzer": "3 4 3 4 4 6 6 7",  # "Field Artillery, Howitzers Light Mortars 3 4 3 4 4 6 6 7"
    "heavy-artillery": "2 3 3 4 4 5 5 6",  # "Heavy Artillery Medium Mortars 2 3 3 4 4 5 5 6"
    "gas": "3 5 3 5 3 5 3 5",  # "Gas 3 5 3 5 3 5 3 5"
}
# Mid and late playsheets, shared rows: "MG – Max 70cm 3 4 4 5 5 7 6 7 6 (Direct) No" etc.
COMMON = {
    "mg": "3 4 4 5 5 7 6 7 6D No",
    "infantry": "3 4 5 6 6 7 7 Ass 8 Ass",  # "Infantry & LMG (Max 45) 3 4 5 6 6 7 7 Ass 8 Ass"
    "field-gun": "3 4 4 5 5 6 6 7 6D No",  # "Field Artillery – Guns 3 4 4 5 5 6 6 7 6 (Direct) No"
    "field-howitzer": "3 4 3 4 4 6 6 7 No No",
    "heavy-artillery": "2 3 3 4 4 5 5 6 6 No",
    "super-heavy-artillery": "Auto 2 2 3 3 4 4 5 5 No",  # "Super Heavy Art. Heavy Mortars Auto 2 2 3 3 4 4 5 5 No"
    "heavy-tank": "4 5 4 5 5 6 5 6 6 No",  # "Tanks – Max 30cm 4 5 4 5 5 6 5 6 6 No"
}
MID = {
    **COMMON,
    "gas": "4 6 4 6 4 5 4 6 5 6",  # mid: "Gas 4 6 4 6 4 5 4 6 5 6"
    "flamethrower": "5 6 4 5 3 4 3 5 3 6",  # mid: "Flame Thrower 5 6 4 5 3 4 3 5 3 6"
}
LATE = {
    **COMMON,
    "gas": "4 6 4 6 4 6 4 6 4 6",  # late: "Gas 4 6 4 6 4 6 4 6 4 6"
    "flamethrower": "5 6 4 5 3 4 3 5 3 5",  # late: "Flame Thrower 5 6 4 5 3 4 3 5 3 5"
}
# Ranges that are legal and earn no short-range or open-sights modifier.
RANGE = {"flamethrower": 4, "gas": 0, "mg": 20, "infantry": 20, "heavy-tank": 20}
FIRER_FOR_MORTAR = {
    "field-howitzer": "light-mortar",
    "heavy-artillery": "medium-mortar",
    "super-heavy-artillery": "heavy-mortar",
}


def _cells(printed: str) -> list[tuple[str, str, str]]:
    values = printed.split()
    return [(COVERS[i], values[2 * i], values[2 * i + 1]) for i in range(len(values) // 2)]


def _expected(value: str) -> int | None:
    return int(value.rstrip("D")) if value.rstrip("D").isdigit() else None


CASES = [
    (period, firer, cover, s, k)
    for period, table in (("early", EARLY), ("mid", MID), ("late", LATE))
    for firer, printed in table.items()
    for cover, s, k in _cells(printed)
]


@pytest.mark.parametrize(("period", "firer", "cover", "suppress", "kill"), CASES)
def test_every_firing_table_cell(period: str, firer: str, cover: str, suppress: str, kill: str) -> None:
    firers = [firer] + ([FIRER_FOR_MORTAR[firer]] if firer in FIRER_FOR_MORTAR else [])
    for f in firers:
        body: dict[str, Any] = {"period": period, "firer": f, "cover": cover, "range_cm": RANGE.get(f, 50)}
        res = resolve("shooting", dice=[4], **body)
        out = res.as_dict()
        if suppress == "No" and kill == "No":
            assert out["outcome"] == "not-possible"
            continue
        assert out["thresholds"] == {"suppress": _expected(suppress), "kill": _expected(kill)}
        assert out["auto_suppress"] is (suppress == "Auto")
        assert res.evaluation.modifiers == ()
        # Each die against the printed numbers (a 1 fails unless Auto).
        for die in range(1, 7):
            got = resolve("shooting", dice=[die], **body).evaluation.key
            s, k = _expected(suppress), _expected(kill)
            if suppress == "Auto":
                want = "killed" if die != 1 and k is not None and die >= k else "suppressed"
            elif die == 1:
                want = "no-effect"
            elif k is not None and die >= k:
                want = "killed"
            elif s is not None and die >= s:
                want = "suppressed"
            else:
                want = "no-effect"
            assert got == want, (f, cover, die)
        if kill == "Ass":
            assert any("assault only" in n for n in out["notes"])


def test_direct_cells_need_a_direct_line_of_sight() -> None:
    # "6 (Direct)": "Shooting unit must have a direct line of sight to the target."
    ok = resolve("shooting", period="mid", firer="field-gun", cover="fortified", range_cm=50, dice=[6])
    assert ok.evaluation.key == "suppressed"
    indirect = resolve(
        "shooting", period="mid", firer="field-gun", cover="fortified", range_cm=50, indirect=True, dice=[6]
    )
    assert indirect.evaluation.key == "not-possible"
    mg = resolve(
        "shooting", period="late", firer="mg", cover="fortified", range_cm=20, indirect=True, dice=[6]
    )
    assert mg.evaluation.key == "not-possible"


# Main text "SHOOTING WHEN TARGET IS ARMOUR": In Open Suppress Kill, In Cover Suppress Kill.
ARMOUR = {
    "infantry": (
        (6, None),
        (5, None),
    ),  # "Infantry (Max 45) 6 Assault Only Or AT Rifle 7 | 5 Assault Only Or AT Rifle 5"
    "mg": ((6, None), (7, None)),  # "MG (Max 70) 6 Not Possible 7 Not Possible"
    "field-gun": ((4, 5), (6, None)),  # "Field Artillery – Guns and Howitzers Direct Fire 4 5 6 Not Possible"
    "light-mortar": ((5, 6), (5, 6)),  # "Field Artillery, Light Mortars - Indirect 5 6 5 6"
    "heavy-artillery": ((4, 5), (4, 5)),  # "Heavy Artillery, Medium Mortars 4 5 4 5"
    "medium-mortar": ((4, 5), (4, 5)),
    "super-heavy-artillery": ((3, 4), (3, 4)),  # "Super Heavy Artillery, Heavy Mortars 3 4 3 4"
    "heavy-mortar": ((3, 4), (3, 4)),
    "heavy-tank": ((5, 6), (5, 6)),  # "Armour (by Weapon – Field Gun or MG) 5 6 5 6"
    "gas": ((4, 5), (4, 5)),  # "Gas 4 5 4 5"
    "flamethrower": ((5, 6), (5, 6)),  # "Flame Throwers 5 6 5 6"
}


@pytest.mark.parametrize("period", ["mid", "late"])
@pytest.mark.parametrize("firer", sorted(ARMOUR))
@pytest.mark.parametrize("column", [0, 1])
def test_every_armour_table_cell(period: str, firer: str, column: int) -> None:
    cover = ("open", "cover")[column]
    rng = {"flamethrower": 4, "gas": 0, "infantry": 5, "heavy-tank": 20, "mg": 20}.get(firer, 50)
    out = resolve(
        "shooting", period=period, firer=firer, target="armour", cover=cover, range_cm=rng, dice=[5]
    ).as_dict()
    suppress, kill = ARMOUR[firer][column]
    assert out["thresholds"] == {"suppress": suppress, "kill": kill}
    assert out["modifiers"] == []


def test_armour_indirect_field_artillery_and_modifiers() -> None:
    # Indirect field artillery uses "Field Artillery, Light Mortars - Indirect 5 6 5 6".
    out = resolve(
        "shooting",
        period="late",
        firer="field-gun",
        target="armour",
        cover="cover",
        range_cm=50,
        indirect=True,
        dice=[6],
    ).as_dict()
    assert out["thresholds"] == {"suppress": 5, "kill": 6} and out["outcome"] == "killed"
    # "Field Howitzers shooting at tanks -1", "Field artillery firing over 75 -1" (read as cm: errata),
    # and "Field Artillery over open sights 100-150cm -1".
    how = resolve("shooting", period="late", firer="field-howitzer", target="armour", range_cm=120, dice=[6])
    assert sorted(m.value for m in how.evaluation.modifiers) == [-1, -1, -1]
    assert how.evaluation.total == 3 and how.evaluation.key == "no-effect"
    plain = resolve(
        "shooting",
        period="late",
        firer="field-howitzer",
        target="armour",
        range_cm=80,
        dice=[6],
        variants={"armour-field-artillery-over-75": "not-applied"},
    )
    assert [m.value for m in plain.evaluation.modifiers] == [-1]
    # "Infantry Antitank Rifle +1" and the AT rifle kill of 7 in the open.
    at = resolve(
        "shooting",
        period="mid",
        firer="infantry",
        target="armour",
        range_cm=20,
        anti_tank_rifle=True,
        dice=[6],
    ).as_dict()
    assert at["total"] == 7 and at["thresholds"]["kill"] == 7 and at["outcome"] == "killed"
    # "For Infantry to engage armour when it is in cover the infantry must be within short Range (5cm)."
    far = resolve(
        "shooting", period="mid", firer="infantry", target="armour", cover="cover", range_cm=6, dice=[6]
    )
    assert far.evaluation.key == "out-of-range"


def test_short_range_bonuses_by_period() -> None:
    # "+2 Short Range MGs – Under 10cm and first target only"
    assert resolve("shooting", period="early", firer="mg", range_cm=9.5, dice=[3]).evaluation.total == 5
    assert resolve("shooting", period="early", firer="mg", range_cm=10, dice=[3]).evaluation.total == 3
    # early/mid "+1 Short Range Infantry – Under 5cm"; late "+2 ... Short Range Infantry and LMGs – Under 5cm"
    assert resolve("shooting", period="early", firer="infantry", range_cm=4, dice=[3]).evaluation.total == 4
    assert resolve("shooting", period="mid", firer="infantry", range_cm=4, dice=[3]).evaluation.total == 4
    assert resolve("shooting", period="late", firer="infantry", range_cm=4, dice=[3]).evaluation.total == 5
    # "+1 Short Range ... Tanks – Under 5cm"
    assert resolve("shooting", period="late", firer="heavy-tank", range_cm=4, dice=[3]).evaluation.total == 4


def test_beaten_zone() -> None:
    # "-1 on the die roll for the first target, -2 for the second etc." and no short range bonus beyond the first.
    for index in (1, 2, 3):
        res = resolve("shooting", period="mid", firer="mg", range_cm=5, beaten_zone_index=index, dice=[6])
        assert [m.value for m in res.evaluation.modifiers] == [-index]
    flat = resolve(
        "shooting",
        period="mid",
        firer="mg",
        range_cm=20,
        beaten_zone_index=3,
        dice=[6],
        variants={"beaten-zone-penalty": "flat"},
    )
    assert [m.value for m in flat.evaluation.modifiers] == [-1]
    with pytest.raises(RulesError) as err:
        resolve("shooting", period="mid", firer="infantry", range_cm=20, beaten_zone_index=1, dice=[6])
    assert err.value.field == "beaten_zone_index"


def test_other_direct_fire_modifiers() -> None:
    # "-2 Field Artillery over open sights 150-200cm", "-1 ... 100-150cm"
    assert (
        resolve("shooting", period="early", firer="field-gun", range_cm=160, dice=[6]).evaluation.total == 4
    )
    assert (
        resolve("shooting", period="early", firer="field-gun", range_cm=120, dice=[6]).evaluation.total == 5
    )
    assert (
        resolve("shooting", period="early", firer="field-gun", range_cm=201, dice=[6]).evaluation.key
        == "out-of-range"
    )
    assert (
        resolve(
            "shooting", period="early", firer="field-gun", range_cm=500, indirect=True, dice=[6]
        ).evaluation.total
        == 6
    )
    # "Firing at Command Stands", "Raw Troops", "Firers in GAS cloud": -1 each (playsheets)
    res = resolve(
        "shooting",
        period="late",
        firer="infantry",
        range_cm=20,
        target_is_command=True,
        firer_raw=True,
        firer_in_gas=True,
        dice=[6],
    )
    assert res.evaluation.total == 3
    main = resolve(
        "shooting",
        period="late",
        firer="infantry",
        range_cm=20,
        firer_raw=True,
        dice=[6],
        variants={"raw-firer-penalty": "main-text"},
    )
    assert main.evaluation.total == 6
    # Barrage: -2, uphill -1 instead (default) or -3 in all (variant).
    assert (
        resolve(
            "shooting", period="late", firer="infantry", range_cm=20, through_barrage=True, dice=[6]
        ).evaluation.total
        == 4
    )
    assert (
        resolve(
            "shooting",
            period="late",
            firer="infantry",
            range_cm=20,
            through_barrage=True,
            barrage_uphill=True,
            dice=[6],
        ).evaluation.total
        == 5
    )
    assert (
        resolve(
            "shooting",
            period="late",
            firer="infantry",
            range_cm=20,
            through_barrage=True,
            barrage_uphill=True,
            dice=[6],
            variants={"barrage-uphill": "cumulative"},
        ).evaluation.total
        == 3
    )
    # "(does NOT include indirect fire MGs)"
    assert (
        resolve(
            "shooting", period="late", firer="mg", range_cm=50, indirect=True, through_barrage=True, dice=[6]
        ).evaluation.total
        == 6
    )
    # Cavalry dismounted: -1; partial template -2; light tank moved and fired -1.
    assert resolve("shooting", period="early", firer="cavalry", range_cm=20, dice=[6]).evaluation.total == 5
    assert (
        resolve(
            "shooting",
            period="mid",
            firer="heavy-artillery",
            range_cm=50,
            indirect=True,
            partial_template=True,
            dice=[6],
        ).evaluation.total
        == 4
    )
    assert (
        resolve(
            "shooting", period="late", firer="light-tank", range_cm=20, moved_and_fired=True, dice=[6]
        ).evaluation.total
        == 5
    )
    # "British Heavy Tank (male) ... May NOT Move and fire."
    assert (
        resolve(
            "shooting", period="late", firer="heavy-tank", range_cm=20, moved_and_fired=True, dice=[6]
        ).evaluation.key
        == "not-possible"
    )


def test_natural_one_and_auto() -> None:
    # "a roll of 1 on the die is always a failure no matter what factors may be applied"
    res = resolve("shooting", period="late", firer="infantry", range_cm=3, cover="open", dice=[1])
    assert res.evaluation.total == 3 and res.evaluation.key == "no-effect"
    # "... except in the case of troops in the open caught by Super Heavy Artillery." (Auto)
    auto = resolve(
        "shooting", period="late", firer="super-heavy-artillery", range_cm=50, indirect=True, dice=[1]
    )
    assert auto.evaluation.key == "suppressed"
    assert auto.probabilities == {"suppressed": pytest.approx(1 / 6), "killed": pytest.approx(5 / 6)}


def test_ranges() -> None:
    assert (
        resolve("shooting", period="late", firer="mg", range_cm=70, dice=[6]).evaluation.key != "out-of-range"
    )
    assert (
        resolve("shooting", period="late", firer="mg", range_cm=71, dice=[6]).evaluation.key == "out-of-range"
    )
    assert (
        resolve("shooting", period="late", firer="infantry", range_cm=46, dice=[6]).evaluation.key
        == "out-of-range"
    )
    assert (
        resolve("shooting", period="late", firer="light-mortar", range_cm=9, dice=[6]).evaluation.key
        == "out-of-range"
    )
    assert (
        resolve("shooting", period="late", firer="light-mortar", range_cm=101, dice=[6]).evaluation.key
        == "out-of-range"
    )
    assert (
        resolve("shooting", period="late", firer="flamethrower", range_cm=6, dice=[6]).evaluation.key
        == "out-of-range"
    )
    # Block houses: 45 cm (BLOCK HOUSES) by default, 50 cm (WEAPON RANGES) as a variant.
    assert (
        resolve("shooting", period="mid", firer="blockhouse", range_cm=48, dice=[6]).evaluation.key
        == "out-of-range"
    )
    assert (
        resolve(
            "shooting",
            period="mid",
            firer="blockhouse",
            range_cm=48,
            dice=[6],
            variants={"blockhouse-range": "weapon-ranges"},
        ).evaluation.key
        != "out-of-range"
    )
    # Long Range Marksmanship: "BEF troops up to Spring 1915 have a maximum range of 60cm."
    lrm = resolve(
        "shooting",
        period="early",
        firer="infantry",
        range_cm=60,
        special_rule="long-range-marksmanship",
        dice=[6],
    )
    assert lrm.evaluation.key == "killed"


def test_two_dice_for_lmg_units_and_the_mad_minute() -> None:
    # "they attack as infantry but fire twice"; Mad Minute: "roll twice for effect".
    res = resolve(
        "shooting", period="mid", firer="lmg-unit", cover="soft", range_cm=20, dice=[5, 5]
    ).as_dict()
    assert res["outcome"] == "suppressed" and res["suppression_markers"] == 2
    mm = resolve(
        "shooting",
        period="early",
        firer="infantry",
        cover="soft",
        range_cm=20,
        special_rule="mad-minute",
        dice=[2, 6],
    )
    assert mm.evaluation.key == "killed"
    # P(at least one 6 of two dice) = 11/36 in soft cover (kill 6); suppress on a 5 otherwise: 1 - 11/36 - 16/36.
    assert mm.probabilities["killed"] == pytest.approx(11 / 36)
    assert mm.probabilities["no-effect"] == pytest.approx(16 / 36)
    with pytest.raises(RulesError) as err:
        resolve(
            "shooting", period="mid", firer="infantry", range_cm=20, special_rule="mad-minute", dice=[2, 6]
        )
    assert err.value.field == "special_rule"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"period": "early", "firer": "heavy-tank", "range_cm": 10}, "firer"),
        ({"period": "early", "firer": "blockhouse", "range_cm": 10}, "firer"),
        ({"period": "early", "firer": "infantry", "cover": "fortified", "range_cm": 10}, "cover"),
        ({"period": "early", "firer": "infantry", "target": "armour", "range_cm": 10}, "target"),
        (
            {"period": "mid", "firer": "infantry", "target": "armour", "cover": "soft", "range_cm": 10},
            "cover",
        ),
        ({"period": "mid", "firer": "infantry", "cover": "cover", "range_cm": 10}, "cover"),
        ({"period": "mid", "firer": "infantry", "range_cm": 10, "anti_tank_rifle": True}, "anti_tank_rifle"),
        ({"period": "mid", "firer": "infantry", "range_cm": 10, "indirect": True}, "indirect"),
        (
            {"period": "mid", "firer": "infantry", "range_cm": 10, "partial_template": True},
            "partial_template",
        ),
        ({"period": "mid", "firer": "mg", "range_cm": 10, "moved_and_fired": True}, "moved_and_fired"),
        ({"period": "mid", "firer": "mg", "range_cm": 10, "barrage_uphill": True}, "barrage_uphill"),
    ],
)
def test_refusals(body: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as err:
        resolve("shooting", dice=[4], **body)
    assert err.value.field == field


def test_early_fills_missing_rows_from_the_main_text() -> None:
    # Main text "Flame Thrower 5 6 4 5 3 4 3 5 3 5": soft cover suppress 4, kill 5.
    out = resolve(
        "shooting", period="early", firer="flamethrower", cover="soft", range_cm=4, dice=[4]
    ).as_dict()
    assert out["thresholds"] == {"suppress": 4, "kill": 5}
    with pytest.raises(RulesError) as err:
        resolve(
            "shooting",
            period="early",
            firer="flamethrower",
            range_cm=4,
            dice=[4],
            variants={"early-firers-not-on-playsheet": "unavailable"},
        )
    assert err.value.field == "firer"


def test_mid_firing_table_variant_uses_the_late_gas_row() -> None:
    # Mid printed "Gas ... 4 5" in medium cover; late "4 6".
    assert (
        resolve("shooting", period="mid", firer="gas", cover="medium", range_cm=0, dice=[4]).as_dict()[
            "thresholds"
        ]["kill"]
        == 5
    )
    late = resolve(
        "shooting",
        period="mid",
        firer="gas",
        cover="medium",
        range_cm=0,
        dice=[4],
        variants={"mid-firing-table": "late-table"},
    )
    assert late.as_dict()["thresholds"]["kill"] == 6


def test_suppression_by_mg_spreads_to_the_company() -> None:
    out = resolve("shooting", period="mid", firer="mg", cover="soft", range_cm=20, dice=[4]).as_dict()
    assert out["outcome"] == "suppressed" and out["spreads_to_company"] is True
    rifle = resolve("shooting", period="mid", firer="infantry", cover="open", range_cm=20, dice=[3]).as_dict()
    assert rifle["spreads_to_company"] is False


def test_firing_and_armour_datasets() -> None:
    for period, table in (("early", EARLY), ("mid", MID), ("late", LATE)):
        data = FF.data("firing-table", period)
        assert data["source"] and all(r["source"] for r in data["rows"])
        assert len(data["columns"]) == (4 if period == "early" else 5)
        rows = {r["id"]: r for r in data["rows"]}
        mg_cells = rows["mg"]["cells"]
        assert [str(mg_cells[c]["suppress"]) for c in COVERS[:4]] == table["mg"].split()[0:8:2]
    armour = FF.data("armour-table")
    assert armour["source"] and len(armour["rows"]) == 9
