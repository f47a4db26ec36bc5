"""Benchmark: live fan-out (run by hand: `.venv/bin/python bench/live_fanout.py`). Not a test: it only
reports.

Serves firestep with `firestep serve --workers W`, opens N Server-Sent Events streams on one game (spread
over the workers by the kernel, as a proxy would), then posts markers one at a time from another connection
and times each event from the moment its POST is sent (a tap on one tablet) to its arrival on every stream.
Prints p50/p99 of that latency, the events lost (posted but never delivered to a stream), and whether every
stream got them in order. Two scenarios by default, each against its target:
- 50 clients on 1 worker (SQLite): p99 under 100 ms;
- 500 clients over 4 workers on PostgreSQL (FIRESTEP_BENCH_DATABASE_URL, else FIRESTEP_TEST_DATABASE_URL):
  p99 under 250 ms, nothing lost.
`--clients`, `--workers` and `--database` run one scenario of your own; `--view map|board|counters|mixed` has the
streams ask for the frames a page asks for (the map's units and state, the referee board's pieces; mixed:
every other device a map, the rest boards), and the bytes each device read per event are reported.
`--compare` (with `--view`) measures the bare event and the view's frames on the same server, in turns
(`--rounds`, each half the markers: 600 markers 0.1 s apart unless told), and prints the view's p99 as a
ratio of the bare event's: on a shared, noisy machine the ratio says more than either figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

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

SCENARIOS = [
    # clients, workers, database, p99 target in ms
    (50, 1, "sqlite", 100.0),
    (500, 4, "postgresql", 250.0),
]


class Client(Stream):
    """A device's stream as each event's arrival time (its `id:` line) and their order."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: dict[int, float] = {}
        self.order: list[int] = []

    def seen(self, line: bytes, at: float) -> None:
        if line.startswith(b"id: "):
            event_id = int(line[4:])
            self.arrivals.setdefault(event_id, at)
            self.order.append(event_id)


def set_up_game(port: int) -> dict[str, Any]:
    made = call(port, "POST", "/api/v1/games", {"scenario": "mons-1914"})
    gid = made["game"]["id"]
    tokens = {"referee": made["referee_token"]}
    for side in ("attacker", "defender"):
        tokens[side] = call(port, "POST", "/api/v1/join", {"code": made["join_codes"][side]})["token"]
    referee = {"Authorization": f"Bearer {tokens['referee']}"}
    version = call(port, "GET", f"/api/v1/games/{gid}/turn", headers=referee)["version"]
    call(port, "POST", f"/api/v1/games/{gid}/turn/advance", {"version": version}, referee)
    units = call(port, "GET", f"/api/v1/games/{gid}/units", headers=referee)
    targets = [u["id"] for u in units if u["side"] == "defender" and u["kind"] == "rifle-platoon"]
    last = call(port, "GET", f"/api/v1/games/{gid}/events", headers=referee)[-1]["id"]
    return {"id": gid, "tokens": tokens, "targets": targets, "last": last}


async def post_markers(
    port: int, game: dict[str, Any], count: int, interval: float, answered: list[float]
) -> list[tuple[int, float]]:
    """The attacker's markers one after another, over the defender's platoons in turn (so none is suppressed
    out of the game): the id of each event and when its POST was sent."""
    attacker = {"Authorization": f"Bearer {game['tokens']['attacker']}"}
    sent: list[tuple[int, float]] = []
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for i in range(count):
            unit = game["targets"][i % len(game["targets"])]
            raw = encode(
                "POST",
                f"/api/v1/games/{game['id']}/units/{unit}/markers",
                {"delta": 1, "fire": "rifle"},
                attacker,
            )
            t0 = time.monotonic()
            writer.write(raw)
            status, body = await read_response(reader)
            if status != 200:
                raise RuntimeError(f"marker: {status} {body[:200]!r}")
            sent.append((int(json.loads(body)["event_id"]), t0))
            answered.append(time.monotonic() - t0)
            await asyncio.sleep(interval)
    finally:
        writer.close()
    return sent


