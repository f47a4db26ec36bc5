"""A club event day (issue 57): an event of N rounds for one rule set and period, its organiser's token, the
players registered (name, club, force list by name), and each round's pairing, drafted for the organiser to
review (rules.event.pairing: Swiss by points, no rematch, clubs apart in round 1, a bye for an odd count,
no table twice), then committed: every table gets a game made from the round's scenario, its seats joined by
the round's join cards. The results, standings and signed bundles are app.services.tournament_results.

"Tournament" names the tables (an `Event` is already a game's log entry); the pages and the API say event.
Nothing here commits: the route or page wraps each write in `app.services.writing.unit_of_work`.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo, available_timezones

from sqlalchemy import Executable, bindparam, insert, update
from sqlmodel import Session, col, select

from app.core import live
from app.data import schemas_events
from app.data.models import (
    Game,
    Tournament,
    TournamentLog,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    TournamentToken,
    utcnow,
)
from app.errors import Conflict, Forbidden, RuleRefused, Unauthorized
from app.services import player_names, scenarios, seating
from app.services.games import lock_game, table_of_game
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES
from rules.event.pairing import (
    Entrant,
    NotInPairing,
    Pair,
    Pairing,
    breaches,
    pair_round,
    swap_players,
    swap_tables,
)
from rules.event.standings import TIE_BREAKS, EventScoring, TieBreak
from rules.registry import all_game_rules, get_ruleset

ORGANISER = "organiser"
ORGANISER_COOKIE = "firestep_organiser"  # the organiser's token on the pages' device (app/pages/events.py)
MAX_PLAYERS = schemas_events.MAX_PLAYERS
MAX_ROUNDS = schemas_events.MAX_ROUNDS
# The table statuses whose result the event counts; the others wait for the table or the organiser.
SETTLED = ("confirmed", "altered")


def counted(table: TournamentTable) -> schemas_events.TableResult | None:
    """The result the event counts of the table: its result once settled, else None."""
    return table.result if table.status in SETTLED else None


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    club: str = ""
    force_list: str = ""


@dataclass(frozen=True)
class Made:
    """A committed table: its row, its game and the game's credentials (shown once, to the organiser)."""

    table: TournamentTable
    game: Game
    credentials: seating.Credentials


