"""Out of its turn a side's stand card offers nothing (issue 37): on the Mons game in the German battalion
orders (seeded through the API), the British player taps one of its stands by touch on the landscape tablet:
the card shows no act, only the sentence naming the step, with the rule behind it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import TABLET_LANDSCAPE
from tests.frontend.games import join_by_api
from tests.frontend.test_map_play import Taps, open_map, set_up

pytestmark = pytest.mark.browser


def test_the_other_side_s_stand_card_offers_nothing_and_says_why(new_page: Any) -> None:
    defender = new_page(TABLET_LANDSCAPE)
    game_id, answer, s = set_up(defender)  # as the referee (the API only), then seated as the defender
    join_by_api(defender, answer["join_codes"]["defender"])
    open_map(defender, game_id)
    Taps(defender).stand(s["mg_target"]["x"], s["mg_target"]["y"])
    waiting = defender.locator("[data-play-waiting]")
    expect(waiting).to_have_text("It is the German battalion-orders step: wait for your turn.")
    expect(waiting).to_have_attribute("title", re.compile("TURN SEQUENCE: “one side moving and firing"))
    expect(defender.locator("[data-act]")).to_have_count(0)
