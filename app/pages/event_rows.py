"""The organiser's board's live cells, rendered by the server (issue 67): each table's turn, score, clock and
result badge (a dispute's reason under it), the disputes waiting and the round's end, as `_event_rows.html`'s
macros draw them into the event's page (app.pages.events) and into each frame of the board's stream asked with
`?view=html` (app.routes.tournaments), swapped out of band by frontend/static/js/event-board.js. A stream sends
a piece again only once it changed (`Shown`), within `live.FRAME_BYTES` a frame; game-clock.js runs the clocks
on."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from fastapi import Query

from app.core import live
from app.data.models import TournamentPlayer, TournamentTable
from app.data.schemas_clock import GameClock
from app.data.schemas_events import MAX_ROUNDS, BoardOut, TableLive, TableResult
from app.pages.clock_panel import Face, face_of
from app.pages.score_panel import clock_face
from app.pages.templates import templates

__all__ = [
    "RESULT_WORDS",
    "STATUS_WORDS",
    "BoardView",
    "EventRow",
    "Shown",
    "ShownRound",
    "first_row",
    "row",
    "shown_status",
    "summary",
]

STATUS_WORDS = {
    "drafted": "Draft",
    "playing": "Playing",
    "offered": "Result offered",
    "confirmed": "Confirmed",
    "disputed": "Disputed",
    "altered": "Set by the organiser",
}

# The same under a table page's "Result:" heading, which says "Result" once ("Result: Result offered", the
# newcomer's pass of session 17).
RESULT_WORDS = {**STATUS_WORDS, "offered": "Offered, for both players to confirm"}

# The board's stream (GET /api/v1/events/{id}/stream) asked for the page's cells.
BoardView = Annotated[
    Literal["html"] | None,
    Query(
        description="`html`: each `board` frame's data is instead the event page's cells that changed since this "
        "stream's last frame (all of them in the first), HTML in one JSON string, at most "
        f"{live.FRAME_BYTES:,} bytes a frame (more frames where they do not fit one); with `round`, a round "
        "committed after it comes whole first (its heading and tables), in a frame of its own."
    ),
]

# The round the page shows, with `?view=html`: a round committed after it is sent whole (`Shown`).
ShownRound = Annotated[
    int | None,
    Query(
        alias="round",
        ge=1,
        le=MAX_ROUNDS,
        description="With `view=html`: the round the page shows (another one comes whole).",
    ),
]


@dataclass(frozen=True)
class SideTime:
    """A side's clock in its cell: its face (the seconds it runs on from), the time shown as it was read."""

    face: Face
    text: str


def shown_status(status: str, ended: bool) -> str:
    """A table's result status as its pages say it: once its game has ended (both players ready, or the organiser
    ended it) the result is offered, though the table writes it only at the first confirmation
    (app.services.tournament_results.offered): "Playing" no longer."""
    return "offered" if status == "playing" and ended else status


@dataclass(frozen=True)
class EventRow:
    """One table's live cells: the turn ("ended" once its game is), the score (the result, else the result
    offered, else the game's points so far), each side's clock ("Att 1:23"), the result's status (as the
    table's page says it: `shown_status`) and a dispute's reason (the player's own words)."""

    id: int
    turn: str
    score: str
    clock: tuple[SideTime, ...]
    paused: bool
    status: str
    reason: str = ""

    @property
    def words(self) -> str:
        return STATUS_WORDS.get(self.status, self.status)


def _score(
    result: TableResult | None, offered: TableResult | None, points: Mapping[str, int], names: tuple[str, str]
) -> str:
    """The result (else the result offered) in words, naming who won and each player's points; else the game's
    points so far."""
    said = result or offered
    if said:
        return said.said(*names)
    return f"{points['attacker']}–{points.get('defender', 0)}" if "attacker" in points else "–"


def _clock(clock: GameClock | None) -> tuple[SideTime, ...]:
    faces = (face_of(s, s.side[:3].capitalize()) for s in clock.sides) if clock else ()
    return tuple(SideTime(f, clock_face(f.seconds)) for f in faces)


def row(t: TableLive) -> EventRow:
    """A table's cells as a frame of the board says it."""
    ended = t.game_status == "finished"
    turn = "ended" if ended else "–" if t.turn is None else str(t.turn)
    paused = t.clock is not None and t.clock.paused
    status = shown_status(t.status, ended)
    score = _score(t.result, t.offered, t.score, (t.a_name, t.b_name))
    return EventRow(t.id, turn, score, _clock(t.clock), paused, status, t.dispute_reason)


def first_row(
    t: TournamentTable, people: Mapping[int, TournamentPlayer], reason: str = "", ended: bool = False
) -> EventRow:
    """A table's cells as the page opens (`people`: its players among them): its result (offered once its game
    has `ended`) and a dispute's reason; its game's turn, score so far and clock come with the stream's first
    frame, at once."""
    turn = "ended" if ended else "–"
    names = (people[t.a_player_id].name, people[t.b_player_id].name)
    score = _score(t.result, t.offered, {}, names)
    return EventRow(t.pk, turn, score, (), False, shown_status(t.status, ended), reason)


