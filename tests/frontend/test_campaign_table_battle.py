"""A campaign battle fought on the table, in the browser (issue 17): the organiser opens the battle's game
from the campaign page, the game's pages link back to the campaign, the game is ended, its referee offers the
result from the referee screen, and the organiser confirms it on the campaign page, whose log then links to
the game; and a battle whose game is deleted before its result, whose log names no game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.app.campaigns.test_table_battles import TO_RESOLVE
from tests.frontend.conftest import (
    ALL_VIEWPORTS,
    PHONE,
    TABLET_LANDSCAPE,
    assert_no_horizontal_scroll,
    screenshot,
    small_targets,
    unlabelled_controls,
)
from tests.frontend.games import bearer

pytestmark = pytest.mark.browser


def check_fit(page: Any, name: str) -> None:
    """At every size the tests look at: no sideways scroll, no small targets, every control named. The page is
    at 1180x820, the flow's size, before and after."""
    for viewport in (*ALL_VIEWPORTS, PHONE):
        if viewport is not TABLET_LANDSCAPE:
            page.set_viewport_size(viewport)
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport
        assert unlabelled_controls(page) == [], viewport
        screenshot(page, name)
    page.set_viewport_size(TABLET_LANDSCAPE)


def seat(page: Any, campaign_id: int, token: str) -> None:
    """Seat this page's device in the campaign with `token`, as the campaign pages' cookie would."""
    cookie = {
        "name": "firestep_campaigns",
        "value": f"{campaign_id}:{token}",
        "domain": "127.0.0.1",
        "path": "/",
    }
    page.context.add_cookies([cookie])


def to_resolve(organiser: Any) -> tuple[int, dict[str, str]]:
    """A campaign made through the API, `organiser`'s device its organiser, with turn 1's first battle waiting for
    its result: the fixed attack D-2 into C-3, defended by 25 Bde, played through the API by each side's seat (the
    taps that play it are test_campaign_page's). Returns its id and each side's token, and the organiser's."""
    made = organiser.request.post("/api/v1/campaigns", data={"name": "Club campaign"})
    assert made.status == 201, made.text()
    campaign_id = int(made.json()["campaign"]["id"])
    tokens = {}
    for side, code in made.json()["join_codes"].items():
        joined = organiser.request.post("/api/v1/campaigns/join", data={"code": code})
        assert joined.status == 200, joined.text()
        tokens[side] = str(joined.json()["token"])
    for version, (side, act) in enumerate(TO_RESOLVE, start=1):
        acted = organiser.request.post(
            f"/api/v1/campaigns/{campaign_id}/actions",
            headers=bearer(tokens[side]),
            data={**act, "version": version},
        )
        assert acted.status == 200, acted.text()
    tokens["organiser"] = made.json()["organiser_token"]
    seat(organiser, campaign_id, tokens["organiser"])
    return campaign_id, tokens


