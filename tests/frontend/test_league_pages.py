"""The league's pages in the browser (issue 63), by taps: a newcomer opens the leagues from the start page,
starts one, chooses a club's bundle file, sees it wait with its key's fingerprint, says yes, and reads the table;
an event's organiser opens the page of its results for a league. Each page at the four sizes: no sideways
scroll, finger-sized controls, every control labelled, axe-core clean (tests/artifacts/ under
FIRESTEP_SCREENSHOTS=1, to look at)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from playwright.sync_api import expect

from app.club import signing
from app.services.league import fingerprint
from tests.app.league.test_league import signed
from tests.frontend.test_accessibility import SIZES
from tests.frontend.test_event_day import check

pytestmark = pytest.mark.browser


def at_every_size(page: Any, name: str) -> None:
    for size in SIZES:
        page.set_viewport_size(size)
        check(page, name)


def test_a_league_by_taps(new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    page.goto("/")
    page.get_by_role("link", name="The leagues").click()
    at_every_size(page, "leagues")
    page.get_by_label("Name").fill("Somme league")
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", name="Somme league")).to_be_visible()
    key = Ed25519PrivateKey.generate()
    # A club's name as long as the field takes and a key's fingerprint: both must wrap on a phone.
    club = "The Royal Borough of Kensington and Chelsea Wargames Society"
    bundle = signed(
        key,
        club=club,
        players={"attacker": ["Annabel Fotheringham-Smythe", club], "defender": ["Bob", "Arras"]},
    )
    path = tmp_path / "round-1-table-1.json"
    path.write_text(json.dumps(bundle))
    page.get_by_label("The bundle file a club exported (.json)").set_input_files(str(path))
    page.get_by_role("button", name="Import it").click()
    expect(page.get_by_role("status")).to_contain_text("waiting for your yes below")
    expect(page.locator("#pending")).to_contain_text(fingerprint(signing.public_hex(key)))
    at_every_size(page, "league-pending")
    page.get_by_role("button", name=f"Yes, trust {club}").click()
    expect(page.locator("#table")).to_contain_text("Annabel Fotheringham-Smythe")
    expect(page.locator("#keys")).to_contain_text(fingerprint(signing.public_hex(key)))
    at_every_size(page, "league-table")

    page.goto("/events")
    page.get_by_label("Name").fill("Club night")
    page.get_by_label("Period").fill("early")
    page.get_by_role("button", name="Make the event").click()
    page.get_by_role("link", name="Results for a league").click()
    expect(page.get_by_role("heading", name="Club night: results for a league")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Its fingerprint, to compare")
    at_every_size(page, "event-bundles")
