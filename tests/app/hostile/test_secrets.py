"""Hidden information through every read path: a side's random-event hand and its unarrived fire-plan items
(their content, their count, the ids and edits that would betray it) never reach the other side or a device
without a token, whether through the API, the live stream, the report, the game pages or the printables."""

from __future__ import annotations

import hashlib
import json
import math
import re
import subprocess
from datetime import UTC, datetime
from typing import Any

import httpx
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import Session, create_engine, select

from app.core.db import downgrade, make_engine, migrate
from app.core.touched import touched_units
from app.data.models import FirePlanItem
from app.guard.auth import COOKIE_NAME
from rules.core.vocabulary import SIDES
from tests.app.games.conftest import Game, bearer, live_url  # noqa: F401  (live_url is a fixture)

# Distinctive texts that only their own side may ever read.
UNARRIVED = "SECRET-BATTERY-LATER"
REMOVED = "SECRET-BATTERY-REMOVED"
DEFENDER_ITEM = "SECRET-DEFENDER-BATTERY"
ARRIVING = "BATTERY-ARRIVING"
KEPT_CARD = ('"10D"', "Concise Order")  # drawn and kept by the attacker, never played


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(obj: Any) -> str:
    return hashlib.sha256(canonical(obj)).hexdigest()


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


def cookie(headers: dict[str, str]) -> str:
    """A device's token as the pages read it (its cookie)."""
    return f"{COOKIE_NAME}={token_of(headers)}"


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    if status == 204:
        return None
    return r.json() if r.headers.get("content-type", "").startswith("application/json") else r.text


def new_game(c: TestClient, payload: dict[str, Any]) -> Game:
    """A game with both sides joined; the device keeps no cookie, every request names its token."""
    body = ok(c.post("/api/v1/games", json=payload), 201)
    tokens = {}
    for side in ("attacker", "defender"):
        tokens[side] = bearer(ok(c.post("/api/v1/join", json={"code": body["join_codes"][side]}))["token"])
        c.cookies.clear()
    return Game(
        body["game"]["id"],
        bearer(body["referee_token"]),
        tokens["attacker"],
        tokens["defender"],
        body["join_codes"],
        body,
    )


