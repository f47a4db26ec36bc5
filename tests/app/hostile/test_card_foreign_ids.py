"""A stand's card panels and answers, read from the worker's kept units since 829b0d36 (its head, acts, target
list, roll's ask, a roll's words, and the API's acts, targets and a formation's move), asked of another game's
unit, of no unit, of ids no int holds, or by a device of no seat here: a refusal every time (401, 403, 404 or
422), never a 500 and never the other game's stand answered as this game's."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, new_game, start_game


def _placed(c: TestClient, g: Game, side: str) -> dict[str, Any]:
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    return next(u for u in units if u["side"] == side and u["base"] and u["x"] is not None)


def _page(c: TestClient, path: str, who: dict[str, str] | None) -> int:
    c.cookies.clear()
    if who is not None:
        c.cookies.set(COOKIE_NAME, who["Authorization"].removeprefix("Bearer "))
    try:
        return c.get(path).status_code
    finally:
        c.cookies.clear()


def test_another_games_stand_or_no_stand_is_refused_on_every_card_route(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g, h = new_game(c), new_game(c)
    start_game(c, g)
    start_game(c, h)
    foreign = _placed(c, h, "attacker")
    event = c.get(f"/api/v1/games/{h.id}/events", headers=h.referee).json()[-1]["id"]
    tails = ["head", "acts", "targets/shooting", "play/shooting", f"done/{event}", f"edited/{event}"]
    ids: list[Any] = [foreign["id"], 0, -1, 2**31, 2**63, "abc", "1.5", "9" * 400]
    for who in (g.referee, g.attacker, g.defender, h.referee, None):
        for uid in ids:
            for tail in tails:
                status = _page(c, f"/games/{g.id}/map/units/{uid}/{tail}", who)
                assert status in (401, 403, 404, 422), (uid, tail, status)
            for tail in ("acts", "targets/shooting", "targets/" + "z" * 100):
                r = c.get(f"/api/v1/games/{g.id}/units/{uid}/{tail}", headers=who or {})
                assert r.status_code in (401, 403, 404, 422), (uid, tail, r.status_code)


def test_a_formation_of_another_game_or_side_is_not_moved(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g, h = new_game(c), new_game(c)
    start_game(c, g)
    mine, foreign = _placed(c, g, "attacker"), _placed(c, h, "attacker")
    before = c.get(f"/api/v1/games/{h.id}/units/{foreign['id']}", headers=h.referee).json()
    url = f"/api/v1/games/{g.id}/units/{{}}/move-formation"
    move = {"dx": 1, "dy": 0, "override": True}
    for who, uid, status in (
        (g.referee, foreign["parent_id"], 422),  # another game's formation: no unit of this game
        (g.defender, mine["parent_id"], 403),  # the other side's
        (h.referee, mine["parent_id"], 403),  # another game's token
        (None, mine["parent_id"], 401),
    ):
        r = c.post(url.format(uid), headers=who or {}, json=move)
        assert r.status_code == status, (uid, r.text)
    for body in ({"dx": 1e308, "dy": 0}, {"dx": "nan", "dy": 0}, {"dx": 1, "dy": 0, "turn_deg": 1e9}, {}):
        r = c.post(url.format(mine["parent_id"]), headers=g.referee, json=body)
        assert r.status_code == 422, (body, r.text)
    assert c.get(f"/api/v1/games/{h.id}/units/{foreign['id']}", headers=h.referee).json() == before
