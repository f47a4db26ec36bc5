"""The scenario editor's objectives panel (issue 67; app/pages/scenario_objectives.py): its list and the selected
objective's form are the server's, rendered from this browser's draft (a new or an edited scenario) or from the
collection a game's table page posts back; each change names its objective by id, each refusal is a 422 naming
its field in one sentence, the draft's posts want its CSRF token, a game's are its referee's before it starts."""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.guard.security import NOTICE_HEADER
from app.pages.scenario_objectives import panel
from app.sentences import is_one_sentence
from tests.app.games.conftest import new_game, start_game
from tests.app.test_club_form import required
from tests.app.test_scenario_drafts import POST, fields
from tests.csrf import form

OBJECTIVES = "/scenarios/new/flanders-fields/objectives"
NATIONS = {"attacker_force_nation": "french", "defender_force_nation": "british"}


def point(x: float, y: float = 90) -> str:
    return json.dumps({"type": "Point", "coordinates": [x, y]})


def ring(corners: int, x: float = 60) -> str:
    """An area of so many corners (a circle's outline, 20 cm across, about `x`)."""
    pts = [
        [
            round(x + 20 * math.cos(2 * math.pi * i / corners), 2),
            round(90 + 20 * math.sin(2 * math.pi * i / corners), 2),
        ]
        for i in range(corners)
    ]
    return json.dumps({"type": "Polygon", "coordinates": [[*pts, pts[0]]]})


def the_form(**changed: str) -> dict[str, str]:
    """Every field of the selected objective's form, as the panel posts it on a change."""
    return {
        "do": "set",
        "obj_name": "Objective",
        "obj_vp": "1",
        "obj_scored": "each_turn",
        "obj_turns": "1",
        "obj_consecutive": "false",
        "obj_secret_to": "",
        "obj_held_by": "stands",
    } | changed


def held(text: str) -> dict[str, Any]:
    """The collection the panel carries for the map (its hidden input)."""
    found = re.search(r"data-scn-objectives[^>]*value='([^']*)'", text)
    assert found, text
    collection: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return collection


def test_the_panel_is_the_drafts_changed_one_objective_at_a_time(sqlite_client: TestClient) -> None:
    c = sqlite_client
    page = c.get("/scenarios/new?ruleset=flanders-fields").text
    assert "No objectives yet." in page and f'data-objectives-url="{OBJECTIVES}"' in page

    # Put down: named by the server, selected, its form shown and focused, the notice's sentence carried.
    farm = c.post(OBJECTIVES, data=form(c, {"do": "add", "obj_geometry": point(60)}))
    assert farm.status_code == 200, farm.text
    assert (
        'data-selected="objective-1"' in farm.text and 'data-said="Objective 1 placed: name it' in farm.text
    )
    assert 'name="obj_name" type="text" maxlength="80" value="Objective 1" required data-focus' in farm.text
    assert (
        'hx-swap-oob="true"' in farm.text and '<option value="objective-1"' in farm.text
    )  # "an objective taken"
    assert "Reshape" not in farm.text  # a point has no corners
    wood = c.post(OBJECTIVES, data=form(c, {"do": "add", "obj_geometry": ring(4, x=30)}))
    assert 'data-selected="objective-2"' in wood.text and "Reshape" in wood.text

    # A field's change answers the list alone (the form being typed in stays): a secret objective not offered.
    secret = the_form(objective_id="objective-2", obj_name=" The wood ", obj_vp="2", obj_secret_to="defender")
    kept = c.post(OBJECTIVES, data=form(c, secret | {"obj_scored": "held_turns", "obj_turns": "3"}))
    assert kept.status_code == 200 and "data-objective-piece" not in kept.text
    assert "The wood · 2 VP" in kept.text and 'value="objective-2"' not in kept.text
    wood_is = held(kept.text)["features"][1]["properties"]
    assert wood_is == {"name": "The wood", "vp": 2, "scored": "each_turn"} | {
        "scored": "held_turns", "turns": 3, "consecutive": False, "secret_to": "defender"
    }  # fmt: skip
    # Back to each turn: its turns go (and "by nobody", "both sides" are the defaults, left out).
    c.post(
        OBJECTIVES, data=form(c, secret | {"obj_name": "The wood", "obj_vp": "2", "obj_held_by": "attacker"})
    )
    # A selection writes nothing: its form filled in as the draft holds it; the page's reload shows the same.
    chosen = c.post(OBJECTIVES, data=form(c, {"do": "select", "objective_id": "objective-2"}))
    assert 'value="The wood" required' in chosen.text and '<option value="defender" selected>' in chosen.text
    assert '<option value="attacker" selected>By the attacker</option>' in chosen.text
    page = c.get("/scenarios/new?ruleset=flanders-fields").text
    assert [f["id"] for f in held(page)["features"]] == ["objective-1", "objective-2"]
    assert held(page)["features"][1]["properties"] == {
        "name": "The wood", "vp": 2, "scored": "each_turn", "held_by": "attacker", "secret_to": "defender"
    }  # fmt: skip
    # Reshaped (its corners posted) or moved (its middle, where a tap put it): the list answered.
    reshaped = {"do": "shape", "objective_id": "objective-1", "obj_geometry": point(70)}
    assert held(c.post(OBJECTIVES, data=form(c, reshaped)).text)["features"][0]["geometry"][
        "coordinates"
    ] == [70, 90]
    moved = c.post(
        OBJECTIVES,
        data=form(c, {"do": "relocate", "objective_id": "objective-2", "obj_x": "40", "obj_y": "100"}),
    )
    assert moved.status_code == 200 and "data-objective-piece" not in moved.text
    ring_now = held(moved.text)["features"][1]["geometry"]["coordinates"][0]
    assert ring_now[0] == [60.0, 100.0] and ring_now[-1] == ring_now[0]  # its corners 20 cm about (40, 100)
    assert [round(sum(p[i] for p in ring_now[:-1]) / 4, 1) for i in (0, 1)] == [40.0, 100.0]

    # Deleted: a condition naming it goes with it; the panel answers with nothing selected.
    taken = c.post(POST, data=form(c, fields(title="Raid", taken_objective="objective-1", **NATIONS)))
    assert "The rules find nothing missing" in taken.text, taken.text
    gone = c.post(OBJECTIVES, data=form(c, {"do": "delete", "objective_id": "objective-1"}))
    assert gone.status_code == 200 and 'data-said="Objective 1 deleted."' in gone.text
    assert "data-selected" not in gone.text and "Draw an objective first" in gone.text
    assert 'value="objective-1"' not in c.get("/scenarios/new?ruleset=flanders-fields").text


