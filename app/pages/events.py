"""Pages of a club event day (issue 57): the events (make one), the organiser's view (players, the draft
pairing to review and commit, every table live, results, standings), the round's join cards (a card per
seat, each on a page of its own), a table's page (its round timer, its result to confirm or dispute), the
result slip (the result for both players to sign, no seat's code), a lost tablet's seat re-keyed on the
organiser's tap and the printable standings. Every write goes through
app.services.tournaments and tournament_results, the same functions as the API. The organiser's token is kept
on their device in the `firestep_organiser` cookie (the API's routes read it too)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, BeforeValidator, Field, ValidationError
from sqlmodel import Session, func, select

from app.club.qr import svg
from app.core.config import Settings
from app.core.routing import Router
from app.data.models import Event, Game, TournamentPlayer, TournamentRound, TournamentTable
from app.data.numbers import or_blank, whole_number
from app.deps import NowDep, SessionDep, SettingsDep
from app.errors import Forbidden, Unauthorized
from app.guard import auth, security
from app.pages.common import is_htmx
from app.pages.event_round import (
    EventPlaces,
    Paged,
    RoundView,
    current_round,
    page_of,
    query_of,
    round_view,
    standings_shown,
    summary,
    tables_shown,
)
from app.pages.event_rows import RESULT_WORDS, STATUS_WORDS, first_row, shown_status
from app.pages.refused import Endpoint, PageRefused, PageRoute, Refusal, posted, server_organiser
from app.pages.seats import game_seat, remember_game, remember_seat
from app.pages.templates import period_labels, templates
from app.pages.trust import club_host
from app.services import (
    event_roster,
    event_seats,
    games,
    round_commit,
    scenarios,
    seating,
    tournament_results,
    tournaments,
)
from app.services.writing import step_by_step, unit_of_work
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES
from rules.event.standings import EventScoring
from rules.registry import all_game_rules, get_ruleset

router = Router(include_in_schema=False, route_class=PageRoute)

ORGANISER_COOKIE = tournaments.ORGANISER_COOKIE
# The organiser's page at 800 players (issue 93): a page of the players, each with their buttons (the standings'
# pages: app.pages.event_round.STANDINGS_A_PAGE).
PLAYERS_A_PAGE = 50


def base_url(request: Request, settings: Settings) -> str:
    """HTTPS to the laptop's address on a club server (as join cards print it), this server's otherwise."""
    if settings.club_port:
        return f"https://{club_host(request)}:{settings.club_port}"
    return str(request.base_url).rstrip("/")


def is_organiser(request: Request, session: Session, settings: Settings, event_id: int) -> bool:
    try:
        token = organiser_token(request, event_id)
        tournaments.require_organiser(session, settings.secret_key, event_id, token)
    except (Unauthorized, Forbidden):
        return False
    return True


def event_organiser(event_id: int, request: Request, session: SessionDep, settings: SettingsDep) -> None:
    """The dependency of the organiser's pages and writes: anyone but the event's organiser refused."""
    if not is_organiser(request, session, settings, event_id):
        raise Forbidden("only the event's organiser may do this: sign in with the organiser's token")


ORGANISER = Depends(event_organiser)


def _event_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    """The event's page again with the refusal, each section at the place the refused form's URL carried (the
    page its links draw: the hostile pass found the sections drawn at their first pages, their links at the
    form's); a place refused itself, every section at its first."""
    try:
        at = EventPlaces.model_validate(dict(request.query_params))
    except ValidationError:
        at = EventPlaces()
    event_id = request.path_params["event_id"]
    return event_page(event_id, request, session, settings, error=refusal.said, typed=refusal.typed, at=at)


def organiser_post(path: str) -> Callable[[Endpoint], Endpoint]:
    """An organiser's write: behind their dependency, its refusal the event's page again."""
    return posted(router, path, _event_refused, ORGANISER)


def organiser_token(request: Request, event_id: int) -> str | None:
    """This browser's organiser token for the event (it keeps one per event it runs)."""
    return auth.keyed_token(request.cookies.get(ORGANISER_COOKIE), event_id)


def _keep_token(request: Request, response: Response, event_id: int, token: str) -> None:
    """This event's organiser token kept beside the other events' this browser runs (issue 63: making a second
    event signed its organiser out of the first, for good)."""
    remember_seat(request, response, ORGANISER_COOKIE, event_id, token)


def board_row(session: Session, table: TournamentTable, at: EventPlaces) -> str | None:
    """The board at `table`'s row: the tables' page it is on, of them all (the find box's words let go, they might
    not find it), the page's other places kept (`at`); None for an earlier round's table, not on the board (it
    shows the newest round's). Where a table's panel sends the organiser back (the newcomer passes of issue 93:
    the first page of 400 tables, and the standings at their first, said nothing of the table just set)."""
    page = page_of(session, table)
    query = query_of(at, page=page, q="")
    return f"/events/{table.tournament_id}{query}#ev-row-{table.pk}" if page else None


def _desk(table: TournamentTable, at: EventPlaces) -> str:
    return f"/events/{table.tournament_id}/tables/{table.pk}/desk{query_of(at)}"


def _back(event_id: int, anchor: str = "") -> RedirectResponse:
    return RedirectResponse(f"/events/{event_id}{anchor}", status_code=303)


# -- the events ----------------------------------------------------------------------------------------------
def _games(session: Session) -> list[tuple[str, str, bool]]:
    """The event form's one choice of game, (value "ruleset/period", label, disabled): each rule set played as
    a game, with each period a scenario of it plays, or none where it has no periods; one with periods and no
    scenario yet offered disabled, saying what to do first (session 18's pass: the period was typed)."""
    out = []
    for rules in all_game_rules():
        rs = get_ruleset(rules.book.ruleset_id)
        periods = rs.describe()["periods"]
        played, labels = scenarios.periods_played(session, rs.id), period_labels(periods)
        out += [(f"{rs.id}/{p}", f"{rs.name}, {labels[p]}", False) for p in played if periods]
        if not periods or not played:  # as itself, or disabled saying what to do first
            label = f"{rs.name} (import a scenario of it first)" if periods else rs.name
            out.append((f"{rs.id}/", label, bool(periods)))
    return out


@router.get("/events", response_class=HTMLResponse)
def events_list(request: Request, session: SessionDep) -> Response:
    return events_page(request, session)


def events_page(
    request: Request, session: Session, error: str | None = None, typed: dict[str, str] | None = None
) -> Response:
    """The events and the form that makes one (refused, it keeps what was typed: `typed`). Its error is a
    refusal's own: no query parameter reaches the page's alert (the hostile pass: a link wrote in it)."""
    context = {"events": tournaments.list_events(session), "games": _games(session), "error": error,
               "typed": typed or {}}  # fmt: skip
    return templates.TemplateResponse(request, "events.html", context)


def _events_refused(request: Request, session: Session, _settings: Settings, refusal: Refusal) -> Response:
    return events_page(request, session, refusal.said, refusal.typed)


class EventForm(BaseModel):
    """The event form (its organiser key read by `server_organiser`)."""

    name: str = Field("", max_length=200)
    game: str = ""  # the form's one choice, "ruleset/period"
    rounds: int = Field(3, ge=1, le=tournaments.MAX_ROUNDS)
    time_zone: str = Field("", max_length=64)


@posted(router, "/events", _events_refused, server_organiser("events"))
def make_event(
    form: Annotated[EventForm, Form()], request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    ruleset, slash, period = form.game.partition("/")
    if not slash or len(ruleset) > 64 or len(period) > 32:
        raise PageRefused("Game: choose one of the form's games.")
    with unit_of_work(session):
        row, token = tournaments.create(
            session, settings.secret_key, name=form.name.strip() or "Club event", ruleset=ruleset,
            period=period.strip() or None, rounds=form.rounds, scoring=EventScoring(),
            time_zone=form.time_zone.strip() or "UTC",
        )  # fmt: skip
    response = _back(row.pk)
    _keep_token(request, response, row.pk, token)
    return response


@posted(router, "/events/{event_id:id}/sign-in", _event_refused)
def sign_in(
    event_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    token: Annotated[str, Form(max_length=100)] = "",
) -> Response:
    token = token.strip()
    with security.guessing_a_code(Unauthorized, Forbidden):
        tournaments.require_organiser(session, settings.secret_key, event_id, token)
    response = _back(event_id)
    _keep_token(request, response, event_id, token)
    return response


# -- the organiser's view ------------------------------------------------------------------------------------
@router.get("/events/{event_id:id}", response_class=HTMLResponse)
def event_shown(
    event_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    at: Annotated[EventPlaces, Query()],
    committing: Annotated[int | None, Query(ge=1, le=1000)] = None,
) -> Response:
    """The event's page, each of its sections at its place (`at`); `committing`: the round whose commit the
    organiser's post began and its page carries on (the post's 303 here), its progress shown and the commit's form
    sent again as the page opens."""
    made = None
    rounds = tournaments.rounds_of(session, event_id) if committing is not None else []
    if committing is not None and any(
        r.number == committing and r.status == tournaments.COMMITTING for r in rounds
    ):
        made = round_commit.progress(session, event_id, committing)
    return event_page(event_id, request, session, settings, committing=made, at=at)


def _picked(draft: RoundView, pick: str, by_id: Mapping[int, TournamentPlayer]) -> tuple[str, str]:
    """The draft's first tap and the words naming it (("", "") where it names no table or player of the draft:
    a URL kept from before a draft again)."""
    number = int(pick[1:] or 0)
    if pick[:1] == "t":
        return (pick, f"table {number}") if any(t.table == number for t in draft.tables) else ("", "")
    paired = {p for t in draft.tables for p in (t.a_player_id, t.b_player_id)} | {draft.round.bye_player_id}
    return (pick, by_id[number].name) if number in paired and number in by_id else ("", "")


def _round_macros() -> Any:
    return templates.get_template("_event_round.html").module


def event_page(
    event_id: int,
    request: Request,
    session: Session,
    settings: Settings,
    error: str | None = None,
    committing: tuple[int, int, int] | None = None,
    typed: Mapping[str, str] | None = None,
    at: EventPlaces | None = None,
) -> Response:
    """The event's page; refused, the sentence and what was typed in the form refused (`typed`), kept."""
    try:
        row = tournaments.get(session, event_id)
    except NotFoundError as e:
        return templates.TemplateResponse(
            request, "error.html", {"title": "Not found", "message": e.message}, 404
        )
    organiser = is_organiser(request, session, settings, event_id)
    rounds = tournaments.rounds_of(session, event_id)
    lines, people = tournament_results.event_standings(session, event_id)
    registered = tournaments.players(session, event_id)
    current, rows = current_round(session, rounds, organiser)
    draft = next(  # a round committing (interrupted) shows as its draft: committed again, it finishes
        (round_view(session, r, True) for r in rounds if r.status in ("draft", tournaments.COMMITTING)), None
    )
    at, by_id = at or EventPlaces(), {p.pk: p for p in registered}
    context = {
        "event": row,
        "organiser": organiser,
        "organiser_token": (token := organiser_token(request, event_id) if organiser else None),
        # Another device scans it: the start page with the token in its join box (join-link.js), one tap on.
        "organiser_qr": svg(f"{base_url(request, settings)}/#code={token}", "Sign in as the organiser")
        if token
        else "",
        "players": registered,
        "roster": Paged.of(registered, at.players, PLAYERS_A_PAGE),
        "by_id": by_id,
        "rounds": [round_view(session, r) for r in rounds],
        "draft": draft,
        "draft_shown": draft and tables_shown(draft, at.draft_page, at.draft_q),
        "pick": _picked(draft, at.pick, by_id) if draft else ("", ""),
        "current": current,
        "draft_refused": (refused := tournaments.draft_refusal(session, row)) and refused.message,
        "rows": rows,
        "shown": current and tables_shown(current, at.page, at.q),
        "summary": current and summary([(t.table, t.pk, rows[t.pk].status) for t in current.tables]),
        "standings": standings_shown(lines, at.standings),
        "people": people,
        "out": event_roster.statuses(session, event_id),
        "scenarios": [s for s in scenarios.list_scenarios(session) if s.get("ruleset") == row.ruleset],
        "error": error,
        "typed": typed or {},  # a refused form's fields as typed: the players' lines are not typed again
        "commit_progress": committing,  # a commit stopped on its CPU budget: (made, tables, shown), carried on
    }
    response = templates.TemplateResponse(request, "event.html", context)
    response.headers["Cache-Control"] = "no-store"  # the organiser's page shows the organiser's token
    return response


@router.get(
    "/events/{event_id:id}/tables/{table_id:id}/desk", response_class=HTMLResponse, dependencies=[ORGANISER]
)
def table_desk(
    event_id: int,
    table_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    at: Annotated[EventPlaces, Query()],
) -> Response:
    """A table's panel on the organiser's board, opened by a tap on its number: its forms (the result set by the
    organiser, the referee, the result slip, a lost tablet), drawn for the one table (issue 93: every table's
    forms drawn on the page made 2,003 forms at 400 tables). htmx swaps it into the board; without JS, a page.
    `at`: the board's places (the page sends them), which the result set comes back to."""
    event = tournaments.get(session, event_id)
    table = tournament_results.get_table(session, event_id, table_id)
    people = tournament_results.table_players(session, [table])
    reasons = tournament_results.dispute_reasons(session, event_id, [table])
    ended = table.pk in tournament_results.games_ended(session, [table])
    shown = first_row(table, people, reasons.get(table.pk, ""), ended)
    if is_htmx(request):  # under the board's h2
        panel = _round_macros().panel(event, table, people, shown, request, kept=query_of(at))
        return HTMLResponse(str(panel), headers={"Cache-Control": "no-store"})
    panel = _round_macros().panel(
        event, table, people, shown, request, 2, query_of(at)
    )  # under the page's h1
    back = board_row(session, table, at) or f"/events/{event_id}{query_of(at)}#tables"
    context = {"event": event, "table": table, "panel": panel, "back": back}
    response = templates.TemplateResponse(request, "event_desk.html", context)
    response.headers["Cache-Control"] = "no-store"
    return response


FORCE_LIST_MAX = 200  # as app.data.models.TournamentPlayer keeps it


@organiser_post("/events/{event_id:id}/players")
def add_players(event_id: int, session: SessionDep, players: Annotated[str, Form()] = "") -> Response:
    """A line a player: name, club, force list (the rest of the line, its commas kept). Every line is read, none
    dropped: a list past the event's players is refused whole (tournaments.register), as the API refuses it (the
    hostile pass: the 801st line, or the 800th after a blank one, was dropped without a word). A line ends at a
    newline alone, not at every character Python counts a line break (a form feed split one name into two)."""
    entries = []
    for line in players.split("\n"):
        parts = [p.strip() for p in line.split(",")]
        if parts and parts[0]:
            # Uncut: a name or club past its length is refused naming it (tournaments.register), not cut, so
            # that two long names alike in their first 80 characters are not one player "registered already".
            name, club, force = parts[0], parts[1] if len(parts) > 1 else "", ", ".join(parts[2:])
            if len(force) > FORCE_LIST_MAX:
                raise RulesError(
                    "force_list", f"a force list is at most {FORCE_LIST_MAX} characters: name it shorter"
                )
            entries.append(tournaments.PlayerEntry(name, club, force))
    with unit_of_work(session):
        tournaments.register(session, event_id, entries)
    return _back(event_id, "#players")


def _marked(status: object) -> object:
    if status not in ("playing", "dropped", "no-show"):
        raise ValueError("a player is marked playing, dropped or no-show")
    return status


@organiser_post("/events/{event_id:id}/players/{player_id:id}/status")
def mark_player(
    event_id: int,
    player_id: int,
    status: Annotated[Literal["playing", "dropped", "no-show"], Form(), BeforeValidator(_marked)],
    at: Annotated[EventPlaces, Query()],
    session: SessionDep,
) -> Response:
    """One tap: a player dropped, a no-show, or back in for the next round drafted; back to the page's places
    (`at`, its form's URL), at the player's row."""
    with unit_of_work(session):
        event_roster.set_status(session, event_id, player_id, status)
    # The draft's first tap let go: a player's status discards a draft under review (event_roster).
    return _back(event_id, f"{query_of(at, pick='')}#player-{player_id}")


class DraftForm(BaseModel):
    scenario: str = Field("", max_length=64)
    minutes: str = Field("150", max_length=4)  # the round's minutes, 10 to 600 (150 where not a number)
    version: str = Field("", max_length=10)  # the draft's version the page saw


@organiser_post("/events/{event_id:id}/draft")
def draft_round(
    event_id: int,
    form: Annotated[DraftForm, Form()],
    at: Annotated[EventPlaces, Query()],
    session: SessionDep,
) -> Response:
    """The next round drafted; back to the page's places (`at`), the new draft at its first page, nothing picked."""
    minutes = max(10, min(600, whole_number(form.minutes, 10**4) or 150))
    with unit_of_work(session):
        tournaments.draft(session, event_id, form.scenario, minutes, whole_number(form.version, 10**10))
    return _back(event_id, f"{query_of(at, draft_page=1, draft_q='', pick='')}#draft")


class SwapForm(BaseModel):
    version: str = Field("", max_length=10)
    first: str = Field("", max_length=10)
    second: str = Field("", max_length=10)
    swap: str = "players"  # "tables", else two players


@organiser_post("/events/{event_id:id}/rounds/{number:id}/swap")
def swap_drafted(
    event_id: int,
    number: int,
    form: Annotated[SwapForm, Form()],
    at: Annotated[EventPlaces, Query()],
    session: SessionDep,
) -> Response:
    """Two taps on the draft: two players (the bye's too) or two tables swapped (the first tap kept in the
    page's URL, the second this form's button); back to the page's places (`at`, its form's URL: the list the
    second was tapped in), the first tap done with, at the row swapped."""
    version, first, second = (whole_number(v, 10**10) or 0 for v in (form.version, form.first, form.second))
    swap: tournaments.SwapKind = "tables" if form.swap == "tables" else "players"
    with unit_of_work(session):
        _, tables = tournaments.edit_draft(session, event_id, number, version, swap, first, second)
        # The place tapped second: the table itself, or where the first player now is (None: the bye).
        row = (
            second
            if swap == "tables"
            else next((t.table for t in tables if first in (t.a_player_id, t.b_player_id)), None)
        )
    return _back(event_id, query_of(at, pick="") + (f"#draft-t{row}" if row else "#draft-bye"))


@organiser_post("/events/{event_id:id}/rounds/{number:id}/commit")
def commit_drafted(
    event_id: int, number: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    job = round_commit.RoundCommit(settings.secret_key, event_id, number, round_commit.step_budget(session))
    done = step_by_step(session, lambda: job.begin(session), lambda: job.make_some(session),
                        lambda: job.finish(session), settings.commit_cpu_seconds)  # fmt: skip
    if done is None:  # stopped on the request's CPU budget: the page says how far and carries on (htmx)
        if not is_htmx(request):  # the button's own post: the page drawn by a request of its own (PRG)
            return RedirectResponse(f"/events/{event_id}?committing={number}#draft", status_code=303)
        # The section alone, not the page: an 800-player event's page is half a second of CPU, which on top of
        # the commit's budget took a request past the second (the hostile pass of this stop).
        made = round_commit.progress(session, event_id, number)
        section = _round_macros().committing(tournaments.get(session, event_id), number, made, request)
        return HTMLResponse(str(section), headers={"Cache-Control": "no-store"})
    if is_htmx(request):  # a carrying-on of the page's: the whole page, the round played
        return Response(headers={"HX-Redirect": f"/events/{event_id}#tables"})
    return _back(event_id, "#tables")


@organiser_post("/events/{event_id:id}/timer")
def move_timer(
    event_id: int,
    session: SessionDep,
    now: NowDep,
    at: Annotated[EventPlaces, Query()],
    typed: Annotated[str, Form(alias="minutes")] = "",
) -> Response:
    """The round's end moved to so many minutes from now (0 stops the timer): every table hears it live; back
    to the page's places (`at`)."""
    minutes = whole_number(typed, 601)  # ASCII digits alone (a superscript two is no number of minutes)
    if minutes is None:
        raise RulesError("minutes", "the minutes left in the round are a whole number from 0 to 600")
    with unit_of_work(session):
        tournaments.set_timer(session, event_id, now + timedelta(minutes=minutes) if minutes else None)
    return _back(event_id, f"{query_of(at)}#tables")


class ResultForm(BaseModel):
    winner: str = ""  # "a" or "b", else a draw
    a_points: str = ""  # the attacker's, blank 0
    b_points: str = ""  # the defender's, blank 0
    why: str = ""


@organiser_post("/events/{event_id:id}/tables/{table_id:id}/result")
def set_result(
    event_id: int,
    table_id: int,
    form: Annotated[ResultForm, Form()],
    at: Annotated[EventPlaces, Query()],
    session: SessionDep,
) -> Response:
    """The organiser sets a table's result; back to the board at the page's places (`at`, its form's URL) and the
    table's page of them, at its row."""
    points = [str(or_blank(typed, "0")).strip() for typed in (form.a_points, form.b_points)]
    for typed, side in zip(points, SIDES, strict=True):
        if whole_number(typed, tournament_results.MAX_POINTS + 1) is None:
            most = tournament_results.MAX_POINTS
            raise RulesError("points", f"the {side}'s points are a whole number from 0 to {most}")
    winner: Literal["a", "b"] | None = "a" if form.winner == "a" else "b" if form.winner == "b" else None
    result = tournament_results.TableResult(
        winner=winner, a_points=int(points[0]), b_points=int(points[1]), reason="set by the organiser"
    )
    with unit_of_work(session):
        table = tournament_results.alter(session, event_id, table_id, result, form.why.strip())
    # Back to the table's page and its row, its badge the result set (the board's first page lost the organiser's
    # place among 400 tables and said nothing: the newcomer pass of issue 93); an earlier round's table, not on
    # the board (it shows the newest round's), to its own page.
    return RedirectResponse(board_row(session, table, at) or _desk(table, at), status_code=303)


@router.post(
    "/events/{event_id:id}/tables/{table_id:id}/referee",
    response_class=HTMLResponse,
    dependencies=[ORGANISER],
)
def referee_table(
    event_id: int, table_id: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The organiser referees a table's game: this device gets a referee seat of it (a new device, listed
    in the game's devices) and goes to its referee board. A POST with the page's form token: as a GET, every
    visit of a link (a cross-site one the organiser opened, a prefetch) minted a device for the game."""
    table = tournament_results.get_table(session, event_id, table_id)
    if table.game_id is None:
        raise NotFoundError("table", str(table_id))
    with unit_of_work(session):
        token = seating.issue(session, seating.GAME, settings.secret_key, table.game_id, seating.REFEREE)
    response = RedirectResponse(f"/games/{table.game_id}/referee", status_code=303)
    remember_game(request, response, table.game_id, token)
    return response


# -- printing: the round's join cards, a result slip, the standings ------------------------------------------
@router.get(
    "/events/{event_id:id}/rounds/{number:id}/sheet", response_class=HTMLResponse, dependencies=[ORGANISER]
)
def round_sheet(
    event_id: int, number: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """A card per seat, each printed on a page of its own, so the organiser hands each player their own code
    and the first to sit never holds the other's (issue 93): the codes the round's cards carry, worked out
    again (printing writes nothing, so printing twice prints the same cards); new codes are the organiser's POST
    below."""
    row = tournaments.get(session, event_id)
    view = round_view(session, tournaments.get_round(session, event_id, number))
    codes = event_seats.printed_codes(session, settings.secret_key, event_id, number)
    base = base_url(request, settings)
    pages = []
    for t in view.tables:
        if t.game_id not in codes:
            continue
        seats = []
        for side, who in (("attacker", t.a_player_id), ("defender", t.b_player_id)):
            name = view.people[who].name
            code = codes[t.game_id].get(side)
            link = f"{base}/games/{t.game_id}/join/{side}#code={code}"
            seats.append({"side": side, "name": name, "code": code,
                          "svg": svg(link, f"Join table {t.table} as the {side}, {name}") if code else ""})  # fmt: skip
        pages.append({"table": t, "seats": seats})
    ends = tournaments.local_time(row, row.round_ends_at) if row.round_ends_at else None
    response = templates.TemplateResponse(
        request,
        "event_sheet_print.html",
        {
            "event": row,
            "round": view.round,
            "pages": pages,
            "ends_at": ends,
            "scenario": scenarios.get_document(session, view.round.scenario).get(
                "title", view.round.scenario
            ),
        },
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@organiser_post("/events/{event_id:id}/rounds/{number:id}/sheet")
def new_round_cards(event_id: int, number: int, session: SessionDep, settings: SettingsDep) -> Response:
    """New join codes on every table of the round (the organiser's ask): the cards printed before stop working."""
    with unit_of_work(session):
        tournaments.new_cards(session, settings.secret_key, event_id, number)
    return RedirectResponse(f"/events/{event_id}/rounds/{number}/sheet", status_code=303)


@router.get(
    "/events/{event_id:id}/tables/{table_id:id}/slip", response_class=HTMLResponse, dependencies=[ORGANISER]
)
def result_slip(
    event_id: int, table_id: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The table's result slip: the result and both players to sign. Both sides hold it, so it carries no
    seat's code (a lost tablet is re-keyed on the organiser's page); reading it writes nothing."""
    row = tournaments.get(session, event_id)
    table = tournament_results.get_table(session, event_id, table_id)
    people = tournament_results.table_players(session, [table])
    result = table.result or table.offered
    rnd = session.get(TournamentRound, table.round_id)
    context = {"event": row, "table": table, "people": people, "result": result, "round": rnd,
               "status": STATUS_WORDS[table.status]}  # fmt: skip
    return templates.TemplateResponse(request, "event_slip_print.html", context)


@router.get("/events/{event_id:id}/standings", response_class=HTMLResponse)
def standings_print(event_id: int, request: Request, session: SessionDep) -> Response:
    row = tournaments.get(session, event_id)
    lines, people = tournament_results.event_standings(session, event_id)
    return templates.TemplateResponse(
        request, "event_standings_print.html", {"event": row, "standings": lines, "people": people}
    )


# -- a lost tablet re-keyed on the organiser's word ------------------------------------------------------------
@organiser_post("/events/{event_id:id}/tables/{table_id:id}/rekey")
def offer_rekey(
    event_id: int,
    table_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    now: NowDep,
    at: Annotated[EventPlaces, Query()],
    side: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """The organiser's tap for a lost tablet: this screen alone shows the side's code (a QR for the player's
    new device to scan), good once for a few minutes; its way back, to the board's places (`at`, its form's URL)
    at the table's row."""
    with unit_of_work(session):
        code = event_seats.offer_rekey(session, settings.secret_key, event_id, table_id, side, now)
        table = tournament_results.get_table(session, event_id, table_id)
    people = tournament_results.table_players(session, [table])
    name = people[table.a_player_id if side == "attacker" else table.b_player_id].name
    link = f"{base_url(request, settings)}/events/rekey#code={code}"
    back = board_row(session, table, at) or _desk(table, at)
    context = {"event": tournaments.get(session, event_id), "table": table, "side": side, "name": name,
               "code": code, "minutes": event_seats.REKEY_MINUTES, "back": back,
               "svg": svg(link, f"Take the {side}'s seat at table {table.table}, {name}")}  # fmt: skip
    response = templates.TemplateResponse(request, "event_rekey_offer.html", context)
    response.headers["Cache-Control"] = "no-store"
    return response


# -- a table's page: its round timer and its result ----------------------------------------------------------
def _table_page(
    request: Request, session: Session, settings: Settings, table: TournamentTable, error: str = ""
) -> Response:
    row = tournaments.get(session, table.tournament_id)
    seat = game_seat(request, session, settings, table.game_id) if table.game_id else None
    game = session.get(Game, table.game_id) if table.game_id else None
    offer = tournament_results.offered(session, table)
    # A dispute's reason is its table's to read (its seats, the organiser), never a passer-by's.
    readers = seat is not None or is_organiser(request, session, settings, table.tournament_id)
    reasons = (
        tournament_results.dispute_reasons(session, table.tournament_id, [table], ("disputed", "altered"))
        if readers
        else {}
    )
    context = {
        "event": row,
        "table": table,
        "game_row": game,
        "people": tournament_results.table_players(session, [table]),
        "seat": seat.viewer.role if seat else None,
        # The confirmation offered exactly when the act would take it (the refusal says why not, else).
        "refused": tournament_results.refusal(session, table, seat.viewer if seat else None),
        # The result offered shown whenever its confirmation is (one function answers both).
        "status": RESULT_WORDS[shown_status(table.status, bool(offer))],
        "result": table.result or offer,
        "reason": reasons.get(table.pk, ""),
        "error": error,
        # A seat follows its game's stream from here on, for the round timer it carries (game-clock.js).
        "upto": session.exec(select(func.max(Event.id)).where(Event.game_id == game.pk)).one() or 0
        if game
        else 0,
    }
    return templates.TemplateResponse(request, "event_table.html", context)


@router.get("/events/{event_id:id}/tables/{table_id:id}", response_class=HTMLResponse)
def table_page(
    event_id: int, table_id: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    return _table_page(request, session, settings, tournament_results.get_table(session, event_id, table_id))


def _table_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    table = tournament_results.get_table(
        session, request.path_params["event_id"], request.path_params["table_id"]
    )
    return _table_page(request, session, settings, table, refusal.said)


@posted(router, "/events/{event_id:id}/tables/{table_id:id}/{act:str}", _table_refused)
def table_act(
    event_id: int,
    table_id: int,
    act: str,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    why: Annotated[
        str, Form()
    ] = "",  # a dispute's reason (bounded where it is kept: tournament_results.dispute)
) -> Response:
    """A seat of the table's game confirms or disputes the result its game offers."""
    table = tournament_results.get_table(session, event_id, table_id)
    seat = game_seat(request, session, settings, table.game_id) if table.game_id else None
    if seat is None or act not in ("confirm", "dispute"):
        raise tournament_results.not_a_player("dispute" if act == "dispute" else "confirm")
    with unit_of_work(session):
        if act == "confirm":
            tournament_results.confirm(session, event_id, table_id, seat.viewer)
        else:
            tournament_results.dispute(session, event_id, table_id, seat.viewer, why)
    return RedirectResponse(f"/events/{event_id}/tables/{table_id}", status_code=303)


@router.get("/events/rekey", response_class=HTMLResponse)
def rekey_page(request: Request) -> Response:
    return _rekey_page(request)


def _rekey_page(request: Request, error: str | None = None) -> Response:
    """The re-key page; its error is the refusal's own (no query parameter reaches the page's text)."""
    return templates.TemplateResponse(request, "event_rekey.html", {"error": error})


def _rekey_refused(request: Request, _session: Session, _settings: Settings, refusal: Refusal) -> Response:
    return _rekey_page(request, refusal.said)


@posted(router, "/events/rekey", _rekey_refused)
def rekey(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    now: NowDep,
    code: Annotated[str, Form(max_length=40)] = "",
) -> Response:
    try:
        with security.guessing_a_code(), unit_of_work(session):
            game_id, _side, token = event_seats.rekey(session, settings.secret_key, code.strip(), now)
            table = games.table_of_game(session, game_id)
    except NotFoundError as e:
        raise PageRefused(
            "That code was used, ran out or was replaced: ask the organiser for a new one."
        ) from e
    target = f"/events/{table.tournament_id}/tables/{table.pk}" if table else f"/games/{game_id}/map"
    response = RedirectResponse(target, status_code=303)
    remember_game(request, response, game_id, token)
    return response
