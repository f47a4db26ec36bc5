"""A random-event draw shows its cards to the side that draws: taken back, a card would return to the pack,
and a side that draws, reads and takes back often enough learns which cards never come up (the opponent's
hand), or fishes for the card it wants. A draw is never the drawing side's to take back; the referee's
take-back (of a draw the side made, or of cards entered from the club's own pack) leaves the cards out."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, start_game

ROUNDS = 300
# Without a reshuffle, the pack drawn dry stays dry: every card drawn in the loop is a card of the one pack.
NO_RESHUFFLE = {"events-pack-exhausted": "no-more-events"}


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def cards_game(c: TestClient) -> Game:
    g = new_game(c, {"name": "Cards", "period": "mid", "variants": NO_RESHUFFLE})
    start_game(c, g)
    return g


def hand(c: TestClient, g: Game, who: dict[str, str]) -> list[str]:
    return list(ok(c.get(f"/api/v1/games/{g.id}/me", headers=who))["event_hand"])


@pytest.mark.long  # 300 rounds of requests: about 10 s
def test_drawing_and_taking_back_300_times_learns_nothing_of_hand_or_pack(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = cards_game(c)
    api = f"/api/v1/games/{g.id}"
    # The referee enters two black cards drawn at the table from the club's own pack that go to the
    # defender's hand (the Queen of Clubs and the Ten of Spades: "hand over card to enemy").
    for position in (37, 47):
        ok(c.post(f"{api}/resolve/random-event", headers=g.referee, json={"dice": [position]}))
    defender_hand = hand(c, g, g.defender)
    assert sorted(defender_hand) == ["10S", "QC"]
    seen: list[str] = []
    refused = 0
    for _ in range(ROUNDS):
        drawn = ok(c.post(f"{api}/resolve/random-event", headers=g.attacker, json={}))
        cards = [d["card"] for d in drawn["resolution"]["outcome"]["drawn"]]
        seen += cards
        before = hand(c, g, g.attacker) if cards else []
        back = c.post(f"{api}/events/{drawn['event_id']}/undo", headers=g.attacker)
        assert back.status_code == 403, back.text
        assert "referee" in back.json()["detail"]
        refused += 1
        if not cards:
            continue  # the pack is empty: nothing drawn, nothing to take back
        # The refused take-back changed nothing the drawer reads.
        assert hand(c, g, g.attacker) == before
        # Every kept card played at once, so the hand never fills.
        for card in before:
            ok(c.post(f"{api}/cards/play", headers=g.attacker, json={"side": "attacker", "card": card}))
    assert refused == ROUNDS
    # Each card came up once at most: no card returned to the pack to be read again or fished for; the
    # draws stopped when the one pack was empty, and the defender's hand never came up.
    assert len(seen) == len(set(seen)) == 52 - len(defender_hand)
    assert not set(seen) & set(defender_hand)
    # Nothing the attacker read names the pack left or the defender's hand.
    text = c.get(f"{api}/events", headers=g.attacker).text
    assert '"deck"' not in text and '"opponent_hand"' not in text


def test_the_referee_takes_a_draw_back_and_its_cards_stay_out(client: TestClient) -> None:
    c = client
    g = cards_game(c)
    api = f"/api/v1/games/{g.id}"
    # The referee enters the Ace of Hearts (13th of the fresh pack) drawn from the club's own pack at the
    # table: kept in the attacker's hand, whose own take-back is refused like a draw firestep made.
    drawn = ok(c.post(f"{api}/resolve/random-event", headers=g.referee, json={"dice": [13]}))
    assert [d["card"] for d in drawn["resolution"]["outcome"]["drawn"]] == ["AH"]
    assert hand(c, g, g.attacker) == ["AH"]
    assert c.post(f"{api}/events/{drawn['event_id']}/undo", headers=g.attacker).status_code == 403
    left = ok(c.get(f"{api}/state", headers=g.referee))["board"]["events"]["cards_left"]
    ok(c.post(f"{api}/events/{drawn['event_id']}/undo", headers=g.referee))
    # The card leaves the hand and stays out of play: the pack is no larger than after the draw.
    assert hand(c, g, g.attacker) == []
    pack = ok(c.get(f"{api}/state", headers=g.referee))["board"]["events"]
    assert "AH" in pack["out"] and pack["cards_left"] == left == 51
    # The 13th card of the pack is now the Two of Diamonds: the Ace never comes up again.
    again = ok(c.post(f"{api}/resolve/random-event", headers=g.referee, json={"dice": [13]}))
    assert [d["card"] for d in again["resolution"]["outcome"]["drawn"]] == ["2D"]
    assert c.post(f"{api}/events/{drawn['event_id']}/undo", headers=g.referee).status_code == 409