def test_each_refusal_names_its_field(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert c.post(OBJECTIVES, data=form(c, {"do": "add", "obj_geometry": point(60)})).status_code == 200
    one = {"objective_id": "objective-1"}
    for sent, named in (
        ({"do": "paint"}, "Do: "),
        (the_form(objective_id="Farm!"), "Objective id: "),
        (the_form(objective_id="objective-9"), "Objective id: no such objective"),
        (the_form(**one, obj_name="x" * 81), "Name: "),
        (the_form(**one, obj_name=" "), "Name: "),
        (the_form(**one, obj_vp="101"), "Victory points: "),
        (the_form(**one, obj_vp="2.5"), "Victory points: "),
        (the_form(**one, obj_scored="always"), "Scored: "),
        (the_form(**one, obj_scored="held_turns", obj_turns="0"), "Turns held: "),
        (the_form(**one, obj_secret_to="referee"), "Secret to: "),
        (the_form(**one, obj_held_by="nobody"), "Held by: "),
        ({"do": "add", "obj_geometry": "{not json"}, "Geometry: Invalid JSON"),
        (
            {"do": "add", "obj_geometry": "[" * 20_000 + "]" * 20_000},
            "Geometry: Invalid JSON",
        ),  # too deep to read
        ({"do": "add", "obj_geometry": "[1, 2]"}, "Geometry: "),
        ({"do": "add", "obj_geometry": point(500)}, "Geometry: reaches off the table"),
        ({"do": "add", "obj_geometry": ring(1001)}, "Geometry: List should have at most 1000 items"),
        ({"do": "add", "obj_geometry": "x" * 40_001}, "Geometry: at most 40,000 characters"),
        ({"do": "shape", **one, "obj_geometry": point(-5)}, "Geometry: reaches off the table"),
        ({"do": "relocate", **one, "obj_x": "500", "obj_y": "90"}, "Geometry: reaches off the table"),
        ({"do": "relocate", **one, "obj_x": "1e9", "obj_y": "90"}, "X: "),
        ({"do": "relocate", **one, "obj_x": "nan", "obj_y": "90"}, "X: "),
        ({"do": "relocate", **one}, "X: where its middle goes is needed"),
    ):
        refused = c.post(OBJECTIVES, data=form(c, sent))
        assert refused.status_code == 422, (sent, refused.text)
        assert refused.headers[NOTICE_HEADER].startswith(named), (named, refused.headers[NOTICE_HEADER])
    for i in range(4):  # areas of 450 corners: the fifth is more points than a scenario's objectives may have
        assert (
            c.post(OBJECTIVES, data=form(c, {"do": "add", "obj_geometry": ring(450)})).status_code == 200
        ), i
    too_many = c.post(OBJECTIVES, data=form(c, {"do": "add", "obj_geometry": ring(450)}))
    assert too_many.headers[NOTICE_HEADER].startswith(
        "Objective 6: the objectives have more than 2000 points"
    )
    assert (
        c.post(OBJECTIVES, data={"do": "select"}).status_code == 403
    )  # no CSRF token: refused as every post is


def test_an_edits_objectives_are_its_own_drafts(sqlite_client: TestClient) -> None:
    c = sqlite_client
    edit = "/scenarios/earth2mm-demo-ferme/edit"
    before = held(c.get(edit).text)["features"]
    added = c.post(f"{edit}/objectives", data=form(c, {"do": "add", "obj_geometry": point(20)}))
    assert (
        added.status_code == 200 and "hx-swap-oob" not in added.text
    )  # an edit has no "objective taken" here
    page = c.get(edit).text
    assert (
        f'data-objectives-url="{edit}/objectives"' in page and len(held(page)["features"]) == len(before) + 1
    )
    assert c.post("/scenarios/nothing/edit/objectives", data=form(c, {"do": "select"})).status_code == 404
    assert c.post("/scenarios/new/nothing/objectives", data=form(c, {"do": "select"})).status_code == 404


def test_a_games_table_posts_its_collection_back_and_only_its_referee_before_it_starts(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c)
    url = f"/games/{g.id}/table/objectives"

    def as_seat(headers: dict[str, str] | None, data: dict[str, str]) -> Any:
        c.cookies.clear()
        if headers:
            c.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))
        r = c.post(url, data=form(c, data))
        c.cookies.clear()
        return r

    c.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/games/{g.id}/table/edit").text
    c.cookies.clear()
    battle = held(page)
    assert f'data-objectives-url="{url}"' in page and 'name="objectives_held"' in page
    carried = {"objectives_held": json.dumps(battle)}
    first = battle["features"][0]["id"]
    picked = as_seat(g.referee, carried | {"do": "select", "objective_id": first})
    assert picked.status_code == 200 and f'data-selected="{first}"' in picked.text
    assert "Who sees it" not in picked.text  # a game's secret objectives are sealed apart
    added = as_seat(g.referee, carried | {"do": "add", "obj_geometry": point(60)})
    assert added.status_code == 200 and len(held(added.text)["features"]) == len(battle["features"]) + 1
    off = as_seat(
        g.referee, carried | {"do": "add", "obj_geometry": point(60, 500)}
    )  # the game's table's size
    assert off.status_code == 422 and off.headers[NOTICE_HEADER].startswith("Geometry: reaches off the table")
    hostile = as_seat(
        g.referee, {"objectives_held": '{"type": "FeatureCollection", "features": [5]}', "do": "select"}
    )
    assert hostile.status_code == 422 and hostile.headers[NOTICE_HEADER].startswith("Features: ")
    big = as_seat(g.referee, {"objectives_held": "x" * 1_000_001, "do": "select"})
    assert big.status_code == 422 and big.headers[NOTICE_HEADER].startswith("Table objectives: at most")
    # A secret objective forged into the table (the page offers no "Who sees it"): refused here, as the Save
    # refuses it, in one short sentence (it was taken here and refused at Save in 159 characters: session 21).
    forged = as_seat(g.referee, carried | {"do": "set", "objective_id": first, "obj_secret_to": "attacker"})
    said = forged.headers[NOTICE_HEADER]
    assert forged.status_code == 422 and said.startswith(
        "Secret to: a game's secret objective is given apart"
    )
    assert is_one_sentence(said), said
    for seat in (g.attacker, None):
        refused = as_seat(seat, carried | {"do": "select", "objective_id": first})
        assert (
            refused.status_code == 403
            and refused.headers[NOTICE_HEADER] == "Only the game's referee edits its table."
        )
    start_game(c, g)
    late = as_seat(g.referee, carried | {"do": "select", "objective_id": first})
    assert late.status_code == 409 and late.headers[NOTICE_HEADER].startswith("The game has started")


