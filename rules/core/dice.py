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
    it, `Resolver.counted`): `dice` dice of `sides` sides, each counting when it shows `reach` or more. A bonus
    added to one die (`lift`: the lowest face it lifts to `reach`, 0 where there is none) counts one more when
    a die short of `reach` shows `lift` or more: any die, or with `first_only` the first (marked) die alone.
    With `again`, the dice reaching it are rolled again and only those reaching it again count."""

    dice: int
    reach: int
    sides: int = 6
    lift: int = 0
    first_only: bool = False
    again: bool = False

    @property
    def faces_reaching(self) -> int:
        return max(0, min(self.sides, self.sides - self.reach + 1))

    @property
    def faces_lifted(self) -> int:
        """Faces short of `reach` that the bonus lifts to it."""
        if not self.lift:
            return 0
        return max(0, min(self.sides, self.reach - 1) - max(1, self.lift) + 1)


@dataclass(frozen=True)
class Count:
    """Dice entered as the table counted them: how many were rolled and how many reached the roll's number, and
    where a bonus lifts one die, whether a die short of it was lifted (`Threshold.lift`); where the dice reaching
    it are rolled again, how many of them reached it `again` (`Threshold.again`)."""

    dice: int
    reached: int
    lifted: bool = False
    again: int | None = None


def count_odds(
    threshold: Threshold, reached: int, lifted: bool = False, again: int | None = None
) -> Fraction:
    """The exact chance of the count: exactly `reached` of the threshold's dice reach it (binomial), and where a
    bonus lifts a die, `lifted` as the count says (a die short of it lifted, any or the first alone); where the
    dice reaching it are rolled again, exactly `again` of them reach it again."""
    n, s = threshold.dice, threshold.sides
    p, b = Fraction(threshold.faces_reaching, s), Fraction(threshold.faces_lifted, s)
    if not 0 <= reached <= n:
        return Fraction(0)
    if threshold.again:  # no bonus with it (a resolver counting a re-roll declares none)
        if again is None or not 0 <= again <= reached or lifted:
            return Fraction(0)
        first = comb(n, reached) * p**reached * (1 - p) ** (n - reached)
        return first * comb(reached, again) * p**again * (1 - p) ** (reached - again)
    if not threshold.lift:
        return Fraction(0) if lifted else comb(n, reached) * p**reached * (1 - p) ** (n - reached)
    plain = 1 - p - b  # a face short of the number the bonus does not lift

    def k_of(m: int, k: int) -> Fraction:  # exactly k of m dice reach it
        return comb(m, k) * p**k * (1 - p) ** (m - k) if 0 <= k <= m else Fraction(0)

    if threshold.first_only:  # the first die: reaching, lifted or plain; the rest stand alone
        if lifted:
            return b * k_of(n - 1, reached)
        return (p * k_of(n - 1, reached - 1) if reached else Fraction(0)) + plain * k_of(n - 1, reached)
    short = n - reached
    none_lifted = comb(n, reached) * p**reached * plain**short
    return comb(n, reached) * p**reached * (1 - p) ** short - none_lifted if lifted else none_lifted
