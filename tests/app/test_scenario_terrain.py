"""The scenario editor's terrain judged and listed by the server (issue 67, app.pages.scenario_terrain): each post
of the terrain drawn is answered by the list of pieces on the table, or refused in one sentence naming the first
piece's problem as the scenario API judges it (off the table, crossing itself), the draft then unchanged; a game's
table in set-up is judged the same, its referee's only, nothing kept."""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.guard.security import NOTICE_HEADER
from tests.app.games.conftest import new_game, start_game
from tests.app.test_scenario_drafts import POST, fields
from tests.app.test_scenario_saving import page_doc, wood
from tests.csrf import form

NEW = "/scenarios/new/flanders-fields"
PAGE = "/scenarios/new?ruleset=flanders-fields"


def feature(kind: str, geometry: dict[str, Any], **properties: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": {"kind": kind, **properties}, "geometry": geometry}


def collection(*features: dict[str, Any]) -> str:
    return json.dumps({"type": "FeatureCollection", "features": list(features)})


BOX = {"type": "Polygon", "coordinates": [[[10, 10], [30, 10], [30, 30], [10, 30], [10, 10]]]}
ROAD = {"type": "LineString", "coordinates": [[70, 0], [70, 180]]}
OFF = {"type": "Polygon", "coordinates": [[[100, 170], [130, 170], [130, 175], [100, 175], [100, 170]]]}
BOW = {"type": "Polygon", "coordinates": [[[20, 40], [40, 60], [40, 40], [20, 60], [20, 40]]]}


def listed(text: str) -> list[tuple[str, str]]:
    """The list's pieces: each one's key and name."""
    return re.findall(r'data-piece="(\d+)" aria-pressed="false">([^<]*)</button>', text)


def test_the_terrain_posted_is_answered_by_its_list_and_a_pieces_problem_refused(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    empty = r'data-terrain-list>\s*<li class="muted">No terrain yet\.</li>'
    assert re.search(empty, c.get(PAGE).text)  # the page's own list, rendered with it
    drawn = collection(
        feature("woods", BOX), feature("road", ROAD, width_cm=2), feature("hill", BOX, name="Hill 60")
    )
    answer = c.post(f"{NEW}/terrain", data=form(c, {"terrain": drawn}))
    assert answer.status_code == 200
    assert listed(answer.text) == [("0", "Woods 1"), ("1", "Road 2"), ("2", "Hill 60")]
    assert listed(c.get(PAGE).text) == listed(answer.text)  # the reload lists what the draft holds
    # A piece the rules cannot take: one sentence naming it, the draft as it was.
    for geometry, said in (
        (OFF, "That woods goes off the table: every point must be on the 120 by 180 cm table."),
        (BOW, "That woods crosses itself: draw its outline without crossing."),
        # A name that is not words (session 23's hostile pass: a posted {"a": [[1]]} was listed as Python wrote it).
        (BOX, "Terrain properties: name: give the piece's name as words."),
        # A shape the format does not draw, named with the ones it does (was: "That value is not allowed here.").
        (
            {"type": "Point", "coordinates": [10, 10]},
            "Terrain geometry: its type Point is not taken here: give Polygon, MultiPolygon or LineString.",
        ),
    ):
        named = {"name": {"a": [[1]]}} if "name" in said else {}
        refused = c.post(
            f"{NEW}/terrain", data=form(c, {"terrain": collection(feature("woods", geometry, **named))})
        )
        assert refused.status_code == 422 and refused.headers[NOTICE_HEADER] == said
        assert len(said) <= 120
        assert [f["properties"]["kind"] for f in page_doc(c, PAGE)["terrain"]["features"]] == [
            "woods",
            "road",
            "hill",
        ]
    # The table's size is the draft's: a wider table takes the piece.
    assert c.post(POST, data=form(c, fields(width_cm="150"))).status_code == 200
    wide = c.post(f"{NEW}/terrain", data=form(c, {"terrain": collection(feature("woods", OFF))}))
    assert wide.status_code == 200 and listed(wide.text) == [("0", "Woods 1")]


def test_a_games_table_is_judged_for_its_referee_alone_and_nothing_kept(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c)
    url = f"/games/{g.id}/table/terrain"

    def as_seat(headers: dict[str, str] | None, terrain: str) -> Any:
        c.cookies.clear()
        if headers:
            c.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))
        r = c.post(url, data=form(c, {"terrain": terrain}))
        c.cookies.clear()
        return r

    c.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/games/{g.id}/table/edit").text
    assert f'data-terrain-url="{url}"' in page
    before = c.get(f"/api/v1/games/{g.id}/state", headers=g.referee).json()["terrain"]
    c.cookies.clear()
    judged = as_seat(g.referee, json.dumps(wood()))
    assert judged.status_code == 200 and listed(judged.text) == [("0", "Woods 1")]
    off = as_seat(
        g.referee, collection(feature("woods", {**OFF, "coordinates": [[[0, 0], [900, 0], [0, 5], [0, 0]]]}))
    )
    assert off.status_code == 422 and "goes off the table" in off.headers[NOTICE_HEADER]
    assert c.get(f"/api/v1/games/{g.id}/state", headers=g.referee).json()["terrain"] == before  # nothing kept
    # A river of the game's own that runs off the table (as the game's API allows) does not stop a new piece.
    river = feature("river", {"type": "LineString", "coordinates": [[-20, 50], [60, 50]]}, width_cm=4)
    game = c.get(f"/api/v1/games/{g.id}", headers=g.referee).json()
    kept = c.patch(
        f"/api/v1/games/{g.id}",
        headers=g.referee,
        json={"version": game["version"], "terrain": json.loads(collection(river))},
    )
    assert kept.status_code == 200, kept.text
    beside = as_seat(g.referee, collection(river, feature("woods", BOX)))
    assert beside.status_code == 200 and listed(beside.text) == [("0", "River 1"), ("1", "Woods 2")]
    for seat in (g.attacker, None):
        refused = as_seat(seat, json.dumps(wood()))
        assert (
            refused.status_code == 403
            and refused.headers[NOTICE_HEADER] == "Only the game's referee edits its table."
        )
    start_game(c, g)
    late = as_seat(g.referee, json.dumps(wood()))
    assert late.status_code == 409 and late.headers[NOTICE_HEADER].startswith("The game has started")


