"""The printable scenario sheet (issue 27): real PDFs read back with poppler. Mons 1914 from its shipped file
prints within two A4 pages, the table to the stated scale with its 10 cm grid numbered, the terrain drawn
where the file puts it, and both orders of battle; a bigger table with a division a side still fits; a club's
small scenario prints on one page (issue 42)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np

from playsheets import scenario_sheet
from playsheets.render import html_to_pdf, scenario_sheet_html, scenario_sheet_pdf
from rules.flanders_fields.book.terrain_drawing import BUILT_UP_NAME
from rules.registry import get_game_rules
from tests.playsheets import pdf

A4_PT = (595.28, 841.89)
DPI = 100


def mons() -> dict[str, Any]:
    return dict(get_game_rules("flanders-fields").book.scenarios["mons-1914"])


@lru_cache(maxsize=1)
def mons_pdf() -> bytes:
    # scenario_sheet_pdf keeps its render (playsheets.render): the one page test's Mons is this one.
    data = scenario_sheet_pdf(mons(), "a4")
    pdf.save_artifacts(data, "scenario-sheet-mons")
    return data


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _feature(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in doc["terrain"]["features"] if f["properties"].get("name") == name)


def test_mons_prints_within_two_a4_pages_with_its_scale_and_grid_numbered() -> None:
    data = mons_pdf()
    assert pdf.page_count(data) <= 2
    assert all(abs(w - A4_PT[0]) < 1 and abs(h - A4_PT[1]) < 1 for w, h in pdf.page_size_pt(data))
    doc = mons()
    width, length = doc["table"]["width_cm"], doc["table"]["length_cm"]
    scale = scenario_sheet.scale_for(width, length)
    text = squash(pdf.text(data, layout=False))
    assert f"Scale 1:{scale}" in text and f"1 cm on this sheet is {scale} cm on the table" in text
    assert "10 cm squares" in text
    # Every 10 cm line numbered along the attacker's edge and up the table (1:10 leaves room for all).
    words = set(text.split())
    assert {str(x) for x in range(0, int(width) + 1, 10)} <= words
    assert {str(y) for y in range(0, int(length) + 1, 10)} <= words


def test_the_table_is_drawn_to_scale_and_the_wood_where_the_file_puts_it() -> None:
    doc = mons()
    width, length = doc["table"]["width_cm"], doc["table"]["length_cm"]
    mm_per_cm = 10 / scenario_sheet.scale_for(width, length)
    px_per_mm = DPI / 25.4
    page = pdf.rasterise(mons_pdf(), DPI, crisp=True)[0]
    # The table's outline is drawn in a colour of its own: its box is the table's, to scale.
    edge = pdf.bbox(page, scenario_sheet.TABLE_EDGE)
    assert edge is not None
    left, top, right, bottom = edge
    assert abs((right - left) - width * mm_per_cm * px_per_mm) <= 3
    assert abs((bottom - top) - length * mm_per_cm * px_per_mm) <= 3
    woods = scenario_sheet.STYLE["woods"][0]
    rgb = np.array([int(woods[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    is_wood = np.all(np.asarray(page) == rgb, axis=2)

    def share(x0: float, y0: float, x1: float, y1: float) -> float:
        """The share of wood-coloured pixels in a table-cm box (the table's y runs up the page)."""
        px = [left + x * mm_per_cm * px_per_mm for x in (x0, x1)]
        py = [bottom - y * mm_per_cm * px_per_mm for y in (y1, y0)]
        inside = is_wood[round(py[0]) : round(py[1]), round(px[0]) : round(px[1])]
        return float(inside.mean())

    for name in ("central wood", "riverside wood"):
        (xs, ys) = zip(*_feature(doc, name)["geometry"]["coordinates"][0], strict=True)
        # Inside the wood (1 cm in from its edge: its outline, the grid lines and its number are drawn over).
        assert share(min(xs) + 1, min(ys) + 1, max(xs) - 1, max(ys) - 1) > 0.6, name
        # Just outside it: none.
        assert share(max(xs) + 1, min(ys), max(xs) + 4, max(ys)) == 0, name
    # Where the file has no terrain, no wood is drawn.
    assert share(1, 20, 19, 40) == 0


def test_both_orders_of_battle_special_rules_and_notes_are_printed() -> None:
    text = squash(pdf.text(mons_pdf(), layout=False))
    doc = mons()
    for side in ("attacker", "defender"):
        for top in doc["sides"][side]["forces"]:
            assert top["name"] in text
            for child in top["children"]:
                if child.get("children"):  # formations: battalions, the artillery
                    assert child["name"] in text, child["name"]
    assert "Field Artillery Group 1" in text and "3 × 77mm Battery" in text
    # The battalions that start off the table are marked so.
    assert text.count("OFF TABLE") == 3
    for rule in ("Prussian Discipline", "Long Range Marksmanship", "Mad Minute"):
        assert rule in text
    assert doc["notes"][0] in text


def test_a_reading_changes_the_printed_force() -> None:
    doc = mons()
    erratum = "mons-german-quality"
    readings = next(
        u["quality"]["values"] for u in doc["sides"]["attacker"]["forces"] if isinstance(u["quality"], dict)
    )
    printed = {}
    for reading in readings:
        sheet = scenario_sheet.scenario_sheet(doc, {erratum: reading})
        german = sheet.sides[0]
        assert (erratum, reading) in sheet.readings
        printed[reading] = german.lines[0].detail
    assert len(set(printed.values())) == len(readings)  # each reading prints its own quality
    for reading, detail in printed.items():
        assert detail.lower().startswith(readings[reading])


def test_a_large_table_with_a_division_a_side_fits_two_pages() -> None:
    doc = {
        "format": "firestep-scenario/1",
        "id": "two-divisions",
        "title": "Two divisions",
        "ruleset": "flanders-fields",
        "period": "early",
        "table": {"width_cm": 240, "length_cm": 360},
        "terrain": {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "properties": {"kind": "woods", "name": "Big wood"},
                    "geometry": {
                        "type": "Polygon",
                        "coordinates": [[[100, 100], [140, 100], [140, 150], [100, 150], [100, 100]]],
                    },
                },
                {
                    "type": "Feature",
                    "properties": {"kind": "trench", "width_cm": 3, "name": "Front line"},
                    "geometry": {"type": "LineString", "coordinates": [[2, 300], [238, 310]]},
                },
                {
                    "type": "Feature",
                    "properties": {"kind": "wire", "name": "Belt"},
                    "geometry": {"type": "LineString", "coordinates": [[2, 290], [238, 295]]},
                },
            ],
        },
        "sides": {
            "attacker": {
                "nationality": "german",
                "deployment_zone": None,
                "forces": [{"table_id": "de-1914"}],
            },
            "defender": {
                "nationality": "british",
                "deployment_zone": None,
                "forces": [{"table_id": "gb-1914"}],
            },
        },
    }
    scale = scenario_sheet.scale_for(240, 360)
    assert scale > 10  # a table this size is drawn smaller than Mons's
    data = html_to_pdf(scenario_sheet_html(doc, "letter"))
    pdf.save_artifacts(data, "scenario-sheet-divisions")
    assert pdf.page_count(data) <= 2
    text = squash(pdf.text(data, layout=False))
    assert f"Scale 1:{scale}" in text and "Front line" in text and "Big wood" in text
    assert {"0", "120", "240", "360"} <= set(text.split())
    assert "British and Empire Division 1914-15" in text and "Infantry Brigade 3" in text


