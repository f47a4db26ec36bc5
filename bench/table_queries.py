"""Benchmark: table queries with an STRtree against a naive per-stand loop (run: `make bench`).

Builds a 120 x 180 cm table with 2,000 stands and 200 terrain features (seeded, so every run is the same
table), then times coverage, MG fire and move queries both ways and prints the ratios. Target: the indexed
query at least 20x faster than the loop, and a coverage query under 1 ms. Not a test: it only reports.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shapely import LineString, Polygon

from rules.table.bases import BASE_KINDS, Stand
from rules.table.coverage import StandIndex, classify, classify_naive
from rules.table.mgfire import Gun, mg_fire, mg_fire_naive
from rules.table.move import TERRAIN_CLASSES, FireZone, measure_move
from rules.table.templates import Template
from rules.table.terrain import Feature, TerrainIndex

N_STANDS = 2000
N_FEATURES = 200
REPEATS = 30
AREA_KINDS = ("woods", "village", "marsh", "shell-torn", "shattered", "hill")


def build(seed: int = 1914) -> tuple[list[Stand], list[Feature], list[FireZone]]:
    rng = random.Random(seed)
    stands = [
        Stand(
            f"s{i}",
            rng.choice(("attacker", "defender")),
            rng.choice(BASE_KINDS),
            (rng.uniform(0, 120), rng.uniform(0, 180)),
            rng.uniform(0, 360),
        )
        for i in range(N_STANDS)
    ]
    features = []
    for i in range(N_FEATURES):
        x, y = rng.uniform(0, 120), rng.uniform(0, 180)
        if i % 5 == 0:
            line = LineString([(x, y), (x + rng.uniform(-30, 30), y + rng.uniform(-30, 30))])
            kind = rng.choice(("road", "trench", "wire"))
            features.append(Feature(f"f{i}", kind, line.buffer(1.0, cap_style="flat"), {"depth_cm": 2.0}))
        else:
            w, h = rng.uniform(2, 12), rng.uniform(2, 12)
            poly = Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
            features.append(Feature(f"f{i}", rng.choice(AREA_KINDS), poly, {"height_cm": 2.0}))
    zones = [
        FireZone(f"z{i}", Template("artillery", (rng.uniform(0, 120), rng.uniform(0, 180))).polygon(), True)
        for i in range(20)
    ]
    return stands, features, zones


def best_ms(fn: Callable[[], Any], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def naive_move(
    stand: Stand, path: list[tuple[float, float]], features: list[Feature], zones: list[FireZone]
) -> dict[str, float]:
    """Terrain split and zones by testing every feature and every zone in turn."""
    route = LineString([stand.center, *path])
    remaining = route
    out: dict[str, float] = {}
    for cls, kinds in TERRAIN_CLASSES:
        for f in features:
            if f.kind in kinds:
                part = remaining.intersection(f.geometry).length
                if part > 1e-9:
                    out[cls] = out.get(cls, 0.0) + part
                    remaining = remaining.difference(f.geometry)
    out["cross-country"] = remaining.length
    base = stand.polygon()
    swept = base.union(Polygon(base.exterior.coords).buffer(0).union(base).convex_hull)
    for z in zones:
        z.area.intersection(swept)
    for f in features:
        route.intersection(f.geometry)
    return out


def main() -> None:
    stands, features, zones = build()
    polys = [s.polygon() for s in stands]
    index = StandIndex.build(stands)
    terrain = TerrainIndex.build(features)
    template = Template("artillery", (60, 90)).polygon()
    gun = Gun("mg", (60, 5), 90, 2, 2, side="attacker")
    mover = stands[0]
    path = [(mover.center[0] + 7, mover.center[1] + 12)]

    build_ms = best_ms(lambda: StandIndex.build(stands), 5)
    rows = [
        (
            "coverage",
            best_ms(lambda: classify(template, index)),
            best_ms(lambda: classify_naive(template, stands, polys, 1.0), 5),
        ),
        (
            "mg-fire",
            best_ms(lambda: mg_fire(gun, 90, index, 70, 45)),
            best_ms(lambda: mg_fire_naive(gun, 90, stands, polys, 70, 45), 5),
        ),
        (
            "move",
            best_ms(lambda: measure_move(mover, path, terrain, zones)),
            best_ms(lambda: naive_move(mover, path, features, zones), 5),
        ),
    ]
    print(f"table 120 x 180 cm, {N_STANDS} stands, {N_FEATURES} terrain features (median of runs)")
    print(f"building the stand index once per query set: {build_ms:.2f} ms")
    print(f"{'query':<10} {'indexed ms':>11} {'loop ms':>10} {'ratio':>8}")
    for name, fast, slow in rows:
        print(f"{name:<10} {fast:>11.3f} {slow:>10.3f} {slow / fast:>7.1f}x")
    cov_ms = rows[0][1]
    print(f"coverage under 1 ms: {'yes' if cov_ms < 1 else 'NO'} ({cov_ms:.3f} ms)")
    print(f"all at least 20x: {'yes' if all(s / f >= 20 for _, f, s in rows) else 'NO'}")


if __name__ == "__main__":
    main()
