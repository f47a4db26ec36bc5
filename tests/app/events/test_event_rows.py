"""The organiser's board as the server's cells (issue 67, app/pages/event_rows.py): a frame of the board's stream
asked with `?view=html` says of each table what its JSON frame says (the turn, the score, each side's clock and
whether it runs, the result's status), the disputes waiting and the round's end; a piece is sent again only once
it changed, and a frame stays within `live.FRAME_BYTES`; the stream refuses whom the JSON one refuses. Their swap
and the clocks running on are the browser's (tests/frontend/test_event_day.py); the board read from the games,
tests/app/events/test_event_day.py's."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from app.core import live
from app.data.schemas_clock import ClockSettings, GameClock, SideClockOut
from app.data.schemas_events import BoardOut, ClubEventOut, TableLive
from app.pages.event_rows import STATUS_WORDS, Shown
from tests.app.events.test_event_day import bearer, new_event

NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def side(name: str, running: bool, used: float, game: float | None, turn: float | None) -> SideClockOut:
    return SideClockOut(
        side=name,
        running=running,
        used_seconds=used,
        given_seconds=60,
        turn_used_seconds=0,
        turn_given_seconds=0,
        remaining_seconds=game,
        turn_remaining_seconds=turn,
        out_of_time=False,
    )


def clock(paused: bool, *sides: SideClockOut) -> GameClock:
    limits = ClockSettings(
        game_seconds={}, turn_seconds={}, dispute_pause=False, finish_act=False, end_under_seconds=None
    )
    running = [s.side for s in sides if s.running]
    return GameClock(as_of=NOW, running=running, paused=paused, dispute=False, started=True, ended=False,
                     turn=2, limits=limits, out_of_time=[], sides=list(sides))  # fmt: skip


def table(i: int, status: str, **live_parts: Any) -> TableLive:
    parts = {"turn": None, "game_status": None, "score": {}, "offered": None, "result": None, **live_parts}
    return TableLive(id=i, table=i, a_player_id=1, b_player_id=2, a_name="Ann", b_name="Bob", game_id=i,
                     status=status, a_confirmed=False, b_confirmed=False, **parts)  # fmt: skip


def board(tables: list[TableLive], disputes: int) -> BoardOut:
    event = ClubEventOut(id=1, name="Club night", ruleset="flanders-fields", period="early", rounds=3, scoring={},
                         status="running", round_ends_at=NOW, time_zone="UTC", version=1, created_at=NOW)  # fmt: skip
    return BoardOut(event=event, round=1, round_ends_at=NOW, tables=tables, disputes=disputes)


def cells(frames: list[str]) -> dict[str, str]:
    """Each piece of the frames by its id: its attributes and content, as one string."""
    joined = "".join(json.loads(f) for f in frames)
    return {m[1]: m[0] for m in re.finditer(r'<\w+ id="([\w-]+)"[^>]*>.*?(?=<\w+ id="|$)', joined, re.S)}


def text(piece: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", piece))


def said(t: dict[str, Any]) -> tuple[str, str, list[tuple[float, bool, str]]]:
    """What the JSON frame says of a table: its turn, its score (the result, else the result offered, with who won,
    else the game's points so far) and each side's clock (the tighter time left, else the time used; running or not)."""
    turn = "ended" if t["game_status"] == "finished" else "–" if t["turn"] is None else str(t["turn"])
    result = t["result"] or t["offered"]
    points = t["score"]
    won = {"a": f"{t['a_name']} won", "b": f"{t['b_name']} won", None: "A draw"}  # the winner named
    by_name = f"{t['a_name']} {result['a_points']}, {t['b_name']} {result['b_points']}" if result else ""
    score = f"{won[result['winner']]}: {by_name}" if result else "–"
    score = f"{points['attacker']}–{points['defender']}" if points and not result else score
    sides = []
    for s in t["clock"]["sides"] if t["clock"] else []:
        left = [v for v in (s["remaining_seconds"], s["turn_remaining_seconds"]) if v is not None]
        seconds = min(left) if left else s["used_seconds"] - s["given_seconds"]
        sides.append((seconds, s["running"], s["side"][:3].capitalize()))
    return turn, score, sides


def test_a_frame_of_cells_says_what_the_json_frame_says_once_within_the_bound() -> None:
    played = table(0, "playing", turn=2, game_status="playing", score={"attacker": 4, "defender": 1},
                   clock=clock(False, side("attacker", True, 900.5, 3000.5, 59.6),
                               side("defender", False, 120.25, None, None)))  # fmt: skip
    paused = table(1, "disputed", turn=5, game_status="playing", score={"attacker": 0, "defender": 2},
                   clock=clock(True, side("attacker", False, 4000, -12.5, None), side("defender", False, 10, 7200, 600)))  # fmt: skip
    ended = table(2, "offered", game_status="finished", offered={"a_points": 3, "b_points": 1})
    settled = table(
        3, "confirmed", game_status="finished", result={"winner": "a", "a_points": 6, "b_points": 0}
    )
    # Sixty tables, every one sent as the stream opens: several frames, none over the bound.
    many = [
        t.model_copy(update={"id": i}) for i in range(60) for t in [(played, paused, ended, settled)[i % 4]]
    ]
    frame = board(many, disputes=15)
    shown = Shown()
    frames = shown.frames(frame)
    assert len(frames) > 1 and all(len(f.encode()) <= live.FRAME_BYTES for f in frames)
    # Every cell inside a <template>: a parser drops a <td> that follows the badge's <span> outside a table.
    assert all(
        "<td" not in re.sub(r"<template>.*?</template>", "", json.loads(f), flags=re.S) for f in frames
    )

    pieces = cells(frames)
    as_json = json.loads(frame.model_dump_json())
    assert text(pieces["ev-disputes"]) == str(as_json["disputes"])
    assert f'data-round-ends="{NOW.isoformat()}"' in pieces["ev-ends"] and "hidden" not in pieces["ev-ends"]
    for t in as_json["tables"]:
        turn, score, sides = said(t)
        assert text(pieces[f"ev-turn-{t['id']}"]) == turn
        assert text(pieces[f"ev-score-{t['id']}"]) == score
        assert f'class="ev-badge {t["status"]}"' in pieces[f"ev-status-{t['id']}"]
        assert text(pieces[f"ev-status-{t['id']}"]) == STATUS_WORDS[t["status"]]
        faces = re.findall(r'data-clock-seconds="([^"]+)"([^>]*)>(\w+) ', pieces[f"ev-clock-{t['id']}"])
        assert [(float(s), "data-running" in rest, name) for s, rest, name in faces] == sides
        assert text(pieces[f"ev-clock-{t['id']}"]).startswith("paused: ") == bool(
            t["clock"] and t["clock"]["paused"]
        )
    assert text(pieces["ev-clock-0"]) == "Att 0:59 · Def 1:00"  # whole seconds cut, as game-clock.js's face
    assert text(pieces["ev-clock-1"]) == "paused: Att −0:12 · Def 10:00"

    assert shown.frames(frame) == []  # nothing changed: nothing sent

    # A running clock read later: no change to send (game-clock.js runs it on); the clock stopped: its row.
    def attacker_at(t: TableLive, attacker: SideClockOut) -> TableLive:
        if t.clock is None or not t.clock.sides[0].running:
            return t
        return t.model_copy(update={"clock": clock(False, attacker, *t.clock.sides[1:])})

    later = side("attacker", True, 905.5, 2995.5, 54.6)
    assert shown.frames(board([attacker_at(t, later) for t in many], disputes=15)) == []
    halted = later.model_copy(update={"running": False})
    tables = [attacker_at(t, halted if t.id == 0 else later) for t in many]
    row_0 = ["ev-turn-0", "ev-score-0", "ev-clock-0", "ev-status-0", "ev-reason-0"]
    assert list(cells(shown.frames(board(tables, disputes=15)))) == row_0
    shown.frames(frame)
    assert list(cells(shown.frames(frame.model_copy(update={"disputes": 16})))) == ["ev-disputes"]
    stopped = cells(shown.frames(frame.model_copy(update={"disputes": 16, "round_ends_at": None})))
    assert list(stopped) == ["ev-ends"] and " hidden" in stopped["ev-ends"]


def test_the_standings_come_again_once_the_event_moved_on_and_they_changed() -> None:
    """Session 18's newcomer pass: the organiser's page kept the standings it opened with. They are asked again
    (`standings_piece`) only once the event's version moved (a move at a table does not: the hostile pass of
    session 19 measured them at 55 ms), and sent, in a frame of their own, only when they changed: a result
    of an earlier round set anew counts as one of this round."""
    said = {"points": 1}
    read: list[int] = []

    def standings() -> str:
        read.append(1)
        return f'<template><tbody id="ev-standings" hx-swap-oob="true"><tr><td>{said["points"]}</td></tr></tbody></template>'

    def at(version: int, disputes: int = 0) -> BoardOut:
        b = board(
            [table(0, "offered", game_status="finished", offered={"a_points": 3, "b_points": 1})], disputes
        )
        return b.model_copy(update={"event": b.event.model_copy(update={"version": version})})

    shown = Shown()
    assert text(cells(shown.frames(at(1), standings_piece=standings))["ev-standings"]) == "1"  # all, at first
    assert "ev-standings" not in cells(shown.frames(at(1, disputes=1), standings_piece=standings))
    assert len(read) == 1  # the event did not move: not asked
    assert "ev-standings" not in cells(shown.frames(at(2), standings_piece=standings))  # asked, unchanged
    said["points"] = 3  # e.g. round 1's table set anew by the organiser
    frames = shown.frames(at(3), standings_piece=standings)
    assert [text(cells([f])["ev-standings"]) for f in frames if "ev-standings" in f] == ["3"] and len(
        read
    ) == 3


def test_a_row_says_what_its_table_is_at_and_why_it_is_disputed() -> None:
    """The newcomer pass of session 16: a table whose game has ended (both players said they were ready) said
    "Playing" until a seat confirmed, where its own page said "Result offered"; a disputed table said so but not
    why. The row says the table page's words, and a dispute's reason under its badge, escaped; a row with none
    has its reason's piece hidden and empty."""
    ended = table(0, "playing", turn=4, game_status="finished", score={"attacker": 3, "defender": 1})
    why = 'the wood was held <script>alert(1)</script> & "cut"'
    disputed = table(1, "disputed", game_status="finished", offered={"a_points": 3, "b_points": 1},
                     dispute_reason=why)  # fmt: skip
    playing = table(2, "playing", turn=2, game_status="playing")
    pieces = cells(Shown().frames(board([ended, disputed, playing], disputes=1)))
    assert 'class="ev-badge offered"' in pieces["ev-status-0"]
    assert text(pieces["ev-status-0"]) == STATUS_WORDS["offered"] == "Result offered"
    assert text(pieces["ev-status-2"]) == STATUS_WORDS["playing"]
    assert "<script>" not in pieces["ev-reason-1"] and " hidden" not in pieces["ev-reason-1"]
    assert text(pieces["ev-reason-1"]) == f"Why it is disputed: {why}"
    assert " hidden" in pieces["ev-reason-0"] and text(pieces["ev-reason-0"]) == ""


