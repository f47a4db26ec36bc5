"""The scenario editor's draft as the document (issue 67; app.pages.scenario_drafts, app.pages.scenario_saving):
an edited scenario's particulars and any scenario's terrain kept in this browser's draft, and Save, Import and
Start acting on the draft on the server, checked as the scenario API checks a document, a refusal naming the
field."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from app.data.bounded import MAX_SCENARIO_BYTES
from app.guard.security import NOTICE_HEADER
from tests.app.test_scenario_drafts import fields
from tests.csrf import form

NEW = "/scenarios/new/flanders-fields"
HTMX = {"HX-Request": "true"}


def wood(x0: float = 10, x1: float = 30) -> dict[str, Any]:
    ring = [[x0, 80], [x1, 80], [x1, 95], [x0, 80]]
    return {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"kind": "woods"},
                "geometry": {"type": "Polygon", "coordinates": [ring]},
            }
        ],
    }


def page_doc(c: TestClient, url: str) -> dict[str, Any]:
    """The document the editor's page draws its table from (its island)."""
    found = re.search(r'<script type="application/json" id="scn-doc">(.*?)</script>', c.get(url).text, re.S)
    assert found, "the page carries no document"
    doc: dict[str, Any] = json.loads(found.group(1))
    return doc


def test_an_edited_scenarios_particulars_and_any_drafts_terrain_are_kept(sqlite_client: TestClient) -> None:
    c = sqlite_client
    mons = c.get("/api/v1/scenarios/mons-1914").json()
    edit = "/scenarios/mons-1914/edit"
    # The form is rendered filled from the scenario as saved: no script fills it in.
    assert f'data-doc="title" required value="{mons["title"]}"' in c.get(edit).text
    assert page_doc(c, edit)["terrain"] == mons["terrain"]
    kept = c.post(
        f"{edit}/particulars", data=form(c, fields(title="Mons, the club's", forces_period="early"))
    )
    assert kept.status_code == 200 and 'data-draft-kept="yes"' in kept.text
    assert json.loads(re.search(r"data-scn-particulars>(.*?)</script>", kept.text, re.S).group(1))[
        "title"
    ] == ("Mons, the club's")
    shown = c.get(edit).text
    assert 'value="Mons, the club&#39;s"' in shown
    assert (
        f"{mons['title']} ships with firestep: Save makes your own copy." in shown
    )  # as saved, not the draft
    assert "Mons, the club" not in c.get("/scenarios/new?ruleset=flanders-fields").text  # its own draft
    # A special rule is kept only where the page offers it: of the side's nationality, in the period (a rule
    # ticked, then hidden by another nationality, is not the scenario's).
    ticked = {"special.defender": ["pals", "elan"], "special.attacker": "storm-troops"}
    nations = {"defender_force_nation": "british", "attacker_force_nation": "german"}
    kept = c.post(f"{edit}/particulars", data=form(c, {**fields(title="Mons", **nations), **ticked}))
    assert json.loads(re.search(r"data-scn-particulars>(.*?)</script>", kept.text, re.S).group(1))[
        "special_rules"
    ] == {"defender": ["pals"]}

    # The terrain drawn is the draft's (posted whole): the reload draws it; a malformed one is refused by field.
    assert c.post(f"{NEW}/terrain", data=form(c, {"terrain": json.dumps(wood())})).status_code == 200
    assert page_doc(c, "/scenarios/new?ruleset=flanders-fields")["terrain"] == wood()
    for bad, named in (
        ("{", "Terrain"),
        (json.dumps({"type": "FeatureCollection", "features": [{"type": "Feature"}]}), "Terrain geometry"),
        ("x" * (MAX_SCENARIO_BYTES + 1), "Terrain: at most"),
    ):
        refused = c.post(f"{NEW}/terrain", data=form(c, {"terrain": bad}))
        assert refused.status_code == 422 and refused.headers[NOTICE_HEADER].startswith(named), bad
    assert page_doc(c, "/scenarios/new?ruleset=flanders-fields")["terrain"] == wood()
    assert c.post(f"{NEW}/terrain", data={"terrain": json.dumps(wood())}).status_code == 403  # no CSRF token
    assert c.post("/scenarios/no-such/edit/terrain", data=form(c, {"terrain": "{}"})).status_code == 404

    # Start afresh on the edit: its draft dropped, the scenario as saved again.
    again = c.post(f"{edit}/discard", data=form(c), headers=HTMX)
    assert again.status_code == 204 and again.headers["HX-Redirect"] == edit
    assert f'value="{mons["title"]}"' in c.get(edit).text


