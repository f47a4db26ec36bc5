"""A game's table saved from the scenario editor by the server (issue 67; app/pages/game_table_save.py): the page
posts the table as drawn and the versions the server last answered; the server writes what differs from the game
as its API does (the terrain and objectives in one edit over the game's version, then each stand moved over its
own), answers the Save panel's message and, out of band, the versions the next save goes over. The referee's
only, with the page's CSRF token, before the game starts; a stale page is told to reload, in one sentence."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.guard.auth import COOKIE_NAME
from app.pages.club_save import refusal
from app.pages.game_table_save import STALE, PostedTable, of_stand
from app.sentences import MAX_DETAIL, is_one_sentence
from tests.app.games.conftest import Game, new_game, start_game
from tests.csrf import form

WOOD = {
    "type": "Feature",
    "properties": {"kind": "woods", "name": "Bois de Test"},
    "geometry": {"type": "Polygon", "coordinates": [[[40, 60], [60, 60], [60, 80], [40, 80], [40, 60]]]},
}


def saved_of(text: str) -> dict[str, Any]:
    """The versions the page holds (its hidden `saved` input, rendered or swapped in out of band)."""
    found = re.search(r"id=\"scn-game-saved\" name=\"saved\" value='([^']*)'", text)
    assert found, text
    versions: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return versions


def as_seat(c: TestClient, headers: dict[str, str], method: str, path: str, **kw: Any) -> Any:
    c.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))
    try:
        return c.request(method, path, **kw)
    finally:
        c.cookies.clear()


def table_of(c: TestClient, g: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game's terrain and objectives as the page posts them, and its placed stands."""
    state = c.get(f"/api/v1/games/{g.id}/state", headers=g.referee).json()
    objectives = state["board"].get("table_objectives") or {"type": "FeatureCollection", "features": []}
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    stands = [
        {
            "id": u["id"],
            "x": u["x"],
            "y": u["y"],
            "facing_deg": u["facing_deg"] if u["facing_deg"] is not None else 90,
        }
        for u in units
        if u["base"] and u["x"] is not None and not u["off_table"]
    ]
    return {"terrain": state["terrain"], "table_objectives": objectives}, stands