def test_a_rule_set_reading_the_ground_by_classes_prints_each_pieces_class() -> None:
    doc = get_game_rules("2mm-earth-1418").book.scenarios["earth2mm-demo-ferme"]
    legend = {row.kind: row.features for row in scenario_sheet.scenario_sheet(doc).legend}
    # The copse is rough as woods are; Hill 60 names its class (open) as its kind's would be.
    assert legend["woods"] == [(2, "The Copse (rough)")] and legend["hill"] == [(1, "Hill 60 (open)")]
    assert legend["strongpoint"] == [(4, "The Redoubt (fortification)")]


def test_the_sheet_counts_in_the_rule_sets_word_for_what_stands_on_the_table() -> None:
    doc = get_game_rules("2mm-earth-1418").book.scenarios["earth2mm-demo-ferme"]
    html = scenario_sheet_html(doc, "a4")
    assert " bases" in html and "Bases are drawn where" in html and " stands" not in html
    assert "Stands are drawn where" in scenario_sheet_html(mons(), "a4")


def _box(x0: float, y0: float, x1: float, y1: float) -> list[list[list[float]]]:
    return [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]]


def test_a_small_scenario_prints_on_one_page_and_mons_on_two() -> None:
    """Issue 42's club scenario (a wood, a trench with wire, a farm, a battalion a side) on one page, its map
    still to a stated scale; Mons, whose orders of battle do not fit below a map, on two."""
    doc = {
        "format": "firestep-scenario/1",
        "id": "club-attack",
        "title": "The club's 1916 attack",
        "ruleset": "flanders-fields",
        "period": "mid",
        "table": {"width_cm": 120, "length_cm": 180},
        "victory": "The Germans hold the wood at the end of turn 8.",
        "terrain": {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "properties": {"kind": "woods", "name": "Delville Wood"},
                    "geometry": {"type": "Polygon", "coordinates": _box(40, 140, 60, 158)},
                },
                {
                    "type": "Feature",
                    "properties": {"kind": "village", "name": "Ferme du Bois"},
                    "geometry": {"type": "Polygon", "coordinates": _box(80, 90, 100, 105)},
                },
                {
                    "type": "Feature",
                    "properties": {"kind": "trench", "width_cm": 2},
                    "geometry": {"type": "LineString", "coordinates": [[5, 162], [60, 160], [115, 162]]},
                },
                {
                    "type": "Feature",
                    "properties": {"kind": "wire"},
                    "geometry": {"type": "LineString", "coordinates": [[5, 150], [115, 150]]},
                },
            ],
        },
        "sides": {
            "attacker": {
                "nationality": "german",
                "deployment_zone": None,
                "forces": [{"table_id": "de-1914", "template": "battalion"}],
            },
            "defender": {
                "nationality": "british",
                "deployment_zone": None,
                "forces": [{"table_id": "gb-1915", "template": "battalion"}],
            },
        },
    }
    data = scenario_sheet_pdf(doc, "a4")
    pdf.save_artifacts(data, "scenario-sheet-one-page")
    assert pdf.page_count(data) == 1
    text = squash(pdf.text(data, layout=False))
    scale = scenario_sheet.scale_for(120, 180, scenario_sheet.ONE_PAGE_MAP_BOX_MM)
    assert f"Scale 1:{scale}" in text and "10 cm squares" in text
    assert f"{BUILT_UP_NAME}: 2 Ferme du Bois" in text  # the village as the book names built-up areas
    assert "Attacker: German" in text and "Defender: British" in text and doc["victory"] in text
    assert pdf.page_count(scenario_sheet_pdf(mons(), "a4")) == 2


