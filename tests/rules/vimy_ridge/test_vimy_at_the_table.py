"""Vimy Ridge at the table (issue 89), each against its printed line on a snapshot of counters with no app: 18.3's
separate attack by another division upon the same enemy unit (the attack-once erratum's default), the turn's
allotment refused as 17.1 before observation (17.3) and the markers left on the track, 19.1's set-up order of
the German divisions north to south, and the club's data refused in the book's words. Hex numbers are a club
example (a test fixture), not map facts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core.acts import AddUnit, EditUnit, Roll
from rules.core.errors import RulesError
from rules.core.records import Snapshot, UnitState
from rules.registry import get_ruleset
from rules.vimy_ridge.play.game import ALLIED, GERMAN, VIMY_GAME, board_checked
from rules.vimy_ridge.resolvers import result_said

RS = get_ruleset("vimy-ridge")
MOVEMENT, BOMBARDMENT, COMBAT = 0, 1, 2
TRACK = [[8, 5], [8, 5], [4, 2], *([[8, 5]] * 8)]


def counter(uid: int, side: str, where: str, division: str = "", **state: Any) -> UnitState:
    named = division or ("1st Canadian" if side == ALLIED else "79th Reserve")
    full = {"hex": where, "division": named, "attack": 6, "defence": 5, "attack_depleted": 3} | state
    return UnitState(id=uid, parent_id=None, side=side, level="counter", name=f"c{uid}", state=full)


def table(*units: UnitState, turn: int = 2, step: int = COMBAT, side: str = ALLIED, **board: Any) -> Snapshot:
    return Snapshot("vimy-ridge", None, units, 1, 1, turn=turn, step=step, side_to_move=side, board=board)


def refusals(snapshot: Snapshot, act: Any) -> list[str]:
    return [str(r) for r in VIMY_GAME.forbidden(snapshot, act)]


def attack(by: int, at: int) -> Roll:
    return Roll(resolver="attack", unit_id=by, target_id=at, fields={"attackers": [by]}, dice=[6])


# -- 18.3: a separate attack by another division ---------------------------------------------------------------
def test_another_division_makes_a_separate_attack_upon_the_same_enemy_unit() -> None:
    # 18.3 "this does not prohibit other units from different divisions conducting a separate attack upon the
    # same enemy unit": the 2nd Canadian's counter attacks the German the 1st Canadian's attacked.
    snap = table(
        counter(1, ALLIED, "0910"),
        counter(4, ALLIED, "0911", "2nd Canadian"),
        counter(5, ALLIED, "1110"),
        counter(2, GERMAN, "1010"),
    )
    after = snap.after(VIMY_GAME.play(snap, attack(1, 2)).changes)
    assert refusals(after, attack(4, 2)) == []
    # Not the same division again: its units attack it together (18.3 'the same attack').
    same = refusals(after, attack(5, 2))
    assert same and "(18.3)" in same[0] and len(same[0]) <= 120
    # The erratum keeps the other reading, each with its source: one attack on an enemy unit a phase.
    erratum = RS.errata["attack-once"]
    assert erratum.default == "separate-attacks"
    assert {r.id for r in erratum.readings} == {"separate-attacks", "once"}
    assert all("18.3" in r.source for r in erratum.readings)
    once = refusals(replace(after, variants={"attack-once": "once"}), attack(4, 2))
    assert once and "attacked once" in once[0]


def test_an_attack_out_of_its_side_s_phase_is_refused_in_words_for_whoever_reads_it() -> None:
    # The referee's card of a German counter in the Canadian combat phase (newcomer pass, issue 89) read
    # "Attack with your own counters on the map": the referee has none. The refusal names the side whose
    # phase it is, as the book names its player (15.0, 12.1 "the Canadian player").
    snap = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"))
    out_of_phase = refusals(snap, attack(2, 1))
    assert out_of_phase == ["It is the Canadian player's combat phase: only Canadian counters attack (15.0)."]
    # So for a move out of its side's phase, and an attack or a bombardment out of its step: no "your".
    moving = table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), step=MOVEMENT)
    moved = refusals(moving, EditUnit(unit_id=2, version=1, values={"hex": "1110"}))
    assert moved == [
        "Each player moves his counters in his movement phase; now the Canadian player's (15.0)."
    ]
    assert refusals(moving, attack(1, 2)) == ["Attacks are made in the combat phase (15.0)."]
    assert not any("your" in r for r in refusals(snap, Roll(resolver="bombardment", unit_id=1, target_id=2)))
    gone = table(counter(1, ALLIED, "0910", eliminated=True), counter(2, GERMAN, "1010"))
    assert refusals(gone, attack(1, 2)) == ["Attack with counters on the map, not eliminated ones (18.3)."]


# -- 17.1 before 17.3: the allotment, and the markers left ---------------------------------------------------------
def test_a_combat_result_says_the_player_owning_the_units_it_names_applies_it() -> None:
    # The card applies a result by taps on each counter it names, its owner's (newcomer pass, issue 89): the
    # result's words say so under the standard rules' citation, not that the players apply it off the app.
    said = result_said(RS.context(None), "D2")
    assert said.endswith(
        "(Vimy Ridge: Arras Diversion, exclusive rules: Integrated Combat Results Table; Fire & Movement "
        "standard rules (not in the exclusive rules): each player applies a result to his own units)"
    ), said


def test_a_bombard_past_the_turn_s_allotment_is_refused_as_17_1_and_the_track_shows_the_markers_left() -> (
    None
):
    spent = {"turn": 2, ALLIED: 8}
    snap = table(
        counter(1, ALLIED, "0910"),
        counter(2, GERMAN, "1010"),
        step=BOMBARDMENT,
        artillery_track=TRACK,
        markers_spent=spent,
    )
    # The ninth marker, the target not (yet) said observed: the allotment refuses it, not observation.
    ninth = Roll(resolver="bombardment", target_id=2, fields={"markers": 1}, dice=[1])
    said = refusals(snap, ninth)
    assert said == ["Only 0 of 8 bombardment markers left this turn (17.1)."]
    said = refusals(snap, replace(ninth, fields={"markers": 1, "observed": "observed"}))
    assert said and "(17.1)" in said[0]
    # The turn played on the track shows what each side has left of its allotment; other turns their allotment.
    track = {t.number: t.note for t in VIMY_GAME.counter_notes(snap).track}
    assert "left this turn: Allied 0 of 8, German 5 of 5" in track[2]
    assert "left this turn" not in track[3]
    # With markers left, the target unobserved is refused as 17.3.
    fresh = replace(snap, board={**snap.board, "markers_spent": {"turn": 2, ALLIED: 3}})
    assert "(17.3)" in refusals(fresh, ninth)[0]
    assert "Allied 5 of 8" in VIMY_GAME.counter_notes(fresh).track[1].note


# -- 19.1: the German divisions north to south -------------------------------------------------------------------
def placed(side: str, where: str, division: str) -> AddUnit:
    state = {"hex": where, "division": division, "attack": 4, "defence": 4}
    return AddUnit(side=side, fields={"name": "new", "level": "counter", "state": state})


@pytest.mark.parametrize(
    ("division", "where", "refused"),
    [
        ("16th Bavarian", "1015", True),  # south of the 79th Reserve's hex 1010
        ("16th Bavarian", "1210", True),  # level with it (its column lowered as 1010's): not north
        ("16th Bavarian", "0910", False),  # half a hex north (the hex-grid erratum's lowered columns)
        ("16th Bavarian", "1005", False),
        ("1st Bavarian Reserve", "1005", True),  # north of the 79th Reserve
        ("1st Bavarian Reserve", "1030", False),
        ("79th Reserve", "1025", True),  # south of the 1st Bavarian Reserve's hex 1020
        ("79th Reserve", "0812", False),
    ],
)
def test_the_german_divisions_set_up_north_to_south_as_19_1_orders(
    division: str, where: str, refused: bool
) -> None:
    snap = table(
        counter(1, GERMAN, "1010", "79th Reserve"),
        counter(2, GERMAN, "1020", "1st Bavarian Reserve"),
        turn=0,
        step=0,
    )
    said = refusals(snap, placed(GERMAN, where, division))
    assert bool(said) is refused, said
    if refused:
        assert said[0].endswith("(19.1).") and len(said[0]) <= 120


def test_the_division_order_erratum_reads_north_by_hex_centres_or_by_rows() -> None:
    # 0910 lies half a hex north of 1010 by their centres (1010's column lowered), level with it by their rows.
    snap = table(counter(1, GERMAN, "1010", "79th Reserve"), turn=0, step=0)
    north = placed(GERMAN, "0910", "16th Bavarian")
    assert refusals(snap, north) == []
    said = refusals(replace(snap, variants={"division-order": "rows"}), north)
    assert said and "(19.1)" in said[0]


def test_a_german_counter_moved_in_set_up_keeps_19_1_s_order_and_so_does_a_scenario() -> None:
    snap = table(
        counter(1, GERMAN, "1010", "79th Reserve"),
        counter(2, GERMAN, "1020", "16th Bavarian"),
        turn=0,
        step=0,
    )
    # The 16th Bavarian set up south of the 79th Reserve: moving either one is judged by the order.
    said = refusals(snap, EditUnit(unit_id=2, version=1, values={"hex": "1021"}))
    assert said and "16th Bavarian sets up north of the 79th Reserve" in said[0]
    assert refusals(snap, EditUnit(unit_id=2, version=1, values={"hex": "1005"})) == []
    document = {
        "board": {},
        "sides": {
            "defender": {
                "forces": [
                    {"name": "RIR 261", "state": {"hex": "1010", "division": "79th Reserve"}},
                    {"name": "BIR 11", "state": {"hex": "1020", "division": "16th Bavarian"}},
                ]
            }
        },
    }
    with pytest.raises(RulesError) as e:
        VIMY_GAME.new_forces(RS.context(None, {}), document)
    assert e.value.field == "sides.defender.forces.1.state.hex" and "(19.1)" in e.value.reason


# -- the club's data refused in the book's words ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("board", "field", "words"),
    [
        (
            {"artillery_track": [[8, 5], [8, 4], *([[8, 5]] * 9)]},
            "board.artillery_track.1",
            "The Artillery Track prints 8/5 on the second game turn: 8 Allied, 5 German (17.1).",
        ),
        (
            {"artillery_track": [[8, 5], [8, 5], [10, 5], *([[8, 5]] * 8)]},
            "board.artillery_track.2",
            "Game turn 3 gives 15 markers: both sides share the 13 bombardment markers (11.1).",
        ),
        (
            {"peaks": ["1101", "1102"]},
            "board.peaks",
            "Enter the 13 different peak hexes printed on the map: 2 given (12.1).",
        ),
        (
            {"peaks": ["11O1"]},
            "board.peaks.0",
            "The 13 peak hexes printed on the map: enter each hex as four digits, such as 1534 (12.1).",
        ),
        (
            {"turn_track": ["Morning", "Dusk", *(["Day"] * 9)]},
            "board.turn_track.1",
            "The 11 boxes of the Turn Track in order: enter Morning, Day, Evening or Night (13.1).",
        ),
        (
            {"aircraft": 21},
            "board.aircraft",
            "Allied aircraft markers in the counter mix: enter at most 20 (11.1, 18.1).",
        ),
    ],
)
def test_the_club_s_data_is_refused_in_the_book_s_words(
    board: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(RulesError) as e:
        board_checked(board, "board")
    assert e.value.field == field
    assert e.value.reason == words
    # No list of values for the page to append ("pick [8, 5]"): the sentence says what the book prints.
    assert e.value.allowed is None and "[" not in e.value.reason
