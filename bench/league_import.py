"""Benchmark: a national league of 10,000 signed result bundles from 100 clubs (issue 70). Run by hand:
`.venv/bin/python bench/league_import.py` (both databases; `--only sqlite|postgresql`, `--clubs`, `--games`).
Not a test: it only reports, and exits non-zero when an accepted request took over 1 s of the server's CPU.

Made first, outside the measured part, in a process pool: `--clubs` clubs' Ed25519 keys and `--games` bundles
each (firestep-result/3, as app.services.league.export_bundle makes them: a club's two events of 5 rounds and
10 tables, its members against visitors from other clubs, names with accents, a record of 20 to 60 public log
entries ending the game, the result it ended with; one in ten settled by the organiser). Then, on SQLite with
one worker and on PostgreSQL with `firestep serve --workers 4` (the server of `--postgresql`, else of
FIRESTEP_BENCH_DATABASE_URL or FIRESTEP_TEST_DATABASE_URL; a scratch database made and dropped there): each
kind of request is first sent 3 times a worker on a league of its own (warm-up, printed apart: a worker's
first requests load its code and open its connections), then a league is made, every club's key trusted
(POST /api/v1/leagues/{id}/keys), and each club imports its bundles as a club sends them: most as the file of
an event's every table on the league page (POST /leagues/{id}/import, at most app.pages.league.MAX_FILES =
100 bundles a request, with the organiser's cookie and the form's CSRF token), the last `--api-clubs` clubs
one bundle a request through the API (POST /api/v1/leagues/{id}/results). At every tenth of the games kept, the standings are read, as JSON
(GET /api/v1/leagues/{id}) and as the league page (GET /leagues/{id}, a visitor's, and the organiser's with
the games waiting), `--reads` times each. Requests are sent one at a time, each timed by the wall clock and by
the server's CPU (every process of its group, Linux's /proc: 10 ms ticks; with one request at a time, the
CPU the server spent meanwhile is that request's). On PostgreSQL the CPU is firestep's processes' alone.

Then the organiser's end of the league at its limit (issue 91; `--claims 0` skips it): `--claims` claims from
another tool's files (POST /api/v1/leagues/{id}/claims, 2,000 rows a file, the league's members paired), the
organiser's list of results read a page at a time (GET /api/v1/leagues/{id}/results: its first, a middle and
its last page, `--reads` times), and `firestep league publish` run as its organiser runs it, timed by the wall
clock from the command's start and by its CPU: the whole league into a new folder (the league's last game, a
newcomer club's, waiting for the organiser's yes), then again once that game is counted (one game more: its
pages, its players' and clubs', and the pages of the whole league written), then again with nothing changed.

It prints, per kind of request: count, wall p50/p99/max and the worst CPU of a request, and the growth of the
standings' reads and of a page import from the first tenth of the games to the last (the baseline: the same
request on the same server with a tenth of the games); then each publish's wall time and CPU.

Figures (h-bench70, a 2-core machine shared, load 3-6; worst CPU of a request, wall p50): SQLite one worker,
a 100-bundle page import 280 ms (346 ms), a bundle through the API 20 ms (23 ms), the standings as JSON 80 ms
(15 ms with 1,000 games, 101 ms with 10,000), the league page 120-130 ms; PostgreSQL 4 workers, page import
270-280 ms (233 ms; 344 ms while each bundle counted the league's games again), API 20 ms, standings JSON
80-90 ms (16 -> 64 ms), league page 60-100 ms. A worker's first requests (warm-up) up to 1.03 s: the API
schema's build (1.5 s of CPU in a thread beside them) and the other workers' start, counted to them.

Figures (h-claims70, the same machine, load 5.5-7.3), before -> after the workers build at startup what their
first requests built (app.main) and the bench waits for every worker (`settled`): PostgreSQL 4 workers, the
warm-up's worst CPU 1,760 ms -> 90 ms (SQLite: 250 -> 70 ms); standings JSON with 10,000 games, worst CPU
90 -> 140 ms and wall p50 199 -> 139 ms (the table now checks which claims a signed game supersedes and looks
at each player once: 50 -> 65 ms of the table's own CPU in-process); every accepted request within 1 s.

Figures (h-publish91, the same machine shared, load 5.8-13.9; 10,000 signed games, 10,000 claims, 2,997
players), before -> after: the organiser's list of results, a page of 100, worst CPU 1,050-1,410 ms (the issue's
figure: the whole league read for a page) -> 20 ms on SQLite and on PostgreSQL (wall p50 21 ms, 51 ms);
`firestep league publish` of the whole league, over 15 minutes (not finished: each club and player page read
every game) -> SQLite 25.2 s wall (9.6 s CPU, 23,104 files), PostgreSQL 31.6 s wall (10.1 s CPU); again with
one game more counted (36 files written) 10.7 s wall, 5.7 s CPU (PostgreSQL 20.5 s, 6.5 s); again with nothing
changed 12.3 s wall, 5.5 s CPU (24.3 s, 6.8 s). Of a re-publish's CPU, 1.9 s is the command's start (importing
the app) and about 1 s the two pages of the whole league (standings and events, each listing every game).

Figures (h-republish91, the same machine shared), before -> after the command imports only what a league's
read needs (not the log's, the streams', the rule sets' nor alembic's code: its start 2.2-2.75 -> 1.4 s of CPU),
reads the games' columns and each bundle as its kept text (decoded only where its check or file is new), hashes
each game's values once for every page's key, writes the lists' lines and the feed once, and pauses the cycle
collector (1 s of 3.4): again with one game more counted, SQLite 10.7-11.8 s wall, 5.6-5.7 s CPU (load 5.9) ->
3.8 s wall, 3.9 s CPU (load 2.5, before the collector's pause) and 8.6 s, 3.8 s (load 8.1); PostgreSQL 20.5 s,
6.5 s -> 7.6 s, 4.0 s (load 4.4, before the pause) and 13.2 s, 3.6 s (load 9.7); with nothing changed SQLite
11.0 s, 5.8 s -> 3.8 s, 3.8 s (load 2.5); the whole league SQLite 23.4 s, 9.8 s -> 7.9 s, 8.0 s (load 2.5). The
same league by the same machine in turn (load 5-6), a re-publish of 652 files changed 15.0 s wall, 7.6 s CPU ->
4.9 s, 3.5-3.8 s, and of none 11.1 s, 6.7 s -> 3.4 s, 3.0 s; the site's files byte for byte the same.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from event_day import serve
from live_fanout import group_cpu
from serving import ROOT, Process, encode, load_line, percentile, scratch_database

LIMIT = 1.0  # the standard: every accepted request within 1 s of the server's CPU
RULESET, SCENARIO = "flanders-fields", "mons-1914"
FIRST = ["Anne", "Émile", "Zoë", "Bruno", "Chloé", "Dirk", "Eva", "Frans", "Greta", "Henri", "Inès", "Jan",
         "Katrien", "Luc", "Marie", "Noël", "Otto", "Pieter", "Rosa", "Sven", "Thérèse", "Wim"]  # fmt: skip
LAST = ["Peeters", "Janssens", "Dubois", "Lambert", "Maes", "Willems", "Claes", "Goossens", "Wouters",
        "Mertens", "Lefèvre", "Dumont", "Leroy", "Hermans", "Michiels", "Desmet"]  # fmt: skip
MEMBERS = 30  # players a club has


def club_name(i: int) -> str:
    return f"Club {i:03d} Wargamers"


def member(club: int, n: int) -> tuple[str, str]:
    """A club's n-th member: a name unique within the league, and their club."""
    return f"{FIRST[(club + n) % len(FIRST)]} {LAST[(club * 7 + n) % len(LAST)]} {n}", club_name(club)


