"""Benchmark: CPU time of a fire-plan rehearsal, a typical plan and the largest legal ones (run by hand:
`.venv/bin/python bench/rehearsal_cost.py`). Not a test: it only reports.

The targets are the Mons 1914 scenario's forces on its table (a German regiment of 68 stands in 32 companies,
the British brigade), with cover from the terrain under each base as the game reads it. Plans:
- typical: three 18pdr batteries and a howitzer over three turns, and an SOS call (the British plan);
- largest battery plan: the fire plan's 64 items (its capacity, rules/core/commitment.py PLAN_CAPACITY),
  every one a battery firing all 20 rehearsed turns (MAX_TURNS) on the German positions, and the 8 SOS calls
  a request may add: the most volleys a legal plan brings;
- largest Firewaltz plan: a late German plan of 64 items, Firewaltz attacks and batteries over 20 turns on the
  British positions;
- gas: two offensive clouds, the wind sampled the page's 100 and the API's default 400 times; one cloud over
  12 turns sampled 2,000 times (MAX_SAMPLES: the most courses a request may ask for one cloud, as
  samples x turns x clouds stays within MAX_CLOUD_TURNS).
Each is timed with the default readings (two actions fire twice, planned fire deviates) and with the
readings of before (fire once, no deviation). "cold" is the first run in a fresh process (the resolvers'
answers and the deviation table not yet cached), "warm" the median of the next runs; both CPU seconds of
this process (time.process_time), so other work on the machine does not count. Target: under 0.5 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.flanders_fields.book.cover import cover_for
from rules.flanders_fields.planning.scenarios import SCENARIOS
from rules.flanders_fields.play import rehearsal as R
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.table.bases import Stand
from rules.table.frame import Table, table_to_grid
from rules.table.terrain import TerrainIndex, terrain_from_geojson

MONS = SCENARIOS["mons-1914"]
TABLE = Table(MONS.table_width_cm, MONS.table_length_cm)
OLD = {"artillery-two-actions": "fire-once", "planned-fire-deviation": "pre-registered"}
WARM_RUNS = 5


def targets(side: str) -> list[R.TargetStand]:
    terrain = TerrainIndex.build(terrain_from_geojson(MONS.terrain, wire_belt_cm=WIRE_BELT_CM))
    out: list[R.TargetStand] = []

    def walk(u: Any, company: str | None) -> None:
        if u.level == "company":
            company = u.id
        if u.base is not None and u.id in MONS.placements:
            p = MONS.placements[u.id]
            stand = Stand(u.id, side, u.base, tuple(p["center"]), p["facing_deg"])
            cover = cover_for(sorted(terrain.kinds_at(stand.polygon())), u.quality)
            out.append(R.TargetStand(u.id, u.id, company or u.id, stand, cover, u.kind.endswith("-command")))
        for c in u.children:
            walk(c, company)

    for top in MONS.forces[side]:
        walk(top, None)
    return out


def aimed_at(plan_side: str, enemy: list[R.TargetStand], n: int) -> list[list[float]]:
    """n grid references (from the plan side's rear edge) on the enemy's stands, round the force."""
    stands = [t.stand for t in enemy if t.stand is not None]
    points = [table_to_grid(plan_side, *stands[k % len(stands)].center, TABLE) for k in range(n)]  # type: ignore[arg-type]
    return [[round(x, 1), round(y, 1)] for x, y in points]


def typical() -> tuple[R.Plan, list[R.TargetStand], str]:
    items = [
        {"id": "11", "kind": "aiming-point", "arrival_turn": 1, "data": {"grid": [112, 168], "turns": 2}},
        {"id": "12", "kind": "aiming-point", "arrival_turn": 1, "data": {"grid": [72, 168], "turns": 1}},
        {"id": "13", "kind": "bombardment", "arrival_turn": 2, "data": {"grid": [35, 166], "turns": 2}},
        {"id": "14", "kind": "aiming-point", "arrival_turn": 2, "data": {"grid": [90, 170], "turns": 1}},
    ]
    plan = R.plan_from_items(
        "defender", items, TABLE, {"14": "field-howitzer"}, [{"grid": [60, 168], "turn": 3}]
    )
    return plan, targets("attacker"), "early"


def largest_batteries() -> tuple[R.Plan, list[R.TargetStand], str]:
    enemy = targets("attacker")
    grids = aimed_at("defender", enemy, 64 + 8)
    items = [
        {"id": str(k), "kind": "aiming-point", "arrival_turn": 1, "data": {"grid": grids[k], "turns": 20}}
        for k in range(64)
    ]
    sos = [{"grid": grids[64 + k], "turn": 1 + k} for k in range(8)]
    return R.plan_from_items("defender", items, TABLE, sos=sos), enemy, "early"


def largest_firewaltz() -> tuple[R.Plan, list[R.TargetStand], str]:
    enemy = targets("defender")
    grids = aimed_at("attacker", enemy, 64)
    items = [
        {
            "id": str(k),
            "kind": "firewaltz" if k % 2 else "aiming-point",
            "arrival_turn": 1 + k % 20,
            "data": {"grid": grids[k], "target": ("strong-point", "trench-line")[k % 4 // 2]}
            if k % 2
            else {"grid": grids[k], "turns": 20},
        }
        for k in range(64)
    ]
    firers = {str(k): "heavy-artillery" for k in range(0, 64, 4)}
    return R.plan_from_items("attacker", items, TABLE, firers), enemy, "late"


def gas(samples: int, clouds: int = 2, turns: int | None = None) -> tuple[Any, ...]:
    enemy = targets("attacker")
    grids = aimed_at("defender", enemy, clouds)
    items = [
        {
            "id": str(k),
            "kind": "gas",
            "arrival_turn": 1,
            "data": {"grid": g, "gas": "offensive", "wind_deg": 270},
        }
        for k, g in enumerate(grids)
    ]
    return R.plan_from_items("defender", items, TABLE), enemy, "late", samples, turns


def cpu(run: Any) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> None:
    cases: list[tuple[str, Any]] = [
        ("typical (4 batteries + SOS, 3 turns)", typical()),
        ("largest: 64 batteries x 20 turns + 8 SOS", largest_batteries()),
        ("largest: 64 Firewaltz/batteries, late", largest_firewaltz()),
        ("gas: 2 clouds, 100 samples", gas(100)),
        ("gas: 2 clouds, 400 samples", gas(400)),
        ("gas: 1 cloud, 2000 samples, 12 turns", gas(R.MAX_SAMPLES, 1, 12)),
    ]
    print(f"{'plan':44} {'readings':9} {'cold s':>7} {'warm s':>7} {'turns':>9} method")
    for name, case in cases:
        plan, enemy, period, *rest = case
        samples, turns = rest if rest else (R.DEFAULT_SAMPLES, None)
        for label, variants in (("default", {}), ("before", OLD)):
            answers: list[R.Rehearsal] = []

            def run() -> None:
                answers.append(R.rehearse(plan, enemy, TABLE, period, variants, turns, samples=samples))  # noqa: B023

            cold = cpu(run)
            warm = statistics.median(cpu(run) for _ in range(WARM_RUNS))
            a = answers[-1]
            print(f"{name:44} {label:9} {cold:7.3f} {warm:7.3f} {a.turns:>3} turns {a.method}")


if __name__ == "__main__":
    main()
