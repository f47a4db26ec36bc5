"""Vimy Ridge's rules of play the game broke (issue 62), each against its quoted line, on a snapshot of
counters with no app: No Man's Land across a trench hexside (14.1, 14.2), a replacement's hex and phase (11.3,
11.6), 17.2's two-marker limit said as such, a combat result by either seat, and the readings the code made
without naming them, now errata listing both. Hex numbers are a club example (a test fixture)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core.acts import AddUnit, EditUnit, Roll
from rules.core.errors import RulesError
from rules.core.records import Snapshot, UnitState
from rules.core.rolls import Rolled
from rules.registry import get_ruleset
from rules.vimy_ridge.play.game import ALLIED, GERMAN, VIMY_GAME
from rules.vimy_ridge.play.victory import tally

RS = get_ruleset("vimy-ridge")
MOVEMENT, BOMBARDMENT, COMBAT = 0, 1, 2


def counter(uid: int, side: str, where: str, **state: Any) -> UnitState:
    full = {"hex": where, "division": "1st Canadian" if side == ALLIED else "79th Reserve"}
    full |= {"attack": 6, "defence": 5, "attack_depleted": 3, "defence_depleted": 2} | state
    return UnitState(id=uid, parent_id=None, side=side, level="counter", name=f"c{uid}", state=full)


def table(*units: UnitState, turn: int = 2, step: int = COMBAT, side: str = ALLIED, **board: Any) -> Snapshot:
    return Snapshot("vimy-ridge", None, units, 1, 1, turn=turn, step=step, side_to_move=side, board=board)


def refusals(snapshot: Snapshot, act: Any) -> list[str]:
    return [str(r) for r in VIMY_GAME.forbidden(snapshot, act)]


def test_no_mans_land_across_a_trench_hexside_halves_the_defence_and_never_takes_the_trench_line() -> None:
    # 14.1 "The defense factor of any unit ... occupying any No Man's Land hex is halved ... and no unit that is
    # attacked whilst present there is ever advantaged by a trench line."
    snap = table(
        counter(1, ALLIED, "0910"),
        counter(2, GERMAN, "1010"),
        trench_hexsides=[["0910", "1010"]],
        hex_terrain={"1010": ["no-mans-land"]},
    )
    attack = Roll(resolver="attack", unit_id=1, target_id=2, fields={"attackers": [1]}, dice=[3])
    assert refusals(snap, attack) == []
    rolled = VIMY_GAME.play(snap, attack)
    assert isinstance(rolled, Rolled)
    assert rolled.resolution["line"] != "Trench hexside, Woods"
    assert rolled.resolution["differential"] == 6 - 5 // 2
    # Out of No Man's Land the trench hexside crossed is the trench line (14.2), the defence whole.
    dry = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), trench_hexsides=[["0910", "1010"]])
    rolled = VIMY_GAME.play(dry, attack)
    assert isinstance(rolled, Rolled)
    assert rolled.resolution["line"] == "Trench hexside, Woods" and rolled.resolution["differential"] == 1


def test_the_club_data_fills_the_line_of_a_peak_and_the_card_offers_five_otherwise() -> None:
    snap = table(
        counter(1, ALLIED, "0910"), counter(2, GERMAN, "1101"), peaks=[f"{1101 + i}" for i in range(13)]
    )
    attack = Roll(resolver="attack", unit_id=1, target_id=2, fields={"attackers": [1]}, dice=[3])
    rolled = VIMY_GAME.play(snap, attack)
    assert isinstance(rolled, Rolled) and rolled.resolution["line"] == "Peak"
    bare = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1101"))
    rolled = VIMY_GAME.play(bare, attack)
    assert isinstance(rolled, Rolled) and rolled.resolution["line"] == "Clear"  # the attack-line default
    picked = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1101"))
    with pytest.raises(RulesError, match="pick the terrain line"):
        VIMY_GAME.play(
            replace(picked, variants={"attack-line": "picked"}),
            attack,
        )


NIGHT = 3  # the turn-track erratum's default: turn 3 (9 April Evening) a night (moon) turn
CLUB = {
    "trench_hexsides": [["0910", "1010"]],
    "easternmost": ["2001"],
    "hex_terrain": {"1010": ["no-mans-land"]},
}


def test_a_replacement_arrives_in_an_allied_trench_hex_in_the_movement_phase() -> None:
    # 11.3 "A replacement that is brought onto the map must arrive during the movement phase of that same night
    # game turn, arriving in any Allied trench hex (not within any enemy ZOC)".
    gone = counter(1, ALLIED, "", eliminated=True)
    back = {"eliminated": False}
    at_east = table(gone, turn=NIGHT, step=MOVEMENT, **CLUB)
    said = refusals(at_east, EditUnit(unit_id=1, version=1, values={**back, "hex": "2001"}))
    assert said and "11.3" in said[0] and len(said[0]) <= 120
    in_combat = table(gone, turn=NIGHT, step=COMBAT, **CLUB)
    said = refusals(in_combat, EditUnit(unit_id=1, version=1, values={**back, "hex": "0910"}))
    assert said and "movement phase" in said[0]
    assert refusals(at_east, EditUnit(unit_id=1, version=1, values={**back, "hex": "0910"})) == []
    # Not the No Man's Land side of the trench hexside.
    assert refusals(at_east, EditUnit(unit_id=1, version=1, values={**back, "hex": "1010"}))


def test_a_german_replacement_enters_an_unoccupied_easternmost_or_trench_hex() -> None:
    # 11.6 "entering along any easternmost map edge hex ..., or in any unoccupied hex that is adjacent to a
    # trench hexside".
    gone = counter(1, GERMAN, "", eliminated=True)
    held = counter(2, GERMAN, "2001")
    snap = table(gone, held, turn=NIGHT, step=MOVEMENT, side=GERMAN, **CLUB)
    back = {"eliminated": False}
    said = refusals(snap, EditUnit(unit_id=1, version=1, values={**back, "hex": "2001"}))
    assert said and "unoccupied" in said[0] and "11.6" in said[0]
    said = refusals(snap, EditUnit(unit_id=1, version=1, values={**back, "hex": "1505"}))
    assert said and "11.6" in said[0]
    # "adjacent to a trench hexside that is not adjacent to No Man's Land": 0910's hexside borders 1010, one.
    said = refusals(snap, EditUnit(unit_id=1, version=1, values={**back, "hex": "0910"}))
    assert said and "11.6" in said[0]
    inland = replace(snap, board={**snap.board, "trench_hexsides": [["0910", "1010"], ["1512", "1612"]]})
    assert refusals(inland, EditUnit(unit_id=1, version=1, values={**back, "hex": "1512"})) == []


def test_a_replacement_enters_outside_an_enemy_zone_of_control_and_may_move_on() -> None:
    # 11.3 "arriving in any Allied trench hex (not within any enemy ZOC)"; its note: "Only replacement units that
    # are entering the map are ever eligible to move during a night game turn."
    gone = counter(1, ALLIED, "", eliminated=True, movement_allowance=2)
    enemy = counter(2, GERMAN, "1110")
    board = {"trench_hexsides": [["0910", "1010"], ["1211", "1212"]]}
    snap = table(gone, enemy, turn=NIGHT, step=MOVEMENT, **board)
    back = {"eliminated": False}
    said = refusals(snap, EditUnit(unit_id=1, version=1, values={**back, "hex": "1010"}))  # next to 1110
    assert said and "zone of control" in said[0] and "11.3" in said[0] and len(said[0]) <= 120
    arrive = EditUnit(unit_id=1, version=1, values={**back, "hex": "0910"})
    assert refusals(snap, arrive) == []
    assert (
        refusals(
            replace(snap, variants={"zoc": "players-call"}), replace(arrive, values={**back, "hex": "1010"})
        )
        == []
    )
    entered = snap.after(VIMY_GAME.play(snap, arrive).changes)
    # On from where it entered, within its allowance; no other counter moves at night (13.1).
    assert refusals(entered, EditUnit(unit_id=1, version=1, values={"hex": "0810"})) == []
    said = refusals(entered, EditUnit(unit_id=1, version=1, values={"hex": "0610"}))
    assert said and "movement allowance is 2" in said[0]
    still = replace(entered, units=(*entered.units, counter(3, ALLIED, "0808", movement_allowance=2)))
    said = refusals(still, EditUnit(unit_id=3, version=1, values={"hex": "0809"}))
    assert said and "No movement at night" in said[0]
    # A German replacement: never within an enemy ZOC by default, literally 'or within' one as a variant.
    german = table(
        counter(1, GERMAN, "", eliminated=True),
        counter(2, ALLIED, "1511"),
        turn=NIGHT,
        step=MOVEMENT,
        side=GERMAN,
        trench_hexsides=[["1512", "1612"]],
        easternmost=["2001"],
    )
    near = EditUnit(unit_id=1, version=1, values={**back, "hex": "1512"})
    said = refusals(german, near)
    assert said and "zone of control" in said[0] and "11.6" in said[0]
    assert refusals(replace(german, variants={"german-replacement-zoc": "literal"}), near) == []


def test_a_third_marker_is_refused_with_the_two_marker_limit() -> None:
    # 17.2 "but no more than two bombardment markers per enemy unit"
    snap = table(
        counter(1, ALLIED, "0910"),
        counter(2, GERMAN, "1010"),
        step=BOMBARDMENT,
        bombarded={"turn": 2, "2": 2},
    )
    for fields in ({}, {"observed": "observed"}):
        said = refusals(snap, Roll(resolver="bombardment", target_id=2, fields=fields))
        assert said and "two bombardment markers" in said[0] and "(17.2)" in said[0], said


def attacked(snap: Snapshot, die: int = 1) -> Snapshot:
    """The snapshot after counter 1 attacks counter 2 (6 against 5 on Clear, +1: a die of 1 reads D2)."""
    attack = Roll(resolver="attack", unit_id=1, target_id=2, fields={"attackers": [1]}, dice=[die])
    assert refusals(snap, attack) == []
    return snap.after(VIMY_GAME.play(snap, attack).changes)


def test_a_combat_result_is_applied_only_to_a_counter_of_this_phase_s_attack_as_its_result_reads() -> None:
    snap = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), counter(3, GERMAN, "0909"))
    lost = EditUnit(unit_id=2, version=1, values={"applied_result": "depleted"})
    # No attack rolled: no result on any counter, by either seat.
    said = refusals(snap, lost)
    assert said and "no attack rolled this combat phase" in said[0] and len(said[0]) <= 120
    after = attacked(snap)  # D2: the defender retreats or loses steps, the attacker may advance
    assert refusals(after, lost) == []
    answer = VIMY_GAME.play(after, lost)
    assert {(c.field, c.value) for c in answer.changes if hasattr(c, "field")} >= {("depleted", True)}
    # Only the result the die gave, on the counter it falls on, once: one choice per result (a step lost, so
    # no retreat besides), and the attacker's advance only into the hex the defender left.
    spent = after.after(answer.changes)
    for uid, values, words in (
        (2, {"applied_result": "depleted"}, "applied to this counter already"),
        (2, {"hex": "1111"}, "applied to this counter already"),
        (2, {"applied_result": "advanced", "hex": "0910"}, "applied to this counter already"),
        (1, {"depleted": True}, "not depleted"),
        (1, {"applied_result": "eliminated"}, "not eliminated"),
        (3, {"eliminated": True}, "no attack rolled"),
        (1, {"hex": "1010"}, "occupied"),
    ):
        said = refusals(spent, EditUnit(unit_id=uid, version=1, values=values))
        assert said and words in said[0], (uid, values, said)
    assert refusals(after, EditUnit(unit_id=2, version=1, values={"hex": "1111"})) == []  # its retreat
    # The ledger is the phase's: the next combat phase starts with none, outside it no result at all.
    said = refusals(replace(spent, side_to_move=GERMAN), lost)
    assert said and "no attack rolled" in said[0]
    said = refusals(replace(spent, step=MOVEMENT), lost)
    assert said and "combat phase" in said[0]


@pytest.mark.parametrize(
    "eid",
    [
        "crt-alignment",
        "bombardment-below-one",
        "minus-signs",
        "combat-phase-move",
        "vp-moment",
        "attack-line",
        "crt-codes",
        "hex-grid",
        "movement",
        "zoc",
        "stacking",
        "combat-move",
        "attack-once",
        "division-order",
    ],
)
def test_each_reading_the_code_makes_is_an_erratum_with_both_readings(eid: str) -> None:
    e = RS.errata[eid]
    assert len(e.readings) == 2 and e.default in {r.id for r in e.readings}
    assert all(r.source for r in e.readings)


def resolve(resolver: str, variants: dict[str, str] | None = None, **fields: Any) -> Any:
    req = RS.resolvers[resolver].Request(**fields, variants=variants or {})
    return RS.resolve(resolver, req).evaluation


def test_each_reading_changes_its_answer() -> None:
    # Peak, differential +1, die 6: left-aligned the Peak line's third column "(A)", right-aligned its seventh.
    clear = {"terrain": "peak", "attack_strength": 5, "defense_strength": 4, "dice": [6]}
    assert resolve("combat", **clear).key == "(A)"
    assert resolve("combat", {"crt-alignment": "right-aligned"}, **clear).key == "(A)"
    assert (
        resolve("combat", {"crt-alignment": "right-aligned"}, **{**clear, "attack_strength": 14}).key == "Ex"
    )
    assert resolve("combat", **{**clear, "attack_strength": 14}).key == "A1"
    # Gas -2 and aircraft -1 take a 2 below 1: a hit read as 1, or no effect.
    gas = {"bombarding_side": "allied", "turn": 1, "gas": True, "aircraft": True, "dice": [2]}
    assert resolve("bombardment", **gas).key == "hit"
    assert resolve("bombardment", {"bombardment-below-one": "no-effect"}, **gas).key == "no effect"
    # The minus signs as extracted: +2 for gas turns a 3 (a hit at -2) into no effect.
    three = {**gas, "aircraft": False, "dice": [3]}
    assert resolve("bombardment", **three).key == "hit"
    assert resolve("bombardment", {"minus-signs": "as-extracted"}, **three).key == "no effect"


def test_two_vp_win_at_the_end_by_the_book_and_at_once_as_a_variant() -> None:
    # 12.1 "If a Canadian unit was the last to have occupied ... the German supply hex in Petit Vimy (1534)";
    # "at least three Canadian units of the same division have moved and currently occupy any easternmost hex".
    east = ["2001", "2002", "2003"]
    units = [counter(1, ALLIED, "1534")] + [
        counter(2 + i, ALLIED, h, moved_turn=2) for i, h in enumerate(east)
    ]
    units.append(counter(9, GERMAN, "1010"))
    snap = table(*units, turn=5, easternmost=east)
    assert tally(snap)["points"][ALLIED] == 2 and tally(snap)["outcome"]["winner"] is None
    variant = replace(snap, variants={"vp-moment": "any-moment"})
    assert tally(variant)["outcome"]["winner"] == ALLIED
    over = replace(snap, turn=12)
    assert tally(over)["outcome"]["winner"] == ALLIED


def test_a_combat_phase_move_read_as_named() -> None:
    snap = attacked(table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), step=COMBAT))
    moved = EditUnit(unit_id=2, version=1, values={"hex": "1111"})
    assert refusals(snap, moved) == []
    named = replace(snap, variants={"combat-phase-move": "named"})
    assert (
        refusals(named, moved)
        and refusals(
            named, EditUnit(unit_id=2, version=1, values={"hex": "1111", "applied_result": "retreated"})
        )
        == []
    )


def test_set_up_on_the_sides_own_hexes_where_the_club_data_names_them() -> None:
    # 20.2 "The Allied player may set up all of his units in any hexes west of the Allied trench line, one
    # Allied unit per hex"; 19.1 "in any hexes east of the Allied trench line, one German unit per hex".
    board = {"allied_set_up": ["0910", "0911"], "german_set_up": ["1010", "1011"], "easternmost": ["2001"]}
    snap = table(counter(1, ALLIED, "0910"), turn=0, step=0, **board)
    german = AddUnit(side=GERMAN, fields={"state": {"hex": "0911", "division": "79th Reserve"}})
    said = [str(r) for r in VIMY_GAME.forbidden(snap, german)]
    assert said and "19.1" in said[0] and len(said[0]) <= 120
    assert VIMY_GAME.forbidden(snap, replace(german, fields={"state": {"hex": "1010"}})) == ()
    bare = table(counter(1, ALLIED, "0910"), turn=0, step=0, easternmost=["2001"])
    east = AddUnit(side=ALLIED, fields={"state": {"hex": "2001"}})
    said = [str(r) for r in VIMY_GAME.forbidden(bare, east)]
    assert said and "20.2" in said[0]
    # In play no counter is added (one returns only as a replacement, 11.3): the set-up's hexes are not asked.
    said = [str(r) for r in VIMY_GAME.forbidden(replace(snap, turn=2, step=MOVEMENT), german)]
    assert said and "11.3" in said[0] and "19.1" not in said[0]


def test_the_club_data_is_set_before_play_by_the_set_up_sequence() -> None:
    board = VIMY_GAME.book.kit.counters
    assert board is not None and "11.1" in board.club_source
    assert (
        board.club_roll in get_ruleset("vimy-ridge").resolvers
    )  # the roll the app refuses in play names a real resolver


def test_an_attack_is_made_only_on_an_adjacent_enemy_counter() -> None:
    snap = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), counter(3, GERMAN, "1810"))
    near = Roll(resolver="attack", unit_id=1, target_id=2, fields={"attackers": [1]})
    assert refusals(snap, near) == []
    said = refusals(snap, replace(near, target_id=3))
    assert said and "9 hexes from hex 1810" in said[0] and len(said[0]) <= 120
    # The card's Attack, before its target is tapped: offered only beside an enemy counter (card = pipeline).
    alone = table(counter(1, ALLIED, "0910"), counter(3, GERMAN, "1810"))
    said = refusals(alone, Roll(resolver="attack", unit_id=1, fields={"attackers": [1]}))
    assert said and "No enemy counter is next to hex 0910" in said[0]
    # Read with the odd columns lowered (the hex-grid erratum's other reading), 0910 and 1010 still touch,
    # 0910 and 1009 do not.
    odd = replace(
        table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1009")),
        variants={"hex-grid": "odd-columns-lower"},
    )
    assert refusals(odd, near) and refusals(replace(odd, variants={}), near) == []


def test_a_move_is_bounded_by_the_counter_s_movement_allowance_in_hexes() -> None:
    mover = counter(1, ALLIED, "0910", movement_allowance=3)
    snap = table(mover, counter(2, GERMAN, "1810"), counter(3, ALLIED, "0911"), step=MOVEMENT)
    move = EditUnit(unit_id=1, version=1, values={"hex": "1210"})
    assert refusals(snap, move) == []  # three hexes east
    said = refusals(snap, replace(move, values={"hex": "1310"}))
    assert said and "4 hexes from hex 0910: its movement allowance is 3" in said[0] and len(said[0]) <= 120
    # Counted from where its move began this phase, not from each step of it.
    stepped = snap.after(VIMY_GAME.play(snap, replace(move, values={"hex": "1110"})).changes)
    said = refusals(stepped, replace(move, values={"hex": "1310"}))
    assert said and "from hex 0910" in said[0]
    assert refusals(stepped, replace(move, values={"hex": "1210"})) == []
    # One unit per hex; a counter with no allowance entered stays put; the players' count as a variant.
    said = refusals(snap, replace(move, values={"hex": "0911"}))
    assert said and "One unit per hex" in said[0]
    assert (
        refusals(replace(snap, variants={"stacking": "set-up-only"}), replace(move, values={"hex": "0911"}))
        == []
    )
    unentered = table(counter(1, ALLIED, "0910"), step=MOVEMENT)
    said = refusals(unentered, move)
    assert said and "movement allowance" in said[0]
    assert refusals(replace(unentered, variants={"movement": "players-count"}), move) == []
    # Its printed values are set in set-up: no seat raises its allowance in play.
    said = refusals(snap, EditUnit(unit_id=1, version=1, values={"movement_allowance": 9}))
    assert said and "set-up" in said[0]


def test_an_eliminated_counter_is_placed_only_as_a_replacement_and_wins_nothing() -> None:
    # The hostile pass: the Allied seat eliminated its own counter in a day movement phase, then set it on a
    # Vimy town hex (origin "" read as 0 hexes) and won at once.
    snap = table(counter(1, ALLIED, "0910", movement_allowance=2), counter(2, GERMAN, "1505"), step=MOVEMENT,
                 vimy_town=["1801"], petit_vimy_town=["1534", "1535"])  # fmt: skip
    said = refusals(snap, EditUnit(unit_id=1, version=1, values={"eliminated": True}))
    assert said and "combat result or the referee's override" in said[0] and len(said[0]) <= 120
    gone = replace(snap, units=(counter(1, ALLIED, "", eliminated=True, movement_allowance=2), snap.units[1]))
    said = refusals(gone, EditUnit(unit_id=1, version=1, values={"hex": "1801"}))
    assert said and "only as a replacement" in said[0] and len(said[0]) <= 120
    # Even played past the rules (the referee's override), an eliminated counter enters no Vimy town hex.
    won = VIMY_GAME.play(gone, EditUnit(unit_id=1, version=1, values={"hex": "1801"}))
    assert "vimy_entered" not in gone.after(won.changes).board
    # Nor does a hex "" take a counter off the map in play (a 422 naming hex, not a 500).
    with pytest.raises(RulesError) as e:
        VIMY_GAME.forbidden(snap, EditUnit(unit_id=1, version=1, values={"hex": ""}))
    assert e.value.field == "hex"
    for no_hex in ("0000", "0012", "1200"):  # columns and rows are numbered from 01
        with pytest.raises(RulesError):
            VIMY_GAME.forbidden(snap, EditUnit(unit_id=1, version=1, values={"hex": no_hex}))


def test_a_retreat_is_one_hex_away_and_an_advance_only_into_the_hex_left() -> None:
    snap = attacked(
        table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), counter(3, GERMAN, "1111"))
    )  # D2: the defender retreats or loses a step; the attacker may advance
    for to, words in (("1111", "occupied"), ("1801", "one hex"), ("0911", "away from the attack")):
        said = refusals(snap, EditUnit(unit_id=2, version=1, values={"hex": to}))
        assert said and words in said[0] and len(said[0]) <= 120, (to, said)
    assert refusals(snap, EditUnit(unit_id=2, version=1, values={"hex": "1110"})) == []
    left = snap.after(VIMY_GAME.play(snap, EditUnit(unit_id=2, version=1, values={"hex": "1110"})).changes)
    said = refusals(left, EditUnit(unit_id=1, version=1, values={"hex": "1801"}))
    assert said and "1010, the hex the defender left" in said[0]
    assert refusals(left, EditUnit(unit_id=1, version=1, values={"hex": "1010"})) == []


def test_a_counter_attacks_once_and_is_attacked_once_by_its_division_a_combat_phase() -> None:
    snap = attacked(table(counter(1, ALLIED, "0910"), counter(4, ALLIED, "0911"), counter(2, GERMAN, "1010"),
                          counter(3, GERMAN, "1009")))  # fmt: skip
    again = Roll(resolver="attack", unit_id=1, target_id=3, fields={"attackers": [1]}, dice=[6])
    said = refusals(snap, again)
    assert said and "attacks once" in said[0]
    on = Roll(resolver="attack", unit_id=4, target_id=2, fields={"attackers": [4]}, dice=[6])
    said = refusals(snap, on)
    assert said and "attacked by that division" in said[0]  # the same division again (18.3)


@pytest.mark.parametrize("given", [[1, 1], [4], 5, True, {"a": 1}, [1, "x"], [1, True]])
def test_the_attackers_are_distinct_ids_naming_the_card_s_counter(given: Any) -> None:
    snap = table(counter(1, ALLIED, "0910"), counter(4, ALLIED, "0911"), counter(2, GERMAN, "1010"))
    with pytest.raises(RulesError) as e:
        VIMY_GAME.forbidden(
            snap, Roll(resolver="attack", unit_id=1, target_id=2, fields={"attackers": given})
        )
    assert e.value.field == "fields.attackers"


def test_a_counter_off_the_map_comes_on_only_as_one_of_the_night_s_replacements() -> None:
    # The hostile pass: a full-strength counter off the map (hex "") came on at night free of 11.3's two.
    off = counter(1, ALLIED, "", movement_allowance=2)
    snap = table(
        off, counter(2, GERMAN, "1505"), turn=NIGHT, step=MOVEMENT, trench_hexsides=[["0302", "0402"]]
    )
    enter = EditUnit(unit_id=1, version=1, values={"hex": "0302"})
    spent = replace(snap, board={**snap.board, "replacements": {"turn": NIGHT, ALLIED: 2}})
    said = refusals(spent, enter)
    assert said and "Two replacements a side" in said[0]
    came = snap.after(VIMY_GAME.play(snap, enter).changes)
    assert came.board["replacements"][ALLIED] == 1
    said = refusals(replace(snap, turn=2), enter)  # by day: none
    assert said and "night" in said[0]


def test_the_combat_phase_needs_each_result_still_to_apply_by_its_counter() -> None:
    snap = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"))
    assert VIMY_GAME.needs(snap, "combat") == []
    ex = attacked(snap, die=2)  # Ex: both lose a step
    needs = VIMY_GAME.needs(ex, "combat")
    assert needs == [
        "c1: apply the Ex (step loss or elimination)",
        "c2: apply the Ex (step loss or elimination)",
    ]
    assert [getattr(n, "unit_id", None) for n in needs] == [1, 2]  # each from its own card
    lost = ex.after(
        VIMY_GAME.play(ex, EditUnit(unit_id=2, version=1, values={"applied_result": "depleted"})).changes
    )
    assert VIMY_GAME.needs(lost, "combat") == ["c1: apply the Ex (step loss or elimination)"]
    # A D2's attacker may forgo its advance: only the defender's result is needed; none outside the phase.
    assert VIMY_GAME.needs(attacked(snap, die=1), "combat") == [
        "c2: apply the D2 (retreat or step loss or elimination)"
    ]
    assert VIMY_GAME.needs(replace(ex, side_to_move=GERMAN), "combat") == []


def test_an_exchange_s_attacker_advances_only_after_its_step_loss() -> None:
    ex = attacked(table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010")), die=2)
    gone = ex.after(
        VIMY_GAME.play(ex, EditUnit(unit_id=2, version=1, values={"applied_result": "eliminated"})).changes
    )
    advance = EditUnit(unit_id=1, version=1, values={"applied_result": "advanced", "hex": "1010"})
    said = refusals(gone, advance)
    assert said and "apply depleted or eliminated to this counter, not advanced" in said[0], said
    lost = gone.after(
        VIMY_GAME.play(gone, EditUnit(unit_id=1, version=1, values={"applied_result": "depleted"})).changes
    )
    assert refusals(lost, advance) == []  # the advance an addition, after the loss
    on = lost.after(VIMY_GAME.play(lost, advance).changes)
    assert on.unit(1).state["hex"] == "1010" and on.unit(1).state["depleted"] is True
    said = refusals(on, EditUnit(unit_id=1, version=1, values={"applied_result": "advanced", "hex": "1011"}))
    assert said and "applied to this counter already" in said[0], said
    # The other reading, named as such: one result each, an advance instead of the loss.
    assert refusals(replace(gone, variants={"crt-codes": "players-read"}), advance) == []