def test_the_server_saves_what_the_page_drew_over_the_versions_it_answered(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    api, url = f"/api/v1/games/{g.id}", f"/games/{g.id}/table/save"
    page = as_seat(c, g.referee, "GET", f"/games/{g.id}/table/edit")
    assert page.status_code == 200 and f'hx-post="{url}"' in page.text
    saved = saved_of(page.text)
    game = c.get(api, headers=g.referee).json()
    table, stands = table_of(c, g)
    assert stands and saved["version"] == game["version"]
    assert (
        saved["stands"][str(stands[0]["id"])]
        == c.get(f"{api}/units/{stands[0]['id']}", headers=g.referee).json()["version"]
    )

    def post(
        seat: dict[str, str], drawn: dict[str, Any], versions: dict[str, Any], token: bool = True
    ) -> Any:
        placed = [  # as the page holds a stand: its id a string, its placement the scenario format's
            {"id": str(p["id"]), "placement": {"center": [p["x"], p["y"]], "facing_deg": p["facing_deg"]}}
            for p in drawn["stands"]
        ]
        data = {"table": json.dumps({**drawn, "stands": placed}), "saved": json.dumps(versions)}
        return as_seat(c, seat, "POST", url, data=form(c, data) if token else data)

    # Nothing drawn differs from the game: nothing written.
    before = len(c.get(f"{api}/events", headers=g.referee).json())
    same = post(g.referee, {**table, "stands": stands}, saved)
    assert same.status_code == 200 and "Nothing has changed since the last save." in same.text
    assert len(c.get(f"{api}/events", headers=g.referee).json()) == before

    # A wood drawn and a stand moved: one edit of the game, then the move, and the versions answered.
    terrain = {**table["terrain"], "features": [*table["terrain"]["features"], WOOD]}
    moved = {**stands[0], "x": round(stands[0]["x"] + 3.5, 1), "y": round(stands[0]["y"] + 2, 1)}
    drawn = {
        "terrain": terrain,
        "table_objectives": table["table_objectives"],
        "stands": [moved, *stands[1:]],
    }
    # Only the referee, with the page's token.
    assert post(g.attacker, drawn, saved).status_code == 403
    assert post(g.referee, drawn, saved, token=False).status_code == 403
    done = post(g.referee, drawn, saved)
    assert done.status_code == 200 and "The table is saved to the game." in done.text, done.text
    events = c.get(f"{api}/events", headers=g.referee).json()[before:]
    assert [e["kind"] for e in events] == ["game-updated", "move"]
    assert WOOD in c.get(f"{api}/state", headers=g.referee).json()["terrain"]["features"]
    unit = c.get(f"{api}/units/{moved['id']}", headers=g.referee).json()
    assert (unit["x"], unit["y"]) == (moved["x"], moved["y"])
    now = saved_of(done.text)  # out of band: the next save is over these
    assert 'hx-swap-oob="true"' in done.text
    assert now["version"] == c.get(api, headers=g.referee).json()["version"] != saved["version"]
    assert now["stands"][str(moved["id"])] == unit["version"]
    again = post(g.referee, drawn, now)
    assert again.status_code == 200 and "Nothing has changed since the last save." in again.text

    # A page that read the game before another save: told to reload, nothing written.
    stale = post(g.referee, {**drawn, "terrain": table["terrain"]}, saved)
    assert (
        stale.status_code == 409
        and "The terrain not saved: the game was changed elsewhere; reload" in stale.text
    )
    stand = post(
        g.referee, {**drawn, "stands": [{**moved, "x": moved["x"] + 1}]}, {**now, "stands": saved["stands"]}
    )
    assert stand.status_code == 409 and stand.text.startswith(f"<span>{unit['name']} not saved: ")

    # A save that holds no version of a stand it moves is no page's (each stand's is rendered with the page): a
    # forged `"stands": {}` once moved it over whatever another device had done to it meanwhile.
    versionless = post(
        g.referee, {**drawn, "stands": [{**moved, "x": moved["x"] + 1}]}, {**now, "stands": {}}
    )
    assert versionless.status_code == 409 and versionless.text.startswith(f"<span>{unit['name']} not saved: ")
    assert c.get(f"{api}/units/{moved['id']}", headers=g.referee).json()["x"] == moved["x"]

    # Bounded: a table not the page's, a field out of its range, named.
    bad = post(g.referee, {**drawn, "stands": [{**moved, "x": 5000}]}, now)
    assert bad.status_code == 422 and "Not saved: stands.0.placement.center.0: " in bad.text
    odd = post(g.referee, {**drawn, "extra": 1}, now)
    assert odd.status_code == 422 and "Not saved: extra: " in odd.text
    # A stand listed twice (each entry one more move: session 20's hostile pass, 2,000 of one stand 24 s).
    twice = post(g.referee, {**drawn, "stands": [moved, {**moved, "x": 9}]}, now)
    assert (
        twice.status_code == 422 and "Not saved: stands: " in twice.text and "each stand once" in twice.text
    )

    # Once the game has started, in one sentence.
    start_game(c, g)
    late = post(g.referee, drawn, now)
    assert late.status_code == 409
    assert "Not saved: the game has started, and its table can be edited only before it starts." in late.text


def test_a_stand_s_refusal_stays_one_short_sentence_whatever_its_name() -> None:
    """A stand named at length (a club's 60-character names) is cut short, not the sentence run past 120."""
    long_name = "1st Battalion, the Royal Warwickshire Regiment, B Company, No 6 Pl"
    stale = of_stand(long_name, STALE)
    assert is_one_sentence(stale) and stale.startswith("1st Battalion") and stale.endswith(STALE), stale
    assert of_stand("Plt 2", STALE) == f"Plt 2 {STALE}"
    refused = (
        "not saved: "
        + "Plt 2 of 1st Battalion, the Royal Warwickshire Regiment has no action left in this step of the turn (6.1)."
    )
    said = of_stand(long_name, refused)
    assert len(said) <= MAX_DETAIL and said.startswith("Plt 2 of 1st Battalion"), said


def test_a_table_refused_by_its_shape_is_told_in_one_short_sentence_naming_the_field() -> None:
    """A polygon of 19,991 corners was "Not saved: terrain.features.0.geometry.Polygon.coordinates.0: list should
    have at most 1000 items after validation, not 19991" (125 characters, no full stop: session 22's hostile
    pass): the path is named by its innermost parts, in one sentence within MAX_DETAIL."""
    ring = [[float(i % 100), float(i // 100 % 100)] for i in range(19_990)] + [[0.0, 0.0]]
    wood = {
        "type": "Feature",
        "properties": {"kind": "woods"},
        "geometry": {"type": "Polygon", "coordinates": [ring]},
    }
    table = {
        "terrain": {"type": "FeatureCollection", "features": [wood]},
        "table_objectives": {"type": "FeatureCollection", "features": []},
        "stands": [],
    }
    try:
        PostedTable.model_validate_json(json.dumps(table))
    except ValidationError as e:
        said = refusal(e)
    assert is_one_sentence(said), said
    assert said.startswith("Not saved: …") and "coordinates.0: list should have at most 1000 items" in said, (
        said
    )


def test_a_save_of_every_stand_stops_at_its_cpu_budget_and_the_page_carries_on(
    sqlite_client: TestClient,
) -> None:
    """127 stands moved were 1.8-2.1 s of CPU in one request: a save stops between two stands once it has spent
    table_save_cpu_seconds (none here, so one stand a request whatever the machine), answers what it saved and a
    carry-on the page posts by itself over the versions answered; each stand is moved once, one event each."""
    c = sqlite_client
    c.app.state.settings.table_save_cpu_seconds = 0.0  # type: ignore[attr-defined]
    g = new_game(c)
    api, url = f"/api/v1/games/{g.id}", f"/games/{g.id}/table/save"
    saved = saved_of(as_seat(c, g.referee, "GET", f"/games/{g.id}/table/edit").text)
    table, stands = table_of(c, g)
    assert len(stands) >= 3
    placed = [
        {"id": str(p["id"]), "placement": {"center": [p["x"] + 1, p["y"]], "facing_deg": p["facing_deg"]}}
        for p in stands
    ]
    drawn = json.dumps({**table, "stands": placed})

    def post(versions: dict[str, Any]) -> Any:
        return as_seat(
            c, g.referee, "POST", url, data=form(c, {"table": drawn, "saved": json.dumps(versions)})
        )

    before = len(c.get(f"{api}/events", headers=g.referee).json())
    first = post(saved)
    said = f"Saved 1 of {len(stands)} stands: saving the rest..."
    # 202: taken, not all done (the page keeps its unsaved mark until a 200 says the whole table is saved).
    assert first.status_code == 202 and f">{said}</span>" in first.text, first.text
    assert is_one_sentence(said) and len(said) <= MAX_DETAIL
    # The carry-on: posted by the page on its own, as its Save button (the same fields, the versions answered).
    assert re.search(
        rf'<span hidden data-save-table hx-post="{url}" hx-target="\[data-file-message\]" '
        r'hx-include="#scn-game-saved" hx-params="saved" hx-sync="\[data-scn-panel=objectives\]:queue all" '
        r'hx-trigger="load">',
        first.text,
    )
    held, answers = saved_of(first.text), [first]
    while "saving the rest" in answers[-1].text:
        assert len(answers) <= len(stands)
        replayed = post(held)  # the same carry-on twice (a retry after lost wifi): harmless
        answers.append(post(held) if "saving the rest" in replayed.text else replayed)
        held = saved_of(answers[-1].text)
    assert answers[-1].status_code == 200 and "The table is saved to the game." in answers[-1].text
    events = c.get(f"{api}/events", headers=g.referee).json()[before:]
    assert [e["kind"] for e in events] == ["move"] * len(stands)
    for p in stands:
        unit = c.get(f"{api}/units/{p['id']}", headers=g.referee).json()
        assert (unit["x"], unit["y"]) == (p["x"] + 1, p["y"])
    again = post(held)
    assert again.status_code == 200 and "Nothing has changed since the last save." in again.text