@dataclass
class Ledger:
    """What the rounds so far left each player with: event points, opponents, tables and byes."""

    points: dict[int, int] = field(default_factory=dict)
    opponents: dict[int, set[int]] = field(default_factory=dict)
    tables: dict[int, set[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)


# -- the event and its organiser ---------------------------------------------------------------------------
def scoring_of(row: Tournament) -> EventScoring:
    s = row.scoring
    order: tuple[TieBreak, ...] = tuple(s.get("order", TIE_BREAKS))
    return EventScoring(s.get("win", 3), s.get("draw", 1), s.get("loss", 0), s.get("bye", 3), order)


def create(
    session: Session,
    secret_key: str,
    *,
    name: str,
    ruleset: str,
    period: str | None,
    rounds: int,
    scoring: EventScoring,
    time_zone: str = "UTC",
) -> tuple[Tournament, str]:
    """A new event and its organiser's token (shown once: only its HMAC is kept); its times are printed in
    `time_zone` (an IANA name, refused naming the field when this server knows no such zone)."""
    if time_zone not in _time_zones():  # a name, never a path that ZoneInfo would read
        raise RulesError(
            "time_zone", f"no time zone is called {time_zone[:40]}: give one such as Europe/London"
        )
    # Kept as the players' names are (NFKC, no direction override or zero-width character): it is printed on the
    # cards and slips and signed into every bundle, whose league shows it.
    name = player_names.normalised(name, "name")
    rs = get_ruleset(ruleset)  # refuses an unknown rule set naming it
    if ruleset not in {r.book.ruleset_id for r in all_game_rules()}:  # a campaign's map: no table to pair
        raise RulesError("ruleset", f"{rs.name} is not played at a table: choose a rule set played as a game")
    if period and not rs.period_ids:
        raise RulesError("period", f"{rs.name} has no periods: give none")
    played = scenarios.periods_played(session, ruleset)
    choose = f"choose {' or '.join(played)}" if played else "import a scenario of it first"
    if rs.period_ids and not period:
        raise RulesError("period", f"give the event's period ({choose})")
    ctx = rs.context(period, {})  # refuses an unknown period naming it
    if rs.period_ids and ctx.period not in played:
        raise RulesError("period", f"no {rs.name} scenario is of the {ctx.period} period: {choose}")
    row = Tournament(
        name=name,
        ruleset=ruleset,
        period=ctx.period or "",
        rounds=rounds,
        time_zone=time_zone,
        scoring={
            "win": scoring.win,
            "draw": scoring.draw,
            "loss": scoring.loss,
            "bye": scoring.bye,
            "order": list(scoring.order),
        },
    )
    session.add(row)
    session.flush()
    token = seating.new_token()
    session.add(TournamentToken(tournament_id=row.pk, token_hash=seating.digest(secret_key, token)))
    log(session, row.pk, "created", {"name": name, "rounds": rounds})
    return row, token


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def local_time(row: Tournament, when: datetime) -> datetime:
    """A time as the event's own clock reads it (SQLite keeps UTC naive)."""
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(ZoneInfo(row.time_zone))


def get(session: Session, tournament_id: int) -> Tournament:
    row = session.get(Tournament, tournament_id)
    if row is None:
        raise NotFoundError("event", str(tournament_id))
    return row


def list_events(session: Session, limit: int = 200, older_than: int | None = None) -> list[Tournament]:
    """The newest first, `limit` of them (the lobby's, or a page of the API's), older than the id `older_than`."""
    query = select(Tournament).order_by(col(Tournament.id).desc()).limit(limit)
    if older_than is not None:
        query = query.where(col(Tournament.id) < older_than)
    return list(session.exec(query))


def event_of_token(session: Session, secret_key: str, token: str) -> int | None:
    """The event whose organiser `token` is (not revoked), else None (the start page's join box takes it too)."""
    row = session.exec(
        select(TournamentToken).where(col(TournamentToken.token_hash) == seating.digest(secret_key, token))
    ).first()
    return row.tournament_id if row is not None and row.revoked_at is None else None


def require_organiser(session: Session, secret_key: str, tournament_id: int, token: str | None) -> None:
    """401 without a token or with one no event knows, 403 for another event's."""
    if not token:
        raise Unauthorized()
    event_id = event_of_token(session, secret_key, token)
    if event_id is None:
        raise Unauthorized("this is not an organiser's token: use the token the event was made with")
    if not hmac.compare_digest(str(event_id), str(tournament_id)):
        raise Forbidden("this token is the organiser's of another event")


def lock(session: Session, tournament_id: int) -> Tournament:
    """The event's row, locked for a write, its version moved on (every device's view is then stale): one
    statement, the row answered as the write left it (a round's commit takes the lock at each of its steps)."""
    row = session.scalars(_LOCK, {"row_id": tournament_id, "now": utcnow()}).first()
    if not isinstance(row, Tournament):
        raise NotFoundError("event", str(tournament_id))
    return row


def _lock_statement() -> Executable:
    """The event's lock and its read: an UPDATE moving its version on, answering the row (RETURNING), built once
    and its id and time bound at each write (an UPDATE then a SELECT was two statements a lock)."""
    table = Tournament.__table__  # type: ignore[attr-defined]
    moved = (
        update(table)
        .where(table.c.id == bindparam("row_id"))
        .values(version=table.c.version + 1, updated_at=bindparam("now", type_=table.c.updated_at.type))
        .returning(*table.c)
    )
    return select(Tournament).from_statement(moved).execution_options(populate_existing=True)


_LOCK = _lock_statement()


def log(session: Session, tournament_id: int, kind: str, detail: dict[str, object], **kw: object) -> None:
    actor = str(kw.get("actor", ORGANISER))
    table_id = kw.get("table_id")
    session.add(
        TournamentLog(
            tournament_id=tournament_id,
            kind=kind,
            actor=actor,
            table_id=int(table_id) if isinstance(table_id, int) else None,
            detail=dict(detail),
        )
    )


# -- players -----------------------------------------------------------------------------------------------
def players(session: Session, tournament_id: int) -> list[TournamentPlayer]:
    q = select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id)
    return list(session.exec(q.order_by(col(TournamentPlayer.id))))


