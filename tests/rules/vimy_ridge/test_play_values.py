"""Vimy Ridge as a game: each value its play package defines, tested against the printed line it comes from
(quoted here as the exclusive rules print it), and every refusal of its rules of play one sentence of at most
120 characters naming its rule. The play itself is the golden script (tests/rules/golden_play)."""

from __future__ import annotations

import json
from pathlib import Path

from rules.core.game import first_position
from rules.vimy_ridge.play import club, game

SCRIPT = Path(__file__).parents[1] / "golden_play" / "vimy-ridge-night-and-victory.json"


def test_the_values_are_the_printed_ones() -> None:
    # 12.1 "1 VP = If a Canadian unit was the last to have occupied the German supply hex in Petit Vimy (1534)."
    assert club.SUPPLY_HEX == "1534"
    # 17.1 'on the second game turn, the Artillery Track is printed with the listing "8/5"'
    assert club.TURN_TWO_ALLOTMENT == (8, 5)
    # 12.1 "provided that neither town hex of Petit Vimy is not presently occupied by any German unit"
    assert club.PETIT_VIMY_TOWN_HEXES == 2
    # 15.1 "The Allied player is the first player."; 15.2 "The game begins with the Allied combat phase"
    assert first_position(game.VIMY_GAME).side == game.ALLIED == "attacker"


def test_every_refusal_is_one_sentence_citing_its_rule() -> None:
    refused = [
        s["answer"]["refused"] for s in json.loads(SCRIPT.read_text())["acts"] if "refused" in s["answer"]
    ]
    assert len(refused) >= 10
    for r in refused:
        sentence = r["rule"].split(" (allowed")[0]
        # The exclusive rules' numbered line, or the standard rules' for a combat result (not in the library).
        assert len(sentence) <= 120 and ("(1" in sentence or "(standard rules)" in sentence), sentence


def test_the_record_tells_a_bombardment_and_an_attack_in_vimys_words() -> None:
    report = game.VIMY_GAME
    assert report.roll_words("bombardment", {"outcome_key": "hit"}, "RIR 261") == "bombarded RIR 261: a hit"
    attack = {"outcome_key": "D2", "line": "Trench hexside, Woods", "column": "+6, +7"}
    told = report.roll_words("attack", attack, "RIR 261")
    assert told == "attacked RIR 261 on the Trench hexside, Woods line, column +6, +7: D2"
