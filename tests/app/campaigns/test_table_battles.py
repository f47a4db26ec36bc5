"""A campaign battle fought on the table (issue 17), through the API on SQLite and PostgreSQL: the organiser
opens a Flanders Fields game for the battle waiting for its result, the game is played and ended, its result
is offered back and confirmed (or overridden) as the battle's result; both logs name each other; each side
reaches only its own side of the game."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from rules.firestorm.campaign import CampaignState
from rules.firestorm.table_battle import TableOutcome, offer_from_outcome, table_battle
from tests import csrf
from tests.app.campaigns.conftest import Seats, bearer, new_campaign
from tests.app.games.conftest import live_url  # noqa: F401  (the app on a real server, both backends)

# "D-2 into C-3" is the first of the turn's fixed attacks (Initial Deployment); the BEF defends with 25 Bde.
TO_RESOLVE: list[tuple[str, dict[str, Any]]] = [
    ("german", {"action": {"type": "initiative"}, "dice": []}),
    (
        "german",
        {"action": {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": ["group-i"]}},
    ),
    ("bef", {"action": {"type": "defend", "troops": ["25-bde"]}}),
]
SEED = 7


def to_resolve(client: Any, s: Seats) -> dict[str, Any]:
    """Turn 1's first battle, waiting for its result (version 4)."""
    for version, (side, body) in enumerate(TO_RESOLVE, start=1):
        r = client.post(
            f"/api/v1/campaigns/{s.id}/actions", headers=s.of(side), json={**body, "version": version}
        )
        assert r.status_code == 200, r.text
    snap: dict[str, Any] = r.json()
    assert snap["state"]["phase"] == "resolve" and snap["version"] == 4
    return snap


def base(s: Seats) -> str:
    return f"/api/v1/campaigns/{s.id}/table-battles"


def open_battle(client: TestClient, s: Seats) -> dict[str, Any]:
    r = client.post(base(s), headers=s.organiser, json={"layout_seed": SEED})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def finish(client: TestClient, game_id: int, referee: dict[str, str]) -> None:
    version = client.get(f"/api/v1/games/{game_id}", headers=referee).json()["version"]
    r = client.post(f"/api/v1/games/{game_id}/finish", headers=referee, json={"version": version})
    assert r.status_code == 200, r.text


def log_of(client: TestClient, s: Seats) -> list[dict[str, Any]]:
    r = client.get(f"/api/v1/campaigns/{s.id}/log", headers=s.organiser)
    assert r.status_code == 200, r.text
    entries: list[dict[str, Any]] = r.json()
    return entries


