"""The start page's ways on, without a browser (following a link adds nothing a browser must prove): to the
scenario editor and to the campaigns, each page answering, and the main navigation marking the campaigns."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def link(html: str, text: str) -> str:
    """The href of the one link whose text is `text`."""
    found = re.findall(rf'<a\b[^>]*\bhref="([^"]+)"[^>]*>\s*{re.escape(text)}\s*</a>', html)
    assert len(found) == 1, (text, found)
    return found[0]


def test_the_start_page_leads_to_the_editor_and_the_campaigns(reading_client: TestClient) -> None:
    start = reading_client.get("/")
    assert start.status_code == 200
    editor = reading_client.get(link(start.text, "Build a Flanders Fields scenario"))
    assert (
        editor.status_code == 200
        and "data-scenario-editor" in editor.text
        and "data-scn-canvas" in editor.text
    )
    campaigns = reading_client.get(link(start.text, "Open the campaigns"))
    assert campaigns.status_code == 200 and str(campaigns.url).endswith("/campaigns")
    nav = re.search(r'<nav aria-label="Main"[^>]*>(.*?)</nav>', campaigns.text, re.S)
    assert nav, "no main navigation"
    current = re.findall(r'<a\b[^>]*aria-current="page"[^>]*>\s*([^<]+?)\s*</a>', nav.group(1))
    assert current == ["Campaigns"], current


def test_no_two_links_of_the_start_page_share_a_name_but_lead_apart(reading_client: TestClient) -> None:
    """Session 18's newcomer pass: three "Open" buttons, one a rule set without periods, each told apart only
    by the line above it (a screen reader's list of links read "Open" three times)."""
    start = reading_client.get("/").text
    links = re.findall(r'<a\b[^>]*\bhref="([^"]+)"[^>]*>(.*?)</a>', start, re.S)
    places: dict[str, set[str]] = {}
    for href, text in links:
        places.setdefault(re.sub(r"<[^>]+>|\s+", " ", text).strip(), set()).add(href)
    assert {name: hrefs for name, hrefs in places.items() if len(hrefs) > 1} == {}
