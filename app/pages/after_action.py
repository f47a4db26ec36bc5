"""The after-action report page of a game: the story of the game (a few sentences a turn, the decisive
moments), then the luck ledger (every roll at the odds it was rolled at), the losses by battalion and the rule
book's casualty estimate, as this seat may read them (the data is
app.services.report's, the same the JSON route answers). Printable: the page's print styles drop the
controls."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app.core.routing import Router
from app.data.models import Game
from app.deps import GameId, SessionDep, SettingsDep
from app.pages.seats import Seat, game_page
from app.services import report as report_service
from app.services.markers import rules_of

router = Router()


@router.get("/games/{game_id}/report", response_class=HTMLResponse)
def report_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        rules = rules_of(game)
        return {
            "report": report_service.report(session, game, seat.viewer),
            # The rules' words: what a formation's losses count, what a turn is ("bound"), a stand ("base").
            "losses_counted": rules.book.losses_counted,
            "turn_word": rules.book.turn_word,
            "stand_word": rules.book.stand_word,
        }

    return game_page(request, session, settings, game_id, "report.html", "report.html", build)