def register(session: Session, tournament_id: int, entries: Sequence[PlayerEntry]) -> list[TournamentPlayer]:
    """Add players (seeded in the order registered); a late one joins at the next round drafted. Names are
    kept normalised, and one that looks like another's is refused (app.services.player_names)."""
    lock(session, tournament_id)
    have = players(session, tournament_id)
    if len(have) + len(entries) > MAX_PLAYERS:
        raise RulesError("players", f"an event takes at most {MAX_PLAYERS} players")
    named = [
        (f"players.{i}.name", player_names.normalised(e.name, f"players.{i}.name"))
        for i, e in enumerate(entries)
    ]
    player_names.refuse_look_alikes(named, (p.name for p in have))
    added = []
    for i, ((_, name), e) in enumerate(zip(named, entries, strict=True)):
        club = player_names.normalised(e.club, f"players.{i}.club") if e.club.strip() else ""
        row = TournamentPlayer(tournament_id=tournament_id, name=name, club=club, force_list=e.force_list)
        session.add(row)
        added.append(row)
    session.flush()
    log(session, tournament_id, "registered", {"players": [p.name for p in added]})
    return added


# -- rounds ------------------------------------------------------------------------------------------------
def rounds_of(session: Session, tournament_id: int) -> list[TournamentRound]:
    q = select(TournamentRound).where(TournamentRound.tournament_id == tournament_id)
    return list(session.exec(q.order_by(col(TournamentRound.number))))


def tables_of(session: Session, round_id: int) -> list[TournamentTable]:
    q = select(TournamentTable).where(TournamentTable.round_id == round_id)
    return list(session.exec(q.order_by(col(TournamentTable.table))))


def get_round(session: Session, tournament_id: int, number: int) -> TournamentRound:
    row = session.exec(
        select(TournamentRound).where(
            TournamentRound.tournament_id == tournament_id, TournamentRound.number == number
        )
    ).first()
    if row is None:
        raise NotFoundError("round", str(number))
    return row


def ledger(session: Session, row: Tournament) -> Ledger:
    """Event points, opponents, tables and byes from the committed rounds' settled results."""
    scoring = scoring_of(row)
    out = Ledger()
    for p in players(session, row.pk):
        out.points[p.pk] = 0
        out.opponents[p.pk], out.tables[p.pk] = set(), set()
        out.byes[p.pk] = 0
    for r in rounds_of(session, row.pk):
        if r.status != "committed":
            continue
        if r.bye_player_id is not None:
            out.byes[r.bye_player_id] += 1
            out.points[r.bye_player_id] += scoring.bye
        for t in tables_of(session, r.pk):
            out.opponents[t.a_player_id].add(t.b_player_id)
            out.opponents[t.b_player_id].add(t.a_player_id)
            out.tables[t.a_player_id].add(t.table)
            out.tables[t.b_player_id].add(t.table)
            if (result := counted(t)) is not None:
                winner = result.winner
                for pid, me in ((t.a_player_id, "a"), (t.b_player_id, "b")):
                    won = scoring.draw if winner is None else scoring.win if winner == me else scoring.loss
                    out.points[pid] += won
    return out


def entrants_of(session: Session, row: Tournament) -> dict[int, Entrant]:
    """The players still in the event as the next round's pairing sees them, by id (in seed order)."""
    book = ledger(session, row)
    return {
        p.pk: Entrant(
            p.pk,
            p.club.casefold(),
            book.points[p.pk],
            i,
            frozenset(book.opponents[p.pk]),
            frozenset(book.tables[p.pk]),
            book.byes[p.pk] > 0,
        )
        for i, p in enumerate(players(session, row.pk))
        if not p.dropped
    }


TABLES_NAMED = 5  # a sentence names this many tables, then counts the rest ("and 3 more")


