"""A 2mm Earth 1418 force through the API: the chart it is built from, a formation built from it (for the
scenario editor, nothing stored), one built into a game, and a base added by hand standing on its kind's base
(the table's stands are the units with a base of the kit: rules.table.placed)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.games.conftest import new_game
from tests.playsheets import pdf

EARTH = "2mm-earth-1418"
SF = {
    "name": "1st Bn",
    "quality": "line",
    "sub_units": [{"kind": "line-inf", "bases": 3, "name": "A Coy"}, {"kind": "field-guns", "bases": 2}],
}


def test_the_chart_and_a_formation_built_from_it_as_a_scenarios_units(sqlite_client: TestClient) -> None:
    c = sqlite_client
    chart = c.get(f"/api/v1/rulesets/{EARTH}/force-chart").json()
    assert chart["title"] == "characteristics chart" and chart["qualities"] == ["reserve", "line", "elite"]
    assert chart["default_quality"] == "line"
    assert {"id": "field-guns", "name": "75/77 Field Guns", "what": "artillery"} in chart["kinds"]
    built = c.post(f"/api/v1/rulesets/{EARTH}/formations", json=SF)
    assert built.status_code == 200, built.text
    coy, guns = built.json()["children"]
    assert [b["base"] for b in guns["children"]] == ["field-guns", "field-guns"] and len(coy["children"]) == 3
    refused = c.post(
        f"/api/v1/rulesets/{EARTH}/formations", json={"sub_units": [{"kind": "hussars", "bases": 2}]}
    )
    assert refused.status_code == 422 and refused.json()["field"] == "sub_units.0.kind", refused.text
    assert "line-inf" in refused.json()["allowed"]
    # Flanders Fields builds from its organisation tables: it has no chart.
    assert c.get("/api/v1/rulesets/flanders-fields/force-chart").status_code == 404


def test_a_formation_built_into_a_game_and_a_base_added_by_hand_stand_on_the_table(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    g = new_game(c, {"ruleset": EARTH, "name": "Built"})
    r = c.post(f"/api/v1/games/{g.id}/formations", headers=g.referee, json={**SF, "side": "attacker"})
    assert r.status_code == 201, r.text
    units = r.json()
    assert [u["level"] for u in units] == [
        "battalion",
        "company",
        "platoon",
        "platoon",
        "platoon",
        "company",
    ] + ["platoon"] * 2
    assert units[0]["quality"] == "line" and {u["base"] for u in units if u["level"] == "platoon"} == {
        "line-inf",
        "field-guns",
    }
    bad = c.post(
        f"/api/v1/games/{g.id}/formations",
        headers=g.attacker,
        json={"side": "attacker", "sub_units": [{"kind": "line-inf", "bases": 13}]},
    )
    assert bad.status_code == 422 and bad.json()["field"] == "sub_units.0.bases", bad.text
    # A platoon added by hand stands on its kind's base, as a built one does; a company stands on none.
    company = units[1]["id"]
    added = c.post(
        f"/api/v1/games/{g.id}/units",
        headers=g.referee,
        json={
            "side": "attacker",
            "parent_id": company,
            "name": "A Coy, platoon 4",
            "level": "platoon",
            "kind": "line-inf",
            "x": 40,
            "y": 20,
        },
    )
    assert added.status_code == 201 and added.json()["unit"]["base"] == "line-inf", added.text


def test_a_scenario_of_built_formations_imports_exports_and_prints(sqlite_client: TestClient) -> None:
    c = sqlite_client

    def formation(prefix: str, name: str) -> dict:
        """A formation built by the chart's route, its ids under `prefix` as the editor writes them."""
        built = c.post(f"/api/v1/rulesets/{EARTH}/formations", json={**SF, "name": name}).json()

        def renamed(u: dict) -> dict:
            return {
                **u,
                "id": prefix + u["id"][len("formation") :],
                "children": [renamed(k) for k in u["children"]],
            }

        return renamed(built)

    box = {"type": "Polygon", "coordinates": [[[10, 70], [30, 70], [30, 90], [10, 90], [10, 70]]]}
    doc = {
        "format": "firestep-scenario/1",
        "title": "Built in the browser",
        "ruleset": EARTH,
        "period": None,
        "table": {"width_cm": 120, "length_cm": 180},
        "terrain": {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "properties": {"kind": "woods", "terrain_class": "defensible"},
                    "geometry": box,
                }
            ],
        },
        "sides": {
            "attacker": {"nationality": "british", "forces": [formation("attacker-1", "1st Bn")]},
            "defender": {"nationality": "german", "forces": [formation("defender-1", "I. Btl")]},
        },
    }
    imported = c.post("/api/v1/scenarios", json=doc)
    assert imported.status_code == 201, imported.text
    sid = imported.json()["id"]
    exported = c.get(f"/api/v1/scenarios/{sid}").json()
    assert exported["sides"] == doc["sides"] and exported["terrain"] == doc["terrain"]
    sheet = c.get(f"/api/v1/scenarios/{sid}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.headers["content-type"] == "application/pdf"
    assert pdf.page_count(sheet.content) <= 2
    text = " ".join(pdf.text(sheet.content, layout=False).split())
    assert "1st Bn" in text and "I. Btl" in text and "Woods: 1 (defensible)" in text