def test_a_line_to_widen_is_bounded_before_any_work_and_a_huge_game_id_is_not_found(
    sqlite_client: TestClient,
) -> None:
    # Session 20's hostile pass: one zigzag road of 1,000 points held the server 20 s (GEOS widening it), and
    # a game id past 64 bits was a 500.
    c = sqlite_client
    zigzag = [[10 + i * 0.1, 20 + (20 if i % 2 else 0)] for i in range(1_000)]
    road = collection(feature("road", {"type": "LineString", "coordinates": zigzag}, width_cm=100))
    refused = c.post(f"{NEW}/terrain", data=form(c, {"terrain": road}))  # refused before it is widened
    assert refused.status_code == 422
    assert refused.headers[NOTICE_HEADER] == "Geometry: a road line has at most 50 points."
    # A post without the terrain is refused naming it, not taken as an empty table (it wiped the draft's).
    assert c.post(f"{NEW}/terrain", data=form(c, {"terrain": collection(feature("woods", BOX))})).is_success
    for missing in ({}, {"terrain": ""}):
        wiped = c.post(f"{NEW}/terrain", data=form(c, missing))
        assert wiped.status_code == 422 and wiped.headers[NOTICE_HEADER].startswith(
            "Terrain: send the table's"
        )
    assert [f["properties"]["kind"] for f in page_doc(c, PAGE)["terrain"]["features"]] == ["woods"]
    for what in ("terrain", "objectives"):
        assert c.post(f"/games/9223372036854775808/table/{what}", data=form(c, {what: "{}"})).status_code in (
            404,
            422,
        )


def taken(text: str) -> dict[str, Any]:
    """The terrain as the server took it, carried in its answer (the page's script takes it as its own)."""
    found = re.search(r"<script type=\"application/json\" data-terrain-taken>(.*?)</script>", text, re.S)
    assert found, text
    result: dict[str, Any] = json.loads(found.group(1))
    return result


