"""The fire-plan page's own post (app/pages/fire_plan.py): its refusals are the page's one sentence of at most 120
characters naming the field, never Python's words (session 23's hostile pass)."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.sentences import MAX_DETAIL
from tests.app.games.conftest import new_game
from tests.csrf import form


def test_a_refused_post_of_the_plan_form_is_one_short_sentence_naming_its_field(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c)
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    url = f"/games/{g.id}/fire-plan/attacker"
    for sent, field in (
        ({"action": "remove-abc"}, "Action: "),
        ({"kind": "barrage"}, "Item: "),
        (
            {"action": "remove-1"},
            "Unknown fire plan item",
        ),  # no such item: a sentence too, with its full stop
    ):
        r = c.post(url, data=form(c, sent), headers={"HX-Request": "true"})
        said = re.search(r'<div class="errors" role="alert"><p>([^<]*)</p>', r.text)
        assert said is not None, r.text[:400]
        words = html.unescape(said.group(1))
        assert words.startswith(field) and len(words) <= MAX_DETAIL and "int()" not in words, words
        assert words.endswith("."), words


def test_the_plan_forms_own_field_refused_is_a_4xx_naming_it_on_the_plan_page(
    sqlite_client: TestClient,
) -> None:
    """The form's own fields read through its form model (issue 90): one refused is the plan page again with a 422
    naming it (to htmx a 200, which it swaps), and nothing written."""
    c = sqlite_client
    g = new_game(c)
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    url = f"/games/{g.id}/fire-plan/attacker"
    for htmx, status in (({}, 422), ({"HX-Request": "true"}, 200)):
        r = c.post(url, data=form(c, {"kind": "circle", "arrival_turn": "two"}), headers=htmx)
        said = re.search(r'<div class="errors" role="alert"><p>([^<]*)</p>', r.text)
        assert r.status_code == status and said is not None, r.text[:400]
        assert "arrival turn" in said.group(1) and 'action="/games/' in r.text, said.group(1)
    items = c.get(f"/api/v1/games/{g.id}/fireplans/attacker/items", headers=g.attacker)
    assert items.status_code == 200 and items.json() == []