def moved(rng: random.Random) -> dict[str, Any]:
    """A log entry's public payload: a unit moved on the table (its x and y in inches)."""
    unit = f"{rng.randrange(1, 40)}/RIR {rng.randrange(200, 270)}"
    return {"unit": unit, "x": rng.randrange(720) / 10, "y": rng.randrange(480) / 10}


def club_bundles(
    club: int, clubs: int, games: int, ruleset_hash: str, scenario_hash: str
) -> tuple[str, list[str]]:
    """One club's key (its public hex) and `games` bundles it signed, each as JSON text."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from rules.core.commitment import canonical, sha256

    rng = random.Random(club)
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes_raw().hex()
    out = []
    for g in range(games):
        event, rnd, table = 1 + g // 50, 1 + g // 10 % 5, 1 + g % 10
        home = member(club, rng.randrange(MEMBERS))
        visitor = rng.randrange(clubs - 1)
        away = member(visitor + (visitor >= club), rng.randrange(MEMBERS))
        a, b = (home, away) if rng.random() < 0.5 else (away, home)
        points = {"attacker": rng.randrange(11), "defender": rng.randrange(11)}
        losses = {"attacker": rng.randrange(20), "defender": rng.randrange(20)}
        winner = (
            None
            if points["attacker"] == points["defender"]
            else "attacker"
            if points["attacker"] > points["defender"]
            else "defender"
        )
        entries = rng.randrange(20, 61)
        log: list[list[Any]] = [
            [
                i + 1,
                1 + i // 8,
                "attacker" if i % 2 else "defender",
                "orders",
                "unit-moved",
                "referee",
                move,
                None,
            ]
            for i, move in enumerate(moved(rng) for _ in range(entries - 1))
        ]
        log.append([entries, 1 + entries // 8, "defender", "end", "game-finished", "referee", {}, None])
        record = {"log": log, "ended": {"winner": winner, "points": points, "losses": losses}}
        body = {
            "format": "firestep-result/3",
            "club": club_name(club),
            "public_key": public,
            "event": f"{club_name(club)} season, event {event}",
            "event_id": 1000 + event,
            "round": rnd,
            "table": table,
            "ruleset": RULESET,
            "ruleset_hash": ruleset_hash,
            "period": "early",
            "scenario": SCENARIO,
            "scenario_hash": scenario_hash,
            "forces_hash": sha256({"attacker": a[0], "defender": b[0], "g": g}),
            "players": {"attacker": list(a), "defender": list(b)},
            "result": {"winner": winner, "points": points, "losses": losses, "reason": "the game ended"},
            "settled": "altered" if g % 10 == 9 else "confirmed",
            "log_hash": sha256(record),
            "log_entries": len(log),
        }
        bundle = {**body, "signature": key.sign(canonical(body)).hex(), "record": record}
        out.append(json.dumps(bundle, ensure_ascii=False))
    return public, out


def make_bundles(clubs: int, games: int) -> list[tuple[str, list[str]]]:
    from app.services import scenarios
    from app.services.league import ruleset_hash
    from rules.core.commitment import sha256

    hashes = ruleset_hash(RULESET), sha256(dict(scenarios.shipped()[SCENARIO]))
    with ProcessPoolExecutor() as pool:
        return list(pool.map(club_bundles, range(clubs), [clubs] * clubs, [games] * clubs,
                             *([h] * clubs for h in hashes)))  # fmt: skip


def newcomer(clubs: int) -> str:
    """The one game of a club new to the league (its key not trusted): a bundle of club number `clubs`."""
    from app.services import scenarios
    from app.services.league import ruleset_hash
    from rules.core.commitment import sha256

    hashes = ruleset_hash(RULESET), sha256(dict(scenarios.shipped()[SCENARIO]))
    return club_bundles(clubs, clubs + 1, 1, *hashes)[1][0]


class Timed:
    """Requests to one server, one at a time: each kind's wall times and the server's CPU meanwhile."""

    def __init__(self, server: Process) -> None:
        self.server = server
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    def __call__(self, kind: str, raw: bytes, ok: tuple[int, ...] = (200, 201)) -> tuple[bytes, bytes]:
        before = group_cpu(self.server.proc.pid)
        t0 = time.perf_counter()
        status, head, body = asyncio.run(_send(self.server.port, raw))
        wall = time.perf_counter() - t0
        if status not in ok:  # only accepted requests are measured: a refusal stops the bench
            raise RuntimeError(f"{kind}: {status} {body[:300]!r}")
        self.cpu.setdefault(kind, []).append(group_cpu(self.server.proc.pid) - before)
        self.wall.setdefault(kind, []).append(wall)
        return head, body

    def json(
        self, kind: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        return json.loads(self(kind, encode(method, path, body, headers))[1])


async def _send(port: int, raw: bytes) -> tuple[int, bytes, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(raw)
        head = await reader.readuntil(b"\r\n\r\n")
        found = re.search(rb"\r\ncontent-length: *(\d+)", head, re.IGNORECASE)
        body = await reader.readexactly(int(found.group(1))) if found else await reader.read()
        return int(head[9:12]), head, body
    finally:
        writer.close()


def multipart(csrf: str, bundles: list[str]) -> tuple[bytes, str]:
    """The league page's import form: the CSRF token first, then one file holding an event's bundles."""
    boundary = uuid.uuid4().hex
    data = "[" + ",".join(bundles) + "]"
    parts = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrftoken"\r\n\r\n{csrf}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="bundle"; filename="event.json"\r\n'
        f"Content-Type: application/json\r\n\r\n{data}\r\n--{boundary}--\r\n"
    )
    return parts.encode(), f"multipart/form-data; boundary={boundary}"


def raw_post(path: str, body: bytes, content_type: str, headers: dict[str, str]) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}",
             f"Content-Type: {content_type}", *(f"{k}: {v}" for k, v in headers.items())]  # fmt: skip
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


WARM = "warm-up: each worker's first requests"


def signed_in(ask: Timed, kind: str, lid: int, token: str) -> tuple[str, dict[str, str]]:
    """The organiser's league page read with the organiser's cookie: the form's CSRF token it sets, and the
    headers of a page's write (both cookies)."""
    cookie = f"firestep_league={lid}:{token}"
    head, _ = ask(kind, encode("GET", f"/leagues/{lid}", headers={"Cookie": cookie}))
    found = re.search(rb"firestep_csrf=([^;\r\n]+)", head)
    if found is None:
        raise RuntimeError("the league page set no CSRF cookie")
    return found.group(1).decode(), {"Cookie": f"{cookie}; firestep_csrf={found.group(1).decode()}"}