def test_save_stores_the_draft_as_the_scenario_api_would_and_drops_it(sqlite_client: TestClient) -> None:
    c = sqlite_client
    untitled = c.post(f"{NEW}/save", data=form(c, fields()), headers=HTMX)
    assert untitled.status_code == 422 and "Give the scenario a title first" in untitled.text
    # A piece drawn on the table, then the table narrowed under it as it is saved.
    assert c.post(f"{NEW}/terrain", data=form(c, {"terrain": json.dumps(wood(90, 115))})).status_code == 200
    off = c.post(f"{NEW}/save", data=form(c, fields(title="A raid", width_cm="100")), headers=HTMX)
    assert off.status_code == 422 and "Not saved: terrain.features.0" in off.text  # the rules' field, named
    assert c.post(f"{NEW}/terrain", data=form(c, {"terrain": json.dumps(wood())})).status_code == 200
    entered = fields(title="A raid", attacker_force_nation="german", defender_force_nation="british")
    saved = c.post(f"{NEW}/save", data=form(c, entered), headers=HTMX)
    assert saved.status_code == 201 and saved.headers["HX-Redirect"] == "/scenarios/a-raid/edit?tab=file"
    stored = c.get("/api/v1/scenarios/a-raid").json()
    assert stored["title"] == "A raid" and stored["terrain"] == wood() and stored["period"] == "mid"
    assert 'data-draft-kept="no"' in c.get("/scenarios/new?ruleset=flanders-fields").text  # a draft no more
    # The one edited is replaced; one that ships is saved as a copy beside it.
    replaced = c.post(
        "/scenarios/a-raid/edit/save", data=form(c, {**entered, "title": "A raid, kept"}), headers=HTMX
    )
    assert replaced.status_code == 200 and c.get("/api/v1/scenarios/a-raid").json()["title"] == "A raid, kept"
    mons = c.get("/api/v1/scenarios/mons-1914").json()
    copied = c.post(
        "/scenarios/mons-1914/edit/save",
        data=form(c, {**entered, "forces_period": "early", "title": mons["title"]}),
        headers=HTMX,
    )
    assert copied.status_code == 201, copied.text
    assert "mons-1914/" not in copied.headers["HX-Redirect"]
    assert c.post(f"{NEW}/save", data=entered).status_code == 403  # no CSRF token


