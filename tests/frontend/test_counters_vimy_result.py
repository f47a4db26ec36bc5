"""A Vimy Ridge combat from the card to its result applied, by taps, from the start page with nothing entered
through the API (issue 89): the referee builds a scenario of two counters in the club's editor, makes a game of
it in the lobby and sets its counters up on the page of counters, one typed on the wrong hex and moved from its
card (a player's own counter moves in set-up); the Canadian and German players join by their codes on the start
page. The game stepped to its combat phase: the Canadian attacks (the counter, Attack, the defender, the die: a
D2); the roll's card names the German counter's result as the German player's; on the German tablet the step's
need opens the counter's card, which offers its losses and a retreat to each hex the rules allow, a tap each;
the retreat tapped, the Canadian card offers the advance into the hex left, tapped; both counters stand where
the taps put them. The cards with the results at the four sizes: every target 44 px, nothing scrolled sideways,
axe-core clean. The rules of each choice are the rules and API tiers'. Hex numbers are a club example."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from rules.registry import get_ruleset
from tests.frontend.axe import serious_violations
from tests.frontend.conftest import (
    PHONE,
    REFEREE_SCREEN,
    TABLET_LANDSCAPE,
    TABLET_PORTRAIT,
    assert_no_horizontal_scroll,
    centre_on_top,
    screenshot,
    small_targets,
)
from tests.frontend.games import join

pytestmark = [pytest.mark.browser, pytest.mark.long]

# The order of battle: (side, division, name, attack, defence), each counter 3 steps of movement, 3-2 depleted.
ORDER = (("attacker", "1st Canadian", "1st Bn", 6, 4), ("defender", "79th Reserve", "RIR 262", 4, 4))


def on_top(page: Any, target: Any) -> None:
    """A tap by touch at the target's centre, scrolled into view: the topmost thing there."""
    expect(target).to_be_visible()
    at = centre_on_top(page, target, scroll=True)
    assert at["onTop"], at
    target.tap()


def clear_of_the_card(page: Any, counter: Any) -> bool:
    """The counter wholly in sight with the card nothing over any of it, as the page stands (not scrolled)."""
    expect(counter).to_be_visible()
    return bool(
        counter.evaluate(
            """(el) => { const r = el.getBoundingClientRect(), c = document.querySelector("[data-counter-card]").getBoundingClientRect();
                 return r.top >= 0 && r.bottom <= innerHeight && (r.bottom <= c.top || r.top >= c.bottom || r.right <= c.left || r.left >= c.right); }"""
        )
    )


# The top bar's links as the page stands: each one shown is shown whole, with nothing over its centre (the newcomer
# pass at 390x844: "Lookup" read "Looku", cut at the Menu button); one past the bar's room is not shown at all.
CUT_LINKS = """() => { const nav = document.querySelector(".mainnav").getBoundingClientRect();
  return [...document.querySelectorAll(".mainnav a")].filter((a) => {
    const r = a.getBoundingClientRect(), shown = r.right > nav.left && r.left < nav.right && r.bottom > nav.top && r.top < nav.bottom;
    return shown && (r.left < nav.left || r.right > nav.right || r.bottom > nav.bottom
      || !a.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)));
  }).map((a) => a.textContent.trim()); }"""


def looked_at(page: Any, name: str) -> None:
    """The page at the four sizes: laid out, the top bar's links whole or not shown, every target 44 px, axe-core
    clean; back to the tablet."""
    for viewport in (TABLET_PORTRAIT, PHONE, REFEREE_SCREEN, TABLET_LANDSCAPE):
        page.set_viewport_size(viewport)
        screenshot(page, name)
        assert page.evaluate(CUT_LINKS) == [], viewport
        assert_no_horizontal_scroll(page)
        assert small_targets(page) == [], viewport
        assert serious_violations(page) == [], viewport


