"""The HTTP face of the sheets: HTML with print CSS, PDFs, 422s naming the allowed values, and a game's fire
plan for its own side only."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game
from tests.playsheets import pdf


def test_playsheet_html_has_the_print_css(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/playsheets/late", params={"paper": "letter"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "size: letter;" in r.text and "@media screen" in r.text and "Order sequence" in r.text


def test_playsheet_pdf(sqlite_client: TestClient) -> None:
    # The early sheet: the quickest period's to render; each period's page count is test_period_sheets'.
    r = sqlite_client.get("/playsheets/early.pdf", params={"paper": "a4"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF") and pdf.page_count(r.content) <= 2


def test_bad_period_paper_variant_are_422(sqlite_client: TestClient) -> None:
    r = sqlite_client.get("/playsheets/1916.pdf")
    assert r.status_code == 422 and "early" in str(r.json()["why"])
    r = sqlite_client.get("/playsheets/late", params={"paper": "a5"})
    assert r.status_code == 422 and "letter" in str(r.json()["why"])
    r = sqlite_client.get("/playsheets/late", params={"variant": "barrage-duration"})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "variant", 0]
    r = sqlite_client.get("/playsheets/late", params={"variant": "barrage-duration:nine"})
    assert r.status_code == 422 and r.json()["errors"][0]["allowed"] == ["main-text", "fire-plan-template"]


def test_kit_forms_and_cards(sqlite_client: TestClient) -> None:
    for url in (
        "/playsheets/template-kit.pdf",
        "/playsheets/fire-plan/attacker.pdf",
        "/playsheets/fire-plan/defender.pdf",
        "/playsheets/aiming-points.pdf",
    ):
        r = sqlite_client.get(url, params={"paper": "letter"})
        assert r.status_code == 200 and r.content.startswith(b"%PDF"), url
    for url in ("/playsheets/template-kit", "/playsheets/fire-plan/attacker", "/playsheets/aiming-points"):
        r = sqlite_client.get(url)
        assert r.status_code == 200 and "@page" in r.text, url
    assert sqlite_client.get("/playsheets/fire-plan/neutral").status_code == 422


def _game(client: TestClient) -> tuple[int, str, dict[str, str]]:
    r = client.post(
        "/api/v1/games",
        json={
            "name": "Trench raid",
            "period": "late",
            "attacker_nation": "british",
            "defender_nation": "german",
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {}
    for side, code in body["join_codes"].items():
        j = client.post("/api/v1/join", json={"code": code})
        assert j.status_code == 200, j.text
        tokens[side] = j.json()["token"]
    client.cookies.clear()
    return body["game"]["id"], body["referee_token"], tokens


def _add(client: TestClient, gid: int, side: str, token: str, battery: str, grid: list[int]) -> None:
    r = client.post(
        f"/api/v1/games/{gid}/fireplans/{side}/items",
        headers={"Authorization": f"Bearer {token}"},
        json={"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": grid, "battery": battery}},
    )
    assert r.status_code == 201, r.text


def test_game_fire_plan_for_its_own_side_only(sqlite_client: TestClient) -> None:
    gid, referee, tokens = _game(sqlite_client)
    _add(sqlite_client, gid, "attacker", tokens["attacker"], "ATTACKERGUNS", [64, 120])
    _add(sqlite_client, gid, "defender", tokens["defender"], "DEFENDERGUNS", [31, 77])
    url = f"/playsheets/games/{gid}/fire-plan/attacker.pdf"
    assert sqlite_client.get(url).status_code == 401
    assert (
        sqlite_client.get(url, headers={"Authorization": f"Bearer {tokens['defender']}"}).status_code == 403
    )
    r = sqlite_client.get(url, headers={"Authorization": f"Bearer {tokens['attacker']}"})
    assert r.status_code == 200
    text = pdf.text(r.content)
    assert "ATTACKERGUNS" in text and "DEFENDERGUNS" not in text and "31, 77" not in text
    r = sqlite_client.get(
        f"/playsheets/games/{gid}/fire-plan/defender", headers={"Authorization": f"Bearer {referee}"}
    )
    assert r.status_code == 200 and "DEFENDERGUNS" in r.text and "ATTACKERGUNS" not in r.text


def test_game_playsheet_uses_its_period_and_variants(sqlite_client: TestClient) -> None:
    gid, referee, _ = _game(sqlite_client)
    game = sqlite_client.get(f"/api/v1/games/{gid}", headers={"Authorization": f"Bearer {referee}"}).json()
    r = sqlite_client.patch(
        f"/api/v1/games/{gid}",
        headers={"Authorization": f"Bearer {referee}"},
        json={"version": game["version"], "variants": {"barrage-duration": "fire-plan-template"}},
    )
    assert r.status_code == 200, r.text
    r = sqlite_client.get(f"/playsheets/games/{gid}", headers={"Authorization": f"Bearer {referee}"})
    assert r.status_code == 200 and "mid 1917 to end of war" in r.text and "VARIANT" in r.text
    # Like the game itself: no token, no sheet (401), before the game is even looked up.
    assert sqlite_client.get("/playsheets/games/999999.pdf").status_code == 401


def test_game_aiming_point_cards(sqlite_client: TestClient) -> None:
    gid, referee, _ = _game(sqlite_client)
    r = sqlite_client.get(
        f"/playsheets/games/{gid}/aiming-points", headers={"Authorization": f"Bearer {referee}"}
    )
    assert r.status_code == 200 and "Aiming-point cards" in r.text
    # Per-role access: tests/app/hostile/test_access.py.
    assert sqlite_client.get("/playsheets/games/999999/aiming-points").status_code == 401


def test_a_game_of_a_rule_set_without_aiming_points_answers_404_saying_why(sqlite_client: TestClient) -> None:
    """Issue 52: a 2mm Earth 1418 game with batteries was a 500 (KeyError 'aiming_point'); its batteries
    carry no aiming point, so there are no cards to print, and its print menu offers none."""
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    for who in (g.referee, g.attacker):
        for suffix in ("", ".pdf"):
            r = c.get(f"/playsheets/games/{g.id}/aiming-points{suffix}", headers=who)
            assert r.status_code == 404, r.text
            assert r.json()["detail"] == (
                f"Battle for 2mm Earth 1418 has no aiming points, so game {g.id} has no aiming-point cards to print."
            )
    c.cookies.set("firestep_token", g.referee["Authorization"].removeprefix("Bearer "))
    menu = c.get(f"/games/{g.id}/referee").text
    assert f"/playsheets/games/{g.id}/fire-plan/attacker.pdf" in menu
    assert f"/playsheets/games/{g.id}/aiming-points" not in menu
