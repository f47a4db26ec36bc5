"""Benchmark: a club event day of 200 tables (run by hand: `.venv/bin/python bench/event_day.py`). Not a test:
it only reports, and exits non-zero when an accepted request took over 1 s of the server's CPU (issue 63).

By default, on SQLite with one worker and then on PostgreSQL with 4 (the server of `--postgresql`, else of
FIRESTEP_BENCH_DATABASE_URL or FIRESTEP_TEST_DATABASE_URL; a scratch database made and dropped there), it serves
firestep (`firestep serve`) and makes the day through the HTTP API and the organiser's pages, one request at a
time, each timed by the server's CPU (every process of its group, Linux's /proc: 10 ms ticks): an event of
2 x `--tables` players registered, round 1 drafted and committed (a game per table), the organiser's board
read `--boards` times (and, with `--turns N`, again once every game has moved on N times: mid-round), the event
page, the round's join-card sheet, then at a few tables both seats joined,
the game finished by its referee, the result confirmed by both seats, their table pages and slips, the board
again and the standings; then, `--played` rounds in all (3 unless given), every table of the round before played
(its seats joined, the game finished, the result confirmed from both seats) and the next round drafted (a later
round pairs by points and avoids rematches: issue 93), committed and its board read. The baseline is one game made alone from the same scenario (POST /api/v1/games; the least of two a worker):
the round's commit is printed as a ratio to it, and per table. Before issue 63, a 64-table round's commit
took 6.0 s of CPU on SQLite (94 ms a table) and its board 0.6 s; 200 tables 20 s and 1.6 s.
On PostgreSQL the CPU is firestep's processes' alone (the database server's is not counted). Since (a
2-core machine at load 9-13, SQLite / PostgreSQL): 200 mons-1914 tables' commit 0.48 s / 0.25 s, the board
0.21 / 0.22 s; 64 of the largest Flanders Fields tables 0.77 / 0.45 s, board 0.43 / 0.38 s; 64 of the largest
2mm Earth tables 1.03 / 0.43 s, board 0.55 / 0.43 s. Another game's write waited behind the commit on SQLite
0.6 s (200 mons-1914 tables) to 2.3 s (64 largest Flanders), the goal 100 ms: the round was one transaction.
Since the commit is short steps (app.services.round_commit.RoundCommit; load 4-12, SQLite): 200 mons-1914 tables
the worst wait 74 ms of 28 writes (was 1573 ms of 2 on the same machine), commit 0.61 s of CPU; 64 largest
Flanders 201 ms of 34 (was 2990 ms of 3; the first step writes the first game's whole force), commit 0.93 s.
Since the first game's force is written a piece a step and the games are taken out of the archive a few a step
(h63g; each figure two or four runs, min-max, with `uptime`'s load; the machine shared with a CI run), SQLite:
200 mons-1914 tables the worst wait 60-61 ms of 28 writes at load 0.4-0.5 (idle median 18 ms), 81-510 ms at
load 3-8 (idle median 23-94 ms), commit 0.52-0.76 s of CPU, board 0.19-0.22 s; 64 largest Flanders 132-134 ms
at load 0.4-0.6 (idle median 54 ms: that game's own write rewrites its 430 KB row), 98-288 ms at load 3-5.3,
586-778 ms at load 7.6-8.9 (idle median 170-180 ms), commit 0.72-0.88 s (0.98-1.06 s at load 7.6-8.9; was 1.04-1.24 s
at load 5-6 the same day), board 0.36-0.44 s; 64 largest 2mm Earth 153-422 ms (idle median 70-107 ms, load
0.7-4.6), commit 1.06-1.20 s: OVER 1 s (its 128,000 units of ~400 bytes of state each, copied and written to
the WAL, are ~0.7 s of it), board 0.47-0.52 s. PostgreSQL 4 workers, 200 mons-1914: worst wait 32-94 ms at
load 2.2-2.6 (154-591 ms at load 6.8-8.9), commit 0.23-0.27 s, board 0.18-0.20 s. `--live --tables 199` (200
tables, 801 devices): SQLite one worker p99 64-73 ms (bare 57-129 ms), 30-32 ms of CPU a marker; PostgreSQL 4
workers p99 117-627 ms, ratio to bare 1.42-1.58 (load 1.1-2.6; the 2 cores run 4 workers, PostgreSQL and the
801 streams' client); 41 tables: SQLite p99 34-594 ms (load 9.7-12), PostgreSQL 4 workers 54-115 ms.
Since a commit request stops once it has spent its CPU budget (commit_cpu_seconds, 0.5 s; answering 202, the
same POST again carries on: h63i, SQLite, load 1.2-2.4): 64 largest 2mm Earth tables in 3 requests, the worst
520-530 ms of CPU (the commit 1.12 s in all; main the same minutes 990 ms in its one request), another game's
write 142-199 ms (idle median 68-111 ms); 64 largest Flanders in 2 requests, the worst 530-540 ms (0.81-0.85 s
in all), writes 104-135 ms (idle median 55 ms). A request's worst is its budget and its last step's and the
request's own cost over it. PostgreSQL 4 workers (its steps 250 ms since, were one), 64 largest 2mm Earth at load
4.1-7.9: 2 requests, the worst 610 ms (0.70 s in all, 15.7 s of wall time; main the same minutes 370 ms in one
request, 5.2 s of wall time), another game's write 368 ms (main 286 ms).
With `--turns 11` (issue 93's hostile pass: each game moved on eleven times, the board read mid-round), 400
mons-1914 tables on PostgreSQL with 4 workers: the board 530 ms of CPU mid-round and 650 ms at the round's start
while the clock was counted over each game's log at every read (27184e2c, the machine shared with a profiling run);
220 ms and 330 ms once each game's clock is stored with its last clock event (7d9a47ee, load 1.5).

Then a second event of as many tables is committed while another game (one made alone) is written, a marker
placed and taken back by its referee every 20 ms: the worst wait of those writes during the commit is printed
against the goal (100 ms) and their median before it. `--largest flanders|earth` plays the round on the
largest table an import accepts of that rule set (bench/largest_tables.py; 64 tables unless `--tables`).

`--live` runs the live measurement instead (`--workers`: the server's, 1 unless given): 41 tables (`--tables 40`
and one bare table; at most 399, an event's 800 players), each table's four
devices streaming as a table does (the attacker's and the defender's maps, the referee's board and map:
`?view=map|board`), and the organiser's view following every table on its own stream
(/api/v1/events/{id}/stream). Every stream is opened once; then, in `--rounds` turns, markers are posted one at
a time on the bare table (its four devices ask for the event alone, no view), then round the event's tables,
each timed from its POST to its arrival on its table's four devices (and to the organiser's next board frame),
with the server's CPU per marker. Both halves meet the same machine at the same moments, so a noisy machine is
noisy in both. It reports both p99s and their ratio (target: the event day within 1.5x of the bare event), and
the event day's p99 against the live goal (100 ms), each a device of bench/serving.py's (`Stream`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from live_fanout import Client, group_cpu
from serving import (
    ROOT,
    Process,
    Stream,
    call,
    encode,
    free_port,
    load_line,
    percentile,
    read_response,
    scratch_database,
)

VIEWS = (("attacker", "map"), ("defender", "map"), ("referee", "board"), ("referee", "map"))


def make_event(port: int, tables: int) -> tuple[int, dict[str, str], list[dict[str, Any]]]:
    """An event of 2 x `tables` players, its round committed: each table's game started, its tokens."""
    event_id, organiser, committed = committed_event(port, tables, "Bench night")
    games = [
        game_of(port, seat["game_id"], seat["referee_token"], seat["join_codes"])
        for seat in committed["seats"]
    ]
    return event_id, organiser, games


