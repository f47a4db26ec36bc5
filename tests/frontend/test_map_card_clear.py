"""The card never hides what is acted on (issue 41): by touch on the portrait tablet and the phone, on the Mons
game seeded through the API, with the card open on an own stand every stand of that stand's line (its side's
stands) and then of the picked target's company is on screen and the topmost thing at its centre, the next
stand of the line is tapped with the card open, no label crosses a stand, and the tool bar is one row."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import TABLET_PORTRAIT, screenshot
from tests.frontend.games import join_by_api, settled
from tests.frontend.test_map_play import PHONE, Taps, open_map, set_up, units_of

pytestmark = pytest.mark.browser


def line_of(units: dict[int, dict[str, Any]], stand: dict[str, Any], level: str) -> list[int]:
    """The stands on the table under the stand's `level` formation."""

    def under(u: dict[str, Any], top: int) -> bool:
        while u:
            if u["id"] == top:
                return True
            u = units.get(u["parent_id"])  # type: ignore[assignment]
        return False

    top = units[stand["parent_id"]]
    while top["level"] != level:
        top = units[top["parent_id"]]
    return [
        u["id"]
        for u in units.values()
        if u["base"] and u["x"] is not None and not u["killed"] and not u["off_table"] and under(u, top["id"])
    ]


def covered(page: Any, ids: list[int]) -> list[int]:
    """The stands whose centre is off screen or under something else than the stand itself."""
    found: list[int] = page.evaluate(
        """(ids) => { const m = window.firestepMap; const r = m.leaflet.getContainer().getBoundingClientRect();
             return ids.filter((id) => { const u = m.model.units.get(id);
               const p = m.leaflet.latLngToContainerPoint(m.toLL([u.x, u.y]));
               const x = r.left + p.x, y = r.top + p.y;
               if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
               const el = document.elementFromPoint(x, y);
               return !(el && el.dataset.stand === String(id)); }); }""",
        ids,
    )
    return found


def labels_over_stands(page: Any, labels: str = ".stand-label span") -> list[str]:
    """The shown labels (a stand's, or `labels` as the board's) whose box meets a drawn stand's."""
    found: list[str] = page.evaluate(
        """(labels) => { const stands = [...document.querySelectorAll('[data-stand]')].map((s) => s.getBoundingClientRect());
             return [...document.querySelectorAll(labels)].filter((l) => getComputedStyle(l).visibility !== 'hidden')
               .map((l) => [l.textContent, l.getBoundingClientRect()])
               .filter(([, r]) => stands.some((s) => r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top))
               .map(([t]) => t); }""",
        labels,
    )
    return found


def test_the_card_leaves_the_line_and_the_target_clear(new_page: Any) -> None:
    attacker = new_page(TABLET_PORTRAIT)
    game_id, answer, s = set_up(attacker)  # as the referee (the API only), then seated as the attacker
    join_by_api(attacker, answer["join_codes"]["attacker"])
    units = units_of(attacker, game_id)
    line = [u["id"] for u in units.values() if u["side"] == "attacker" and u["base"] and u["x"] is not None
            and not u["killed"] and not u["off_table"]]  # fmt: skip
    company = line_of(units, s["mg_target"], "company")
    found = []
    for size in (TABLET_PORTRAIT, PHONE):
        attacker.set_viewport_size(size)
        open_map(attacker, game_id)
        tools = attacker.locator(".map-toolbar .tool:visible")
        assert len({round(b["y"]) for b in (t.bounding_box() for t in tools.all()) if b}) == 1, size
        taps = Taps(attacker)
        taps.stand(s["mg"]["x"], s["mg"]["y"])
        expect(attacker.get_by_role("button", name="Shoot", exact=True)).to_be_visible()
        settled(attacker)
        assert covered(attacker, line) == [], size
        taps.button("Shoot")
        expect(attacker.locator("[data-play-prompt]")).to_be_visible()
        taps.stand(s["mg_target"]["x"], s["mg_target"]["y"])
        expect(attacker.locator(".play-dice").first).to_be_visible()
        settled(attacker)
        assert covered(attacker, line + company) == [], size
        found += [f"{size}: {v}" for v in serious_violations(attacker)]
        # The next stand of the line, tapped with the card open: its card.
        taps.stand(s["rifle"]["x"], s["rifle"]["y"])
        expect(attacker.locator("[data-stand-name]")).to_have_text(
            attacker.evaluate(
                f"() => window.firestepMap.nameOf(window.firestepMap.model.units.get({s['rifle']['id']})).plain"
            )
        )
        # The card closed, zoomed in to the labels: none crosses a stand.
        taps.button("Close the details")
        attacker.evaluate(
            "([x, y]) => { const m = window.firestepMap; m.leaflet.setView(m.toLL([x, y]), m.fitZoom() + 2.5, { animate: false }); }",
            [s["mg_target"]["x"], s["mg_target"]["y"]],
        )
        settled(attacker)
        screenshot(attacker, "map-labels")
        expect(attacker.locator(".stand-label:visible").first).to_be_visible()
        assert labels_over_stands(attacker) == [], size
    assert not found, "\n".join(found)
