"""A write keyed by its Idempotency-Key runs few statements, each built once (issue 88: every tap the browser's
outbox sends is keyed). Built anew for each keyed write, their cache keys with them, they cost more than their
queries (a tap spent 4.7 ms of CPU in process at the door, 3.4 ms with them built once); the claim checks the device
as it is written, and the answers kept past a day are swept at most once a minute, not at each claim (three
statements each claim before, one after)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlmodel import Session, col, select

from app.data.models import IdempotentResponse
from app.guard import idempotency
from app.services.seating import digest
from tests.app.hostile.test_idempotency import PAST_A_DAY, kept_as
from tests.conftest import TEST_SECRET_KEY


@pytest.fixture
def device(sqlite_client: TestClient) -> tuple[Any, str]:
    """A new game's referee's device: the app's engine and its token's digest (as a keyed write claims by)."""
    token = sqlite_client.post("/api/v1/games", json={"scenario": "mons-1914"}).json()["referee_token"]
    return sqlite_client.app.state.engine, digest(TEST_SECRET_KEY, token)  # type: ignore[attr-defined]


def keyed(engine: Any, device: str, key: str) -> list[Any]:
    """The statements one keyed write's claim and kept answer run."""
    ran: list[Any] = []

    def kept(_conn: Any, statement: Any, *_: Any) -> None:
        ran.append(statement)

    event.listen(engine, "before_execute", kept)
    try:
        claim = idempotency._claim(engine, device, key, key * 2)
        assert isinstance(claim, idempotency.Claimed)
        idempotency._finish(engine, claim.row_id, idempotency.Stored(200, "application/json", b"{}"), False)
    finally:
        event.remove(engine, "before_execute", kept)
    return ran


def test_each_keyed_write_claims_in_one_statement_built_once(
    device: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, device_hash = device
    monkeypatch.setattr(idempotency._SWEEPS, "last", float("-inf"))  # a sweep due: this process's first claim
    first, second, third = (
        keyed(engine, device_hash, key) for key in ("first-key-1", "second-key-2", "third-key-3")
    )
    assert first == [idempotency._CLAIM, idempotency._EXPIRED, idempotency._KEEP_ANSWER]
    assert second == third == [idempotency._CLAIM, idempotency._KEEP_ANSWER]  # swept a minute ago


def test_a_sweep_deletes_the_answers_kept_past_a_day_a_bounded_batch_at_a_time(
    device: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hostile pass of stop 19: a day's backlog of 50,000 expired answers, deleted by one claim, held SQLite's
    write lock 1.4 s; a sweep deletes SWEPT_AT_ONCE at most, the next sweep the rest, and never a younger one."""
    engine, device_hash = device
    old = ("old-key-1", "old-key-2", "old-key-3")
    for key in (*old, "new-key-4"):
        keyed(engine, device_hash, key)
    kept_as(engine, PAST_A_DAY, old)
    monkeypatch.setattr(idempotency, "SWEPT_AT_ONCE", 2)
    kept: list[list[str]] = []
    for key in ("newest-key-5", "newest-key-6"):
        monkeypatch.setattr(idempotency._SWEEPS, "last", float("-inf"))  # a sweep due
        keyed(engine, device_hash, key)
        with Session(engine) as session:
            kept.append(
                list(session.exec(select(IdempotentResponse.key).order_by(col(IdempotentResponse.id))))
            )
    assert len(set(kept[0]) & set(old)) == 1 and kept[0][-2:] == ["new-key-4", "newest-key-5"]
    assert kept[1] == ["new-key-4", "newest-key-5", "newest-key-6"]