def committed_event(port: int, tables: int, name: str) -> tuple[int, dict[str, str], Any]:
    """An event of 2 x `tables` players in five clubs, its round 1 drafted and committed: its id, the
    organiser's header and the commit's answer (each table's seats)."""
    made = call(
        port,
        "POST",
        "/api/v1/events",
        {"name": name, "ruleset": "flanders-fields", "period": "early", "rounds": 1},
    )
    event_id = made["event"]["id"]
    organiser = {"Authorization": f"Bearer {made['organiser_token']}"}
    players = [{"name": f"Player {i}", "club": f"Club {i % 5}"} for i in range(2 * tables)]
    for i in range(0, len(players), PER_REQUEST):
        call(port, "POST", f"/api/v1/events/{event_id}/players", {"players": players[i : i + PER_REQUEST]},
             organiser)  # fmt: skip
    call(port, "POST", f"/api/v1/events/{event_id}/rounds", {"scenario": "mons-1914"}, organiser)
    return (
        event_id,
        organiser,
        commit_round(functools.partial(call, port), f"/api/v1/events/{event_id}", organiser),
    )


def commit_round(send: Callable[..., Any], event_url: str, organiser: dict[str, str], number: int = 1) -> Any:
    """A round committed: the same POST again while it answers that the round is still committing (202: each
    request stops once it has spent its CPU budget, issue 63), the last answer's."""
    for _ in range(1000):
        answer = send("POST", f"{event_url}/rounds/{number}/commit", None, organiser)
        if "seats" in answer:
            return answer
    raise RuntimeError(f"{event_url}: still committing after 1000 requests ({answer})")


