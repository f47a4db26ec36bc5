"""A game of counters' scenario editor over HTTP (issue 62): the start page's "Build a ... scenario" of a rule set
whose board of counters takes the club's data opens the club's editor, rendered from the rule set's
declaration (`CounterBoard.club`) and never the centimetre table; the document it writes (the club's data on
`board`, each side's order of battle as counters with their printed values and no hex) comes back as saved,
and a game made from it carries the club's data from the start; the same data entered on a game in set-up by
its referee only, set once the game starts; each refusal a 422 naming its field. The browser's part (taps,
sizes) is tests/frontend/test_counter_scenario_editor.py; the club's values' own checks are the rules'."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.pages.counter_editor import club_fields
from rules.registry import all_game_rules
from tests.app.games.conftest import new_game, start_game
from tests.app.games.test_vimy_ridge import HEXES

VIMY = "vimy-ridge"


def _counter(side: str, n: int, division: str, attack: int = 4) -> dict[str, Any]:
    state = {
        "division": division,
        "attack": attack,
        "defence": 3,
        "attack_depleted": 2,
        "defence_depleted": 1,
    }
    return {
        "id": f"{side}-{n}",
        "name": f"{division} {n}",
        "level": "counter",
        "kind": "counter",
        "state": state,
    }


def editor_document(**board: Any) -> dict[str, Any]:
    """A document as the editor writes it (frontend/static/js/counter-editor.js)."""
    return {
        "format": "firestep-scenario/1",
        "title": "Our Vimy (club example)",
        "ruleset": VIMY,
        "period": None,
        "table": {"width_cm": 120, "length_cm": 180},
        "board": {**HEXES, "hex_terrain": {"1010": ["no-mans-land"], "1101": ["woods", "trench"]}, **board},
        "sides": {
            "attacker": {"nationality": "allied", "forces": [_counter("attacker", 1, "1st Canadian")]},
            "defender": {"nationality": "german", "forces": [_counter("defender", 1, "79th Reserve")]},
        },
    }


def test_every_club_field_has_its_form() -> None:
    """Every rule set played on counters declares club data the editor has a widget for (a TypeError else)."""
    declared = [
        r.book.kit.counters.club for r in all_game_rules() if r.book.kit.counters and r.book.kit.counters.club
    ]
    assert declared
    for model in declared:
        kinds = {f["name"]: f["kind"] for f in club_fields(model)}
        assert set(kinds) == set(model.model_fields)
    vimy = {f["name"]: f for f in club_fields(declared[0])}
    assert vimy["artillery_track"]["columns"] == ["Allied", "German"] and vimy["turn_track"]["length"] == 11
    assert {k["label"] for k in vimy["hex_terrain"]["kinds"]} >= {"No Man's Land", "Trench"}


def test_the_editor_s_file_round_trips_and_a_game_starts_with_it(sqlite_client: TestClient) -> None:
    http = sqlite_client
    page = http.get(f"/scenarios/new?ruleset={VIMY}")
    assert page.status_code == 200 and "data-club-editor" in page.text and "data-scn-canvas" not in page.text
    start = http.get("/")
    assert f'href="/scenarios/new?ruleset={VIMY}"' in start.text

    # Refused at the door, naming the field: a strength past a counter's bound, a terrain kind the chart has
    # not, a trench hexside of one hex; nothing is stored.
    over = editor_document()
    over["sides"]["defender"]["forces"][0]["state"]["attack"] = 100
    for doc, field in (
        (over, "sides.defender.forces.0.state.attack"),
        (editor_document(hex_terrain={"1010": ["marsh"]}), "board.hex_terrain"),
        (editor_document(trench_hexsides=[["0910"]]), "board.trench_hexsides"),
    ):
        refused = http.post("/api/v1/scenarios", json=doc)
        assert refused.status_code == 422 and field in refused.json()["field"], refused.text
    listed = {s["id"] for s in http.get("/api/v1/scenarios").json()}

    doc = editor_document()
    stored = http.post("/api/v1/scenarios", json=doc)
    assert stored.status_code == 201, stored.text
    sid = stored.json()["id"]
    assert sid not in listed
    back = http.get(f"/api/v1/scenarios/{sid}").json()
    assert (
        back["board"] == doc["board"]
        and back["sides"]["defender"]["forces"][0]["state"] == doc["sides"]["defender"]["forces"][0]["state"]
    )
    edit = http.get(f"/scenarios/{sid}/edit")
    assert (
        edit.status_code == 200
        and "data-club-editor" in edit.text
        and f'data-scenario-id="{sid}"' in edit.text
    )

    g = new_game(http, {"scenario": sid})
    board = http.get(f"/api/v1/games/{g.id}/counters", headers=g.attacker).json()
    notes = [t["note"] for t in board["track"]]
    assert "8/5" in notes[1] and "4/2" in notes[2] and not any("?/?" in n for n in notes)
    assert set(HEXES["peaks"]) <= set(board["places"])
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    assert {(u["division"], u["hex"]) for u in units} == {("1st Canadian", ""), ("79th Reserve", "")}


def _page(http: TestClient, path: str, headers: dict[str, str]) -> Any:
    http.cookies.clear()
    http.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))
    r = http.get(path)
    http.cookies.clear()
    return r


def test_a_game_s_club_data_is_the_referee_s_in_set_up_and_set_once_it_starts(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": VIMY})
    api = f"/api/v1/games/{g.id}"
    page = _page(http, f"/games/{g.id}/table/edit", g.referee)
    assert page.status_code == 200 and "data-club-editor" in page.text and "data-scn-canvas" not in page.text
    assert _page(http, f"/games/{g.id}/table/edit", g.attacker).status_code == 403

    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    assert http.patch(api, json={"version": version, "club": HEXES}, headers=g.attacker).status_code == 403
    wrong = http.patch(
        api, json={"version": version, "club": {**HEXES, "peaks": ["１１０１"]}}, headers=g.referee
    )
    assert wrong.status_code == 422 and wrong.json()["field"].startswith("club.peaks"), wrong.text
    saved = http.patch(api, json={"version": version, "club": HEXES}, headers=g.referee)
    assert saved.status_code == 200, saved.text
    state = http.get(f"{api}/state", headers=g.referee).json()
    assert {k: state["board"][k] for k in HEXES} == HEXES
    # Replaced whole: a field left out is cleared, the board's own keys kept.
    fewer = {k: v for k, v in HEXES.items() if k != "aircraft"}
    again = http.patch(api, json={"version": saved.json()["version"], "club": fewer}, headers=g.referee)
    assert (
        again.status_code == 200
        and "aircraft" not in http.get(f"{api}/state", headers=g.referee).json()["board"]
    )
    shown = _page(http, f"/games/{g.id}/table/edit", g.referee).text  # the form filled in by the server
    peaks = re.search(r'data-club-field="peaks"[^>]*>([^<]*)</textarea>', shown)
    aircraft = re.search(r'<input[^>]*data-club-field="aircraft"[^>]*>', shown)
    assert peaks is not None and peaks.group(1) == " ".join(fewer["peaks"])
    assert aircraft is not None and 'value=""' in aircraft.group(0)

    start_game(http, g)
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    late = http.patch(api, json={"version": version, "club": HEXES}, headers=g.referee)
    assert late.status_code == 409 and "set once the game starts" in late.json()["detail"], late.text
    assert "11.1" in late.json()["source"], late.text
    assert _page(http, f"/games/{g.id}/table/edit", g.referee).status_code == 409
    # Nor as a roll in play, by any seat (a side listing a Vimy town hex under its own counter; the referee).
    mine = {"fields": {"club": {**HEXES, "vimy_town": [f"{1901 + i}" for i in range(12)]}}, "dice": []}
    for seat in (g.attacker, g.referee):
        refused = http.post(f"{api}/resolve/club-data", json=mine, headers=seat)
        assert refused.status_code == 409 and "11.1" in refused.json()["source"], refused.text
        assert "set once the game starts" in refused.json()["detail"], refused.text
    assert http.get(f"{api}/state", headers=g.referee).json()["board"]["vimy_town"] == HEXES["vimy_town"]
