"""A second rule set plays through the same app: a minimal skirmish game (tests/skirmish.py, no Flanders Fields
word) gets its forces, a turn, an act that changes a unit's state, an undo, the live frame and the referee
board, without a line of the app knowing it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from rules import registry
from tests import csrf
from tests.app.games.conftest import new_game, start_game
from tests.app.games.test_live_and_concurrency import Listener
from tests.skirmish import Skirmish


@pytest.fixture
def skirmish() -> Iterator[None]:
    with registry.registered(Skirmish):
        yield


def test_a_second_rule_set_plays_through_the_api_and_the_board(skirmish: None, live_url: str) -> None:
    http = httpx.Client(base_url=live_url, timeout=30)
    g = new_game(http, {"name": "Skirmish", "ruleset": Skirmish.id})  # made as the lobby's form makes it
    api = f"/api/v1/games/{g.id}"

    # Forces: a unit added by hand starts with the skirmish's state.
    added = http.post(
        f"{api}/units",
        headers=g.referee,
        json={"side": "attacker", "name": "Rifles", "level": "platoon", "x": 50, "y": 40},
    )
    assert added.status_code == 201, added.text
    unit = added.json()["unit"]
    assert unit["pins"] == 0 and unit["shaken"] is False
    uid = unit["id"]

    # A turn: the skirmish's own bound, both sides giving orders first.
    start_game(http, g)
    turn = http.get(f"{api}/turn", headers=g.referee).json()
    assert turn["status"] == "playing" and turn["turn"] == 1
    assert turn["step"]["id"] == "orders"

    # An act, seen live by the attacker's device: two pins by hand, the second shaking the unit (the rule
    # set's consequence, written generically).
    tablet = Listener(f"{live_url}{api}/stream", g.attacker)
    try:
        for _ in range(2):
            marked = http.post(f"{api}/units/{uid}/markers", headers=g.referee, json={"delta": 1})
            assert marked.status_code == 200, marked.text
        changes = marked.json()["changes"]
        assert {"unit": uid, "field": "pins", "delta": 1, "after": 2} in changes
        assert {"unit": uid, "field": "shaken", "before": False, "after": True} in changes
        frame: dict[str, Any] = {}
        for _ in range(50):  # the stream sends the log so far first, then each new event
            [(_, frame)] = tablet.take(1)
            if frame["id"] == marked.json()["event_id"]:
                break
        assert frame["id"] == marked.json()["event_id"] and frame["payload"]["changes"] == changes
    finally:
        tablet.close()
    units = {u["id"]: u for u in http.get(f"{api}/units", headers=g.attacker).json()}
    assert units[uid]["pins"] == 2 and units[uid]["shaken"] is True

    # Undo: the referee takes the last marker event back, pins and shaken alike.
    undone = http.post(f"{api}/events/{marked.json()['event_id']}/undo", headers=g.referee)
    assert undone.status_code == 200, undone.text
    units = {u["id"]: u for u in http.get(f"{api}/units", headers=g.referee).json()}
    assert units[uid]["pins"] == 1 and units[uid]["shaken"] is False

    # The map's stand card offers the rule set's own roll for a pinned unit, in the step that has it.
    offered = http.get(f"{api}/units/{uid}/acts", headers=g.attacker).json()["acts"]
    assert [(a["label"], a["resolver"], a["unit_id"]) for a in offered] == [("Rally", "rally", uid)]

    # The rule set's own resolver, applied: a rally clears the pins.
    rolled = http.post(
        f"{api}/resolve/rally", headers=g.referee, json={"fields": {}, "dice": [5], "unit_id": uid}
    )
    assert rolled.status_code == 200, rolled.text
    assert {"unit": uid, "field": "pins", "before": 1, "after": 0} in rolled.json()["changes"]

    # The referee board shows the skirmish's markers and filters, none of Flanders Fields'.
    for _ in range(2):
        assert (
            http.post(f"{api}/units/{uid}/markers", headers=g.referee, json={"delta": 1}).status_code == 200
        )
    browser = httpx.Client(base_url=live_url, timeout=30)  # the referee's screen signs in with its token
    token = g.body["referee_token"]
    signed_in = browser.post("/join", data=csrf.form(browser, {"code": token}), follow_redirects=False)
    assert signed_in.status_code == 303, signed_in.text
    page = browser.get(f"/games/{g.id}/referee")
    browser.close()
    assert page.status_code == 200, page.text
    html = page.text
    assert 'data-filter="marked"' in html and ">Pinned<" in html and ">Shaken<" in html
    assert "SHAKEN" in html and "Add a pins marker to" in html
    assert "Suppressed" not in html and "On wire" not in html

    # The bound goes on by the skirmish's turn model: either side ends the orders, then each side moves in
    # its own step (the other's stands wait) and ends it, and the next bound begins.
    def advance(headers: dict[str, str]) -> httpx.Response:
        version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
        return http.post(f"{api}/turn/advance", headers=headers, json={"version": version})

    moved = advance(g.defender).json()["turn"]
    assert moved["step"]["id"] == "attacker-moves" and moved["side_to_move"] == "attacker"
    assert advance(g.defender).status_code == 403
    there = {"x": 55, "y": 45, "facing_deg": 90}
    # What the rule set's turn forbids beyond the step (GameRules.forbidden: a shaken unit does not move) is a
    # 409 like the step's; the referee's override moves it, and the event records what was overridden.
    shaken = http.post(f"{api}/units/{uid}/move", headers=g.attacker, json=there)
    assert shaken.status_code == 409 and shaken.json()["detail"] == "Rifles is shaken: rally it first."
    assert shaken.json()["why"] == "a shaken unit may not move (Skirmish test rules: PINS)"
    overridden = http.post(f"{api}/units/{uid}/move", headers=g.referee, json={**there, "override": True})
    assert overridden.status_code == 200, overridden.text
    [moved_ev] = [e for e in http.get(f"{api}/events", headers=g.referee).json() if e["kind"] == "move"]
    assert moved_ev["payload"]["override"] == {
        "by": "referee",
        "refused": "a shaken unit may not move (Skirmish test rules: PINS)",
    }
    assert advance(g.attacker).json()["turn"]["step"]["id"] == "defender-moves"
    waits = http.post(f"{api}/units/{uid}/move", headers=g.attacker, json=there)
    assert waits.status_code == 409 and "only the defender may move stands" in waits.json()["detail"]
    assert advance(g.attacker).status_code == 403
    next_bound = advance(g.defender).json()["turn"]
    assert (next_bound["turn"], next_bound["step"]["id"]) == (2, "orders")
    http.close()