def test_a_pieces_rename_class_and_delete_are_the_servers_and_its_answer_carries_the_terrain(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    drawn = collection(feature("woods", BOX), feature("road", ROAD, width_cm=2))

    def edit(**asked: str) -> Any:
        return c.post(f"{NEW}/terrain", data=form(c, {"terrain": drawn, **asked}))

    renamed = edit(piece="1", name="  Menin Road ")
    assert renamed.status_code == 200 and listed(renamed.text) == [("0", "Woods 1"), ("1", "Menin Road")]
    assert taken(renamed.text)["features"][1]["properties"] == {
        "kind": "road",
        "width_cm": 2,
        "name": "Menin Road",
    }
    assert page_doc(c, PAGE)["terrain"] == taken(renamed.text)  # kept in the draft as answered
    assert listed(edit(piece="1", name="").text)[1] == ("1", "Road 2")  # no name: its kind's and its number
    gone = edit(piece="0", delete="1")
    assert listed(gone.text) == [("0", "Road 1")] and [
        f["properties"]["kind"] for f in taken(gone.text)["features"]
    ] == ["road"]
    assert [f["properties"]["kind"] for f in page_doc(c, PAGE)["terrain"]["features"]] == ["road"]
    # Refused naming the field: a piece not drawn, a name past the input's bound, a class the rule set lacks.
    for asked, said in (
        ({"piece": "2", "name": "x"}, "Piece: not a piece of the terrain drawn."),
        ({"piece": "-1", "delete": "1"}, "Piece: not a piece of the terrain drawn."),
        # a digit int() refuses
        ({"piece": "\u00b2", "delete": "1"}, "Piece: not a piece of the terrain drawn."),
        ({"piece": "0", "name": "x" * 101}, "Name: at most 100 characters."),
        ({"piece": "0", "piece_class": "lava"}, "Class: not a class of terrain this rule set knows."),
        ({"piece": "0"}, "Piece: say its name, its class or its deletion."),
    ):
        answer = edit(**asked)
        assert answer.status_code == 422 and answer.headers[NOTICE_HEADER] == said
    assert [f["properties"]["kind"] for f in page_doc(c, PAGE)["terrain"]["features"]] == ["road"]


def test_a_piece_drawn_is_made_by_the_server_from_the_tools_as_its_kind_has_them(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    drawn = collection(feature("woods", BOX))

    def add(geometry: dict[str, Any], **tools: str) -> Any:
        asked = {
            "terrain": drawn,
            "add": json.dumps(geometry),
            "breadth": "",
            "owner": "defender",
            "height": "",
        }
        return c.post(f"{NEW}/terrain", data=form(c, asked | tools))

    trench = add(ROAD, piece_kind="trench", breadth="3", owner="attacker", height="5")
    assert trench.status_code == 200 and listed(trench.text) == [("0", "Woods 1"), ("1", "Trench 2")]
    made = taken(trench.text)["features"][1]
    assert made["id"] == "t2" and made["properties"] == {"kind": "trench", "width_cm": 3, "owner": "attacker"}
    assert page_doc(c, PAGE)["terrain"] == taken(trench.text)  # kept in the draft as answered
    hill = taken(add(BOX, piece_kind="hill", breadth="3", height="7.5").text)["features"][1]
    assert hill["properties"] == {"kind": "hill", "height_cm": 7.5}  # a box has no breadth; a hill no owner
    # Refused naming the field, the draft as it was: an unknown kind, a bad number, a shape the rules refuse.
    for tools, said in (
        ({"piece_kind": "lava"}, "Terrain kind: not a kind of terrain this rule set draws."),
        ({"piece_kind": "hill", "height": "1e9"}, "Height: from 0 to 100 cm."),
        ({"piece_kind": "road", "breadth": "two"}, "Breadth: from 0 to 100 cm."),
        ({"piece_kind": "trench", "owner": "umpire"}, "Owner: the attacker or the defender."),
    ):
        answer = add(ROAD, **tools)
        assert answer.status_code == 422 and answer.headers[NOTICE_HEADER] == said
    point = add({"type": "Point", "coordinates": [10, 10]}, piece_kind="woods")  # session 21's hostile pass
    said = "Geometry: its type Point is not taken here: give Polygon, MultiPolygon or LineString."
    assert point.status_code == 422 and point.headers[NOTICE_HEADER] == said
    off = add(OFF, piece_kind="woods")
    assert off.status_code == 422 and "goes off the table" in off.headers[NOTICE_HEADER]
    assert [f["properties"]["kind"] for f in page_doc(c, PAGE)["terrain"]["features"]] == ["woods", "hill"]


def test_a_terrain_under_its_limit_is_read_whole_however_the_form_encodes_it(
    sqlite_client: TestClient,
) -> None:
    """A terrain under the format's 1,000,000 characters, posted as the page's form, percent-encoded past the
    form parser's own 1 MiB a field (session 21's hostile pass: a generic 400 the player could do nothing with)."""
    c = sqlite_client
    notes = {f"note_{i}": "{" * 1000 for i in range(31)}  # each "{" sent as "%7B"
    drawn = collection(*(feature("woods", BOX, **notes) for _ in range(12)))
    assert len(drawn) < 1_000_000 and len(urllib.parse.quote_plus(drawn)) > 1024 * 1024
    answer = c.post(f"{NEW}/terrain", data=form(c, {"terrain": drawn}))
    assert answer.status_code == 200, answer.headers.get(NOTICE_HEADER)
    assert len(listed(answer.text)) == 12
    # Past the table's vertices in all: the terrain named once (it read "Terrain terrain: ...").
    ring = [[10 + i / 100, 10] for i in range(999)] + [[10, 10]]
    dense = {"type": "Polygon", "coordinates": [ring] * 11}
    over = c.post(f"{NEW}/terrain", data=form(c, {"terrain": collection(*(feature("woods", dense),) * 2)}))
    assert over.status_code == 422
    assert over.headers[NOTICE_HEADER] == "Terrain: 22000 vertices in all (allowed 0..20000)."
