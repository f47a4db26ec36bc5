"""Every rule set with war periods prints a sheet per period, each under its own id: a second one registered beside
Flanders Fields (a test's, its turn's steps by period) is served by `/playsheets/rulesets/{id}/{period}` (its PDF
printed from the same HTML), printed for a game of it, linked from its lookup's Print menu and kept for the lookup
offline; Flanders Fields' at its own id is the very sheet `/playsheets/{period}` prints."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.pdf_engine import pdf_engine_problem
from playsheets import render
from rules.core.game import Book, GameRules
from rules.core.ruleset import Period, RuleSet
from rules.core.turn import Step
from rules.registry import registered
from tests.app.games.conftest import new_game
from tests.playsheets import pdf

pytestmark = pytest.mark.api

SOURCE = "Trench rules: THE TURN"
STEPS = {
    "opening": (Step("advance", 1, "1", "Advance", SOURCE, "the side advances in the open"),),
    "stalemate": (
        Step("bombard", 1, "1", "Bombard", SOURCE, "the guns fire on the wire"),
        Step("assault", 2, "2", "Assault", SOURCE, "the side goes over the top"),
    ),
}


class TrenchGame(GameRules):
    book = Book(ruleset_id="trench-test", turn_source=SOURCE)

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return STEPS[period or "opening"]


class Trench(RuleSet):
    id = "trench-test"
    name = "Trench (test)"
    source = "Trench rules"
    periods = (Period("opening", "The opening battles", SOURCE), Period("stalemate", "The stalemate", SOURCE))
    game = TrenchGame()


@pytest.fixture
def trench() -> Iterator[None]:
    with registered(Trench):
        yield


def test_a_second_rule_set_with_periods_prints_each_periods_sheet_under_its_id(
    trench: None, sqlite_client: TestClient
) -> None:
    c = sqlite_client
    sheet = c.get(f"/playsheets/rulesets/{Trench.id}/stalemate", params={"paper": "letter"})
    assert sheet.status_code == 200, sheet.text
    assert "Trench (test) playsheet: The stalemate" in sheet.text
    assert "1. Bombard: the guns fire on the wire." in sheet.text and "Advance" not in sheet.text
    opening = c.get(f"/playsheets/rulesets/{Trench.id}/opening").text
    assert "1. Advance: the side advances in the open." in opening and "Bombard" not in opening
    # Its PDF, printed here: the route's worker process knows only firestep's own rule sets.
    if pdf_engine_problem() is None:
        printed = " ".join(pdf.text(render.render_pdf("stalemate", ruleset=Trench.id), layout=False).split())
        assert "Bombard: the guns fire on the wire" in printed
    # Refused: a period it has not (422 naming its periods), a rule set printing no sheet per period (404).
    wrong = c.get(f"/playsheets/rulesets/{Trench.id}/early")
    assert wrong.status_code == 422 and "stalemate" in wrong.text
    for ruleset in ("vimy-ridge", "no-such-rules"):
        refused = c.get(f"/playsheets/rulesets/{ruleset}/early.pdf")
        assert refused.status_code == 404 and Trench.id in refused.text, ruleset
    # The lookup keeps the same sections for offline use.
    kept = c.get(f"/lookup/sheets/{Trench.id}/stalemate")
    assert kept.status_code == 200 and "the guns fire on the wire" in kept.text

    # Its lookup's Print menu links its periods' sheets, not Flanders Fields'.
    menu = re.search(r"data-print-links.*?</ul>", c.get("/lookup", params={"ruleset": Trench.id}).text, re.S)
    assert menu is not None
    links = re.findall(r'href="(/playsheets/[^"?]*)', menu.group(0))
    printed_at = {link.removesuffix(".pdf") for link in links}
    assert {f"/playsheets/rulesets/{Trench.id}/{p}" for p in STEPS} <= printed_at
    assert not {"/playsheets/mid", "/playsheets/mid.pdf"} & set(links)

    # A game of it prints its period's sheet.
    g = new_game(c, {"name": "Trenches", "ruleset": Trench.id, "period": "stalemate"})
    played = c.get(f"/playsheets/games/{g.id}", headers=g.attacker)
    assert played.status_code == 200 and "Trench (test) playsheet: The stalemate" in played.text


def test_flanders_fields_period_sheet_is_the_same_at_its_own_id(sqlite_client: TestClient) -> None:
    params = {"paper": "a4", "variant": "barrage-duration:fire-plan-template"}
    short = sqlite_client.get("/playsheets/mid", params=params)
    at_id = sqlite_client.get("/playsheets/rulesets/flanders-fields/mid", params=params)
    assert short.status_code == 200 and at_id.text == short.text
