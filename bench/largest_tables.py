"""Benchmark: the worst CPU of each route on the largest table an import accepts, for each rule set played as a
game (run by hand: `.venv/bin/python bench/largest_tables.py [--ruleset 2mm-earth-1418] [--samples 12]`).
Not a test: it only reports. Target (issue 52): every accepted request under 1 s of CPU.

The tables are what `rules/core/scenario.py`'s limits accept, built as documents here: MAX_FEATURES terrain
features (woods, wire belts and hills, as the issue's table: 200, 250, 50) of MAX_POINTS vertices in all, and as
many units as the document and the rule set's game allow (`MAX_UNITS`; Flanders Fields' game cap,
`FlandersFieldsSetup.unit_cap`), every stand placed, the two sides face to face across the terrain, one
formation of each side as large as it can be (the formation moved as one). Each route is asked of the app
in this process (the ASGI app through Starlette's test client, on a scratch SQLite database), its CPU the
process's (`time.process_time`: the app's threads and the client's, which is small beside them) around the
one call; a route asked of many units (a stand's targets, its card, a shot at a target the map leaves open)
is asked of `--samples` of them spread over the table and of the first stand of each kind, the worst printed.
Besides: the game's reads and the players' pages, a stand moved, each formation moved as one, and on the 2mm
table ten batteries' bombardments landing on the attacker's packed infantry (the advance that lands them,
their cards, each applied). Main before issue 52: 2mm targets 33.4 s, formation move 7.7 s, a bombardment
applied 1.9 s (Flanders Fields' every route under 1 s)."""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core.scenario import MAX_FEATURES, MAX_POINTS, MAX_TABLE_CM, MAX_UNITS
from rules.table.terrain import WIDENED_LINE_MOST_POINTS, WIDENED_MOST_POINTS

WOODS, WIRE, HILLS = 200, 250, 50
EARTH = "2mm-earth-1418"
FLANDERS = "flanders-fields"


# -- the documents -------------------------------------------------------------------------------------------
def ring(cx: float, cy: float, r: float, n: int) -> list[list[float]]:
    """A closed ring of n vertices (n + 1 points) about (cx, cy)."""
    pts = [
        [round(cx + r * math.cos(2 * math.pi * i / n), 3), round(cy + r * math.sin(2 * math.pi * i / n), 3)]
        for i in range(n)
    ]
    return [*pts, pts[0]]


