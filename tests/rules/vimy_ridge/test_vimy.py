"""Vimy Ridge tables cell by cell against the exclusive rules, and exact odds of its resolvers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.dice import all_rolls
from rules.core.errors import RulesError
from rules.registry import get_ruleset
from rules.vimy_ridge.data import CRT_RESULTS, TERRAINS, TURNS, line_columns
from rules.vimy_ridge.resolvers import (
    BombardmentRequest,
    CombatRequest,
    TurnRequest,
    VictoryRequest,
    crt_column,
)

RS = get_ruleset("vimy-ridge")

# The CRT as extracted (tabs kept), header lines and die rows verbatim from the text.
TEXT_LINES = {
    "Peak": "-1\t0\t+1\t+2, +3\t+4, +5\t+6, +7\t+8, +9\t+10",
    "Trench hexside, Woods": "-2\t-1\t0\t+1\t+2, +3\t+4, +5\t+6, +7\t+8, +9\t+10",
    "Town, Hill, La Folie Farm": "-3\t-2\t-1\t0\t+1\t+2, +3\t+4, +5\t+6, +7\t+8, +9\t+10",
    "River": "-4\t-3\t-2\t-1\t0\t+1\t+2, +3\t+4, +5\t+6, +7\t+8, +9\t+10",
    "Clear": "-5\t-4\t-3\t-2\t-1\t0\t+1\t+2, +3\t+4, +5\t+6, +7\t+8, +9\t+10",
}
TEXT_ROWS = {
    1: "(A)\tA3\tA2\t\tEx\tEx\tD2\tD2\tD2\tD3\tDe\tDe",
    2: "(A)\t(A)\tA3\tA2\t\tEx\tEx\tEx\tD2\tD2\tD3\tDe",
    3: "(A)\t(A)\t(A)\tA3\tA2\t\tEx\tEx\tEx\tD2\tD2\tD3",
    4: "(A)\t(A)\t(A)\t(A)\tA3\tA2\t\tEx\tEx\tEx\tD2\tD2",
    5: "Ae\t(A)\t(A)\t(A)\t(A)\tA3\tA2\t\tEx\tEx\tEx\tD2",
    6: "Ae\tAe\t(A)\t(A)\t(A)\t(A)\t(A)\tA1\t\tEx\tEx\tEx",
}


@pytest.mark.parametrize("die", range(1, 7))
def test_crt_rows_match_the_text_cell_by_cell(die: int) -> None:
    assert CRT_RESULTS[die] == tuple(TEXT_ROWS[die].split("\t"))


@pytest.mark.parametrize("line", list(TEXT_LINES))
def test_crt_column_headings_match_the_text(line: str) -> None:
    labels = TEXT_LINES[line].split("\t")
    cols = line_columns(line)
    assert len(cols) == len(labels)
    for (lo, hi), label in zip(cols, labels, strict=True):
        assert [int(x) for x in label.split(", ")] == ([lo] if lo == hi else [lo, hi])


def test_peak_plus_10_reads_the_eighth_column() -> None:
    # Left-aligned lines: Peak "+10" is the 8th column, whose die-1 cell is "D2" ("1 (A) A3 A2 _ Ex Ex D2 D2 ...").
    res = RS.resolve(
        "combat", CombatRequest(terrain="peak", attack_strength=12, defense_strength=2, dice=[1])
    )
    assert res.evaluation.outcome == "D2"
    assert res.evaluation.details["column"] == "+10"


def test_clear_plus_10_die_1_is_de() -> None:
    res = RS.resolve(
        "combat", CombatRequest(terrain="clear", attack_strength=14, defense_strength=4, dice=[1])
    )
    assert res.evaluation.outcome == "De"
    # Column 12 down the die rows: De, De, D3, D2, D2, Ex.
    assert res.probabilities == {
        "De": Fraction(2, 6),
        "D3": Fraction(1, 6),
        "D2": Fraction(2, 6),
        "Ex": Fraction(1, 6),
    }


def test_no_mans_land_halves_defence_rounding_down() -> None:
    # 14.1 "The defense factor ... is halved (fractions rounded down)": 5 -> 2, so 6 - 2 = +4.
    res = RS.resolve(
        "combat",
        CombatRequest(terrain="clear", attack_strength=6, defense_strength=5, no_mans_land=True, dice=[6]),
    )
    assert res.evaluation.details["differential"] == 4
    assert res.evaluation.modifiers[0].value == -3


def test_blank_cell_is_no_effect_and_cited() -> None:
    # Clear 0 is column 6; die 4 row "(A) (A) (A) (A) A3 A2 _ ..." has A2 there; die 1 row's blank is column 4 (-2).
    res = RS.resolve(
        "combat", CombatRequest(terrain="clear", attack_strength=3, defense_strength=5, dice=[1])
    )
    assert res.evaluation.key == "no effect"
    assert any("Combat Results" in s for s in res.evaluation.sources)


def test_far_below_the_line_uses_the_first_column() -> None:
    res = RS.resolve(
        "combat", CombatRequest(terrain="river", attack_strength=0, defense_strength=20, dice=[5])
    )
    assert res.evaluation.outcome == "Ae" and res.evaluation.details["column"] == "-4"


@pytest.mark.parametrize(
    ("req", "field"),
    [
        (
            CombatRequest(terrain="trench", attack_strength=5, defense_strength=2, no_mans_land=True),
            "terrain",
        ),
        (CombatRequest(terrain="clear", attack_strength=5, defense_strength=2, turn=3), "turn"),
        (BombardmentRequest(bombarding_side="allied", la_folie_woods=True, turn=2), "la_folie_woods"),
        (BombardmentRequest(bombarding_side="allied", gas=True, turn=2), "gas"),
        (BombardmentRequest(bombarding_side="german", gas=True, turn=1), "gas"),
        (BombardmentRequest(bombarding_side="german", aircraft=True, turn=1), "aircraft"),
    ],
)
def test_refusals_name_the_field(req: object, field: str) -> None:
    resolver = "combat" if isinstance(req, CombatRequest) else "bombardment"
    with pytest.raises(RulesError) as err:
        RS.resolve(resolver, req)  # type: ignore[arg-type]
    assert err.value.field == field


def test_bombardment_modifiers_from_the_chart() -> None:
    # "+3 = Trench hex", "+2 = Woods" (highest applies), "-2 Gas", "-1 Allied aircraft"
    res = RS.resolve(
        "bombardment",
        BombardmentRequest(
            bombarding_side="allied", terrain=["woods", "trench"], turn=1, gas=True, aircraft=True, dice=[4]
        ),
    )
    assert [m.value for m in res.evaluation.modifiers] == [3, -2, -1]
    # 4 + 0 = 4: "4 —"; only 1 or 2 (after modifiers) hit: faces 1, 2 hit -> 2/6.
    assert res.evaluation.key == "no effect"
    assert res.probabilities["hit"] == Fraction(1, 3)


def test_automatic_hit_on_a_one_even_in_a_trench_at_night() -> None:
    # turn 3 is a night turn (+1), German bombarding an Allied unit (-1), trench +3: net +3; only a 1 hits.
    res = RS.resolve(
        "bombardment", BombardmentRequest(bombarding_side="german", terrain=["trench"], turn=3, dice=[1])
    )
    assert res.evaluation.key == "hit"
    assert res.probabilities == {"hit": Fraction(1, 6), "no effect": Fraction(5, 6)}


def test_two_markers_at_most_one_hit() -> None:
    # Clear hex, day: faces 1-2 hit, so two markers hit with 1 - (4/6)^2 = 20/36.
    res = RS.resolve(
        "bombardment", BombardmentRequest(bombarding_side="allied", turn=2, markers=2, dice=[1, 2])
    )
    assert res.evaluation.key == "hit" and res.evaluation.details["marker_results"] == ["hit", "hit"]
    assert res.probabilities["hit"] == Fraction(20, 36)


@given(
    st.lists(st.sampled_from(["clear", "no-mans-land", "town", "woods", "trench"]), min_size=1, max_size=3),
    st.sampled_from(["allied", "german"]),
    st.integers(1, 11),
    st.booleans(),
    st.integers(1, 2),
)
def test_bombardment_odds_equal_brute_force(
    terrain: list[str], side: str, turn: int, air: bool, markers: int
) -> None:
    req = BombardmentRequest(
        bombarding_side=side,  # type: ignore[arg-type]
        terrain=terrain,  # type: ignore[arg-type]
        turn=turn,
        aircraft=air and side == "allied",
        markers=markers,
    )
    res = RS.resolve("bombardment", req)
    net = sum(m.value for m in res.evaluation.modifiers)
    hits = sum(1 for roll in all_rolls((6,) * markers) if any(d == 1 or d + net <= 2 for d in roll))
    assert res.probabilities.get("hit", Fraction(0)) == Fraction(hits, 6**markers)
    assert sum(res.probabilities.values()) == 1


@given(st.sampled_from(TERRAINS), st.integers(-30, 30))
def test_every_differential_lands_on_a_column(terrain: str, diff: int) -> None:
    col, label = crt_column(terrain, diff)  # type: ignore[arg-type]
    assert label.split(", ")[0].lstrip("+-").isdigit()
    assert 0 <= col < 12


def test_turn_track_and_allotments() -> None:
    # 20.1 "The game is divided into 11 turns"; 11.1 turn 1 is "April 9 (Morning)".
    assert len(TURNS) == 11 and (TURNS[0].date, TURNS[0].part) == ("9 April", "Morning")
    # 17.1 "on the second game turn, the Artillery Track is printed with the listing '8/5'"
    t2 = RS.resolve("turn", TurnRequest(turn=2)).evaluation.outcome
    assert t2["bombardment_markers"] == {"allied": 8, "german": 5} and not t2["night"]
    night = RS.resolve("turn", TurnRequest(turn=3)).evaluation.outcome
    # 11.3/11.6 "two replacements"; 18.1 one aircraft marker lost each night; night allotments reduced.
    assert (
        night["night"] and night["replacements_per_side"] == 2 and night["allied_aircraft_markers_lost"] == 1
    )
    assert night["bombardment_markers"] == {"allied": 4, "german": 2}
    assert sum(night["bombardment_markers"].values()) <= 13
    variant = RS.resolve(
        "turn", TurnRequest(turn=3, variants={"artillery-track": "turn-2-everywhere"})
    ).evaluation
    assert variant.outcome["bombardment_markers"] == {"allied": 8, "german": 5}


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        (
            {
                "game_over": True,
                "canadians_last_in_all_peaks": True,
                "canadians_last_in_petit_vimy_supply": True,
            },
            "allied win",
        ),
        ({"game_over": True, "most_units_of_one_division_on_east_edge": 3}, "german win"),
        ({"game_over": False, "most_units_of_one_division_on_east_edge": 3}, "undecided"),
        ({"allied_unit_entered_vimy": True}, "allied instant win"),
        ({"allied_unit_entered_vimy": True, "german_units_in_petit_vimy_town": 1}, "undecided"),
        ({"german_units_left": 0}, "allied instant win"),
    ],
)
def test_victory(kwargs: dict[str, object], key: str) -> None:
    # 12.1 "wins if he accumulates no less than two (2) VP"; instant win on entering Vimy or eliminating all Germans.
    assert RS.resolve("victory", VictoryRequest(**kwargs)).evaluation.key == key  # type: ignore[arg-type]


def test_datasets_serve() -> None:
    crt = RS.data("combat-results-table")
    assert [ln["line"] for ln in crt["lines"]] == list(TEXT_LINES)
    assert RS.data("bombardment-table")["terrain_modifiers_highest_applies"]["trench"] == 3
    assert len(RS.data("turn-track")["turns"]) == 11
