"""A game set up by hand on the start page (its "Set up by hand" chip, the rule set chosen): without a name it is
named after its rule set, not "New game"; a rule set whose book fixes its sides (Vimy Ridge: the Allied attacker,
the German defender, 15.1) gives them their nations and asks none, where every rule set's nations said
"german" and "british"; another's nations are typed in its own fieldset and kept."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from rules.registry import all_game_rules, get_ruleset
from tests import csrf


def _by_hand(client: TestClient, fields: dict[str, str]) -> dict[str, object]:
    made = client.post(
        "/games/new", data=csrf.form(client, {"scenario": "", **fields}), follow_redirects=False
    )
    assert made.status_code == 303, made.text
    game_id = int(made.headers["location"].split("/")[2])
    game: dict[str, object] = client.get(f"/api/v1/games/{game_id}").json()
    return game


def test_a_vimy_game_by_hand_is_named_after_its_rule_set_with_the_books_sides(
    sqlite_client: TestClient,
) -> None:
    game = _by_hand(sqlite_client, {"ruleset": "vimy-ridge"})
    assert game["name"] == get_ruleset("vimy-ridge").name == "Vimy Ridge: Arras Diversion"
    assert (game["attacker_nation"], game["defender_nation"]) == ("allied", "german")


def test_the_start_page_asks_each_rule_sets_nations_in_its_own_fieldset(sqlite_client: TestClient) -> None:
    page = sqlite_client.get("/").text
    assert 'placeholder="german"' not in page and 'placeholder="british"' not in page
    vimy = re.search(r'<fieldset[^>]*data-ruleset="vimy-ridge".*?</fieldset>', page, re.S)
    assert vimy is not None
    assert "Its book fixes the sides: the attacker Allied, the defender German." in vimy.group(0)
    assert "_nation" not in vimy.group(0)
    other = next(r for r in all_game_rules() if not r.book.side_nations)
    rid = other.book.ruleset_id
    assert f'name="attacker_nation_{rid}"' in page and f'name="defender_nation_{rid}"' in page
    typed = _by_hand(sqlite_client, {"ruleset": rid, "attacker_nation_" + rid: "french", "name": "Typed"})
    assert (typed["name"], typed["attacker_nation"], typed["defender_nation"]) == ("Typed", "french", "")


def test_a_name_typed_is_kept_whichever_way_the_game_is_made(sqlite_client: TestClient) -> None:
    """The Name sat under "By hand" and a scenario's game dropped it, named after the scenario whatever was typed
    (the newcomer pass): the field stands outside the fold-outs, and the game takes the name typed."""
    typed = _by_hand(sqlite_client, {"scenario": "mons-1914", "name": "Tuesday's Mons"})
    assert typed["name"] == "Tuesday's Mons" and typed["scenario"] == "mons-1914"
    blank = _by_hand(sqlite_client, {"scenario": "mons-1914", "name": ""})
    assert blank["name"] == "German attack on the BEF somewhere near Mons, autumn 1914"
    page = sqlite_client.get("/").text
    by_hand = re.search(r"<details[^>]*>\s*<summary>By hand.*?</details>", page, re.S)
    assert by_hand is not None and 'id="new-name"' in page and 'id="new-name"' not in by_hand.group(0)
