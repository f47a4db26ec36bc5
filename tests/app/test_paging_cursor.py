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


# What pydantic's int reads besides digits: refused by the cursors typed as numbers as by Page's.
NOT_DIGITS = ["1_000", "+1", " 1", "1.0", "１２"]


def test_a_cursor_is_plain_digits_leading_zeros_read_as_the_number_on_both_kinds(
    sqlite_client: TestClient,
) -> None:
    """The hostile pass: `after=00000000001` (more than 10 digits) was read as past every id (a page of none
    where `after=1` answered games); the cursors typed as numbers took `1_000` as 1000, `+1`, ` 1`, `1.0`; the
    others' refusal read "string should match pattern '^[a-z0-9-]+$'"."""
    c = sqlite_client
    made = c.post("/api/v1/games", json={"scenario": "mons-1914"}).json()
    game, referee = made["game"]["id"], {"Authorization": f"Bearer {made['referee_token']}"}
    c.post("/api/v1/games", json={"scenario": "mons-1914"})
    after_one = c.get("/api/v1/games", params={"after": "1"}).json()
    assert after_one and c.get("/api/v1/games", params={"after": "00000000001"}).json() == after_one
    log = f"/api/v1/games/{game}/events"
    assert (
        c.get(log, params={"after": "0" * 12}, headers=referee).json() == c.get(log, headers=referee).json()
    )
    for path, words in [
        (log, "Fix the after: give a number of digits only."),
        ("/api/v1/games", "Fix the after: a number, or a name of lower-case letters, digits and hyphens."),
    ]:
        for after in NOT_DIGITS:
            refused = c.get(path, params={"after": after}, headers=referee)
            assert refused.status_code == 422, (path, after, refused.text[:200])
            assert (refused.json()["field"], refused.json()["detail"]) == ("after", words), (path, after)


def test_a_board_asked_for_the_changes_after_an_event_ahead_of_its_log_reads_itself_anew(
    sqlite_client: TestClient,
) -> None:
    """`/referee/changes?after=1000` on a game whose log ends at event 3 answered data-upto="1000" and no
    reload: the board then waited for events past 1000."""
    c = sqlite_client
    made = c.post("/api/v1/games", json={"scenario": "mons-1914"}).json()
    game, token = made["game"]["id"], made["referee_token"]
    newest = max(
        [
            0,
            *(
                e["id"]
                for e in c.get(
                    f"/api/v1/games/{game}/events", headers={"Authorization": f"Bearer {token}"}
                ).json()
            ),
        ]
    )
    c.cookies.set("firestep_token", token)
    try:
        ahead = c.get(f"/games/{game}/referee/changes", params={"after": str(newest + 1000)})
        current = c.get(f"/games/{game}/referee/changes", params={"after": str(newest)})
    finally:
        c.cookies.clear()
    assert ahead.status_code == 200 and "data-reload" in ahead.text, ahead.text[:300]
    assert current.status_code == 200 and "data-reload" not in current.text, current.text[:300]
