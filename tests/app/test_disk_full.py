"""A full disk said in words (issue 52): a write answered a bare `500` text (or the connection dropped) while
/healthz said ok. Each backend's own disk-full error is made for real, with no stand-in: on SQLite the
database may not grow by a page (`PRAGMA max_page_count`: SQLite then answers SQLITE_FULL, "database or disk
is full", the error it answers ENOSPC with); on PostgreSQL the server answers the write with SQLSTATE 53100
(disk_full, what it answers when it cannot extend a file), raised by a trigger on the written table, since no
test may fill the shared server's disk. The write is refused with 507 in the refusal's shape, /healthz reports
the database not writable (503), and once the write fits again both are back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url

from app.core.disk import FULL
from tests.app.games.conftest import new_game
from tests.conftest import make_client

CREATE = {"scenario": "mons-1914"}  # a new game: a few hundred rows, new pages


@contextmanager
def disk_full(engine: Engine, url: str) -> Iterator[None]:
    """The database's disk full for the writes made inside the block."""
    if make_url(url).get_backend_name() == "sqlite":

        def no_new_page(dbapi_conn: Any, _record: Any) -> None:
            pages = dbapi_conn.execute("PRAGMA page_count").fetchone()[0]
            dbapi_conn.execute(f"PRAGMA max_page_count={pages}")

        with engine.connect() as conn:  # no free page left to fill: every new row needs a new page
            conn.exec_driver_sql("VACUUM")
        engine.dispose()
        event.listen(engine, "connect", no_new_page)
        try:
            yield
        finally:
            event.remove(engine, "connect", no_new_page)
            engine.dispose()
        return
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(
            text(
                "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
                "'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$"
            )
        )
        conn.execute(text('CREATE TRIGGER disk_full BEFORE INSERT ON "game" EXECUTE FUNCTION disk_full()'))
    try:
        yield
    finally:
        with admin.connect() as conn:
            conn.execute(text('DROP TRIGGER disk_full ON "game"'))
            conn.execute(text("DROP FUNCTION disk_full()"))
        admin.dispose()


@pytest.fixture
def app_client(migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    with make_client(migrated_url, tmp_path) as c:
        yield c


@pytest.mark.storage
def test_a_write_on_a_full_disk_is_507_in_words_and_healthz_says_not_writable(
    app_client: TestClient, migrated_url: str
) -> None:
    c = app_client
    referee = new_game(c).referee  # a device the server knows, for a write with an Idempotency-Key
    assert c.get("/healthz").json()["writable"] is True
    tap = {**referee, "Idempotency-Key": "tap-0001"}
    with disk_full(c.app.state.engine, migrated_url):  # type: ignore[attr-defined]
        for headers in ({}, tap):  # with an idempotency key too: its claim is written in the same commit
            r = c.post("/api/v1/games", json=CREATE, headers=headers)
            assert r.status_code == 507, r.text
            assert r.headers["content-type"] == "application/json"
            body = r.json()
            assert body["detail"] == FULL and ("full" in body["why"] or "No space" in body["why"]), body
        health = c.get("/healthz")
        assert health.status_code == 503
        assert health.json() | {"revision": None, "head": None} == {
            "status": "degraded",
            "database": True,
            "writable": False,
            "revision": None,
            "head": None,
            "drift": [],
        }
    assert c.get("/api/v1/games").status_code == 200  # nothing half-written
    assert c.post("/api/v1/games", json=CREATE).status_code == 201
    assert c.post("/api/v1/games", json=CREATE, headers=tap).status_code == 201  # the tap was never acted on
    assert c.get("/healthz").json()["writable"] is True


def test_507_is_documented_where_a_write_may_find_the_disk_full(app_client: TestClient) -> None:
    """A write that opens the database, a token read (its device's last-seen time), a PDF (kept in the data
    folder); not a lookup that stores nothing (app/openapi.py)."""
    paths = app_client.get("/openapi.json").json()["paths"]
    assert "507" in paths["/api/v1/games"]["post"]["responses"]
    assert "507" in paths["/api/v1/games/{game_id}/units"]["get"]["responses"]
    assert "507" in paths["/playsheets/{period}.pdf"]["get"]["responses"]
    assert "507" not in paths["/api/v1/rulesets"]["get"]["responses"]
    assert "507" not in paths["/api/v1/rulesets/flanders-fields/lookups/distance"]["post"]["responses"]
