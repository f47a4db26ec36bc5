"""In a game, the reading under a lookup's answer is the game's: its referee makes the other one the game's in one
tap (the same change PATCH /api/v1/games/{id} makes, logged), the roll asked again by it; a side's seat is told
why it may not (issue 69). The page outside a game: tests/app/test_lookup_readings.py."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import COOKIE_NAME, new_game
from tests.app.test_lookup_readings import RAW_SHOT, URL

HX = {"HX-Request": "true"}


def _as(c: TestClient, headers: dict[str, str]) -> None:
    c.cookies.set(COOKIE_NAME, headers["Authorization"].removeprefix("Bearer "))


def test_the_referee_makes_the_other_reading_the_games_and_a_side_is_told_why_not(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    game = new_game(c)  # Mons 1914: early war
    shot = {k: v for k, v in RAW_SHOT.items() if k != "period"} | {"_game": str(game.id), "dice.0": "3"}
    _as(c, game.attacker)
    side = c.post(URL, data=csrf.form(c, shot), headers=HX)
    assert "Reading: Raw troops shooting: Playsheet</strong> (default)" in side.text
    assert "Only the referee changes the readings this game plays." in side.text
    # The side's lookup hears the referee's change of a reading (its stream, result-line.js marking a line asked
    # before it: data-as-of, the newest event it was asked after); the newcomer pass: it kept the old answer.
    newest = c.get(f"/api/v1/games/{game.id}/events", headers=game.referee).json()[-1]["id"]
    assert f'data-play-reading-line data-as-of="{newest}"' in side.text
    page = c.get(f"{URL}?game={game.id}").text
    assert (
        f'data-live-stream="/api/v1/games/{game.id}/stream"' in page and f'data-live-after="{newest}"' in page
    )
    assert "js/live.js" in page and "js/result-line.js" in page
    assert 'name="_reading"' not in side.text
    forged = c.post(URL, data=csrf.form(c, {**shot, "_reading": "raw-firer-penalty=main-text"}), headers=HX)
    assert "<strong>Reading</strong>: Only the referee changes" in forged.text
    assert c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["variants"] == {}
    # Nor at a game's creation, nor in a scenario (the second hostile pass: both were 201).
    made = c.post(
        "/api/v1/games", json={"scenario": "mons-1914", "variants": {"mid-firing-table": "late-table"}}
    )
    assert made.status_code == 422 and "mid-firing-table" in made.text, made.text

    c.cookies.clear()
    _as(c, game.referee)
    offered = c.post(URL, data=csrf.form(c, shot), headers=HX)
    assert 'name="_reading" value="raw-firer-penalty=main-text">Play it by: Main text<' in offered.text
    tapped = c.post(URL, data=csrf.form(c, {**shot, "_reading": "raw-firer-penalty=main-text"}), headers=HX)
    assert tapped.status_code == 200 and 'class="errors"' not in tapped.text
    assert "Reading: Raw troops shooting: Main text</strong> (a variant)" in tapped.text
    detail = c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()
    assert detail["variants"] == {"raw-firer-penalty": "main-text"}
    events = c.get(f"/api/v1/games/{game.id}/events", headers=game.referee).json()
    assert events[-1]["kind"] == "game-updated" and events[-1]["payload"]["fields"] == ["variants"]
    # The record names the erratum and the reading now played, not "Game updated" (the newcomer pass).
    assert events[-1]["payload"]["readings"] == ["Raw troops shooting: main text"]
    # Asked by the new reading: the notice does not mark it.
    assert f'data-as-of="{events[-1]["id"]}"' in tapped.text
    board = c.get(f"/games/{game.id}/referee").text
    assert "now plays Raw troops shooting: main text" in board
    # The hostile pass: the same tap again changed nothing yet made a new version (the other devices' next write a
    # 409) and logged an empty edit; and PATCH changed a finished game's readings, which the page said stand.
    again = c.post(URL, data=csrf.form(c, {**shot, "_reading": "raw-firer-penalty=main-text"}), headers=HX)
    assert again.status_code == 200 and 'class="errors"' not in again.text
    assert c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["version"] == detail["version"]
    version = detail["version"]
    assert c.post(
        f"/api/v1/games/{game.id}/finish", headers=game.referee, json={"version": version}
    ).is_success
    version = c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["version"]
    patched = c.patch(
        f"/api/v1/games/{game.id}", headers=game.referee, json={"version": version, "variants": {}}
    )
    assert patched.status_code == 409
    assert patched.json()["detail"] == "The game is finished: its readings stand as it was played."


def test_a_reading_of_another_periods_erratum_is_refused_naming_it(sqlite_client: TestClient) -> None:
    """The hostile pass of issue 69: PATCH stored a reading of an erratum disputed only in another period (kept
    unplayed, it would be played unseen if the period changed); a 422 naming the field, in one short sentence."""
    c = sqlite_client
    game = new_game(c)  # Mons 1914: early war; the mid firing table's heading is disputed in mid war only
    version = c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["version"]
    body = {"version": version, "variants": {"mid-firing-table": "late-table"}}
    refused = c.patch(f"/api/v1/games/{game.id}", headers=game.referee, json=body)
    assert refused.status_code == 422, refused.text
    out = refused.json()
    assert out["errors"][0]["loc"] == ["body", "variants", "mid-firing-table"], out
    assert out["detail"].startswith("That rule is disputed only in ") and len(out["detail"]) <= 120, out
    assert c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["variants"] == {}


def test_an_open_answer_asked_again_after_the_referees_change_is_the_new_readings(
    sqlite_client: TestClient,
) -> None:
    """Issue 89: a side's open answer was marked stale as the referee played another reading, yet still read "No
    effect" where the reading now played answers "Suppressed". Its form sent again with the change's event
    (result-line.js, `_reasked`) is answered by the game's reading now, and says so, naming it."""
    c = sqlite_client
    game = new_game(c)  # Mons 1914: early war
    shot = {k: v for k, v in RAW_SHOT.items() if k != "period"} | {"_game": str(game.id), "dice.0": "3"}
    _as(c, game.attacker)
    before = c.post(URL, data=csrf.form(c, shot), headers=HX).text
    assert 'outcome-no-effect">No effect<' in before and "data-reasked>" not in before
    version = c.get(f"/api/v1/games/{game.id}", headers=game.referee).json()["version"]
    played = {"version": version, "variants": {"raw-firer-penalty": "main-text"}}
    assert c.patch(f"/api/v1/games/{game.id}", headers=game.referee, json=played).is_success
    change = c.get(f"/api/v1/games/{game.id}/events", headers=game.attacker).json()[-1]["id"]
    again = c.post(URL, data=csrf.form(c, {**shot, "_reasked": str(change)}), headers=HX).text
    assert 'outcome-suppressed">Suppressed<' in again
    said = "Answered again by the reading the referee now plays: Raw troops shooting: main text."
    assert f"data-reasked>{said}</p>" in again
    assert "Reading: Raw troops shooting: Main text</strong> (a variant)" in again
    assert f'data-as-of="{change}"' in again  # asked after the change: not marked by it
