"""The other side sees every claim (issue 52): a range the shooter gave by the tape, over the one the map
measures, is shown on the opponent's map as it arrives on the live stream, as the shooter's claim beside the
map's measure. That the claim is taken and logged marked is tests/app/games/test_claims.py's."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.axe import serious_violations
from tests.frontend.conftest import PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE, TABLET_PORTRAIT, screenshot
from tests.frontend.games import bearer, join_by_api
from tests.frontend.test_map_play import api_of, open_map, set_up

pytestmark = pytest.mark.browser


def test_the_opponents_map_shows_a_range_claimed_by_the_tape(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE)
    game_id, answer, stands = set_up(referee)
    attacker = new_page(PHONE)
    token = join_by_api(attacker, answer["join_codes"]["attacker"])
    defender = new_page(TABLET_PORTRAIT)
    join_by_api(defender, answer["join_codes"]["defender"])
    open_map(defender, game_id)
    shot: dict[str, Any] = {"unit_id": stands["mg"]["id"], "target_id": stands["mg_target"]["id"]}
    asked = attacker.request.post(f"{api_of(game_id)}/ask/shooting", headers=bearer(token), data=shot)
    others = len(asked.json()["resolution"].get("also", []))
    taped = {**shot, "fields": {"range_cm": 5}, "dice": [1, *[1] * others]}
    made = attacker.request.post(f"{api_of(game_id)}/resolve/shooting", headers=bearer(token), data=taped)
    assert made.ok, made.text()
    claim = next(f for f in made.json()["filled"] if f["field"] == "range_cm")
    shown = defender.locator(f"[data-notice-key='claim-{made.json()['event_id']}']")
    expect(shown).to_contain_text(f"Range {claim['why']}")
    expect(shown).to_contain_text(claim["why"])
    assert serious_violations(defender) == []
    for size in (TABLET_PORTRAIT, TABLET_LANDSCAPE, PHONE, REFEREE_SCREEN):
        defender.set_viewport_size(size)  # the notice stays until dismissed or the player acts again
        expect(shown).to_be_in_viewport()
        screenshot(defender, "map-claim-shown")