def test_the_cells_stream_refuses_whom_the_json_stream_refuses(sqlite_client: TestClient) -> None:
    """No token, a token not the organiser's (a player's), another event's organiser: the same refusals with
    `?view=html` as without, and a view it has not is refused naming it."""
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    other_id, _ = new_event(c, rounds=1)
    stream = f"/api/v1/events/{event_id}/stream"
    for url, headers in (
        (stream, {}),
        (stream, bearer("1-a-0123456789abcdef")),
        (f"/api/v1/events/{other_id}/stream", organiser),
    ):
        refused = c.get(url, headers=headers).status_code
        assert refused in (401, 403) and c.get(f"{url}?view=html", headers=headers).status_code == refused
    bad = c.get(f"{stream}?view=json", headers=organiser)
    assert bad.status_code == 422 and "view" in bad.text


def test_the_round_at_a_glance_comes_again_once_a_table_moved_on() -> None:
    """Issue 93: the organiser's board draws a page of the round's tables, and above them the round at a glance
    (its tables playing, with a result to confirm, settled, disputed, and each disputed one a tap to its panel).
    A result coming in sends the glance again with that table's own cells, not every row; a move at a table
    that leaves every result where it was sends no glance."""
    tables = [table(i, "playing", turn=2, game_status="playing") for i in range(30)]
    shown = Shown()
    first = cells(shown.frames(board(tables, disputes=0)))
    assert text(first["ev-summary"]).strip().startswith("30 tables: 30 playing · 0 with a result to confirm")
    moved = [t.model_copy(update={"turn": 3}) if t.id == 4 else t for t in tables]
    assert "ev-summary" not in cells(shown.frames(board(moved, disputes=0)))
    disputed = table(7, "disputed", game_status="finished", offered={"a_points": 3, "b_points": 1})
    came = cells(shown.frames(board([disputed if t.id == 7 else t for t in moved], disputes=1)))
    assert set(came) == {"ev-summary", "ev-disputes", "ev-turn-7", "ev-score-7", "ev-clock-7", "ev-status-7",
                         "ev-reason-7"}  # fmt: skip
    assert "29 playing" in text(came["ev-summary"]) and "1 disputed" in text(came["ev-summary"])
    assert 'href="/events/1/tables/7/desk"' in came["ev-summary"]  # a tap to the disputed table's panel


