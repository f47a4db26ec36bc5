"""Gas clouds on the table: drift on the wind, and an exact forecast over the Gas Movement table.

"As the gas sweeps over the table it will attack all the troops it passes over"; "Any base which is fully
covered by the gas cloud will be attacked at full effect, if the cloud only partly covers a base the attack
is at -2" (GAS). The wind's turn-by-turn distribution comes from rules.flanders_fields.resolvers.gas; this module only
moves polygons and adds up probabilities.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from shapely import Polygon
from shapely.affinity import translate
from shapely.geometry.base import BaseGeometry

from rules.table.coverage import FULL, OUTSIDE, StandIndex, _classes
from rules.table.frame import unit

# Exact enumeration keeps at most this many distinct (position, wind) states per turn; beyond it the
# forecast samples, seeded, and states its standard error.
MAX_EXACT_STATES = 20000
SAMPLES = 2000
SEED = 1914


class WindLike(Protocol, Hashable):
    @property
    def direction_deg(self) -> float: ...
    @property
    def speed_cm(self) -> int: ...
    @property
    def dispersed(self) -> bool: ...


def offset(wind_deg: float, speed_cm: float) -> tuple[float, float]:
    ux, uy = unit(wind_deg)
    return speed_cm * ux, speed_cm * uy


def drift(cloud: Polygon, wind_deg: float, speed_cm: float) -> tuple[Polygon, BaseGeometry]:
    """The cloud after one turn's move, and the area it passed over (start, end and between: the hull,
    since a convex template moves in a straight line)."""
    dx, dy = offset(wind_deg, speed_cm)
    moved = translate(cloud, dx, dy)
    return moved, cloud.union(moved).convex_hull


def _key(dx: float, dy: float) -> tuple[float, float]:
    # Positions are sums of speeds along multiples of 45 degrees: rounding merges equal sums.
    return round(dx, 6) + 0.0, round(dy, 6) + 0.0


@dataclass
class Forecast:
    """Per turn (1-based list index), stand id -> P(covered fully or partly) and P(fully)."""

    covered: list[dict[str, Fraction]]
    full: list[dict[str, Fraction]]
    dispersed: list[Fraction]
    exact: bool
    exact_turns: int = 0
    samples: int = 0
    standard_error: float = 0.0
    states: int = 0


class _Coverer:
    """Coverage of the cloud at an offset, cached per offset."""

    def __init__(self, cloud: Polygon, index: StandIndex) -> None:
        self.cloud, self.index = cloud, index
        self.cache: dict[tuple[float, float], tuple[list[int], list[int]]] = {}

    def at(self, pos: tuple[float, float]) -> tuple[list[int], list[int]]:
        if pos not in self.cache:
            moved = translate(self.cloud, pos[0], pos[1])
            idx = self.index.candidates(moved)
            cls = _classes(self.index, moved, idx)
            covered = [int(i) for i, c in zip(idx, cls, strict=True) if c != OUTSIDE]
            full = [int(i) for i, c in zip(idx, cls, strict=True) if c == FULL]
            self.cache[pos] = (covered, full)
        return self.cache[pos]


def forecast(
    cloud: Polygon,
    wind: WindLike,
    turns: int,
    index: StandIndex,
    step: Callable[[WindLike], Mapping[WindLike, Fraction]],
) -> Forecast:
    """Each turn: roll the Gas Movement table (`step`), then the cloud moves on the new wind."""
    cov = _Coverer(cloud, index)
    ids = [s.id for s in index.stands]
    states: dict[tuple[tuple[float, float], WindLike], Fraction] = {((0.0, 0.0), wind): Fraction(1)}
    out = Forecast([], [], [], exact=True)
    for t in range(turns):
        if len(states) * len(step(wind)) > MAX_EXACT_STATES * 10:
            return _fall_back(out, t, cloud, wind, turns, index, step, cov)
        nxt: dict[tuple[tuple[float, float], WindLike], Fraction] = {}
        for (pos, w), p in states.items():
            for w2, q in step(w).items():
                if w2.dispersed:
                    key = ((0.0, 0.0), w2)
                else:
                    dx, dy = offset(w2.direction_deg, w2.speed_cm)
                    key = (_key(pos[0] + dx, pos[1] + dy), w2)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        if len(nxt) > MAX_EXACT_STATES:
            return _fall_back(out, t, cloud, wind, turns, index, step, cov)
        states = nxt
        out.states = max(out.states, len(states))
        covered = dict.fromkeys(ids, Fraction(0))
        full = dict.fromkeys(ids, Fraction(0))
        gone = Fraction(0)
        for (pos, w), p in states.items():
            if w.dispersed:
                gone += p
                continue
            c, f = cov.at(pos)
            for i in c:
                covered[ids[i]] += p
            for i in f:
                full[ids[i]] += p
        out.covered.append(covered)
        out.full.append(full)
        out.dispersed.append(gone)
        out.exact_turns = t + 1
    return out


def _fall_back(
    exact: Forecast,
    t: int,
    cloud: Polygon,
    wind: WindLike,
    turns: int,
    index: StandIndex,
    step: Callable[[WindLike], Mapping[WindLike, Fraction]],
    cov: _Coverer,
) -> Forecast:
    """Keep the turns already enumerated exactly; sample the rest."""
    sampled = _sampled(cloud, wind, turns, index, step, cov)
    sampled.covered[:t] = exact.covered
    sampled.full[:t] = exact.full
    sampled.dispersed[:t] = exact.dispersed
    sampled.exact_turns = t
    sampled.states = exact.states
    return sampled


def _sampled(
    cloud: Polygon,
    wind: WindLike,
    turns: int,
    index: StandIndex,
    step: Callable[[WindLike], Mapping[WindLike, Fraction]],
    cov: _Coverer,
) -> Forecast:
    rng = random.Random(SEED)
    ids = [s.id for s in index.stands]
    hit = [dict.fromkeys(ids, 0) for _ in range(turns)]
    hit_full = [dict.fromkeys(ids, 0) for _ in range(turns)]
    gone = [0] * turns
    tables: dict[WindLike, tuple[list[WindLike], list[float]]] = {}
    for _ in range(SAMPLES):
        pos, w = (0.0, 0.0), wind
        for t in range(turns):
            if w not in tables:
                dist = step(w)
                tables[w] = (list(dist), [float(v) for v in dist.values()])
            choices, weights = tables[w]
            w = rng.choices(choices, weights)[0]
            if w.dispersed:
                gone[t] += 1
                continue
            dx, dy = offset(w.direction_deg, w.speed_cm)
            pos = _key(pos[0] + dx, pos[1] + dy)
            c, f = cov.at(pos)
            for i in c:
                hit[t][ids[i]] += 1
            for i in f:
                hit_full[t][ids[i]] += 1
    n = SAMPLES
    return Forecast(
        covered=[{k: Fraction(v, n) for k, v in r.items()} for r in hit],
        full=[{k: Fraction(v, n) for k, v in r.items()} for r in hit_full],
        dispersed=[Fraction(g, n) for g in gone],
        exact=False,
        samples=n,
        # The largest standard error of an estimated probability: sqrt(p(1-p)/n) at p = 1/2.
        standard_error=0.5 / math.sqrt(n),
    )
