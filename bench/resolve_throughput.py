"""Benchmark: resolve throughput against a bare FastAPI endpoint (run by hand:
`.venv/bin/python bench/resolve_throughput.py`). Not a test: it only reports.

Starts two servers with the same uvicorn settings (one worker, no access log), firestep (`app.main:app` on
a fresh SQLite database) and bench/bare_app.py (one endpoint validating a body like the order roll's and
answering the same JSON through a response model), then sends each the same order roll over the same number
of keep-alive connections, in interleaved rounds so machine noise hits both alike, and prints requests per
second and the ratio (target: firestep at least 0.95x bare, the project's standard). `--profile` also prints
where firestep's time goes inside one process (resolver, routing, validation, middleware), from cProfile over
in-process calls.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Process, encode, free_port, hammer, load_line, scratch_database, uvicorn_args

BODY = {"period": "early", "unit": "rifle-company", "quality": "veteran", "dice": [4]}
FIRESTEP_PATH = "/api/v1/rulesets/flanders-fields/order-roll"
TARGET = 0.95  # the standard's: resolve at least 0.95x bare FastAPI


def profile(calls: int = 3000) -> None:
    """Where the time of one resolve request goes inside the server process: the ASGI app called directly
    in one event loop (no network, no client), under cProfile, by cumulative time."""
    import cProfile
    import json
    import pstats
    import time
    from typing import Any

    from app.core.config import Settings
    from app.main import create_app
    from rules.registry import get_ruleset

    body = json.dumps(BODY).encode()
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": FIRESTEP_PATH,
        "raw_path": FIRESTEP_PATH.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200, message

    with scratch_database("sqlite") as url:
        app = create_app(Settings(database_url=url))

        async def many(n: int) -> float:
            t0 = time.perf_counter()
            for _ in range(n):
                await app(dict(scope), receive, send)
            return (time.perf_counter() - t0) / n * 1e6

        asyncio.run(many(200))
        plain_us = asyncio.run(many(calls))
        prof = cProfile.Profile()
        prof.enable()
        asyncio.run(many(calls))
        prof.disable()
        rs = get_ruleset("flanders-fields")
        req = rs.resolvers["order-roll"].Request(**BODY)
        t0 = time.perf_counter()
        for _ in range(calls):
            rs.resolve("order-roll", req).as_dict()
        resolver_us = (time.perf_counter() - t0) / calls * 1e6
    print(
        f"one request through the app (no network): {plain_us:.0f} us; the resolver alone: {resolver_us:.0f} us"
    )
    pstats.Stats(prof).sort_stats("cumulative").print_stats(45)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of in-process requests")
    args = parser.parse_args()
    if args.profile:
        profile()
        return

    with scratch_database("sqlite") as url:
        env = {"FIRESTEP_DATABASE_URL": url, "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40}
        servers: list[Process] = []
        try:
            # Each port taken as its server starts: two free ports asked for at once may be the same one.
            for app in ("app.main:app", "bench.bare_app:app"):
                port = free_port()
                servers.append(Process(uvicorn_args(app, port), port, env))
            fs_port, bare_port = (s.port for s in servers)
            firestep_raw = encode("POST", FIRESTEP_PATH, BODY)
            bare_raw = encode("POST", "/resolve", BODY)
            for port, raw in ((fs_port, firestep_raw), (bare_port, bare_raw)):  # warm up both
                asyncio.run(hammer(port, raw, args.connections, 1.0))
            rates: dict[str, list[float]] = {"firestep": [], "bare": []}
            cpu_us: dict[str, list[float]] = {"firestep": [], "bare": []}
            for _ in range(args.rounds):
                for name, port, raw, server in (
                    ("firestep", fs_port, firestep_raw, servers[0]),
                    ("bare", bare_port, bare_raw, servers[1]),
                ):
                    cpu_before = cpu_seconds(server.proc.pid)
                    done = asyncio.run(hammer(port, raw, args.connections, args.seconds))
                    rates[name].append(done / args.seconds)
                    cpu_us[name].append((cpu_seconds(server.proc.pid) - cpu_before) / max(done, 1) * 1e6)
        finally:
            for s in servers:
                s.stop()

    fs, bare = statistics.median(rates["firestep"]), statistics.median(rates["bare"])
    print(f"order roll, {args.connections} keep-alive connections, one uvicorn worker each; {load_line()}")
    print(f"medians of {args.rounds} interleaved rounds of {args.seconds:.0f} s")
    print(
        f"  firestep {FIRESTEP_PATH}: {fs:8.0f} req/s  (rounds: {', '.join(f'{r:.0f}' for r in rates['firestep'])})"
    )
    print(
        f"  bare FastAPI /resolve:            {bare:8.0f} req/s  (rounds: {', '.join(f'{r:.0f}' for r in rates['bare'])})"
    )
    ratio = fs / bare
    print(f"firestep / bare: {ratio:.2f}x (target at least {TARGET}x: {'yes' if ratio >= TARGET else 'NO'})")
    # The server's own CPU time per request: less moved by other work on the machine than requests/s.
    fs_cpu, bare_cpu = statistics.median(cpu_us["firestep"]), statistics.median(cpu_us["bare"])
    print(
        f"server CPU per request: firestep {fs_cpu:.0f} us, bare {bare_cpu:.0f} us; "
        f"bare / firestep {bare_cpu / fs_cpu:.2f}x"
    )


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