def advance(c: TestClient, g: Game) -> dict[str, Any]:
    version = ok(c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee))["version"]
    return dict(
        ok(c.post(f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": version}))
    )


def draw(c: TestClient, g: Game, position: int) -> dict[str, Any]:
    """The attacker's draw of the card at `position` in the pack, entered by the referee (a side may not
    pick where it draws): the referee's answer, the whole draw."""
    r = c.post(f"/api/v1/games/{g.id}/resolve/random-event", headers=g.referee, json={"dice": [position]})
    return dict(ok(r))


def aiming_point(battery: str, turn: int) -> dict[str, Any]:
    return {"arrival_turn": turn, "item": {"kind": "aiming-point", "grid": [64, 120], "battery": battery}}


def plan_game(c: TestClient) -> tuple[Game, dict[str, int]]:
    """A mid-war game whose attacker wrote three items (one removed again) and whose defender wrote one;
    both plans locked, the game started: only the attacker's first item has arrived."""
    g = new_game(c, {"name": "Secrets", "period": "mid", "attacker_nation": "german",
                     "defender_nation": "british"})  # fmt: skip
    ids: dict[str, int] = {}
    plan = f"/api/v1/games/{g.id}/fireplans"
    for name, turn in ((ARRIVING, 1), (REMOVED, 2), (UNARRIVED, 5)):
        ids[name] = ok(
            c.post(f"{plan}/attacker/items", headers=g.attacker, json=aiming_point(name, turn)), 201
        )["id"]
    ok(c.delete(f"{plan}/attacker/items/{ids[REMOVED]}", headers=g.attacker), 204)
    ids[DEFENDER_ITEM] = ok(
        c.post(f"{plan}/defender/items", headers=g.defender, json=aiming_point(DEFENDER_ITEM, 9)), 201
    )["id"]
    for side, who in (("attacker", g.attacker), ("defender", g.defender)):
        ok(c.post(f"{plan}/{side}/lock", headers=who))
    advance(c, g)  # the game starts: the German turn 1, the first item arrives
    return g, ids


def assert_hidden(text: str, where: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in text, f"{where} shows {secret!r}"
    assert '"leaves"' not in text, f"{where} lists the plan's leaves (their number is the plan's size)"


def sse_frames(base: str, game_id: int, headers: dict[str, str], last_id: int) -> list[dict[str, Any]]:
    """Read the stream from a real server until the event `last_id` has been sent."""
    frames: list[dict[str, Any]] = []
    with httpx.stream("GET", f"{base}/api/v1/games/{game_id}/stream", headers=headers, timeout=20) as r:
        assert r.status_code == 200, r.read()
        frame: dict[str, Any] = {}
        for line in r.iter_lines():
            if line.startswith("id: "):
                frame["id"] = int(line[4:])
            elif line.startswith("data: "):
                frame["data"] = line[6:]
            elif line == "" and "id" in frame:
                frames.append(frame)
                if frame["id"] >= last_id:
                    break
                frame = {}
    return frames


def pdf_text(r: Any) -> str:
    """A printable as its text (poppler's pdftotext), or the refusal the server answered instead."""
    if r.status_code != 200:
        assert r.status_code in (401, 403), r.text
        return str(r.text)
    assert r.headers["content-type"] == "application/pdf"
    return subprocess.run(
        ["pdftotext", "-", "-"], input=r.content, capture_output=True, check=True
    ).stdout.decode()


def read_paths(c: TestClient, base: str, g: Game, who: dict[str, str] | None, last_id: int) -> dict[str, str]:
    """Everything a device with the given token (or none) can read of the game, by path."""
    headers = who or {}
    got: dict[str, str] = {}
    api = f"/api/v1/games/{g.id}"
    for path in (
        f"{api}/events",
        f"{api}/report",
        f"{api}/state",
        f"{api}/me",
        f"{api}/turn",
        f"{api}/units",
        f"{api}/fireplans",
        f"{api}/fireplans/attacker/items",
        f"{api}/fireplans/attacker/verify",
        f"/playsheets/games/{g.id}",
        f"/playsheets/games/{g.id}/fire-plan/attacker",
        f"/playsheets/games/{g.id}/aiming-points",
    ):
        got[path] = c.get(path, headers=headers).text
    for pdf in (
        f"/playsheets/games/{g.id}/fire-plan/attacker.pdf",
        f"/playsheets/games/{g.id}/aiming-points.pdf",
    ):
        got[pdf] = pdf_text(c.get(pdf, headers=headers))
    # The pages authenticate by the device's cookie.
    if who is not None:
        c.cookies.set("firestep_token", token_of(who))
    for page in ("referee", "map", "report", "fire-plan", "fire-plan?side=attacker"):
        got[f"/games/{g.id}/{page}"] = c.get(f"/games/{g.id}/{page}").text
    c.cookies.clear()
    if who is not None:
        got["stream"] = "\n".join(f["data"] for f in sse_frames(base, g.id, headers, last_id))
    else:
        got["stream"] = httpx.get(f"{base}{api}/stream", timeout=10).text
    return got


def test_hand_and_unarrived_plan_reach_no_other_device(client: TestClient, live_url: str) -> None:  # noqa: F811
    c = client
    g, _ids = plan_game(c)
    # The attacker draws the Ace of Hearts (13th of the fresh pack) and keeps it: the British learn that a
    # card was kept, not which.
    first = draw(c, g, 13)
    assert [d["card"] for d in first["resolution"]["outcome"]["drawn"]] == ["AH"]
    seen = c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).text
    assert '"AH"' not in seen and "Big Bangs!" not in seen
    public = json.loads(seen)[-1]
    assert (public["id"], public["kind"]) == (first["event_id"], "roll")
    assert public["payload"]["kept"] == 1 and public["payload"]["drawn"] == 1
    # Played, the Ace is everyone's to see ("shown to everyone"); the Ten of Diamonds drawn next stays the
    # attacker's; the Jack drawn before it and taken back by the referee stays out of play.
    ok(
        c.post(
            f"/api/v1/games/{g.id}/cards/play", headers=g.attacker, json={"side": "attacker", "card": "AH"}
        )
    )
    second = draw(c, g, 22)
    assert [d["card"] for d in second["resolution"]["outcome"]["drawn"]] == ["JD"]
    ok(c.post(f"/api/v1/games/{g.id}/events/{second['event_id']}/undo", headers=g.referee))
    third = draw(c, g, 21)
    assert [d["card"] for d in third["resolution"]["outcome"]["drawn"]] == ["10D"]
    assert ok(c.get(f"/api/v1/games/{g.id}/me", headers=g.attacker))["event_hand"] == ["10D"]
    played = json.loads(c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).text)
    assert [e["payload"]["card"]["card"] for e in played if e["kind"] == "card-played"] == ["AH"]

    everything = ok(c.get(f"/api/v1/games/{g.id}/events", headers=g.referee))
    last_id = everything[-1]["id"]
    for who, name in ((g.defender, "defender"), (None, "no token")):
        for path, text in read_paths(c, live_url, g, who, last_id).items():
            assert_hidden(text, f"{path} for {name}", UNARRIVED, REMOVED, *KEPT_CARD)
    for path, text in read_paths(c, live_url, g, g.attacker, last_id).items():
        assert_hidden(text, f"{path} for the attacker", DEFENDER_ITEM)
    # Each side and the referee see the same event ids: nothing is logged that only one of them reads, so
    # gaps count nothing (the plan edits are kept with their side, not in the shared log).
    for who in (g.attacker, g.defender):
        assert [e["id"] for e in ok(c.get(f"/api/v1/games/{g.id}/events", headers=who))] == [
            e["id"] for e in everything
        ]
    # The referee and the drawer still read the whole draw; the undo of a draw restores the hand privately.
    assert any('"10D"' in json.dumps(e) for e in everything)
    mine = json.dumps(ok(c.get(f"/api/v1/games/{g.id}/events", headers=g.attacker)))
    assert '"10D"' in mine


def test_a_card_entered_from_the_clubs_pack_tells_neither_side_the_others_hand(client: TestClient) -> None:
    """A game drawing from the club's own pack (a game option): the side to move enters the card it drew (every
    route keeps it from the other side: test_secrets_walk.py); entering a card the other side holds is
    answered as any other (its hand stays its own), and a side neither gives dice nor lets firestep deal in
    such a game, nor enters a card where firestep deals."""
    c = client
    g = new_game(c, {"name": "Club pack", "period": "mid", "variants": {"events-pack": "club"}})
    plan = f"/api/v1/games/{g.id}/fireplans"
    for side, who in (("attacker", g.attacker), ("defender", g.defender)):
        ok(c.post(f"{plan}/{side}/lock", headers=who))
    advance(c, g)  # the German turn 1
    url = f"/api/v1/games/{g.id}/cards/drawn"
    entered = ok(c.post(url, headers=g.attacker, json={"cards": ["10D"]}))
    assert [d["card"] for d in entered["resolution"]["outcome"]["drawn"]] == ["10D"]
    assert ok(c.get(f"/api/v1/games/{g.id}/me", headers=g.attacker))["event_hand"] == ["10D"]
    assert c.post(url, headers=g.defender, json={"cards": ["QC"]}).status_code == 403  # not its turn to draw
    for body, field in (({}, "cards"), ({"dice": [1]}, "dice")):
        refused = c.post(f"/api/v1/games/{g.id}/resolve/random-event", headers=g.attacker, json=body)
        assert refused.status_code == 422 and refused.json()["errors"][0]["loc"][-1] == field, refused.text
    held = c.post(url, headers=g.attacker, json={"cards": ["10D"]})  # its own card: it knows it holds it
    assert held.status_code == 422 and held.json()["field"] == "cards.0", held.text

    public = ok(c.get(f"/api/v1/games/{g.id}/events", headers=g.defender))[-1]["payload"]
    assert (public["drawn"], public["kept"]) == (1, 1)

    # The defender's turn: it enters the card the attacker holds, answered as any other; the attacker's hand
    # is unchanged (which cards it holds stays its own).
    while advance(c, g)["turn"]["side_to_move"] != "defender":
        pass
    twin = ok(c.post(url, headers=g.defender, json={"cards": ["10D"]}))
    assert [d["card"] for d in twin["resolution"]["outcome"]["drawn"]] == ["10D"]
    assert ok(c.get(f"/api/v1/games/{g.id}/me", headers=g.attacker))["event_hand"] == ["10D"]
    # Where firestep deals, a card is drawn, never entered.
    dealt, _ids = plan_game(c)
    refused = c.post(f"/api/v1/games/{dealt.id}/cards/drawn", headers=dealt.attacker, json={"cards": ["QC"]})
    assert refused.status_code == 422 and refused.json()["errors"][0]["loc"][-1] == "cards", refused.text


def test_arrival_reveals_one_item_and_proves_it_without_the_count(
    client: TestClient, migrated_url: str
) -> None:
    c = client
    g, ids = plan_game(c)
    plans = {p["side"]: p for p in ok(c.get(f"/api/v1/games/{g.id}/fireplans", headers=g.defender))}
    capacity = plans["attacker"]["capacity"]
    events = ok(c.get(f"/api/v1/games/{g.id}/events", headers=g.defender))
    arrivals = [e["payload"] for e in events if e["kind"] == "fire-plan-arrival"]
    assert len(arrivals) == 1
    arrival = arrivals[0]
    assert arrival["item"]["data"]["battery"] == ARRIVING
    # One leaf and the hashes on its way to the root: as many as the tree is deep, whatever the plan holds.
    assert len(arrival["path"]) == math.log2(capacity)
    node = sha({"item": arrival["item"], "salt": arrival["salt"]})
    assert node == arrival["leaf"]
    for depth, sibling in enumerate(arrival["path"]):
        node = sha([sibling, node] if arrival["slot"] >> depth & 1 else [node, sibling])
    assert sha({"game": g.id, "side": "attacker", "root": node}) == plans["attacker"]["commitment"]
    assert arrival["verified"] is True and "SHA-256" in arrival["how_to_check"]
    # The fire-plan page tells the table, in plain words, how to check it.
    c.cookies.set("firestep_token", token_of(g.defender))
    page = c.get(f"/games/{g.id}/fire-plan")
    c.cookies.clear()
    assert page.status_code == 200 and "How to check the commitment" in page.text
    assert "SHA-256 of compact JSON" in page.text
    # The item's id reveals nothing: it is not the row's id, and an unarrived item answers the opponent just
    # as a missing one does.
    with Session(create_engine(migrated_url)) as s:
        rows = s.exec(select(FirePlanItem).where(FirePlanItem.game_id == g.id)).all()
        assert arrival["item"]["id"] not in {r.id for r in rows}
    assert arrival["item"]["id"] == ids[ARRIVING]
    hidden = c.get(f"/api/v1/games/{g.id}/fireplans/attacker/items/{ids[UNARRIVED]}", headers=g.defender)
    missing = c.get(f"/api/v1/games/{g.id}/fireplans/attacker/items/{ids[REMOVED]}", headers=g.defender)
    assert hidden.status_code == missing.status_code == 404
    for part in ("detail", "why"):
        hidden_says = hidden.json()[part].replace(str(ids[UNARRIVED]), "N")
        assert hidden_says == missing.json()[part].replace(str(ids[REMOVED]), "N")
    # The attacker's own view of the plan lists the edits, kept with the side.
    own = ok(c.get(f"/api/v1/games/{g.id}/fireplans/attacker/edits", headers=g.attacker))
    assert [e["action"] for e in own] == ["added", "added", "added", "removed"]
    assert c.get(f"/api/v1/games/{g.id}/fireplans/attacker/edits", headers=g.defender).status_code == 403
    # After the game everyone checks the whole plan, padding included.
    finish = ok(c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee))["version"]
    ok(c.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": finish}))
    full = ok(c.get(f"/api/v1/games/{g.id}/fireplans/attacker/verify", headers=g.defender))
    assert full["verified"] is True and len(full["items"]) == 2 and full["how_to_check"]
    assert {i["item"]["data"]["battery"] for i in full["items"]} == {ARRIVING, UNARRIVED}


def test_a_plan_holds_at_most_its_capacity(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"name": "Full plan", "period": "mid"})
    capacity = ok(c.get(f"/api/v1/games/{g.id}/fireplans", headers=g.attacker))[0]["capacity"]
    plan = f"/api/v1/games/{g.id}/fireplans/attacker/items"
    for n in range(capacity):
        ok(c.post(plan, headers=g.attacker, json=aiming_point(f"B{n}", 1)), 201)
    over = c.post(plan, headers=g.attacker, json=aiming_point("one too many", 1))
    assert over.status_code == 422 and over.json()["errors"][0]["loc"][-1] == "item"
    assert str(capacity) in over.json()["errors"][0]["msg"]