def game_of(port: int, game_id: int, referee_token: str, codes: dict[str, str]) -> dict[str, Any]:
    tokens = {"referee": referee_token}
    for side in ("attacker", "defender"):
        tokens[side] = call(port, "POST", "/api/v1/join", {"code": codes[side]})["token"]
    referee = {"Authorization": f"Bearer {referee_token}"}
    version = call(port, "GET", f"/api/v1/games/{game_id}/turn", headers=referee)["version"]
    call(port, "POST", f"/api/v1/games/{game_id}/turn/advance", {"version": version}, referee)
    units = call(port, "GET", f"/api/v1/games/{game_id}/units", headers=referee)
    targets = [u["id"] for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon"] or [
        u["id"] for u in units if u["side"] == "defender" and u["base"]
    ]  # a 2mm table's platoons are of other kinds
    last = call(port, "GET", f"/api/v1/games/{game_id}/events", headers=referee)[-1]["id"]
    return {"id": game_id, "tokens": tokens, "targets": targets, "last": last, "used": 0}


class Organiser(Stream):
    """The organiser's stream: when each board frame arrived."""

    limit = 1 << 22  # a board frame of 400 tables

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[float] = []

    def seen(self, line: bytes, at: float) -> None:
        if line == b"event: board":
            self.frames.append(at)


