"""Flanders Fields' story of the game in the book's words (issue 42): the rolls it tells by what they did; the
morale test and the heroic action are read in a played game (tests/app/games/test_mons_two_turns.py)."""

from __future__ import annotations

from rules.flanders_fields.play.game_report import FlandersFieldsReport


def test_an_assault_is_told_by_its_consequence_and_a_shot_by_what_it_did() -> None:
    consequence = "The attacker destroys or captures the defender; it may follow up against a new opponent."
    resolution = {"outcome_key": "attacker-wins", "consequence": consequence}
    report = FlandersFieldsReport()
    assert report.roll_words("assault", resolution, "B Plt 11") == (
        "assaulted B Plt 11: the attacker destroys or captures the defender"
    )
    assert report.roll_words("shooting", {"outcome_key": "killed"}, "B Plt 11") == ""
