"""The referee's counter from the club's set, entered on the page of counters by the server (issue 67;
app/pages/counter_entry.py): the form posted by htmx adds the counter with its values in one act (by override once
the game is played), answered by the form again with the side and group kept and the counter named, and the
page's `firestep:refresh`; the referee's only, with the page's CSRF token, each value bounded and named."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.guard.security import NOTICE_HEADER
from rules.registry import registered
from tests.app.games.conftest import new_game, start_game
from tests.app.test_counters_panel import SecretRuleSet
from tests.csrf import form


def post(c: TestClient, seat: dict[str, str], url: str, data: dict[str, str], token: bool = True) -> Any:
    c.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        return c.post(url, data=form(c, data) if token else data, headers={"HX-Request": "true"})
    finally:
        c.cookies.clear()


@pytest.fixture
def toy() -> Iterator[None]:
    with registered(SecretRuleSet):
        yield


def test_the_referee_enters_a_counter_on_the_page_of_counters(sqlite_client: TestClient, toy: None) -> None:
    c = sqlite_client
    g = new_game(c, {"name": "Entries", "ruleset": "toy-secret-counters"})
    url, api = f"/games/{g.id}/counters/enter", f"/api/v1/games/{g.id}"
    c.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/games/{g.id}/counters").text
    c.cookies.clear()
    assert f'hx-post="{url}"' in page
    typed = {"side": "defender", "name": "RIR 262", "hex": "1011", "strength": "3"}

    assert post(c, g.attacker, url, typed).status_code == 403  # a side does not
    assert post(c, g.referee, url, typed, token=False).status_code == 403  # nor a page without its token
    # Digits int() does not read, or reads as another number: refused as any wrong number (session 20's hostile
    # pass: "²" was a 500, "٣" stored as 3).
    for strength in ("1000", "²", "٣", "9" * 5000):
        wrong = post(c, g.referee, url, typed | {"strength": strength})
        assert wrong.status_code == 422 and wrong.headers[NOTICE_HEADER].startswith("Strength: ")
    # A text past its bound, named by its field (session 21's hostile pass read "Constrained-str: ...").
    long = post(c, g.referee, url, typed | {"hex": "1" * 65})
    assert long.status_code == 422 and long.headers[NOTICE_HEADER].startswith("Hex: "), long.headers[
        NOTICE_HEADER
    ]
    unnamed = post(c, g.referee, url, typed | {"name": " "})
    assert unnamed.status_code == 422 and unnamed.headers[NOTICE_HEADER].startswith("Name: ")
    assert c.get(f"{api}/units", headers=g.referee).json() == []

    added = post(c, g.referee, url, typed)
    assert added.status_code == 200 and added.headers["HX-Trigger"] == "firestep:refresh"
    assert "RIR 262 added." in added.text and '<option value="defender" selected>' in added.text
    units = c.get(f"{api}/units", headers=g.referee).json()
    assert [(u["name"], u["side"], u["hex"], u["strength"]) for u in units] == [
        ("RIR 262", "defender", "1011", 3)
    ]

    # Once the game is played too (as the referee's override where its step would refuse it).
    start_game(c, g)
    late = post(c, g.referee, url, typed | {"name": "RIR 263", "side": "attacker"})
    assert late.status_code == 200, late.headers.get(NOTICE_HEADER)
    assert c.get(api, headers=g.referee).json()["status"] == "playing"
    entered = c.get(f"{api}/events", headers=g.referee).json()[-1]
    assert (entered["kind"], entered["payload"]["unit"]["name"]) == ("unit-added", "RIR 263")
