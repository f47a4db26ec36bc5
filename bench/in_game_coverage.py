"""Benchmark: in-game coverage per whole request against a per-stand loop (run by hand:
`.venv/bin/python bench/in_game_coverage.py`). Not a test: it only reports.

A game's 2,000 stands as the app holds them (unit rows: id, side, base, position, facing, killed,
off-table), seeded so every run is the same table. What a request that asks "which stands does this gas
cloud cover?" pays, three ways:
- "request": `in_gas` as the game calls it, while no stand has moved since the last request: turning the
  rows into stands, finding the kept index, and the query (the build is paid once per move);
- "after a move": the same right after one stand moved, so the index is built again;
- "loop": the straightforward code with no index: for each row, its stand, its polygon and the test.
The two ways are checked to agree first. Medians of interleaved rounds; target: loop / request >= 20x.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import load_line
from table_queries import ROUNDS, medians

from rules.flanders_fields.play.game_table import cloud_template, in_gas, stand_of
from rules.table.bases import BASE_KINDS
from rules.table.coverage import classify_naive

N_STANDS = 2000
TARGET = 20.0


@dataclass(frozen=True)
class Row:
    """A unit row as the game layer reads it (rules.flanders_fields.play.game_table.Placed)."""

    id: int
    side: str
    name: str
    base: str | None
    x: float | None
    y: float | None
    facing_deg: float | None
    killed: bool = False
    off_table: bool = False


def rows(seed: int = 1915) -> list[Row]:
    rng = random.Random(seed)
    return [
        Row(
            i,
            rng.choice(("attacker", "defender")),
            f"stand {i}",
            rng.choice(BASE_KINDS),
            rng.uniform(0, 120),
            rng.uniform(0, 180),
            rng.uniform(0, 360),
        )
        for i in range(1, N_STANDS + 1)
    ]


def loop(cloud: dict[str, Any], units: list[Row]) -> dict[int, str]:
    stands = [s for s in (stand_of(u) for u in units) if s is not None]
    cov = classify_naive(cloud_template(cloud).polygon(), stands, 0.0)
    out = {int(i): "partial" for i in cov.partial}
    out.update({int(i): "full" for i in cov.full})
    return out


def main() -> None:
    units = rows()
    cloud = {"side": "attacker", "center": [60.0, 90.0]}
    assert in_gas([cloud], units) == loop(cloud, units), "indexed and loop disagree"
    step = iter(range(10**9))

    def after_a_move() -> dict[int, str]:
        moved = [*units[:-1], replace(units[-1], x=float(next(step) % 120))]
        return in_gas([cloud], moved)

    request, moved, naive = medians(lambda: in_gas([cloud], units), after_a_move, lambda: loop(cloud, units))
    print(
        f"in-game gas coverage over {N_STANDS} stands; medians of {ROUNDS} interleaved rounds; {load_line()}"
    )
    print(f"  request (stands unchanged, index kept): {request:8.3f} ms")
    print(f"  request right after a stand moved:      {moved:8.3f} ms")
    print(f"  per-stand loop:                         {naive:8.3f} ms")
    ratio = naive / request
    print(
        f"loop / request: {ratio:.1f}x (target at least {TARGET:.0f}x: {'yes' if ratio >= TARGET else 'NO'})"
    )
    print(f"loop / request after a move: {naive / moved:.1f}x (the build, paid once per move)")


if __name__ == "__main__":
    main()
