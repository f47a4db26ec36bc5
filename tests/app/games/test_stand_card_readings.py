"""A stand's card names the reading an erratum's dispute was decided by under its roll's answer, citing it, and
offers the other: to the referee as the change of the game's reading (PATCH /api/v1/games/{id} and its body, which
api-action.js sends, the card then asked again by table-act.js), to a side's seat as why not (issue 69). Which errata decide an
answer is the rules' (tests/rules/flanders_fields/test_errata_deciding.py)."""

from __future__ import annotations

import html
import json
import re

from fastapi.testclient import TestClient

from tests.app.games.conftest import advance_to, new_game
from tests.app.games.test_fire_refusals import mg_facing
from tests.app.games.test_stand_card_page import fragment, words


def test_the_cards_answer_names_its_reading_and_the_referee_changes_it_in_one_tap(client: TestClient) -> None:
    g = new_game(client)  # Mons 1914: early war
    mg, target = mg_facing(client, g)
    api = f"/api/v1/games/{g.id}"
    # A raw MG: its 4 on the die suppresses the platoon in soft cover but for the playsheet's -1.
    version = next(u for u in client.get(f"{api}/units", headers=g.referee).json() if u["id"] == mg["id"])[
        "version"
    ]
    raw = {"version": version, "quality": "raw"}
    assert client.put(f"{api}/units/{mg['id']}", headers=g.referee, json=raw).is_success
    advance_to(client, g, "battalion-orders")
    assert client.post(
        f"{api}/resolve/order-roll", headers=g.attacker, json={"unit_id": mg["id"], "dice": [6]}
    )
    count = len(
        client.post(
            f"{api}/ask/shooting", headers=g.attacker, json={"unit_id": mg["id"], "target_id": target["id"]}
        ).json()["resolution"]["dice"]
    )
    play = f"play/shooting?act=Shoot&target={target['id']}{'&die=4' * count}"

    side = fragment(client, g, g.attacker, mg["id"], play)
    assert "Reading: Raw troops shooting: Playsheet" in words(side)
    assert (
        "Only the referee changes the readings this game plays." in side and "data-play-reading " not in side
    )
    assert "data-play-reading-line" not in fragment(
        client, g, g.attacker, mg["id"], play.replace("die=4", "die=1")
    )

    referee = fragment(client, g, g.referee, mg["id"], play)
    found = re.search(
        r'data-play-reading data-api="/api/v1/games/(\d+)" data-method="PATCH" data-body="([^"]+)">Play it by: Main text<',
        referee,
    )
    assert found, referee
    assert found.group(1) == str(g.id)
    change = json.loads(html.unescape(found.group(2)))
    assert change["variants"] == {"raw-firer-penalty": "main-text"}
    before = re.search(r'data-play-outcome="([\w-]+)"', referee)
    assert client.patch(api, headers=g.referee, json=change).status_code == 200
    again = fragment(client, g, g.referee, mg["id"], play)
    assert "Reading: Raw troops shooting: Main text (a variant)" in words(again)
    after = re.search(r'data-play-outcome="([\w-]+)"', again)
    assert before and after and before.group(1) != after.group(1)
    # The card drew the game's version: the same change again is stale, 409.
    assert client.patch(api, headers=g.referee, json=change).status_code == 409


def test_a_recorded_rolls_card_names_the_reading_it_was_decided_by(client: TestClient) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    api = f"/api/v1/games/{g.id}"
    version = next(u for u in client.get(f"{api}/units", headers=g.referee).json() if u["id"] == mg["id"])[
        "version"
    ]
    assert client.put(
        f"{api}/units/{mg['id']}", headers=g.referee, json={"version": version, "quality": "raw"}
    )
    advance_to(client, g, "battalion-orders")
    assert client.post(
        f"{api}/resolve/order-roll", headers=g.attacker, json={"unit_id": mg["id"], "dice": [6]}
    )
    shot = {"unit_id": mg["id"], "target_id": target["id"]}
    count = len(
        client.post(f"{api}/ask/shooting", headers=g.attacker, json=shot).json()["resolution"]["dice"]
    )
    rolled = client.post(f"{api}/resolve/shooting", headers=g.attacker, json={**shot, "dice": [4] * count})
    assert rolled.status_code == 200, rolled.text
    done = fragment(client, g, g.attacker, mg["id"], f"done/{rolled.json()['event_id']}?act=Shoot")
    assert "Reading: Raw troops shooting: Playsheet (default) (Flanders Fields playsheet" in words(done)