def test_plans_and_hands_logged_before_the_secrets_revision(client: TestClient, migrated_url: str) -> None:
    """A database from before revision 0005: a plan locked under the flat commitment (the sorted list of
    leaves) still verifies, and a hand written into a public payload is moved to its side's private part."""
    c = client
    g = new_game(c, {"name": "Old plans", "period": "mid"})
    plan = f"/api/v1/games/{g.id}/fireplans"
    ok(c.post(f"{plan}/attacker/items", headers=g.attacker, json=aiming_point(ARRIVING, 1)), 201)
    ok(c.post(f"{plan}/attacker/items", headers=g.attacker, json=aiming_point(UNARRIVED, 5)), 201)
    downgrade(migrated_url, "0004", lose_data=True)
    sides = sa.table(
        "game_side",
        sa.column("game_id", sa.Integer()),
        sa.column("side", sa.String()),
        sa.column("plan_locked", sa.Boolean()),
        sa.column("plan_leaves", sa.JSON()),
        sa.column("plan_commitment", sa.String()),
        sa.column("plan_salt", sa.String()),
    )
    items = sa.table(
        "fire_plan_item",
        *(sa.column(n, sa.Integer()) for n in ("id", "game_id", "arrival_turn")),
        *(sa.column(n, sa.String()) for n in ("side", "kind", "salt")),
        sa.column("data", sa.JSON()),
    )
    events = sa.table(
        "event",
        *(sa.column(n, sa.Integer()) for n in ("game_id", "turn")),
        *(sa.column(n, sa.String()) for n in ("side", "step", "kind", "actor", "visibility")),
        sa.column("payload", sa.JSON()),
        sa.column("created_at", sa.DateTime()),
    )
    engine = make_engine(migrated_url)
    with engine.begin() as conn:
        # The attacker's plan locked as the code before 0005 did: each item hashed with its row id, plus one
        # padding leaf, and the commitment over the sorted leaves.
        salt = conn.execute(
            sa.select(sides.c.plan_salt).where(sides.c.game_id == g.id, sides.c.side == "attacker")
        ).scalar_one()
        rows = conn.execute(sa.select(items).where(items.c.game_id == g.id)).mappings().all()
        leaves = [
            sha(
                {"item": {k: r[k] for k in ("id", "side", "kind", "arrival_turn", "data")}, "salt": r["salt"]}
            )
            for r in rows
        ]
        leaves = sorted([*leaves, sha({"item": {"padding": "attacker"}, "salt": salt})])
        commitment = sha({"game": g.id, "side": "attacker", "leaves": leaves})
        conn.execute(
            sa.update(sides)
            .where(sides.c.game_id == g.id, sides.c.side == "attacker")
            .values(plan_locked=True, plan_leaves=leaves, plan_commitment=commitment)
        )
        # A card played under the old code: the hand before and after, in the public payload.
        hand = {"side": "attacker", "field": "event-hand", "before": ["10D", "AH"], "after": ["10D"]}
        conn.execute(
            sa.insert(events).values(
                game_id=g.id,
                turn=0,
                side="attacker",
                step="",
                kind="card-played",
                actor="attacker",
                visibility="all",
                payload={"side": "attacker", "changes": [hand]},
                created_at=datetime.now(UTC),
            )
        )
    engine.dispose()
    migrate(migrated_url)

    assert '"10D"' not in c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).text
    assert '"10D"' in c.get(f"/api/v1/games/{g.id}/events", headers=g.attacker).text
    whole = ok(c.get(f"{plan}/attacker/verify", headers=g.attacker))
    assert whole["commitment"] == commitment and whole["verified"] is True
    ok(c.post(f"{plan}/defender/lock", headers=g.defender))
    started = advance(c, g)
    arrival = next(e["payload"] for e in started["events"] if e["kind"] == "fire-plan-arrival")
    assert arrival["item"]["data"]["battery"] == ARRIVING and arrival["verified"] is True
    assert "leaves" not in arrival


