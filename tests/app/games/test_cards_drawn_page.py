"""The cards a side drew, as the map's cards panel shows them (app/pages/drawn_cards.py, issue 67): read from the
draw's event as the seat may read it, so the side that drew and the referee read the card and the other side reads
nothing of it (the same refusal as for an event that is no draw, or none); the template's context is the function's.
The tool's taps are the browser's (tests/frontend/test_event_cards.py)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from jinja2 import StrictUndefined, meta

from app.pages.drawn_cards import CardsDrawn, DrawnCard
from app.pages.templates import templates
from tests.app.hostile.test_secrets import advance, new_game, ok
from tests.app.test_score_panel import seated


def read(http: TestClient, game_id: int, event_id: int) -> tuple[int, str]:
    r = http.get(f"/games/{game_id}/map/cards/{event_id}", headers={"HX-Request": "true"})
    return r.status_code, r.text


def test_the_side_that_drew_and_the_referee_read_the_card_and_the_other_side_nothing(
    client: TestClient,
) -> None:
    c = client
    g = new_game(c, {"name": "Club pack", "period": "mid", "variants": {"events-pack": "club"}})
    for side, who in (("attacker", g.attacker), ("defender", g.defender)):
        ok(c.post(f"/api/v1/games/{g.id}/fireplans/{side}/lock", headers=who))
    advance(c, g)  # the German turn 1: the attacker draws
    entered = ok(c.post(f"/api/v1/games/{g.id}/cards/drawn", headers=g.attacker, json={"cards": ["10D"]}))
    (card,) = entered["resolution"]["outcome"]["drawn"]
    drew = entered["event_id"]
    for seat in (g.attacker, g.referee):
        seated(c, g, seat)
        status, shown = read(c, g.id, drew)
        assert status == 200, shown
        assert re.search(rf'data-cards-drawn="{drew}"', shown)
        assert 'data-card="10D"' in shown and f"10D: {card['title']}" in shown and card["text"] in shown
    seated(c, g, g.defender)
    status, shown = read(c, g.id, drew)
    assert status == 404 and "10D" not in shown and card["title"] not in shown
    # In the sentence of an event that does not exist: nothing says the id is a draw (the hostile pass of s11).
    assert shown == read(c, g.id, 2**31 - 1)[1].replace(str(2**31 - 1), str(drew))
    first = ok(c.get(f"/api/v1/games/{g.id}/events", headers=g.defender))[0]["id"]  # the game made: no draw
    for other in (first, drew + 999):
        assert read(c, g.id, other)[0] == 404
    assert c.get(f"/games/{g.id}/map/cards/0", headers={"HX-Request": "true"}).status_code == 422
    c.cookies.clear()
    status, shown = read(c, g.id, drew)
    assert status == 401 and "10D" not in shown


def test_the_template_s_context_is_the_draw_s() -> None:
    env = templates.env
    source = env.loader.get_source(env, "_cards_drawn.html")[0]  # type: ignore[union-attr]
    drawn = CardsDrawn(
        7, (DrawnCard("QC", "Good Shooting", "Re-roll one miss.", "kept"),), ("Kept in hand.",)
    )
    read = meta.find_undeclared_variables(env.parse(source)) - set(env.globals)
    assert read == set(drawn.context()), read
    said = re.search(r"Required context: (.*?)\. The cards drawn", source, re.S)
    assert said is not None and all(n in said.group(1) for n in ("drawn", "event_id", "cards", "notes"))
    shown = env.overlay(undefined=StrictUndefined).from_string(source).render(**drawn.context())
    assert 'data-card="QC"' in shown and "QC: Good Shooting" in shown and "Kept in hand." in shown
