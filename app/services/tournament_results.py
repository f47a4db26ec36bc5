"""An event's results (issue 57): a table's finished game offers its scored result (app.services.result) to
the event, both players' seats confirm it (or one disputes it), and only the organiser alters a result once
confirmed or disputed, logged with the result before and after. A lost tablet's seat: app.services.event_seats.

The standings (rules.event.standings) count the settled results, CSV as exported. A settled table's result
leaves the club as a signed bundle, imported by another club's league: app.services.league.

Nothing here commits: the route or page wraps each write in `app.services.writing.unit_of_work`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy.orm import QueryableAttribute, defer
from sqlmodel import Session, col, select

from app.core import live, watch
from app.core.db import ids_written
from app.data import schemas_events
from app.data.models import Event, Game, Tournament, TournamentLog, TournamentPlayer, TournamentTable
from app.data.schemas_clock import GameClock
from app.errors import Forbidden, RuleRefused
from app.services import clock, player_names, seating, tournaments
from app.services import events as events_service
from app.services import score as score_service
from app.services.result import game_result
from app.services.seating import Viewer
from rules.core.clock import Clock, Counted
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES
from rules.event.standings import Played, Standing, standings

Side = Literal["a", "b"]
BUNDLE_FORMAT = "firestep-result/2"  # /1 carried no game record: refused (its log hash cannot be checked)
MAX_BUNDLE_CHARS = schemas_events.MAX_BUNDLE_CHARS
SIDE_OF: dict[str, Side] = {"attacker": "a", "defender": "b"}  # the a player is the table's attacker
MAX_POINTS = schemas_events.MAX_POINTS
MAX_TEXT = schemas_events.MAX_TEXT
TableResult = schemas_events.TableResult  # a result as the event counts it: the column's and the answer's


# -- results from the table --------------------------------------------------------------------------------
def get_table(session: Session, tournament_id: int, table_id: int, locked: bool = False) -> TournamentTable:
    """The event's table; `locked`: read anew under the event's lock (`tournaments.lock`), not the copy the
    session holds from a read before it (the hostile pass of this stop: a page's read before the lock, two
    confirmations at once each acted on the table as it was and the second seat's logged twice)."""
    row = session.get(TournamentTable, table_id, populate_existing=locked)
    if row is None or row.tournament_id != tournament_id:
        raise NotFoundError("table", str(table_id))
    return row


def offered(session: Session, table: TournamentTable) -> TableResult | None:
    """The result the table's players are asked to confirm: the one offered, else the scored result of its
    ended game (the one `_offer` offers at the first confirmation), else nothing while it is played. The
    table's page shows it exactly when it offers the confirmation (`refusal` is None then)."""
    if table.offered or table.status != "playing" or table.game_id is None:
        return table.offered
    result = game_result(session, table.game_id)
    if result is None:
        return None
    return TableResult(
        winner=SIDE_OF.get(result.winner or "") if result.winner else None,
        a_points=int(result.points.get("attacker", 0)),
        b_points=int(result.points.get("defender", 0)),
        a_losses=int(result.losses.get("attacker", 0)),
        b_losses=int(result.losses.get("defender", 0)),
        reason=result.reason[:200],
    )


def _offer(session: Session, table: TournamentTable) -> TournamentTable:
    """The table's finished game offers its scored result, once (the caller asked `refusal` first: a game
    still being played is refused there)."""
    result = offered(session, table) if table.status == "playing" else None
    if result is None:
        return table
    table.offered = result
    table.status = "offered"
    session.add(table)
    tournaments.log(
        session, table.tournament_id, "offered", result.model_dump(), actor="table", table_id=table.pk
    )
    return table


def _settled(session: Session, row: Tournament, table: TournamentTable) -> None:
    """A table's result is settled: its printed join cards seat no one now (its seated devices keep their
    seats), and once it was the running round's last to settle, the round's timer stops as the organiser's stop
    does (every table hears it), where it counted on past the round's end."""
    if table.game_id is not None:
        seating.void_side_codes(session, seating.GAME, table.game_id, SIDES)
    committed = [r for r in tournaments.rounds_of(session, row.pk) if r.status == "committed"]
    if row.round_ends_at is None or not committed or committed[-1].pk != table.round_id:
        return
    others = [t for t in tournaments.tables_of(session, table.round_id) if t.pk != table.pk]
    if all(t.status in tournaments.SETTLED for t in others):
        tournaments.set_timer(session, row.pk, None)


def _wake(session: Session, table: TournamentTable) -> None:
    """The organiser's live view follows the table's game: a change of its result wakes it at commit."""
    if table.game_id is not None:
        live.mark(session, table.game_id)


# A seat's act on the table's result, as its refusals say it.
Act = Literal["confirm", "dispute"]


def not_a_player(act: Act) -> Forbidden:
    """The refusal of the act to any device but the table's two players' seats (its referee's too)."""
    settled = ": the organiser settles a result" if act == "dispute" else ""
    return Forbidden(f"only the two players' seats of this table {act} its result{settled} (Event results)")


def refusal(
    session: Session, table: TournamentTable, who: Viewer | None, act: Act = "confirm"
) -> Forbidden | RuleRefused | None:
    """Why a seat's confirmation (or dispute) of the table's result would be refused now, None when it would
    be taken: the one answer the act and the table's page (which offers the act only then) both read. Each
    sentence names the act asked (a referee's dispute was told who "confirm"s)."""
    if who is None or who.game_id != table.game_id or who.role not in SIDES:
        return not_a_player(act)
    if table.status == "playing" and (table.game_id is None or game_result(session, table.game_id) is None):
        # The rules' sentence, not a stale write's ("Someone changed this on another device"): a RuleRefused;
        # `allowed_now` says what the seats may do meanwhile.
        return RuleRefused(
            f"table {table.table}'s game is still being played: {act} its result once it ends "
            "(How a game is won)",
            current={"allowed_now": ["play on", "end the game"]},
        )
    if table.status not in ("playing", "offered"):
        return RuleRefused(
            f"table {table.table}'s result is {table.status}: only the organiser changes it now"
        )
    if getattr(table, f"{'a' if who.role == 'attacker' else 'b'}_confirmed"):
        # Once: a confirmation sent again (its first answer lost with a worker) was logged twice; and a seat's word
        # stands: its page offers no dispute after it (the organiser changes a result), nor does the API.
        return RuleRefused(f"your seat has confirmed table {table.table}'s result already (Event results)")
    return None


def _seat_side(session: Session, table: TournamentTable, who: Viewer, act: Act = "confirm") -> Side:
    if (refused := refusal(session, table, who, act)) is not None:
        raise refused
    return "a" if who.role == "attacker" else "b"


def confirm(session: Session, tournament_id: int, table_id: int, who: Viewer) -> TournamentTable:
    """A player's seat confirms the result its game offered; both confirmed, the event counts it."""
    row = tournaments.lock(session, tournament_id)
    table = get_table(session, tournament_id, table_id, locked=True)
    side = _seat_side(session, table, who)
    table = _offer(session, table)
    setattr(table, f"{side}_confirmed", True)
    if table.a_confirmed and table.b_confirmed:
        table.status, table.result = "confirmed", table.offered
        _settled(session, row, table)
    session.add(table)
    _wake(session, table)
    tournaments.log(session, tournament_id, "confirmed", {"side": side}, actor=who.role, table_id=table.pk)
    return table


def dispute(session: Session, tournament_id: int, table_id: int, who: Viewer, why: str) -> TournamentTable:
    """A player's seat disputes the offered result: the organiser settles it (alter)."""
    tournaments.lock(session, tournament_id)
    table = get_table(session, tournament_id, table_id, locked=True)
    side = _seat_side(session, table, who, "dispute")
    why = player_names.free_text(why, "why", "a dispute's reason", schemas_events.MAX_TEXT)
    table = _offer(session, table)
    table.status = "disputed"
    session.add(table)
    _wake(session, table)
    tournaments.log(session, tournament_id, "disputed", {"side": side, "why": why}, actor=who.role,
                    table_id=table.pk)  # fmt: skip
    return table


def alter(
    session: Session, tournament_id: int, table_id: int, result: TableResult, why: str
) -> TournamentTable:
    """The organiser sets a table's result (a disputed one, a confirmed one, one whose game cannot end, one
    typed from a paper slip), logged with the result before and after; a reason is asked only to override what
    both players confirmed."""
    row = tournaments.lock(session, tournament_id)
    table = get_table(session, tournament_id, table_id, locked=True)
    if table.status == "drafted":
        raise RuleRefused(f"table {table.table} is only a draft: commit its round first")
    if table.status == "confirmed" and not why.strip():
        raise RulesError("why", "both players confirmed this result: say why you change it")
    why = player_names.free_text(
        why, "why", "a reason", schemas_events.MAX_TEXT
    )  # logged and shown as a dispute's reason is
    before, was = table.result or table.offered, table.status
    table.result, table.status = result, "altered"
    if was not in tournaments.SETTLED:  # a settled result corrected leaves a timer the organiser set again
        _settled(session, row, table)
    session.add(table)
    _wake(session, table)
    # The next round's draft under review paired the standings before this result: it goes (the organiser drafts
    # again), as when who plays changes (event_roster; the hostile pass: a corrected result kept a stale pairing).
    gone = tournaments.discard_draft(session, tournament_id) if result != before else None
    was_said = before.model_dump() if before else {}
    tournaments.log(session, tournament_id, "altered", {"before": was_said, "after": result.model_dump(), "why": why,
                    "discarded_draft": gone}, table_id=table.pk)  # fmt: skip
    return table


# -- standings ---------------------------------------------------------------------------------------------
def played(session: Session, row: Tournament) -> list[Played]:
    out: list[Played] = []
    for r in tournaments.rounds_of(session, row.pk):
        if r.status != "committed":
            continue
        if r.bye_player_id is not None:
            out.append(Played(r.bye_player_id, None, None))
        for t in tournaments.tables_of(session, r.pk):
            if (res := tournaments.counted(t)) is not None:
                winner = {"a": t.a_player_id, "b": t.b_player_id}.get(res.winner or "")
                out.append(Played(t.a_player_id, t.b_player_id, winner, res.a_points, res.b_points))
    return out


EventStandings = tuple[
    list[Standing], dict[int, TournamentPlayer]
]  # every line, first place first; players by id


def event_standings(session: Session, tournament_id: int) -> EventStandings:
    row = tournaments.get(session, tournament_id)
    people = tournaments.players(session, tournament_id)
    lines = standings([p.pk for p in people], played(session, row), tournaments.scoring_of(row))
    return lines, {p.pk: p for p in people}


def standings_csv(session: Session, tournament_id: int) -> str:
    lines, people = event_standings(session, tournament_id)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["place", "player", "club", "force list", "points", "vp difference", "strength of schedule",
                "played", "won", "drawn", "lost", "byes"])  # fmt: skip
    for s in lines:
        p = people[s.player]
        w.writerow([s.place, _cell(p.name), _cell(p.club), _cell(p.force_list), s.points, s.vp, s.sos,
                    s.played, s.won, s.drawn, s.lost, s.byes])  # fmt: skip
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet never reads a player's name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def table_players(session: Session, tables: Sequence[TournamentTable]) -> dict[int, TournamentPlayer]:
    ids = {i for t in tables for i in (t.a_player_id, t.b_player_id)}
    if not ids:
        return {}
    playing = select(TournamentPlayer).where(col(TournamentPlayer.id).in_(ids_written("ids")))
    return {p.pk: p for p in session.exec(playing, params={"ids": sorted(ids)})}