@dataclass(frozen=True)
class Summary:
    """The round at a glance: its tables by their result's status, and the disputed ones by number and id."""

    tables: int
    playing: int
    offered: int
    settled: int  # confirmed, or set by the organiser
    disputed: list[tuple[int, int]]  # (table number, table id)

    @property
    def key(self) -> tuple[object, ...]:
        return (self.tables, self.playing, self.offered, self.settled, tuple(self.disputed))


def summary(statuses: Sequence[tuple[int, int, str]]) -> Summary:
    """From each table's (number, id, status as its row says it: app.pages.event_rows.shown_status)."""
    count = Counter(s for _, _, s in statuses)
    disputed = sorted((n, i) for n, i, s in statuses if s == "disputed")
    settled = count["confirmed"] + count["altered"]
    return Summary(len(statuses), count["playing"], count["offered"], settled, disputed)


def _macros() -> Any:
    return templates.get_template("_event_rows.html").module


class Shown:
    """What one stream has sent (each piece by its key, as it changes): a frame carries the pieces changed since.
    `round` is the round the page shows (`?round=`; None: the stream's client draws no round of its own);
    `tables` the ids of the tables whose rows it draws (a page of them, issue 93: None, every table's). The
    cells of no table drawn are never sent: htmx would find nowhere to swap them and say so in the console, and
    400 tables' rows were every device's first frame."""

    def __init__(self, round: int | None = None, tables: frozenset[int] | None = None) -> None:
        self.sent: dict[str, object] = {}
        self.round = round
        self.tables = tables

    def frames(
        self,
        board: BoardOut,
        round_piece: Callable[[], str] = str,
        standings_piece: Callable[[], str] = str,
        first_page: Callable[[], frozenset[int] | None] = lambda: None,
    ) -> list[str]:
        """The board's changed pieces as frames' data (HTML in one JSON string each), each frame within
        `live.FRAME_BYTES`; none when nothing changed. A running clock's seconds are no change: game-clock.js runs
        them on (else one move sent every table's row again while any clock ran: the hostile pass of session 16).
        Once the board is of another round than the page shows, `round_piece()` (the round's heading and its
        tables' first page, app.pages.event_round) comes first, in a frame of its own whatever its size (once a
        round): the cells that follow are of the tables the page then shows (`first_page()`). The standings
        (`standings_piece()`, asked again
        only once the event's version moved: any result settled or set anew, of any round) come again when they
        changed, in a frame of their own whatever its size, as a round's piece (the organiser's page kept the
        first ones: session 18's pass)."""
        whole: list[str] = []
        if self.round is not None and board.round is not None and board.round != self.round:
            self.round = board.round
            whole = [json.dumps(round_piece())]
            self.tables = first_page()
        if self.sent.get("version") != board.event.version:
            self.sent["version"] = board.event.version
            standings = standings_piece()
            if standings != self.sent.get("standings"):
                self.sent["standings"] = standings
                whole.append(json.dumps(standings))
        macros = _macros()
        every = [(t, row(t)) for t in board.tables]
        glance = summary([(t.table, t.id, r.status) for t, r in every])  # of every table, shown or not
        rows = {f"table-{t.id}": r for t, r in every if self.tables is None or t.id in self.tables}
        marks: dict[str, object] = {
            "ends": board.round_ends_at,
            "disputes": board.disputes,
            "summary": glance.key,
            **{key: _as_it_changes(r) for key, r in rows.items()},
        }
        changed = [key for key, mark in marks.items() if self.sent.get(key) != mark]
        self.sent.update(marks)
        pieces = [
            macros.ends(board.round_ends_at, True)
            if key == "ends"
            else macros.disputes(board.disputes, True)
            if key == "disputes"
            else macros.summary(glance, board.event.id, True)
            if key == "summary"
            else macros.row(rows[key], True)
            for key in changed
        ]
        return whole + [json.dumps("".join(chunk)) for chunk in _packed(map(str, pieces), live.FRAME_BYTES)]


def _as_it_changes(r: EventRow) -> EventRow:
    """A row with its running clocks' seconds left out: they go on by themselves."""
    still = (replace(s, face=replace(s.face, seconds=0.0), text="") if s.face.running else s for s in r.clock)
    return replace(r, clock=tuple(still))


def _packed(pieces: Iterable[str], limit: int) -> list[list[str]]:
    """The pieces in order, as few runs as fit `limit` bytes each as JSON (a piece is never split)."""
    runs: list[list[str]] = []
    size = limit
    for piece in pieces:
        length = len(json.dumps(piece)) - 2
        if size + length > limit - 2:
            runs.append([])
            size = 0
        runs[-1].append(piece)
        size += length
    return runs
