"""Movement distances against the playsheets' and main text's MOVEMENT DISTANCES tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.flanders_fields.resolvers import movement as mv
from rules.flanders_fields.resolvers.movement import (
    MOVERS,
    TERRAINS,
    MovementRequest,
    crossing_actions,
    limber_actions,
    move_allowance_cm,
)
from rules.flanders_fields.ruleset import FlandersFields

PERIODS = ("early", "mid", "late")


# Playsheets, all three periods (TERRAIN INFANTRY CAVALRY FIELD ARTILLERY TANKS MOTORS):
#   "Cross Country 20cm 30cm 20cm 15cm 5"
#   "Road (Troops must be in marching columns) 25cm 35cm 35cm 20cm 40"
#   "Close Terrain (Woods, BuA, Marsh etc unless on road) 10cm 15cm 10cm 10cm No"
#   "Moving along trench line 10cm No No 10cm No"
PLAYSHEET = {
    "cross-country": (20, 30, 20, 15, 5),
    "road": (25, 35, 35, 20, 40),
    "close": (10, 15, 10, 10, None),
    "trench": (10, None, None, 10, None),
}
# Main text (INFANTRY CAVALRY FIELD ARTILLERY TANKS):
#   "Cross Country – Shell Torn Ground  (See below) 15cm 20cm 10cm 10cm"
#   "Cross Country – Shattered Ground (See below) 10cm 10cm 5cm 5cm"
MAIN = {"shell-torn": (15, 20, 10, 10), "shattered": (10, 10, 5, 5)}
COLUMNS = ("infantry", "cavalry", "field-artillery", "tank", "motor")


@pytest.mark.parametrize("period", PERIODS)
@pytest.mark.parametrize("terrain", list(PLAYSHEET))
def test_playsheet_rows(period: str, terrain: str) -> None:
    got = tuple(move_allowance_cm(period, m, terrain) for m in COLUMNS)
    assert got == PLAYSHEET[terrain]


@pytest.mark.parametrize("period", PERIODS)
@pytest.mark.parametrize("terrain", list(MAIN))
def test_main_text_broken_ground(period: str, terrain: str) -> None:
    assert tuple(move_allowance_cm(period, m, terrain) for m in COLUMNS[:4]) == MAIN[terrain]
    # Motors have no entry there: erratum move-motor-broken-ground, default no passage.
    assert move_allowance_cm(period, "motor", terrain) is None
    assert (
        move_allowance_cm(
            period, "motor", terrain, variants={"move-motor-broken-ground": "cross-country-pace"}
        )
        == 5
    )


def test_close_terrain_infantry_erratum() -> None:
    # Main text: "Close Terrain (Woods, BuA, Marsh etc unless on road) 15cm 15cm 10cm 10"
    assert move_allowance_cm("mid", "infantry", "close") == 10
    assert move_allowance_cm("mid", "infantry", "close", variants={"move-close-infantry": "main-text"}) == 15
    erratum = FlandersFields().errata["move-close-infantry"]
    assert erratum.default == "playsheet"


def test_streams_and_rivers() -> None:
    # "Streams – Requires 1 specific Action 1 Action 1 Action No passage 1 Order"
    assert [crossing_actions("mid", m, "stream") for m in COLUMNS] == [1, 1, None, 1, None]
    # "Rivers – Requires 3specific orders ... 3 Actions 3 Actions No passage No passage"
    assert [crossing_actions("mid", m, "river") for m in COLUMNS] == [3, 3, None, None, None]
    assert move_allowance_cm("mid", "field-artillery", "stream") is None
    assert move_allowance_cm("mid", "infantry", "river") == 0


def test_field_artillery_trench_crossing_erratum() -> None:
    # Playsheet "Moving along trench line 10cm No No 10cm No"; main "Along Trench Lines 10cm No 1 Action to Cross"
    assert crossing_actions("early", "field-artillery", "trench") is None
    v = {"move-trench-field-artillery": "main-text"}
    assert crossing_actions("early", "field-artillery", "trench", variants=v) == 1
    assert move_allowance_cm("early", "field-artillery", "trench", variants=v) is None


def test_bonuses() -> None:
    # "Light Tanks and Veteran infantry add 5cm"
    assert move_allowance_cm("early", "infantry", "cross-country", veteran=True) == 25
    assert move_allowance_cm("late", "tank", "shattered", light_tank=True) == 10
    # "A Storm Troop battalion are always classed as Veteran and as such moves faster (+5cm)"
    assert move_allowance_cm("late", "infantry", "road", storm=True) == 30
    assert move_allowance_cm("late", "infantry", "road", storm=True, veteran=True) == 30
    # no bonus where the mover may not pass
    assert move_allowance_cm("late", "tank", "river", light_tank=True) is None


def test_weapons_packed_manhandled_and_limbering() -> None:
    # "Machine Guns and Light Mortars move at Infantry pace if on mule/horse packs, half infantry speed if man
    # handled."
    for terrain in ("cross-country", "road", "shattered"):
        inf = move_allowance_cm("mid", "infantry", terrain)
        assert inf is not None
        assert move_allowance_cm("mid", "mg-packed", terrain) == inf
        assert move_allowance_cm("mid", "light-mortar-manhandled", terrain) == inf // 2
    # 15 / 2 = 7.5 rounds down by default (erratum move-manhandled-rounding)
    assert move_allowance_cm("mid", "mg-manhandled", "shell-torn") == 7
    assert (
        move_allowance_cm(
            "mid", "mg-manhandled", "shell-torn", variants={"move-manhandled-rounding": "round-up"}
        )
        == 8
    )
    # "Manhandling deployed Field Artillery 3cm"
    assert move_allowance_cm("mid", "field-artillery-manhandled", "cross-country") == 3
    assert move_allowance_cm("mid", "field-artillery-manhandled", "trench") is None
    # "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack."
    assert limber_actions("field-artillery") == 1 and limber_actions("mg-packed") == 1
    assert limber_actions("infantry") is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"mover": "cavalry", "veteran": True}, "veteran"),
        ({"mover": "mg-packed", "storm": True}, "storm"),
        ({"mover": "infantry", "storm": True, "period": "mid"}, "storm"),
        ({"mover": "infantry", "light_tank": True}, "light_tank"),
        ({"mover": "horse"}, "mover"),
        ({"terrain": "swamp"}, "terrain"),
        ({"period": "1914"}, "period"),
    ],
)
def test_refusals_name_the_field(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"period": "late", "mover": "infantry", "terrain": "road", **kwargs}
    with pytest.raises(RulesError) as err:
        move_allowance_cm(
            str(args.pop("period")),
            str(args.pop("mover")),
            str(args.pop("terrain")),
            **args,  # type: ignore[arg-type]
        )
    assert err.value.field == field
    assert err.value.allowed


@given(
    period=st.sampled_from(PERIODS),
    mover=st.sampled_from(MOVERS),
    terrain=st.sampled_from(TERRAINS),
)
def test_resolver_agrees_with_function(period: str, mover: str, terrain: str) -> None:
    req = MovementRequest(period=period, mover=mover, terrain=terrain)
    res = FlandersFields().resolve("movement", req)
    out = res.evaluation.outcome
    assert out["allowance_cm"] == move_allowance_cm(period, mover, terrain)
    assert out["crossing_actions"] == crossing_actions(period, mover, terrain)
    assert res.dice == () and res.probabilities == {res.evaluation.key: 1}
    assert (mover in out["may_not_pass"]) == (not out["may_pass"])
    # may-not-pass exactly when neither a distance nor a crossing is allowed
    assert (res.evaluation.key == "may-not-pass") == (
        out["allowance_cm"] is None and out["crossing_actions"] is None
    )


def test_resolver_answer_for_river_and_table_dataset() -> None:
    res = FlandersFields().resolve(
        "movement", MovementRequest(period="mid", mover="cavalry", terrain="river")
    )
    assert res.evaluation.key == "crossing"
    assert res.evaluation.outcome["crossing_actions"] == 3
    assert set(res.evaluation.outcome["may_not_pass"]) == {
        "field-artillery",
        "field-artillery-manhandled",
        "tank",
        "motor",
    }
    table = FlandersFields().data("movement-table", "late")
    assert table["terrain"]["road"]["motor"]["allowance_cm"] == 40
    assert table["bonuses_cm"]["veteran-infantry"] == mv.BONUS_CM == 5
