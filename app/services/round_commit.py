"""A drafted round of an event committed: a game per table from the round's scenario, in short units of work
(issue 63: one transaction for a round's games held SQLite's write lock for 0.6-2.3 s, and every other table's
write waited it out). The steps are `RoundCommit`'s; `commit_round` runs them at once in the caller's unit of
work."""

from __future__ import annotations

import secrets
import time
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import update
from sqlalchemy.orm import QueryableAttribute, defer
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, func, select

from app.core import live, watch
from app.data.models import Game, Tournament, TournamentLog, TournamentRound, TournamentTable
from app.errors import RuleRefused
from app.services import game_setup, score_store, seating
from app.services.tournaments import (
    CARDS,
    COMMITTING,
    GAMES_MADE,
    Made,
    card_code,
    card_nonce,
    get,
    get_round,
    hand_edits,
    lock,
    log,
    players,
    tables_of,
    utcnow,
)
from rules.core.vocabulary import SIDES


def games_made(session: Session, tournament_id: int, number: int) -> dict[int, int]:
    """The games made so far for round `number`'s tables while it is committing, by table id (the event log's
    GAMES_MADE entries: no table row names its game before the round is committed, so no page shows one)."""
    q = select(TournamentLog).where(
        TournamentLog.tournament_id == tournament_id, TournamentLog.kind == GAMES_MADE
    )
    out: dict[int, int] = {}
    for entry in session.exec(q.order_by(col(TournamentLog.id))):
        if entry.detail.get("round") == number:
            out.update({int(t): int(g) for t, g in entry.detail.get("games", {}).items()})
    return out


def progress(session: Session, tournament_id: int, number: int) -> tuple[int, int, int]:
    """A committing round's tables with their game made so far, its tables, and its games made and shown so far
    (out of the archive, each its score stored): the commit's last steps once every table's game is made (issue
    93: "400 of 400 tables made" was said for ~170 s while these steps went on)."""
    tables = tables_of(session, get_round(session, tournament_id, number).pk)
    made = games_made(session, tournament_id, number)
    shown = 0
    if made:
        q = select(func.count(col(Game.id))).where(
            col(Game.id).in_(list(made.values())), col(Game.archived_at).is_(None)
        )
        shown = int(session.exec(q).one())
    return sum(t.pk in made for t in tables), len(tables), shown


def step_budget(session: Session) -> float:
    """How long a step of a round's commit may hold the lock: on SQLite 30 ms (its one write lock is every
    game's); on PostgreSQL 250 ms (another game's write takes its own rows' locks, never the round's, and a step
    a table cost 13 ms of CPU each: 2.6 s for 200 tables, 0.25 s in one step), steps still, so that a request
    stops near its CPU budget (commit_cpu_seconds) however large the round."""
    return 0.03 if session.get_bind().dialect.name == "sqlite" else 0.25


def paced(budget: float, spent: float, n: int) -> int:
    """How many things the next step does to fit `budget` seconds, at the pace of this one's `n` in `spent`
    (at least one, at most twice as many)."""
    return max(1, min(2 * n, int(budget * n / spent) if spent > 0 else 2 * n))


FORCE_PIECE = 100  # units of the round's first game's force a step writes at first and at least (~5 ms)


