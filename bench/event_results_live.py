"""Benchmark: every table's result confirmed and seen in the standings on every open organiser device (issue 93).
Run by hand: `.venv/bin/python bench/event_results_live.py --tables 400 --database postgresql --workers 4`. Not
a test: it only reports, and exits non-zero when the goal is missed.

Issue 93's goal: the last confirmed result in the standings on every open device within 60 s of its confirmation
(p99 of 400 tables). An event of 2 x `--tables` players, its round committed (bench/event_day.py's set-up), each
table's seats joined; the organiser's page open on `--devices` devices (its live view: `/stream?view=html`), each
on its page of the standings, first to last (`&standings=`: its rows and the results counted sent again whenever
a result is settled). Then, one table after another (`--interval` apart), the table's game is finished by its
referee and the result confirmed from both seats; the time of the second confirmation's answer is the result's.
A device has the k-th result once a standings frame it read counts k results or more and shows each of the
table's players on its page at their points in the final standings (GET /standings once every result is in: each
player plays one table in round 1, so their points reach the final ones exactly when their table's result is
counted). Printed: per result, the slowest of the devices; the p50, p99 and worst over the tables; the server's
CPU per confirmation (the finish and both confirmations, every process of the server's group) and the worst
single confirmation's CPU (both counting what the organiser's streams spend meanwhile, every worker's).

Measured before the standings were paged (each device then sent all 800 rows; issue 93's run, 2-core machine shared with two other agents, load 2.6-8.5): 400 tables on PostgreSQL
with 4 workers, 4 organiser devices: every result seen on every device, p50 1.9 s, p99 5.2 s, worst 7.6 s; the
server's CPU a table's result 1.07 s (median), most of it the devices' board frames (each worker with a stream
open draws the 400-table board again after a change, at most twice a second), the confirmation alone at most
90 ms on SQLite and 310 ms on PostgreSQL in bench/event_day.py (no stream open).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from event_day import committed_event, serve
from live_fanout import group_cpu
from serving import ROOT, Stream, call, load_line, percentile, request, scratch_database

from app.pages.event_round import STANDINGS_A_PAGE

GOAL_SECONDS = 60.0  # issue 93: the last confirmed result on every open device within 60 s (p99)
_COUNTED = re.compile(r'id="ev-counted"[^>]*><strong>(\d+)</strong>')
_ROW = re.compile(r"<tr><td>\d+</td><td>(.*?) <span class=\"muted\">.*?</span></td><td>(-?\d+)</td>")


class Device(Stream):
    """One organiser device's stream, told its page of the standings: each standings frame it read, when, with the
    results it counted and the points of the players on its page."""

    limit = 1 << 24  # a frame of a new round whole

    def __init__(self) -> None:
        super().__init__()
        self.standings: list[tuple[float, int, dict[str, int]]] = []

    def seen(self, line: bytes, at: float) -> None:
        if line.startswith(b"data: ") and b"ev-counted" in line:
            piece = json.loads(line[6:])
            self.standings.append((at, counted_in(piece), points_of(piece)))

    def shown(self, after: float, results: int, want: dict[str, int]) -> float | None:
        """When this device first read standings, after `after`, counting `results` or more, each player of `want`
        on its page at their points."""
        for at, counted, points in self.standings:
            if at >= after and counted >= results and all(points.get(n, p) == p for n, p in want.items()):
                return at
        return None


def counted_in(piece: str) -> int:
    """The results a standings piece says it counts (app/pages/event_round.py's StandingsShown.counted)."""
    found = _COUNTED.search(piece)
    assert found, piece[:200]
    return int(found.group(1))


def points_of(piece: str) -> dict[str, int]:
    """Each player's points in a standings piece (the organiser page's rows, app/pages/event_round.py)."""
    return {html.unescape(name): int(points) for name, points in _ROW.findall(piece)}


def made(port: int, tables: int) -> tuple[int, dict[str, str], list[dict[str, Any]]]:
    """An event of 2 x `tables` players, round 1 committed, each table's seats joined: per table its id, game,
    referee's and seats' tokens and players' names."""
    event_id, organiser, committed = committed_event(port, tables, "Results night")
    names = {t["id"]: (t["a_name"], t["b_name"])
             for t in call(port, "GET", f"/api/v1/events/{event_id}/board", headers=organiser)["tables"]}  # fmt: skip
    out = []
    for seat in committed["seats"]:
        seats = [
            call(port, "POST", "/api/v1/join", {"code": code})["token"]
            for code in seat["join_codes"].values()
        ]
        out.append({"table": seat["table_id"], "game": seat["game_id"], "referee": seat["referee_token"],
                    "seats": seats, "names": names[seat["table_id"]]})  # fmt: skip
    return event_id, organiser, out


async def ask(port: int, method: str, path: str, token: str, body: Any = None) -> Any:
    status, data = await request("127.0.0.1", port, method, path, body, {"Authorization": f"Bearer {token}"})
    if status >= 300:
        raise RuntimeError(f"{method} {path}: {status} {data!r}")
    return data


async def measure(
    port: int, event_id: int, organiser: dict[str, str], tables: list[dict[str, Any]], devices: int,
    interval: float, pid: int,
) -> dict[str, Any]:  # fmt: skip
    """The devices opened, every table's result settled in turn, then every device given time to catch up."""
    token = organiser["Authorization"].removeprefix("Bearer ")
    following = [Device() for _ in range(devices)]
    pages = -(-2 * len(tables) // STANDINGS_A_PAGE)  # each device on its page of the standings, first to last
    path = f"/api/v1/events/{event_id}/stream?view=html&shown_round=1&standings="
    asked = [1 + k * (pages - 1) // max(1, devices - 1) for k in range(devices)]
    tasks = [
        asyncio.ensure_future(d.follow(port, f"{path}{p}", organiser))
        for d, p in zip(following, asked, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(d.ready.wait() for d in following)), 120)
    await asyncio.sleep(1.0)
    settled: list[float] = []
    cpu: list[float] = []
    confirmations: list[float] = []
    for t in tables:
        before = group_cpu(pid)
        version = (await ask(port, "GET", f"/api/v1/games/{t['game']}/turn", t["referee"]))["version"]
        await ask(port, "POST", f"/api/v1/games/{t['game']}/finish", t["referee"], {"version": version})
        for token in t["seats"]:
            one = group_cpu(pid)
            await ask(port, "POST", f"/api/v1/events/{event_id}/tables/{t['table']}/confirm", token)
            confirmations.append(group_cpu(pid) - one)
        settled.append(time.monotonic())
        cpu.append(group_cpu(pid) - before)
        await asyncio.sleep(interval)
    final = {
        s["name"]: s["points"] for s in await ask(port, "GET", f"/api/v1/events/{event_id}/standings", token)
    }
    wanted = [{name: final[name] for name in t["names"]} for t in tables]
    deadline = time.monotonic() + GOAL_SECONDS * 2
    results = list(enumerate(zip(settled, wanted, strict=True), 1))  # the k-th result settled makes k counted
    while time.monotonic() < deadline and not all(
        d.shown(at, k, want) is not None for d in following for k, (at, want) in results
    ):
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    latencies, missing = [], 0
    for k, (at, want) in results:
        seen = [d.shown(at, k, want) for d in following]
        if any(s is None for s in seen):
            missing += 1
        else:
            latencies.append((max(s for s in seen if s is not None) - at) * 1000)
    return {
        "latencies": latencies,
        "missing": missing,
        "cpu": cpu,
        "confirmations": confirmations,
        "failed": [d.error for d in following if d.error],
        "frames": min(len(d.standings) for d in following),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=400, help="the event's tables (2 players each)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--workers", type=int, default=4, help="the server's workers")
    parser.add_argument("--devices", type=int, default=4, help="organiser devices with the page open")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between two tables' results")
    args = parser.parse_args()
    print(f"firestep results live from {ROOT}; {load_line()}")
    with scratch_database(args.database) as url:
        server = serve(url, args.workers)
        try:
            t0 = time.monotonic()
            event_id, organiser, tables = made(server.port, args.tables)
            print(f"{len(tables)} tables made, their seats joined, in {time.monotonic() - t0:.0f} s")
            got = asyncio.run(measure(server.port, event_id, organiser, tables, args.devices, args.interval,
                                      server.proc.pid))  # fmt: skip
        finally:
            server.stop()
    lat = got["latencies"]
    print(f"{args.database}, {args.workers} worker(s): {len(tables)} results confirmed, each counted in the standings "
          f"on all {args.devices} organiser devices (each on its page of them, its players there at their points): "
          f"{len(lat)} ({got['missing']} never); standings frames a device read: {got['frames']}")  # fmt: skip
    if lat:
        print(f"  from the confirmation to the last device: p50 {percentile(lat, 50):.0f} ms, p99 "
              f"{percentile(lat, 99):.0f} ms, worst {max(lat):.0f} ms (goal: p99 within {GOAL_SECONDS:.0f} s)")  # fmt: skip
    print(f"  the server's CPU a table's result (finish and both confirmations): median "
          f"{percentile(got['cpu'], 50) * 1000:.0f} ms; the worst confirmation {max(got['confirmations']) * 1000:.0f} "
          f"ms; streams refused or closed: {len(got['failed'])}")  # fmt: skip
    ok = bool(lat) and not got["missing"] and percentile(lat, 99) <= GOAL_SECONDS * 1000 and not got["failed"]
    print(f"every result on every device, p99 within {GOAL_SECONDS:.0f} s: {'yes' if ok else 'NO'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