def built(page: Any) -> None:
    """The scenario built in the club's editor from the start page and saved."""
    page.goto("/")
    page.get_by_role("link", name=f"Build a {get_ruleset('vimy-ridge').name} scenario").tap()
    expect(page.locator("[data-club-editor][data-loaded='true']")).to_be_visible()
    page.get_by_label("Title").fill("Vimy, one combat")
    for side, division, name, attack, defence in ORDER:
        page.locator(f"[data-club-add='{side}']").tap()
        row = page.locator(f"[data-club-counter='{side}']").last
        row.get_by_label("Name").fill(name)
        if side == "defender":  # the German divisions the book names are chosen (19.1)
            row.get_by_label("Division").select_option(division)
        else:
            row.get_by_label("Division").fill(division)
        for label, value in (("Attack", attack), ("Defence", defence), ("Movement allowance", 3)):
            row.get_by_label(label, exact=True).fill(str(value))
        for label, value in (("Attack (depleted)", 3), ("Defence (depleted)", 2)):
            row.get_by_label(label).fill(str(value))
    page.locator("[data-club-save]").tap()
    expect(page.locator("[data-club-message]")).to_contain_text("Saved")


def test_a_vimy_combat_from_the_card_to_its_result_applied_by_taps(new_page: Any) -> None:
    referee = new_page(TABLET_LANDSCAPE, has_touch=True)
    errors: list[str] = []
    referee.on("pageerror", lambda e: errors.append(str(e)))
    built(referee)
    referee.goto("/")
    referee.locator("label.chip", has_text="Vimy, one combat").tap()
    with referee.expect_navigation(url=re.compile(r"/games/\d+/created")):
        referee.get_by_role("button", name="Create game").tap()
    game = int(re.findall(r"/games/(\d+)/", referee.url)[0])
    codes = {el.get_attribute("data-join-code"): el.inner_text().strip() for el in referee.locator("[data-join-code]").all()}  # fmt: skip
    referee.locator("#main").get_by_role("link", name="Counters").tap()
    expect(referee.locator("[data-setup]")).to_be_visible()

    # Set-up: the German counter typed on the wrong hex, then moved from its own card (in set-up, before play).
    for name, where in (("1st Bn", "0910"), ("RIR 262", "1012")):
        on_top(referee, referee.get_by_label(re.compile(rf"^{name}: its hex")))
        referee.keyboard.type(where)
        on_top(referee, referee.get_by_role("button", name=f"Place {name}", exact=True))
        expect(referee.locator(f"[data-counter-group='place-{where}']")).to_contain_text(name)
    on_top(referee, referee.locator("[data-counter-group='place-1012'] [data-counter]"))
    moves = referee.locator("[data-place-form]")
    on_top(referee, moves.get_by_label("Set up in another hex"))
    referee.keyboard.type("1010")
    on_top(referee, moves.get_by_role("button", name="Move", exact=True))
    expect(referee.locator("[data-counter-group='place-1010']")).to_contain_text("RIR 262")
    expect(referee.locator("[data-counter-group='place-1012']")).to_have_count(0)

    # The players join by their codes on the start page, each on a tablet of their own.
    seats = {}
    for side in ("attacker", "defender"):
        seats[side] = new_page(TABLET_LANDSCAPE, has_touch=True)
        seats[side].on("pageerror", lambda e: errors.append(str(e)))
        join(seats[side], codes[side])
        seats[side].goto(f"/games/{game}/counters")
        expect(seats[side].locator("[data-counters-page][data-loaded='2']")).to_be_visible()
    canadian, german = seats["attacker"], seats["defender"]
    ids = {
        name: int(referee.locator("[data-counter]", has_text=name).first.get_attribute("data-counter") or 0)
        for name in ("1st Bn", "RIR 262")
    }

    # The referee starts the game and steps it to the Canadian combat phase (Zero Hour, 15.2).
    now = referee.locator("[data-turn-now]")
    for _ in range(4):
        if "Combat phase" in (now.text_content() or ""):
            break
        with referee.expect_response(lambda r: r.url.endswith("/turn/advance")) as answered:
            on_top(referee, referee.locator("[data-next-step]"))
        assert answered.value.ok, answered.value.text()
        expect(now).to_contain_text(answered.value.json()["turn"]["step"]["title"].strip())
    expect(now).to_contain_text("Canadian: Combat phase")

    # The combat: the attacking counter, Attack, the defender, the die (6 against 4 on Clear, +2: a 1 reads D2).
    expect(canadian.locator("[data-turn-now]")).to_contain_text("Combat phase")
    on_top(canadian, canadian.locator(f"[data-counter='{ids['1st Bn']}']"))
    on_top(canadian, canadian.get_by_role("button", name="Attack", exact=True))
    expect(canadian.locator("[data-play-prompt]")).to_contain_text("Tap the German counter it attacks")
    on_top(canadian, canadian.locator(f"[data-counter='{ids['RIR 262']}']"))
    expect(canadian.locator("[data-play-odds]")).to_be_visible()
    on_top(canadian, canadian.locator(".play-dice").get_by_role("button", name="Die showing 1", exact=True))
    expect(canadian.locator("[data-play-done]")).to_have_attribute("data-play-outcome", "D2")
    # The roll's card says whose result is to apply: the German's counter, the German player's.
    results = canadian.locator("[data-play-results]")
    expect(results.locator("[data-result-theirs]")).to_contain_text("RIR 262: apply the D2")
    expect(results.locator("[data-result-theirs]")).to_contain_text("the German player applies it")
    expect(canadian.locator("[data-play-effects]")).to_have_count(0)  # no "apply it yourselves"
    looked_at(canadian, "counters-vimy-result-theirs")

    # The German tablet: the step's need opens the counter's card; its losses and retreats a tap each.
    need = german.locator("[data-step-needs]").get_by_role(
        "button", name=re.compile(r"RIR 262: apply the D2")
    )
    on_top(german, need)
    expect(german.locator("[data-card-name]")).to_have_text("RIR 262")
    expect(
        german.get_by_role("group", name="Combat result").get_by_role("button", name="Step loss")
    ).to_be_visible()
    retreat = german.get_by_role("group", name="Retreat", exact=True)
    expect(retreat.get_by_role("button")).to_have_text(
        ["Retreat to hex 1011", "Retreat to hex 1110", "Retreat to hex 1111"]
    )  # the hexes a step away and farther from the attacker (the combat-move erratum)
    looked_at(german, "counters-vimy-retreat-choices")
    german.set_viewport_size(PHONE)  # the newcomer pass's phone: the card at its foot, over the counters
    on_top(german, retreat.get_by_role("button", name="Retreat to hex 1110", exact=True))
    expect(german.locator("[data-counter-group='place-1110']")).to_contain_text("RIR 262")
    moved = german.locator(f"[data-counter-group='place-1110'] [data-counter='{ids['RIR 262']}']")
    assert clear_of_the_card(german, moved), "the counter that retreated is under its card"
    screenshot(german, "counters-vimy-retreated")
    german.set_viewport_size(TABLET_LANDSCAPE)
    expect(german.get_by_role("group", name="Retreat", exact=True)).to_have_count(0)  # applied once

    # The Canadian's card of the roll, read anew as the retreat arrives: the advance into the hex left, a tap.
    ours = results.locator(f"[data-result-for='{ids['1st Bn']}']")
    advance = ours.get_by_role("button", name="Advance to hex 1010", exact=True)
    expect(advance).to_be_visible()
    looked_at(canadian, "counters-vimy-result-ours")
    on_top(canadian, advance)
    expect(canadian.locator("[data-counter-group='place-1010']")).to_contain_text("1st Bn")
    expect(canadian.locator("[data-play-effects]")).to_contain_text("Nothing left to apply of it.")
    expect(referee.locator("[data-counter-group='place-1110']")).to_contain_text("RIR 262")
    expect(referee.locator("[data-counter-group='place-1010']")).to_contain_text("1st Bn")
    assert errors == []
