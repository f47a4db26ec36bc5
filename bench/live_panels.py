"""Benchmark: how soon a live act shows on another device's map (issue 67: "live acts reach the other devices as
fast as today"). Run by hand with the project's virtualenv. Not a test: it only reports.

Serves firestep (one worker, SQLite, a fresh database migrated by the served tree's own migrations), starts Mons
with bridge 1 contested (a British platoon on its far edge), and opens its map in two Chromium contexts at
1180x820: the referee's and the attacker's. The referee's page then makes two kinds of live act through its
outbox (`firestepOutbox.send`, as its buttons and drags do), 0.4 s apart, each timed from the moment the
referee's page sends it to the moment the attacker's page shows it (a MutationObserver on the attacker's page;
both moments stamped with the pages' own clocks, `performance.timeOrigin + performance.now()`):
- score: a call of bridge 1, the attacker's and the defender's in turn (the defender's point, its holder's as the
  game opens, goes and comes back), until the attacker's score chip reads the defender's points it gives;
- move: one of the attacker's stands moved 6 cm and back (the referee's override, as a drag on its map sends
  it), until that stand's drawn outline on the attacker's map (its SVG path, `[data-stand=ID]`'s `d`) changes.
So each figure is the whole path of a tap reaching another tablet: the outbox's POST, the write, the live
stream's frame, the other page's script and its redraw; it says nothing of paint or of a real network. For each
tree and kind it prints the median, the p99 (`statistics.quantiles(..., method="inclusive")`: with 150 acts,
between the second and third slowest, so a p99 of one sitting is as noisy as its slowest few), the slowest, when
the act's frame reached the other page (the first `firestep:event` after the act: the server's and the stream's
part; the rest is the page's own), the requests the attacker's page made meanwhile (a frame that carries what
changed needs none), and the server's CPU (its process group's user+system time over the acts, per act: the
reads of both pages included).

Before and after in one sitting: give `--tree` twice; the runs alternate between the trees (the order reversed
every other round: A B B A ...), each run a fresh server and browser, so both see the same load. Issue 67's:
  git -C /work/main archive 6cfecfb0^ | tar -x -C /dev/shm/firestep-before   # the tree before issue 67's work
  nice -n 10 .venv/bin/python bench/live_panels.py --tree /dev/shm/firestep-before --tree . --runs 6 --acts 25
(6 runs x 25 acts of each kind per tree: 150 a kind; about 10 minutes). The load average is printed before each
run and at the end: on a shared machine compare the trees' figures with each other, not with last week's.
Two such sittings on 2026-11-27 (2 cores, load average 5-12), before -> after (4ea9b867), median / p99 / slowest:
score 58 / 263 / 536 -> 88 / 242 / 259 ms and 64 / 331 / 576 -> 118 / 428 / 480 ms; move 93 / 227 / 265 ->
112 / 302 / 322 ms and 106 / 385 / 430 -> 135 / 392 / 415 ms; the server's CPU alike (83-101 ms an act). The
frame itself came later (score's median 55 -> 95 ms, move's 96 -> 111 ms) and is three times the bytes (the
seat's score panels in every frame that may change the score: 2.4 -> 7.6 kB a score call, 3.6 -> 8.8 kB a move).
Then (perf67, 2026-11-28, 4 runs x 25 acts a tree): a frame carries a seat's panels only where they changed (a move
none: its frame 3.6 kB again), the map's stand names read of their columns alone (5-10 ms a frame before); before ->
after, median / p99 / slowest (the frame's median): at load 3-11, score 62.8 / 401 / 538 (53.4) -> 81.2 / 315 / 422
(58.9) ms, move 77.5 / 684 / 758 (68.5) -> 85.1 / 554 / 565 (74.4) ms. With game-score.js putting a frame's panels
in place itself (htmx.swap's work per node was 10-20 ms of the page's 24 ms a call's frame), at load 6-11: score
64.7 / 455 / 645 (54.7) -> 82.2 / 471 / 532 (67.8) ms, move 101.1 / 264 / 462 (88.7) -> 113.7 / 607 / 1091 (108.5)
ms, the server's CPU an act 97.0 -> 84.1 (a call) and 90.1 -> 88.3 ms (a move); at load 8-17 every median was
two to five times these (noise). The other page still reads /map/turn after each call and /map/coverage after
each move (table-map.js, table-coverage.js): 2 requests an act against 1.
Then (live67) the clock's log, the stands' names and the seals kept by the feed between wake-ups (a call's frame
read them each wake-up, the clock's log twice): three sittings, the frame's median / p99 before -> after, at load
8-12: score 47.7 / 254 -> 47.0 / 111 ms, move 72.7 / 571 -> 63.5 / 108 ms; at load 5-9: score 38.2 / 77.5 ->
38.7 / 127 ms (one act 212 ms), move 56.3 / 96.7 -> 48.1 / 73.9 ms; at load 1-6: score 56.7 / 244 -> 49.0 / 187
ms, move 73.8 / 209 -> 57.7 / 156 ms; the server's CPU a call 72-94 -> 59-63 ms (the page reads nothing anew).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_fanout import group_cpu
from serving import ROOT, Process, call, free_port, load_line, scratch_database

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

CHROMIUM = os.environ.get("FIRESTEP_CHROMIUM", "/usr/bin/chromium")
SIZE: ViewportSize = {"width": 1180, "height": 820}
BRIDGE = "bridge-1"
CHIP = "[data-score-chip] [data-side-points=defender] b"
KINDS = ("score", "move")
STEP_CM = 6.0
# Stamps, in the page's clock, the first change of the page's document after which `window.__check()` holds
# (armed anew before each act), and the first live frame the page's stream hands its scripts meanwhile (live.js's
# `firestep:event`, heard before them): the act's time split into the server's and the stream's part, and the page's.
WATCH = """() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__seen = 0;
  window.__frame = 0;
  window.__check = null;
  document.addEventListener("firestep:event", () => {
    if (!window.__frame && window.__check) window.__frame = now();
  }, true);
  new MutationObserver(() => {
    if (!window.__seen && window.__check && window.__check()) window.__seen = now();
  }).observe(document.body, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["d"],
  });
}"""
ARM_SCORE = """([chip, want]) => {
  window.__seen = 0;
  window.__frame = 0;
  window.__check = () => document.querySelector(chip)?.textContent === want;
}"""
ARM_MOVE = """(id) => {
  const drawn = () => document.querySelector(`[data-stand="${id}"]`);
  const from = drawn().getAttribute("d");
  window.__seen = 0;
  window.__frame = 0;
  window.__check = () => { const el = drawn(); return !!el && el.getAttribute("d") !== from; };
}"""
SEND = """async ([url, body]) => {
  const t0 = performance.timeOrigin + performance.now();
  const r = await window.firestepOutbox.send(url, { method: "POST", body });
  return [t0, r.status];
}"""


def set_up(port: int) -> dict[str, Any]:
    """Mons started, bridge 1 contested; the referee's and the attacker's tokens, and an attacker's stand."""
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
    stand = next(
        u for u in units if u["side"] == "attacker" and u["x"] is not None and not u.get("off_table")
    )
    return {"id": gid, "referee": made["referee_token"], "attacker": attacker, "stand": stand}