def tables_named(numbers: Sequence[int]) -> str:
    """Tables by number in a sentence, every one or the first few and how many more: "table 2", "tables 1 and
    4", "tables 1, 2, 3, 4, 5 and 7 more" (a refusal named one of two waiting tables: the hostile pass of
    session 17)."""
    if len(numbers) == 1:
        return f"table {numbers[0]}"
    shown = [str(n) for n in numbers[:TABLES_NAMED]]
    more = len(numbers) - len(shown)
    last = f"{more} more" if more else shown.pop()
    return f"tables {', '.join(shown)} and {last}"


def draft_refusal(session: Session, row: Tournament) -> RuleRefused | None:
    """Why the next round could not be drafted now, None when it could: the one answer `draft` and the
    organiser's page (which offers the draft only then) both read."""
    done = rounds_of(session, row.pk)
    committed = [r for r in done if r.status == "committed"]
    for r in done:
        if r.status == COMMITTING:  # its games are being made (or were, until interrupted): none is drafted
            return RuleRefused(f"round {r.number} is being committed: commit it again to finish it")
    for r in committed:
        if waiting := [t.table for t in tables_of(session, r.pk) if t.status not in SETTLED]:
            named = tables_named(waiting)
            return RuleRefused(f"not yet: round {r.number} still waits for the result of {named}")
    if len(committed) >= row.rounds:
        return RuleRefused(f"the event is over: its last round, round {row.rounds}, has been played")
    return None


def draft(
    session: Session, tournament_id: int, scenario: str, minutes: int, version: int | None = None
) -> tuple[TournamentRound, list[TournamentTable]]:
    """The next round's pairing for the organiser to review (a draft drafted again is replaced): refused as
    `draft_refusal` says, and, given the `version` the organiser read, once the event moved on since."""
    row = lock(session, tournament_id)
    doc = scenarios.get_document(session, scenario)  # 404 naming an unknown scenario
    if doc.get("ruleset") != row.ruleset:
        raise RulesError("scenario", f"the scenario is a {doc.get('ruleset')} game, the event {row.ruleset}")
    if (
        doc.get("period") or ""
    ) != row.period:  # a rule set of no periods: the scenario's null, the event's ""
        raise RulesError(
            "scenario", f"the scenario is of the {doc.get('period')} period, the event {row.period}"
        )
    if version is not None and row.version != version + 1:  # the lock moved it on by one from what was read
        raise Conflict(
            f"the event changed on another device (it is at version {row.version - 1}): read it again"
        )
    if (refused := draft_refusal(session, row)) is not None:
        raise refused
    number = len([r for r in rounds_of(session, tournament_id) if r.status == "committed"]) + 1
    discard_draft(session, tournament_id)  # drafted again: the draft and its tables go
    entrants = list(entrants_of(session, row).values())
    if len(entrants) < 2:
        raise RulesError("players", "register at least two players before pairing a round")
    pairing = pair_round(entrants, number)
    rnd = TournamentRound(
        tournament_id=tournament_id,
        number=number,
        scenario=scenario,
        bye_player_id=pairing.bye,
        minutes=minutes,
    )
    session.add(rnd)
    session.flush()
    # The tables written as one INSERT of many rows and read back: made as ORM objects and flushed one by one,
    # 400 tables were half the draft's second of CPU (issue 93). Every column said, as a new row holds it (the
    # table's own insert: the ORM's leaves out a None, which a JSON column of a model keeps as {}).
    table = TournamentTable.__table__  # type: ignore[attr-defined]
    new = TournamentTable(tournament_id=tournament_id, round_id=rnd.pk, table=0, a_player_id=0, b_player_id=0)
    blank = {c.name: getattr(new, c.name) for c in table.columns if c.name != "id"}
    session.execute(
        insert(table),
        [{**blank, "table": p.table, "a_player_id": p.a, "b_player_id": p.b} for p in pairing.pairs],
    )
    tables = tables_of(session, rnd.pk)
    log(session, tournament_id, "drafted", {"round": number, "tables": len(tables), "bye": pairing.bye})
    return rnd, tables


def discard_draft(session: Session, tournament_id: int) -> int | None:
    """The draft under review and its tables gone (drafted again, or its players changed); its number."""
    gone = None
    for old in rounds_of(session, tournament_id):
        if old.status == "draft":
            for t in tables_of(session, old.pk):
                session.delete(t)
            session.flush()  # the tables before their round, which the database would cascade to them
            session.delete(old)
            gone = old.number
    session.flush()
    return gone


