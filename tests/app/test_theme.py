"""Night or Day kept on a device (app/pages/theme.py): the choice is a cookie every page is drawn by (night.css
for all media at night, none by day; the system's setting, or the page's own, with none chosen), and the page
gone back to is one of this site's only. The button and the reload are the browser's (tests/frontend/test_theme.py)."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import new_game
from tests.app.test_score_panel import seated

SAME_SITE = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}


def night_media(client: TestClient, path: str) -> str:
    found = re.search(
        r'href="[^"]*/night\.css[^"]*" media="([^"]*)" data-night>',
        client.get(path).text,
    )
    assert found is not None
    return found.group(1)


def test_the_colours_chosen_draw_every_page_and_go_back_to_this_site_only(sqlite_client: TestClient) -> None:
    c = sqlite_client
    assert night_media(c, "/lookup") == "(prefers-color-scheme: dark)"
    for theme, media in (("night", "all"), ("day", "not all")):
        r = c.post("/theme", data=csrf.form(c, {"theme": theme, "back": "/lookup?x=1"}), headers=SAME_SITE,
                   follow_redirects=False)  # fmt: skip
        assert (r.status_code, r.headers["location"]) == (303, "/lookup?x=1")
        assert night_media(c, "/lookup") == media
    for elsewhere in ("//evil.example/", "/\\evil.example", "https://evil.example/"):
        r = c.post("/theme", data=csrf.form(c, {"theme": "night", "back": elsewhere}), headers=SAME_SITE,
                   follow_redirects=False)  # fmt: skip
        assert r.headers["location"] == "/"
    r = c.post("/theme", data=csrf.form(c, {"theme": "dusk"}), headers=SAME_SITE, follow_redirects=False)
    assert r.status_code == 422


def test_the_colours_are_set_by_this_site_s_form_only(sqlite_client: TestClient) -> None:
    """A device's colours, kept 400 days, are its own choice: another site's page posting /theme (no seat needed)
    is refused as a page's form without its token is, and sets no cookie (the hostile pass: 303 and the cookie)."""
    c = sqlite_client
    forged = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    for data, headers in (({"theme": "night"}, forged), ({"theme": "night"}, SAME_SITE)):
        r = c.post("/theme", data=data, headers=headers, follow_redirects=False)
        assert r.status_code == 403 and "firestep-theme" not in r.headers.get("set-cookie", ""), r.status_code
    assert night_media(c, "/lookup") == "(prefers-color-scheme: dark)"


def test_the_colours_chosen_on_a_page_of_a_long_address_go_back_to_its_path(
    sqlite_client: TestClient,
) -> None:
    """A page whose address is longer than the way back the form takes (2,000 characters, a lookup's long query)
    sends its path alone: Night tapped there set the colours (the hostile pass: a 422 of JSON, nothing set)."""
    c = sqlite_client
    page = c.get("/lookup?q=" + "a" * 2100).text
    back = re.search(r'name="back" value="([^"]*)"', page)
    assert back is not None
    r = c.post("/theme", data=csrf.form(c, {"theme": "night", "back": back.group(1)}), headers=SAME_SITE,
               follow_redirects=False)  # fmt: skip
    assert (r.status_code, r.headers.get("location")) == (303, "/lookup"), r.text[:200]


def test_the_pages_a_device_first_comes_to_offer_night_or_day(sqlite_client: TestClient) -> None:
    """The newcomer's pass: the start page, the events and the leagues had no menu, so no Night or Day where a device
    first is (only a game's pages and the lookup had it)."""
    for path in ("/", "/events", "/leagues", "/lookup"):
        page = sqlite_client.get(path)
        assert page.status_code == 200, path
        assert re.search(r'<form method="post" action="/theme">', page.text), path
        assert 'name="theme" value="night"' in page.text and 'name="theme" value="day"' in page.text, path
    # The start page drawn in answer to a form (a join refused) goes back to the start page, not to the form's
    # address, which takes no GET.
    refused = sqlite_client.post(
        "/join", data=csrf.form(sqlite_client, {"code": "NOPE-NOPE"}), headers=SAME_SITE
    )
    assert refused.status_code == 422 and 'action="/theme"' in refused.text, refused.text
    assert '<input type="hidden" name="back" value="/">' in refused.text


def test_the_campaigns_pages_offer_night_or_day(sqlite_client: TestClient) -> None:
    """The campaigns' list, a new campaign's codes, its board (the organiser's), and the campaign seen by a device
    with no seat in it (its join form, 401) each carry the menu's Night or Day (the campaigns' pages, drawn by
    campaign.html, had no menu: a device could not choose there)."""
    c = sqlite_client
    made = c.post("/campaigns/new", data=csrf.form(c, {"name": "Club night"}), headers=SAME_SITE)
    cid = int(made.text.split('data-campaign-created="')[1].split('"')[0])
    pages = {"list": c.get("/campaigns"), "created": made, "board": c.get(f"/campaigns/{cid}")}
    c.cookies.clear()
    pages["no seat"] = c.get(f"/campaigns/{cid}")
    for name, status in (("list", 200), ("created", 200), ("board", 200), ("no seat", 401)):
        page = pages[name]
        assert page.status_code == status, (name, page.status_code)
        assert '<form method="post" action="/theme">' in page.text, name
        assert 'name="theme" value="night"' in page.text and 'name="theme" value="day"' in page.text, name
    assert 'id="campaign-board"' in pages["board"].text  # the organiser's board itself, not its join form
    assert '<input type="hidden" name="back" value="/campaigns">' in pages["list"].text


def pressed(client: TestClient, path: str) -> tuple[list[str], str]:
    """The menu's colours pressed on a page (each button's value whose aria-pressed is true), and its note."""
    page = client.get(path).text
    buttons = re.findall(r'name="theme" value="(\w+)" aria-pressed="(true|false)"', page)
    note = re.search(r'<p class="muted menu-note" id="theme-note" data-theme-note>([^<]*)</p>', page)
    assert buttons and note is not None, path
    return [value for value, on in buttons if on == "true"], html.unescape(note.group(1))


def test_the_switch_shows_the_colours_a_page_is_drawn_in_whatever_was_chosen(
    sqlite_client: TestClient,
) -> None:
    """With nothing chosen, Auto is pressed (neither Night nor Day was) and the note says what Auto is on this page:
    the device's own setting, or on the referee's board, night (its note said the device's setting, which that
    board does not follow); Auto chosen forgets Night or Day, so a device can go back to following its system."""
    c = sqlite_client
    g = new_game(c)
    seated(c, g, g.referee)
    board = f"/games/{g.id}/referee"
    assert pressed(c, "/lookup") == (["auto"], "Kept on this device. Auto: as the device's own setting.")
    assert pressed(c, board) == (
        ["auto"],
        "Kept on this device. Auto: this board at night, the other pages as the device's own setting.",
    )
    assert night_media(c, board) == "all"
    for theme, media in (("day", "not all"), ("night", "all"), ("auto", "(prefers-color-scheme: dark)")):
        r = c.post("/theme", data=csrf.form(c, {"theme": theme, "back": "/lookup"}), headers=SAME_SITE,
                   follow_redirects=False)  # fmt: skip
        assert (r.status_code, r.headers["location"]) == (303, "/lookup"), r.text
        assert night_media(c, "/lookup") == media, theme
        assert pressed(c, "/lookup")[0] == [theme], theme
        assert pressed(c, board)[0] == [theme], theme
    assert night_media(c, board) == "all"  # Auto again: the board at night