# -- the organiser's live view: each table's score and clock -------------------------------------------------
@dataclass(frozen=True)
class TableState:
    """A table's game as the organiser's view last read it: its latest event, each side's points then and its
    clock as its log stood (the clock itself is worked out from it as of each frame, with no read), with the
    newest event the clock has read (`clock_through`: it may be newer than `last_event`, read before it)."""

    last_event: int
    points: dict[str, int]
    clock: Counted
    clock_through: int


@dataclass
class Following:
    """What the organiser's live view knows of each table's game between frames: a game is read again only once
    it has a new event (one query for every table says which), and then only its new events (one query for all
    the games that moved): each side's points worked out again only when one of them may change the score (a
    marker does not), the clock read on over those it reads. Forty tables where one moved cost a few rows."""

    kept: dict[int, TableState] = field(default_factory=dict)

    def read(self, session: Session, games: Sequence[Game]) -> dict[int, TableState]:
        latest = score_service.newest_events(session, [g.pk for g in games])
        moved = {
            g.pk: had
            for g in games
            if (had := self.kept.get(g.pk)) is not None and had.last_event != latest.get(g.pk, 0)
        }
        since: dict[int, list[Event]] = {pk: [] for pk in moved}
        if moved:
            q2 = (
                select(Event)
                .where(
                    col(Event.game_id).in_(ids_written("moved")),
                    col(Event.id) > min(h.last_event for h in moved.values()),
                )
                .order_by(col(Event.id))
            )
            for ev in session.exec(q2, params={"moved": list(moved)}):
                if ev.pk > moved[ev.game_id].last_event:
                    since[ev.game_id].append(ev)
        first = [game for game in games if game.pk not in self.kept]
        # The whole record (every part): the organiser's read is the server's own, never sent as it is.
        rescored = [
            game
            for game in games
            if game.pk in moved
            and any(
                score_service.touches_score(events_service.event_dict(ev, events_service.PART_ORDER))
                for ev in since[game.pk]
            )
        ]
        # Every table read in a few queries, however many; each game's newest event read once, above.
        points = score_service.game_points(session, first + rescored, latest)
        clocks = clock.kept_through(session, first)
        for game in games:
            last = latest.get(game.pk, 0)
            had = self.kept.get(game.pk)
            if had is None:
                self.kept[game.pk] = TableState(last, points[game.pk], *clocks[game.pk])
            elif game.pk in moved:
                read = clock.read_on(session, game, had.clock, had.clock_through, since[game.pk])
                self.kept[game.pk] = TableState(last, points.get(game.pk, had.points), *read)
        return self.kept

    @staticmethod
    def clock_of(game: Game, state: TableState, now: datetime) -> Clock:
        return clock.clock_of(game, state.clock, now)