class RoundCommit:
    """A drafted round committed in short units of work (issue 63: one transaction for a round's games held
    SQLite's write lock for 0.6-2.3 s, and every other table's write waited it out). The caller runs each step
    in its own unit of work (app.services.writing.step_by_step): `begin` marks the round committing (a draft, or a
    committing round resumed: a retry after a crash or a refusal midway finishes the job); `make_some` makes
    the games of the next few tables without one, hidden (archived) and recorded in the event log, as many as
    fit `budget` seconds by the pace so far (the first table's game's force a piece a step, as many units as
    fit: every other game's copied from it once it is whole), then takes them out of the archive a few a step
    (each is its whole row written anew), and answers whether anything is left to do; `finish` shows them: each
    table's game, the round committed, the timer started, the cards' codes and the log's entry. Every step
    takes the event's lock and reads the round again, so two commits at once make one game per table between
    them and one finishes: the other is refused (409)."""

    def __init__(self, secret_key: str, tournament_id: int, number: int, budget: float | None = 0.03) -> None:
        self.secret_key, self.tournament_id, self.number = secret_key, tournament_id, number
        self.budget = budget  # seconds a step may hold the write lock; None: every game in one step
        self.size = 1  # tables in the next step, from the pace of the steps before
        self.credentials: dict[int, seating.Credentials] = {}  # by game id, of the games made here
        self.shown = 1  # games shown in the next step, from the pace before
        self.units = FORCE_PIECE  # units of the first game's force in the next step, from the pace before
        self._left: int | None = None  # units of the first game's force still to write (None: not read yet)
        self._new: game_setup.NewGame | None = None
        self._titles: dict[int, str] | None = None  # each table's game's name, by table id
        self._nonce = ""

    def _committing(self, session: Session) -> tuple[Tournament, TournamentRound]:
        row = lock(session, self.tournament_id)
        rnd = get_round(session, self.tournament_id, self.number)
        if rnd.status == "committed":
            raise RuleRefused(f"round {self.number} has been committed already")
        return row, rnd

    def begin(self, session: Session) -> None:
        _, rnd = self._committing(session)
        if rnd.status == "draft":  # the round's cards' nonce chosen once: every step's games' codes are of it
            rnd.status = COMMITTING
            session.add(rnd)
            log(session, self.tournament_id, CARDS, {"round": self.number, "nonce": secrets.token_hex(16)})
            session.flush()

    def make_some(self, session: Session) -> bool:
        if self._new is None:  # read before the lock: the scenario's forces worked out holding none
            row, rnd = get(session, self.tournament_id), get_round(session, self.tournament_id, self.number)
            self._new = game_setup.new_games(
                session, scenario=rnd.scenario, ruleset=row.ruleset, period=row.period
            )
        row, rnd = self._committing(session)
        if rnd.status != COMMITTING:
            raise RuleRefused(f"round {self.number} is a draft again: commit it to make its games")
        made = games_made(session, self.tournament_id, self.number)
        if self._titles is None:  # a committing round's tables and their players are fixed: read once
            names = {p.pk: p.name for p in players(session, self.tournament_id)}
            self._titles = {
                t.pk: f"{row.name}: round {self.number}, table {t.table} "
                f"({names[t.a_player_id]} v {names[t.b_player_id]})"[:200]
                for t in tables_of(session, rnd.pk)
            }
            self._nonce = card_nonce(session, self.tournament_id, self.number) or ""  # begin's: the cards'
        waiting = [t for t in self._titles if t not in made]
        source = next(iter(made.values()), None)  # a game made before: its units copied, not written anew
        if self.budget is not None and self._left != 0 and (source is not None or waiting):
            if self._force_piece(session, waiting[0] if source is None else None, source):
                return True
            source = next(iter(games_made(session, self.tournament_id, self.number).values()))
        tables = waiting if self.budget is None else waiting[: self.size]
        if not tables:
            return self.budget is not None and self._show_some(session, list(made.values()))
        titles = [self._titles[t] for t in tables]
        started = time.perf_counter()
        games = game_setup.make_games(session, self.secret_key, self._new, titles, hidden=True, source=source,
                                      codes_of=self._card_codes)  # fmt: skip
        self._made(session, tables, games)
        if self.budget is None:
            return False
        self.size = paced(self.budget, time.perf_counter() - started, len(tables))  # the next step's tables
        return True  # more tables, or the games to show

    def _show_some(self, session: Session, games: list[int]) -> bool:
        """A step of showing the games made (out of the archive, in the lobby), as many as fit the budget: each
        is its row written anew, its terrain too (SQLite writes a whole row: the largest table's 430 KB, 64 of
        them 43 ms in one statement). No table points at them before `finish`: a commit gone in these steps
        leaves some of its games in the lobby (no table nor the board points at them) until its retry."""
        assert self.budget is not None
        hidden = session.exec(
            select(col(Game.id)).where(col(Game.id).in_(games), col(Game.archived_at).is_not(None))
        )
        some = sorted(g for g in hidden if g is not None)[: self.shown]
        if not some:
            return False
        started = time.perf_counter()
        session.execute(update(Game).where(col(Game.id).in_(some)).values(archived_at=None))
        # Each game shown, its force whole: its score stored at its first event, read as a row by the board.
        score_store.stored_at_start(session, list(session.exec(select(Game).where(col(Game.id).in_(some)).options(
            defer(cast("QueryableAttribute[Any]", Game.terrain))))))  # fmt: skip
        self.shown = paced(self.budget, time.perf_counter() - started, len(some))
        return True

    def _force_piece(self, session: Session, table: int | None, source: int | None) -> bool:
        """A step of the first game's force (before any game is copied from it): the first table's game made
        without units if `table`, then as many of its force's units as the budget fits at the pace so far
        (whatever a game's size, no step holds the lock for a whole force: issue 63). Answers False when it
        found the force whole (a commit resumed by another request): the step goes on to the tables, so that
        every request's first step moves the commit on."""
        assert self._new is not None and self._titles is not None and self.budget is not None
        if table is not None:
            games = game_setup.make_games(session, self.secret_key, self._new, [self._titles[table]],
                                          hidden=True, force=False, codes_of=self._card_codes)  # fmt: skip
            self._made(session, [table], games)
            source = games[0][0].pk
        assert source is not None
        started, before = time.perf_counter(), self._left
        self._left = game_setup.write_force(session, self._new, source, self.units)
        self.units = max(FORCE_PIECE, paced(self.budget, time.perf_counter() - started, self.units))
        return table is not None or self._left != 0 or before is not None

    def _card_codes(self, game_id: int) -> dict[str, str]:
        """A game's join codes, by side: the round's cards' (event_seats.printed_codes), its sides written with
        them as the game is made (not drawn, then written again: a read and a write of its sides a table)."""
        return {side: card_code(self.secret_key, self._nonce, game_id, side) for side in SIDES}

    def _made(
        self, session: Session, tables: list[int], games: list[tuple[Game, seating.Credentials]]
    ) -> None:
        """Games made for `tables` (in order), their sides' join codes the round's cards' (`_card_codes`): the
        event log's entry."""
        log(session, self.tournament_id, GAMES_MADE,
            {"round": self.number, "games": {str(t): g.pk for t, (g, _) in zip(tables, games, strict=True)}})  # fmt: skip
        session.flush()
        self.credentials.update({g.pk: c for g, c in games})

    def finish(self, session: Session) -> list[Made]:
        row, rnd = self._committing(session)
        made = games_made(session, self.tournament_id, self.number)
        tables = tables_of(session, rnd.pk)
        waiting = [t.table for t in tables if t.pk not in made]
        if rnd.status != COMMITTING or waiting:
            raise RuleRefused(f"round {self.number}'s games are still being made: commit it again to finish")
        ids = [made[t.pk] for t in tables]
        # What the steps made shown at once: each table's game (one statement), the games out of the archive
        # if the steps have not taken them out; the games read without their terrain and board, which nothing
        # here reads.
        session.execute(
            update(Game)
            .where(col(Game.id).in_(ids), col(Game.archived_at).is_not(None))
            .values(archived_at=None)
        )  # those the steps have not shown (every one when made in one unit of work)
        session.execute(
            update(TournamentTable),
            [{"id": t.pk, "game_id": made[t.pk], "status": "playing"} for t in tables],
        )
        heavy = (Game.terrain, Game.board)
        games = {g.pk: g for g in session.exec(select(Game).where(col(Game.id).in_(ids))
                                                .options(*(defer(cast("QueryableAttribute[Any]", c)) for c in heavy)))}  # fmt: skip
        nonce = card_nonce(session, self.tournament_id, self.number) or ""
        # The games made by another request of this commit (or one interrupted): their referees' tokens were never
        # shown, new ones are.
        unshown = [g for g in ids if g not in self.credentials]
        tokens = seating.issue_each(session, seating.GAME, self.secret_key, unshown, seating.REFEREE)
        tokens.update({g: c.referee_token for g, c in self.credentials.items()})
        out = []
        for t in tables:
            game = games[made[t.pk]]
            token = tokens[game.pk]
            codes: dict[str, str] = {side: card_code(self.secret_key, nonce, game.pk, side) for side in SIDES}
            set_committed_value(t, "game_id", game.pk)  # as the statement above wrote it
            set_committed_value(t, "status", "playing")
            out.append(Made(t, game, seating.Credentials(token, codes)))
            live.mark(session, game.pk)
        rnd.status = "committed"
        session.add(rnd)
        live.mark(session, watch.event_channel(self.tournament_id))  # the organiser's board follows the round
        row.round_ends_at = utcnow() + timedelta(minutes=rnd.minutes)
        session.add(row)
        session.flush()
        edits = hand_edits(session, self.tournament_id, self.number)
        log(session, self.tournament_id, "committed",
            {"round": self.number, "games": ids, "edited_by_hand": bool(edits), "hand_edits": edits})  # fmt: skip
        return out


def commit_round(session: Session, secret_key: str, tournament_id: int, number: int) -> list[Made]:
    """The drafted round played in the caller's one unit of work (RoundCommit's steps at once: the routes and
    pages run them in units of their own): a game per table from the round's scenario (the a player the
    attacker), the round timer started, the games' join codes the round's cards' (event_seats.printed_codes)."""
    job = RoundCommit(secret_key, tournament_id, number, budget=None)
    job.begin(session)
    while job.make_some(session):
        pass
    return job.finish(session)