def test_a_battle_fought_on_the_table_returns_its_result(client: TestClient, seats: Seats) -> None:
    s = seats
    snap = to_resolve(client, s)
    expected = table_battle(CampaignState.model_validate(snap["state"]), SEED)

    opened = open_battle(client, s)
    tb = opened["table_battle"]
    assert (
        opened["created"] is True
        and opened["referee_token"]
        and set(opened["join_codes"])
        == {
            "attacker",
            "defender",
        }
    )
    assert (tb["turn"], tb["battle"], tb["area"], tb["status"]) == (1, 1, "C-3", "open")
    assert tb["period"] == expected.period and tb["attacker"] == expected.attacker == "german"
    assert tb["game_sides"] == {"german": "attacker", "bef": "defender"}
    game_id = tb["game_id"]
    referee = bearer(opened["referee_token"])

    # The game is playable: its forces, terrain and period are the ones the rules chose.
    game = client.get(f"/api/v1/games/{game_id}/state", headers=referee).json()
    assert game["period"] == expected.period and game["status"] == "setup"
    assert (game["attacker_nation"], game["defender_nation"]) == (
        expected.attacker_nation,
        expected.defender_nation,
    )
    assert game["terrain"] == expected.terrain and game["terrain"]["features"]
    assert game["notes"] == "\n".join(expected.notes) and "Mission" in game["notes"]
    assert "C-3" in game["name"] and "campaign turn 1 battle 1" in game["name"]
    units = client.get(f"/api/v1/games/{game_id}/units", headers=referee).json()
    parents = {u["parent_id"] for u in units}
    stands = [u for u in units if u["id"] not in parents]
    assert {u["side"] for u in stands} == {"attacker", "defender"}
    started = client.post(
        f"/api/v1/games/{game_id}/turn/advance", headers=referee, json={"version": game["version"]}
    )
    assert started.status_code == 200, started.text
    assert started.json()["turn"]["status"] == "playing"

    # Both logs name each other.
    back = client.get(f"/api/v1/games/{game_id}/campaign-battle", headers=referee).json()
    assert back["campaign_id"] == s.id and (back["turn"], back["battle"]) == (1, 1)
    assert back["campaign_path"] == f"/campaigns/{s.id}"
    events = client.get(f"/api/v1/games/{game_id}/events", headers=referee).json()
    named = [e for e in events if e["kind"] == "campaign-battle"]
    assert len(named) == 1 and named[0]["payload"]["campaign_id"] == s.id
    assert named[0]["payload"]["path"] == f"/campaigns/{s.id}"
    opened_entry = [e for e in log_of(client, s) if e["kind"] == "table-battle"]
    assert [e["action"]["step"] for e in opened_entry] == ["opened"]
    assert opened_entry[0]["version"] == 5  # a step the campaign's devices see: a new version
    assert opened_entry[0]["action"]["game_id"] == game_id
    assert opened_entry[0]["action"]["path"] == f"/games/{game_id}/referee"

    # Opening again answers the same game, without credentials.
    again = client.post(base(s), headers=s.organiser, json={})
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["table_battle"]["game_id"] == game_id and again.json()["referee_token"] is None
    assert len(client.get(base(s), headers=s.bef).json()) == 1

    # No offer while the game is still being played.
    early = client.post(
        f"{base(s)}/{tb['id']}/offer", headers=s.organiser, json={"field_held_by": "attacker"}
    )
    assert early.status_code == 409 and "not over" in early.json()["why"]

    # One attacking stand is killed (three markers), then the referee ends the game.
    victim = next(u for u in stands if u["side"] == "attacker" and not u["off_table"])
    for _ in range(3):
        r = client.post(
            f"/api/v1/games/{game_id}/units/{victim['id']}/markers",
            headers=referee,
            json={"delta": 1, "override": True},
        )
        assert r.status_code == 200, r.text
    finish(client, game_id, referee)

    # Who holds the field is required, and named when wrong.
    for body in ({}, {"field_held_by": "sideways"}):
        bad = client.post(f"{base(s)}/{tb['id']}/offer", headers=s.organiser, json=body)
        assert bad.status_code == 422 and bad.json()["errors"][0]["loc"][-1] == "field_held_by"
    r = client.post(f"{base(s)}/{tb['id']}/offer", headers=s.organiser, json={"field_held_by": "defender"})
    assert r.status_code == 200, r.text
    offered = r.json()
    after = client.get(f"/api/v1/games/{game_id}/units", headers=referee).json()
    leaves = [u for u in after if u["id"] not in {x["parent_id"] for x in after}]
    outcome = TableOutcome(
        attacker_bases=sum(u["side"] == "attacker" for u in leaves),
        defender_bases=sum(u["side"] == "defender" for u in leaves),
        attacker_lost=sum(u["side"] == "attacker" and u["killed"] for u in leaves),
        defender_lost=sum(u["side"] == "defender" and u["killed"] for u in leaves),
        field_held_by="defender",
    )
    assert outcome.attacker_lost >= 1
    want = offer_from_outcome(outcome, expected)
    assert offered["status"] == "offered" and offered["field_held_by"] == "defender"
    assert (offered["offer"]["attacker_vp"], offered["offer"]["defender_vp"]) == (
        want.attacker_vp,
        want.defender_vp,
    )
    assert offered["offer"]["reasons"] == list(want.reasons)
    assert offered["offer"]["outcome"]["attacker_lost"] == outcome.attacker_lost

    # A device that saw the campaign before the offer (version 5) may not confirm what it has not seen:
    # 409 with the current state; the version seen (6) confirms, and the campaign moves on.
    stale = client.post(f"{base(s)}/{tb['id']}/confirm", headers=s.organiser, json={"version": 5})
    assert stale.status_code == 409 and stale.json()["current"]["version"] == 6
    r = client.post(f"{base(s)}/{tb['id']}/confirm", headers=s.organiser, json={"version": 6})
    assert r.status_code == 200, r.text
    applied = r.json()
    assert applied["table_battle"]["status"] == "confirmed"
    assert applied["table_battle"]["applied"] == {
        "attacker_vp": want.attacker_vp,
        "defender_vp": want.defender_vp,
    }
    # The resolve action (7), then the entry naming the game (8): one version per log entry.
    assert applied["campaign"]["version"] == 8 and applied["campaign"]["state"]["phase"] != "resolve"
    log = log_of(client, s)
    resolve = [e for e in log if e["kind"] == "action" and e["action"]["type"] == "resolve"]
    assert len(resolve) == 1
    assert resolve[0]["action"]["great_war"] == {
        "attacker_vp": want.attacker_vp,
        "defender_vp": want.defender_vp,
    }
    steps = [(e["action"]["step"], e["action"]["game_id"]) for e in log if e["kind"] == "table-battle"]
    assert steps == [("opened", game_id), ("offered", game_id), ("confirmed", game_id)]
    assert [e["version"] for e in log] == list(range(1, 9))
    game_events = client.get(f"/api/v1/games/{game_id}/events", headers=referee).json()
    result = [e for e in game_events if e["kind"] == "campaign-result"]
    assert len(result) == 1 and result[0]["payload"]["status"] == "confirmed"

    # Once applied, neither a second confirm nor an override is taken.
    twice = client.post(f"{base(s)}/{tb['id']}/confirm", headers=s.organiser, json={"version": 8})
    assert twice.status_code == 409 and "already been applied" in twice.json()["why"]


