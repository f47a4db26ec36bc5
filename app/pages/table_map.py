"""The table map of one game: the shared table every device of the game sees live (stands, markers, templates,
gas clouds, barrages), drawn by frontend/static/js/table-map.js from the game's API and stream; and, for a
game played on the players' own board of counters (`rules.core.kit.CounterBoard`), the page of counters that
replaces it (its panels rendered by app.pages.counters_panel: the counters by place and group, the turn track,
a counter's card with the acts the pipeline would accept now)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.core.routing import Router
from app.data.models import Game
from app.deps import GameId, NowDep, SessionDep, SettingsDep
from app.pages import clock_panel, counters_panel, map_cards
from app.pages.seats import Seat, game_page
from app.pages.templates import humanise
from app.services import counters
from app.services import events as events_service
from app.services import templates as table_templates
from app.services.markers import rules_of, table_read
from app.services.result import game_result
from rules.core.game import GameRules
from rules.core.rolls import at_table as drawn_at_table
from rules.table.terrain import FEATURE_KINDS

router = Router()


def map_sizes(rules: GameRules) -> dict[str, Any]:
    """Base and template sizes from the rule set's table kit, so the map draws true proportions, and each
    template kind's words (the map labels a template with them)."""
    return {
        "bases": {
            k: {"shape": b.shape, "w": b.width_cm, "d": b.depth_cm} for k, b in rules.book.kit.bases.items()
        },
        "templates": {
            k: {
                "shape": t.shape,
                "w": t.width_cm,
                "d": t.depth_cm,
                "across": t.across_table,
                "name": humanise(k),
            }
            for k, t in rules.book.kit.templates.items()
        },
    }


@router.get("/games/{game_id}/map", response_class=HTMLResponse)
def map_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep, now: NowDep
) -> Response:
    found = session.get(Game, game_id)
    if found is not None and counters.plays_on_counters(found):  # no table: its page of counters
        return RedirectResponse(f"/games/{game_id}/counters", status_code=303)

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        roles = events_service.roles_of(seat.viewer)
        rules = rules_of(game)
        # A side's cards at the table (the referee enters a draw in the lookup): its draw dealt by firestep, or
        # drawn from the club's own pack and entered by suit and rank (a game option).
        draws = list(rules.book.roll_terms.secret_draws.items())
        draw = None
        if draws and not seat.viewer.is_referee:
            at_table = drawn_at_table(rules.book.roll_terms, table_read(session, game).snapshot)
            draw = {"resolver": draws[0][0], "what": draws[0][1], "at_table": at_table}
        return {
            "draw": draw,
            "sizes": map_sizes(rules_of(game)),
            "template_kinds": list(rules_of(game).book.kit.templates),
            "feature_kinds": list(FEATURE_KINDS),
            # The stream starts after the newest event this device may read; the map's first state read is
            # at least as new, and later frames carry versions, so nothing is missed or rolled back.
            "after": table_templates.last_event_id(session, game_id, roles),
            "result_line": game_result(session, game.pk),  # a finished game's, said first (issue 62)
            "clock_panel": clock_panel.panel_for(session, game, seat.viewer.is_referee, now),
            **map_cards.turn_chip(game).context(),
        }

    return game_page(request, session, settings, game_id, "map.html", "map.html", build)


@router.get("/games/{game_id}/counters", response_class=HTMLResponse)
def counters_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    """The page of counters of a game played on the players' own board (a game on a table: its map)."""
    found = session.get(Game, game_id)
    if found is not None and not counters.plays_on_counters(found):
        return RedirectResponse(f"/games/{game_id}/map", status_code=303)

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        roles = events_service.roles_of(seat.viewer)
        return {
            **counters_panel.panel(session, game, seat.viewer, counters_panel.Want()).context(),
            "entry": counters.entry_of(game) if seat.viewer.is_referee else None,
            "after": table_templates.last_event_id(session, game_id, roles),
            "result_line": game_result(session, game.pk),  # a finished game's, said first (issue 62)
        }

    return game_page(request, session, settings, game_id, "counters.html", "counters.html", build)
