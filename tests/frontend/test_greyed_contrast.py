"""A greyed button reads at WCAG 2.2 AA contrast (the newcomer pass of issue 67): greyed by an opacity of .55, the 2mm
map's greyed Move drew #1f4d3a as #849d93 on white, 2.9:1. The referee's greyed Move stays a button (its tap asks
to override, table-act.js), so axe-core reads its contrast where a player's, aria-disabled, it skips: axe at the
four sizes finds no serious violation with it on screen (frontend/static/css/app.css's .button.greyed)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import open_maps
from tests.frontend.test_accessibility import violations_at_every_size
from tests.frontend.test_earth2mm_bound import Battle, Player

pytestmark = pytest.mark.browser


def test_the_referees_greyed_move_on_the_2mm_map_reads_at_aa_contrast(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    b = Battle(referee)
    b.advance_to("high-commands")
    open_maps(b.id, referee)
    r = Player(referee, b)
    r.at("A Company, platoon 1")
    r.acts_read("A Company, platoon 1")
    move = referee.locator(".card-actions [data-stand-action='move']")
    expect(move).to_have_attribute("data-act-greyed", "")  # moving waits for the executing steps
    expect(move).not_to_have_attribute("aria-disabled", "true")  # the referee's: axe reads its contrast
    found = violations_at_every_size(referee, "2mm map, the referee's greyed Move")
    assert not found, "\n".join(found)
