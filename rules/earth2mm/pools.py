"""Arming dice pools against a Resilience value: hits from one roll, and their exact distribution.

"Arming is the number of dice that a sub-unit rolls to try and beat their target's Resilience value ... If
the Resilience value is matched or beaten, then that target takes a hit" (ARMING and RESILIENCE); "The +
bonus is a number added to one of the die that they roll" (HEAVY WEAPONS). Pools can be large, so the
distribution is counted by category (hit / lifted by the bonus / miss), never by listing every roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb


def faces_hitting(resilience: int, bonus: int = 0) -> tuple[int, int, int]:
    """Faces of a D6 that hit outright, that hit only with the bonus added, and that miss."""
    hit = sum(1 for f in range(1, 7) if f >= resilience)
    lifted = sum(1 for f in range(1, 7) if f < resilience <= f + bonus)
    return hit, lifted, 6 - hit - lifted


def hits(dice: Sequence[int], resilience: int, bonus: int = 0) -> int:
    """Hits of one roll; the bonus goes on the die it helps (a miss it lifts to a hit), if any."""
    n = sum(1 for d in dice if d >= resilience)
    if bonus and any(d < resilience <= d + bonus for d in dice):
        n += 1
    return n


def distribution(n: int, resilience: int, bonus: int = 0) -> dict[int, Fraction]:
    """Exact distribution of hits of n dice."""
    h, _lifted, f = faces_hitting(resilience, bonus)
    out: dict[int, Fraction] = {}
    total = 6**n
    for a in range(n + 1):
        ways = comb(n, a) * h**a
        rest = n - a
        all_miss = f**rest
        lifted = (6 - h) ** rest - all_miss  # some die in the bonus band
        if ways * all_miss:
            out[a] = out.get(a, Fraction(0)) + Fraction(ways * all_miss, total)
        if ways * lifted:
            out[a + 1] = out.get(a + 1, Fraction(0)) + Fraction(ways * lifted, total)
    return out


def rerolled(first: dict[int, Fraction], resilience: int, bonus: int) -> dict[int, Fraction]:
    """Distribution after every hit is rolled again and counts only if it hits again."""
    out: dict[int, Fraction] = {}
    for k, pk in first.items():
        for j, pj in distribution(k, resilience, bonus).items():
            out[j] = out.get(j, Fraction(0)) + pk * pj
    return out


def pool_hits(
    dice: Sequence[int], n: int, resilience: int, bonus: int, reroll: bool, bonus_on_reroll: bool
) -> tuple[int, int]:
    """(hits of the first roll, final hits) reading the first n dice, then the re-rolls from dice[n:]."""
    first = hits(dice[:n], resilience, bonus)
    if not reroll:
        return first, first
    return first, hits(dice[n : n + first], resilience, bonus if bonus_on_reroll else 0)


def pool_distribution(
    n: int, resilience: int, bonus: int, reroll: bool, bonus_on_reroll: bool
) -> dict[int, Fraction]:
    first = distribution(n, resilience, bonus)
    return rerolled(first, resilience, bonus if bonus_on_reroll else 0) if reroll else first
