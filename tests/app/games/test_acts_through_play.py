"""Rolls, templates, formation moves and arrived fire are acts like any other (issue 54): each goes through the
one act pipeline (app.services.acts.play: the rules of play with the referee's override, one snapshot, one call
of `GameRules.play`, one event). Out of turn each is refused with its rule; the referee's override plays it and
its one event records the override; what the rule set's play refuses (a template off the table) is a 422
naming the field, nothing logged."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, start_game, units_by_ref
from tests.app.games.test_arrivals_api import plan_bombardment


def _events(c: TestClient, g: Game) -> list[dict[str, Any]]:
    r = c.get(f"/api/v1/games/{g.id}/events", headers=g.referee)
    assert r.status_code == 200, r.text
    return list(r.json()["events"] if isinstance(r.json(), dict) else r.json())


def _one_event(c: TestClient, g: Game, before: int, kind: str) -> dict[str, Any]:
    """The act's one event: the log grew by exactly one, of the act's kind."""
    log = _events(c, g)
    assert len(log) == before + 1, [e["kind"] for e in log[before:]]
    assert log[-1]["kind"] == kind
    return log[-1]


def _refused_out_of_turn(r: Any) -> None:
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["detail"] and len(body["detail"]) <= 120 and body["source"], body


def test_acts_out_of_turn_are_refused_with_their_rule_and_played_once_on_the_referees_override(
    client: TestClient, mons: Game
) -> None:
    c, g = client, mons
    start_game(c, g)  # turn 1: the attacker's
    units = units_by_ref(c, g)
    company = next(u for u in units.values() if u["side"] == "defender" and u["level"] == "company")
    api = f"/api/v1/games/{g.id}"
    template = {"kind": "artillery", "side": "defender", "x": 60, "y": 100}
    acts = [  # (path, method, body, the event that logs it)
        ("templates", "post", template, "template-placed"),
        (f"units/{company['id']}/move-formation", "post", {"dx": 0, "dy": 2}, "move"),
        ("resolve/order-roll", "post", {"unit_id": company["id"], "dice": [6]}, "roll"),
    ]
    for path, method, body, kind in acts:
        before = len(_events(c, g))
        _refused_out_of_turn(getattr(c, method)(f"{api}/{path}", headers=g.defender, json=body))
        assert len(_events(c, g)) == before  # nothing logged
        r = getattr(c, method)(f"{api}/{path}", headers=g.referee, json={**body, "override": True})
        assert r.status_code in (200, 201), r.text
        event = _one_event(c, g, before, kind)
        assert event["payload"]["override"]["by"] == "referee", event
    # The template lies where the rule set's play puts it; moved off the table it is refused by it, naming x.
    laid = next(t for t in c.get(f"{api}/state", headers=g.referee).json()["board"]["templates"])
    before = len(_events(c, g))
    off = c.patch(f"{api}/templates/{laid['id']}", headers=g.referee, json={"x": 10_000, "override": True})
    assert off.status_code == 422 and off.json()["field"] == "x", off.text
    moved = c.patch(f"{api}/templates/{laid['id']}", headers=g.referee, json={"x": 61.234, "override": True})
    assert moved.status_code == 200 and moved.json()["template"]["x"] == 61.23, moved.text
    _one_event(c, g, before, "template-moved")


def test_arrived_fire_is_one_act_and_one_event(client: TestClient, mons: Game) -> None:
    c, g = client, mons
    item_id, _ = plan_bombardment(c, g)
    start_game(c, g)
    before = len(_events(c, g))
    r = c.post(
        f"/api/v1/games/{g.id}/arrivals/{item_id}/apply", headers=g.attacker, json={"dice": {"action": [1]}}
    )
    assert r.status_code == 200, r.text
    event = _one_event(c, g, before, "arrival-fire")
    assert event["payload"]["rolls"][-1]["resolution"]["dice"] == [1]  # the die given, in the rules' answer
