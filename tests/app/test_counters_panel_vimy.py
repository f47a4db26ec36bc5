"""A newcomer's Vimy Ridge game on its page of counters, as the server renders its panels (app/pages/
counters_build.py, frontend/templates/_counters_panel.html): a counter's accessible name is one phrase, its
name first, its side a part of its own ("1st Bn (Canadian) 6-4"), where a part read ", Canadian"; the track's dark
turns are explained by a key in the rule set's words, and each turn's bombardment markers are the real
figure (the artillery-track erratum's, no club data entered), where the page said "Bombardment ?/?"; a CRT
result is said in words beside its code with its rule ("Ex: an exchange: ..."). And the Next step is shown to
every seat the advance takes it from (the referee, the sides acting in the step) and to no other, proved on a
toy board of counters whose first step both sides act in. Hex numbers and counters are a club example."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.core.game import Book, GameRules
from rules.core.kit import CounterBoard, TableKit
from rules.core.records import StateField
from rules.core.ruleset import RuleSet
from rules.core.turn import Step
from rules.registry import registered
from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.test_counters_panel import panel, words

SOURCE = "Bound counters: THE TURN"


def _counter(http: TestClient, g: Game, side: str, name: str, division: str, where: str) -> int:
    made = http.post(
        f"/api/v1/games/{g.id}/units",
        headers=g.referee,
        json={"side": side, "name": name, "level": "counter"},
    )
    assert made.status_code == 201, made.text
    uid = int(made.json()["unit"]["id"])
    values = {"hex": where, "division": division, "attack": 6, "defence": 4, "attack_depleted": 3}
    values |= {"movement_allowance": 3}
    set_up = http.put(f"/api/v1/games/{g.id}/units/{uid}", headers=g.referee, json={"version": 1, **values})
    assert set_up.status_code == 200, set_up.text
    return uid


def test_a_vimy_counter_its_track_and_a_result_said_in_words(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": "vimy-ridge"})
    allied = _counter(http, g, "attacker", "1st Bn", "1st Canadian", "0910")
    german = _counter(http, g, "defender", "RIR 262", "79th Reserve", "1010")
    start_game(http, g)
    page = panel(http, g, g.attacker, "")
    # The counter's name one phrase, its parts in order (the side's word no part of its own).
    # (Each of a counter's spans a part of its name in the browser: a flex item, the side's absolutely placed.)
    assert '<span class="counter-name">1st Bn</span><span class="sr-only">(Canadian)</span>' in page
    assert '<span class="sr-only">, ' not in page
    # The track: the real bombardment figure of each turn, a key saying what a dark turn is (13.1, 11.3).
    assert "?/?" not in page and "?" not in " ".join(re.findall(r'title="([^"]*)"', page))
    assert "Bombardment markers 8/5 (Allied/German, 17.1)" in words(page)
    assert (
        "Dark: a night turn, no attack or movement by either side (13.1); two replacements a side"
        in words(page)
    )
    # The German seat, shown no Next step in the Allied turn (15.0: each player's phases his own), told whose it is.
    german_page = panel(http, g, g.defender, "")
    assert "data-next-step" not in german_page
    assert "The Canadian player moves the game on." in words(german_page)
    # Zero Hour: the Allied movement phase moves nothing (15.2), and the counter's card says so on its greyed
    # Move (session 21's newcomer: a card without Move said nothing why).
    assert "Movement phase" in words(german_page)
    card = panel(http, g, g.attacker, f"unit={allied}")
    move = re.search(r'<button [^>]*data-act-greyed title="([^"]*)"[^>]*>Move to another hex</button>', card)
    assert move and move.group(1).endswith("no Allied move on turn 1 (15.2)."), card
    assert ">Retreat</button>" not in card  # a result's move, not the plain move: not offered now
    # An attack rolled: Clear, +2 (6 - 4), a die of 2 reads "Ex" on its column, said in words with its rule.
    advance_to(http, g, "combat")
    body: dict[str, Any] = {"unit_id": allied, "target_id": german, "fields": {"attackers": [allied]}}
    rolled = http.post(f"/api/v1/games/{g.id}/resolve/attack", headers=g.attacker, json={**body, "dice": [2]})
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["resolution"]["outcome_key"] == "Ex"
    done = words(panel(http, g, g.attacker, f"unit={allied}&act=0&done={rolled.json()['event_id']}"))
    assert "Rolled 2: Ex." in done
    assert "Ex: an exchange: the attackers and the defender each lose a step" in done
    assert "Integrated Combat Results Table" in done.split("Ex: an exchange")[1]


class BoundGame(GameRules):
    """Counters on hexes; each turn's first step both sides act in (their orders), then the side's move."""

    book = Book(
        ruleset_id="toy-bound-counters",
        state_fields=(StateField("hex", "Hex", "", edit="word"), StateField("strength", "Strength", 0)),
        turn_source=SOURCE,
        kit=TableKit(counters=CounterBoard("hex", "hex", "", ("strength",))),
    )

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (
            Step(
                "orders", 1, "1", "Orders", SOURCE, "both sides write orders", sides=("attacker", "defender")
            ),
            Step("move", 2, "2", "Move", SOURCE, "the side moves"),
        )


class BoundRuleSet(RuleSet):
    id = "toy-bound-counters"
    name = "Bound counters (test)"
    source = SOURCE
    game = BoundGame()


@pytest.fixture
def bound() -> Iterator[None]:
    with registered(BoundRuleSet):
        yield


def test_next_step_is_shown_to_every_seat_the_advance_takes_it_from(
    sqlite_client: TestClient, bound: None
) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Bound", "ruleset": BoundRuleSet.id})
    start_game(http, g)
    seats = {"referee": g.referee, "attacker": g.attacker, "defender": g.defender}
    api = f"/api/v1/games/{g.id}"
    for step, may in (("orders", {"referee", "attacker", "defender"}), ("move", {"referee", "attacker"})):
        turn = http.get(f"{api}/turn", headers=g.referee).json()
        assert turn["step"]["id"] == step
        pages = {role: panel(http, g, seat, "") for role, seat in seats.items()}
        shown = {role for role, page in pages.items() if "data-next-step" in page}
        assert shown == may, (step, shown)
        for role in set(seats) - may:  # told whose it is
            assert "The Attacker player moves the game on." in words(pages[role]), role
        for role in set(seats) - may:  # a seat shown none: the advance refuses it, nothing moved
            said = http.post(f"{api}/turn/advance", headers=seats[role], json={"version": turn["version"]})
            assert said.status_code == 403, said.text
        # The last seat shown it moves the step on.
        last = sorted(may - {"referee"})[-1]
        moved = http.post(f"{api}/turn/advance", headers=seats[last], json={"version": turn["version"]})
        assert moved.status_code == 200, moved.text
