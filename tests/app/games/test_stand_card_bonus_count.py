"""A 2mm heavy weapon's fistful entered as a count (issue 89): a Machinegun pair's 3 dice with their (+1) were
tapped die by die (7 taps a shot); its card now asks how many reached the target's Resilience and, where the dice
leave it open, whether the bonus lifted one more, each control carrying what it leads to; its Apply records the
count, and the log and the card once recorded say it. The count's faces and odds: tests/rules/earth2mm."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.games.test_stand_card_next import attr, posted, read, words

MG = "Machinegun Company, platoon 1"


def _demo_at_the_mgs_step(http: TestClient) -> tuple[Game, dict[str, Any]]:
    g = new_game(http, {"scenario": "earth2mm-demo-ferme"})
    start_game(http, g)
    named = {u["name"]: u for u in http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()}
    advance_to(http, g, "execute-2")  # heavy weapons that did not move last bound shoot
    return g, named


def _card(http: TestClient, g: Game, named: dict[str, Any], target: str) -> str:
    return read(
        http,
        g.attacker,
        f"/games/{g.id}/map/units/{named[MG]['id']}/play/shoot?act=Shoot&target={named[target]['id']}",
    )


def test_a_machinegun_pairs_shot_asks_the_count_and_whether_its_bonus_lifted_a_die(
    client: TestClient,
) -> None:
    g, named = _demo_at_the_mgs_step(client)
    # At the elite 2. Kompanie (R6): how many of the 3 dice show 6, then whether one of the others showed 5.
    card = _card(client, g, named, "2. Kompanie, platoon 1")
    assert "How many of the 3 dice show 6 or more?" in words(card) and "data-die-row" not in card
    assert "data-count-lifted" not in card
    card = read(client, g.attacker, attr(card, "data-ask", 'data-count-reached="1"'))
    assert "Did one of the other dice show 5? The bonus lifts one to 6." in words(card), words(card)
    assert "data-play-apply" not in card
    card = read(client, g.attacker, attr(card, "data-ask", 'data-count-lifted="1"'))
    said = words(card)
    assert "1 of 3 dice reached 6+, another lifted to it (the chance of exactly 1 and one lifted: " in said, (
        said
    )
    assert 'data-play-outcome="2 hits"' in card
    rolled = posted(client, g.attacker, card, "data-play-apply")
    count = rolled["resolution"]["count"]
    assert (count["reached"], count["lifted"], rolled["resolution"]["outcome_key"]) == (1, True, "2 hits")
    assert not rolled["resolution"]["rolled_by_server"]
    done = read(client, g.attacker, attr(card, "data-done").replace("{event}", str(rolled["event_id"])))
    assert "Shoot: rolled 1 of 3 dice reaching 6+, another lifted to it by the bonus" in words(done)
    # The players' own dice: their mistaken Apply is theirs to take back (issue 89).
    assert f'data-play-undo="{rolled["event_id"]}"' in done


def test_where_every_die_short_of_it_is_lifted_the_count_alone_is_asked(client: TestClient) -> None:
    g, named = _demo_at_the_mgs_step(client)
    # At 1. Kompanie (R2) the (+1) lifts any die short of it: the count is the whole answer, no question more.
    card = _card(client, g, named, "1. Kompanie, platoon 1")
    card = read(client, g.attacker, attr(card, "data-ask", 'data-count-reached="2"'))
    assert "data-count-lifted" not in card and 'data-play-outcome="3 hits"' in card, words(card)


def test_a_shot_at_a_tank_asks_how_many_of_its_hits_reached_it_again(client: TestClient) -> None:
    # "all infantry and heavy weapon rolls against them must be re-rolled" (VEHICLES): 1. Kompanie's line
    # infantry at the Tank Company, its dice that reached the tank's Resilience rolled again.
    g, named = _demo_at_the_mgs_step(client)
    advance_to(client, g, "execute-5")  # infantry not dug in, not assaulting, shoot
    shooter, tank = named["1. Kompanie, platoon 1"], named["Tank Company, platoon 1"]
    url = f"/games/{g.id}/map/units/{shooter['id']}/play/shoot?act=Shoot&target={tank['id']}"
    card = read(client, g.defender, url)
    assert "data-count-reached" in card and "data-die-row" not in card, words(card)
    reach = int(re.search(r"How many of the \d+ dice show (\d) or more\?", words(card)).group(1))  # type: ignore[union-attr]
    card = read(client, g.defender, attr(card, "data-ask", 'data-count-reached="2"'))
    assert f"The 2 dice that reached it are rolled again: how many show {reach} or more?" in words(card)
    assert "data-play-apply" not in card
    card = read(client, g.defender, attr(card, "data-ask", 'data-count-again="1"'))
    assert (
        'data-play-outcome="1 hit"' in card
        and ", 1 of them again (the chance of exactly 2 and 1 again: " in words(card)
    )
    rolled = posted(client, g.defender, card, "data-play-apply")
    assert (rolled["resolution"]["count"]["again"], rolled["resolution"]["outcome_key"]) == (1, "1 hit")