async def measure(
    port: int,
    game: dict[str, Any],
    clients: int,
    events: int,
    interval: float,
    view: str = "",
    cpu: Callable[[], float] = lambda: 0.0,
) -> dict[str, Any]:
    roles = ("referee", "attacker", "defender")
    devices = [Client() for _ in range(clients)]
    tasks = []
    for i, device in enumerate(devices):
        asked = ("map", "board")[i % 2] if view == "mixed" else view
        path = f"/api/v1/games/{game['id']}/stream" + (f"?view={asked}" if asked else "")
        headers = {
            "Authorization": f"Bearer {game['tokens'][roles[i % 3]]}",
            "Last-Event-ID": str(game["last"]),
        }
        tasks.append(asyncio.ensure_future(device.follow(port, path, headers)))
        if i % 25 == 24:
            await asyncio.sleep(0.05)  # devices join over a moment, not in one burst
    t_open = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(d.ready.wait() for d in devices)), 120)
    opened_s = time.monotonic() - t_open
    failed = [d.error for d in devices if d.error]
    await asyncio.sleep(0.5)
    answered: list[float] = []
    cpu_before = cpu()
    sent = await post_markers(port, game, events, interval, answered)
    posted = {event_id for event_id, _ in sent}
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(
        posted <= d.arrivals.keys() for d in devices if not d.error
    ):
        await asyncio.sleep(0.05)
    cpu_spent = cpu() - cpu_before
    for task in tasks:
        task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    latencies = [
        (d.arrivals[event_id] - t0) * 1000 for d in devices for event_id, t0 in sent if event_id in d.arrivals
    ]
    done_at = {event_id: t0 + took for (event_id, t0), took in zip(sent, answered, strict=True)}
    after_answer = [
        (d.arrivals[event_id] - done_at[event_id]) * 1000
        for d in devices
        for event_id, _ in sent
        if event_id in d.arrivals
    ]
    in_order = all(
        [i for i in d.order if i in posted] == sorted(i for i in d.order if i in posted) for d in devices
    )
    return {
        "latencies": latencies,
        "cpu": cpu_spent,  # the server's, from the first marker to the last delivery
        "last": max(posted, default=game["last"]),
        "opened_s": opened_s,
        "failed": failed,
        "expected": len(devices) * len(sent),
        "delivered": len(latencies),
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "max": max(latencies, default=float("nan")),
        "in_order": in_order,
        "post_p50": percentile([a * 1000 for a in answered], 50),
        "posts_ms": [round(a * 1000) for a in answered],
        "after_p99": percentile(after_answer, 99),
        "bytes_per_event": max(d.bytes_read for d in devices) / max(1, len(sent)),
    }


def run(
    clients: int, workers: int, database: str, events: int, interval: float, view: str = ""
) -> dict[str, Any]:
    with scratch_database(database) as url:
        port = free_port()
        env = {
            "FIRESTEP_DATABASE_URL": url,
            "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40,
            "FIRESTEP_HOST": "127.0.0.1",
            "FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS": "1",
        }
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
        server = Process(args, port, env)
        try:
            game = set_up_game(port)
            return asyncio.run(measure(port, game, clients, events, interval, view))
        finally:
            server.stop()


