"""The start page's new-game form, refused, comes back with what was entered (the newcomer pass: a refusal kept
the name at most, and a refusal of the rules none): the way of setting up, the rule set chosen with its period
and nations, the organisation tables' choices and the clock's limits, whether a field's bound refused it or the
rules did. A refused game writes nothing."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from rules.registry import all_game_rules, get_ruleset
from tests import csrf


def _input(page: str, name: str, value: str) -> str:
    """The form's input of `name` holding `value` (a radio of that value, a text box typed so)."""
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="{re.escape(value)}"[^>]*>', page)
    assert found is not None, (name, value)
    return found.group(0)


def _chosen(page: str, name: str) -> list[str]:
    """The values checked or selected of the form's field `name`."""
    radios = re.findall(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="([^"]*)"[^>]*\bchecked\b', page)
    select = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    options = re.findall(r'<option value="([^"]*)"[^>]*\bselected\b', select.group(1)) if select else []
    return radios + options


def _refused(client: TestClient, fields: dict[str, str]) -> str:
    refused = client.post("/games/new", data=csrf.form(client, fields))
    assert refused.status_code == 422 and "<html" in refused.text, refused.text
    return refused.text


def test_a_game_by_hand_refused_keeps_its_rule_set_period_nations_and_clock(
    reading_client: TestClient,
) -> None:
    first, *others = all_game_rules()
    other = next(r.book.ruleset_id for r in others if not r.book.side_nations)
    with_periods = first.book.ruleset_id
    last_period = get_ruleset(with_periods).describe()["periods"][-1]["id"]
    page = _refused(
        reading_client,
        {
            "scenario": "",
            "name": "Kept",
            "ruleset": other,
            f"period_{with_periods}": last_period,
            f"attacker_nation_{other}": "french",
            f"defender_nation_{other}": "belgian",
            "clock_game": "150",
            "clock_game_unit": "1",
            "clock_turn": "0",  # no limit of a turn: refused, naming it
        },
    )
    assert "turn" in page.lower()
    assert _chosen(page, "scenario") == [""] and _chosen(page, "ruleset") == [other]
    assert _chosen(page, f"period_{with_periods}") == [last_period]
    assert 'value="Kept"' in _input(page, "name", "Kept")
    assert _input(page, f"attacker_nation_{other}", "french") and _input(
        page, f"defender_nation_{other}", "belgian"
    )
    assert _input(page, "clock_game", "150") and _chosen(page, "clock_game_unit") == ["1"]
    assert _input(page, "clock_turn", "0") and _chosen(page, "clock_turn_unit") == ["60"]


def test_forces_from_the_tables_refused_by_the_rules_keep_every_choice(reading_client: TestClient) -> None:
    quality = all_game_rules()[0].book.qualities[-1]
    page = _refused(
        reading_client,
        {
            "scenario": "tables",
            "name": "Kept",
            "forces_period": "mid",
            "attacker_force_nation": "french",
            "attacker_table": "gb-1915",  # not a French table: the rules refuse it
            "defender_force_nation": "german",
            "defender_table": "de-1916",
            "defender_quality": quality,
        },
    )
    assert "Attacker organisation table:" in page
    assert _chosen(page, "scenario") == ["tables"] and _chosen(page, "forces_period") == ["mid"]
    assert _chosen(page, "attacker_force_nation") == ["french"]
    assert _chosen(page, "defender_force_nation") == ["german"]
    assert _chosen(page, "attacker_table") == ["gb-1915"] and _chosen(page, "defender_table") == ["de-1916"]
    assert (
        _chosen(page, "defender_quality") == [quality] and _chosen(page, "attacker_quality") == []
    )  # its table's own
    assert _input(page, "name", "Kept")


def test_a_clock_past_a_day_in_its_unit_is_refused_naming_its_own_field(sqlite_client: TestClient) -> None:
    """The newcomer pass: 2,000 minutes were refused as "Attacker: ... at most 86400" (the API's seconds, a side's
    name), and 86,401 as "the clock game"; the form's own field and unit say it now."""
    for limit, unit, said in (("1441", "60", "1440 minutes"), ("86401", "1", "86400 seconds")):
        page = html.unescape(
            _refused(sqlite_client, {"scenario": "mons-1914", "clock_game": limit, "clock_game_unit": unit})
        )
        assert f"each side's time for the game: at most {said} (24 hours)" in page.lower(), page[-900:]
        assert "attacker" not in re.sub(r"<[^>]+>", " ", page[page.find('role="alert"') :][:300]).lower()
    fine = sqlite_client.post(
        "/games/new",
        data=csrf.form(
            sqlite_client, {"scenario": "mons-1914", "clock_game": "1440", "clock_game_unit": "60"}
        ),
        follow_redirects=False,
    )
    assert fine.status_code == 303, fine.text[-600:]


def test_a_refused_form_opens_the_fold_outs_it_was_refused_in(sqlite_client: TestClient) -> None:
    """The newcomer pass: what was typed came back, but in fold-outs all closed, the field named out of sight."""

    def opened(page: str) -> set[str]:
        return {
            summary.split(":")[0]
            for summary in re.findall(r"<details[^>]*\bopen\b[^>]*>\s*<summary>([^<]*)</summary>", page)
        }

    clock = {"scenario": "mons-1914", "clock_game": "1441", "clock_game_unit": "60"}
    assert opened(_refused(sqlite_client, clock)) == {"Game clock"}
    by_hand = {"scenario": "", "name": "Kept", "ruleset": "nothing-such"}
    assert opened(_refused(sqlite_client, by_hand)) == {"By hand"}
    assert opened(sqlite_client.get("/").text) == set()  # a page not refused: all closed, as before