def warm(ask: Timed, made: list[tuple[str, list[str]]], workers: int) -> None:
    """Each kind of request 3 times a worker on a league of its own, before the measured league: a worker's
    first requests load code, compile queries and open connections (0.8 s of CPU seen on PostgreSQL), a cost
    each worker pays once, not the league's. Printed apart, and not in the verdict."""
    made_league = ask.json(WARM, "POST", "/api/v1/leagues", {"name": "Warm-up league"})
    lid, token = made_league["league"]["id"], made_league["organiser_token"]
    bearer = {"Authorization": f"Bearer {token}"}
    for n in range(3 * workers):
        public, bundles = made[n % len(made)]
        csrf, page = signed_in(ask, WARM, lid, token)
        ask.json(
            WARM, "POST", f"/api/v1/leagues/{lid}/keys", {"public_key": public, "club": club_name(n)}, bearer
        )
        body, kind = multipart(csrf, bundles[n * 2 % 90 : n * 2 % 90 + 2])  # a club's two tables, once each
        ask(WARM, raw_post(f"/leagues/{lid}/import", body, kind, page))
        text = bundles[90 + n % 10]
        ask(WARM, encode("POST", f"/api/v1/leagues/{lid}/results", {"bundle": json.loads(text)}, bearer))
        ask.json(WARM, "GET", f"/api/v1/leagues/{lid}")
        ask(WARM, encode("GET", f"/leagues/{lid}"))