def act(kind: str, i: int, game: dict[str, Any], other: Any) -> tuple[str, str]:
    """The i-th act of a kind: armed on the other page; its URL and body."""
    api = f"/api/v1/games/{game['id']}"
    if kind == "score":
        want = (
            "0" if i % 2 == 0 else "1"
        )  # the attacker's call takes the defender's point, the defender's gives it
        other.evaluate(ARM_SCORE, [CHIP, want])
        side = "attacker" if want == "0" else "defender"
        return f"{api}/score/calls", json.dumps({"objective_id": BRIDGE, "side": side})
    stand = game["stand"]
    other.evaluate(ARM_MOVE, stand["id"])
    to = {
        "x": stand["x"] + (STEP_CM if i % 2 == 0 else 0.0),
        "y": stand["y"],
        "facing_deg": stand["facing_deg"] if stand["facing_deg"] is not None else 90.0,
        "override": True,
    }
    return f"{api}/units/{stand['id']}/move", json.dumps(to)


def measure(port: int, server: int, game: dict[str, Any], acts: int) -> dict[str, dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    base = f"http://127.0.0.1:{port}"
    got: dict[str, dict[str, Any]] = {}
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
        other.wait_for_selector(f"[data-stand='{game['stand']['id']}']", state="attached", timeout=60_000)
        reads: collections.Counter[str] = collections.Counter()
        other.on("request", lambda r: reads.update([r.url.removeprefix(base).split("?")[0]]))
        other.evaluate(WATCH)
        for kind in KINDS:
            took: list[float] = []
            framed: list[float] = []
            reads.clear()
            cpu = group_cpu(server)
            for i in range(acts):
                url, body = act(kind, i, game, other)
                t0, status = pages["referee"].evaluate(SEND, [url, body])
                if status != 200:
                    raise RuntimeError(f"the {kind} act answered {status}")
                other.wait_for_function("() => window.__seen > 0", timeout=30_000)
                seen, frame = other.evaluate("() => [window.__seen, window.__frame]")
                took.append(seen - t0)
                if frame:
                    framed.append(frame - t0)
                time.sleep(0.4)  # the next tap a moment later, as a person makes them
            got[kind] = {
                "took": took,
                "framed": framed,
                "reads": reads.copy(),
                "cpu": group_cpu(server) - cpu,
            }
        browser.close()
    return got


def shipped(tree: Path) -> None:
    """A plain checkout's frontend/ and migrations/ where its app finds them (`app.core.shipped`): an editable
    install maps them to its own checkout, which a server of another tree would serve otherwise."""
    if tree == ROOT:
        return
    for name in ("frontend", "migrations"):
        link = tree / "app" / name
        if not link.exists():
            link.symlink_to(tree / name, target_is_directory=True)


def run(tree: Path, acts: int) -> dict[str, dict[str, Any]]:
    shipped(tree)
    with scratch_database("sqlite") as url:
        env = {
            "FIRESTEP_DATABASE_URL": url,
            "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40,
            "FIRESTEP_HOST": "127.0.0.1",
            "FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS": "1",
            "PYTHONPATH": str(tree),
        }
        # The served tree's own migrations (scratch_database's are this checkout's): start from an empty file.
        Path(url.removeprefix("sqlite:///")).unlink()
        migrate = f"from app.core.db import migrate; migrate({url!r})"
        subprocess.run([sys.executable, "-c", migrate], cwd=tree, env={**os.environ, **env}, check=True)
        port = free_port()
        args = [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--workers", "1", "--port", str(port)]
        with open(Path(url.removeprefix("sqlite:///")).with_name("server.log"), "wb") as log:
            server = Process(args, port, env, cwd=tree, log=log)
            try:
                return measure(port, server.proc.pid, set_up(port), acts)
            finally:
                server.stop()


def p99(took: list[float]) -> float:
    return statistics.quantiles(took, n=100, method="inclusive")[98] if len(took) > 1 else took[0]


def figures(got: dict[str, Any], whole: bool) -> str:
    took, framed, reads = got["took"], got["framed"], got["reads"]
    line = f"{len(took)} acts, median {statistics.median(took):.1f} ms"
    line += f", p99 {p99(took):.1f} ms" if whole else ""
    line += f", slowest {max(took):.1f} ms"
    if framed:  # the act's frame on the other page: the server's and the stream's part
        line += f" (its frame there: median {statistics.median(framed):.1f} ms"
        line += f", p99 {p99(framed):.1f} ms)" if whole else ")"
    line += f"; the server's CPU {got['cpu'] * 1000 / len(took):.1f} ms an act"
    line += f"; the other page's requests {reads.total()}"
    return line + (
        ": " + ", ".join(f"{path} {n}" for path, n in reads.most_common(3)) if whole and reads else ""
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        help="a checkout to serve (default: this one); twice: alternated",
    )
    parser.add_argument("--acts", type=int, default=20, help="acts of each kind a run")
    parser.add_argument("--runs", type=int, default=1, help="runs of each tree")
    opts = parser.parse_args()
    trees = [t.resolve() for t in opts.tree or [ROOT]]
    pooled: dict[Path, dict[str, dict[str, Any]]] = {
        tree: {kind: {"took": [], "framed": [], "reads": collections.Counter(), "cpu": 0.0} for kind in KINDS}
        for tree in trees
    }
    for n in range(opts.runs):
        for tree in trees if n % 2 == 0 else trees[::-1]:
            print(f"run {n + 1} of {tree}: {load_line()}", flush=True)
            for kind, got in run(tree, opts.acts).items():
                for key in ("took", "framed", "reads", "cpu"):
                    pooled[tree][kind][key] += got[key]
                print(f"  {kind}: {figures(got, whole=False)}", flush=True)
    print(f"at the end: {load_line()}")
    for tree in trees:
        print(f"{tree}:")
        for kind in KINDS:
            print(f"  {kind}: {figures(pooled[tree][kind], whole=True)}")


if __name__ == "__main__":
    main()