def test_the_panel_s_context_is_what_its_function_gives() -> None:
    given = set(panel(None, OBJECTIVES))
    assert required("_scenario_objectives.html") == given
    assert required("_scenario_objective_list.html") == given - {"objective_kinds", "max_held_turns"}


def test_each_answer_names_where_it_goes_and_the_posts_wait_on_the_section(sqlite_client: TestClient) -> None:
    """A post waits its turn on the Objectives section (the one hx-sync no answer swaps) and its answer names its
    own target as it arrives (HX-Retarget): a list's button or a form's field swapped out while it waited, the
    change it was made with is still sent and shown (ci149 read a farm's 3 VP back as 1: the select was dropped)."""
    c = sqlite_client
    page = c.get("/scenarios/new?ruleset=flanders-fields").text
    assert 'data-scn-panel="objectives" aria-labelledby="scn-h-objectives" hx-sync="this:queue all"' in page
    farm = c.post(OBJECTIVES, data=form(c, {"do": "add", "obj_geometry": point(60)}))
    assert farm.headers["hx-retarget"] == "#scn-objective-panel" and farm.headers["hx-reswap"] == "outerHTML"
    assert (
        "hx-post" not in farm.text.split("hx-swap-oob")[0]
    )  # the script posts each change, from the section
    named = c.post(OBJECTIVES, data=form(c, the_form(objective_id="objective-1", obj_name="The farm")))
    assert named.headers["hx-retarget"] == "#scn-objective-list" and "The farm · 1 VP" in named.text
    for do in ("select", "delete"):
        answer = c.post(OBJECTIVES, data=form(c, {"do": do, "objective_id": "objective-1"}))
        assert answer.status_code == 200 and answer.headers["hx-retarget"] == "#scn-objective-panel"