# -- the organiser's board ---------------------------------------------------------------------------------------
def table_out(t: TournamentTable, people: dict[int, TournamentPlayer]) -> schemas_events.TableOut:
    return schemas_events.TableOut.model_validate(
        {**t.model_dump(), "a_name": people[t.a_player_id].name, "b_name": people[t.b_player_id].name}
    )


def current_tables(session: Session, tournament_id: int) -> tuple[int | None, list[TournamentTable]]:
    """The newest committed round's number and its tables (none before a round is committed)."""
    committed = [r for r in tournaments.rounds_of(session, tournament_id) if r.status == "committed"]
    return (
        (committed[-1].number, tournaments.tables_of(session, committed[-1].pk)) if committed else (None, [])
    )


def board_read(
    session: Session, tournament_id: int, now: datetime, following: Following
) -> watch.Read[schemas_events.BoardOut]:
    """The board (`board`) and what wakes it (app.core.watch) in one read of the round: the event's own channel,
    which a round committed publishes (app.services.round_commit), and the games of its newest committed round."""
    now_board = board(session, tournament_id, now, following)
    return watch.Read(_waking(tournament_id, [t.game_id for t in now_board.tables]), now_board)


def board_feeds(session: Session, tournament_id: int) -> list[int]:
    """What `board_read` will name as waking the board, as the round stands, without reading the board."""
    _, tables = current_tables(session, tournament_id)
    return _waking(tournament_id, [t.game_id for t in tables])