async def post(port: int, game: dict[str, Any], writer: Any, reader: Any) -> tuple[int, float]:
    """One marker on the game's next defender platoon: the attacker's shot places it, and the next post the
    referee takes it back, so a table takes any number of posts and no platoon is suppressed out of the game."""
    unit = game["targets"][game["used"] // 2 % len(game["targets"])]
    placed = game["used"] % 2 == 0
    game["used"] += 1
    role, body = (
        ("attacker", {"delta": 1, "fire": "rifle"})
        if placed
        else ("referee", {"delta": -1, "override": True})
    )
    raw = encode(
        "POST",
        f"/api/v1/games/{game['id']}/units/{unit}/markers",
        body,
        {"Authorization": f"Bearer {game['tokens'][role]}"},
    )
    t0 = time.monotonic()
    writer.write(raw)
    status, answer = await read_response(reader)
    if status != 200:
        raise RuntimeError(f"marker: {status} {answer[:200]!r}")
    return int(json.loads(answer)["event_id"]), t0


async def measure(
    port: int,
    bare: dict[str, Any],
    games: list[dict[str, Any]],
    organiser: tuple[int, dict[str, str]],
    rounds: int,
    events: int,
    interval: float,
    cpu: Callable[[], float],
) -> dict[str, Any]:
    """Every stream opened once (the bare table's four devices asking no view, the event's tables' four
    devices each with its page's view, the organiser's board), then `rounds` turns: `events` markers on the bare
    table, then `events` round the event's tables, each timed to its table's devices (and the organiser's next
    board frame). Both halves meet the same machine at the same moments, so its noise is in both."""
    devices: dict[int, list[Client]] = {}
    tasks = []
    for game, views in [(bare, False)] + [(g, True) for g in games]:
        devices[game["id"]] = []
        for role, view in VIEWS:
            client = Client()
            path = f"/api/v1/games/{game['id']}/stream" + (f"?view={view}" if views else "")
            headers = {"Authorization": f"Bearer {game['tokens'][role]}", "Last-Event-ID": str(game["last"])}
            tasks.append(asyncio.ensure_future(client.follow(port, path, headers)))
            devices[game["id"]].append(client)
        await asyncio.sleep(0.02)
    boss = Organiser()
    event_id, headers = organiser
    tasks.append(asyncio.ensure_future(boss.follow(port, f"/api/v1/events/{event_id}/stream", headers)))
    await asyncio.wait_for(boss.ready.wait(), 60)
    everyone = [c for cs in devices.values() for c in cs]
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in everyone)), 120)
    await asyncio.sleep(1.0)
    sent: dict[str, list[tuple[int, int, float]]] = {"bare": [], "day": []}
    spent = {"bare": 0.0, "day": 0.0}
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for _ in range(rounds):
            for part, tables in (("bare", [bare]), ("day", games)):
                before = cpu()
                for i in range(events):
                    game = tables[(len(sent[part]) + i) % len(tables)]
                    marker, t0 = await post(port, game, writer, reader)
                    sent[part].append((game["id"], marker, t0))
                    await asyncio.sleep(interval)
                await asyncio.sleep(0.5)  # the last frames of the half delivered before the next begins
                spent[part] += cpu() - before
    finally:
        writer.close()
    every = sent["bare"] + sent["day"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(e in c.arrivals for g, e, _ in every for c in devices[g]):
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    out: dict[str, Any] = {"devices": len(everyone) + 1, "failed": [c.error for c in everyone if c.error]}
    for part, posted in sent.items():
        latencies = [
            (c.arrivals[e] - t0) * 1000 for g, e, t0 in posted for c in devices[g] if e in c.arrivals
        ]
        out[part] = {
            "expected": sum(len(devices[g]) for g, _, _ in posted),
            "delivered": len(latencies),
            "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99),
            "cpu_ms": spent[part] / max(1, len(posted)) * 1000,
        }
    boss_latencies = []
    for _, _, t0 in sent["day"]:
        after = [f for f in boss.frames if f >= t0]
        if after:
            boss_latencies.append((after[0] - t0) * 1000)
    out["organiser_p50"] = percentile(boss_latencies, 50)
    out["organiser_p99"] = percentile(boss_latencies, 99)
    if boss.error:
        out["failed"].append(boss.error)
    return out


# -- the day, each request's CPU ------------------------------------------------------------------------------
LIMIT = 1.0  # the standard: every accepted request within 1 s of the server's CPU
PER_REQUEST = 100  # players registered in one request
WAIT_GOAL = 100.0  # ms: no other game's write waits longer behind a round's commit (issue 63)


def serve(url: str, workers: int) -> Process:
    env = {
        "FIRESTEP_DATABASE_URL": url,
        "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40,
        "FIRESTEP_HOST": "127.0.0.1",
        "FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS": "1",
    }
    port = free_port()
    args = [
        sys.executable,
        "-m",
        "app.cli",
        "serve",
        "--no-setup",
        "--workers",
        str(workers),
        "--port",
        str(port),
    ]
    return Process(args, port, env)


class Timed:
    """Requests to one server, one at a time, each with the CPU its processes spent meanwhile, by kind."""

    def __init__(self, server: Process) -> None:
        self.server = server
        self.spent: dict[str, list[float]] = {}

    def __call__(
        self, kind: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        before = group_cpu(self.server.proc.pid)
        answer = call(self.server.port, method, path, body, headers)  # a refusal raises: only accepted ones
        self.spent.setdefault(kind, []).append(group_cpu(self.server.proc.pid) - before)
        return answer


class Writer(threading.Thread):
    """Another table's writes while a round is committed: a marker placed and taken back on a game of no event,
    by its referee, one at a time `pause` apart, each write's wait (wall time) kept with when it was sent."""

    def __init__(self, port: int, game: dict[str, Any], pause: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.port, self.game, self.pause = port, game, pause
        self.waits: list[tuple[float, float]] = []
        self.stop = threading.Event()
        self.error = ""

    def run(self) -> None:
        referee = {"Authorization": f"Bearer {self.game['tokens']['referee']}"}
        path = f"/api/v1/games/{self.game['id']}/units/{self.game['targets'][0]}/markers"
        delta = 1
        try:
            while not self.stop.is_set():
                t0 = time.monotonic()
                call(self.port, "POST", path, {"delta": delta, "override": True}, referee)
                self.waits.append((t0, time.monotonic() - t0))
                delta = -delta
                time.sleep(self.pause)
        except RuntimeError as exc:
            self.error = str(exc)


def contended(
    ask: Timed, tables: int, scenario: tuple[str, str, str | None], other: dict[str, Any]
) -> dict[str, float]:
    """A second event of `tables` tables committed while another game is written (Writer): the writes' worst
    wait during the commit and their median before it (milliseconds)."""
    sid, ruleset, period = scenario
    made = call(ask.server.port, "POST", "/api/v1/events",
                {"name": "Bench day 2", "ruleset": ruleset, "period": period, "rounds": 1})  # fmt: skip
    url_ = f"/api/v1/events/{made['event']['id']}"
    organiser = {"Authorization": f"Bearer {made['organiser_token']}"}
    players = [{"name": f"Player {i}", "club": f"Club {i % 7}"} for i in range(2 * tables)]
    for i in range(0, len(players), PER_REQUEST):
        call(ask.server.port, "POST", f"{url_}/players", {"players": players[i : i + PER_REQUEST]}, organiser)
    call(ask.server.port, "POST", f"{url_}/rounds", {"scenario": sid}, organiser)
    writer = Writer(ask.server.port, other)
    writer.start()
    time.sleep(1.0)
    t0 = time.monotonic()
    commit_round(functools.partial(call, ask.server.port), url_, organiser)
    t1 = time.monotonic()
    time.sleep(0.5)
    writer.stop.set()
    writer.join(30)
    if writer.error:
        raise RuntimeError(f"another table's write: {writer.error}")
    before = [w for t, w in writer.waits if t + w < t0]
    during = [w for t, w in writer.waits if t < t1 and t + w > t0]
    return {
        "commit_wall": (t1 - t0) * 1000,
        "idle_p50": percentile([w * 1000 for w in before], 50),
        "worst": max([w * 1000 for w in during], default=0.0),
        "writes": len(during),
    }


def day(
    database: str,
    workers: int,
    tables: int,
    boards: int,
    seated: int,
    largest: str | None = None,
    played: int = 3,
    turns: int = 0,
) -> tuple[dict[str, list[float]], dict[str, float]]:
    """The event day on a scratch database of `database` served by `workers` workers: each kind of request's
    CPU, in seconds, and another table's writes' wait behind a second event's commit (`contended`). With
    `largest` (a rule set: flanders or earth), the round's scenario is the largest table an import accepts
    (bench/largest_tables.py), else mons-1914. With `turns`, every game of round 1 has its turn advanced so many
    times by its referee and the board is read again, mid-round (issue 93's hostile pass: at a round's start each
    game's clock log is a few events, and the board read mid-round went over a second)."""
    with scratch_database(database) as url:
        server = serve(url, workers)
        try:
            ask = Timed(server)
            sid, ruleset, period = "mons-1914", "flanders-fields", "early"
            if largest:
                doc = largest_document(largest)
                sid = ask("largest table imported", "POST", "/api/v1/scenarios", doc)["id"]
                ruleset, period = doc["ruleset"], doc["period"]
            alone = []
            for _ in range(2 * workers):  # each worker's first request warms it: the baseline is the least
                alone.append(
                    ask("one game made alone (baseline)", "POST", "/api/v1/games", {"scenario": sid})
                )
            rounds = max(3, played)
            made = ask("event made", "POST", "/api/v1/events",
                       {"name": "Bench day", "ruleset": ruleset, "period": period, "rounds": rounds})  # fmt: skip
            event_id, token = made["event"]["id"], made["organiser_token"]
            organiser = {"Authorization": f"Bearer {token}"}
            page = {"Cookie": f"firestep_organiser={token}"}
            url_ = f"/api/v1/events/{event_id}"
            players = [{"name": f"Player {i}", "club": f"Club {i % 7}"} for i in range(2 * tables)]
            for i in range(0, len(players), PER_REQUEST):
                ask(f"players registered ({PER_REQUEST})", "POST", f"{url_}/players",
                    {"players": players[i : i + PER_REQUEST]}, organiser)  # fmt: skip
            ask("round 1 drafted", "POST", f"{url_}/rounds", {"scenario": sid}, organiser)
            committed = commit_round(functools.partial(ask, "round committed"), url_, organiser)
            for _ in range(boards):
                ask("organiser's board (API)", "GET", f"{url_}/board", headers=organiser)
            if turns:
                for seat in committed["seats"]:
                    advance(ask, seat, turns)
                for _ in range(boards):
                    ask(MID_ROUND, "GET", f"{url_}/board", headers=organiser)
            ask("event page", "GET", f"/events/{event_id}", headers=page)
            ask("round's join-card sheet", "GET", f"/events/{event_id}/rounds/1/sheet", headers=page)
            for seat in committed["seats"][:seated]:
                table = seat["table_id"]
                play_table(ask, url_, seat)
                ask("table page", "GET", f"/events/{event_id}/tables/{table}", headers=page)
                ask("result slip", "GET", f"/events/{event_id}/tables/{table}/slip", headers=page)
            for _ in range(boards):
                ask("organiser's board (API)", "GET", f"{url_}/board", headers=organiser)
            ask("event page", "GET", f"/events/{event_id}", headers=page)
            ask("standings", "GET", f"{url_}/standings")
            ask("standings printed", "GET", f"/events/{event_id}/standings", headers=page)
            if len(committed["seats"]) != tables:
                raise RuntimeError(f"{len(committed['seats'])} tables committed, not {tables}")
            # The later rounds (issue 93): their pairing avoids rematches and pairs by score groups, the slow
            # drafts. Every table of the round before played and its result confirmed from both seats first.
            for number in range(2, played + 1):
                for seat in committed["seats"][seated if number == 2 else 0 :]:
                    play_table(ask, url_, seat)
                ask(f"round {number} drafted", "POST", f"{url_}/rounds", {"scenario": sid}, organiser)
                committed = commit_round(functools.partial(ask, "round committed"), url_, organiser, number)
                for _ in range(boards):
                    ask("organiser's board (API)", "GET", f"{url_}/board", headers=organiser)
                if len(committed["seats"]) != tables:
                    raise RuntimeError(
                        f"round {number}: {len(committed['seats'])} tables committed, not {tables}"
                    )
            other = game_of(server.port, alone[-1]["game"]["id"], alone[-1]["referee_token"],
                            alone[-1]["join_codes"])  # fmt: skip
            return ask.spent, contended(ask, tables, (sid, ruleset, period), other)
        finally:
            server.stop()


def advance(ask: Timed, seat: dict[str, Any], turns: int) -> None:
    """A table's game moved on `turns` times by its referee (a step or a turn each: the clock's events)."""
    game, referee = seat["game_id"], {"Authorization": f"Bearer {seat['referee_token']}"}
    for _ in range(turns):
        version = ask("game's turn", "GET", f"/api/v1/games/{game}/turn", headers=referee)["version"]
        ask("turn advanced", "POST", f"/api/v1/games/{game}/turn/advance", {"version": version}, referee)


def play_table(ask: Timed, event_url: str, seat: dict[str, Any]) -> None:
    """A table of a committed round played out: both seats joined, the game finished by its referee, the
    result confirmed from both seats."""
    game, table = seat["game_id"], seat["table_id"]
    referee = {"Authorization": f"Bearer {seat['referee_token']}"}
    tokens = {
        side: ask("seat joined", "POST", "/api/v1/join", {"code": code})["token"]
        for side, code in seat["join_codes"].items()
    }
    version = ask("game's turn", "GET", f"/api/v1/games/{game}/turn", headers=referee)["version"]
    ask("game finished", "POST", f"/api/v1/games/{game}/finish", {"version": version}, referee)
    for held in tokens.values():
        ask("result confirmed", "POST", f"{event_url}/tables/{table}/confirm", None,
            {"Authorization": f"Bearer {held}"})  # fmt: skip


def largest_document(ruleset: str) -> dict[str, Any]:
    """The largest table an import accepts of Flanders Fields (its game's unit cap) or 2mm Earth."""
    from largest_tables import earth_document, flanders_document

    from rules.flanders_fields.book.organisation import max_units_per_game

    return earth_document() if ruleset == "earth" else flanders_document(max_units_per_game())


MID_ROUND = "organiser's board mid-round (API)"


def report(
    title: str, tables: int, spent: dict[str, list[float]], wait: dict[str, float], played: int = 1
) -> bool:
    """Print each kind's worst CPU (and the commit against the baseline), and another table's writes' wait
    behind a commit; whether every request is within LIMIT."""
    print(f"\n{title}: {tables} tables ({2 * tables} players)")
    for kind, values in spent.items():
        flag = "" if max(values) <= LIMIT else "  OVER 1 s"
        print(f"  {kind:34} x{len(values):<3} worst {max(values) * 1000:7.0f} ms CPU{flag}")
    commits, baseline = spent["round committed"], min(spent["one game made alone (baseline)"])
    commit, board = sum(commits) / played, max(spent["organiser's board (API)"])  # a round's commit
    ratio = f"{commit / baseline:.1f}x" if baseline else "n/a (under a tick)"
    print(f"  worst CPU of a commit's request {max(commits) * 1000:.0f} ms of {len(commits)} ({played} rounds; a round's commit "
          f"{commit * 1000:.0f} ms in all, {commit / tables * 1000:.1f} ms a table; {ratio} one game made alone, "
          f"{baseline * 1000:.0f} ms); of the board {board * 1000:.0f} ms, mid-round "
          f"{max(spent.get(MID_ROUND, [0.0])) * 1000:.0f} ms")  # fmt: skip
    print(f"  another table's write behind a commit of {tables} tables ({wait['commit_wall']:.0f} ms of wall "
          f"time): worst {wait['worst']:.0f} ms of {wait['writes']:.0f} writes (goal {WAIT_GOAL:.0f} ms), "
          f"{wait['idle_p50']:.0f} ms the median before it")  # fmt: skip
    return all(max(v) <= LIMIT for v in spent.values())


def live(args: argparse.Namespace) -> None:
    """The live measurement (`--live`): the event's tables' devices and the organiser against a bare table."""
    print(f"firestep event day from {ROOT}; {load_line()}")
    with scratch_database(args.database) as url:
        server = serve(url, args.workers)
        port = server.port
        try:
            t = time.monotonic()
            event_id, organiser, games = make_event(port, args.tables + 1)  # one more for the bare table
            print(f"{args.tables + 1} tables made and started in {time.monotonic() - t:.1f} s")
            cpu = functools.partial(group_cpu, server.proc.pid)
            got = asyncio.run(
                measure(
                    port,
                    games[-1],
                    games[:-1],
                    (event_id, organiser),
                    args.rounds,
                    args.events,
                    args.interval,
                    cpu,
                )
            )
        finally:
            server.stop()
    bare, day_ = got["bare"], got["day"]
    ratio = day_["p99"] / bare["p99"] if bare["p99"] else float("nan")
    print(
        f"bare event (1 table, 4 devices asking no view): p50 {bare['p50']:.1f} ms p99 {bare['p99']:.1f} ms, "
        f"delivered {bare['delivered']}/{bare['expected']}; the server's CPU per marker {bare['cpu_ms']:.1f} ms"
    )
    print(
        f"event day ({args.tables} tables, 4 devices each with its page's view, and the organiser; "
        f"{got['devices']} devices live in all): p50 {day_['p50']:.1f} ms p99 {day_['p99']:.1f} ms, delivered "
        f"{day_['delivered']}/{day_['expected']}; the server's CPU per marker {day_['cpu_ms']:.1f} ms; the "
        f"organiser's board frame p50 {got['organiser_p50']:.1f} ms p99 {got['organiser_p99']:.1f} ms (drawn at "
        f"most twice a second); streams refused: {len(got['failed'])}"
    )
    print(
        f"p99 ratio event day / bare {ratio:.2f} (target 1.5): {'yes' if ratio <= 1.5 else 'NO'}; "
        f"p99 < 100 ms: {'yes' if day_['p99'] < 100 else 'NO'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, help="the event's tables (default 200; 40 with --live)")
    parser.add_argument("--boards", type=int, default=3, help="board reads after the commit and at the end")
    parser.add_argument("--seated", type=int, default=3, help="tables whose seats join and confirm a result")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help="one backend only")
    parser.add_argument(
        "--postgresql", help="a PostgreSQL server's URL (postgresql+psycopg://user@host:port/db)"
    )
    parser.add_argument(
        "--largest",
        choices=("flanders", "earth"),
        help="the round's scenario the largest table an import accepts of that rule set (default 64 tables)",
    )
    parser.add_argument(
        "--played",
        type=int,
        default=3,
        help="rounds drafted and committed, each round's results confirmed before the next",
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=0,
        help="round 1's games each moved on so many times, the board read again",
    )
    parser.add_argument("--live", action="store_true", help="the live measurement (below) instead")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite", help="--live's")
    parser.add_argument("--workers", type=int, default=1, help="--live: the server's workers")
    parser.add_argument(
        "--rounds", type=int, default=6, help="--live: turns of the bare table and the event's tables"
    )
    parser.add_argument(
        "--events", type=int, default=40, help="--live: markers posted in each half of a round"
    )
    parser.add_argument("--interval", type=float, default=0.1, help="--live: seconds between markers")
    args = parser.parse_args()
    if args.postgresql:
        os.environ["FIRESTEP_BENCH_DATABASE_URL"] = args.postgresql
    if args.live:
        args.tables = args.tables or 40
        live(args)
        return
    tables = args.tables or (64 if args.largest else 200)
    print(f"firestep event day from {ROOT}; {load_line()}")
    ok = True
    for database, workers in (("sqlite", 1), ("postgresql", 4)):
        if args.only in (None, database):
            spent, wait = day(
                database, workers, tables, args.boards, args.seated, args.largest, args.played, args.turns
            )
            title = f"{database}, {workers} worker{'s' if workers > 1 else ''}"
            title += f", the largest {args.largest} table" if args.largest else ", mons-1914"
            ok = report(title, tables, spent, wait, args.played) and ok
    print(f"\nevery accepted request within {LIMIT:.0f} s of CPU: {'yes' if ok else 'NO'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