def test_a_draw_tells_the_drawer_nothing_of_the_pack(client: TestClient) -> None:
    """The pack less the cards out of play and one's own hand is the opponent's hand: no answer to the drawer
    lists the pack left, says where in it a card was (its order), or gives odds over it; and a side may
    neither pick where it draws nor look at a draw without making it."""
    from rules.flanders_fields.resolvers.events import PACK

    c = client
    g, _ids = plan_game(c)
    draw(c, g, 13)  # the attacker keeps the Ace of Hearts
    url = f"/api/v1/games/{g.id}/resolve/random-event"
    for body, name in (({"dice": [1]}, "dice"), ({"apply": False}, "apply")):
        refused = c.post(url, headers=g.attacker, json=body)
        assert refused.status_code == 422 and refused.json()["errors"][0]["loc"][-1] == name, refused.text
    # The lookup page draws as the API does, and shows the drawer no more of the pack.
    c.cookies.set("firestep_token", token_of(g.attacker))
    c.get(f"/lookup/flanders-fields/random-event?game={g.id}")
    page = c.post(
        "/lookup/flanders-fields/random-event",
        data={"_game": str(g.id), "action": "roll"},
        headers={"x-csrftoken": c.cookies["firestep_csrf"]},
    )
    c.cookies.clear()
    assert page.status_code == 200 and "Not recorded" not in page.text and "Random event" in page.text
    answer = ok(c.post(url, headers=g.attacker, json={}))
    state = ok(c.get(f"/api/v1/games/{g.id}/state", headers=g.referee))["board"]["events"]
    hands = {s: ok(c.get(f"/api/v1/games/{g.id}/me", headers=getattr(g, s)))["event_hand"] for s in SIDES}
    undealt = set(PACK) - set(state["out"]) - {card for h in hands.values() for card in h}
    assert len(undealt) == state["cards_left"] > 40
    mine = json.dumps(answer) + c.get(f"/api/v1/games/{g.id}/events", headers=g.attacker).text
    assert not {card for card in undealt if f'"{card}"' in mine}, "the drawer reads cards of the pack"
    shown = set(re.findall(r"(?<![\w-])(?:10|[2-9JQKA])[HDCS](?![\w-])", page.text))
    assert not shown & undealt, f"the lookup page shows the drawer {sorted(shown & undealt)} of the pack"
    assert "probabilities" not in mine and '"dice"' not in json.dumps(answer["resolution"])
    # The referee, who sees everything, reads the whole draw: the pack left, in its order.
    log = ok(c.get(f"/api/v1/games/{g.id}/events", headers=g.referee))
    assert set(log[-1]["payload"]["resolution"]["outcome"]["deck"]) == undealt
    by_page = log[-2]["payload"]["resolution"]["outcome"]["drawn"]
    assert {d["card"] for d in by_page} <= shown, "the page does not show the drawer its own card"