def _waking(tournament_id: int, games: Sequence[int | None]) -> list[int]:
    """The feeds that wake the board: the event's own channel and its round's games."""
    return [watch.event_channel(tournament_id), *(g for g in games if g is not None)]


def games_ended(session: Session, tables: Sequence[TournamentTable]) -> set[int]:
    """The ids of these tables whose game has ended (its result offered to both players, `offered`), in one query
    however many: the organiser's board as it opens says them (issue 93's newcomer pass: the round at a glance
    said "0 with a result to confirm" until the stream's first frame)."""
    games = {t.game_id: t.pk for t in tables if t.game_id is not None}
    if not games:
        return set()
    ended = select(col(Game.id)).where(col(Game.id).in_(list(games)), col(Game.status) == "finished")
    return {games[g] for g in session.exec(ended) if g is not None}


def dispute_reasons(
    session: Session,
    tournament_id: int,
    tables: Sequence[TournamentTable],
    kinds: tuple[str, ...] = ("disputed",),
) -> dict[int, str]:
    """Each disputed table's reason as its player gave it (its latest dispute's; the organiser's to read: a
    seat's own words, bounded on entry), by table id; with "altered" in `kinds`, also each table the organiser
    set, the reason given then (for its table's page)."""
    status = {t.pk: t.status for t in tables if t.status in kinds}
    if not status:
        return {}
    q = select(TournamentLog).where(
        TournamentLog.tournament_id == tournament_id,
        col(TournamentLog.kind).in_(kinds),
        col(TournamentLog.table_id).in_(status),
    )
    entries = session.exec(q.order_by(col(TournamentLog.id)))
    # A table's status names the entry that explains it: one disputed and then set reads the organiser's why.
    return {
        e.table_id: str(e.detail.get("why", ""))[:MAX_TEXT]
        for e in entries
        if e.table_id is not None and e.kind == status[e.table_id]
    }


