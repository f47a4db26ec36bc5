"""The lookup's answer names the reading an erratum's dispute was decided by, citing it, and offers the other in
one tap (issue 69): outside a game the same roll is asked again by it; in a game the referee makes it the
game's reading, another seat is told why not. Which errata decide an answer is the rules' own
(tests/rules/flanders_fields/test_errata_deciding.py): here, what the page does with it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

HX = {"HX-Request": "true"}
# Early infantry in the open, raw, at 10 cm (a toggle is sent only when on): a 3 suppresses but for the penalty.
RAW_SHOT = {
    "period": "early",
    "firer": "infantry",
    "cover": "open",
    "range_cm": "10",
    "direct_line_of_sight": "true",
    "firer_raw": "true",
}
URL = "/lookup/flanders-fields/shooting"


def _outcome(text: str) -> str:
    found = re.search(r'class="outcome outcome-([\w-]+)"', text)
    assert found, text
    return found.group(1)


def test_the_answer_names_its_reading_and_answers_by_the_other_in_one_tap(reading_client: TestClient) -> None:
    by_sheet = reading_client.post(URL, data={**RAW_SHOT, "dice.0": "3"}, headers=HX)
    assert by_sheet.status_code == 200 and 'class="errors"' not in by_sheet.text
    assert "Reading: Raw troops shooting: Playsheet</strong>" in by_sheet.text
    assert 'name="_reading" value="raw-firer-penalty=main-text">Answer it by: Main text<' in by_sheet.text
    # The tap: the same form and dice, the other reading; it stays chosen for the next roll.
    by_text = reading_client.post(
        URL, data={**RAW_SHOT, "dice.0": "3", "_reading": "raw-firer-penalty=main-text"}, headers=HX
    )
    assert _outcome(by_text.text) != _outcome(by_sheet.text)
    assert "Reading: Raw troops shooting: Main text</strong> (a variant)" in by_text.text
    assert 'name="_reading" value="raw-firer-penalty=playsheet"' in by_text.text
    assert 'name="variants.raw-firer-penalty" value="main-text"' in by_text.text
    # Back to the default: no variant left.
    back = reading_client.post(
        URL,
        data={
            **RAW_SHOT,
            "dice.0": "3",
            "variants.raw-firer-penalty": "main-text",
            "_reading": "raw-firer-penalty=playsheet",
        },
        headers=HX,
    )
    assert _outcome(back.text) == _outcome(by_sheet.text) and 'name="variants.' not in back.text


def test_an_answer_no_reading_decides_names_none(reading_client: TestClient) -> None:
    six = reading_client.post(URL, data={**RAW_SHOT, "dice.0": "6"}, headers=HX)
    assert 'id="answer"' in six.text and "data-readings-used" not in six.text


def test_a_forged_reading_is_said_in_the_panel(reading_client: TestClient) -> None:
    for forged in ("nope=x", "raw-firer-penalty=both", "=", "x" * 5000):
        r = reading_client.post(URL, data={**RAW_SHOT, "dice.0": "3", "_reading": forged}, headers=HX)
        assert r.status_code == 200 and "<strong>Reading</strong>: names no erratum" in r.text, forged


def test_an_answer_waiting_for_numbers_names_them_and_no_range_where_none_is(
    reading_client: TestClient,
) -> None:
    """The newcomer pass of issue 69: morale's note said 'firestep never assumes a range' of two counts."""
    blank = {"period": "mid", "starting_platoons": "", "lost_platoons": ""}
    waiting = reading_client.post("/lookup/flanders-fields/morale", data=blank, headers=HX)
    assert (
        "No answer yet: enter Starting platoons, Lost platoons. firestep never assumes them." in waiting.text
    )
    assert "range" not in waiting.text.split('class="needed-note"')[1].split("</p>")[0]


def test_a_lookups_own_field_refused_is_named(reading_client: TestClient) -> None:
    """The lookup's own fields are its form model's (issue 90): a game that is no whole number is refused naming
    the field, not asked as a free lookup."""
    for bad in ("x", "-1", "9" * 20):
        r = reading_client.post(URL, data={**RAW_SHOT, "_game": bad}, headers=HX)
        assert r.status_code == 422 and r.json()["field"] == "_game", bad
