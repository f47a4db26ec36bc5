"""Idempotency-Key on writes (app/guard/idempotency.py): a repeat gets the first answer and acts once, also when
the repeats race; keys are bounded and belong to one device and one request; answers expire."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, update
from sqlmodel import Session, col, select

from app.core.db import commit_bookkeeping
from app.data.models import Game as GameRow
from app.data.models import IdempotentResponse, utcnow
from app.errors import Conflict
from app.guard import idempotency
from app.guard.auth import COOKIE_NAME
from app.guard.idempotency import (
    ACTED,
    HEADER,
    KEEP,
    REPLAYED_HEADER,
    STALE_AFTER,
    Stored,
    _Acting,
    _acting,
    _finish,
)
from tests.app.campaigns.conftest import new_campaign
from tests.app.games.conftest import Game, bearer, live_url, new_game, start_game  # noqa: F401 (fixture)

pytestmark = pytest.mark.storage  # idempotency claims kept by each backend

KEY = "3f1c2a9e-7b44-4d2a-9a51-0c8e5d7b1f20"


def defender_stand(http: Any, game: Game) -> dict[str, Any]:
    units = http.get(f"/api/v1/games/{game.id}/units", headers=game.referee).json()
    return next(u for u in units if u["side"] == "defender" and u["level"] == "stand" and not u["killed"])


def suppression(http: Any, game: Game, unit_id: int) -> int:
    units = http.get(f"/api/v1/games/{game.id}/units", headers=game.referee).json()
    return int(next(u for u in units if u["id"] == unit_id)["suppression"])


def marker_events(http: Any, game: Game, unit_id: int) -> int:
    events = http.get(f"/api/v1/games/{game.id}/events", headers=game.referee).json()
    return sum(1 for e in events if e["kind"] == "marker" and e["payload"].get("unit_id") == unit_id)


def add_marker(
    http: Any, game: Game, unit_id: int, who: dict[str, str], key: str | bytes | None = KEY
) -> Any:
    headers = {**who, **({HEADER: key} if key else {})}
    return http.post(f"/api/v1/games/{game.id}/units/{unit_id}/markers", json={"delta": 1}, headers=headers)


def test_a_repeat_gets_the_first_answer_and_acts_once(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    first = add_marker(client, g, unit, g.attacker)
    assert first.status_code == 200, first.text
    assert REPLAYED_HEADER not in first.headers
    again = add_marker(client, g, unit, g.attacker)
    assert again.status_code == 200 and again.json() == first.json()
    assert again.headers[REPLAYED_HEADER] == "true"
    assert again.headers["content-type"] == first.headers["content-type"]
    assert suppression(client, g, unit) == 1 and marker_events(client, g, unit) == 1
    # A new key is a new tap.
    assert add_marker(client, g, unit, g.attacker, key="second-tap-0001").status_code == 200
    assert suppression(client, g, unit) == 2


def test_a_refusal_is_the_answer_a_repeat_gets(client: TestClient) -> None:
    g = new_game(client)
    unit = defender_stand(client, g)["id"]
    refused = add_marker(client, g, unit, g.attacker)  # no markers in set-up
    assert refused.status_code == 409
    start_game(client, g)
    again = add_marker(client, g, unit, g.attacker)
    assert again.status_code == 409 and again.json() == refused.json()
    assert suppression(client, g, unit) == 0


def test_concurrent_repeats_act_once(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        start_game(http, g)
        unit = defender_stand(http, g)["id"]
        answers: list[httpx.Response] = []
        barrier = threading.Barrier(6)

        def tap() -> None:
            with httpx.Client(base_url=live_url, timeout=30) as own:
                barrier.wait()
                answers.append(add_marker(own, g, unit, g.attacker))

        threads = [threading.Thread(target=tap) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(answers) == 6
        # Each repeat waits for the first answer (or, past the wait, is told to repeat later): never a double.
        assert {a.status_code for a in answers} <= {200, 409}
        done = [a.json() for a in answers if a.status_code == 200]
        assert done and all(d == done[0] for d in done)
        assert suppression(http, g, unit) == 1 and marker_events(http, g, unit) == 1


def test_keys_are_bounded_and_named(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    for bad in ("short", "x" * 65, "has spaces in it", "ünïcödé-key-1".encode(), "semi;colon;key"):
        r = add_marker(client, g, unit, g.attacker, key=bad)
        assert r.status_code == 422, bad
        assert (
            r.json()["errors"][0]["loc"] == ["header", HEADER] and "8 to 64" in r.json()["errors"][0]["msg"]
        )
    two = client.post(
        f"/api/v1/games/{g.id}/units/{unit}/markers",
        json={"delta": 1},
        headers=[("Authorization", g.attacker["Authorization"]), (HEADER, KEY), (HEADER, "another-key-1")],
    )
    assert two.status_code == 422 and "one Idempotency-Key" in two.json()["errors"][0]["msg"]
    # No token: no device to keep the answer for (creating a game answers with its referee token).
    anonymous = client.post("/api/v1/games", json={"scenario": "mons-1914"}, headers={HEADER: KEY})
    assert anonymous.status_code == 422 and "device's token" in anonymous.json()["errors"][0]["msg"]
    assert suppression(client, g, unit) == 0
    # A key names one request: the same key with another body is refused, and acts on nothing.
    assert add_marker(client, g, unit, g.attacker).status_code == 200
    other = client.post(
        f"/api/v1/games/{g.id}/units/{unit}/markers",
        json={"delta": 1, "fire": "mg"},
        headers={**g.attacker, HEADER: KEY},
    )
    assert other.status_code == 422 and "another request" in other.json()["errors"][0]["msg"]
    assert suppression(client, g, unit) == 1


def test_another_device_with_the_same_key_acts_on_its_own(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    second_attacker = bearer(client.post("/api/v1/join", json={"code": g.codes["attacker"]}).json()["token"])
    client.cookies.clear()
    assert add_marker(client, g, unit, g.attacker).status_code == 200
    assert add_marker(client, g, unit, second_attacker).status_code == 200
    assert suppression(client, g, unit) == 2 and marker_events(client, g, unit) == 2


def test_answers_expire_after_a_day(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    assert add_marker(client, g, unit, g.attacker).status_code == 200
    engine = client.app.state.engine  # type: ignore[attr-defined]
    kept_as(engine, PAST_A_DAY)
    again = add_marker(client, g, unit, g.attacker)
    assert again.status_code == 200 and REPLAYED_HEADER not in again.headers
    assert suppression(client, g, unit) == 2
    with Session(engine) as session:
        assert len(session.exec(select(IdempotentResponse)).all()) == 1  # the expired answer is gone


def test_a_revoked_device_gets_no_replay(client: TestClient) -> None:
    c = new_campaign(client)
    first = client.post(f"/api/v1/campaigns/{c.id}/credentials", headers={**c.organiser, HEADER: KEY})
    assert first.status_code == 200, first.text
    # Reissuing revoked the organiser's old token: repeating with it is refused, not answered with the new one.
    again = client.post(f"/api/v1/campaigns/{c.id}/credentials", headers={**c.organiser, HEADER: KEY})
    assert again.status_code == 401 and first.json()["organiser_token"] not in again.text
    new = bearer(first.json()["organiser_token"])
    replay_free = client.post(f"/api/v1/campaigns/{c.id}/credentials", headers={**new, HEADER: KEY})
    assert replay_free.status_code == 200 and replay_free.json() != first.json()


# -- a server that stopped in the middle of a request ---------------------------------------------------------
PAST_A_DAY = KEEP + timedelta(hours=1)  # an answer this old is no longer kept


def kept_as(engine: Any, age: timedelta, keys: tuple[str, ...] = (), **values: Any) -> None:
    """Make the kept answers (all, or those of `keys`) `age` old, with `values` set: past a day, or a claim a
    stopped server left (still in progress, or acted on with its answer never stored)."""
    chosen = update(IdempotentResponse).values(created_at=utcnow() - age, **values)
    if keys:
        chosen = chosen.where(col(IdempotentResponse.key).in_(keys))
    with Session(engine) as session:
        session.execute(chosen)
        session.commit()


def _leave_claim(engine: Any, status_code: int | None, age: timedelta) -> None:
    kept_as(engine, age, status_code=status_code, body=b"")


def _one_marker_with_a_key(client: TestClient) -> tuple[Game, int]:
    """A started game and a defender stand that has had one marker, sent with KEY (its answer kept)."""
    g = new_game(client)
    start_game(client, g)
    unit = int(defender_stand(client, g)["id"])
    assert add_marker(client, g, unit, g.attacker).status_code == 200
    return g, unit


def test_a_claim_left_unacted_by_a_stopped_server_is_taken_over(client: TestClient) -> None:
    g, unit = _one_marker_with_a_key(client)
    _leave_claim(client.app.state.engine, None, STALE_AFTER + timedelta(seconds=5))  # type: ignore[attr-defined]
    again = add_marker(client, g, unit, g.attacker)
    # The claim never recorded an act, so the repeat is the request acting (here the test's first try did
    # act, so the marker count shows the repeat really acted rather than waiting for a day).
    assert again.status_code == 200, again.text
    assert REPLAYED_HEADER not in again.headers
    assert suppression(client, g, unit) == 2
    # ...and its answer is the one kept now.
    assert add_marker(client, g, unit, g.attacker).json() == again.json()


def test_a_claim_acted_on_whose_answer_was_lost_is_not_acted_on_again(client: TestClient) -> None:
    g, unit = _one_marker_with_a_key(client)
    _leave_claim(client.app.state.engine, ACTED, STALE_AFTER + timedelta(seconds=5))  # type: ignore[attr-defined]
    again = add_marker(client, g, unit, g.attacker)
    assert again.status_code == 409 and again.json()["carried_out"] is True, again.text
    assert "carried out" in again.json()["why"]
    assert suppression(client, g, unit) == 1 and marker_events(client, g, unit) == 1


def test_the_acting_commit_marks_the_claim_and_refuses_when_taken_over(client: TestClient) -> None:
    """The hook on every commit: the request's first commit marks its claim; a claim that is no longer the
    request's (taken over by a repeat) makes the commit fail, so the change is not made twice; a bookkeeping
    commit (a device last seen) marks nothing."""
    g = new_game(client)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        claim = IdempotentResponse(device_hash="d" * 64, key="k" * 16, request_hash="r" * 64)
        session.add(claim)
        session.commit()
        claim_id = claim.id or 0
    acting = _acting.set(_Acting(claim_id))
    try:
        with Session(engine) as session:
            session.execute(update(GameRow).where(col(GameRow.id) == g.id).values(name="Bookkeeping"))
            commit_bookkeeping(session)
            assert session.get(IdempotentResponse, claim_id).status_code is None  # type: ignore[union-attr]
            session.execute(update(GameRow).where(col(GameRow.id) == g.id).values(name="Acted"))
            session.commit()
            assert session.get(IdempotentResponse, claim_id).status_code == ACTED  # type: ignore[union-attr]
    finally:
        _acting.reset(acting)
    acting = _acting.set(_Acting(claim_id + 1000))  # a claim that is not (or no longer) this request's
    try:
        with Session(engine) as session:
            session.execute(update(GameRow).where(col(GameRow.id) == g.id).values(name="Twice"))
            with pytest.raises(Conflict):
                session.commit()
    finally:
        _acting.reset(acting)
    with Session(engine) as session:
        assert session.get(GameRow, g.id).name == "Acted"  # type: ignore[union-attr]


def test_a_request_that_failed_frees_its_claim_at_once(client: TestClient) -> None:
    """A request that raised (a 500) frees its claim while its context still names the claim (the
    middleware's except branch runs before its finally): the release is bookkeeping, so the commit hook
    neither marks the freed claim nor refuses the release, and a repeat acts at once."""
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        claim = IdempotentResponse(device_hash="e" * 64, key="f" * 16, request_hash="r" * 64)
        session.add(claim)
        session.commit()
        claim_id = claim.id or 0
    acting = _acting.set(_Acting(claim_id))
    try:
        _finish(engine, claim_id, Stored(500, "application/json", b""), release=True)
    finally:
        _acting.reset(acting)
    with Session(engine) as session:
        assert session.get(IdempotentResponse, claim_id) is None


def test_kept_answers_are_readable_only_with_the_devices_token(client: TestClient) -> None:
    c = new_campaign(client)
    new_key = "credentials-tap-01"
    first = client.post(f"/api/v1/campaigns/{c.id}/credentials", headers={**c.organiser, HEADER: new_key})
    assert first.status_code == 200, first.text
    token = first.json()["organiser_token"]
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        kept = session.exec(select(IdempotentResponse)).one()
    assert kept.status_code == 200 and kept.body
    assert token.encode() not in kept.body and b"organiser_token" not in kept.body


def test_a_task_started_by_a_request_marks_nothing_once_the_request_is_over(client: TestClient) -> None:
    """A task the request started inherits its context; after the request the context's claim is closed, so
    the task's own commits neither mark the claim (now holding its answer) nor fail."""
    g, _ = _one_marker_with_a_key(client)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        kept = session.exec(select(IdempotentResponse)).one()
    left_behind = _Acting(kept.id or 0, marked=True)  # as the middleware leaves it when the request ends
    acting = _acting.set(left_behind)
    try:
        with Session(engine) as session:
            session.execute(update(GameRow).where(col(GameRow.id) == g.id).values(name="Later"))
            session.commit()
    finally:
        _acting.reset(acting)
    with Session(engine) as session:
        assert session.get(IdempotentResponse, kept.id).status_code == 200  # type: ignore[union-attr]


def _kept(client: TestClient) -> int:
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        return len(session.exec(select(IdempotentResponse)).all())


def test_nothing_is_kept_for_a_request_not_authenticated_and_routed(client: TestClient) -> None:
    """Any bearer string with a key on an unrouted path under a game stored a row kept a day (300 in 1.7 s
    from one client): now only a device the server knows, on a route that takes the request, is kept."""
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    for i in range(20):
        made_up = bearer(f"made-up-token-{i}")
        for path in (f"/api/v1/games/{g.id}/no-such-thing/{i}", f"/api/v1/campaigns/{i}/nothing-here"):
            assert client.post(path, headers={**made_up, HEADER: f"key-number-{i:04d}"}).status_code == 404
    # A known device on an unrouted path or with a method its route does not take: the app's 404 or 405.
    assert (
        client.post(f"/api/v1/games/{g.id}/nothing", headers={**g.attacker, HEADER: KEY}).status_code == 404
    )
    assert client.put(f"/api/v1/games/{g.id}/turn", headers={**g.attacker, HEADER: KEY}).status_code == 405
    # A made-up token on a real route: the unknown token's 401, counted like any other.
    r = add_marker(client, g, unit, bearer("made-up-token"))
    assert r.status_code == 401 and "unknown token" in r.json()["why"]
    created = client.post(
        "/api/v1/games", json={"scenario": "mons-1914"}, headers={**bearer("x" * 43), HEADER: KEY}
    )
    assert created.status_code == 401
    assert _kept(client) == 0
    # The device's own keyed write is kept, as before.
    assert add_marker(client, g, unit, g.attacker).status_code == 200
    assert _kept(client) == 1


def test_made_up_tokens_with_keys_hit_the_unknown_token_limit(migrated_url: str, tmp_path: Any) -> None:
    from app.core.config import Settings
    from app.main import create_app

    settings = Settings(database_url=migrated_url, var_dir=tmp_path, token_failure_limit="3 per 1 minute")
    with TestClient(create_app(settings)) as c:
        answers = [
            c.post("/api/v1/games", json={}, headers={**bearer(f"guess-{i}"), HEADER: KEY}).status_code
            for i in range(4)
        ]
        assert answers == [401, 401, 401, 429]
        assert _kept(c) == 0


def test_an_answer_the_device_reads_is_kept_before_it_is_sent(sqlite_client: TestClient) -> None:
    """The moment the device reads its answer, the answer is already kept: a server killed (kill -9) right
    after sending it leaves nothing for the repeat to wait for. The repeat is replayed at once."""
    c = sqlite_client
    g = new_game(c)
    start_game(c, g)
    unit = int(defender_stand(c, g)["id"])
    engine = c.app.state.engine  # type: ignore[attr-defined]
    kept_when_read: list[Any] = []
    body = b'{"delta": 1}'
    path = f"/api/v1/games/{g.id}/units/{unit}/markers"
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"authorization", g.attacker["Authorization"].encode()),
            (HEADER.lower().encode(), KEY.encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "app": c.app,
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            with Session(engine) as s:
                row = s.exec(select(IdempotentResponse).where(IdempotentResponse.key == KEY)).one()
                kept_when_read.append((message["status"], row.status_code))

    c.portal.call(c.app, scope, receive, send)  # type: ignore[arg-type, union-attr]
    assert kept_when_read == [(200, 200)]
    # The repeat (after the server was killed: nothing of it is in memory) is the kept answer, at once.
    headers = {**g.attacker, HEADER: KEY, "content-type": "application/json"}
    again = c.post(path, content=body, headers=headers)
    assert again.status_code == 200 and again.headers[REPLAYED_HEADER] == "true", again.text
    assert suppression(c, g, unit) == 1


def test_a_repeat_waiting_on_an_unanswered_claim_asks_less_often_and_is_told_why(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hostile pass of stop 19: a repeat waiting on a claim still being answered asked for it every 50 ms,
    0.9-1.2 s of CPU over its 10 s, and was told "someone changed this" as a stale write is. Each wait is twice the
    last (at most 0.5 s); the 409 says the key's own sentence."""
    g, unit = _one_marker_with_a_key(client)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    _leave_claim(engine, None, timedelta(seconds=1))  # still being answered
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 1.0)
    claims: list[Any] = []

    def counted(_conn: Any, statement: Any, *_: Any) -> None:
        if statement is idempotency._CLAIM:
            claims.append(statement)

    event.listen(engine, "before_execute", counted)
    try:
        waited = add_marker(client, g, unit, g.attacker)
    finally:
        event.remove(engine, "before_execute", counted)
    assert waited.status_code == 409, waited.text
    assert (
        waited.json()["said"]
        == "Repeat this in a moment: a request with the same key is still being answered."
    )
    assert 2 <= len(claims) <= 7  # 50, 100, 200, 400, 500 ms: not the 20 of a claim asked every 50 ms
    assert suppression(client, g, unit) == 1


def test_a_body_cut_short_by_the_network_spends_no_key(client: TestClient) -> None:
    """The hostile pass of stop 19: a tap whose connection broke mid-body was claimed and acted on with the part
    that came (a 422 kept for the key), so the outbox's repeat, whole, was refused as another request."""
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    path = f"/api/v1/games/{g.id}/units/{unit}/markers"
    body = b'{"delta": 1}'
    headers = [
        (b"host", b"testserver"),
        (b"authorization", g.attacker["Authorization"].encode()),
        (HEADER.lower().encode(), KEY.encode()),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
    }
    scope |= {
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
    }
    scope |= {"client": ("127.0.0.1", 5555), "server": ("testserver", 80), "state": {}}
    parts: list[dict[str, Any]] = [
        {"type": "http.request", "body": body[:5], "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return parts.pop(0) if len(parts) > 1 else parts[0]

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def asked() -> None:
        await client.app(scope, receive, send)  # type: ignore[arg-type]

    assert client.portal is not None  # the client's app served on its own loop (its lifespan's)
    client.portal.call(asked)
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        assert session.exec(select(IdempotentResponse)).all() == []  # nothing claimed, nothing kept
    again = add_marker(client, g, unit, g.attacker)
    assert again.status_code == 200 and REPLAYED_HEADER not in again.headers, again.text
    assert suppression(client, g, unit) == 1


def test_a_lowercase_bearer_keys_the_device_the_route_acts_as(client: TestClient) -> None:
    """The hostile pass of stop 19: the routes read `bearer` as Bearer (FastAPI's HTTPBearer, any case) while
    the keys read only `Bearer`, so a write acted as the Authorization's device was kept as the cookie's, and
    replayed to it: one device's answer given to another."""
    g = new_game(client)
    start_game(client, g)
    unit = defender_stand(client, g)["id"]
    referee, attacker = (who["Authorization"].split()[1] for who in (g.referee, g.attacker))
    client.cookies.clear()
    mixed = {"Authorization": f"bearer {referee}", "Cookie": f"{COOKIE_NAME}={attacker}"}
    acted = add_marker(client, g, unit, mixed)
    assert acted.status_code == 200, acted.text
    other = add_marker(client, g, unit, g.attacker)
    assert REPLAYED_HEADER not in other.headers, other.text
    assert (
        add_marker(client, g, unit, {"Authorization": f"BEARER {referee}"}).headers[REPLAYED_HEADER] == "true"
    )
