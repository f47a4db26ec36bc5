"""The round the organiser's board shows (issue 57): a round's view (its tables, their players, what a hand edit
broke, the hand edits kept), the newest committed round's with each table's first cells, and that round's piece
as a frame of the board's stream sends it (`round_piece`): the heading and every table as the page draws them
(`_event_round.html`), so a page open when another round is committed takes the new one whole, no reload
(session 17's newcomer pass: round 1's rows stayed on screen, the stream's cells naming tables it did not show)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Self, TypeVar
from urllib.parse import urlencode

from fastapi import Query, Request
from pydantic import BaseModel
from sqlmodel import Session
from starlette.datastructures import QueryParams

from app.data.models import TournamentPlayer, TournamentRound, TournamentTable
from app.data.numbers import whole_number
from app.guard import security
from app.pages.event_rows import EventRow, first_row, summary
from app.pages.templates import templates
from app.services import tournament_results, tournaments
from app.services.tournament_results import EventStandings
from rules.event.standings import Standing

__all__ = [
    "STANDINGS_A_PAGE",
    "TABLES_A_PAGE",
    "DraftPick",
    "EventPlaces",
    "Paged",
    "RoundView",
    "StandingsPage",
    "StandingsShown",
    "TablesFound",
    "TablesPage",
    "TablesShown",
    "current_round",
    "other_places",
    "page_of",
    "places",
    "query_of",
    "round_piece",
    "round_view",
    "shown_ids",
    "standings_piece",
    "standings_shown",
    "summary",
    "tables_shown",
]

# A page of the organiser's board: a round of 400 tables drawn whole was 1.78 MB, 29,330 elements and 7-12 s
# for a tablet's browser to load (issue 93's newcomer pass); a page of 25 is a screen or two.
TABLES_A_PAGE = 25
# Which of them: the page (from 1) and the find box's words, as the page's links and form ask and as its stream
# is told (its rows' cells alone are sent: app.pages.event_rows.Shown).
TablesPage = Annotated[
    int, Query(ge=1, le=10**4, description="The page of the round's tables shown (25 a page), from 1.")
]
TablesFound = Annotated[
    str,
    Query(
        max_length=80,
        description="The find box's words: a table's number, or part of a player's name or club.",
    ),
]
# A page of the standings (issue 93): 800 players' rows were about 5,600 of the page's elements; each device's
# stream is told its page and sends that page's rows again whenever they change, with the results counted.
STANDINGS_A_PAGE = 50
StandingsPage = Annotated[
    int, Query(ge=1, le=10**4, description="The page of the standings shown (50 a page), from 1.")
]
# The draft under review's first tap (issue 93: at 400 tables its list is paged too): the player ("p" and their
# id) or the table ("t" and its number) picked, kept in the page's URL, so the second tap completes the swap on
# any page of the draft or in any list its find box answered ("" : none picked).
DraftPick = Annotated[
    str,
    Query(
        max_length=12,
        pattern=r"^([pt][0-9]{1,10})?$",
        description="The draft's first tap: p and a player's id, or t and a table's number.",
    ),
]


PlayersPage = Annotated[
    int, Query(ge=1, le=10**4, description="The page of the players listed (50 a page), from 1.")
]


class EventPlaces(BaseModel):
    """Where the organiser is on the event's page, a place for each section: the round's tables and their find
    box, the standings, the players, the draft under review, its find box and its first tap of a swap. Read, each
    bounded, by the page, by its stream (which draws the round's section again) and by a form that comes back to
    the page (its action's URL carries them): a link or a post of one section keeps the others' places (the
    newcomer passes: a page of the tables took the standings back to their first, a player dropped on page 3
    of the players took every section back to its first)."""

    page: TablesPage = 1
    q: TablesFound = ""
    standings: StandingsPage = 1
    players: PlayersPage = 1
    draft_page: TablesPage = 1
    draft_q: TablesFound = ""
    pick: DraftPick = ""


# Each place's value when not asked, as a URL carries it.
PLACES = {name: str(field.default) for name, field in EventPlaces.model_fields.items()}


def kept_places(asked: EventPlaces | QueryParams, **changes: object) -> list[tuple[str, str]]:
    """The event page's places as `asked` (read by a route's EventPlaces, or a request's query that its route read
    and bounded so), with `changes`, in PLACES' order; a place at its value when not asked is left out."""
    given = asked.model_dump() if isinstance(asked, EventPlaces) else asked
    values = {name: str(given.get(name, first)) for name, first in PLACES.items()}
    values.update({name: str(value) for name, value in changes.items()})
    return [(name, values[name]) for name, first in PLACES.items() if values[name] != first]


def query_of(asked: EventPlaces | QueryParams, **changes: object) -> str:
    """The event page's query (from "?", or "") keeping `asked`'s places but `changes`."""
    kept = kept_places(asked, **changes)
    return "?" + urlencode(kept) if kept else ""


def places(request: Request, **changes: object) -> str:
    """The event page's query keeping `request`'s places but `changes`: a section's link."""
    return query_of(request.query_params, **changes)


def other_places(request: Request, *own: str) -> list[tuple[str, str]]:
    """`request`'s places but a section's `own` (those its find box sends): the box's hidden fields."""
    return [(name, value) for name, value in kept_places(request.query_params) if name not in own]


# The event page's templates and the stream's pieces (round_piece) draw their links with them.
templates.env.globals.update(places=places, other_places=other_places)


T = TypeVar("T")  # what a page lists


@dataclass(frozen=True)
class Paged(Generic[T]):
    """A page of a list the event page shows (`page`, from 1, of `pages`, `size` items a page): its `items`,
    of `found` in all."""

    items: list[T]
    page: int
    pages: int
    found: int
    size: int

    @classmethod
    def of(cls, items: Sequence[T], page: int, size: int, **more: Any) -> Self:
        """The page `page` of `items` (the last where past it, the first before it), `size` a page; `more`: a
        kind of page's own fields."""
        pages = max(1, -(-len(items) // size))
        page = min(max(page, 1), pages)
        start = (page - 1) * size
        return cls(list(items[start : start + size]), page, pages, len(items), size, **more)

    @property
    def first(self) -> int:
        """The number in the whole list of the page's first item."""
        return (self.page - 1) * self.size + 1


@dataclass(frozen=True)
class TablesShown(Paged[TournamentTable]):
    """The tables of a round the organiser's board shows: a page of those the find box's `q` matched (a
    table's number, or a part of a player's name or club)."""

    q: str = ""


def _matches(q: str, t: TournamentTable, people: Mapping[int, TournamentPlayer]) -> bool:
    number = whole_number(q, 10**6)  # ASCII digits alone: a table's number
    if number is not None:
        return t.table == number
    said = " ".join(f"{people[p].name} {people[p].club}" for p in (t.a_player_id, t.b_player_id))
    return q.casefold() in said.casefold()


def shown_ids(session: Session, event_id: int, page: int = 1, q: str = "") -> frozenset[int] | None:
    """The ids of the tables of the newest committed round that the organiser's board draws at `page` for the
    find box's `q` (`tables_shown`): the rows its stream sends (None before any round is committed)."""
    newest = _newest_committed(tournaments.rounds_of(session, event_id))
    if newest is None:
        return None
    return frozenset(t.pk for t in tables_shown(round_view(session, newest), page, q).items)


def page_of(session: Session, table: TournamentTable) -> int | None:
    """The page of the organiser's board that a table is on; None for a table of an earlier round (the board
    shows the newest committed one)."""
    newest = _newest_committed(tournaments.rounds_of(session, table.tournament_id))
    if newest is None or newest.pk != table.round_id:
        return None
    numbers = [t.table for t in tournaments.tables_of(session, table.round_id)]
    return numbers.index(table.table) // TABLES_A_PAGE + 1


def tables_shown(current: RoundView, page: int = 1, q: str = "") -> TablesShown:
    """The page `page` of the round's tables (the last where past it) the find box's `q` matched."""
    q = q.strip()
    found = [t for t in current.tables if _matches(q, t, current.people)] if q else current.tables
    return TablesShown.of(found, page, TABLES_A_PAGE, q=q)


@dataclass(frozen=True)
class RoundView:
    """A round as event.html and the round's sheet read it: its tables and their players; under review (the
    draft, the round played) also what a hand edit broke and the hand edits kept."""

    round: TournamentRound
    tables: list[TournamentTable]
    people: dict[int, TournamentPlayer]
    warnings: Sequence[str] = ()
    hand_edits: Sequence[Mapping[str, Any]] = ()


def round_view(session: Session, rnd: TournamentRound, review: bool = False) -> RoundView:
    tables = tournaments.tables_of(session, rnd.pk)
    people = tournament_results.table_players(session, tables)
    if not review:
        return RoundView(rnd, tables, people)
    row = tournaments.get(session, rnd.tournament_id)
    return RoundView(
        rnd,
        tables,
        people,
        tournaments.draft_warnings(session, row, rnd, tables),
        tournaments.hand_edits(session, rnd.tournament_id, rnd.number),
    )


def _newest_committed(rounds: Sequence[TournamentRound]) -> TournamentRound | None:
    """The round the organiser's board shows: the newest committed one."""
    return next((r for r in reversed(rounds) if r.status == "committed"), None)


def current_round(
    session: Session, rounds: list[TournamentRound], organiser: bool
) -> tuple[RoundView | None, dict[int, EventRow]]:
    """The newest committed round's view and each table's first cells; a dispute's reason is the organiser's
    to read (the board's, never the public page's)."""
    newest = _newest_committed(rounds)
    if newest is None:
        return None, {}
    current = round_view(session, newest, True)
    tables, event_id = current.tables, current.round.tournament_id
    reasons = tournament_results.dispute_reasons(session, event_id, tables) if organiser else {}
    ended = tournament_results.games_ended(session, tables)
    return current, {t.pk: first_row(t, current.people, reasons.get(t.pk, ""), t.pk in ended) for t in tables}


def round_piece(session: Session, event_id: int, request: Request) -> str:
    """The newest committed round as the organiser's page draws it, each piece marked to be swapped out of band
    (its forms carry this stream's device's CSRF field: it is rendered for one stream, once a round)."""
    current, rows = current_round(session, tournaments.rounds_of(session, event_id), organiser=True)
    if current is None:
        return ""
    # A client on its bearer token passes no CSRF check (app.guard.security): its forms carry no token.
    request.scope.setdefault(security.CSRF_SCOPE_KEY, str)
    macros: Any = templates.get_template("_event_round.html").module  # its macros, by name
    event = tournaments.get(session, event_id)
    glance = summary([(t.table, t.pk, rows[t.pk].status) for t in current.tables])
    cells: Any = templates.get_template("_event_rows.html").module
    pieces = (macros.number(current, True), macros.head(current, True), cells.summary(glance, event.pk, True))
    return "".join(map(str, pieces)) + str(
        macros.tables(event, current, rows, tables_shown(current), request, True)
    )


@dataclass(frozen=True)
class StandingsShown(Paged[Standing]):
    """A page of the event's standings, with the results the standings count (each game once, a bye none),
    which every page says: a result counted shows on every device."""

    counted: int = 0


def standings_shown(lines: Sequence[Standing], page: int = 1) -> StandingsShown:
    """The page `page` of the standings (the last where past it)."""
    counted = sum(s.played for s in lines) // 2  # each game is in both its players' lines
    return StandingsShown.of(lines, page, STANDINGS_A_PAGE, counted=counted)


def standings_piece(standings: EventStandings, page: int = 1) -> str:
    """A page of the event's standings as the organiser's page draws it, to be swapped out of band (a frame
    of the board's stream sends it again once it changed)."""
    lines, people = standings
    macros: Any = templates.get_template("_event_rows.html").module
    return str(macros.standings(standings_shown(lines, page), people, True))
