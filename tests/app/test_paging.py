"""Every list that grows with a server's use answers a page (issue 68): `limit` items, 100 unless asked, from
the one after `after` (the id of the last item of the page before) in the list's order. `app.deps.Page` is
proved here on plain lists; one list of each kind (numbered oldest first, numbered newest first, named) through
the API."""

from __future__ import annotations

import re

import pytest
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.deps import MAX_PAGE, PAGE, Page
from app.main import app

NUMBERED = list(range(1, 8))


def test_a_page_starts_after_the_item_named_and_holds_at_most_limit() -> None:
    assert Page(3, None).of(NUMBERED, int) == [1, 2, 3]
    assert Page(3, "3").of(NUMBERED, int) == [4, 5, 6]
    assert Page(3, "6").of(NUMBERED, int) == [7]
    assert Page(3, "7").of(NUMBERED, int) == []
    assert Page(100, None).of(["mons", "cambrai"], str) == ["mons", "cambrai"]  # the list's own order
    assert Page(100, "mons").of(["mons", "cambrai"], str) == ["cambrai"]


def test_an_item_deleted_meanwhile_still_marks_the_place_of_a_numbered_list() -> None:
    assert Page(2, "4").of([1, 2, 3, 5, 6], int) == [5, 6]
    # A newest-first list (club events, leagues) is paged by the database: the ids below the one named.
    assert Page(2, "4").older_than() == 4


def test_an_after_that_names_no_item_is_a_422_naming_it() -> None:
    with pytest.raises(RequestValidationError) as refused:
        Page(2, "verdun").of(["mons", "cambrai"], str)
    assert refused.value.errors()[0]["loc"] == ("query", "after")


def test_the_lists_answer_pages(sqlite_client: TestClient) -> None:
    c = sqlite_client
    made = [c.post("/api/v1/games", json={"scenario": "mons-1914"}).json()["game"]["id"] for _ in range(3)]
    first = c.get("/api/v1/games", params={"limit": 2}).json()
    assert [g["id"] for g in first] == made[:2]
    rest = c.get("/api/v1/games", params={"limit": 2, "after": str(made[1])}).json()
    assert [g["id"] for g in rest] == made[2:]
    # Club events: the newest first, the next page older.
    night = {"ruleset": "flanders-fields", "period": "early"}
    events = [
        c.post("/api/v1/events", json={"name": f"Night {n}", **night}).json()["event"]["id"] for n in range(3)
    ]
    newest = c.get("/api/v1/events", params={"limit": 1}).json()
    assert [e["id"] for e in newest] == [events[-1]]
    older = c.get("/api/v1/events", params={"after": str(events[-1])}).json()
    assert [e["id"] for e in older] == events[-2::-1]
    # A page of them is read from the database a page at a time (the hostile pass: every row was read, then
    # sliced, ~13 us a row), and an id past any stored one starts a page of all.
    engine = c.app.state.engine  # type: ignore[attr-defined]
    asked: list[str] = []
    record = lambda *a: asked.append(a[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", record)
    try:
        for path in ("/api/v1/events", "/api/v1/leagues"):
            assert c.get(path, params={"limit": 1}).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", record)
    lists = [q for q in asked if re.search(r"FROM (tournament|league)\b", q) and "ORDER BY" in q]
    assert len(lists) == 2 and all("LIMIT" in q for q in lists), lists
    assert [e["id"] for e in c.get("/api/v1/events", params={"after": "9" * 64}).json()] == events[::-1]
    # Scenarios by name, in the list's order.
    names = [s["id"] for s in c.get("/api/v1/scenarios").json()]
    assert [s["id"] for s in c.get("/api/v1/scenarios", params={"after": names[0]}).json()] == names[1:]
    refused = c.get("/api/v1/scenarios", params={"after": "no-such-one"})
    assert refused.status_code == 422 and refused.json()["field"] == "after"
    too_many = c.get("/api/v1/games", params={"limit": 10_000})
    assert too_many.status_code == 422 and too_many.json()["field"] == "limit"
    assert PAGE == 100


# The lists that grow with a server's use, each paged (a game's units, fire plans and cards, an event's standings
# and tables are bounded by their game or event and answer whole).
PAGED = [
    "/api/v1/games",
    "/api/v1/games/{game_id}/devices",
    "/api/v1/games/{game_id}/events",
    "/api/v1/campaigns",
    "/api/v1/campaigns/{campaign_id}/devices",
    "/api/v1/campaigns/{campaign_id}/log",
    "/api/v1/campaigns/{campaign_id}/table-battles",
    "/api/v1/events",
    "/api/v1/events/{event_id}/players",
    "/api/v1/leagues",
    "/api/v1/leagues/{league_id}/results",
    "/api/v1/leagues/{league_id}/keys",
    "/api/v1/scenarios",
]


def test_every_list_that_grows_takes_limit_and_after() -> None:
    paths = app.openapi()["paths"]
    for path in PAGED:
        params = {p["name"]: p["schema"] for p in paths[path]["get"]["parameters"]}
        assert {"limit", "after"} <= set(params), path
        assert params["limit"].get("maximum") == MAX_PAGE, path