def test_a_page_of_the_tables_is_sent_its_own_rows_and_the_glance_of_every_table() -> None:
    """Issue 93: the organiser's board draws a page of the round's tables, and its stream is told which: the cells
    of the tables on that page alone come (every device's first frame carried 400 tables' rows, and htmx, finding
    none of them on the page, wrote a console error for each), the round at a glance of every table. A result at
    a table not shown sends the glance alone; another round's piece draws its first page, whose rows then come."""
    tables = [table(i, "playing", turn=2, game_status="playing") for i in range(30)]
    shown = Shown(1, frozenset({3, 4}))
    first = cells(shown.frames(board(tables, disputes=0)))
    assert {k for k in first if k.startswith("ev-turn-")} == {"ev-turn-3", "ev-turn-4"}
    assert text(first["ev-summary"]).strip().startswith("30 tables: 30 playing")
    settled = table(20, "confirmed", game_status="finished", result={"a_points": 3, "b_points": 1})
    came = cells(shown.frames(board([settled if t.id == 20 else t for t in tables], disputes=0)))
    assert set(came) == {"ev-summary"} and "29 playing" in text(came["ev-summary"])
    later = board(tables[:2], disputes=0).model_copy(update={"round": 2})
    whole = shown.frames(later, lambda: '<div id="ev-round-tables"></div>', first_page=lambda: frozenset({1}))
    assert 'id="ev-round-tables"' in json.loads(whole[0])
    assert {k for k in cells(whole[1:]) if k.startswith("ev-turn-")} == {"ev-turn-1"}
