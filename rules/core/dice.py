"""Dice: injected, never drawn from a global. Probabilities come from enumerating every roll."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
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


@dataclass(frozen=True)
class Threshold:
    """A roll whose rule counts the dice reaching a number rather than reading each face (a resolver declares
    it, `Resolver.counted`): `dice` dice of `sides` sides, each counting when it shows `reach` or more."""

    dice: int
    reach: int
    sides: int = 6

    @property
    def faces_reaching(self) -> int:
        return max(0, min(self.sides, self.sides - self.reach + 1))


@dataclass(frozen=True)
class Count:
    """Dice entered as the table counted them: how many were rolled and how many reached the roll's number."""

    dice: int
    reached: int


def count_odds(threshold: Threshold, reached: int) -> Fraction:
    """The exact chance that exactly `reached` of the threshold's dice reach it (binomial)."""
    n, p = threshold.dice, Fraction(threshold.faces_reaching, threshold.sides)
    if not 0 <= reached <= n:
        return Fraction(0)
    return comb(n, reached) * p**reached * (1 - p) ** (n - reached)
