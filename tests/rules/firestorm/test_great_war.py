"""Firestorm rules for the Great War games, against the seed text (000_97bbe3b944bc88f9.txt): mission selection,
trench HMG nests, night/Dusk/Dawn and the roll for nightfall, historical tank limits, points instead of troops,
and Out of Supply with its lost dice as an erratum."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.core.dice import exact_distribution
from rules.core.errors import RulesError
from rules.firestorm.data import BATTLES, FIXED_ATTACKS, TROOP_BY_ID, TROOPS
from rules.firestorm.great_war import (
    BattleAreasRequest,
    BattleLightRequest,
    DuskRequest,
    HistoricalTanksRequest,
    OutOfSupplyRequest,
    TroopPointsRequest,
    battle_light,
    dusk_dice,
    mission_for,
)
from rules.firestorm.great_war_data import (
    HISTORICAL_TANKS_IN_BATTLE,
    POINTS_CARDS,
    TANK_ALLOWANCES,
)
from rules.registry import get_ruleset

RS = get_ruleset("firestorm-villers-bretonneux")


def resolve(resolver: str, req: Any) -> dict[str, Any]:
    return RS.resolve(resolver, req).as_dict()


def refused(resolver: str, req: Any) -> RulesError:
    with pytest.raises(RulesError) as e:
        RS.resolve(resolver, req)
    return e.value


# -- missions ----------------------------------------------------------------------------------------------------
def test_turn_1_fixed_attacks_are_the_big_push() -> None:
    # "D-2 attacks C-3 / D-3 attacks C-4 / C-5 attacks B-4 / All these missions are played as The Big Push"
    for i, (src, dst) in enumerate(FIXED_ATTACKS):
        out = resolve(
            "mission",
            BattleAreasRequest(turn=1, battle=i + 1, attacker="german", from_area=src, to_area=dst),
        )
        assert out["outcome_key"] == "the-big-push"
        assert out["defender_hmg_nests"] == 1  # gassed: "1 HMG nest instead of 2"


@pytest.mark.parametrize(
    ("attacker", "src", "dst", "mission", "clause"),
    [
        # "When attacking from your trench into an enemy trench you should play The Big Push."
        ("german", "D-2", "C-3", "the-big-push", "from your trench into an enemy trench"),
        # (a) "Here the Germans attack from the captured enemy trenches at C-3 into C-2."
        ("german", "C-3", "C-2", "through-the-mud-and-blood", "attacking from an enemy trench"),
        # (b) "When attacking an enemy trench from any other area than your own initial trenches."
        ("german", "C-2", "C-3", "through-the-mud-and-blood", "from any other area"),
        # (c) "Here the British player attempts to recapture a trench from the Germans."
        ("bef", "B-3", "C-3", "through-the-mud-and-blood", "a trench you started with but have then lost"),
        # "For all other missions play The Green Fields Beyond."
        ("german", "B-3", "B-2", "the-green-fields-beyond", "For all other missions"),
        ("bef", "B-1", "B-2", "the-green-fields-beyond", "For all other missions"),
    ],
)
def test_mission_clauses(attacker: Any, src: str, dst: str, mission: str, clause: str) -> None:
    key, why = mission_for(attacker, src, dst)
    assert key == mission and clause in why


def test_mission_answer_says_what_changes() -> None:
    out = resolve(
        "mission", BattleAreasRequest(turn=3, battle=1, attacker="bef", from_area="B-1", to_area="B-2")
    )
    # "there can be no tanks during the night ... and the German forces start the game pinned down."
    assert "no tanks during the night" in out["changes"]
    assert "the German forces start the game pinned down" in out["changes"]
    # "This supersedes any other special rules including forces that normally Always Attack or Always Defend."
    assert any("Always Attack or Always Defend" in c for c in out["changes"])
    assert out["probabilities"] == {"the-green-fields-beyond": 1.0}


def test_mission_refuses_what_the_turn_does_not_allow() -> None:
    # "The German player is automatically the attacker in all four battles"
    assert refused(
        "mission", BattleAreasRequest(turn=1, attacker="bef", from_area="C-3", to_area="D-2")
    ).field == ("attacker")
    # The fixed first attacks.
    err = refused(
        "mission", BattleAreasRequest(turn=1, battle=1, attacker="german", from_area="D-3", to_area="C-4")
    )
    assert err.field == "to_area"
    # Not adjacent on the (reconstructed) map.
    err = refused("mission", BattleAreasRequest(turn=2, attacker="german", from_area="E-1", to_area="A-1"))
    assert err.field == "to_area"


# -- trench HMG nests ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("turn", "attacker", "src", "dst", "nests"),
    [
        # "If your trenches are attacked from trenches that started in enemy control you get two HMG nests."
        (2, "german", "D-2", "C-3", 2),
        (2, "bef", "C-3", "D-2", 2),
        # "If your trenches are attacked from any other area you only get one."
        (2, "german", "C-2", "C-3", 1),
        # "You get no bonus for defending in trenches you have captured from the enemy."
        (2, "bef", "B-3", "C-3", 0),
        # Not a trench.
        (2, "german", "B-3", "B-2", 0),
        # Gas, turn 1: "one HMG nest instead of two. In case a British trench line is attacked from the side or
        # rear the British keep the single HMG nest."
        (1, "german", "D-2", "C-3", 1),
        (1, "german", "C-2", "C-3", 1),
    ],
)
def test_trench_hmg_nests(turn: int, attacker: Any, src: str, dst: str, nests: int) -> None:
    out = resolve(
        "trench-hmg-nests", BattleAreasRequest(turn=turn, attacker=attacker, from_area=src, to_area=dst)
    )
    assert out["outcome"]["hmg_nests"] == nests
    # "BOTH SIDES, TRENCH DEFENCE N/A HMG Nest": no points value.
    assert out["points"] is None


# -- light, Dusk and Dawn ------------------------------------------------------------------------------------------
def test_light_schedule_of_the_optional_rule() -> None:
    # "Turn 1 is all in daylight. Fight the last battle in turn 2 using the rules for Dusk. After fighting the
    # two night time battles on turn 3, play the first battle using the rules for Dawn and the last for Dusk and
    # the first battle on turn 4 with Dawn and the last with Dusk."
    schedule = {t: [battle_light(t, b, True) for b in range(1, n + 1)] for t, n in BATTLES.items()}
    assert schedule == {
        1: ["daylight"] * 4,
        2: ["daylight"] * 4 + ["dusk"],
        3: ["night", "night", "dawn", "daylight", "dusk"],
        4: ["dawn", "daylight", "dusk"],
    }
    # Without the option only the turn 3 night battles differ ("Start by playing two Night Fight battles").
    assert [battle_light(3, b, False) for b in range(1, 6)] == ["night", "night"] + ["daylight"] * 3
    out = resolve("battle-light", BattleLightRequest(turn=4, battle=1))
    assert out["outcome_key"] == "dawn" and "page 208" in out["rules"][0]
    assert refused("battle-light", BattleLightRequest(turn=4, battle=4)).field == "battle"


def test_dusk_dice_count() -> None:
    # "At the start of the Defender's third turn, roll a die ... at the start of the Attacker's turn four, they
    # roll two dice ... If it is still light at the start of the Defender's next turn, they roll three dice"
    assert dusk_dice("defender", 3) == 1
    assert dusk_dice("attacker", 4) == 2
    assert dusk_dice("defender", 4) == 3
    assert dusk_dice("attacker", 5) == 4


@pytest.mark.parametrize(("player", "game_turn"), [("defender", 3), ("attacker", 4), ("defender", 4)])
def test_dusk_odds_are_exact(player: Any, game_turn: int) -> None:
    # "night falls on any roll of 5+": the closed form agrees with enumerating every roll.
    req = DuskRequest(turn=2, battle=5, player=player, game_turn=game_turn)
    out = RS.resolve("dusk", req)
    n = dusk_dice(player, game_turn)
    brute = exact_distribution((6,) * n, lambda d: "night falls" if max(d) >= 5 else "still light")
    assert out.probabilities == brute
    assert brute["night falls"] == 1 - Fraction(2, 3) ** n


def test_dusk_rolls() -> None:
    # "On a score of 5+, night has fallen."
    assert resolve("dusk", DuskRequest(turn=2, player="defender", game_turn=3, dice=[5]))["outcome_key"] == (
        "night falls"
    )
    assert resolve("dusk", DuskRequest(turn=2, player="defender", game_turn=3, dice=[4]))["outcome_key"] == (
        "still light"
    )
    assert resolve("dusk", DuskRequest(turn=4, player="attacker", game_turn=4, dice=[1, 6]))[
        "outcome_key"
    ] == ("night falls")


def test_dusk_refuses_turns_and_battles_that_are_not_dusk() -> None:
    # "Turn 1 is all in daylight."
    err = refused("dusk", DuskRequest(turn=1, player="defender", game_turn=3))
    assert err.field == "turn" and err.allowed == [2, 3, 4]
    # "Fight the last battle in turn 2 using the rules for Dusk."
    err = refused("dusk", DuskRequest(turn=2, battle=4, player="defender", game_turn=3))
    assert err.field == "battle" and err.allowed == [5]
    # "At the start of the Defender's third turn" is the first roll.
    assert refused("dusk", DuskRequest(turn=2, player="attacker", game_turn=3)).field == "game_turn"
    assert refused("dusk", DuskRequest(turn=2, player="defender", game_turn=2)).field == "game_turn"


# -- historical tank limits -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("troop", "line", "base", "max_extra", "points"),
    [
        (
            "group-i",
            "Group I Skopnik (1x A7V tank) • You may add up to 2x A7V tanks for 19 points each.",
            1,
            2,
            19,
        ),
        (
            "group-ii",
            "Group II Uihlein (1x A7V tank) • You may add up to 3x A7V tanks for 19 points each.",
            1,
            3,
            19,
        ),
        (
            "group-iii",
            "Group III Steinhardt (1x A7V tank) • You may add up to 5x A7V tanks for 19 points each.",
            1,
            5,
            19,
        ),
        (
            "a-coy-mitchell",
            "No 1 – A Coy Mitchell (1x Green Mark IV male tank) • You may add up to 2x",
            1,
            2,
            13,
        ),
        (
            "a-coy-grove",
            "A Coy Grove (1x Green Mark IV male tank) • You may add up to 1x Mark IV female",
            1,
            1,
            13,
        ),
        (
            "x-coy-price",
            "X Coy Price (2x Green Mark A Whippets) • You may add 5x Whippets for 9 points each.",
            2,
            5,
            9,
        ),
    ],
)
def test_tank_allowances(troop: str, line: str, base: int, max_extra: int, points: int) -> None:
    a = TANK_ALLOWANCES[troop]
    assert line in a.printed
    assert (a.base_tanks, a.max_extra, a.points_each) == (base, max_extra, points)
    out = resolve("historical-tanks", HistoricalTanksRequest(turn=1, troop=troop, extra_tanks=max_extra))
    assert out["outcome"] == {"tanks": base + max_extra, "extra_points": max_extra * points}
    err = refused("historical-tanks", HistoricalTanksRequest(turn=1, troop=troop, extra_tanks=max_extra + 1))
    assert err.field == "extra_tanks" and max(err.allowed or []) == max_extra


def test_the_limits_add_up_to_the_battles_tanks() -> None:
    # "there were only a total of 25 tanks that took part in the entire battle"
    total = sum(a.base_tanks + a.max_extra for a in TANK_ALLOWANCES.values())
    assert total == HISTORICAL_TANKS_IN_BATTLE == 25


def test_no_tanks_on_turns_3_and_4() -> None:
    # "This would mean that in turns 3 and 4 there are no tanks available."
    err = refused("historical-tanks", HistoricalTanksRequest(turn=3, troop="group-i"))
    assert err.field == "turn" and err.allowed == [1, 2]
    assert (
        refused("historical-tanks", HistoricalTanksRequest(turn=1, battle=5, troop="group-i")).field
        == "battle"
    )


def test_whippets_erratum() -> None:
    # "You may add 5x Whippets for 9 points each": up to five by default, five or none as the variant.
    assert resolve("historical-tanks", HistoricalTanksRequest(turn=2, troop="x-coy-price", extra_tanks=3))[
        "outcome"
    ] == {"tanks": 5, "extra_points": 27}
    err = refused(
        "historical-tanks",
        HistoricalTanksRequest(
            turn=2, troop="x-coy-price", extra_tanks=3, variants={"whippet-extras": "five-or-none"}
        ),
    )
    assert err.field == "extra_tanks" and err.allowed == [0, 5]


# -- points instead of troops ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "line", "points"),
    [
        ("a7v", "17 POINTS Group I, II and III.", 17),
        ("stoss", "17 POINTS 5 Guard Grenadier Regiment (4 Guards Div) and 257 RIR (77 Reserve Div)", 17),
        (
            "jager",
            "13 POINTS 48 RIR (228 Div), 93 RIR (4 Guards), 207 RIR (228 Div) and 478 RIR (243 Div)",
            13,
        ),
        ("infanterie", "9 POINTS 419 RIR (77 Reserve Div)", 9),
        ("jager-mg", "9 POINTS MG Abt 4G and MG Abt 228", 9),
        ("mark-iv", "15 POINTS No 1 and No 2 Sections of A Company", 15),
        ("whippets", "16 points X Company", 16),
        ("aif", "13 POINTS 13th, 14th and 15th Bde AIF", 13),
        ("line", "10 POINTS 23rd, 24th, 25th (8th Division) and 173 Bde (58th Division) BEF", 10),
        ("58-bn-mgc", "13 POINTS 58 Bn MGC", 13),
    ],
)
def test_points_cards(card: str, line: str, points: int) -> None:
    c = POINTS_CARDS[card]
    assert c.printed == line and c.points == points
    assert all(TROOP_BY_ID[t].points == points and TROOP_BY_ID[t].side == c.side for t in c.troops)


def test_every_firestorm_troop_has_one_card() -> None:
    carded = [t for c in POINTS_CARDS.values() for t in c.troops]
    assert sorted(carded) == sorted(t.id for t in TROOPS)


def test_points_added_to_the_force() -> None:
    # "So instead of the Unit listed you may add points to your Force."
    out = resolve(
        "troop-points", TroopPointsRequest(force_points=100, first_troop="stoss", second_troop="a7v")
    )
    assert out["outcome"] == {"force_points": 134, "added_points": 34}
    err = refused(
        "troop-points", TroopPointsRequest(force_points=100, first_troop="stoss", second_troop="aif")
    )
    assert err.field == "second_troop" and "aif" not in (err.allowed or [])


# -- Out of Supply -------------------------------------------------------------------------------------------------
def test_out_of_supply_effects_and_odds() -> None:
    # "Roll a D6 and consult the Out of Supply table." The effects' dice were lost: the default reading.
    out = RS.resolve("out-of-supply", OutOfSupplyRequest(dice=[1]))
    assert out.probabilities == {
        "morale reduced": Fraction(1, 3),
        "strength reduced": Fraction(1, 3),
        "no effect": Fraction(1, 6),
        "one motivational level higher": Fraction(1, 6),
    }
    other = RS.resolve(
        "out-of-supply", OutOfSupplyRequest(variants={"out-of-supply-table": "no-effect-likely"})
    )
    assert other.probabilities["no effect"] == Fraction(1, 2)


def test_morale_reduced() -> None:
    # "Fearless become confident, confident become Reluctant and Reluctant Platoons only pass a Motivation Test
    # on a roll of 6."
    for motivation, after in (
        ("fearless", "confident"),
        ("confident", "reluctant"),
        ("reluctant", "roll of 6"),
    ):
        out = resolve("out-of-supply", OutOfSupplyRequest(motivation=motivation, dice=[1]))
        assert out["outcome_key"] == "morale reduced" and after in out["outcome"]["motivation"]


def test_one_level_higher() -> None:
    # "Reluctant become Confident, Confident become Fearless and Fearless pass all Motivation Tests on a roll of 2+."
    for motivation, after in (
        ("reluctant", "confident"),
        ("confident", "fearless"),
        ("fearless", "roll of 2+"),
    ):
        out = resolve("out-of-supply", OutOfSupplyRequest(motivation=motivation, dice=[6]))
        assert out["outcome_key"] == "one motivational level higher" and after in out["outcome"]["motivation"]


def test_strength_reduced() -> None:
    # "if you would have fielded a 1250 point force, you now have only 1000 points ... Firestorm Troops are not
    # affected."
    out = resolve("out-of-supply", OutOfSupplyRequest(force_points=1250, dice=[3]))
    assert out["outcome_key"] == "strength reduced"
    assert out["outcome"]["force_points"] == 1000 and out["firestorm_troops_affected"] is False
    # The text is silent on totals that do not divide: an erratum, rounding the force down by default.
    assert (
        resolve("out-of-supply", OutOfSupplyRequest(force_points=1337, dice=[3]))["outcome"]["force_points"]
        == 1069
    )
    up = OutOfSupplyRequest(
        force_points=1337, dice=[3], variants={"out-of-supply-strength-rounding": "force-up"}
    )
    assert resolve("out-of-supply", up)["outcome"]["force_points"] == 1070
    # "Any Firestorm Troop that is destroyed while Out of Supply is considered to be captured"
    assert out["destroyed_firestorm_troops_are_captured"] is True


def test_out_of_supply_erratum_lists_both_readings() -> None:
    e = RS.errata["out-of-supply-table"]
    assert {r.id for r in e.readings} == {
        "penalty-likely",
        "no-effect-likely",
    } and e.default == "penalty-likely"
    # The four effects, in the order printed, are in every reading.
    for r in e.readings:
        order = list(dict.fromkeys(r.value))
        assert order == ["morale reduced", "strength reduced", "no effect", "one motivational level higher"]
        assert "Check for Supply" in r.source