def settled(server: Process, quiet: float = 0.05, most: float = 120.0) -> float:
    """Wait until every worker has started: the server answers /healthz from its first worker up, while the
    others still build what they build at startup (the API's schema, the templates: ~2 s of CPU each), which
    the group's CPU counted to the first requests measured. Settled when half a second passes with under
    `quiet` s of the group's CPU; the seconds waited."""
    t0 = last = time.monotonic()
    before = group_cpu(server.proc.pid)
    while time.monotonic() - t0 < most:
        time.sleep(0.5)
        now = group_cpu(server.proc.pid)
        if now - before < quiet:
            break
        before, last = now, time.monotonic()
    return last - t0


CLAIM_COLUMNS = {"round": "Round", "a_name": "Player 1", "a_club": "Club 1", "a_points": "Score 1",
                 "b_name": "Player 2", "b_club": "Club 2", "b_points": "Score 2"}  # fmt: skip
CLAIMS_A_FILE = 2_000  # app.data.schemas_claims.MAX_CSV_ROWS


def claims_csv(clubs: int, rows: int, seed: int) -> str:
    """Another tool's file of `rows` pairings of the league's members, each player once a round."""
    rng = random.Random(seed)
    players = [member(c, n) for c in range(clubs) for n in range(MEMBERS)]
    lines, rnd = ["Round,Player 1,Club 1,Score 1,Player 2,Club 2,Score 2"], 0
    while len(lines) <= rows:
        rnd += 1
        rng.shuffle(players)
        for (a, a_club), (b, b_club) in zip(players[::2], players[1::2], strict=False):
            if len(lines) > rows:
                break
            lines.append(f"{rnd},{a},{a_club},{rng.randrange(11)},{b},{b_club},{rng.randrange(11)}")
    return "\r\n".join(lines) + "\r\n"


