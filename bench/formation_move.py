"""Benchmark: a big formation move beside another game (run by hand: `.venv/bin/python bench/formation_move.py
[--database sqlite|postgresql] [--stands 800]`). Not a test: it only reports.

Serves firestep (`firestep serve`, one worker), imports a scenario whose attacker is one battalion of N placed
stands, and moves it as one (`POST .../units/{id}/move-formation`) while another game's referee adds a
marker: prints how long each took (and a marker alone just before, for the machine's own pace) and the
server's CPU for the move. Target (issue 35): the marker within
500 ms, the move under 1 s of CPU."""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_fanout import group_cpu
from serving import ROOT, Process, call, free_port, load_line, request, scratch_database


def battalion(stands: int) -> dict[str, Any]:
    children = [
        {
            "id": f"s{i}",
            "name": f"Stand {i}",
            "level": "stand",
            "kind": "rifle-platoon",
            "base": "infantry-platoon",
            "placement": {"center": [2 + (i % 90) * 1.2, 10 + (i // 90) * 1.2]},
        }
        for i in range(stands)
    ]
    return {
        "format": "firestep-scenario/1",
        "title": f"A battalion of {stands}",
        "ruleset": "flanders-fields",
        "period": "early",
        "table": {"width_cm": 120, "length_cm": 180},
        "sides": {
            "attacker": {
                "nationality": "german",
                "forces": [
                    {
                        "id": "bn",
                        "name": "Big",
                        "level": "battalion",
                        "kind": "infantry-battalion",
                        "children": children,
                    }
                ],
            },
            "defender": {"nationality": "british", "forces": []},
        },
    }


def timed(port: int, path: str, body: Any, token: str, out: dict[str, float], key: str) -> None:
    t0 = time.perf_counter()
    status, _ = asyncio.run(
        request("127.0.0.1", port, "POST", path, body, {"Authorization": f"Bearer {token}"})
    )
    out[key] = time.perf_counter() - t0
    out[f"{key}-status"] = status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--stands", type=int, default=800)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"firestep formation move from {ROOT}; {load_line()}")
    with scratch_database(args.database) as url:
        port = free_port()
        env = {"FIRESTEP_DATABASE_URL": url, "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40}
        server = Process(
            [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--port", str(port)], port, env
        )
        try:
            sid = call(port, "POST", "/api/v1/scenarios", battalion(args.stands))["id"]
            a = call(port, "POST", "/api/v1/games", {"scenario": sid})
            ref_a = {"Authorization": f"Bearer {a['referee_token']}"}
            units = call(port, "GET", f"/api/v1/games/{a['game']['id']}/units", headers=ref_a)
            bn = next(u["id"] for u in units if u["ref"] == "bn")
            b = call(port, "POST", "/api/v1/games", {"scenario": "mons-1914"})
            ref_b = {"Authorization": f"Bearer {b['referee_token']}"}
            gb = b["game"]["id"]
            version = call(port, "GET", f"/api/v1/games/{gb}/turn", headers=ref_b)["version"]
            call(port, "POST", f"/api/v1/games/{gb}/turn/advance", {"version": version}, ref_b)
            targets = [
                u["id"]
                for u in call(port, "GET", f"/api/v1/games/{gb}/units", headers=ref_b)
                if u["side"] == "defender" and u["kind"] == "rifle-platoon"
            ]
            for i in range(args.runs):
                out: dict[str, float] = {}
                alone = f"/api/v1/games/{gb}/units/{targets[-1 - i % len(targets)]}/markers"
                timed(port, alone, {"delta": 1, "override": True}, b["referee_token"], out, "alone")
                move = f"/api/v1/games/{a['game']['id']}/units/{bn}/move-formation"
                cpu = group_cpu(server.proc.pid)
                mover = threading.Thread(
                    target=timed,
                    args=(port, move, {"dx": 0.5 * (-1) ** i, "dy": 0}, a["referee_token"], out, "move"),
                )
                mover.start()
                time.sleep(0.02)  # the move is under way
                marker = f"/api/v1/games/{gb}/units/{targets[i % len(targets)]}/markers"
                timed(port, marker, {"delta": 1, "override": True}, b["referee_token"], out, "marker")
                mover.join()
                spent = group_cpu(server.proc.pid) - cpu
                print(
                    f"{args.stands} stands on {args.database}: move {out['move-status']:.0f} in "
                    f"{out['move'] * 1000:.0f} ms; the other game's marker {out['marker-status']:.0f} in "
                    f"{out['marker'] * 1000:.0f} ms (target 500; alone just before, {out['alone'] * 1000:.0f} ms); "
                    f"the server's CPU over both {spent:.2f} s "
                    f"(target for the move: under 1 s)"
                )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
