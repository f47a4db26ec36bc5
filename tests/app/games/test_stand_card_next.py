"""Each control of a stand's card carries what it asks next (app/pages/stand_next.py, issue 67): the play's state
is the server's, so a seat plays a roll by following the card's own links and posting its own bodies, with no
state of its own (as table-act.js does): Shoot leads to the target's pick, a stand picked to the roll's card, each
die to the card with it, the last to the answer and its Apply, whose body recorded leads to the card of the roll
recorded with its Undo; a direct roll's faces each carry the roll they record. The browser's taps are
tests/frontend/test_standard_turn.py's."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import advance_to, new_game, start_game
from tests.app.games.test_earth2mm_bound import Table
from tests.app.games.test_fire_refusals import mg_facing
from tests.app.games.test_stand_acts import first, units


def read(http: TestClient, seat: dict[str, str], url: str, status: int = 200) -> str:
    """A part of the card at `url` as the seat's device reads it (its cookie, as htmx would)."""
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(url, headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    assert answer.status_code == status, answer.text
    return answer.text


def attr(part: str, name: str, at: str = "") -> str:
    """The attribute `name` of the first element of `part` matching `at` (a piece of its tag), unescaped."""
    found = re.search(rf'<[^>]*{re.escape(at)}[^>]*\s{name}="([^"]*)"', part)
    assert found, (name, at, part)
    return html.unescape(found.group(1))


def words(part: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)))


def posted(http: TestClient, seat: dict[str, str], part: str, at: str) -> dict[str, Any]:
    """The roll the control `at` records, posted as its part carries it (its body to its data-apply-to)."""
    answer = http.post(
        attr(part, "data-apply-to"), headers=seat, json=json.loads(attr(part, "data-apply", at))
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_shot_is_played_by_following_what_each_control_of_the_card_carries(client: TestClient) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    advance_to(client, g, "battalion-orders")
    api = f"/api/v1/games/{g.id}"
    assert client.post(
        f"{api}/resolve/order-roll", headers=g.attacker, json={"unit_id": mg["id"], "dice": [6]}
    )
    acts = read(client, g.attacker, f"/games/{g.id}/map/units/{mg['id']}/acts")
    # Shoot leads to its target's pick, which leads to the roll's card for the stand picked.
    pick = read(client, g.attacker, attr(acts, "data-ask", 'data-act-label="Shoot"'))
    assert "data-play-prompt" in pick and "Shoot: tap the target on the map." in words(pick)
    card = read(client, g.attacker, attr(pick, "data-pick") + str(target["id"]))
    assert attr(card, "data-play-target") == str(target["id"])
    assert f"target={target['id']}" in attr(card, "data-play-url")
    # Each die leads to the card with it, the others as they were tapped; the last one tapped, to the answer.
    count = int(attr(card, "data-dice-count"))
    assert count >= 1 and card.count("data-ask=") >= 6 * count
    for row in range(count):
        card = read(client, g.attacker, attr(card, "data-ask", f'data-die="1" data-die-row="{row}"'))
        assert re.search(rf'data-die="1" data-die-row="{row}"[^>]*aria-pressed="true"', card), card
    asked = client.post(
        f"{api}/ask/shooting",
        headers=g.attacker,
        json={"unit_id": mg["id"], "target_id": target["id"], "dice": [1] * count},
    ).json()
    assert f'data-play-outcome="{asked["resolution"]["outcome_key"]}"' in card
    # Its Apply records the roll as the card says it, and leads to the card of the roll recorded, with its Undo.
    rolled = posted(client, g.attacker, card, "data-play-apply")
    assert rolled["resolution"]["dice"] == [1] * count
    logged = client.get(f"{api}/events", headers=g.referee).json()[-1]
    assert logged["id"] == rolled["event_id"] and logged["payload"]["target_id"] == target["id"]
    done = read(client, g.attacker, attr(card, "data-done").replace("{event}", str(rolled["event_id"])))
    assert f'data-play-undo="{rolled["event_id"]}"' in done and "Shoot: rolled" in words(done)
    # A stand picked of no game is refused by its field, in one sentence.
    wrong = read(client, g.attacker, attr(pick, "data-pick") + "999999", 422)
    lead = re.search(r'class="lead"[^>]*>(.*?)</', wrong, re.S)
    assert lead and html.unescape(lead.group(1)).strip().startswith("Pick: "), wrong


def test_a_direct_rolls_faces_each_carry_the_roll_they_record(client: TestClient) -> None:
    g = new_game(client)
    advance_to(client, g, "battalion-orders")
    platoon = first(units(client, g), "attacker", "rifle-platoon")
    acts = read(client, g.attacker, f"/games/{g.id}/map/units/{platoon['id']}/acts")
    faces = [json.loads(html.unescape(b)) for b in re.findall(r'data-face="\d" data-apply="([^"]*)"', acts)]
    assert [f["dice"] for f in faces] == [[n] for n in range(1, 7)]
    rolled = posted(client, g.attacker, acts, 'data-face="6"')
    assert rolled["resolution"]["dice"] == [6]
    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    assert events[-1]["id"] == rolled["event_id"] and events[-1]["payload"]["resolver"] == "order-roll"


def test_each_stand_picked_for_a_roll_in_order_is_its_next_hit(sqlite_client: TestClient) -> None:
    """The 2mm allocation of hits takes the shooter's order: the first stand picked is its target and its first
    hit, and the card keeps picking (its data-pick: each stand picked the next hit; one more than the hits waiting
    refused by its field, the card before it kept); its Book's order leaves the order out."""
    t = Table(sqlite_client)
    g = t.g
    start_game(t.c, g)
    assert t.edit("attacker SF", g.attacker, high_command="advance").status_code == 200
    advance_to(t.c, g, "plan-line")
    move = {"sub_plan": "move", "plan_target": t.ids["defender coy"]}
    assert t.edit("attacker coy", g.attacker, **move).status_code == 200
    advance_to(t.c, g, "execute-5")
    assert t.roll("shoot", g.attacker, "attacker coy", "defender coy", dice=[6]).status_code == 200
    acts = read(t.c, g.attacker, f"/games/{g.id}/map/units/{t.ids['attacker 1']}/acts")
    pick = read(t.c, g.attacker, attr(acts, "data-ask", 'data-act-label="Allocate hits"'))
    first, second = t.ids["defender 1"], t.ids["defender 2"]
    card = read(t.c, g.attacker, attr(pick, "data-pick") + str(first))
    url = attr(card, "data-play-url")
    assert f"target={first}" in url and url.endswith(f"order={first}"), url
    assert "In this order:" in words(card) and "data-play-target" not in card
    assert "order" not in json.loads(attr(card, "data-apply", "data-play-book"))["fields"]
    assert json.loads(attr(card, "data-apply", "data-play-roll"))["fields"] == {"order": [first]}
    more = read(t.c, g.attacker, attr(card, "data-pick") + str(second), 422)
    assert '<p class="lead">Order: ' in more
