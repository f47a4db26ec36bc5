"""The page of counters' panels as the server renders them for one seat (app/pages/counters_panel.py, issue 67):
a fragment holds nothing of the other side's that the seat's own JSON would not show it. Proved on a toy rule set
defined here whose counters carry a secret state field (the only board of counters in the book, Vimy Ridge's,
has none): the referee's fragment shows the value (so the fragment would say it), the owner's does, the other
side's never, neither its card nor its list; and a roll's result asked for by the id of an event the seat may
not read (another game's) says nothing. The panels' taps and layout are the browser's
(tests/frontend/test_counters_page.py)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from rules.core.game import Book, GameRules
from rules.core.kit import CounterBoard, TableKit
from rules.core.records import StateField
from rules.core.ruleset import RuleSet
from rules.core.turn import Step
from rules.registry import registered
from tests.app.games.conftest import Game, new_game, start_game
from tests.app.test_counter_board import SHELL, ToyRuleSet

SOURCE = "Secret counters: THE TURN"
ORDERS = "hold the crossroads at dusk"


class SecretGame(GameRules):
    """Counters on hexes, each with its side's secret orders (the owning side's alone), shown on its card."""

    book = Book(
        ruleset_id="toy-secret-counters",
        state_fields=(
            StateField("hex", "Hex", "", edit="word"),
            StateField("strength", "Strength", 0, edit="number", maximum=9),
            StateField("orders", "Orders", "", secret=True, edit="word"),
        ),
        turn_source=SOURCE,
        kit=TableKit(counters=CounterBoard("hex", "hex", "", ("strength",))),
    )

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (Step("move", 1, "1", "Move", SOURCE, "the side moves"),)


class SecretRuleSet(RuleSet):
    id = "toy-secret-counters"
    name = "Secret counters (test)"
    source = SOURCE
    game = SecretGame()


@pytest.fixture
def secret() -> Iterator[None]:
    with registered(SecretRuleSet):
        yield


@pytest.fixture
def toy_counters() -> Iterator[None]:
    with registered(ToyRuleSet):
        yield


def panel(http: TestClient, g: Game, seat: dict[str, str], query: str) -> str:
    """The panels' fragment for the seat of `seat` (its device's cookie), as its words read."""
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(f"/games/{g.id}/counters/panel?{query}", headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    assert answer.status_code == 200, answer.text
    return html.unescape(answer.text)


def words(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))


def test_a_seat_s_panels_hold_nothing_its_json_does_not_show(sqlite_client: TestClient, secret: None) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Secrets", "ruleset": "toy-secret-counters"})
    api = f"/api/v1/games/{g.id}"
    made = {}
    for side, name, where in (("attacker", "1st Bn", "0101"), ("defender", "RIR 261", "0102")):
        state = {"hex": where, "strength": 4, "orders": f"{ORDERS} ({side})"}
        added = http.post(
            f"{api}/units",
            headers=g.referee,
            json={"side": side, "name": name, "level": "counter", "state": state},
        )
        assert added.status_code == 201, added.text
        made[side] = int(added.json()["unit"]["id"])
    start_game(http, g)
    seats = {"referee": g.referee, "attacker": g.attacker, "defender": g.defender}
    for role, seat in seats.items():
        shown = {u["id"]: u for u in http.get(f"{api}/units", headers=seat).json()}
        for side, uid in made.items():
            secret_words = f"{ORDERS} ({side})"
            readable = shown[uid]["orders"] == secret_words
            assert readable == (role in ("referee", side))  # the JSON's own answer, held below
            for query in (f"unit={uid}", "group=group", f"unit={uid}&done=1"):
                fragment = panel(http, g, seat, query)
                assert (secret_words in words(fragment)) == (readable and query.startswith("unit")), (
                    role,
                    query,
                )
                assert f"Hex {shown[uid]['hex']}" in words(fragment) or not query.startswith("unit")
    # A roll's result by an event id of another game: the card says nothing of it.
    other = new_game(http, {"name": "Other", "ruleset": "toy-secret-counters"})
    start_game(http, other)
    fragment = panel(http, g, g.attacker, f"unit={made['attacker']}&act=0&done=999")
    assert "data-play-done" not in fragment


def test_the_panels_refuse_a_query_out_of_range_by_its_field(sqlite_client: TestClient, secret: None) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Secrets", "ruleset": "toy-secret-counters"})
    http.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        for query in ("group=sideways", "unit=0", "die=9", "act=-1", f"opt={'x' * 200}", "joined=0"):
            answer = http.get(f"/games/{g.id}/counters/panel?{query}")
            assert answer.status_code == 422, (query, answer.status_code)
            assert re.split(r"[=&]", query)[0] in answer.text, (query, answer.text)
    finally:
        http.cookies.clear()


def test_the_card_plays_a_roll_as_the_pipeline_answers_it(
    sqlite_client: TestClient, toy_counters: None
) -> None:
    """The toy counters' shelling from the enemy counter's card: refused as it stands with its rule's sentence,
    its option (the players' call) lifting it, the odds, and once recorded the result as the roll's own answer
    said it (its dice, outcome and effects), read back from its event."""
    http = sqlite_client
    g = new_game(http, {"name": "Toy counters", "ruleset": ToyRuleSet.id})
    api = f"/api/v1/games/{g.id}"
    enemy = http.post(
        f"{api}/units",
        headers=g.referee,
        json={"side": "defender", "name": "Z", "level": "counter", "state": {"hex": "0201"}},
    ).json()["unit"]["id"]
    start_game(http, g)
    card = words(panel(http, g, g.attacker, f"unit={enemy}&act=0"))
    assert "Shell: Z" in card and "Say the shelling is aimed (T.4)." in card
    aimed = words(panel(http, g, g.attacker, f"unit={enemy}&act=0&opt=aimed=true"))
    assert "Say the shelling is aimed" not in aimed and "Win 1 in 6" in aimed
    roll = {"target_id": enemy, "dice": [6], "fields": {"aimed": True}, "apply": True}
    answer = http.post(f"{api}/resolve/{SHELL}", headers=g.attacker, json=roll).json()
    done = panel(http, g, g.attacker, f"unit={enemy}&act=0&opt=aimed=true&done={answer['event_id']}")
    assert f'data-play-done="{answer["event_id"]}" data-play-outcome="win"' in done
    assert f"Rolled 6: {answer['outcome_words']}." in words(done)
    assert answer["said"] and all(line in words(done) for line in answer["said"])
