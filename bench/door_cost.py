"""Benchmark: what firestep's door costs a request, in process (issue 88: an act at most 2x the bare append).
Run by hand: `.venv/bin/python bench/door_cost.py [--reps 2000] [--against DIR] [--rounds 2]`. Not a test: it
only reports.

The ASGI app is called directly on one event loop (no server, no HTTP parsing), so that what is measured is the
app's own CPU per request (`time.process_time`, the mean of --reps, several rounds interleaved): firestep's app
whole (`app.main.create_app`), the same app without its middleware (FastAPI's own stack and the routing kept), and
bench/bare_app.py's bare FastAPI app, each given the same route functions (a no-op, one with a JSON body) put
first among their routes. What each figure is:
- `door`: the middleware (HtmxNotice ... SecurityHeaders, app/main.py), the whole app less the app without it;
- `token`: the API token's dependency (app.guard.auth.viewer), a no-op route with it less one without;
- `routing`: finding the route of a real path among the app's routers (app.core.routing), FastAPI's first pass;
- `door ... with an Idempotency-Key`: the same write keyed as the browser's outbox keys every tap (a new key each);
- real requests, whole: a GET of the game and a marker act (+1 then -1 on a stand, the referee's override).
With `--against DIR` (another tree of firestep, e.g. `git archive` of an earlier commit unpacked) the same figures
are measured there too, in processes alternating with this tree's, and printed side by side with their ratios."""

# No `from __future__ import annotations`: the routes made inside measure() are read by FastAPI at once, their
# annotations names of that function (its app's own, imported there).
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ASGI = Callable[[dict[str, Any], Any, Any], Awaitable[None]]
BODY = json.dumps({"delta": 1, "note": "x" * 200}).encode()
# Real paths routed (the method's and path's route found by the app's routers, as a request's first pass).
ROUTED = (
    ("POST", "/api/v1/games/3/units/17/markers"),
    ("POST", "/api/v1/games/3/units/17/move"),
    ("GET", "/api/v1/games/3/units"),
    ("GET", "/api/v1/games/3/score"),
    ("GET", "/games/3/map"),
)


def scope(method: str, path: str, token: str | None = None, body: bytes = b"") -> dict[str, Any]:
    headers = [
        (b"host", b"testserver"),
        (b"user-agent", b"bench"),
        (b"accept", b"*/*"),
        (b"accept-encoding", b"gzip, deflate, br, zstd"),
        (b"connection", b"keep-alive"),
    ]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 5555),
        "server": ("testserver", 80),
    }


async def call(app: ASGI, asked: dict[str, Any], body: bytes) -> int:
    """One request through `app`: its status."""
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # the client stays: no disconnect
        return {"type": "http.disconnect"}

    status: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app({**asked, "headers": list(asked["headers"]), "state": {}}, receive, send)
    return status[0]