def board(
    session: Session, tournament_id: int, now: datetime, following: Following | None = None
) -> schemas_events.BoardOut:
    """The organiser's view: the current round's tables with their games' turn, status, score and clock (as of
    `now`) and a dispute's reason; `following` keeps each game's score and clock log from the last frame until
    it has a new event."""
    row = tournaments.get(session, tournament_id)
    number, tables = current_tables(session, tournament_id)
    people = table_players(session, tables)
    ids = [t.game_id for t in tables if t.game_id is not None]
    # No game's terrain: the board reads none, and the largest table's is 20,000 points to decode (64 of them
    # were 1.0 s of the board's 1.4 s of CPU); a later read of one loads it then.
    query = select(Game).options(defer(cast("QueryableAttribute[Any]", Game.terrain)))
    asked = query.where(col(Game.id).in_(ids_written("ids")))
    games = {g.pk: g for g in session.exec(asked, params={"ids": ids})} if ids else {}
    states = (following or Following()).read(session, list(games.values()))
    reasons = dispute_reasons(session, tournament_id, tables)
    live_tables: list[schemas_events.TableLive] = []
    for t in tables:
        game = games.get(t.game_id) if t.game_id is not None else None
        state = states.get(game.pk) if game is not None else None
        live_tables.append(
            schemas_events.TableLive(
                **table_out(t, people).model_dump(),
                turn=game.turn if game else None,
                game_status=game.status if game else None,
                score=dict(state.points) if state else {},
                clock=GameClock.of(Following.clock_of(game, state, now))
                if game is not None and state is not None
                else None,
                dispute_reason=reasons.get(t.pk, ""),
            )
        )
    return schemas_events.BoardOut(
        event=schemas_events.ClubEventOut.model_validate(row, from_attributes=True),
        round=number,
        round_ends_at=row.round_ends_at,
        tables=live_tables,
        disputes=sum(1 for t in tables if t.status == "disputed"),
    )
