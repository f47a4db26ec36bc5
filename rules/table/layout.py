"""A formation laid out in its side's deployment zone in one step, as the scenario editor offers it: base to base
with a gap, in rows from the zone's front (its edge nearer the enemy) back towards the side's own edge, left to
right, each stand facing the enemy, around the side's stands already placed. Pure: boxes in table cm, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # min x, min y, max x, max y
EPSILON = 1e-6


@dataclass(frozen=True)
class Laid:
    """Where each stand laid out goes (its id: its centre), and how many did not fit in the zone."""

    at: dict[str, tuple[float, float]]
    left: int


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] - EPSILON and b[0] < a[2] - EPSILON and a[1] < b[3] - EPSILON and b[1] < a[3] - EPSILON


def lay_out(
    zone: Box, front_high: bool, stands: Sequence[tuple[str, float, float]], taken: Sequence[Box], gap: float
) -> Laid:
    """Stands (id, width, depth) put in `zone`'s bounds in rows from its front (its high y edge when
    `front_high`), each row as deep as the deepest stand, skipping the boxes `taken`; one that no row holds is
    left (counted), the next still tried."""
    x0, y0, x1, y1 = zone
    front, back = (y1, -1.0) if front_high else (y0, 1.0)
    row_depth = max((d for _, _, d in stands), default=0.0)
    boxes = list(taken)
    at: dict[str, tuple[float, float]] = {}
    row, x, left = 0, x0 + gap, 0
    for stand_id, w, d in stands:
        while True:
            row_front = row * (row_depth + gap)
            if row_front + d > y1 - y0 + EPSILON:
                left += 1
                break
            if x + w + gap > x1 + EPSILON:
                row, x = row + 1, x0 + gap
                continue
            cy = front + back * (row_front + d / 2)
            box = (x, cy - d / 2, x + w, cy + d / 2)
            hit = next((t for t in boxes if _overlaps(t, box)), None)
            if hit is not None:
                x = hit[2] + gap
                continue
            at[stand_id] = (x + w / 2, cy)
            boxes.append(box)
            x += w + gap
            break
    return Laid(at, left)
