"""Benchmark: how soon a live act shows on another device's score chip (issue 67). Run by hand with the project's
virtualenv (`.venv/bin/python bench/live_panels.py`, or `python bench/live_panels.py` inside it). Not a test: it
only reports.

Serves firestep (one worker, SQLite), starts Mons with bridge 1 contested (a British platoon on its far edge),
and opens its map in two Chromium contexts at 1180x820: the referee's and the attacker's. The referee's page then
makes 20 calls of bridge 1 through its outbox (`firestepOutbox.send`, as its button does), the attacker's and
the defender's in turn (the defender's point, its holder's as the game opens, goes and comes back), 0.4 s apart; each is timed from the moment the referee's
page sends it to the moment the attacker's chip shows the defender's points it gives (a MutationObserver, both
stamped with the pages' own clocks: `performance.timeOrigin + performance.now()`). Prints the median and the
slowest of the 20, the score reads the attacker's page asked for meanwhile (a frame that carries the panels needs
none) and the server's CPU over the calls.
`--tree DIR` serves another checkout with this virtualenv, so that a before and an after are measured in one
sitting: `git archive main | tar -x -C /tmp/firestep-main && python bench/live_panels.py --tree /tmp/firestep-main`.
`--acts N` and `--runs N` (each run a server and browser of its own) change the counts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_fanout import group_cpu
from serving import ROOT, Process, call, free_port, load_line, scratch_database

CHROMIUM = os.environ.get("FIRESTEP_CHROMIUM", "/usr/bin/chromium")
SIZE = {"width": 1180, "height": 820}
BRIDGE = "bridge-1"
CHIP = "[data-score-chip] [data-side-points=defender] b"
# Stamps the moment the chip's defender's points read `window.__want`, in the page's clock.
WATCH = """(chip) => {
  window.__seen = 0;
  new MutationObserver(() => {
    const b = document.querySelector(chip);
    if (!window.__seen && window.__want !== undefined && b && b.textContent === window.__want) {
      window.__seen = performance.timeOrigin + performance.now();
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""
SEND = """async ([url, body]) => {
  const t0 = performance.timeOrigin + performance.now();
  const r = await window.firestepOutbox.send(url, { method: "POST", body });
  return [t0, r.status];
}"""


def set_up(port: int) -> dict[str, Any]:
    """Mons started, bridge 1 contested; the referee's and the attacker's tokens."""
    made = call(port, "POST", "/api/v1/games", {"scenario": "mons-1914"})
    gid = made["game"]["id"]
    referee = {"Authorization": f"Bearer {made['referee_token']}"}
    attacker = call(port, "POST", "/api/v1/join", {"code": made["join_codes"]["attacker"]})["token"]
    version = call(port, "GET", f"/api/v1/games/{gid}/turn", headers=referee)["version"]
    call(port, "POST", f"/api/v1/games/{gid}/turn/advance", {"version": version}, referee)
    units = call(port, "GET", f"/api/v1/games/{gid}/units", headers=referee)
    tommy = next(u for u in units if u["side"] == "defender" and u["base"] == "infantry-platoon" and u["x"])
    to = {"x": 40.0, "y": 123.5, "facing_deg": 270.0, "override": True}
    call(port, "POST", f"/api/v1/games/{gid}/units/{tommy['id']}/move", to, referee)
    return {"id": gid, "referee": made["referee_token"], "attacker": attacker}


def measure(port: int, server: int, game: dict[str, Any], acts: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        pages = {}
        for who in ("referee", "attacker"):
            context = browser.new_context(base_url=base, viewport=SIZE, has_touch=True)
            context.add_cookies([{"name": "firestep_token", "value": game[who], "url": base}])
            page = context.new_page()
            page.goto(f"/games/{game['id']}/map")
            page.wait_for_selector(
                "[data-live-stream][data-live-connected]", state="attached", timeout=60_000
            )
            page.wait_for_function(
                f"() => document.querySelector('{CHIP}')?.textContent === '1'", timeout=60_000
            )
            pages[who] = page
        other = pages["attacker"]
        reads: list[str] = []
        other.on("request", lambda r: reads.append(r.url) if "/score" in r.url else None)
        other.evaluate(WATCH, CHIP)
        url = f"/api/v1/games/{game['id']}/score/calls"
        took: list[float] = []
        cpu = group_cpu(server)
        for i in range(acts):
            want = (
                "0" if i % 2 == 0 else "1"
            )  # the attacker's call takes the defender's point, the defender's gives it
            body = json.dumps({"objective_id": BRIDGE, "side": "attacker" if want == "0" else "defender"})
            other.evaluate("(want) => { window.__seen = 0; window.__want = want; }", want)
            t0, status = pages["referee"].evaluate(SEND, [url, body])
            if status != 200:
                raise RuntimeError(f"the call answered {status}")
            other.wait_for_function("() => window.__seen > 0", timeout=30_000)
            took.append(other.evaluate("() => window.__seen") - t0)
            time.sleep(0.4)  # the next tap a moment later, as a person makes them
        cpu = group_cpu(server) - cpu
        browser.close()
    return {"took": took, "reads": len(reads), "cpu": cpu}


def shipped(tree: Path) -> None:
    """A plain checkout's frontend/ and migrations/ where its app finds them (`app.core.shipped`): an editable
    install maps them to its own checkout, which a server of another tree would serve otherwise."""
    if tree == ROOT:
        return
    for name in ("frontend", "migrations"):
        link = tree / "app" / name
        if not link.exists():
            link.symlink_to(tree / name, target_is_directory=True)


def run(tree: Path, acts: int) -> dict[str, Any]:
    shipped(tree)
    with scratch_database("sqlite") as url:
        port = free_port()
        env = {
            "FIRESTEP_DATABASE_URL": url,
            "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40,
            "FIRESTEP_HOST": "127.0.0.1",
            "FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS": "1",
            "PYTHONPATH": str(tree),
        }
        args = [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--workers", "1", "--port", str(port)]
        server = Process(args, port, env, cwd=tree)
        try:
            return measure(port, server.proc.pid, set_up(port), acts)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--acts", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1)
    opts = parser.parse_args()
    print(f"{opts.tree}: {load_line()}")
    for n in range(opts.runs):
        got = run(opts.tree.resolve(), opts.acts)
        took = got["took"]
        print(
            f"run {n + 1}: the other device's chip after a live act, {len(took)} acts: "
            f"median {statistics.median(took):.1f} ms, slowest {max(took):.1f} ms; "
            f"its score reads meanwhile {got['reads']}; the server's CPU {got['cpu'] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
