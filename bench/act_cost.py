"""Benchmark: what an act costs the server, beside the bare append (issue 88). Run by hand:
`.venv/bin/python bench/act_cost.py [--database sqlite] [--pg URL] [--reps 15] [--events 100,5000] [--against TREE]`
(both backends by default: PostgreSQL's server from --pg, FIRESTEP_BENCH_DATABASE_URL or
FIRESTEP_TEST_DATABASE_URL, a scratch database made on it and dropped after). Not a test: it only reports.

Serves firestep (`app.main:app`) and the bare append (bench/bare_app.py's `/append`: one row of the game log's
table, as big as the act's own event, appended through firestep's own engine) side by side, each by uvicorn with
the same settings (serving.uvicorn_args: one worker), on the same scratch database, SQLite and then PostgreSQL.
Each figure is the server's own CPU for one request (serving.Process.cpu: read with the server quiet before the
request, and again once it has gone quiet after answering), the median of --reps after a few unmeasured; an
act's requests and its bare append's alternate, so that the machine's load falls on both alike. On a busy machine
the milliseconds are noisy; the ratios of one run are what count.

What is asked, of each rule set played as a game (Flanders Fields, 2mm Earth 1418), at 50 and 500 units and the
largest game it accepts (its cap, `GameRules.unit_cap`, else the scenario format's, `MAX_UNITS`): the forces
of bench/largest_tables.py's tables (2mm's smaller games its largest cut down, each side's first units kept), on
a table with no terrain (as issue 88's figures were taken) or, with `--terrain largest`, that bench's terrain
(the largest a scenario takes) at every size; the game started, the referee acting (`override`):
- a marker: +1 on the next stand round the table (a stand holding two has both recovered first, unmeasured: a
  third kills);
- a keyed marker: the same with a fresh Idempotency-Key, as the map's outbox sends every tap
  (app/guard/idempotency.py: the key claimed before the act, its answer kept after);
- a move: the next stand 0.5 cm forward, then back;
- a shot: a stand brought 20 cm from an enemy stand (2mm: its sub-unit moved as one) shoots it (Flanders Fields
  with the die 3: one suppression marker; 2mm with the server's dice), then undone, unmeasured;
- an undo: the same shot's undo (the shot unmeasured), as a card's Undo or the log's takes an act back;
- at the largest, GET units;
- and on Mons 1914 a score read right after an act (a move, unmeasured), with 100 and 5,000 events in the log.
The ratios to the bare append are printed last, with issue 88's targets.

With `--against TREE` (another checkout of firestep, `git worktree add /tmp/before <commit>` say), that tree's
firestep is served too, on a scratch database of its own, and asked the same of a game of its own, each of its
requests after this tree's and the bare append's: before and after in one run, the last column this tree's CPU
over the other's (two runs one after the other on this machine differed by more than a change of 10%). Its
database is migrated by its own firestep. Run with this tree's environment (an editable install of this tree, whose
finder maps the package's `app.frontend` and `app.migrations` to this tree's folders), TREE needs its own there:
`ln -s ../frontend TREE/app/frontend; ln -s ../migrations TREE/app/migrations` (the run stops, saying so, without).

At a load average of 8 on 2 cores a run took 20 minutes, half of it the score's 5,000 events made act by act:
`--events 100,1000 --reps 5` for less."""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from largest_tables import EARTH, FLANDERS, earth_document, flanders_document
from serving import (
    ROOT,
    KeepAlive,
    Process,
    free_port,
    load_line,
    scratch_database,
    uvicorn_args,
)

from rules.core.scenario import MAX_UNITS
from rules.registry import get_game_rules

WARM = 3  # unmeasured requests before each measured run
SCORED = "mons-1914"  # a scenario with objectives, for the score


def largest(ruleset: str) -> int:
    cap = get_game_rules(ruleset).unit_cap()
    return MAX_UNITS if cap is None else cap[0]


