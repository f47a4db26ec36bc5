"""Templates on the shared table (issue 14): placed, moved, turned and removed through the API, kept in the
game's board, logged as events every device's stream carries, with limits and who may move what."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.services.templates import MAX_TEMPLATES
from tests.app.games.conftest import Game


def url(game: Game, template_id: int | None = None) -> str:
    base = f"/api/v1/games/{game.id}/templates"
    return base if template_id is None else f"{base}/{template_id}"


def place(client: TestClient, game: Game, who: dict[str, str], **body: Any) -> Any:
    return client.post(url(game), headers=who, json={"kind": "artillery", "x": 60, "y": 90, **body})


def test_a_placed_template_is_in_the_board_the_state_and_the_log(client: TestClient, mons: Game) -> None:
    r = place(client, mons, mons.attacker, rotation=-270)
    assert r.status_code == 201, r.text
    body = r.json()
    template = body["template"]
    assert template == {
        "id": 1,
        "kind": "artillery",
        "side": "attacker",
        "x": 60.0,
        "y": 90.0,
        "rotation": 90.0,  # -270 degrees is a quarter turn anticlockwise
        "version": body["event_id"],
    }
    state = client.get(f"/api/v1/games/{mons.id}/state", headers=mons.defender).json()
    assert state["board"]["templates"] == [template]
    assert state["last_event_id"] == body["event_id"]
    listed = client.get(url(mons), headers=mons.defender).json()
    assert listed == {"last_event_id": body["event_id"], "templates": [template]}
    events = client.get(f"/api/v1/games/{mons.id}/events", headers=mons.defender).json()
    placed = [e for e in events if e["kind"] == "template-placed"]
    assert [e["id"] for e in placed] == [body["event_id"]]
    assert placed[0]["payload"]["template"] == {k: v for k, v in template.items() if k != "version"}
    assert placed[0]["actor"] == "attacker"


def test_move_turn_and_remove_each_log_an_event_with_a_new_version(client: TestClient, mons: Game) -> None:
    placed = place(client, mons, mons.defender).json()
    tid = placed["template"]["id"]
    moved = client.patch(url(mons, tid), headers=mons.defender, json={"x": 30.5, "y": 100})
    assert moved.status_code == 200, moved.text
    assert moved.json()["template"]["x"] == 30.5 and moved.json()["template"]["rotation"] == 90.0
    assert moved.json()["template"]["version"] == moved.json()["event_id"] > placed["event_id"]
    turned = client.patch(url(mons, tid), headers=mons.defender, json={"rotation": -45})
    assert turned.json()["template"]["rotation"] == 315.0
    assert turned.json()["template"]["x"] == 30.5
    # A device that saw an older version is told the current one rather than overwriting it.
    stale = client.patch(
        url(mons, tid), headers=mons.defender, json={"x": 10, "version": moved.json()["event_id"]}
    )
    assert stale.status_code == 409
    assert stale.json()["current"]["x"] == 30.5
    removed = client.delete(url(mons, tid), headers=mons.defender)
    assert removed.status_code == 200, removed.text
    assert client.get(url(mons), headers=mons.referee).json()["templates"] == []
    kinds = [e["kind"] for e in client.get(f"/api/v1/games/{mons.id}/events", headers=mons.referee).json()]
    assert kinds[-4:] == ["template-placed", "template-moved", "template-moved", "template-removed"]
    # Ids are never reused: the next template is number 2.
    assert place(client, mons, mons.defender).json()["template"]["id"] == 2


def test_a_side_moves_its_own_templates_and_the_referee_any(client: TestClient, mons: Game) -> None:
    tid = place(client, mons, mons.attacker).json()["template"]["id"]
    for method, body in (("PATCH", {"x": 10}), ("DELETE", None)):
        refused = client.request(method, url(mons, tid), headers=mons.defender, json=body)
        assert refused.status_code == 403, refused.text
        assert "attacker" in refused.json()["why"]
    # A player places only its own side's templates.
    other = place(client, mons, mons.defender, side="attacker")
    assert other.status_code == 403
    assert client.patch(url(mons, tid), headers=mons.referee, json={"y": 10}).status_code == 200
    referee_own = place(client, mons, mons.referee, side="defender")
    assert referee_own.status_code == 201 and referee_own.json()["template"]["side"] == "defender"
    assert client.delete(url(mons, tid), headers=mons.referee).status_code == 200
    # The referee names the side.
    unnamed = place(client, mons, mons.referee)
    assert unnamed.status_code == 422
    assert unnamed.json()["errors"][0]["loc"] == ["body", "side"]
    assert client.post(url(mons), json={"kind": "artillery", "x": 1, "y": 1}).status_code == 401


def test_limits_name_the_field(client: TestClient, mons: Game) -> None:
    def refused(body: dict[str, Any], field: str, method: str = "POST", path: str | None = None) -> None:
        r = client.request(method, path or url(mons), headers=mons.attacker, json=body)
        assert r.status_code == 422, r.text
        locs = [e["loc"] for e in r.json()["errors"]]
        assert any(loc[-1] == field or field in loc for loc in locs), locs

    refused({"kind": "howitzer", "x": 1, "y": 1}, "kind")
    refused({"kind": "artillery", "x": -1, "y": 1}, "x")
    refused({"kind": "artillery", "x": 1, "y": 1e6}, "y")
    refused({"kind": "artillery", "x": 1, "y": 1, "rotation": 1000}, "rotation")
    refused({"kind": "artillery", "x": "1", "y": 1}, "x")
    refused({"kind": "artillery", "x": 1, "y": 1, "colour": "red"}, "colour")
    # Within the numeric limits but off this game's 120 x 180 cm table: the game's own sizes.
    off = place(client, mons, mons.attacker, x=121)
    assert off.status_code == 422
    assert off.json()["errors"][0]["loc"] == ["body", "x"] and off.json()["errors"][0]["allowed"] == [
        "0..120"
    ]
    tid = place(client, mons, mons.attacker).json()["template"]["id"]
    refused({}, "body", "PATCH", url(mons, tid))
    assert client.patch(url(mons, 999), headers=mons.attacker, json={"x": 1}).status_code == 404
    assert client.delete(url(mons, 0), headers=mons.attacker).status_code == 422
    # A rolling barrage spans the table: it has no position across it.
    barrage = place(client, mons, mons.attacker, kind="rolling-barrage", x=5).json()["template"]
    assert barrage["x"] == 60.0
    for _ in range(MAX_TEMPLATES - 2):
        assert place(client, mons, mons.attacker).status_code == 201
    full = place(client, mons, mons.attacker)
    assert full.status_code == 422
    assert str(MAX_TEMPLATES) in full.json()["errors"][0]["msg"]


def test_templates_leave_the_rest_of_the_board_and_the_game_version_alone(
    client: TestClient, mons: Game
) -> None:
    before = client.get(f"/api/v1/games/{mons.id}/state", headers=mons.referee).json()
    place(client, mons, mons.attacker)
    after = client.get(f"/api/v1/games/{mons.id}/state", headers=mons.referee).json()
    # Moving a template on the map must not make the referee's next "advance" stale.
    assert after["version"] == before["version"]
    assert {k: v for k, v in after["board"].items() if not k.startswith("templates")} == before["board"]