def test_the_objectives_are_drawn_lettered_and_listed_with_worth_when_and_where() -> None:
    """Issue 55: each of the scenario's table_objectives on the map (a ring round a point, an area's outline),
    lettered, and listed with its name, victory points, when it scores (in the rules' word for a turn) and
    where it is on the table."""
    doc = mons()
    doc["table_objectives"] = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "id": "bridge-1",
                "geometry": {"type": "Point", "coordinates": [40, 120]},
                "properties": {"name": "Bridge 1", "vp": 2, "scored": "each_turn"},
            },
            {
                "type": "Feature",
                "id": "bridge-2",
                "geometry": {"type": "Polygon", "coordinates": _box(76, 116, 84, 124)},
                "properties": {"name": "Bridge 2", "vp": 3, "scored": "game_end", "held_by": "defender"},
            },
        ],
    }
    marks = scenario_sheet.scenario_sheet(doc).map.objectives
    assert [(o.letter, o.name, o.vp, o.when, o.where, o.held_by) for o in marks] == [
        ("A", "Bridge 1", 2, "at the end of each turn", "the point 40, 120 cm", ""),
        ("B", "Bridge 2", 3, "at the end of the game", "an area 8 × 8 cm round 80, 120 cm", "defender"),
    ]
    html = squash(scenario_sheet_html(doc, "a4"))
    assert html.count('data-objective="') == 2
    assert (
        "<b>Bridge 2</b> (the defender's while no stand is on it)</td><td>3</td><td>at the end of the game</td>"
        in html
    )
    earth = dict(get_game_rules("2mm-earth-1418").book.scenarios["earth2mm-demo-ferme"])
    earth["table_objectives"] = {
        "type": "FeatureCollection",
        "features": [doc["table_objectives"]["features"][0]],
    }
    assert scenario_sheet.scenario_sheet(earth).map.objectives[0].when == "at the end of each bound"
    # Issue 69: held for bounds in a row, and the victory conditions printed after the victory text.
    held = {"name": "Bridge 1", "vp": 2, "scored": "held_turns", "turns": 2, "consecutive": True}
    earth["table_objectives"]["features"] = [{**doc["table_objectives"]["features"][0], "properties": held}]
    earth["victory_conditions"] = [
        {"kind": "points", "points": 6},
        {"kind": "objective_taken", "objective": "bridge-1", "side": "attacker"},
    ]
    sheet = scenario_sheet.scenario_sheet(earth)
    assert sheet.map.objectives[0].when == "once held at the end of 2 bounds in a row"
    assert sheet.victory.endswith(
        "Victory condition 1: the first side to reach 6 victory points wins. "
        "Victory condition 2: the attacker wins on taking Bridge 1."
    )
