"""The Print menu without a browser (moved from test_club_offline.py, issue 33: links in HTML are the HTTP
tier's): every game page and the game's lookup link the printables of the device's seat, each answers as
that seat, and the lookup outside a game links the period playsheets and the blank sheets."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import new_game, start_game

HREF = re.compile(r'(?:href|action)="([^"]+)"')


def print_links(html: str) -> set[str]:
    """The hrefs (and the forms' actions) inside the page's `[data-print-links]` block."""
    block = re.search(r"<[^>]*data-print-links[^>]*>(.*?)</(?:ul|nav|div|details)>", html, re.S)
    assert block, "no Print menu"
    return set(HREF.findall(block.group(1)))


@pytest.mark.parametrize("role", ["referee", "attacker"])
def test_every_game_page_and_the_lookup_link_the_printables_of_the_seat(
    sqlite_client: TestClient, role: str
) -> None:
    c = sqlite_client
    g = new_game(c)
    start_game(c, g)
    seat = g.referee if role == "referee" else g.attacker
    c.cookies.set(
        "firestep_token", seat["Authorization"].removeprefix("Bearer ")
    )  # the pages read the cookie
    links: set[str] = set()
    for url in [f"/games/{g.id}/{p}" for p in ("referee", "map", "fire-plan")] + [f"/lookup?game={g.id}"]:
        page = c.get(url)
        assert page.status_code == 200, url
        found = print_links(page.text)
        assert found, f"{url} has no Print menu for the {role}"
        links |= found
    assert f"/playsheets/games/{g.id}.pdf" in links
    assert f"/playsheets/games/{g.id}/aiming-points.pdf" in links
    assert "/playsheets/template-kit.pdf" in links
    assert "/api/v1/scenarios/mons-1914/sheet.pdf" in links  # the game's scenario
    assert f"/playsheets/games/{g.id}/fire-plan/attacker.pdf" in links
    if role == "referee":
        assert f"/playsheets/games/{g.id}/fire-plan/defender.pdf" in links
        assert f"/games/{g.id}/join-cards.pdf" in links
    else:
        # A side is offered nothing of the other side's, nor the join cards.
        assert f"/playsheets/games/{g.id}/fire-plan/defender.pdf" not in links
        assert f"/games/{g.id}/join-cards.pdf" not in links
    for href in sorted(links):
        # The join cards are a form (a post: printing them may make new codes); the rest are links.
        got = c.post(href, data=csrf.form(c)) if href.endswith("/join-cards.pdf") else c.get(href)
        assert got.status_code == 200, f"{role} {href}: {got.status_code}"
        assert got.headers["content-type"].startswith("application/pdf"), href


def test_the_lookup_outside_a_game_links_the_period_playsheets_and_the_blank_sheets(
    reading_client: TestClient,
) -> None:
    page = reading_client.get("/lookup/flanders-fields/order-roll?period=mid")
    links = print_links(page.text)
    assert {"/playsheets/mid.pdf", "/playsheets/template-kit.pdf", "/playsheets/aiming-points.pdf"} <= links
    for href in sorted(links):
        assert reading_client.get(href).status_code == 200, href


@pytest.mark.parametrize("ruleset", ["2mm-earth-1418", "vimy-ridge", "firestorm-villers-bretonneux"])
def test_the_lookup_of_another_rule_set_links_none_of_flanders_fields_blank_sheets(
    reading_client: TestClient, ruleset: str
) -> None:
    """Aiming-point cards, the fire-plan form and the template kit are Flanders Fields' (its appendix and its
    templates): the Print menu of another rule set's lookup does not offer them (the newcomer pass of issue 66
    found them under 2mm Earth 1418, Vimy Ridge and Firestorm)."""
    page = reading_client.get(f"/lookup?ruleset={ruleset}")
    assert page.status_code == 200
    links = print_links(page.text)
    flanders = {"/playsheets/aiming-points", "/playsheets/template-kit", "/playsheets/fire-plan/attacker"}
    assert not {link.removesuffix(".pdf") for link in links} & flanders, sorted(links)
