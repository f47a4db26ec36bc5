"""Vimy Ridge observation, zones of control and the trench hexside, set-up zones, divisional integrity, the
random support-fire draw, La Folie Woods and replacements, against the exclusive rules (quoted)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rules.core.dice import all_rolls
from rules.core.errors import RulesError
from rules.registry import get_ruleset
from rules.vimy_ridge.observation import ObservationRequest, TrenchAttackRequest, ZocRequest
from rules.vimy_ridge.resolvers import BombardmentRequest, TurnRequest
from rules.vimy_ridge.special import (
    AttackersRequest,
    ReplacementRequest,
    SetUpRequest,
    SupportFireRequest,
    drawn,
    parse_mix,
)

RS = get_ruleset("vimy-ridge")


def observe(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = RS.resolve("observation", ObservationRequest(**kw)).evaluation.outcome
    return out


# -- 17.3 Observation ------------------------------------------------------------------------------------
def test_adjacent_units_are_always_observed() -> None:
    # "An enemy unit is only observed if it is adjacent to an observing unit of the other (opponent's) side"
    out = observe(observing_side="german", distance_hexes=1, intervening={"woods": True}, turn=3)
    assert out["observed"] is True and out["because"] == ["adjacent to an observing unit"]


def test_line_of_sight_reaches_ten_hexes_at_most() -> None:
    # "Any line of sight (LOS) is a direction of one to 10 hexes (maximum)"
    assert observe(observing_side="allied", distance_hexes=10)["observed"] is True
    out = observe(observing_side="allied", distance_hexes=11)
    assert out["observed"] is False and "10 hexes" in out["no_line_of_sight_because"]


@pytest.mark.parametrize("terrain", ["woods", "town", "hill", "la_folie_farm", "peak"])
def test_non_clear_intervening_terrain_blocks(terrain: str) -> None:
    # "if that LOS is blocked by any non-clear intervening terrain type ... no LOS exists beyond"
    assert (
        observe(observing_side="allied", distance_hexes=4, intervening={terrain: True})["observed"] is False
    )


def test_rivers_and_trench_lines_never_block() -> None:
    # "(except rivers and trench lines, and disregarding the terrain in the observer's hex)"
    out = observe(observing_side="allied", distance_hexes=4, intervening={"river": True, "trench_line": True})
    assert out["observed"] is True


def test_night_line_of_sight_stops_at_the_adjacent_hex() -> None:
    # "Exception: No LOS exists beyond an adjacent hex during any night game turn." Turn 3 is an Evening.
    assert observe(observing_side="german", distance_hexes=2, turn=3)["observed"] is False
    assert observe(observing_side="german", distance_hexes=2, turn=2)["observed"] is True


def test_a_peak_sees_over_everything_but_another_peak_and_a_hill_does_not() -> None:
    # "an observing unit that occupies a peak (but not a hill) hex ignores all intervening terrain, except
    # another peak hex ... a unit on a hill hex that is not a peak cannot observe past any woods hex"
    busy = {"woods": True, "town": True, "hill": True, "no_mans_land": True}
    assert observe(observing_side="german", distance_hexes=7, observer_on="peak", intervening=busy)[
        "observed"
    ]
    assert not observe(
        observing_side="german", distance_hexes=7, observer_on="peak", intervening={"peak": True}
    )["observed"]
    assert not observe(
        observing_side="german", distance_hexes=7, observer_on="hill", intervening={"woods": True}
    )["observed"]


def test_allied_aircraft_observe_regardless_of_terrain_and_only_for_the_allies() -> None:
    # "the placement hex and all adjacent hexes are considered "observed" regardless of terrain."
    out = observe(
        observing_side="allied",
        distance_hexes=30,
        intervening={"woods": True},
        aircraft_over_or_adjacent=True,
    )
    assert out["observed"] is True
    with pytest.raises(RulesError) as e:
        observe(observing_side="german", distance_hexes=3, aircraft_over_or_adjacent=True)
    assert e.value.field == "aircraft_over_or_adjacent"


def test_no_mans_land_erratum_both_readings() -> None:
    # "A "No Man's Land" hex is not considered a clear terrain hex."
    assert (
        observe(observing_side="allied", distance_hexes=3, intervening={"no_mans_land": True})["observed"]
        is False
    )
    out = observe(
        observing_side="allied",
        distance_hexes=3,
        intervening={"no_mans_land": True},
        variants={"los-no-mans-land": "does-not-block"},
    )
    assert out["observed"] is True


# -- 14.2 trench lines -------------------------------------------------------------------------------------
def test_trench_hexside_inhibits_zoc_into_an_opposing_units_hex() -> None:
    # "A trench line has the effect of inhibiting any enemy Zone of Control across that trench hexside into a
    # hex that is occupied by an opposing unit."
    def zoc(across: bool, occupied: bool) -> bool:
        r = RS.resolve(
            "zone-of-control", ZocRequest(across_trench_hexside=across, hex_holds_opposing_unit=occupied)
        )
        return bool(r.evaluation.outcome["zone_of_control_extends"])

    assert zoc(True, True) is False
    assert zoc(True, False) is True and zoc(False, True) is True and zoc(False, False) is True


def test_attack_across_a_trench_uses_the_trench_line_else_the_hex_terrain() -> None:
    # "When any attack is directed across an enemy trench hexside, the attack must be resolved via the trench
    # terrain line ... If a unit is attacked from another direction ... use the terrain line ... corresponding
    # to the other terrain in that same hex."
    across = RS.resolve("trench-hexside", TrenchAttackRequest(across_trench_hexside=True, hex_terrain="town"))
    assert across.evaluation.outcome["crt_line"] == "Trench hexside, Woods"
    other = RS.resolve("trench-hexside", TrenchAttackRequest(across_trench_hexside=False, hex_terrain="town"))
    assert other.evaluation.outcome["crt_line"] == "Town, Hill, La Folie Farm"
    # "no unit that is attacked whilst present there is ever advantaged by a trench line" (14.1)
    with pytest.raises(RulesError) as e:
        RS.resolve(
            "trench-hexside", TrenchAttackRequest(across_trench_hexside=True, defender_in_no_mans_land=True)
        )
    assert e.value.field == "across_trench_hexside"


# -- set-up -----------------------------------------------------------------------------------------------
def set_up(**kw: Any) -> None:
    RS.resolve("set-up", SetUpRequest(**kw))


def test_set_up_zones() -> None:
    # "The Allied player may set up all of his units in any hexes west of the Allied trench line, one Allied
    # unit per hex. No Allied unit may be set up north of the river hex line."
    set_up(side="allied", trench_line_side="west")
    for kw, field in [
        ({"side": "allied", "trench_line_side": "east"}, "trench_line_side"),
        (
            {"side": "allied", "trench_line_side": "west", "north_of_river_line": True},
            "north_of_river_line",
        ),
        ({"side": "allied", "trench_line_side": "west", "hex_occupied": True}, "hex_occupied"),
        # "The German player must set up all of his units before the Allied player."
        (
            {"side": "allied", "trench_line_side": "west", "german_still_setting_up": True},
            "german_still_setting_up",
        ),
        # "provided that no German unit is set up west of the Allied trench hexside line"
        (
            {"side": "german", "trench_line_side": "west", "german_division": "79th Reserve"},
            "trench_line_side",
        ),
    ]:
        with pytest.raises(RulesError) as e:
            set_up(**kw)
        assert e.value.field == field


def test_german_divisions_north_to_south() -> None:
    # "the German division must be set up with the 16th Division to the north, the 79th Division in the
    # middle, and the 1st Division to the south"
    set_up(
        side="german",
        trench_line_side="east",
        german_division="79th Reserve",
        units_north_16th_bavarian=True,
        units_south_1st_bavarian_reserve=True,
    )
    with pytest.raises(RulesError) as e:
        set_up(
            side="german",
            trench_line_side="east",
            german_division="79th Reserve",
            units_north_1st_bavarian_reserve=True,
        )
    assert e.value.field == "units_north_1st_bavarian_reserve"
    with pytest.raises(RulesError) as e:
        set_up(
            side="german",
            trench_line_side="east",
            german_division="1st Bavarian Reserve",
            units_south_16th_bavarian=True,
        )
    assert e.value.field == "units_south_16th_bavarian"


# -- 18.3 divisional integrity -----------------------------------------------------------------------------
def test_only_one_division_attacks_together() -> None:
    # "Only units of the same division ... may ever participate in the same attack upon the same enemy unit."
    ok = RS.resolve("divisional-integrity", AttackersRequest(attacking_units=3, divisions_among_attackers=1))
    assert ok.evaluation.outcome["allowed"] is True
    with pytest.raises(RulesError) as e:
        RS.resolve("divisional-integrity", AttackersRequest(attacking_units=3, divisions_among_attackers=2))
    assert e.value.field == "divisions_among_attackers" and e.value.allowed == [1]


# -- 16.0 / 8.1 the random support fire draw, and 18.2 ------------------------------------------------------
def brute_force_draw(mix: tuple[int, ...], k: int) -> dict[str, Fraction]:
    """Every ordered draw the dice can make, counted."""
    sides = tuple(len(mix) - i for i in range(k))
    counts = Counter("+".join(map(str, drawn(mix, d))) for d in all_rolls(sides))
    total = sum(counts.values())
    return {key: Fraction(v, total) for key, v in counts.items()}


@pytest.mark.parametrize(("mix", "k"), [("1,2,2,3,4", 2), ("1,1,2", 1), ("1,2,3,4,5,6", 3), ("2,2,2,3", 3)])
def test_random_draw_odds_are_exact(mix: str, k: int) -> None:
    # "each side must draw their allotted support fire markers randomly when the allotment isn't maximum"
    res = RS.resolve("support-fire-draw", SupportFireRequest(side="german", allotted=k, mix=mix))
    assert dict(res.probabilities) == brute_force_draw(parse_mix(mix), k)
    assert sum(res.probabilities.values()) == 1
    assert res.dice and len(res.dice) == k


def test_the_dice_pick_markers_along_the_row() -> None:
    res = RS.resolve(
        "support-fire-draw", SupportFireRequest(side="german", allotted=2, mix="1,2,3,4", dice=[4, 1])
    )
    assert res.evaluation.outcome == {"drawn": [1, 4], "total_strength": 5}
    assert res.probabilities["1+4"] == Fraction(1, 6)


def test_a_maximum_allotment_is_not_drawn() -> None:
    res = RS.resolve(
        "support-fire-draw",
        SupportFireRequest(side="allied", allotted=2, mix="1,2,3", allotment_is_maximum=True),
    )
    assert res.dice == () and res.evaluation.key == "no draw"


def test_no_allied_support_fire_in_la_folie_woods() -> None:
    # "no Allied bombardment or support fire is ever permitted in any La Folie Woods hex"
    with pytest.raises(RulesError) as e:
        RS.resolve(
            "support-fire-draw", SupportFireRequest(side="allied", allotted=1, target_in_la_folie_woods=True)
        )
    assert e.value.field == "target_in_la_folie_woods"
    RS.resolve(
        "support-fire-draw", SupportFireRequest(side="german", allotted=1, target_in_la_folie_woods=True)
    )


def test_la_folie_woods_bombardment_erratum() -> None:
    # 18.2 "no Allied bombardment ... in any La Folie Woods hex" against 17.2 "No bombardment is ever possible
    # in any "La Folie Woods" hex (see 18.2)".
    german = {"bombarding_side": "german", "la_folie_woods": True, "terrain": ["woods"], "turn": 2}
    res = RS.resolve("bombardment", BombardmentRequest(**german))
    assert res.evaluation.key in {"hit", "no effect"}
    with pytest.raises(RulesError) as e:
        RS.resolve(
            "bombardment",
            BombardmentRequest(**german, variants={"la-folie-woods-bombardment": "all-bombardment"}),
        )
    assert e.value.field == "la_folie_woods"
    with pytest.raises(RulesError):
        RS.resolve("bombardment", BombardmentRequest(bombarding_side="allied", la_folie_woods=True, turn=2))


def test_zero_hour_erratum() -> None:
    # "The game begins with the Allied combat phase of the 9 April (Morning) game turn." (15.2) and "During the
    # first game turn (only), the Allied player may choose to use "gas"" (17.6).
    gas = {"bombarding_side": "allied", "terrain": ["clear"], "turn": 1, "gas": True}
    # Default: the Allies bombard at zero hour; gas -2 turns a 4 into a 2, a hit.
    assert RS.resolve("bombardment", BombardmentRequest(**gas, dice=[4])).evaluation.key == "hit"
    assert RS.resolve("turn", TurnRequest(turn=1)).evaluation.outcome["allied_gas_allowed"] is True
    literal = {"zero-hour": "no-turn-1-bombardment"}
    with pytest.raises(RulesError) as e:
        RS.resolve("bombardment", BombardmentRequest(**gas, variants=literal))
    assert e.value.field == "turn" and 1 not in (e.value.allowed or [])
    outcome = RS.resolve("turn", TurnRequest(turn=1, variants=literal)).evaluation.outcome
    assert outcome["allied_gas_allowed"] is False
    # German bombardment on turn 1 is untouched by the reading.
    RS.resolve("bombardment", BombardmentRequest(bombarding_side="german", turn=1, variants=literal))


# -- 11.3 / 11.6 replacements --------------------------------------------------------------------------------
def replace(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = RS.resolve("replacement", ReplacementRequest(**kw)).evaluation.outcome
    return out


def refused(field: str, **kw: Any) -> None:
    with pytest.raises(RulesError) as e:
        replace(**kw)
    assert e.value.field == field


def test_replacements_come_at_night_two_at_a_time() -> None:
    # "During each night game turn ... automatically receives two replacements, which may be used to bring any
    # eliminated Allied unit onto the map, or two depleted Allied units onto the map, or to rebuild any two
    # depleted Allied units already on the map"
    assert (
        replace(side="allied", turn=3, eliminated_units_returned=1, arrival="allied-trench-hex")[
            "replacements_used"
        ]
        == 2
    )
    assert (
        replace(
            side="allied", turn=6, depleted_units_returned=1, units_rebuilt=1, arrival="allied-trench-hex"
        )["replacements_lost"]
        == 0
    )
    # "it may not be accumulated for a later turn"
    assert replace(side="german", turn=9, units_rebuilt=1)["replacements_lost"] == 1
    refused("turn", side="allied", turn=2, units_rebuilt=1)
    refused(
        "eliminated_units_returned",
        side="allied",
        turn=3,
        eliminated_units_returned=1,
        units_rebuilt=1,
        arrival="allied-trench-hex",
    )
    # "no unit that moved during that same night game turn may ever be rebuilt as a replacement"
    refused(
        "rebuilt_unit_moved_this_turn",
        side="allied",
        turn=3,
        units_rebuilt=1,
        rebuilt_unit_moved_this_turn=True,
    )


def test_where_returning_units_arrive() -> None:
    # Allied: "arriving in any Allied trench hex (not within any enemy ZOC)"
    refused("arrival", side="allied", turn=3, depleted_units_returned=1, arrival="east-edge")
    refused(
        "arrival_in_enemy_zoc",
        side="allied",
        turn=3,
        depleted_units_returned=1,
        arrival="allied-trench-hex",
        arrival_in_enemy_zoc=True,
    )
    # German: "entering along any easternmost map edge hex ..., or in any unoccupied hex that is adjacent to a
    # trench hexside that is not adjacent to "No Man's Land", or within any enemy unit's ZOC."
    replace(side="german", turn=3, depleted_units_returned=2, arrival="next-to-trench-hexside")
    refused("arrival", side="german", turn=3, depleted_units_returned=1, arrival="allied-trench-hex")
    refused(
        "arrival_in_enemy_zoc",
        side="german",
        turn=3,
        depleted_units_returned=1,
        arrival="east-edge",
        arrival_in_enemy_zoc=True,
    )
    literal = {"german-replacement-zoc": "literal"}
    assert replace(
        side="german",
        turn=3,
        depleted_units_returned=1,
        arrival="other",
        arrival_in_enemy_zoc=True,
        variants=literal,
    )["allowed"]
    # "(even if within an enemy ZOC)": rebuilding on the map is not an arrival.
    assert replace(side="allied", turn=3, units_rebuilt=2, arrival_in_enemy_zoc=True)["allowed"]


def test_every_new_resolver_rolls_nothing_but_the_draw() -> None:
    for rid in (
        "observation",
        "zone-of-control",
        "trench-hexside",
        "set-up",
        "divisional-integrity",
        "replacement",
    ):
        for example in RS.resolvers[rid].examples:
            res = RS.resolve(rid, RS.resolvers[rid].Request(**example))
            assert res.dice == () and dict(res.probabilities) == {res.evaluation.key: 1}


def test_new_errata_have_two_readings_and_a_default() -> None:
    for eid in (
        "la-folie-woods-bombardment",
        "zero-hour",
        "los-no-mans-land",
        "german-replacement-zoc",
        "artillery-track",
    ):
        e = RS.errata[eid]
        assert len(e.readings) == 2 and e.default in {r.id for r in e.readings}
        assert all(r.source.startswith("Vimy Ridge: Arras Diversion, exclusive rules: ") for r in e.readings)