def test_an_aiming_point_is_its_sides_until_the_battery_fires(client: TestClient) -> None:
    c = client
    g = new_game(c, {"scenario": "mons-1914"})
    units = ok(c.get(f"/api/v1/games/{g.id}/units", headers=g.referee))
    battery = next(u for u in units if u["side"] == "attacker" and u["level"] == "battery")
    at = [413.3125, 319.8125]
    url = f"/api/v1/games/{g.id}/units/{battery['id']}"
    aimed = ok(c.put(url, headers=g.attacker, json={"version": battery["version"], "aiming_point": at}))
    assert aimed["unit"]["aiming_point"] == at and ok(c.get(url, headers=g.attacker))["aiming_point"] == at
    for who in (g.defender, None):
        for path in (url, f"/api/v1/games/{g.id}/units", f"/api/v1/games/{g.id}/events"):
            r = c.get(path, headers=who or {})
            assert "413.3125" not in r.text, path
    # A player undoes its own aiming (the change is kept with its side, and reversed from there).
    undone = ok(c.post(f"/api/v1/games/{g.id}/events/{aimed['event_id']}/undo", headers=g.attacker))
    assert undone["payload"]["changes"][0]["before"] == at  # the attacker's own view of its undo
    assert "413.3125" not in c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).text
    assert ok(c.get(url, headers=g.attacker))["aiming_point"] is None
    again = ok(c.get(url, headers=g.attacker))["version"]
    ok(c.put(url, headers=g.attacker, json={"version": again, "aiming_point": at}))
    advance(c, g)
    # It fires: the aiming point is placed on the table, where the British read it.
    fired = ok(c.post(f"/api/v1/games/{g.id}/resolve/deviation", headers=g.attacker,
                      json={"unit_id": battery["id"]}))  # fmt: skip
    assert any(ch.get("field") == "board" for ch in fired["changes"])
    assert ok(c.get(url, headers=g.defender))["aiming_point"] == at