def group_cpu(pgid: int) -> float:
    """CPU seconds of every process in a process group (Linux's /proc; 0 elsewhere)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if (
                int(fields[2]) == pgid
            ):  # fields after the name: state, ppid, pgrp, ..., utime (11), stime (12)
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


def compare(
    clients: int, workers: int, database: str, events: int, interval: float, view: str, rounds: int
) -> dict[str, list[float]]:
    """The bare event's latencies and the view's, measured in turns on one server: `rounds` of each, every
    round on a new game with its own streams and events // (2 * rounds) markers."""
    with scratch_database(database) as url:
        port = free_port()
        env = {
            "FIRESTEP_DATABASE_URL": url,
            "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40,
            "FIRESTEP_HOST": "127.0.0.1",
            "FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS": "1",
        }
        args = [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--workers", str(workers)]
        server = Process([*args, "--port", str(port)], port, env)
        got: dict[str, list[float]] = {"": [], view: [], "cpu": [0.0], f"{view}-cpu": [0.0]}
        try:
            per_round = max(1, events // (2 * rounds))
            for _ in range(rounds):
                for asked in ("", view):
                    # A game of its own for each turn: its platoons take the markers two at most each (a third
                    # would destroy one, and the next marker on it is refused).
                    game = set_up_game(port)
                    probe = functools.partial(group_cpu, server.proc.pid)
                    one = asyncio.run(measure(port, game, clients, per_round, interval, asked, probe))
                    got[f"{asked}-cpu" if asked else "cpu"][0] += one["cpu"]
                    got[asked] += one["latencies"]
        finally:
            server.stop()
        return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--events", type=int, help="markers posted (20; 600 with --compare)")
    parser.add_argument("--interval", type=float, help="seconds between markers (0.25; 0.1 with --compare)")
    parser.add_argument(
        "--view", choices=("", "map", "board", "counters", "mixed"), default="", help="what frames carry"
    )
    parser.add_argument("--compare", action="store_true", help="the view against the bare event, in turns")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each with --compare")
    args = parser.parse_args()
    # With --compare the p99s are of the markers' slowest deliveries: a device's latency moves with its
    # event's (each event reaches all devices at once), so 60 markers a side made each p99 one event's luck.
    args.events = args.events or (600 if args.compare else 20)
    args.interval = args.interval if args.interval is not None else (0.1 if args.compare else 0.25)
    if args.compare:
        clients = args.clients or 50
        print(f"firestep live fan-out from {ROOT}; {load_line()}")
        got = compare(
            clients, args.workers, args.database, args.events, args.interval, args.view, args.rounds
        )
        bare, framed = percentile(got[""], 99), percentile(got[args.view], 99)
        half = max(1, args.events // (2 * args.rounds)) * args.rounds
        print(
            f"{clients:>4} clients, {args.workers} worker(s) on {args.database}, {args.rounds} rounds: bare "
            f"p50 {percentile(got[''], 50):.1f} p99 {bare:.1f} ms; view {args.view} p50 "
            f"{percentile(got[args.view], 50):.1f} p99 {framed:.1f} ms; p99 ratio {framed / bare:.2f} "
            f"(target 1.5); the server's CPU per event {got['cpu'][0] / half * 1000:.1f} ms bare, "
            f"{got[args.view + '-cpu'][0] / half * 1000:.1f} ms with the view"
        )
        return
    scenarios = [(args.clients, args.workers, args.database, None)] if args.clients else SCENARIOS
    print(f"firestep live fan-out from {ROOT}; {load_line()}")
    print(
        f"{args.events} markers, {args.interval:.2f} s apart; latency = POST sent -> event read by the stream"
    )
    for clients, workers, database, target in scenarios:
        got = run(clients, workers, database, args.events, args.interval, args.view)
        lost = got["expected"] - got["delivered"]
        verdict = ""
        if target is not None:
            ok = got["p99"] < target and lost == 0 and not got["failed"] and got["in_order"]
            verdict = f"  target p99 < {target:.0f} ms, nothing lost: {'yes' if ok else 'NO'}"
        print(
            f"{clients:>4} clients, {workers} worker{'s' if workers > 1 else ' '} on {database:<10}: "
            f"p50 {got['p50']:6.1f} ms  p99 {got['p99']:6.1f} ms  max {got['max']:6.1f} ms  "
            f"lost {lost}/{got['expected']}  in order: {'yes' if got['in_order'] else 'NO'}  "
            f"streams refused: {len(got['failed'])}  (all open in {got['opened_s']:.1f} s; a POST answered in "
            f"p50 {got['post_p50']:.0f} ms, the slowest in {max(got['posts_ms'])} ms; p99 from its answer to the "
            f"stream {got['after_p99']:.0f} ms; at most {got['bytes_per_event']:.0f} bytes per event per device)"
            f"{verdict}"
        )
        if got["failed"]:
            print(f"    first refusal: {got['failed'][0]}")


if __name__ == "__main__":
    main()
