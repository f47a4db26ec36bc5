"""A new scenario's forces panel posts to the browser's draft (issue 67; app.pages.scenario_forces): a table's
formations offered as options, a formation added, renamed, refused by field and removed, each post answered by the
side's formations and the forces' JSON island; CSRF as every post."""

from __future__ import annotations

import html
import json
import re

from fastapi.testclient import TestClient
from shapely import Polygon

from app.guard.security import NOTICE_HEADER
from app.pages import scenario_forces as page
from app.pages.templates import templates
from app.services import scenario_drafts as drafts
from app.services import scenario_forces as forces
from rules.registry import get_game_rules
from rules.table.frame import oriented_rect
from tests.app.test_club_form import required
from tests.csrf import form, header

FF = "flanders-fields"


def test_the_forces_panel_posts_keep_the_draft_s_forces_and_refuse_by_field(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    url = f"/scenarios/new/{FF}/forces"
    options = c.get(f"{url}/choices", params={"side": "defender", "defender_table": "gb-1915"}).text
    assert options.startswith('<option value="gb-1915">') and options.count("<option") == len(
        forces.choices(FF, "gb-1915")
    )
    assert c.get(f"{url}/choices", params={"table": "x" * 65}).text == ""
    picked = {"side": "defender", "defender_table": "gb-1915", "defender_formation": "gb-1915/mmg-company-1"}
    added = c.post(url, data=form(c, picked | {"defender_name": "Vickers"}))
    assert added.status_code == 200 and 'data-formation="defender-1/gb-1915/mmg-company-1"' in added.text
    assert "Remove Vickers" in added.text and '<option value="veteran" >Veteran</option>' in added.text
    assert re.search(r'data-scn-said="Vickers added to the defender: \d+ stands\."', added.text)  # its notice
    fid = "defender-1/gb-1915/mmg-company-1"
    renamed = c.post(
        f"{url}/change", data=form(c, {f"name.{fid}": "The guns"}), headers={"HX-Trigger-Name": f"name.{fid}"}
    )
    assert "Remove The guns" in renamed.text and '"name": "The guns"' in renamed.text  # the JSON island too
    for post, sent, field in (
        (
            url,
            {"side": "defender", "defender_table": "gb-1915", "defender_formation": "nothing"},
            "formation",
        ),
        (url, {"side": "neither"}, "side"),
        (url, picked | {"defender_name": "n" * 201}, "name"),
        (f"{url}/change", {f"quality.{fid}": "legendary"}, "quality"),
    ):
        refused = c.post(post, data=form(c, sent), headers={"HX-Trigger-Name": next(iter(sent))})
        assert refused.status_code == 422 and field in refused.headers[NOTICE_HEADER].lower(), refused.text
    # A chart's row refused names its list, not the row's index (the hostile pass: "0: Input should be ...").
    rows = {"side": "attacker", "attacker_kind": "line-inf", "attacker_bases": "x"}
    by_row = c.post("/scenarios/new/2mm-earth-1418/forces", data=form(c, rows))
    assert by_row.status_code == 422 and by_row.headers[NOTICE_HEADER].startswith("Bases:"), by_row.headers
    # A stand placed on the map, kept: posted as the outbox sends it (JSON, the CSRF header).
    placed = {"formation": fid, "stand": [f"{fid}/mmg-1"], "x": [10], "y": [170], "facing": [270]}  # its zone
    assert c.post(f"{url}/deploy", json=placed, headers=header(c)).status_code == 204
    listed = c.get(f"{url}/deploy").text  # the Deploy tab's list, read again from the draft
    assert f'data-place="{fid}/mmg-1" aria-pressed="false">Vickers MMG 1 · placed' in listed, listed
    assert (
        '"center": [10.0, 170.0]'
        in c.post(f"{url}/change", data=form(c), headers={"HX-Trigger-Name": f"name.{fid}"}).text
    )
    off = c.post(f"{url}/deploy", json=placed | {"x": [1e9]}, headers=header(c))
    assert off.status_code == 422 and off.headers[NOTICE_HEADER].startswith("X:")
    assert off.json()["detail"].startswith("X: the stand")  # the outbox's answer (JSON) says it too
    assert (
        c.post(f"{url}/deploy", content=b"x=1", headers=header(c)).headers[NOTICE_HEADER].startswith("Body")
    )
    removed = c.post(f"{url}/remove", data=form(c, {}), headers={"HX-Trigger-Name": f"remove.{fid}"})
    assert removed.status_code == 200 and removed.text.count("None yet.") == 2
    assert c.post(url, data={"side": "defender"}).status_code == 403  # no CSRF token


def test_an_edit_s_forces_go_to_its_own_draft_and_a_chart_s_rows_are_the_server_s(
    sqlite_client: TestClient,
) -> None:
    """An existing scenario's forces change its own draft (started from it as saved), never the new one, and its
    panel is read again from that draft; a chart's rows are server fragments."""
    c = sqlite_client
    mm, demo = "2mm-earth-1418", "earth2mm-demo-ferme"
    saved = c.get(f"/api/v1/scenarios/{demo}").json()
    fid = saved["sides"]["attacker"]["forces"][0]["id"]
    removed = c.post(
        f"/scenarios/{demo}/edit/forces/remove",
        data=form(c, {}),
        headers={"HX-Trigger-Name": f"remove.{fid}"},
    )
    assert removed.status_code == 200 and f'data-formation="{fid}"' not in removed.text
    assert f'hx-post="/scenarios/{demo}/edit/forces/remove"' in removed.text  # the edit's own posts
    assert c.post("/scenarios/nothing/edit/forces", data=form(c, {"side": "attacker"})).status_code == 404
    # The page reads the edit's panel again once the scenario is read in: its draft's forces, not as saved.
    assert f'data-formation="{fid}"' not in c.get(f"/scenarios/{demo}/edit/forces").text
    # A chart's next row is of the last row's kind and bases, numbered after the highest; at the chart's most
    # rows none, the sentence saying so; a row dropped swaps out for nothing.
    rows = f"/scenarios/new/{mm}/forces/row"
    last = {"side": "attacker", "attacker_kind": "line-inf", "attacker_bases": "3", "attacker_row": "4"}
    row = c.get(rows, params=last).text
    assert 'data-chart-row="5"' in row and '<option value="line-inf" selected>' in row and 'value="3"' in row
    full = c.get(rows, params={"side": "attacker", "attacker_kind": ["line-inf"] * 12})
    assert full.status_code == 422 and "at most 12" in full.headers[NOTICE_HEADER]
    assert c.get(rows, params={"side": "attacker", "drop": "1"}).text == ""
    assert (
        c.get(f"/scenarios/new/{FF}/forces/row", params={"side": "attacker"}).status_code == 422
    )  # no chart
    assert c.get(f"/scenarios/new?ruleset={mm}").text.count("None yet.") == 2  # the new draft's forces: none


def test_the_deploy_list_shows_where_the_draft_s_stands_stand() -> None:
    """The Deploy tab's list (`_scenario_deploy.html`, from the draft alone): each formation's stands placed, not
    placed or outside their side's zone, the stands outside named in its note; its context is what it says."""
    document = drafts.empty_document(FF)
    assert required("_scenario_deploy.html") == set(page.deploy_context(FF, document))
    unit = forces.add_from_table(
        FF, document, "defender", "gb-1915", "gb-1915/mmg-company-1", None, "Vickers"
    )
    zone = [[0, 150], [120, 150], [120, 180], [0, 180], [0, 150]]
    document["sides"]["defender"]["deployment_zone"] = {"type": "Polygon", "coordinates": [zone]}
    first, second, *rest = [u for u in forces.walk(unit) if u.get("base")]
    first["placement"] = {"center": [10, 170], "facing_deg": 270}  # in the zone
    second["placement"] = {"center": [10, 90], "facing_deg": 270}  # in the middle of the table
    context = page.deploy_context(FF, document)
    [shown] = context["deploying"]["defender"]  # type: ignore[index]
    assert [s.where for s in shown.stands] == ["placed", "outside its zone"] + ["not placed"] * len(rest)
    assert (shown.placed, context["outside"]) == (2, [second["name"]])
    drawn = templates.get_template("_scenario_deploy.html").render(**context)
    assert (
        f"Vickers: 2 of {len(rest) + 2} placed" in drawn and "No formations yet" in drawn
    )  # the attacker's none
    assert f"1 stand is outside its side's zone: {second['name']}." in drawn
    assert "Lay out Vickers in the defender's zone" in drawn
    assert "data-lay-out" not in templates.get_template("_scenario_deploy.html").render(
        **page.deploy_context(FF, document, moves_only=True)
    )  # a game's table: stands only moved


def test_the_map_s_labels_are_the_draft_s_stands_named_under_their_formations() -> None:
    """The map's label of each stand (scenario-deploy.js reads it from the Deploy list's island, read again
    with the list) is its name under its formation, one per stand of the draft: two "Infantry Platoon 1"s of a
    battalion told apart."""
    document = drafts.empty_document(FF)
    pick = "gb-1915/infantry-brigade-1/infantry-battalion-1"
    unit = forces.add_from_table(FF, document, "defender", "gb-1915", pick, None, "1st Welch")
    labels = page.deploy_context(FF, document)["labels"]
    assert isinstance(labels, dict)
    assert list(labels) == [u["id"] for u in forces.walk(unit) if u.get("base")]
    assert {"Infantry Company 1 · Infantry Platoon 1", "Infantry Company 2 · Infantry Platoon 1"} <= set(
        labels.values()
    )
    assert len(set(labels.values())) == len(labels)
    drawn = templates.get_template("_scenario_deploy.html").render(**page.deploy_context(FF, document))
    island = re.search(r"<script type=\"application/json\" data-deploy-labels>(.*?)</script>", drawn)
    assert island and json.loads(island.group(1)) == labels


def test_a_new_scenario_s_first_change_keeps_the_zones_its_form_showed(sqlite_client: TestClient) -> None:
    """Session 23's newcomer: a new scenario's form showed each zone 15 cm deep (the Mons specimen game's), but
    the draft made by the first change (a formation added) had none, so the fields came back empty and every
    Lay out said "The defender has no deployment zone". The draft starts with the zones its form shows."""
    c = sqlite_client

    def zones() -> list[str]:
        page = c.get("/scenarios/new", params={"ruleset": FF}).text
        return re.findall(r'name="zone_(?:attacker|defender)" data-zone-depth="\w+" value="([^"]*)"', page)

    assert zones() == ["15", "15"]
    picked = {"side": "defender", "defender_table": "gb-1915", "defender_formation": "gb-1915/mmg-company-1"}
    added = c.post(f"/scenarios/new/{FF}/forces", data=form(c, picked | {"defender_name": "Vickers"}))
    assert added.status_code == 200, added.text
    assert zones() == ["15", "15"]
    found = re.search(r'data-layout="([^"]*)"', c.get(f"/scenarios/new/{FF}/forces/deploy").text)
    assert found, "no Lay out offered"
    layout = json.loads(html.unescape(found.group(1)))
    assert layout["said"].startswith("Vickers laid out in the defender's zone:"), layout


def test_a_formation_s_lay_out_button_carries_where_the_server_lays_it_out() -> None:
    """Lay out (issue 67): the formation's places as rules.table.layout puts them in the side's zone (front row
    first, facing the enemy, around the side's other stands placed), with the sentence the editor says; a side
    with no zone says so and places none."""
    document = drafts.empty_document(FF)
    document["sides"]["defender"]["deployment_zone"] = None  # its depth cleared under Scenario
    unit = forces.add_from_table(
        FF, document, "defender", "gb-1915", "gb-1915/mmg-company-1", None, "Vickers"
    )
    mine = [u for u in forces.walk(unit) if u.get("base")]

    def plan() -> dict[str, object]:
        shown = page.deploy_context(FF, document)["deploying"]["defender"][0]  # type: ignore[index]
        found: dict[str, object] = json.loads(shown.layout)
        return found

    assert plan() == {"said": "The defender has no deployment zone: give its depth under Scenario."}
    zone = [[0, 150], [120, 150], [120, 180], [0, 180], [0, 150]]
    document["sides"]["defender"]["deployment_zone"] = {"type": "Polygon", "coordinates": [zone]}
    laid = plan()
    assert laid["said"] == f"Vickers laid out in the defender's zone: {len(mine)} stands." and laid["done"]
    # One stand said in the singular (session 23's second newcomer read "laid out ...: 1 stands.").
    forces.add_from_table(FF, document, "defender", "gb-1915", "gb-1915/mmg-company-1/mmg-1", None, "Lone")
    lone = page.deploy_context(FF, document)["deploying"]["defender"][1]  # type: ignore[index]
    assert json.loads(lone.layout)["said"] == "Lone laid out in the defender's zone: 1 stand."
    at = laid["at"]
    assert isinstance(at, list) and [p[0] for p in at] == [u["id"] for u in mine]
    assert {p[3] for p in at} == {270} and all(p[2] > 150 for p in at)  # facing the attacker, in the zone
    assert at[0][2] <= at[-1][2]  # the front row (the zone's low edge, nearer the attacker) first
    # Put where it says, every stand is in the zone as the map and the list judge it (its edge no hair outside).
    by_id = {u["id"]: u for u in mine}
    for stand_id, x, y, facing in at:
        by_id[stand_id]["placement"] = {"center": [x, y], "facing_deg": facing}
    assert page.deploy_context(FF, document)["outside"] == []
    assert all(
        round(v, 6) == v for _, x, y, _ in at for v in (x, y)
    )  # from the zone as drawn, not its tolerance
    for u in mine:
        u.pop("placement", None)
    # Another formation of the side placed where the first would go: laid out around it.
    other = forces.add_from_table(FF, document, "defender", "gb-1915", "gb-1915/mmg-company-1", None, "Other")
    first = next(u for u in forces.walk(other) if u.get("base"))
    first["placement"] = {"center": at[0][1:3], "facing_deg": 270}
    assert plan()["at"][0][1:3] != at[0][1:3]  # type: ignore[index]
    drawn = templates.get_template("_scenario_deploy.html").render(**page.deploy_context(FF, document))
    assert 'data-layout="{&#34;at&#34;: [[' in drawn  # the plan, escaped in its attribute


def test_the_deploy_list_carries_the_map_s_counts_and_marks_and_each_lay_out_its_own() -> None:
    """The map's counts and its marks of the stands outside their zone are the server's (issue 67): the Deploy
    list carries how many stands are placed and which are outside (`data-judged`), and each Lay out button the
    same once its formation is laid out, so the map shows them at once and offline (scenario-deploy.js)."""
    document = drafts.empty_document(FF)
    document["sides"]["defender"]["deployment_zone"] = None  # its depth cleared under Scenario
    unit = forces.add_from_table(
        FF, document, "defender", "gb-1915", "gb-1915/mmg-company-1", None, "Vickers"
    )
    other = forces.add_from_table(FF, document, "defender", "gb-1915", "gb-1915/mmg-company-1", None, "Other")
    zone = [[0, 150], [120, 150], [120, 180], [0, 180], [0, 150]]
    document["sides"]["defender"]["deployment_zone"] = {"type": "Polygon", "coordinates": [zone]}
    first, second, *rest = [u for u in forces.walk(unit) if u.get("base")]
    first["placement"] = {"center": [10, 170], "facing_deg": 270}  # in the zone
    second["placement"] = {"center": [10, 90], "facing_deg": 270}  # in the middle of the table
    stray = next(u for u in forces.walk(other) if u.get("base"))
    stray["placement"] = {"center": [60, 60], "facing_deg": 270}
    context = page.deploy_context(FF, document)
    assert json.loads(str(context["judged"])) == {"placed": 3, "outside": [second["id"], stray["id"]]}
    drawn = templates.get_template("_scenario_deploy.html").render(**context)
    carried = re.search(r'<div data-deploy data-judged="([^"]*)">', drawn)
    assert carried and json.loads(html.unescape(carried.group(1))) == json.loads(str(context["judged"]))

    def plan() -> dict[str, object]:
        shown = page.deploy_context(FF, document)["deploying"]["defender"][0]  # type: ignore[index]
        found: dict[str, object] = json.loads(shown.layout)
        return found

    # Vickers laid out: all its stands placed in the zone, the other's stray stand still outside.
    # Each button names only its own stands outside (the script keeps the others'): the list stays linear.
    assert (plan()["placed"], plan()["outside"]) == (len(rest) + 3, [])
    # A zone drawn as a triangle: laid out in its bounds, the stands beyond its slope are marked outside.
    slope = [[0, 150], [120, 180], [0, 180], [0, 150]]
    document["sides"]["defender"]["deployment_zone"] = {"type": "Polygon", "coordinates": [slope]}
    triangle, bases = Polygon(slope).buffer(1e-6), get_game_rules(FF).book.kit.bases
    sizes = {u["id"]: bases[u["base"]] for u in (first, second, *rest)}
    laid = plan()
    beyond = [
        i
        for i, x, y, facing in laid["at"]  # type: ignore[attr-defined]
        if not triangle.covers(oriented_rect((x, y), facing, sizes[i].width_cm, sizes[i].depth_cm))
    ]
    assert beyond and laid["outside"] == beyond
