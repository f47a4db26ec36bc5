"""Dice: injected, never drawn from a global. Probabilities come from enumerating every roll."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Protocol


class DiceSource(Protocol):
    """Anything with randint(a, b), e.g. random.SystemRandom() or random.Random(seed) in tests."""

    def randint(self, a: int, b: int) -> int: ...


def roll(sides: Sequence[int], source: DiceSource) -> tuple[int, ...]:
    return tuple(source.randint(1, s) for s in sides)


def all_rolls(sides: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every combination of faces, each equally likely."""
    return itertools.product(*(range(1, s + 1) for s in sides))


def count_rolls(sides: Sequence[int]) -> int:
    n = 1
    for s in sides:
        n *= s
    return n


def exact_distribution(
    sides: Sequence[int], outcome_of: Callable[[tuple[int, ...]], str]
) -> dict[str, Fraction]:
    """Probability of each outcome key, by counting all equally likely rolls."""
    counts: dict[str, int] = {}
    for dice in all_rolls(sides):
        key = outcome_of(dice)
        counts[key] = counts.get(key, 0) + 1
    total = count_rolls(sides)
    return {k: Fraction(v, total) for k, v in counts.items()}


def convolve(dists: Sequence[dict[int, Fraction]]) -> dict[int, Fraction]:
    """Distribution of a sum of independent integer variables."""
    out: dict[int, Fraction] = {0: Fraction(1)}
    for d in dists:
        nxt: dict[int, Fraction] = {}
        for a, pa in out.items():
            for b, pb in d.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        out = nxt
    return out


def die(sides: int = 6) -> dict[int, Fraction]:
    return {f: Fraction(1, sides) for f in range(1, sides + 1)}