def publish(url: str, lid: int, out: Path) -> tuple[float, float, str]:
    """`firestep league publish` as its organiser runs it: its wall time (the command's start included), its
    CPU and its closing line (written, removed, kept)."""
    env = {**os.environ, "FIRESTEP_DATABASE_URL": url, "FIRESTEP_SECRET_KEY": "bench-" + "k" * 40}
    args = [sys.executable, "-m", "app.cli", "league", "publish", str(out), "--league", str(lid)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode:
        raise RuntimeError(f"publish: {run.stderr[-600:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, run.stdout.splitlines()[-1]


PUBLISHED: list[str] = []  # each publish's line, printed again in the report


def published(title: str, url: str, lid: int, out: Path) -> None:
    wall, cpu, said = publish(url, lid, out)
    line = f"  publish, {title}: {wall:.1f} s wall, {cpu:.1f} s CPU ({said.rsplit(' in ', 1)[0]})"
    PUBLISHED.append(line)
    print(line, flush=True)


@dataclass(frozen=True)
class End:
    claims: int  # the organiser's claims kept, in files of CLAIMS_A_FILE rows
    newcomer: str  # the bundle of a club new to the league, its one game: waiting until the organiser's yes


def organiser_end(ask: Timed, url: str, lid: int, bearer: dict[str, str], clubs: int, games: int, reads: int,
                  end: End) -> None:  # fmt: skip
    """At the league's limit: the organiser's claims (another tool's files, CLAIMS_A_FILE rows each) up to as
    many as the signed games, the organiser's list of results paged (its first, a middle and its last page),
    the league published, one game then counted (a newcomer club's, waiting until now: the organiser's yes) and
    the league published again, then again with nothing changed."""
    total = 0
    for n in range(end.claims // CLAIMS_A_FILE):
        body = {"event": f"Other tool's open {n + 1}", "csv": claims_csv(clubs, CLAIMS_A_FILE, n),
                "columns": CLAIM_COLUMNS}  # fmt: skip
        total += ask.json("claims import, 2,000 rows (API)", "POST", f"/api/v1/leagues/{lid}/claims", body,
                          bearer)["imported"]  # fmt: skip
    print(f"  {total} claims kept", flush=True)
    results = f"/api/v1/leagues/{lid}/results"
    first = ask.json("results page (organiser, 100 rows)", "GET", results, headers=bearer)
    start = first[0]["id"]
    for _ in range(reads):
        for after in (None, start + games // 2, start + games - 50):
            path = results if after is None else f"{results}?after={after}"
            page = ask.json("results page (organiser, 100 rows)", "GET", path, headers=bearer)
            if not page:
                raise RuntimeError(f"no page of the results after {after}")
    waiting = ask.json(
        "import, 1 bundle (API)", "POST", results, {"bundle": json.loads(end.newcomer)}, bearer
    )
    with tempfile.TemporaryDirectory(prefix="firestep-site-") as out:
        published("the whole league (one game waiting)", url, lid, Path(out) / "site")
        ask.json("yes to a waiting game", "POST", f"{results}/{waiting['id']}/accept", headers=bearer)
        published("again, one game more counted", url, lid, Path(out) / "site")
        published("again, nothing changed", url, lid, Path(out) / "site")


def league(
    database: str, workers: int, made: list[tuple[str, list[str]]], api_clubs: int, reads: int, end: End
) -> Timed:
    """The whole league on a scratch database of `database` served by `workers` workers, then its organiser's
    end of it (`organiser_end`), unless `end.claims` is 0."""
    total = sum(len(b) for _, b in made)
    with scratch_database(database) as url:
        server = serve(url, workers)
        try:
            settled(server)
            ask = Timed(server)
            warm(ask, made, workers)
            created = ask.json("league made", "POST", "/api/v1/leagues", {"name": "National league"})
            lid, token = created["league"]["id"], created["organiser_token"]
            bearer = {"Authorization": f"Bearer {token}"}
            for i, (public, _) in enumerate(made):
                ask.json("club's key trusted (API)", "POST", f"/api/v1/leagues/{lid}/keys",
                         {"public_key": public, "club": club_name(i)}, bearer)  # fmt: skip
            csrf, page = signed_in(ask, "league page (organiser)", lid, token)
            kept, tenth = 0, max(1, total // 10)
            for i, (_, bundles) in enumerate(made):
                if i >= len(made) - api_clubs:
                    for text in bundles:
                        raw = encode(
                            "POST", f"/api/v1/leagues/{lid}/results", {"bundle": json.loads(text)}, bearer
                        )
                        ask("import, 1 bundle (API)", raw)
                else:
                    for at in range(0, len(bundles), 100):  # the page's bound: MAX_FILES bundles a request
                        body, kind = multipart(csrf, bundles[at : at + 100])
                        _, answer = ask(
                            "import, 100 bundles (page)", raw_post(f"/leagues/{lid}/import", body, kind, page)
                        )
                        if b"Imported" not in answer:
                            raise RuntimeError(f"import refused: {answer[-600:]!r}")
                before, kept = kept, kept + len(bundles)
                if kept // tenth != before // tenth or kept == total:
                    for _ in range(reads):
                        got = ask.json(f"standings JSON @{kept}", "GET", f"/api/v1/leagues/{lid}")
                        ask(f"league page @{kept}", encode("GET", f"/leagues/{lid}"))
                        ask(
                            f"league page (organiser) @{kept}", encode("GET", f"/leagues/{lid}", headers=page)
                        )
                    print(f"  {kept} games kept: {len(got['lines'])} players in the standings, {got['pending']} pending",
                          flush=True)  # fmt: skip
            if got["pending"] or sum(line["played"] for line in got["lines"]) != 2 * total:
                raise RuntimeError(f"the standings count not the {total} games imported")
            if end.claims:
                organiser_end(ask, url, lid, bearer, len(made), total, reads, end)
            return ask
        finally:
            server.stop()


def report(title: str, ask: Timed) -> bool:
    """Each kind's count, wall p50/p99/max and worst CPU; the growth from the first tenth to all the games."""
    print(f"\n{title}")
    print(f"  {'request':44} {'count':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'worst CPU ms':>13}")
    ok = True
    kinds: dict[str, tuple[list[float], list[float]]] = {}  # the standings' reads at every tenth, together
    for kind, walls in ask.wall.items():
        wall, cpu = kinds.setdefault(kind.split(" @")[0], ([], []))
        wall += walls
        cpu += ask.cpu[kind]
    for kind, (walls, cpus) in kinds.items():
        worst = max(cpus)
        flag = "" if worst <= LIMIT else "  OVER 1 s"
        ok = ok and (not flag or kind == WARM)
        print(f"  {kind:44} {len(walls):5} {percentile(walls, 50) * 1000:8.0f} {percentile(walls, 99) * 1000:8.0f} "
              f"{max(walls) * 1000:8.0f} {worst * 1000:13.0f}{flag}")  # fmt: skip
    checkpoints = sorted({int(k.rsplit("@", 1)[1]) for k in ask.wall if "@" in k})
    if len(checkpoints) > 1:
        first, last = checkpoints[0], checkpoints[-1]
        for kind in ("standings JSON", "league page", "league page (organiser)"):
            a, b = (percentile(ask.wall[f"{kind} @{n}"], 50) for n in (first, last))
            print(f"  {kind}: wall p50 {a * 1000:.0f} ms with {first} games, {b * 1000:.0f} ms with {last}: "
                  f"{b / a:.1f}x for {last / first:.0f}x the games")  # fmt: skip
    for line in PUBLISHED:
        print(line)
    PUBLISHED.clear()
    imports = ask.wall.get("import, 100 bundles (page)", [])
    if len(imports) > 10:
        a, b = percentile(imports[:10], 50), percentile(imports[-10:], 50)
        print(
            f"  a page import's wall p50: {a * 1000:.0f} ms among the first 10, {b * 1000:.0f} ms among the last 10"
        )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--games", type=int, default=100, help="bundles a club sends")
    parser.add_argument(
        "--api-clubs", type=int, default=2, help="the last clubs send one bundle a request (API)"
    )
    parser.add_argument("--reads", type=int, default=5, help="reads of each standings kind at each tenth")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--workers", type=int, default=4, help="PostgreSQL's server's workers")
    parser.add_argument("--postgresql", help="a PostgreSQL URL for the scratch database's server")
    parser.add_argument("--claims", type=int, default=10_000,
                        help="the organiser's claims at the end, then the league published (0: neither)")  # fmt: skip
    args = parser.parse_args()
    if args.postgresql:
        os.environ["FIRESTEP_BENCH_DATABASE_URL"] = args.postgresql
    t0 = time.perf_counter()
    made = make_bundles(args.clubs, args.games)
    print(f"firestep league import from {ROOT}; {load_line()}")
    print(f"{args.clubs} clubs' keys and {args.clubs * args.games} signed bundles made in "
          f"{time.perf_counter() - t0:.1f} s (not measured)")  # fmt: skip
    end = End(args.claims, "")
    if args.claims:  # the league's last game is a newcomer club's, counted at the organiser's end
        public, bundles = made[-1]
        made[-1] = public, bundles[:-1]
        end = End(args.claims, newcomer(args.clubs))
    ok = True
    for database, workers in (("sqlite", 1), ("postgresql", args.workers)):
        if args.only in (None, database):
            print(f"\n{database}, {workers} worker{'s' if workers > 1 else ''}:", flush=True)
            ask = league(database, workers, made, args.api_clubs, args.reads, end)
            ok = (
                report(f"{database}, {workers} worker{'s' if workers > 1 else ''}; {load_line()}", ask) and ok
            )
    print(f"\nevery accepted request within {LIMIT:.0f} s of CPU: {'yes' if ok else 'NO'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
