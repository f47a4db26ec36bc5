"""The table map by keyboard (issue 92): an order roll played on the map by keyboard alone, from the page's first
Tab to the roll's applied answer, its keys counted; the stand it is played for named with its card's words. What
the card and the roll do once open is the taps' (test_map_play.py); what axe-core finds on the map at the four
sizes is test_accessibility.py's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PAGE_POINT, TABLET_LANDSCAPE
from tests.frontend.games import bearer, join, seed_game
from tests.frontend.test_map_play import api_of, open_map, ordered, placed, units_of

pytestmark = pytest.mark.browser

# The stand the keyboard is on: the table's active stand (aria-activedescendant) while the table has the focus.
ON = """() => { const el = document.activeElement;
  const on = el?.matches('[data-map-canvas]') && el.getAttribute('aria-activedescendant');
  return on ? Number(on.split('-').pop()) : null; }"""


class Keys:
    """Keys pressed on the page, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def tab_to(self, found: str, most: int) -> None:
        """Tab until the element focused is `found` (a JavaScript test of it, `el`), in at most `most` Tabs."""
        for _ in range(most):
            self.press("Tab")
            if self.page.evaluate(f"() => {{ const el = document.activeElement; return Boolean({found}); }}"):
                return
        raise AssertionError(f"{most} Tabs never reached {found}")


def test_an_order_roll_on_the_map_by_keyboard_alone(new_page: Any) -> None:
    """The Mons game in the German battalion orders, a German platoon with a suppression marker: on the attacker's
    landscape tablet with no touch (seated by its card's code on the start page), the skip link, the table (its
    active stand, the one the keyboard is on, the seat's nearest the middle of the view), the arrows to the platoon
    (each the arrow of its longer way on the screen), Enter opens its card with the focus on its name, Tab goes on
    to the Order roll's dice, Enter on the 5 records the roll, and its answer shows with the focus kept in the card;
    Escape closes the card and puts the focus back on the table, the platoon its active stand. Every stand the
    keyboard goes to is in sight, nothing over its centre, and the platoon is seen to be the one (a ring round
    it, WCAG 2.4.7).

    The keys, counted on this table at this size: Tab and Enter (the skip link), Tab (into the table), 12 arrows
    (the platoon, the first German one by the scenario's place, is 10 Ups, a Right and an Up from the stand in
    the middle as the walk below goes), Enter (the card), 5 Tabs (from the card's name, its first act is the
    Order roll's dice: 1 to 5), Enter (the 5): 22, the bound. On the code before issue 92 no Tab reached a stand
    (120 Tabs reached 23 controls, none a stand): the Tab into the table fails."""
    referee = new_page()
    game_id, answer = seed_game(referee)
    as_referee = bearer(answer["referee_token"])
    ordered(referee, game_id, as_referee, "attacker", [])
    units = units_of(referee, game_id)
    platoon = placed(units, "attacker", "rifle-platoon")[0]
    marked = referee.request.post(
        f"{api_of(game_id)}/units/{platoon['id']}/markers",
        headers=as_referee,
        data={"delta": 1, "override": True},
    )
    assert marked.status == 200, marked.text()
    # The attacker's player joins as a player does, on the start page by the code on their card (its keys are
    # not the order roll's: the count starts on the map).
    page = new_page(TABLET_LANDSCAPE, has_touch=False)
    join(page, answer["join_codes"]["attacker"])
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/"))
    open_map(page, game_id)

    keys = Keys(page)
    keys.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    keys.press("Enter")
    keys.tab_to("el.matches('[data-map-canvas]') && el.getAttribute('aria-activedescendant')", 1)
    # The way to the platoon, an arrow at a time: the arrow of its longer way on the screen, else the other.
    for _ in range(30):
        at = page.evaluate(
            f"""(target) => {{ const m = window.firestepMap, from = ({ON})();
                 const p = (id) => {{ const u = m.model.units.get(id); return m.leaflet.project(m.toLL([u.x, u.y])); }};
                 const [a, b] = [p(from), p(target)];
                 return {{ from, dx: b.x - a.x, dy: b.y - a.y }}; }}""",
            platoon["id"],
        )
        if at["from"] == platoon["id"]:
            break
        across = "ArrowRight" if at["dx"] > 0 else "ArrowLeft"
        down = "ArrowDown" if at["dy"] > 0 else "ArrowUp"
        for key in (across, down) if abs(at["dx"]) > abs(at["dy"]) else (down, across):
            keys.press(key)
            if page.evaluate(ON) != at["from"]:
                break
        else:
            raise AssertionError(f"no arrow leads on from stand {at['from']}")
        # In sight: the stand the keyboard is on is the topmost thing at its centre.
        assert page.evaluate(
            f"""() => {{ const id = ({ON})(), u = window.firestepMap.model.units.get(id);
                 const c = ({PAGE_POINT})(u.x, u.y);
                 return document.elementFromPoint(c.x, c.y)?.dataset.stand === String(id); }}"""
        )
    assert page.evaluate(ON) == platoon["id"]
    stand = page.locator(f"path[data-stand='{platoon['id']}']")
    # Named as its card says it: its name, its label on the map, its side and kind, its marker.
    plain, short = platoon["plain_name"], platoon["short_name"]
    name = f"{plain}, {short}, Attacker · Rifle platoon, 1 suppression marker"
    expect(stand).to_have_accessible_name(name)
    expect(stand).to_have_role("img")
    ring = stand.evaluate(
        """(el) => { const s = getComputedStyle(el);
             return [el.closest(':focus-visible') !== null, s.outlineStyle, s.outlineWidth]; }"""
    )
    assert ring == [True, "solid", "3px"], ring
    keys.press("Enter")
    card = page.locator("[data-panel='stand']")
    expect(card.locator("[data-stand-name]")).to_be_focused()
    for said in ("[data-stand-name]", ".stand-side", "[data-stand-markers]"):
        assert card.locator(said).inner_text() in name, said
    expect(page.locator(f"[data-map-page][data-stand-acts='{platoon['id']}']")).to_have_count(1)
    order = card.get_by_role("group", name="Order roll", exact=True)
    keys.tab_to(
        "el.closest('[role=group]')?.getAttribute('aria-label') === 'Order roll' && el.textContent === '5'", 6
    )
    keys.press("Enter")
    expect(page.locator("[data-play-done]")).to_be_visible()
    expect(order).to_have_count(0)  # the answer in its place
    expect(card.locator("[data-stand-name]")).to_be_focused()
    assert keys.count <= 22, keys.count
    logged = page.request.get(f"{api_of(game_id)}/events").json()[-1]
    said = logged["payload"]
    assert (said["resolver"], said["unit_id"], said["resolution"]["dice"]) == (
        "order-roll",
        platoon["parent_id"],
        [5],
    )
    page.keyboard.press("Escape")
    expect(page.locator("[data-map-panel]")).to_be_hidden()
    assert page.evaluate(ON) == platoon["id"]
