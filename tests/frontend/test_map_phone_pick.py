"""A phone picks the stand the finger meant (issue 64): on the 390x844 phone the Mons table opens with a platoon
a few pixels wide, so a tap between two stands, on neither's base, offers both, and one more tap opens the one
meant (before, the nearer one's card opened, the neighbour's when the finger was a few pixels off). The card opens
with its first act in sight (the newcomer pass: its buttons showed only once scrolled inside it).
What only Chromium adds: the map's drawing and its touch."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import PHONE, centre_on_top
from tests.frontend.games import seed_game
from tests.frontend.test_map_play import attacker_on_map

pytestmark = pytest.mark.browser


def test_a_tap_between_two_stands_on_the_phone_offers_both(new_page: Any) -> None:
    page = new_page(PHONE)
    game_id, _ = seed_game(page)
    page.goto(f"/games/{game_id}/map")
    expect(page.locator("[data-stand]").first).to_be_attached()
    # Two stands as the phone draws them: their centres under 40 px apart (both within a finger's reach, 22 px,
    # of the point half-way), the tap half-way, on neither's base and nearer to no other stand.
    pair = page.evaluate(
        """() => { const m = window.firestepMap, r = m.leaflet.getContainer().getBoundingClientRect();
             const drawn = [...m.model.units.values()].filter((u) => u.x !== null && !u.killed && !u.off_table && u.base
               && document.querySelector(`[data-stand='${u.id}']`))
               .map((u) => { const p = m.leaflet.latLngToContainerPoint(m.toLL([u.x, u.y]));
                             const e = document.querySelector(`[data-stand='${u.id}']`).getBoundingClientRect();
                             return { id: u.id, x: r.left + p.x, y: r.top + p.y, half: Math.max(e.width, e.height) / 2 }; })
               .filter((s) => s.x > 0 && s.x < innerWidth && s.y > r.top && s.y < r.bottom);
             for (const a of drawn) for (const b of drawn) {
               const d = Math.hypot(a.x - b.x, a.y - b.y);
               const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
               const nearer = drawn.filter((s) => s !== a && s !== b && Math.hypot(s.x - mx, s.y - my) <= d / 2).length;
               if (a.id < b.id && d > a.half + b.half + 2 && d < 40 && !nearer) return { a, b, d }; }
             return null; }"""
    )
    assert pair is not None, "no two stands drawn side by side on the phone"
    a, b = pair["a"], pair["b"]
    assert max(a["half"], b["half"]) * 2 < 24  # a platoon drawn smaller than a fingertip
    page.touchscreen.tap((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2)
    chooser = page.locator("[data-panel='choose']")
    expect(chooser).to_be_visible()
    expect(chooser.locator(f"[data-stand-choice='{a['id']}']")).to_be_visible()
    expect(chooser.locator(f"[data-stand-choice='{b['id']}']")).to_be_visible()
    chooser.locator(f"[data-stand-choice='{b['id']}']").tap()
    card = page.locator("[data-panel='stand']")
    expect(card).to_be_visible()
    name = page.evaluate(
        f"() => window.firestepMap.nameOf(window.firestepMap.model.units.get({b['id']})).plain"
    )
    expect(card.locator("[data-stand-name]")).to_have_text(name)
    # Its first act in sight as it opens, uncovered, nothing scrolled inside the card (the newcomer pass: the sheet
    # showed its name and path, the act buttons below its fold, and nothing said it scrolls).
    first = card.locator("[data-play] button, .card-actions button").first
    assert centre_on_top(page, first)["onTop"], first.bounding_box()
    assert card.evaluate("el => el.closest('[data-map-panel]').scrollTop") == 0


def test_each_card_opens_at_its_top_after_one_scrolled(new_page: Any) -> None:
    """The newcomer pass: on the phone a stand's card scrolled down, then the Key tapped, showed the Key scrolled
    as far, its heading and its x above the sheet; and a card opened after it came scrolled too, its Move cut
    off. Each card the sheet shows opens at its top: another panel's, and another stand's."""
    page, taps, _, units = attacker_on_map(new_page, PHONE)
    placed = [u for u in units if u["side"] == "attacker" and u["base"] and u["x"] is not None]
    stand, other = placed[0], placed[-1]
    panel, card = page.locator("[data-map-panel]"), page.locator("[data-panel='stand']")

    def scrolled() -> None:  # the finger's swipe up the sheet
        box = panel.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, 600)
        page.wait_for_function("() => document.querySelector('[data-map-panel]').scrollTop > 0")

    taps.stand(stand["x"], stand["y"])
    expect(card.locator("[data-stand-name]")).to_be_visible()
    scrolled()
    taps.button("Key")
    key = page.locator("[data-panel='legend']")
    for seen in (key.get_by_role("heading", name="Key"), page.locator("[data-panel-close]")):
        assert centre_on_top(page, seen)["onTop"], seen
    taps.button("Key")  # put away
    for unit in (stand, other):
        taps.stand(unit["x"], unit["y"])
        expect(card.locator("[data-stand-name]")).to_have_text(unit["plain_name"])
        for seen in (card.locator("[data-stand-name]"), card.get_by_role("button", name="Move", exact=True)):
            assert centre_on_top(page, seen)["onTop"], seen
        scrolled()
