"""A page's form is read through its form model (issue 90): its fields read as the model declares them, where
the page cut them short unsaid; a field the model refuses re-renders the page naming the field and keeping what
was entered, a page and never FastAPI's JSON."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from tests import csrf
from tests.app.events.test_event_day import new_event


def alert(text: str) -> str:
    return html.unescape(text).split('role="alert"><p>', 1)[1].split("</p>", 1)[0]


def test_an_events_rounds_are_read_as_a_number_not_cut_and_refused_naming_the_field(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    form = {"name": "Saturday at Ypres", "game": "flanders-fields/early", "rounds": "0012"}
    made = c.post("/events", data=csrf.form(c, form), follow_redirects=False)
    assert made.status_code == 303, made.text[:300]
    event_id = made.headers["location"].rsplit("/", 1)[1]
    assert c.get(f"/api/v1/events/{event_id}").json()["rounds"] == 12  # cut to "001" before: 1 round
    page = c.post("/events", data=csrf.form(c, {**form, "name": "Sunday at Mons", "rounds": "13"}))
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), page.text[:300]
    said = alert(page.text)
    assert said.startswith("Fix the rounds:") and "12" in said and len(said) <= 120, said
    assert 'value="Sunday at Mons"' in page.text and 'value="13"' in page.text


def test_a_claims_event_name_past_its_bound_is_refused_naming_it_not_cut(sqlite_client: TestClient) -> None:
    c = sqlite_client
    made = c.post("/leagues", data=csrf.form(c, {"name": "Flanders league"}), follow_redirects=False)
    assert made.status_code == 303, made.text[:300]
    league = made.headers["location"]
    removed = c.post(f"{league}/claims/remove", data=csrf.form(c, {"event": "Autumn GT " + "x" * 80}))
    assert removed.status_code == 422 and removed.headers["content-type"].startswith("text/html")
    assert alert(removed.text) == "Event: name it in at most 80 characters."  # cut to 80 unsaid before


def test_a_league_name_past_its_bound_is_a_page_naming_it_never_the_apis_json(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    name = "Flanders league " + "x" * 80
    page = c.post("/leagues", data=csrf.form(c, {"name": name}), follow_redirects=False)
    assert page.status_code == 422 and page.headers["content-type"].startswith("text/html"), page.text[:300]
    said = alert(page.text)
    assert said.startswith("Fix the name:") and "80 characters" in said and len(said) <= 120, said
    assert c.get("/api/v1/leagues").json() == []  # cut to 80 and made before


def test_an_events_sign_in_past_the_guesses_allowed_is_a_page_saying_how_long_to_wait(
    migrated_url: str, tmp_path: Path
) -> None:
    settings = Settings(database_url=migrated_url, var_dir=tmp_path, join_attempt_limit="3 per 1 minute")
    with TestClient(create_app(settings)) as c:
        event_id, _organiser = new_event(c, rounds=1)
        for _ in range(3):
            wrong = c.post(f"/events/{event_id}/sign-in", data=csrf.form(c, {"token": "guess"}))
            assert wrong.status_code == 200 and "not an organiser's token" in alert(wrong.text)
        waited = c.post(f"/events/{event_id}/sign-in", data=csrf.form(c, {"token": "guess"}))
        assert waited.status_code == 429 and 1 <= int(waited.headers["Retry-After"]) <= 60
        said = alert(waited.text)  # an empty answer before
        assert said.startswith("Too many wrong join codes from this device: Wait") and len(said) <= 120, said


def test_a_join_code_refused_stays_in_its_field_on_the_start_and_the_campaigns_pages(
    sqlite_client: TestClient,
) -> None:
    # Nothing entered is lost (the newcomer pass: each wrong code left the field empty to type again).
    c = sqlite_client
    for path, code in (("/join", "ABCDE-FGH2Z"), ("/campaigns/join", "ZZZZZ-ZZZZZ")):
        page = c.post(path, data=csrf.form(c, {"code": code}))
        assert page.status_code in (403, 404, 422) and f'value="{code}"' in page.text, page.text[:300]
    named = c.post("/campaigns/new", data=csrf.form(c, {"name": "x" * 201}))
    assert named.status_code == 422 and f'value="{"x" * 201}"' in named.text


def test_a_clubs_key_refused_stays_in_its_field_on_the_leagues_page(sqlite_client: TestClient) -> None:
    c = sqlite_client  # the newcomer pass: the key refused, its field emptied
    made = c.post("/leagues", data=csrf.form(c, {"name": "Flanders league"}), follow_redirects=False)
    page = c.post(
        f"{made.headers['location']}/keys", data=csrf.form(c, {"club": "Ypres", "public_key": "not-a-key"})
    )
    assert "64 hex digits" in page.text and 'value="not-a-key"' in page.text and 'value="Ypres"' in page.text


def test_no_link_writes_in_the_events_pages_alert(sqlite_client: TestClient) -> None:
    # The hostile pass: `?error=` was the page's own parameter, so a link put any sentence in its alert.
    c = sqlite_client
    made = c.post("/events", data=csrf.form(c, {"name": "Ypres", "game": "flanders-fields/early"}))
    event = made.url.path
    lure = "Your organiser key is HACKED, enter it at evil.example"
    for path in ("/events", event):
        page = c.get(f"{path}?error={lure}")
        assert page.status_code == 200 and "HACKED" not in page.text, path