def test_the_other_side_is_not_told_which_battery_was_aimed(client: TestClient) -> None:
    """A battery aimed is its side's until it fires (ARTILLERY AIMING POINT: "an aiming point is placed on the
    table" as it fires): the other side reads that the defender wrote something down, never which battery it
    was, in the log, the stand a live map frame carries (what the event touched) or the board's lines."""
    c = client
    g = new_game(c, {"scenario": "mons-1914"})
    units = ok(c.get(f"/api/v1/games/{g.id}/units", headers=g.referee))
    battery = next(u for u in units if u["side"] == "defender" and u["level"] == "battery")
    log = f"/api/v1/games/{g.id}/events"
    before = ok(c.get(log, headers=g.attacker))[-1]["id"]
    url = f"/api/v1/games/{g.id}/units/{battery['id']}"
    aim = {"version": battery["version"], "aiming_point": [52.5, 61.5]}
    aimed = ok(c.put(url, headers=g.defender, json=aim))
    seen = ok(c.get(log, headers=g.attacker))[-1]
    assert (seen["id"], seen["actor"], seen["kind"]) == (aimed["event_id"], "defender", "unit-update")
    assert "unit_id" not in seen["payload"] and not touched_units(seen)
    board = c.get(f"/games/{g.id}/referee/changes?after={before}", headers={"Cookie": cookie(g.attacker)})
    assert board.status_code == 200 and "Unit update" in board.text
    assert battery["short_name"] not in board.text
    # Its side and the referee read which battery, and the point.
    for who in (g.defender, g.referee):
        mine = ok(c.get(log, headers=who))[-1]
        assert mine["payload"]["unit_id"] == battery["id"] and touched_units(mine) == {battery["id"]}
        assert mine["payload"]["changes"][0]["after"] == [52.5, 61.5]
    # The same point saved again (the plan's form sent unchanged) reads as any aim, never as a change of
    # nothing naming the stand (the hostile pass of session 17); the other side's version stays.
    was = ok(c.get(url, headers=g.attacker))["version"]
    ok(c.put(url, headers=g.defender, json={**aim, "version": aimed["unit"]["version"]}))
    again = ok(c.get(log, headers=g.attacker))[-1]
    assert "unit_id" not in again["payload"] and not touched_units(again)
    assert ok(c.get(url, headers=g.attacker))["version"] == was