def test_a_campaign_battle_fought_on_the_table_and_one_whose_game_is_deleted(new_page: Any) -> None:
    # SQLite only (issue 33): what the campaign and its game store is the API tests' subject on both backends.
    organiser = new_page(TABLET_LANDSCAPE)
    campaign_id, tokens = to_resolve(organiser)
    organiser.goto(f"/campaigns/{campaign_id}")
    expect(organiser.locator("#campaign-board")).to_have_attribute("data-phase", "resolve")
    check_fit(organiser, "campaign-table-battle-open")

    # Open: the new game's codes on its own page, with the link back to the campaign battle.
    organiser.get_by_role("button", name="Fight this battle on the table").click()
    organiser.wait_for_url(re.compile(r"/games/\d+/created$"))
    game_id = int(organiser.url.rstrip("/").split("/")[-2])
    token = (organiser.locator("[data-referee-token]").text_content() or "").strip()
    assert len(token) > 30
    back = organiser.get_by_role("link", name="Campaign battle: Club campaign, turn 1 battle 1")
    expect(back).to_have_attribute("href", f"/campaigns/{campaign_id}")
    check_fit(organiser, "campaign-table-battle-created")
    organiser.goto(f"/games/{game_id}/referee")
    expect(organiser.locator("[data-campaign-battle]")).to_contain_text("turn 1 battle 1")
    expect(organiser.locator("#log")).to_contain_text("Campaign battle: Club campaign, turn 1 battle 1")
    check_fit(organiser, "campaign-table-battle-referee")

    # A player sees the way into their own side of the game, and no code of the game.
    bef = new_page(TABLET_LANDSCAPE)
    seat(bef, campaign_id, tokens["bef"])
    bef.goto(f"/campaigns/{campaign_id}")
    expect(bef.get_by_role("button", name="Play the BEF side (defender)")).to_be_visible()
    expect(bef.get_by_role("button", name="Fight this battle on the table")).to_have_count(0)
    assert token not in bef.content()

    # The referee starts the game and, when the evening is over, ends it on the referee screen it has open (two
    # taps).
    expect(organiser.locator("[data-end-game]")).to_have_count(0)  # not before the game has started
    organiser.get_by_role("button", name="Start the game").click()
    end = organiser.locator("[data-end-game]")
    expect(end).to_have_count(1)
    expect(end.get_by_role("button", name="Yes, end the game")).not_to_be_visible()
    end.locator("summary").click()
    check_fit(organiser, "referee-end-game")
    with organiser.expect_navigation():
        end.get_by_role("button", name="Yes, end the game").click()
    expect(organiser.locator("#turn")).to_contain_text("Finished")
    expect(organiser.locator("[data-end-game]")).to_have_count(0)

    # On the referee screen, the game's referee says who holds the field for the campaign.
    offer = organiser.locator("[data-campaign-offer]")
    expect(offer).to_contain_text("Result for the campaign: who holds the field?")
    check_fit(organiser, "campaign-table-battle-game-offer")
    offer.locator("label.chip", has_text="The defender").click()
    offer.get_by_role("button", name="Offer the result to the campaign").click()
    organiser.wait_for_url(re.compile(rf"/games/{game_id}/referee$"))
    shown = organiser.locator("[data-campaign-offer-shown]")
    expect(shown).to_contain_text("Offered to the campaign")
    expect(shown).to_contain_text("waiting for the organiser")
    expect(organiser.locator("[data-campaign-offer]")).to_have_count(0)
    check_fit(organiser, "campaign-table-battle-game-offered")

    # Back on the campaign page: the offer, then Confirm.
    organiser.get_by_role("link", name="Campaign battle: Club campaign, turn 1 battle 1").click()
    organiser.wait_for_url(re.compile(rf"/campaigns/{campaign_id}$"))
    expect(organiser.locator("[data-offer]")).to_contain_text("The table's result")
    check_fit(organiser, "campaign-table-battle-offer")
    organiser.locator("[data-confirm-result]").click()
    board = organiser.locator("#campaign-board")
    expect(board).not_to_have_attribute("data-phase", "resolve")
    link = organiser.locator(f".cmp-log [data-game-link='{game_id}']").first
    expect(link).to_contain_text(f"Result of table game #{game_id} confirmed")
    expect(link).to_have_attribute("href", f"/games/{game_id}/referee")
    check_fit(organiser, "campaign-table-battle-confirmed")

    # Another campaign's battle, opened through the API, whose game is deleted before its result and the next
    # game may get its id (SQLite): the campaign's log names no game, and the page still fits.
    campaign_id, tokens = to_resolve(organiser)
    opened = organiser.request.post(
        f"/api/v1/campaigns/{campaign_id}/table-battles", headers=bearer(tokens["organiser"]), data={}
    )
    assert opened.status == 201, opened.text()
    game_id = int(opened.json()["table_battle"]["game_id"])
    gone = organiser.request.delete(
        f"/api/v1/games/{game_id}", headers=bearer(opened.json()["referee_token"])
    )
    assert gone.status == 204, gone.text()
    later = organiser.request.post("/api/v1/games", data={"name": "Another evening"})
    assert later.status == 201, later.text()
    later_id = later.json()["game"]["id"]
    organiser.goto(f"/campaigns/{campaign_id}")
    log = organiser.locator(".cmp-log")
    expect(log).to_contain_text("Table game of turn 1 battle 1 (C-3): game deleted")
    expect(log).to_contain_text("a table game (game deleted)")
    expect(organiser.locator(f"a[href^='/games/{later_id}/']")).to_have_count(0)
    expect(organiser.locator(".tb-past")).to_contain_text("its game was deleted")
    check_fit(organiser, "campaign-table-battle-deleted")
