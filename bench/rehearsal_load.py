"""Benchmark: rehearsals next to an unrelated game (run by hand: `.venv/bin/python bench/rehearsal_load.py`).
Not a test: it only reports. Loopback only; it stops by itself.

Serves firestep as `firestep serve` does (one worker), sets up two games, and times an unrelated game's
`GET /turn` (one request every 20 ms, each on a new connection) first alone, then while `--rehearsals`
devices each rehearse a large fire plan over and over (one request in flight per device). Prints p50/p99/max
of `GET /turn` in both phases, the rehearsals answered and refused, and one rehearsal's time on its own.
Target: with four rehearsals running, `GET /turn` p99 under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import ROOT, Process, call, free_port, load_line, percentile, request, scratch_database

TARGET_P99_MS = 100.0
PROBE_EVERY = 0.02


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(port: int) -> tuple[int, str, str]:
    """A Mons 1914 game: its id, the referee's token, the defender's join code."""
    body = call(port, "POST", "/api/v1/games", {"scenario": "mons-1914"})
    return body["game"]["id"], body["referee_token"], body["join_codes"]["defender"]


def large_plan(port: int, game: int, token: str, batteries: int) -> None:
    """The defender's plan: `batteries` batteries on the German start line, each firing three turns, arriving
    over the first three turns (the British plan of tests/app/games/test_rehearsal_api.py, widened)."""
    for b in range(batteries):
        item = {"kind": "aiming-point", "grid": [20 + b * 12, 168], "battery": str(b + 1), "turns": 3}
        call(
            port,
            "POST",
            f"/api/v1/games/{game}/fireplans/defender/items",
            {"arrival_turn": 1 + b % 3, "item": item},
            bearer(token),
        )


async def probe(port: int, path: str, token: str, seconds: float) -> list[float]:
    """Milliseconds of each `GET path`, one started every PROBE_EVERY seconds for `seconds`."""
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        status, _ = await request("127.0.0.1", port, "GET", path, headers=bearer(token))
        took = time.perf_counter() - started
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        times.append(took * 1000)
        await asyncio.sleep(max(0.0, PROBE_EVERY - took))
    return times


async def rehearse_loop(
    port: int, path: str, token: str, body: dict[str, Any], stop: float, tally: dict[int, int]
) -> None:
    while time.perf_counter() < stop:
        status, _ = await request("127.0.0.1", port, "POST", path, body, bearer(token))
        tally[status] = tally.get(status, 0) + 1
        if status != 200:
            await asyncio.sleep(1)  # refused: as Retry-After asks, roughly


def summary(times: list[float]) -> str:
    return f"p50 {percentile(times, 50):6.1f} ms  p99 {percentile(times, 99):6.1f} ms  max {max(times):6.1f} ms  ({len(times)} requests)"


def run(database: str, rehearsals: int, seconds: float, batteries: int, turns: int) -> bool:
    with scratch_database(database) as url, tempfile.TemporaryDirectory(prefix="firestep-bench-") as var:
        port = free_port()
        server = Process(
            [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--port", str(port)],
            port,
            {"FIRESTEP_DATABASE_URL": url, "FIRESTEP_VAR_DIR": var},
        )
        try:
            planned, _, code = new_game(port)
            devices = [call(port, "POST", "/api/v1/join", {"code": code})["token"] for _ in range(rehearsals)]
            large_plan(port, planned, devices[0], batteries)
            other, other_referee, _ = new_game(port)
            rehearsal_path = f"/api/v1/games/{planned}/fireplans/defender/rehearsal"
            body = {"turns": turns}
            started = time.perf_counter()
            call(port, "POST", rehearsal_path, body, bearer(devices[0]))  # starts the worker process
            first = time.perf_counter() - started
            started = time.perf_counter()
            call(port, "POST", rehearsal_path, body, bearer(devices[0]))
            alone = time.perf_counter() - started
            print(
                f"one rehearsal ({batteries} batteries, {turns} turns): {alone * 1000:.0f} ms ({first * 1000:.0f} ms the first)"
            )

            turn_path = f"/api/v1/games/{other}/turn"
            quiet = asyncio.run(probe(port, turn_path, other_referee, seconds))
            print(f"GET /turn alone:                   {summary(quiet)}")

            async def loaded() -> tuple[list[float], dict[int, int]]:
                tally: dict[int, int] = {}
                stop = time.perf_counter() + seconds
                loops = [rehearse_loop(port, rehearsal_path, d, body, stop, tally) for d in devices]
                times, *_ = await asyncio.gather(probe(port, turn_path, other_referee, seconds), *loops)
                return times, tally

            busy, tally = asyncio.run(loaded())
            print(f"GET /turn with {rehearsals} rehearsals running: {summary(busy)}")
            print(
                f"rehearsals answered {tally.get(200, 0)}, refused {sum(n for s, n in tally.items() if s != 200)} {dict(sorted(tally.items()))}"
            )
            ok = percentile(busy, 99) < TARGET_P99_MS
            print(
                f"target p99 < {TARGET_P99_MS:.0f} ms with {rehearsals} rehearsals: {'yes' if ok else 'NO'}"
            )
            return ok
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--rehearsals", type=int, default=4, help="devices rehearsing at once")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--batteries", type=int, default=12, help="batteries in the rehearsed plan")
    parser.add_argument("--turns", type=int, default=8, help="turns rehearsed")
    args = parser.parse_args()
    print(f"firestep rehearsal load from {ROOT}; {load_line()}")
    run(args.database, args.rehearsals, args.seconds, args.batteries, args.turns)


if __name__ == "__main__":
    main()
