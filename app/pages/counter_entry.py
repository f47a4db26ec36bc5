"""The referee's counter from the club's set, entered on the page of counters (issue 67): the form
(`_counter_entry.html`) is posted by htmx and the server adds the counter as the units API does, with its values
in one act (once the game is played, by the referee's override), answering the form again (its side and its
group kept for the next counter, the one added named) and the page's `firestep:refresh` (its panels read anew
when the stream is not there to bring them). A refusal is one sentence, as every page's post."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from app.core.routing import Router
from app.data.models import Game
from app.data.numbers import whole_number
from app.data.schemas_unit_edits import UnitIn
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict, Forbidden
from app.pages.club_save import detail
from app.pages.scenario_drafts import refused
from app.pages.seats import game_seat
from app.pages.templates import templates
from app.services import counters
from app.services import units_by_hand as by_hand
from app.services.markers import rules_of
from app.services.writing import game_write
from rules.core.errors import NotFoundError, RulesError

router = Router(include_in_schema=False)


@router.post("/games/{game_id}/counters/enter", response_class=HTMLResponse)
async def enter_counter(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """A counter added to a game of counters by its referee, its values typed on the page's form."""
    seat = game_seat(request, session, settings, game_id)
    game = session.get(Game, game_id)
    if seat is None or game is None or not seat.viewer.is_referee:
        return refused("Only the game's referee enters a counter.", 403)
    board = rules_of(game).book.kit.counters
    if board is None:
        return refused("This game is not played on a board of counters.", 404)
    if game.status == "finished":
        return refused("The game is finished: no counter is added now.", 409)
    entry = counters.entry_of(game)
    form = await request.form(max_fields=8 + len(entry.fields))
    said = {k: v for k, v in form.items() if isinstance(v, str)}
    state: dict[str, str | int] = {}
    for name, label, edit in entry.fields:
        # A group the book names is chosen from its list; another is typed beside it (`…_typed`).
        typed = said.get(name, "").strip() or said.get(f"{name}_typed", "").strip()
        if not typed:
            continue
        number = whole_number(typed, 1000) if edit == "number" else None
        if edit == "number" and number is None:
            return refused(f"{label}: a whole number from 0 to 999.", 422)
        state[name] = typed if number is None else number
    try:
        body = UnitIn.model_validate(
            {
                "side": said.get("side", ""),
                "name": said.get("name", "").strip(),
                "level": entry.level,
                "state": state,
                "override": game.status == "playing",
            }
        )
        with game_write(session, game_id) as locked:
            added = by_hand.add_unit(session, locked, seat.viewer, body).answer
    except (RulesError, ValidationError, NotFoundError, Conflict, Forbidden) as e:
        session.rollback()
        field, sentence = detail(e)
        named = f"{field.rsplit('.', 1)[-1].capitalize()}: " if field else ""
        status = 409 if isinstance(e, Conflict) else 403 if isinstance(e, Forbidden) else 422
        return refused(f"{named}{sentence}", status)
    keep = board.group_field
    context = {
        "game": game,
        "entry": entry,
        "keep": keep,
        "values": {"side": body.side, keep: str(state.get(keep, ""))},
        "said": f"{added.name} added.",
    }
    answer = templates.TemplateResponse(request, "_counter_entry.html", context)
    answer.headers["HX-Trigger"] = "firestep:refresh"
    return answer