def test_the_organiser_overrides_the_result(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    tb = open_battle(client, s)["table_battle"]
    url = f"{base(s)}/{tb['id']}"
    # Confirming needs an offer first.
    r = client.post(f"{url}/confirm", headers=s.organiser, json={"version": 5})
    assert r.status_code == 409 and "no result has been offered" in r.json()["why"]
    for bad, field in (
        ({"version": 5, "attacker_vp": 21, "defender_vp": 2}, "attacker_vp"),
        ({"version": 5, "attacker_vp": 3, "defender_vp": -1}, "defender_vp"),
        ({"version": 5, "attacker_vp": "3", "defender_vp": 1}, "attacker_vp"),
        ({"attacker_vp": 3, "defender_vp": 1}, "version"),
    ):
        r = client.post(f"{url}/override", headers=s.organiser, json=bad)
        assert r.status_code == 422 and r.json()["errors"][0]["loc"][-1] == field, (bad, r.text)
    # The version from before the game was opened is stale.
    r = client.post(
        f"{url}/override", headers=s.organiser, json={"version": 4, "attacker_vp": 9, "defender_vp": 2}
    )
    assert r.status_code == 409 and r.json()["current"]["version"] == 5
    r = client.post(
        f"{url}/override", headers=s.organiser, json={"version": 5, "attacker_vp": 9, "defender_vp": 2}
    )
    assert r.status_code == 200, r.text
    assert r.json()["table_battle"]["status"] == "overridden"
    assert r.json()["table_battle"]["applied"] == {"attacker_vp": 9, "defender_vp": 2}
    log = log_of(client, s)
    resolve = next(e for e in log if e["kind"] == "action" and e["action"]["type"] == "resolve")
    assert resolve["action"]["great_war"] == {"attacker_vp": 9, "defender_vp": 2}
    assert [e["action"]["step"] for e in log if e["kind"] == "table-battle"] == ["opened", "overridden"]


def test_only_the_organiser_opens_and_settles(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    for player in (s.german, s.bef):
        r = client.post(base(s), headers=player, json={})
        assert r.status_code == 403 and "organiser" in r.json()["why"]
    tb = open_battle(client, s)["table_battle"]
    for player in (s.german, s.bef):
        url = f"{base(s)}/{tb['id']}"
        assert (
            client.post(f"{url}/offer", headers=player, json={"field_held_by": "attacker"}).status_code == 403
        )
        assert client.post(f"{url}/confirm", headers=player, json={"version": 4}).status_code == 403
        body = {"version": 4, "attacker_vp": 1, "defender_vp": 1}
        assert client.post(f"{url}/override", headers=player, json=body).status_code == 403
    assert client.post(base(s), json={}).status_code == 401


def test_a_side_reaches_only_its_own_side_of_the_game(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    opened = open_battle(client, s)
    tb = opened["table_battle"]
    secrets = [opened["referee_token"], *opened["join_codes"].values()]
    for who in (s.german, s.bef):
        for path in ("legal-actions", "log", "table-battles", f"table-battles/{tb['id']}", "result"):
            r = client.get(f"/api/v1/campaigns/{s.id}/{path}", headers=who)
            assert r.status_code == 200, (path, r.text)
            assert not any(secret in r.text for secret in secrets), path
    for who, side in ((s.german, "attacker"), (s.bef, "defender"), (s.organiser, "referee")):
        r = client.post(f"{base(s)}/{tb['id']}/seat", headers=who)
        assert r.status_code == 200, r.text
        got = r.json()
        assert (got["game_id"], got["role"]) == (tb["game_id"], side)
        me = client.get(f"/api/v1/games/{tb['game_id']}/me", headers=bearer(got["token"])).json()
        assert me["role"] == side
    # A player's game token is its own side's: the other side's plan is not for it.
    german = client.post(f"{base(s)}/{tb['id']}/seat", headers=s.german).json()
    r = client.get(f"/api/v1/games/{tb['game_id']}/fireplans/defender/items", headers=bearer(german["token"]))
    assert r.status_code == 403


def test_opening_needs_a_battle_waiting_for_its_result(client: TestClient, seats: Seats) -> None:
    s = seats
    r = client.post(base(s), headers=s.organiser, json={})
    assert r.status_code == 409 and "initiative" in r.json()["why"]
    assert client.get(base(s), headers=s.german).json() == []
    r = client.post(base(s), headers=s.organiser, json={"layout_seed": -1})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][-1] == "layout_seed"
    r = client.post(base(s), headers=s.organiser, json={"seed": 1})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][-1] == "seed"


def test_a_battle_resolved_by_hand_abandons_its_table_game(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    opened = open_battle(client, s)
    tb = opened["table_battle"]
    finish(client, tb["game_id"], bearer(opened["referee_token"]))
    r = client.post(
        f"/api/v1/campaigns/{s.id}/actions",
        headers=s.organiser,
        json={"action": {"type": "resolve"}, "dice": [3, 4], "version": 5},
    )
    assert r.status_code == 200, r.text
    assert client.get(f"{base(s)}/{tb['id']}", headers=s.bef).json()["status"] == "abandoned"
    url = f"{base(s)}/{tb['id']}"
    r = client.post(f"{url}/offer", headers=s.organiser, json={"field_held_by": "attacker"})
    assert r.status_code == 409 and "moved past this battle" in r.json()["why"]
    r = client.post(
        f"{url}/override", headers=s.organiser, json={"version": 6, "attacker_vp": 1, "defender_vp": 1}
    )
    assert r.status_code == 409 and "moved past this battle" in r.json()["why"]


def _between(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


def test_the_campaign_page_fights_a_battle_on_the_table(sqlite_client: TestClient) -> None:
    c = sqlite_client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "Table night"}))
    cid = int(_between(r.text, 'data-campaign-created="', '"'))
    bef_code = _between(r.text, 'data-join-code="bef">', "<")
    player = TestClient(c.app)
    assert (
        player.post(
            "/campaigns/join", data=csrf.form(player, {"code": bef_code}), follow_redirects=False
        ).status_code
        == 303
    )
    forms = [
        {"type": "initiative", "dice_count": "0"},
        {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": "group-i"},
        {"type": "defend", "troops": "25-bde"},
    ]
    for version, form in enumerate(forms, start=1):
        r = c.post(f"/campaigns/{cid}/act", data=csrf.form(c, {"version": str(version), **form}))
        assert r.status_code == 200 and 'class="errors"' not in r.text, r.text[:2000]
    assert "Fight this battle on the table" in r.text
    assert "Fight this battle on the table" not in player.get(f"/campaigns/{cid}").text

    # The organiser opens it: POST, then the game's codes once on its own page (POST/redirect/GET).
    r = c.post(f"/campaigns/{cid}/table-battle", data=csrf.form(c), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("/created")
    game_id = int(r.headers["location"].split("/")[2])
    created = c.get(r.headers["location"])
    assert created.status_code == 200
    referee = bearer(_between(created.text, "data-referee-token>", "<"))
    assert f'href="/campaigns/{cid}"' in created.text
    assert "Campaign battle: Table night, turn 1 battle 1" in created.text
    assert "data-referee-token" not in c.get(f"/games/{game_id}/created").text  # shown once
    again = c.post(f"/campaigns/{cid}/table-battle", data=csrf.form(c), follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == f"/campaigns/{cid}"

    board = c.get(f"/campaigns/{cid}").text
    assert "Referee the game" in board and f'href="/games/{game_id}/referee"' in board
    page = player.get(f"/campaigns/{cid}").text
    assert "Play the BEF side (defender)" in page and "data-referee-token" not in page
    r = player.post(f"/campaigns/{cid}/table-battles/1/play", data=csrf.form(player), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{game_id}/fire-plan"
    game_page = player.get(f"/games/{game_id}/map")
    assert game_page.status_code == 200 and "Campaign battle: Table night" in game_page.text
    assert player.get(f"/api/v1/games/{game_id}/me").json()["role"] == "defender"

    # Ended on the table; the organiser says who holds the field, then confirms.
    finish(c, game_id, referee)
    board = c.get(f"/campaigns/{cid}").text
    assert 'name="field_held_by"' in board
    r = c.post(f"/campaigns/{cid}/table-battles/1/offer", data=csrf.form(c))
    assert r.status_code == 422 and "tap who holds the field" in r.text
    r = c.post(f"/campaigns/{cid}/table-battles/1/offer", data=csrf.form(c, {"field_held_by": "attacker"}))
    assert r.status_code == 200 and "The table's result" in r.text and "data-confirm-result" in r.text
    r = c.post(
        f"/campaigns/{cid}/table-battles/1/override",
        data=csrf.form(c, {"version": "4", "attacker_vp": "25", "defender_vp": "1"}),
    )
    assert r.status_code == 422 and "Attacker&#39;s game points: enter a whole number from 0 to 20" in r.text
    r = c.post(
        f"/campaigns/{cid}/table-battles/1/confirm",
        data=csrf.form(c, {"version": "6"}),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200 and 'class="errors"' not in r.text, r.text[:2000]
    assert 'data-phase="resolve"' not in r.text and "confirmed" in r.text
    assert f'data-game-link="{game_id}"' in r.text


def test_an_undone_result_can_be_applied_again(client: TestClient, seats: Seats) -> None:
    s = seats
    to_resolve(client, s)
    tb = open_battle(client, s)["table_battle"]
    url = f"{base(s)}/{tb['id']}"
    r = client.post(
        f"{url}/override", headers=s.organiser, json={"version": 5, "attacker_vp": 9, "defender_vp": 2}
    )
    assert r.status_code == 200 and r.json()["campaign"]["version"] == 7
    # The organiser takes the resolve back: the battle waits for its result, and the table game with it.
    assert (
        client.post(f"/api/v1/campaigns/{s.id}/undo", headers=s.organiser, json={"version": 7}).status_code
        == 200
    )
    back = client.get(url, headers=s.german).json()
    assert back["status"] == "open" and back["applied"] is None
    again = client.post(base(s), headers=s.organiser, json={})
    assert again.status_code == 200 and again.json()["table_battle"]["id"] == tb["id"]
    r = client.post(
        f"{url}/override", headers=s.organiser, json={"version": 8, "attacker_vp": 1, "defender_vp": 8}
    )
    assert r.status_code == 200, r.text
    assert r.json()["table_battle"]["applied"] == {"attacker_vp": 1, "defender_vp": 8}
    assert len(client.get(base(s), headers=s.bef).json()) == 1


def test_a_deleted_game_leaves_its_record_and_the_battle_can_be_opened_again(
    client: TestClient, seats: Seats
) -> None:
    s = seats
    to_resolve(client, s)
    opened = open_battle(client, s)
    tb = opened["table_battle"]
    r = client.delete(f"/api/v1/games/{tb['game_id']}", headers=bearer(opened["referee_token"]))
    assert r.status_code == 204
    gone = client.get(f"{base(s)}/{tb['id']}", headers=s.organiser).json()
    assert gone["status"] == "abandoned" and gone["game_id"] is None
    r = client.post(f"{base(s)}/{tb['id']}/seat", headers=s.german)
    assert r.status_code == 409 and "deleted" in r.json()["why"]
    fresh = open_battle(client, s)["table_battle"]
    assert fresh["id"] != tb["id"] and fresh["game_id"] is not None and fresh["status"] == "open"
    statuses = {b["id"]: b["status"] for b in client.get(base(s), headers=s.bef).json()}
    assert statuses == {tb["id"]: "abandoned", fresh["id"]: "open"}
    steps = [e["action"]["step"] for e in log_of(client, s) if e["kind"] == "table-battle"]
    assert steps == ["opened", "abandoned", "opened"]


@pytest.mark.storage
def test_two_devices_opening_at_once_get_one_game(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        s = new_campaign(http)
        to_resolve(http, s)
    barrier = threading.Barrier(2)
    answers: list[tuple[int, int]] = []

    def device() -> None:
        with httpx.Client(base_url=live_url, timeout=30) as http:
            barrier.wait()
            r = http.post(f"/api/v1/campaigns/{s.id}/table-battles", headers=s.organiser, json={})
            answers.append((r.status_code, r.json()["table_battle"]["game_id"]))

    threads = [threading.Thread(target=device) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert sorted(code for code, _ in answers) == [200, 201]
    assert len({game for _, game in answers}) == 1
    with httpx.Client(base_url=live_url, timeout=30) as http:
        assert len(http.get(f"/api/v1/campaigns/{s.id}/table-battles", headers=s.bef).json()) == 1
        assert len(http.get("/api/v1/games").json()) == 1


def test_the_page_refuses_odd_numbers_as_sentences(sqlite_client: TestClient) -> None:
    c = sqlite_client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "Odd numbers"}))
    cid = int(_between(r.text, 'data-campaign-created="', '"'))
    for link, data in (
        ("1", {"version": "²"}),
        ("1", {"version": "9" * 5000}),
        ("9" * 5000, {"version": "1"}),
        ("²", {"version": "1"}),
        ("1", {"version": "1", "attacker_vp": "²", "defender_vp": "1"}),
    ):
        for step in ("confirm", "override"):
            r = c.post(f"/campaigns/{cid}/table-battles/{link}/{step}", data=csrf.form(c, data))
            assert r.status_code == 422 and 'class="errors"' in r.text, (link, data, step, r.status_code)


def test_the_tap_form_refuses_odd_numbers_as_sentences(sqlite_client: TestClient) -> None:
    """The campaign's own tap form shares the page's number reading (pages.campaigns) with the table battles."""
    c = sqlite_client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "Odd numbers"}))
    cid = int(_between(r.text, 'data-campaign-created="', '"'))
    for data in (
        {"version": "²", "type": "initiative"},
        {"version": "1", "type": "initiative", "dice_count": "two"},
        {"version": "1", "type": "resolve", "great_war": "true", "attacker_vp": "²", "defender_vp": "1"},
    ):
        r = c.post(f"/campaigns/{cid}/act", data=csrf.form(c, data))
        assert r.status_code == 422 and 'class="errors"' in r.text, (data, r.status_code)
