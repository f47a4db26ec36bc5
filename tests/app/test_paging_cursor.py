"""The cursor of every paged list is held to the ids a database stores (32-bit on both backends, as a path's
`GameId` is): a cursor past 2**31 - 1 is refused naming `after`, or read as past every stored id, never passed
to the database (issue 91: `GET /api/v1/events?after=2147483648` was a 500 on PostgreSQL, the cursor clamped to
2**63 - 1 and cast to its 32-bit column)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.app.hostile.test_input_limits import World
from tests.app.test_paging import PAGED

PAST = "2147483648"  # 2**31: no row's id on either backend

# What each list answers a cursor past every id: a newest-first list (the database pages it) its newest page;
# a list numbered oldest first nothing after it; a list by name, or a cursor typed as a number, a 422.
NEWEST_FIRST = {"/api/v1/events", "/api/v1/leagues"}
REFUSED = {"/api/v1/games/{game_id}/events", "/api/v1/campaigns/{campaign_id}/log", "/api/v1/scenarios"}


@pytest.mark.storage
def test_a_cursor_past_every_32_bit_id_is_refused_or_read_as_past_them_all(client: TestClient) -> None:
    world = World(client)
    for path in PAGED:
        answer = client.get(world.url(path), params={"after": PAST}, headers=world.headers(path))
        if path in REFUSED:
            assert answer.status_code == 422 and answer.json()["field"] == "after", (path, answer.text[:300])
            continue
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
        whole = client.get(world.url(path), headers=world.headers(path)).json()
        assert answer.json() == (whole if path in NEWEST_FIRST else []), path
        assert path not in NEWEST_FIRST or whole, path  # the world made one of each
