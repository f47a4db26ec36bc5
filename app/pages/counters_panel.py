"""The page of counters' panels, rendered by the server (issue 67): the turn panel, what the step still needs,
set-up's placing, the counters list and a counter's card (its acts, greyed acts with their sentence, options,
odds, dice, result and Undo), as `_counters_panel.html` renders them for one seat. The card is read from the
act pipeline's own answers: `app.services.card.stand_card` (what this counter may do now, and why not) and
`app.services.resolve.ask` (the odds, nothing written); a result from the roll's own event (built by
app.pages.counters_build, the card's play by app.pages.counters_play, in app.pages.counters_parts' types). The
card's state (the counter open, the act played, its target, the counters joining it, the options chosen, the
dice tapped, the roll recorded) is the request's query, so every tap is a link the server draws (`data-go`): a page's
script swaps the panels and sends the writes (frontend/static/js/counter-board.js); the game's stream pushes
the panels a seat may read (`counters_view`), and `?after=` reads them anew."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated

from fastapi import Query
from sqlmodel import Session

from app.core import live
from app.core.routing import Router
from app.data.models import Game
from app.deps import SessionDep
from app.pages.counters_build import Panels, panel
from app.pages.counters_parts import Want
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.pages.templates import templates
from app.services import result, score
from app.services.seating import Viewer

__all__ = ["Panels", "Want", "counters_panel", "counters_view", "panel"]

router = Router()


@panel_page(router, "/games/{game_id}/counters/panel", "_counters_panel.html")
def counters_panel(game: Game, seat: Seat, session: SessionDep, want: Annotated[Want, Query()]) -> Panels:
    """The page of counters' panels for this seat, showing the card the query names (`Want`)."""
    return panel(session, game, seat.viewer, want)


@live.view("counters")
def counters_view(
    session: Session, game: Game, viewer: Viewer, events: Sequence[Mapping[str, object]], shared: live.Shared
) -> list[dict[str, str | bool]]:
    """The live frames' part for the page of counters: the event says the panels changed (the page reads them
    for its own card, `counters_panel`, the panels being each device's own taps' too); the game ended, its
    result line (the same for every viewer, result-line.js swaps it in)."""

    def line() -> str:
        return templates.get_template("_result_line.html").render(
            result_line=result.game_result(session, game.pk)
        )

    return [
        {"result": shared.get("result", line)}
        if e["kind"] == score.FINISHED and game.status == "finished"
        else {"panels": True}
        for e in events
    ]