def measure(reps: int) -> dict[str, float]:
    """This tree's figures, microseconds of CPU per request."""
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from pydantic import BaseModel
    from starlette.routing import Match

    from app.core.config import Settings
    from app.core.db import migrate
    from app.guard.auth import ViewerDep
    from app.main import create_app

    folder = tempfile.mkdtemp()
    url = f"sqlite:///{folder}/bench.db"
    migrate(url)
    os.environ.setdefault("FIRESTEP_DATABASE_URL", url)
    import bare_app  # this script's folder, on the path as a script's is

    firestep = create_app(Settings(database_url=url, var_dir=Path(folder)))

    class Noop(BaseModel):
        delta: int
        note: str = ""

    async def noop_get() -> dict[str, int]:
        return {"ok": 1}

    async def noop_body(body: Noop) -> dict[str, int]:
        return {"ok": body.delta}

    async def noop_token(viewer: ViewerDep, body: Noop) -> dict[str, int]:
        return {"ok": body.delta}

    def first(app: FastAPI, path: str, endpoint: Callable[..., Any], method: str) -> None:
        app.add_api_route(path, endpoint, methods=[method])
        app.router.routes.insert(0, app.router.routes.pop())

    for app in (firestep, bare_app.app):
        first(app, "/api/v1/bench-get", noop_get, "GET")
        first(app, "/api/v1/games/{game_id}/bench-noop", noop_body, "POST")
    first(firestep, "/api/v1/games/{game_id}/bench-token", noop_token, "POST")

    with TestClient(firestep) as client:
        made = client.post("/api/v1/games", json={"scenario": "mons-1914"}).json()
        game, token = made["game"]["id"], made["referee_token"]
        auth = {"Authorization": f"Bearer {token}"}
        turn = client.get(f"/api/v1/games/{game}/turn", headers=auth).json()
        client.post(f"/api/v1/games/{game}/turn/advance", headers=auth, json={"version": turn["version"]})
        units = client.get(f"/api/v1/games/{game}/units", headers=auth).json()
        stand = next(u for u in units if u["x"] is not None and u["side"] == "attacker")["id"]

    kept = firestep.user_middleware
    firestep.user_middleware = []
    bare_stack = firestep.build_middleware_stack()
    firestep.user_middleware = kept

    async def undoored(asked: dict[str, Any], receive: Any, send: Any) -> None:
        asked["app"] = firestep
        await bare_stack(asked, receive, send)

    base = f"/api/v1/games/{game}"
    marker = {"delta": 1, "fire": "rifle", "override": True}
    back = {"delta": -1, "override": True}
    cases: dict[str, tuple[ASGI, dict[str, Any], bytes]] = {
        "bare GET noop": (bare_app.app, scope("GET", "/api/v1/bench-get"), b""),
        "bare POST noop": (bare_app.app, scope("POST", f"{base}/bench-noop", token, BODY), BODY),
        "GET noop": (firestep, scope("GET", "/api/v1/bench-get"), b""),
        "GET noop, no middleware": (undoored, scope("GET", "/api/v1/bench-get"), b""),
        "POST noop": (firestep, scope("POST", f"{base}/bench-noop", token, BODY), BODY),
        "POST noop, no middleware": (undoored, scope("POST", f"{base}/bench-noop", token, BODY), BODY),
        "POST token": (firestep, scope("POST", f"{base}/bench-token", token, BODY), BODY),
        "POST token, no middleware": (undoored, scope("POST", f"{base}/bench-token", token, BODY), BODY),
        "GET game": (firestep, scope("GET", base, token), b""),
        "GET game, no middleware": (undoored, scope("GET", base, token), b""),
    }
    marker_on = json.dumps(marker).encode()
    marker_off = json.dumps(back).encode()
    marker_path = f"{base}/units/{stand}/markers"

    async def run() -> dict[str, float]:
        spent = dict.fromkeys([*cases, "POST noop, keyed", "marker act", "marker act, no middleware"], 0.0)
        async with firestep.router.lifespan_context(firestep):
            for app, asked, body in cases.values():
                assert await call(app, asked, body) < 300, asked["path"]
            for _ in range(10):
                for name, (app, asked, body) in cases.items():
                    started = time.process_time()
                    for _ in range(reps // 10):
                        await call(app, asked, body)
                    spent[name] += time.process_time() - started
                started = time.process_time()
                for _ in range(reps // 100):
                    keyed = scope("POST", f"{base}/bench-noop", token, BODY)
                    keyed["headers"].append((b"idempotency-key", uuid.uuid4().hex.encode()))
                    assert await call(firestep, keyed, BODY) == 200
                spent["POST noop, keyed"] += time.process_time() - started
                for name, app in (("marker act", firestep), ("marker act, no middleware", undoored)):
                    started = time.process_time()
                    for _ in range(reps // 100):
                        for body in (marker_on, marker_off):
                            assert await call(app, scope("POST", marker_path, token, body), body) == 200
                    spent[name] += time.process_time() - started
        figures = {name: s / reps * 1e6 for name, s in spent.items() if name in cases}
        figures["POST noop, keyed"] = spent["POST noop, keyed"] / (reps // 100 * 10) * 1e6
        figures |= {
            name: s / (reps // 100 * 2 * 10) * 1e6 for name, s in spent.items() if name.startswith("marker")
        }
        return figures

    figures = asyncio.run(run())
    for method, path in ROUTED:
        asked = {
            "type": "http",
            "method": method,
            "path": path,
            "root_path": "",
            "headers": [],
            "query_string": b"",
        }
        started = time.process_time()
        for _ in range(reps):
            one = dict(asked)
            for route in firestep.router.routes:
                if route.matches(one)[0] == Match.FULL:
                    break
        figures[f"routing {method} {path}"] = (time.process_time() - started) / reps * 1e6
    return figures


def derived(f: dict[str, float]) -> dict[str, float]:
    """The door's, the token's and the real requests' figures, from the measured ones."""
    out = {
        "bare POST noop (the yardstick)": f["bare POST noop"],
        "door, GET noop": f["GET noop"] - f["GET noop, no middleware"],
        "door, POST noop": f["POST noop"] - f["POST noop, no middleware"],
        "door, POST noop with an Idempotency-Key": f["POST noop, keyed"] - f["POST noop, no middleware"],
        "door, GET game": f["GET game"] - f["GET game, no middleware"],
        "door, marker act": f["marker act"] - f["marker act, no middleware"],
        "token dependency": f["POST token, no middleware"] - f["POST noop, no middleware"],
        "POST token, whole (door, token, FastAPI)": f["POST token"],
        "GET game, whole": f["GET game"],
        "marker act, whole": f["marker act"],
    }
    return out | {k: v for k, v in f.items() if k.startswith("routing")}


def child(tree: Path, reps: int) -> dict[str, float]:
    """The figures of `tree`, measured in a process of its own (this script, importing that tree's app)."""
    command = [sys.executable, __file__, "--measure", str(reps), "--tree", str(tree)]
    run = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=True)
    measured: dict[str, float] = json.loads(run.stdout.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--against", type=Path, help="another tree of firestep, measured alternately")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)  # a child's: measure, print JSON
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        sys.path.insert(0, str(args.tree))
        print(json.dumps(measure(args.measure)))
        return
    trees = [ROOT] + ([args.against.resolve()] if args.against else [])
    runs: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree in reversed(trees):
            runs[tree].append(derived(child(tree, args.reps)))
    names = list(runs[ROOT][0])
    median = {tree: {n: statistics.median(r[n] for r in rs) for n in names} for tree, rs in runs.items()}
    print(f"CPU per request, us, median of {args.rounds} rounds of {args.reps} (in process, no server)")
    header = f"{'':48s} {'this tree':>10s}" + (f" {'against':>10s} {'ratio':>6s}" if args.against else "")
    print(header)
    for n in names:
        now = median[ROOT][n]
        line = f"{n:48s} {now:10.1f}"
        if args.against:
            then = median[args.against.resolve()][n]
            line += f" {then:10.1f} {now / then if then else float('nan'):6.2f}"
        print(line)


if __name__ == "__main__":
    main()
