"""A game can be made of any rule set played as a game (rules.registry.all_game_rules), through the API and the
lobby's form; a rule set only looked up, or a scenario of another rule set, is refused naming `ruleset`."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rules.registry import all_game_rules
from tests import csrf
from tests.app.games.test_second_rule_set import skirmish  # noqa: F401 (the fixture)
from tests.skirmish import Skirmish


def test_a_game_is_made_of_any_playable_rule_set(skirmish: None, sqlite_client: TestClient) -> None:  # noqa: F811
    playable = [r.book.ruleset_id for r in all_game_rules()]
    assert Skirmish.id in playable
    for ruleset in playable:
        made = sqlite_client.post("/api/v1/games", json={"ruleset": ruleset, "name": f"A {ruleset} game"})
        assert made.status_code == 201, made.text
        game = made.json()["game"]
        assert game["ruleset"] == ruleset
        assert (
            sqlite_client.get(
                f"/api/v1/games/{game['id']}/units",
                headers={"Authorization": f"Bearer {made.json()['referee_token']}"},
            ).status_code
            == 200
        )
    # Without one, the first playable rule set's.
    assert sqlite_client.post("/api/v1/games", json={}).json()["game"]["ruleset"] == playable[0]


def test_a_rule_set_not_played_as_a_game_or_another_scenarios_is_refused(
    skirmish: None,  # noqa: F811
    reading_client: TestClient,
) -> None:
    looked_up = reading_client.post("/api/v1/games", json={"ruleset": "firestorm-villers-bretonneux"})
    assert looked_up.status_code == 422 and looked_up.json()["field"] == "ruleset", looked_up.text
    other = reading_client.post("/api/v1/games", json={"ruleset": Skirmish.id, "scenario": "mons-1914"})
    assert other.status_code == 422 and other.json()["field"] == "ruleset", other.text


def test_the_lobby_makes_a_game_of_the_rule_set_chosen(skirmish: None, sqlite_client: TestClient) -> None:  # noqa: F811
    page = sqlite_client.get("/")
    assert f'name="ruleset" value="{Skirmish.id}"' in page.text
    made = sqlite_client.post(
        "/games/new",
        data=csrf.form(sqlite_client, {"scenario": "", "ruleset": Skirmish.id, "name": "Pins"}),
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    game_id = int(made.headers["location"].split("/")[2])
    assert sqlite_client.get(f"/api/v1/games/{game_id}").json()["ruleset"] == Skirmish.id


def test_a_units_level_and_quality_are_words_of_its_games_rule_set(
    skirmish: None,  # noqa: F811
    sqlite_client: TestClient,
) -> None:
    ff = all_game_rules()[0]
    for ruleset, level, quality, status in (
        (ff.book.ruleset_id, "legion", None, 422),
        (ff.book.ruleset_id, ff.book.unit_levels[0], "elite", 422),
        (ff.book.ruleset_id, ff.book.unit_levels[0], ff.book.qualities[0], 201),
        (Skirmish.id, "legion", "elite", 201),  # a rule set that lists no words takes any
    ):
        made = sqlite_client.post("/api/v1/games", json={"ruleset": ruleset}).json()
        referee = {"Authorization": f"Bearer {made['referee_token']}"}
        unit = {"side": "attacker", "name": "A", "level": level, "quality": quality}
        added = sqlite_client.post(f"/api/v1/games/{made['game']['id']}/units", headers=referee, json=unit)
        assert added.status_code == status, added.text
        if status == 422:
            assert added.json()["field"] == ("quality" if quality else "level")
    ff_game = sqlite_client.post("/api/v1/games", json={}).json()
    referee = {"Authorization": f"Bearer {ff_game['referee_token']}"}
    added = sqlite_client.post(
        f"/api/v1/games/{ff_game['game']['id']}/units",
        headers=referee,
        json={"side": "attacker", "name": "B", "level": ff.book.unit_levels[0]},
    ).json()["unit"]
    edit = sqlite_client.put(
        f"/api/v1/games/{ff_game['game']['id']}/units/{added['id']}",
        headers=referee,
        json={"version": added["version"], "quality": "elite"},
    )
    assert edit.status_code == 422 and edit.json()["field"] == "quality", edit.text


def test_the_lobbys_by_hand_form_makes_a_game_of_the_period_chosen(sqlite_client: TestClient) -> None:
    """The start page's "By hand: period and nations": each rule set's periods are its own radio group, and the one ticked is the
    game's (the page's taps were test_map's set-up; what they send is this)."""
    assert 'name="period_flanders-fields" value="mid"' in sqlite_client.get("/").text
    made = sqlite_client.post(
        "/games/new",
        data=csrf.form(
            sqlite_client, {"scenario": "", "ruleset": "flanders-fields", "period_flanders-fields": "mid"}
        ),
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    game_id = int(made.headers["location"].split("/")[2])
    assert sqlite_client.get(f"/api/v1/games/{game_id}").json()["period"] == "mid"