def cut(document: dict[str, Any], units: int) -> dict[str, Any]:
    """The document with `units` units (half a side), each side's first kept (a unit with its ancestors)."""
    left = {side: units // 2 + (units % 2 if side == "attacker" else 0) for side in document["sides"]}

    def kept(unit: dict[str, Any], side: str) -> dict[str, Any] | None:
        if left[side] <= 0:
            return None
        left[side] -= 1
        if "children" not in unit:
            return unit
        return {**unit, "children": [k for c in unit["children"] if (k := kept(c, side)) is not None]}

    sides = {
        side: {**it, "forces": [k for f in it["forces"] if (k := kept(f, side)) is not None]}
        for side, it in document["sides"].items()
    }
    return {**document, "sides": sides}


def document(ruleset: str, units: int, terrain: bool) -> dict[str, Any]:
    """The table of `units` units, with bench/largest_tables.py's terrain or none."""
    if ruleset == FLANDERS:
        made = flanders_document(units)
    else:
        made = earth_document(units) if units == MAX_UNITS else cut(earth_document(), units)
    return made if terrain else {**made, "terrain": {"type": "FeatureCollection", "features": []}}


# -- the servers -------------------------------------------------------------------------------------------------
class Served:
    """A server and one keep-alive connection to it; each request's CPU measured on its own."""

    def __init__(self, app: str, env: dict[str, str], tree: Path = ROOT) -> None:
        port = free_port()
        self.process = Process(uvicorn_args(app, port), port, env, cwd=tree)
        self.ask = KeepAlive(port)

    def quiet_cpu(self) -> float:
        """The server's CPU seconds once it has gone quiet (no CPU spent over 2 ms; at most 0.3 s waited)."""
        before, deadline = self.process.cpu(), time.monotonic() + 0.3
        while True:
            time.sleep(0.002)
            now = self.process.cpu()
            if now == before or time.monotonic() > deadline:
                return now
            before = now

    def __call__(
        self, method: str, path: str, body: Any = None, token: str | None = None, key: str | None = None
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if key is not None:
            headers["Idempotency-Key"] = key
        status, data = self.ask(method, path, body, headers)
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {str(data)[:300]}")
        return data

    def timed(
        self, method: str, path: str, body: Any = None, token: str | None = None, key: str | None = None
    ) -> tuple[float, Any]:
        """The request's answer and the server's CPU milliseconds for it."""
        before = self.quiet_cpu()
        data = self(method, path, body, token, key)
        return (self.quiet_cpu() - before) * 1000, data

    def stop(self) -> None:
        self.ask.close()
        self.process.stop()


@contextlib.contextmanager
def serving(
    url: str, against: tuple[Path, str] | None = None
) -> Iterator[tuple[Served, Served, tuple[Served, Served] | None]]:
    """This tree's firestep and the bare append on `url`, and `against`'s firestep and a bare append of its own on
    its database (each tree's database takes the bare append's rows: one that did not was 3-9% cheaper)."""
    env = {"FIRESTEP_DATABASE_URL": url, "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40, "PYTHONPATH": str(ROOT)}
    started: list[Served] = []
    try:
        started.append(Served("app.main:app", env))
        started.append(Served("bench.bare_app:app", env))
        if against is not None:
            tree, other_url = against
            other = {**env, "FIRESTEP_DATABASE_URL": other_url, "PYTHONPATH": str(tree)}
            started.append(Served("app.main:app", other, tree))
            started.append(Served("bench.bare_app:app", {**env, "FIRESTEP_DATABASE_URL": other_url}))
        yield started[0], started[1], (started[2], started[3]) if against is not None else None
    finally:
        for s in started:
            s.stop()


class Game:
    """A game of the document (or a built-in scenario's id) on firestep, started, the referee's token."""

    def __init__(self, fs: Served, scenario: dict[str, Any] | str) -> None:
        self.fs = fs
        sid = scenario if isinstance(scenario, str) else fs("POST", "/api/v1/scenarios", scenario)["id"]
        made = fs("POST", "/api/v1/games", {"scenario": sid})
        self.id, self.token = made["game"]["id"], made["referee_token"]
        self.base = f"/api/v1/games/{self.id}"
        self.ruleset = made["game"]["ruleset"]
        turn = self("GET", "/turn")
        self("POST", "/turn/advance", {"version": turn["version"]})
        self.units = self("GET", "/units")
        self.stands = [u for u in self.units if u["x"] is not None]

    def __call__(self, method: str, path: str, body: Any = None) -> Any:
        return self.fs(method, self.base + path, body, self.token)

    def timed(self, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[float, Any]:
        return self.fs.timed(method, self.base + path, body, self.token, key)

    def row(self, event_id: int) -> dict[str, Any]:
        """An event as the bare append writes it (the row's own fields)."""
        event = self("GET", f"/events?after={event_id - 1}&limit=1")[0]
        keep = ("turn", "side", "step", "kind", "actor", "visibility", "payload")
        return {k: event[k] for k in keep}


class Acts:
    """The acts asked of a game: each a callable making the i-th one, measured, with what it needs before and
    after unmeasured."""

    def __init__(self, game: Game) -> None:
        self.game = game
        placed = game.stands
        attackers = [u for u in placed if u["side"] == "attacker" and u["level"] != "company"]
        defenders = [u for u in placed if u["side"] == "defender" and u["level"] != "company"]
        self.shooter, self.target = attackers[0], defenders[0]
        self.others = [u for u in placed if u["id"] not in (self.shooter["id"], self.target["id"])]
        self.markers: dict[int, int] = {}  # the markers each stand holds (all start with none)
        self.within_range()

    def within_range(self) -> None:
        """The shooter 20 cm from its target (2mm: its sub-unit moved as one, as 2mm's ranges are a
        sub-unit's)."""
        s, t = self.shooter, self.target
        if self.game.ruleset == EARTH:
            body = {"dx": t["x"] - s["x"], "dy": t["y"] - 20 - s["y"], "override": True}
            self.game("POST", f"/units/{s['parent_id']}/move-formation", body)
        else:
            body = {"x": t["x"], "y": t["y"] - 20, "facing_deg": 90, "override": True}
            self.game("POST", f"/units/{s['id']}/move", body)

    def marker(self, i: int, key: str | None = None) -> tuple[float, int]:
        u = self.others[i % len(self.others)]
        path = f"/units/{u['id']}/markers"
        if self.markers.get(u["id"], 0) == 2:  # a third would kill it: its two recovered first, unmeasured
            for _ in range(2):
                self.game("POST", path, {"delta": -1, "override": True})
            self.markers[u["id"]] = 0
        ms, answer = self.game.timed("POST", path, {"delta": 1, "override": True}, key)
        self.markers[u["id"]] = self.markers.get(u["id"], 0) + 1
        return ms, answer["event_id"]

    def keyed_marker(self, i: int) -> tuple[float, int]:
        return self.marker(i, uuid.uuid4().hex)

    def move(self, i: int, measured: bool = True) -> tuple[float, int]:
        u = self.others[(i // 2) % len(self.others)]
        body = {"x": u["x"], "y": u["y"] + (0.5 if i % 2 == 0 else 0), "facing_deg": u["facing_deg"]}
        path = f"/units/{u['id']}/move"
        if not measured:
            return 0.0, self.game("POST", path, {**body, "override": True})["event_id"]
        ms, answer = self.game.timed("POST", path, {**body, "override": True})
        return ms, answer["event_id"]

    def shot(self, i: int) -> tuple[float, int]:
        ms, answer = self.game.timed(*self._shot())
        self.game("POST", f"/events/{answer['event_id']}/undo")  # the table as it was
        return ms, answer["event_id"]

    def undo(self, i: int) -> tuple[float, int]:
        """The shot's undo, the shot made before it unmeasured: the table as it was."""
        shot = self.game(*self._shot())
        ms, answer = self.game.timed("POST", f"/events/{shot['event_id']}/undo")
        return ms, answer["id"]

    def _shot(self) -> tuple[str, str, dict[str, Any]]:
        body: dict[str, Any] = {
            "unit_id": self.shooter["id"],
            "target_id": self.target["id"],
            "override": True,
        }
        if self.game.ruleset == FLANDERS:
            body["dice"] = [3]  # one suppression marker
        resolver = "shoot" if self.game.ruleset == EARTH else "shooting"
        return "POST", f"/resolve/{resolver}", body


# A figure: the backend, the game, the request, this tree's CPU and the bare append's beside it, and the tree
# against's and its bare append's (or None).
Row = tuple[str, str, str, float, float, tuple[float, float] | None]
Request = Callable[[int], tuple[float, dict[str, Any]]]


class Bench:
    """One backend's run: firestep and the bare append served on one scratch database (and the tree against on
    one of its own), the figures kept."""

    def __init__(
        self,
        backend: str,
        fs: Served,
        bare: Served,
        against: tuple[Served, Served] | None,
        reps: int,
        terrain: bool,
    ) -> None:
        self.backend, self.fs, self.bare, self.reps, self.terrain = backend, fs, bare, reps, terrain
        self.other: Served | None = None if against is None else against[0]
        self.other_bare: Served | None = None if against is None else against[1]
        self.bare_game = Game(fs, SCORED).id  # the bare append's rows go to a game of their own
        self.other_bare_game = None if self.other is None else Game(self.other, SCORED).id
        self.rows: list[Row] = []

    def bare_append(self, row: dict[str, Any], other: bool = False) -> float:
        served, game = (self.other_bare, self.other_bare_game) if other else (self.bare, self.bare_game)
        assert served is not None
        return served.timed("POST", "/append", {**row, "game_id": game})[0]

    def games(self, scenario: dict[str, Any] | str) -> tuple[Game, Game | None]:
        """The game on this tree's firestep, and the same on the tree against's."""
        return Game(self.fs, scenario), None if self.other is None else Game(self.other, scenario)

    def compare(self, what: str, where: str, request: Request, against: Request | None = None) -> None:
        """`request(i)`: its CPU and the row the bare append writes beside it (`against`: the same asked of the
        tree against, alternating with it); the medians kept and printed."""
        mine: list[tuple[float, float]] = []
        other: list[tuple[float, float]] = []

        def asked(i: int, request: Request, on_other: bool) -> tuple[float, float]:
            ms, row = request(i)
            return ms, self.bare_append(row, on_other)

        for i in range(WARM + self.reps):
            # The two trees take turns to go first (the one after a pause may pay for what another process left
            # in the caches).
            if against is not None and i % 2:
                other.append(asked(i, against, True))
            mine.append(asked(i, request, False))
            if against is not None and not i % 2:
                other.append(asked(i, against, True))
        fs_ms, bare_ms = (statistics.median(ms) for ms in zip(*mine[WARM:], strict=True))
        then = None
        if against is not None:
            then = (
                statistics.median(m for m, _ in other[WARM:]),
                statistics.median(b for _, b in other[WARM:]),
            )
        self.rows.append((self.backend, where, what, fs_ms, bare_ms, then))
        before = "" if then is None else f"  against {then[0]:6.2f} ms  bare {then[1]:6.2f} ms"
        print(
            f"  {self.backend:<10} {where:<30} {what:<12} {fs_ms:8.2f} ms  bare {bare_ms:6.2f} ms{before}",
            flush=True,
        )

    def acts(self, ruleset: str, units: int) -> None:
        t0 = time.monotonic()
        game, other = self.games(document(ruleset, units, self.terrain))
        where = f"{ruleset} {len(game.units)}"
        print(f"  ({where}: made and started in {time.monotonic() - t0:.0f} s)", flush=True)
        acts, other_acts = Acts(game), None if other is None else Acts(other)
        for name in ("marker", "keyed_marker", "move", "shot", "undo"):
            label = name.replace("_", " ")
            self.compare(label, where, _asked(game, getattr(acts, name)), _other(other, other_acts, name))
        if units == largest(ruleset):
            row = game.row(acts.move(0, measured=False)[1])
            other_row = (
                None if other is None or other_acts is None else other.row(other_acts.move(0, False)[1])
            )
            on_other = None if other is None else lambda i: (other.timed("GET", "/units")[0], other_row or {})
            self.compare("GET units", where, lambda i: (game.timed("GET", "/units")[0], row), on_other)

    def score(self, events: list[int]) -> None:
        """A score read right after a move, at each count of events in the log (moves added between, back and
        forth, unmeasured)."""
        games = [g for g in self.games(SCORED) if g is not None]
        acts = [Acts(g) for g in games]
        logged = len(games[0]("GET", "/events?limit=1000"))
        made = 0
        for count in events:
            t0 = time.monotonic()
            while logged < count - WARM - self.reps:
                for a in acts:
                    a.move(made, measured=False)
                made, logged = made + 1, logged + 1
            print(f"  (score: {logged} events logged in {time.monotonic() - t0:.0f} s)", flush=True)
            where = f"{games[0].ruleset} {SCORED} {count} ev"
            reads = [_score_read(g, a, made) for g, a in zip(games, acts, strict=True)]
            self.compare("score read", where, reads[0], reads[1] if len(reads) > 1 else None)
            made, logged = made + WARM + self.reps, logged + WARM + self.reps


def _asked(game: Game, act: Callable[[int], tuple[float, int]]) -> Request:
    """The i-th act on `game`: its CPU and its event as the bare append writes it."""

    def request(i: int) -> tuple[float, dict[str, Any]]:
        ms, event_id = act(i)
        return ms, game.row(event_id)

    return request


def _other(game: Game | None, acts: Acts | None, name: str) -> Request | None:
    """The same act on the tree against's game."""
    return None if game is None or acts is None else _asked(game, getattr(acts, name))


def _score_read(game: Game, acts: Acts, made: int) -> Request:
    """The i-th score read: a move (unmeasured; `made` before it), then the read after it, measured: its CPU
    and the move's row."""

    def read(i: int) -> tuple[float, dict[str, Any]]:
        _, moved = acts.move(made + i, measured=False)
        return game.timed("GET", "/score")[0], game.row(moved)

    return read


def report(rows: list[Row]) -> None:
    against = any(r[5] is not None for r in rows)
    print("\nCPU per request of the server (median), against the bare append's (one row of the act's size)")
    title = f"{'backend':<10} {'game':<30} {'request':<12} {'firestep':>10} {'bare':>8} {'ratio':>7}"
    print(title + (f" {'against':>10} {'ratio':>7} {'now/then':>9}" if against else ""))
    for backend, where, what, fs_ms, bare_ms, then in rows:
        line = f"{backend:<10} {where:<30} {what:<12} {fs_ms:8.2f}ms {bare_ms:6.2f}ms {fs_ms / bare_ms:6.1f}x"
        if then is not None:
            line += f" {then[0]:8.2f}ms {then[0] / then[1]:6.1f}x {fs_ms / then[0]:8.2f}x"
        print(line)
    print(
        "\nGrowth, the largest game's over the smallest's (target at most 1.3x), and the score's, the most events' "
        "over the fewest's (target at most 1.2x):"
    )
    firsts: dict[tuple[str, str, str], tuple[str, float]] = {}
    for backend, where, what, fs_ms, *_ in rows:
        key = (backend, where.split(" ")[0], what)
        if what == "GET units":
            continue
        if key not in firsts:
            firsts[key] = (where, fs_ms)
        elif where != firsts[key][0]:
            first, first_ms = firsts[key]
            print(f"  {backend:<10} {what:<12} {first} -> {where}: {fs_ms / first_ms:5.2f}x")
    print(
        "Targets (issue 88): a marker, a move, a shot at most 2x bare at 50 units and 3x at the largest; GET units "
        "at most 3x bare at the largest; a score read after an act flat (1.2x) from 100 to 5,000 events."
    )


def head(tree: Path = ROOT) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(tree), "log", "-1", "--format=%h %s"], capture_output=True, text=True
        )
        return out.stdout.strip()[:90]
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), action="append")
    parser.add_argument("--pg", help="a PostgreSQL server's URL (postgresql+psycopg://user@host:port/db)")
    parser.add_argument("--ruleset", choices=(FLANDERS, EARTH), action="append")
    parser.add_argument(
        "--units", type=int, action="append", help="game sizes (default 50, 500, the largest)"
    )
    parser.add_argument(
        "--terrain", choices=("largest", "none"), default="none", help="the tables' terrain at every size"
    )
    parser.add_argument("--reps", type=int, default=15, help="measured requests of each kind")
    parser.add_argument(
        "--events", default="100,5000", help="events in the log for the score reads ('' none)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another firestep checkout, served beside this one: before and after in one run",
    )
    args = parser.parse_args()
    if args.pg:
        os.environ["FIRESTEP_BENCH_DATABASE_URL"] = args.pg
    has_pg = bool(
        os.environ.get("FIRESTEP_BENCH_DATABASE_URL") or os.environ.get("FIRESTEP_TEST_DATABASE_URL")
    )
    backends = args.database or (["sqlite", "postgresql"] if has_pg else ["sqlite"])
    events = [int(n) for n in args.events.split(",") if n]
    import app

    print(f"firestep from {Path(app.__file__).parent.parent} ({head()}); {load_line()}", flush=True)
    if "postgresql" not in backends:
        print("(no PostgreSQL: give --pg URL)")
    if args.against is not None:
        own = [args.against / "app" / name for name in ("frontend", "migrations")]
        if not all(p.exists() for p in own):
            links = "; ".join(f"ln -s ../{p.name} {p}" for p in own)
            raise SystemExit(
                f"{args.against} would be served with this tree's frontend and migrations: {links}"
            )
        print(f"against firestep from {args.against} ({head(args.against)})", flush=True)
    rows: list[Row] = []
    t0 = time.monotonic()
    for backend in backends:
        with contextlib.ExitStack() as stack:
            url = stack.enter_context(scratch_database(backend))
            other = (
                None
                if args.against is None
                else (args.against, stack.enter_context(scratch_database(backend, args.against)))
            )
            fs, bare, other_fs = stack.enter_context(serving(url, other))
            bench = Bench(backend, fs, bare, other_fs, args.reps, args.terrain == "largest")
            for ruleset in args.ruleset or (FLANDERS, EARTH):
                for units in args.units or (50, 500, largest(ruleset)):
                    bench.acts(ruleset, units)
            if events:
                bench.score(events)
            rows += bench.rows
    print(f"\n{load_line()}; {time.monotonic() - t0:.0f} s in all")
    report(rows)


if __name__ == "__main__":
    main()