# -- the draft edited by hand ----------------------------------------------------------------------------------
SwapKind = Literal["players", "tables"]
HAND_EDIT = "hand-edit"  # the event log's kind of a hand edit of a draft


def pairing_of(rnd: TournamentRound, tables: Sequence[TournamentTable]) -> Pairing:
    return Pairing(tuple(Pair(t.table, t.a_player_id, t.b_player_id) for t in tables), rnd.bye_player_id)


def edit_draft(
    session: Session, tournament_id: int, number: int, version: int, swap: SwapKind, first: int, second: int
) -> tuple[TournamentRound, list[TournamentTable]]:
    """The organiser's hand edit of a draft: two players exchange places (one may be the bye's), or two pairs
    their tables; refused once committed, or when the event moved on since `version` was read (no lost update).
    Logged in the round (`hand_edits`); what the hand pairing breaks is `draft_warnings`, never a refusal."""
    row = lock(session, tournament_id)
    rnd = get_round(session, tournament_id, number)
    if rnd.status != "draft":
        done = "is being committed" if rnd.status == COMMITTING else "has been committed"
        raise RuleRefused(f"round {number} {done}: its pairing is being played")
    if row.version != version + 1:  # the lock moved it on by one from what the organiser read
        raise Conflict(
            f"the draft changed since you read it (the event is at version {row.version - 1}): read it again"
        )
    if first == second:
        raise RulesError("second", f"swap {swap} needs two different ones, not {first} twice")
    tables = tables_of(session, rnd.pk)
    try:
        edit = swap_players if swap == "players" else swap_tables
        pairing = edit(pairing_of(rnd, tables), first, second)
    except NotInPairing as e:
        what = "player" if swap == "players" else "table"
        value = first if e.which == "first" else second
        raise RulesError(e.which, f"{what} {value} is not in round {number}'s draft") from None
    by_table = {p.table: p for p in pairing.pairs}
    for t in tables:  # the rows keep their table numbers; the pairs move between them
        t.a_player_id, t.b_player_id = by_table[t.table].a, by_table[t.table].b
        session.add(t)
    rnd.bye_player_id = pairing.bye
    session.add(rnd)
    session.flush()
    log(session, tournament_id, HAND_EDIT, {"round": number, "swap": swap, "first": first, "second": second})
    return rnd, tables


def hand_edits(session: Session, tournament_id: int, number: int) -> list[dict[str, Any]]:
    """The hand edits of round `number`'s pairing since it was last drafted, in order (from the event log)."""
    q = select(TournamentLog).where(
        TournamentLog.tournament_id == tournament_id, col(TournamentLog.kind).in_(["drafted", HAND_EDIT])
    )
    out: list[dict[str, Any]] = []
    for entry in session.exec(q.order_by(col(TournamentLog.id))):
        if entry.detail.get("round") != number:
            continue
        if entry.kind == "drafted":
            out = []
        else:
            out.append(dict(entry.detail))
    return out


def draft_warnings(
    session: Session, row: Tournament, rnd: TournamentRound, tables: Sequence[TournamentTable]
) -> list[str]:
    """What the draft breaks that the drafting avoids where it can, in words (rules.event.pairing.breaches)."""
    if rnd.status != "draft":
        return []
    people = {p.pk: p for p in players(session, row.pk)}
    out = []
    for b in breaches(list(entrants_of(session, row).values()), pairing_of(rnd, tables), rnd.number):
        who = " and ".join(people[p].name for p in b.players)
        out.append(
            {
                "rematch": f"{who} have played each other before: a rematch",
                "club": f"{who} are both of {people[b.players[0]].club} in round 1",
                "table": f"{who} played at table {b.table} before",
                "bye": f"{who} had a bye before: a second bye",
            }[b.kind]
        )
    return out


COMMITTING = "committing"  # a round's status while its games are made, between draft and committed
GAMES_MADE = (
    "games-made"  # the event log's kind of some of a committing round's games made: {table id: game id}
)


# -- the round's join cards --------------------------------------------------------------------------------------
CARDS = "join-cards"  # the event log's kind of a round's cards made: its nonce, whence every table's codes


