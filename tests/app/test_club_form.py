"""The counter editor's form as the server renders it (app/pages/club_form.py, issue 67): each fragment's
"Required context" is what the function that renders it gives; a stored scenario's page comes with its club's
data and its counters filled in, a game's with its counters' ids and versions (saved over them); a side's blank row is the one a counter added copies; a name a file carries is text, never
markup. The taps (adding, saving, the refusals) are the browser's: tests/frontend/test_counter_scenario_editor.py."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.pages import club_form, counter_editor
from app.pages.templates import templates
from tests.app.games.conftest import new_game
from tests.app.games.test_counter_scenario_file import _page, editor_document

TEMPLATES = Path(__file__).resolve().parents[2] / "frontend/templates"
VIMY = "vimy-ridge"


def required(template: str) -> set[str]:
    """The names a template's opening comment says it needs (parentheses are their notes)."""
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    said = text.split("Required context", 1)[1].split(":", 1)[1]
    while re.search(r"\([^()]*\)", said):
        said = re.sub(r"\([^()]*\)", "", said)
    return {name.strip() for name in said.split(":", 1)[0].split(",")}


def test_each_fragment_s_context_is_what_its_function_gives() -> None:
    editor = counter_editor.editor_context(VIMY)
    data = club_form.club_data(editor["fields"], {})
    order = club_form.order_of_battle(editor["sides"], editor["counter_fields"], [])
    assert required("_club_data.html") == set(data.context())
    assert required("_club_order.html") == set(order.context())
    assert required("counter_editor.html") == set(counter_editor.context(VIMY))  # and a game's page, `game`


def test_a_fragment_renders_from_its_context_alone() -> None:
    editor = counter_editor.editor_context(VIMY)
    counter = club_form.Counter("defender", "<b>RIR 261</b>", {"division": "79th Reserve", "attack": 4})
    order = club_form.order_of_battle(editor["sides"], editor["counter_fields"], [counter])
    shown = templates.get_template("_club_order.html").render(**order.context())
    assert "<b>" not in shown and "&lt;b&gt;RIR 261&lt;/b&gt;" in shown
    assert shown.count('data-club-counter="defender"') == 2  # the row, and the blank one to copy
    assert 'id="club-c1-attack"' in shown and 'id="club-c__N__-attack"' in shown
    assert 'value="4" data-counter-field="attack"' in shown
    data = club_form.club_data(editor["fields"], editor_document()["board"])
    shown = templates.get_template("_club_data.html").render(**data.context())
    assert '<option value="Night" selected>' in shown and 'value="8"' in shown


def test_a_stored_scenario_s_page_comes_filled_in(sqlite_client: TestClient) -> None:
    http = sqlite_client
    doc = editor_document()
    doc["sides"]["defender"]["forces"][0]["name"] = '<img src=x onerror="alert(1)">'
    sid = http.post("/api/v1/scenarios", json=doc).json()["id"]
    page = http.get(f"/scenarios/{sid}/edit").text
    assert f'value="{html.escape(doc["title"], quote=True)}" data-club-title' in page
    peaks = re.search(r'data-club-field="peaks"[^>]*>([^<]*)</textarea>', page)
    assert peaks is not None and peaks.group(1) == " ".join(doc["board"]["peaks"])
    assert re.search(r'data-club-kind="no-mans-land">1010</textarea>', page)
    assert re.search(r'data-club-field="trench_hexsides"[^>]*>0910-1010</textarea>', page)
    assert "<img src=x" not in page and "&lt;img src=x" in page
    assert (
        page.count("data-club-remove ") == 4
    )  # its two counters and the two blank rows: a file's are removable
    assert "data-unit-id" not in page


def test_a_game_s_page_carries_its_counters_ids_and_versions(sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": VIMY})
    api = f"/api/v1/games/{g.id}"
    added = http.post(
        f"{api}/units",
        json={
            "side": "defender",
            "name": "RIR 261",
            "level": "counter",
            "state": {"division": "79th Reserve", "attack": 4},
        },
        headers=g.referee,
    )
    assert added.status_code in (200, 201), added.text
    unit = added.json()["unit"]
    page = _page(http, f"/games/{g.id}/table/edit", g.referee).text
    row = re.search(rf'<div class="club-counter"[^>]*data-unit-id="{unit["id"]}"[^>]*>', page)
    assert row is not None and f'data-version="{unit["version"]}"' in row.group(0)
    assert 'value="RIR 261" data-counter-name' in page and 'value="79th Reserve"' in page
