"""Session 23's newcomer pass: in the scenario editor on the referee's screen, a hill picked had its Delete under the
"Start a game from it" bar (a click there hit the Start), and an objective just put down its Move and Delete too.
Nothing sits under a bar: a piece picked, or an objective put down, shows its buttons where a click reaches them
(each is the element at its own centre) at the four sizes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.test_scenario_editor import open_editor

pytestmark = pytest.mark.browser

AT_ITS_CENTRE = """(el) => {
  const r = el.getBoundingClientRect();
  return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
}"""


def in_reach(page: Any, button: Any) -> bool:
    """The button is the element at its own centre, as the page shows it: on a screen the editor fills (the
    sections beside the table, over the Start bar) as it is; where the page scrolls (a portrait tablet, a phone:
    no bar fixed over it) once scrolled to, as its user scrolls."""
    if page.evaluate("() => document.scrollingElement.scrollHeight > innerHeight + 1"):
        button.scroll_into_view_if_needed()
    return bool(button.evaluate(AT_ITS_CENTRE))


@pytest.mark.parametrize("size", [REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, PHONE])
def test_a_picked_pieces_buttons_are_where_a_click_reaches_them(new_page: Any, size: dict[str, int]) -> None:
    ed = open_editor(new_page, size, touch=size["width"] < 1920)
    page = ed.page
    ed.tab("terrain")
    for n, (kind, corners) in enumerate((("woods", ((20, 20), (40, 40))), ("hill", ((60, 60), (80, 80)))), 1):
        page.get_by_label("Kind of terrain").select_option(kind)
        ed.press(page.locator("[data-draw=Rectangle]"))
        page.locator(".scn-stage").scroll_into_view_if_needed()  # the table, above the sections on a phone
        for x, y in corners:
            ed.at(x, y)
        expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-terrain", str(n))
    # A kind with a longer card picked for the next drawing, then the woods and the hill picked from the list, as
    # the pass picked them: the hill's panel (the server's) come.
    page.get_by_label("Kind of terrain").select_option("marsh")
    expect(page.locator("[data-kind-card]").first).to_contain_text("Marsh")
    ed.press(page.locator("[data-terrain-list] [data-piece]").nth(0))
    expect(page.locator(".scn-piece[data-piece] [data-piece-name]")).to_have_text("Woods 1")
    ed.press(page.locator("[data-terrain-list] [data-piece]").nth(1))
    panel = page.locator(".scn-piece[data-piece]")
    expect(panel.locator("[data-piece-name]")).to_have_text("Hill 2")
    for name in ("Reshape", "Move", "Turn", "Delete"):
        assert in_reach(page, panel.get_by_role("button", name=name, exact=True)), (size, name)
    screenshot(page, "editor-piece-picked")
    # An objective put down: its form, and its Move and Delete in reach.
    ed.tab("objectives")
    ed.press(page.locator("[data-objective-draw=point]"))
    page.locator(".scn-stage").scroll_into_view_if_needed()  # the table, above the sections on a phone
    ed.at(50, 50)
    expect(page.locator("[data-scenario-editor]")).to_have_attribute("data-objectives", "1")
    form = page.locator("[data-objective-piece]")
    expect(form.get_by_label("Name of the objective")).to_be_visible()
    for name in ("Move", "Delete"):
        assert in_reach(page, form.get_by_role("button", name=name, exact=True)), (size, name)
    screenshot(page, "editor-objective-placed")