def card_code(secret_key: str, nonce: str, game_id: int, side: str) -> str:
    return seating.derived_code(secret_key, f"event-card:{nonce}:{game_id}:{side}")


def _card_codes(
    session: Session, secret_key: str, tournament_id: int, number: int, games: Sequence[int]
) -> dict[int, dict[str, str]]:
    """New join codes for these games of round `number`, each an HMAC of a new nonce (logged), so the round's
    cards print the same codes however often they are printed, until the organiser asks for new ones."""
    nonce = secrets.token_hex(16)
    log(session, tournament_id, CARDS, {"round": number, "nonce": nonce})
    out: dict[int, dict[str, str]] = {}
    for game_id in games:
        out[game_id] = {side: card_code(secret_key, nonce, game_id, side) for side in SIDES}
    seating.set_side_codes(session, seating.GAME, secret_key, out)
    return out


def new_cards(
    session: Session, secret_key: str, tournament_id: int, number: int
) -> dict[int, dict[str, str]]:
    """New join codes on every table of a committed round (the organiser's ask: the cards printed before stop
    working; seated devices keep their seats)."""
    lock(session, tournament_id)
    rnd = get_round(session, tournament_id, number)
    if rnd.status == COMMITTING:
        raise RuleRefused(f"round {number} is being committed: its cards come once its games are made")
    if rnd.status != "committed":
        raise RuleRefused(f"round {number} is a draft: commit it to make its games and their cards")
    games = [t.game_id for t in tables_of(session, rnd.pk) if t.game_id is not None]
    for game_id in games:
        lock_game(session, game_id)
    return _card_codes(session, secret_key, tournament_id, number, games)


def card_nonce(session: Session, tournament_id: int, number: int) -> str | None:
    """The nonce of round `number`'s last cards made here (None when none were)."""
    q = select(TournamentLog).where(TournamentLog.tournament_id == tournament_id, TournamentLog.kind == CARDS)
    return next(
        (str(e.detail["nonce"]) for e in session.exec(q.order_by(col(TournamentLog.id).desc()))
         if e.detail.get("round") == number),
        None,
    )  # fmt: skip


def set_timer(session: Session, tournament_id: int, ends_at: datetime | None) -> Tournament:
    """The organiser moves the round's end (or stops the timer): every table's game of the running round is
    woken, so its pages hear it on the game's stream (app.routes.events: the round `aside`), and so is the
    organiser's view, which follows those games."""
    row = lock(session, tournament_id)
    row.round_ends_at = ends_at
    session.add(row)
    committed = [r for r in rounds_of(session, tournament_id) if r.status == "committed"]
    for t in tables_of(session, committed[-1].pk) if committed else []:
        if t.game_id is not None:
            live.mark(session, t.game_id)
    log(session, tournament_id, "timer", {"ends_at": ends_at.isoformat() if ends_at else None})
    return row


@dataclass(frozen=True)
class TableLink:
    """An event table's page as its game's pages link it (one tap from the game to its result and timer)."""

    path: str
    table: int


def table_link(session: Session, game_id: int) -> TableLink | None:
    table = table_of_game(session, game_id)
    if table is None:
        return None
    return TableLink(f"/events/{table.tournament_id}/tables/{table.pk}", table.table)


@dataclass(frozen=True)
class RoundTimer:
    """The round a table's game is played in and when it ends (its map and referee pages show the time left)."""

    number: int
    ends_at: datetime


def round_timer(session: Session, game_id: int) -> RoundTimer | None:
    """The running round's timer of the event table this game is played at; None for a game of no event, of
    an earlier round, or while the organiser has the timer stopped."""
    table = table_of_game(session, game_id)
    if table is None:
        return None
    row = session.get(Tournament, table.tournament_id)
    if row is None or row.round_ends_at is None:
        return None
    rounds = [r for r in rounds_of(session, row.pk) if r.status == "committed"]
    if not rounds or rounds[-1].pk != table.round_id:
        return None
    ends = row.round_ends_at
    return RoundTimer(
        rounds[-1].number, ends if ends.tzinfo else ends.replace(tzinfo=UTC)
    )  # SQLite: naive UTC