def test_a_battery_aimed_keeps_its_version_to_the_other_side(client: TestClient) -> None:
    """The unit's version counts its side's writes, so the other side would tell the battery aimed by its
    bump: the other side reads it without the writes of the side's secrets alone; its side writes over the
    whole, a stale write refused (409) with the version to write over and the aim it holds."""
    c = client
    g = new_game(c, {"scenario": "mons-1914"})
    units = ok(c.get(f"/api/v1/games/{g.id}/units", headers=g.referee))
    battery = next(u for u in units if u["side"] == "defender" and u["level"] == "battery")
    url, was = f"/api/v1/games/{g.id}/units/{battery['id']}", battery["version"]
    ok(c.put(url, headers=g.defender, json={"version": was, "aiming_point": [52.5, 61.5]}))

    def versions(who: dict[str, str]) -> tuple[int, int]:
        listed = ok(c.get(f"/api/v1/games/{g.id}/units", headers=who))
        in_list = next(u for u in listed if u["id"] == battery["id"])
        return ok(c.get(url, headers=who))["version"], in_list["version"]

    assert versions(g.attacker) == (was, was)
    assert versions(g.defender) == versions(g.referee) == (was + 1, was + 1)
    stale = c.put(url, headers=g.defender, json={"version": was, "aiming_point": [1.5, 2.5]})
    assert stale.status_code == 409 and stale.json()["current"]["version"] == was + 1
    # Answered to the side that owns the secret: its own aim as it now stands, not the other side's default.
    assert stale.json()["current"]["aiming_point"] == [52.5, 61.5]
    # A change the other side reads bumps the version it reads, by one.
    ok(c.put(url, headers=g.defender, json={"version": was + 1, "name": "Renamed battery"}))
    assert versions(g.attacker) == (was + 1, was + 1)
    assert versions(g.defender) == (was + 2, was + 2)