def terrain(width: float, y0: float, y1: float) -> dict[str, Any]:
    """MAX_FEATURES features of about MAX_POINTS points in all, between y0 and y1 (where the lines of sight
    and the moves cross): woods and hills as many-sided rounds, wire belts as zig-zag lines (of at most
    WIDENED_MOST_POINTS points together, rules.table.terrain's cap on the lines a terrain widens)."""
    assert WOODS + WIRE + HILLS == MAX_FEATURES
    # The lines to widen (the wire belts) as many points as they may have in all; the deployment zones take 10
    # points; the woods and hills share the rest.
    per_wire = min(WIDENED_MOST_POINTS // WIRE, WIDENED_LINE_MOST_POINTS)
    per_area = (MAX_POINTS - 10 - WIRE * per_wire) // (WOODS + HILLS) - 1  # vertices of a wood or hill
    features: list[dict[str, Any]] = []
    for i in range(WOODS):
        x = 20 + (i * 37.3) % (width - 40)
        y = y0 + ((i * 53.7) % (y1 - y0))
        geometry = {"type": "Polygon", "coordinates": [ring(x, y, 4, per_area)]}
        features.append(_feature(f"wood-{i}", "woods", geometry))
    for i in range(HILLS):
        x = 30 + (i * 91.1) % (width - 60)
        y = y0 + ((i * 29.3) % (y1 - y0))
        geometry = {"type": "Polygon", "coordinates": [ring(x, y, 8, per_area)]}
        features.append(_feature(f"hill-{i}", "hill", geometry, height_cm=2))
    for i in range(WIRE):
        x = 10 + (i * 41.9) % (width - 60)
        y = y0 + ((i * 17.1) % (y1 - y0))
        line = [[round(x + 40 * k / per_wire, 3), round(y + (k % 2) * 0.8, 3)] for k in range(per_wire)]
        features.append(
            _feature(f"wire-{i}", "wire", {"type": "LineString", "coordinates": line}, depth_cm=1)
        )
    return {"type": "FeatureCollection", "features": features}


def _feature(fid: str, kind: str, geometry: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "id": fid, "geometry": geometry, "properties": {"kind": kind, **props}}


def _zone(x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    return {"type": "Polygon", "coordinates": [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]]}


def _rows(n: int, x0: float, y: float, dy: float, across: int, gap: float) -> list[tuple[float, float]]:
    return [(round(x0 + (i % across) * gap, 2), round(y + (i // across) * dy, 2)) for i in range(n)]


def earth_document(units: int = MAX_UNITS, width: float = MAX_TABLE_CM) -> dict[str, Any]:
    """The largest 2mm Earth 1418 table: `units` in all (each strategic formation of companies of 10 platoon
    bases), the attacker's first formation the largest (its 65 companies), a battery formation a side (the attacker's light howitzers, of Infinite range, see every enemy sub-unit)."""

    def formation(
        ref: str, kind: str, companies: int, bases: int, spots: list[tuple[float, float]], facing: float
    ) -> dict[str, Any]:
        it = iter(spots)
        return {
            "id": ref,
            "name": f"SF {ref}",
            "level": "battalion",
            "kind": "formation",
            "quality": "line",
            "children": [
                {
                    "id": f"{ref}/{c}",
                    "name": f"{ref} company {c}",
                    "level": "company",
                    "kind": kind,
                    "children": [
                        {
                            "id": f"{ref}/{c}/{b}",
                            "name": f"{ref} company {c} platoon {b}",
                            "level": "platoon",
                            "kind": kind,
                            "base": kind,
                            "placement": {"center": list(next(it)), "facing_deg": facing},
                        }
                        for b in range(bases)
                    ],
                }
                for c in range(companies)
            ],
        }

    def size(companies: int, bases: int) -> int:
        return 1 + companies * (1 + bases)

    big, guns = (
        65,
        10,
    )  # the attacker's infantry formation of 65 companies of 10 (650 bases); 10 batteries of 4
    left = units - size(big, 10) - 2 * size(guns, 4)
    defenders = (left - 1) // 11  # the defender's companies of 10 in one formation
    across = 100
    # The attacker's infantry packed close (a bombardment circle over it covers many bases).
    a_inf = formation("a/inf", "line-inf", big, 10, _rows(big * 10, 50, 300, 1.5, across, 3), 90)
    a_guns = formation("a/guns", "light-howitzers", guns, 4, _rows(guns * 4, 100, 250, 3, 40, 20), 90)
    d_inf = formation("d/inf", "line-inf", defenders, 10, _rows(defenders * 10, 50, 500, 3, across, 9), 270)
    d_guns = formation("d/guns", "field-guns", guns, 4, _rows(guns * 4, 100, 600, 3, 40, 20), 270)
    return {
        "format": "firestep-scenario/1",
        "title": "The largest 2mm table an import accepts",
        "ruleset": EARTH,
        "period": None,
        "table": {"width_cm": width, "length_cm": MAX_TABLE_CM},
        "terrain": terrain(width, 340, 490),
        "sides": {
            "attacker": {
                "nationality": "british",
                "deployment_zone": _zone(0, 0, width, 330),
                "forces": [a_inf, a_guns],
            },
            "defender": {
                "nationality": "german",
                "deployment_zone": _zone(0, 495, width, MAX_TABLE_CM),
                "forces": [d_inf, d_guns],
            },
        },
    }


def flanders_document(units: int, width: float = MAX_TABLE_CM) -> dict[str, Any]:
    """The largest Flanders Fields table: `units` in all (the game's cap), each side a battalion of platoon
    stands (with MG and HQ stands among them), the attacker's the larger."""

    def battalion(ref: str, n: int, y: float, facing: float) -> dict[str, Any]:
        spots = _rows(n, 20, y, 3, 120, 8)
        children = []
        for i, (x, yy) in enumerate(spots):
            kind, base = (
                ("mmg-section", "support-weapon") if i % 10 == 9 else ("rifle-platoon", "infantry-platoon")
            )
            children.append(
                {
                    "id": f"{ref}/s{i}",
                    "name": f"{ref} stand {i}",
                    "level": "stand",
                    "kind": kind,
                    "base": base,
                    "placement": {"center": [x, yy], "facing_deg": facing},
                }
            )
        return {
            "id": ref,
            "name": f"Battalion {ref}",
            "level": "battalion",
            "kind": "infantry-battalion",
            "children": children,
        }

    attackers = units // 2 + 9
    defenders = units - 2 - attackers
    return {
        "format": "firestep-scenario/1",
        "title": "The largest Flanders Fields table an import accepts",
        "ruleset": FLANDERS,
        "period": "early",
        "table": {"width_cm": width, "length_cm": MAX_TABLE_CM},
        "terrain": terrain(width, 340, 490),
        "sides": {
            "attacker": {
                "nationality": "german",
                "deployment_zone": _zone(0, 0, width, 330),
                "forces": [battalion("a", attackers, 300, 90)],
            },
            "defender": {
                "nationality": "british",
                "deployment_zone": _zone(0, 495, width, MAX_TABLE_CM),
                "forces": [battalion("d", defenders, 500, 270)],
            },
        },
    }


# -- the requests ------------------------------------------------------------------------------------------
class Bench:
    """The app on a scratch SQLite database, each call's CPU kept per route."""

    def __init__(self, folder: str) -> None:
        from fastapi.testclient import TestClient

        from app.core.config import Settings
        from app.core.db import migrate
        from app.main import create_app

        url = f"sqlite:///{folder}/bench.db"
        migrate(url)
        self.client = TestClient(create_app(Settings(database_url=url, var_dir=Path(folder))))
        self.client.__enter__()
        self.worst: dict[str, tuple[float, int]] = {}

    def call(self, route: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        t0 = time.process_time()
        r = self.client.request(method, path, headers=headers, json=body)
        spent = time.process_time() - t0
        if r.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        if spent >= self.worst.get(route, (-1.0, 0))[0]:
            self.worst[route] = (spent, self.worst.get(route, (0.0, 0))[1] + 1)
        else:
            self.worst[route] = (self.worst[route][0], self.worst[route][1] + 1)
        return r.json() if r.headers.get("content-type", "").startswith("application/json") else r.content

    def report(self, title: str) -> None:
        print(f"\n{title}: the worst CPU per route (target: every one under 1 s)")
        for route, (spent, n) in sorted(self.worst.items(), key=lambda kv: -kv[1][0]):
            flag = "" if spent < 1.0 else "  OVER 1 s"
            print(f"  {spent * 1000:8.0f} ms  {route}  ({n} asked){flag}")
        self.worst.clear()


def spread(items: list[Any], n: int) -> list[Any]:
    """n of the items, evenly spread (all when there are fewer)."""
    if len(items) <= n:
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def play(bench: Bench, document: dict[str, Any], samples: int) -> None:
    """Import the document, open a game, play into its turn and ask each route (the worst kept)."""
    b = bench
    sid = b.call("POST /scenarios (import)", "POST", "/api/v1/scenarios", body=document)["id"]
    made = b.call("POST /games (from the scenario)", "POST", "/api/v1/games", body={"scenario": sid})
    gid, ref = made["game"]["id"], made["referee_token"]
    base = f"/api/v1/games/{gid}"
    units = b.call("GET /games/{id}/units", "GET", f"{base}/units", ref)
    print(f"{document['ruleset']}: {len(units)} units, {len(document['terrain']['features'])} features")
    turn = b.call("GET /games/{id}/turn", "GET", f"{base}/turn", ref)
    b.call("POST /games/{id}/turn/advance", "POST", f"{base}/turn/advance", ref, {"version": turn["version"]})
    for route, path in (
        ("GET /games/{id}", base),
        ("GET /games/{id}/state", f"{base}/state"),
        ("GET /games/{id}/units", f"{base}/units"),
        ("GET /games/{id}/events", f"{base}/events"),
        ("GET /games/{id}/report", f"{base}/report"),
    ):
        b.call(route, "GET", path, ref)
    # The attacker's pages, with the seat's cookie that joining sets.
    b.call("POST /join", "POST", "/api/v1/join", body={"code": made["join_codes"]["attacker"]})
    for page in ("map", "fire-plan", "report"):
        b.call(f"page /games/{{id}}/{page}", "GET", f"/games/{gid}/{page}")
    b.client.cookies.clear()
    placed = [u for u in units if u["x"] is not None]
    by_side = {s: [u for u in placed if u["side"] == s] for s in ("attacker", "defender")}
    # The shooters: infantry and guns of both sides, spread over the table.
    shooters = spread(by_side["attacker"], samples) + spread(by_side["defender"], samples)
    kinds = {(u["side"], u["kind"]): u for u in reversed(placed)}  # and the first of each kind, each side
    shooters += [u for u in kinds.values() if u not in shooters]
    resolver = "shoot" if document["ruleset"] == EARTH else "shooting"
    for u in shooters:
        b.call("GET /units/{uid}/acts", "GET", f"{base}/units/{u['id']}/acts", ref)
        targets = f"{base}/units/{u['id']}/targets/{resolver}"
        refused = {
            m["unit_id"] for m in b.call(f"GET /units/{{uid}}/targets/{resolver}", "GET", targets, ref)
        }
        open_to = [t for t in placed if t["side"] != u["side"] and t["id"] not in refused]
        for t in open_to[:1]:  # a shot at a target the map leaves open, worked out and then rolled
            shot = {"unit_id": u["id"], "target_id": t["id"], "override": True}
            asked = {k: v for k, v in shot.items() if k != "override"}  # /ask writes nothing: no override
            for route, path, body in (
                (f"POST /ask/{resolver}", "ask", asked),
                (f"POST /resolve/{resolver}", "resolve", shot),
            ):
                try:
                    b.call(route, "POST", f"{base}/{path}/{resolver}", ref, body)
                except RuntimeError as e:  # refused by the rules of play: not an accepted request
                    if not any(f" {code} " in str(e) for code in (409, 422)):
                        raise
    for u in spread(by_side["attacker"], 4):
        b.call(
            "POST /units/{uid}/move",
            "POST",
            f"{base}/units/{u['id']}/move",
            ref,
            {"x": u["x"], "y": u["y"] + 0.5, "facing_deg": u["facing_deg"], "override": True},
        )
    if document["ruleset"] == EARTH:
        bombard(b, made, units)
    roots = [u for u in units if u["parent_id"] is None]
    for root in roots:
        b.call(
            "POST /units/{uid}/move-formation",
            "POST",
            f"{base}/units/{root['id']}/move-formation",
            ref,
            {"dx": 0.5, "dy": 0, "override": True},
        )


def bombard(b: Bench, made: dict[str, Any], units: list[dict[str, Any]]) -> None:
    """2mm: each of the defender's batteries bombards the attacker's packed infantry (their plans written in
    the bound's planning, landing in executing step 2): the cards read, then each applied."""
    gid, ref = made["game"]["id"], made["referee_token"]
    base = f"/api/v1/games/{gid}"
    token = b.call("POST /join", "POST", "/api/v1/join", body={"code": made["join_codes"]["defender"]})[
        "token"
    ]
    b.client.cookies.clear()  # joining sets the cookie; the bench names its token
    batteries = [
        u for u in units if u["side"] == "defender" and u["level"] == "company" and u["kind"] == "field-guns"
    ]
    width, length = made["game"]["table_width_cm"], made["game"]["table_length_cm"]
    for i, battery in enumerate(batteries):
        x, y = 80 + 15 * i, 305  # the attacker's packed rows, in the defender's grid (from its own corner)
        item = {"kind": "circle-bombardment", "battery": battery["name"], "grid": [width - x, length - y]}
        b.call(
            "POST /fireplans/{side}/items",
            "POST",
            f"{base}/fireplans/defender/items",
            token,
            {"arrival_turn": 1, "item": item},
        )
    for _ in range(40):
        turn = b.call("GET /games/{id}/turn", "GET", f"{base}/turn", ref)
        moved = b.call(
            "POST /games/{id}/turn/advance", "POST", f"{base}/turn/advance", ref, {"version": turn["version"]}
        )
        if moved["turn"]["step"]["id"] == "execute-2":
            break
    cards = b.call("GET /games/{id}/arrivals", "GET", f"{base}/arrivals", token)["cards"]
    print(
        f"  {len(cards)} bombardment cards, {sum(len(c['stands']['full']) for c in cards)} bases fully under them"
    )
    for card in cards:
        if not card.get("shots"):
            continue
        keys = [s["key"] for s in card["stands"]["full"]]
        shots: dict[str, int] = {}
        left = card["shots"]
        for s in card["stands"]["full"]:
            if left <= 0:
                break
            shots[s["key"]] = min(s["times"], left)
            left -= shots[s["key"]]
        if not keys:
            continue
        try:  # a card over a sub-unit another card's hits wait on is refused (422): only accepted ones count
            b.call(
                "POST /arrivals/{item}/apply",
                "POST",
                f"{base}/arrivals/{card['item_id']}/apply",
                token,
                {"shots": shots},
            )
        except RuntimeError as refused:
            if " 422 " not in str(refused):
                raise


def documents() -> dict[str, dict[str, Any]]:
    """The bench's documents by rule set (tests/app/services/test_bench_documents.py checks the import takes them)."""
    from rules.flanders_fields.book.organisation import max_units_per_game

    return {EARTH: earth_document(), FLANDERS: flanders_document(max_units_per_game())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", choices=(EARTH, FLANDERS), action="append")
    parser.add_argument("--samples", type=int, default=12, help="units asked per side of each per-unit route")
    args = parser.parse_args()
    built = documents()
    with tempfile.TemporaryDirectory(prefix="firestep-bench-") as folder:
        bench = Bench(folder)
        for ruleset in args.ruleset or (EARTH, FLANDERS):
            play(bench, built[ruleset], args.samples)
            bench.report(ruleset)


if __name__ == "__main__":
    main()