def test_import_reads_a_file_and_renders_the_choice_of_one_held(sqlite_client: TestClient) -> None:
    c = sqlite_client
    written = {
        "format": "firestep-scenario/1",
        "title": "Hand-written raid",
        "ruleset": "flanders-fields",
        "period": "late",
        "table": {"width_cm": 120, "length_cm": 180},
        "terrain": wood(),
        "sides": {
            "attacker": {"nationality": "german", "deployment_zone": None, "forces": []},
            "defender": {"nationality": "british", "deployment_zone": None, "forces": []},
        },
    }

    def send(body: bytes, name: str = "raid.json") -> Any:
        return c.post("/scenarios/import", data=form(c), files={"file": (name, body)}, headers=HTMX)

    sent = send(json.dumps(written).encode())
    assert (
        sent.status_code == 201
        and sent.headers["HX-Redirect"] == "/scenarios/hand-written-raid/edit?tab=file"
    )
    stored = c.get("/api/v1/scenarios/hand-written-raid").json()
    # Its id held already: the choice rendered by the server, the file kept as this browser's draft of the one held.
    again = send(json.dumps(stored).encode())
    assert (
        again.status_code == 409
        and "“Hand-written raid” (hand-written-raid) is saved here already" in again.text
    )
    assert "Keep both" in again.text and "Replace the saved one" in again.text
    kept = c.post(
        "/scenarios/hand-written-raid/edit/save", data=form(c, {"from_file": "1", "copy": "1"}), headers=HTMX
    )
    assert kept.status_code == 201
    copy = c.get(f"/api/v1{kept.headers['HX-Redirect'].split('/edit')[0]}").json()
    assert copy["id"] != stored["id"] and {**copy, "id": stored["id"]} == stored
    assert send(json.dumps({**stored, "title": "Raid, replaced"}).encode()).status_code == 409
    replaced = c.post(
        "/scenarios/hand-written-raid/edit/save", data=form(c, {"from_file": "1"}), headers=HTMX
    )
    assert replaced.status_code == 200
    assert c.get("/api/v1/scenarios/hand-written-raid").json()["title"] == "Raid, replaced"
    # A file the rules, the parser or the bound refuse: a 4xx naming the field; nothing stored.
    before = c.get("/api/v1/scenarios").json()
    for body, status, said in (
        (b"{oops", 422, "Not imported: file: raid.json is not a JSON file."),
        (b"[1]", 422, "Not imported: file: a scenario file is a JSON object."),
        (
            b" " * (MAX_SCENARIO_BYTES + 1),
            413,
            f"Not imported: file: a scenario file is at most {MAX_SCENARIO_BYTES:,} bytes.",
        ),
        (
            json.dumps({**written, "terrain": wood(110, 140)}).encode(),
            422,
            "Not imported: terrain.features.0",
        ),
    ):
        refused = send(body)
        assert refused.status_code == status and said in refused.text, refused.text
    assert c.post("/scenarios/import", data=form(c), headers=HTMX).status_code == 422  # no file
    assert (
        c.post("/scenarios/import", files={"file": ("raid.json", b"{}")}).status_code == 403
    )  # no CSRF token
    assert c.get("/api/v1/scenarios").json() == before


def test_start_saves_the_draft_first_then_starts_the_game(sqlite_client: TestClient) -> None:
    c = sqlite_client
    entered = fields(title="A raid to play", attacker_force_nation="german", defender_force_nation="british")
    assert c.post(f"{NEW}/save", data=form(c, entered), headers=HTMX).status_code == 201
    edit = "/scenarios/a-raid-to-play/edit"
    assert c.post(f"{edit}/particulars", data=form(c, {**entered, "turns": "7"})).status_code == 200
    started = c.post(f"{edit}/start", data=form(c), follow_redirects=False)
    assert started.status_code == 303 and re.fullmatch(r"/games/\d+/created", started.headers["location"])
    assert c.get("/api/v1/scenarios/a-raid-to-play").json()["turns"] == 7  # saved as the editor showed it
    assert 'data-draft-kept="no"' in c.get(edit).text


def test_a_file_holding_what_no_column_stores_is_refused_naming_where(sqlite_client: TestClient) -> None:
    # The door refuses a NUL or a lone surrogate in a JSON body; a file's JSON it does not read: PostgreSQL
    # answered a NUL in a title with a 500, and one in a unit's name was stored, every game made of it a 500.
    c = sqlite_client
    before = c.get("/api/v1/scenarios").json()
    unit = {"sides": {"attacker": {"forces": [{"name": "Rifles\u0000"}]}}}
    for document, said in (
        ({"id": "nul-raid", "title": "a\u0000b"}, "it holds a NUL character at title"),
        ({"id": "nul-raid", **unit}, "it holds a NUL character at sides.attacker.forces.0.name"),
        ({"id": "nul-raid", "title": "\ud800"}, "it holds a lone surrogate at title"),
    ):
        sent = c.post(
            "/scenarios/import", data=form(c), files={"file": ("raid.json", json.dumps(document).encode())}
        )
        assert sent.status_code == 422 and f"Not imported: file: {said}: remove it" in sent.text, sent.text
    assert c.get("/api/v1/scenarios").json() == before


def test_a_text_sent_where_the_page_takes_a_file_is_refused_in_words(sqlite_client: TestClient) -> None:
    c = sqlite_client  # was "Fix the file: Expected UploadFile, received: <class 'str'>." (the hostile pass)
    sent = c.post("/scenarios/import", data=form(c, {"file": "mons-1914.json"}))
    assert sent.status_code == 422 and "fix the file: choose a file to send, not a text." in sent.text, (
        sent.text
    )
