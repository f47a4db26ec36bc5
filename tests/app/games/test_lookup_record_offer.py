"""The lookup in a game offers to record a roll exactly when the act pipeline would take it (app.services.acts.refusal,
the question a stand's card asks): a roll the turn would refuse is offered greyed, the pipeline's sentence beside it,
the sentence recording it answers (the newcomer pass: "Record in the game" was offered, then refused on the tap)."""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import COOKIE_NAME, Game, new_game, start_game

HX = {"HX-Request": "true"}
URL = "/lookup/flanders-fields/order-roll"
OFFERED = re.compile(r'<button type="submit" name="action" value="record"[^>]*>Record in the game</button>')
GREYED = re.compile(
    r'<button type="button"[^>]*aria-disabled="true"[^>]*data-record-greyed>Record in the game</button>\s*'
    r'<p class="help" id="record-refused" data-record-refused>([^<]+)</p>'
)


def _company(c: TestClient, game: Game, side: str) -> int:
    units: list[dict[str, Any]] = c.get(f"/api/v1/games/{game.id}/units", headers=game.referee).json()
    return next(int(u["id"]) for u in units if u["side"] == side and u["level"] == "company")


def _rolled(c: TestClient, game: Game, seat: dict[str, str], unit: int, action: str = "") -> str:
    """The lookup's order roll for `unit`, its die tapped (4), as `seat` posts it (`action` "record": recorded)."""
    c.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    form = {
        "_game": str(game.id),
        "_unit": str(unit),
        "dice.0": "4",
        **({"action": action} if action else {}),
    }
    r = c.post(URL, data=csrf.form(c, form), headers=HX)
    assert r.status_code == 200, r.text
    return r.text


def test_a_roll_the_turn_refuses_is_offered_greyed_with_the_sentence_recording_it_answers(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    game = new_game(c)  # Mons 1914
    start_game(c, game)
    version = c.get(f"/api/v1/games/{game.id}/turn", headers=game.referee).json()["version"]
    moved = c.post(f"/api/v1/games/{game.id}/turn/advance", headers=game.referee, json={"version": version})
    assert moved.status_code == 200, moved.text  # the attacker's battalion orders: its companies roll
    ours = _rolled(c, game, game.attacker, _company(c, game, "attacker"))
    assert OFFERED.search(ours) and not GREYED.search(ours), ours
    # The defender's company out of its side's step: greyed, the pipeline's sentence beside it.
    theirs = _rolled(c, game, game.defender, _company(c, game, "defender"))
    greyed = GREYED.search(theirs)
    assert greyed and not OFFERED.search(theirs), theirs
    # Not invited to record what it cannot (the newcomer pass: "Check the dice, then record" stood above it).
    assert "then record the roll" not in theirs and "then record the roll" in ours
    said = html.unescape(greyed.group(1))
    assert 0 < len(said) <= 120, said
    logged = len(c.get(f"/api/v1/games/{game.id}/events", headers=game.referee).json())
    # Sent anyway (a page open since before the step moved on): refused in the same sentence, nothing logged.
    sent = _rolled(c, game, game.defender, _company(c, game, "defender"), "record")
    assert f"<strong>Not recorded</strong>: {greyed.group(1)}</p>" in sent, sent
    assert len(c.get(f"/api/v1/games/{game.id}/events", headers=game.referee).json()) == logged
