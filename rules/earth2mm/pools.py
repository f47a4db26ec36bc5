"""Arming dice pools against a Resilience value: hits from one roll, and their exact distribution.

"Arming is the number of dice that a sub-unit rolls to try and beat their target's Resilience value ... If
the Resilience value is matched or beaten, then that target takes a hit" (ARMING and RESILIENCE); "The +
bonus is a number added to one of the die that they roll" (HEAVY WEAPONS): to the die it helps most, or
(the `designated` reading) to the first die only, marked before the roll. Pools can be large, so the
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


def hits(dice: Sequence[int], resilience: int, bonus: int = 0, designated: bool = False) -> int:
    """Hits of one roll; the bonus goes on the die it helps (a miss it lifts to a hit), if any, or with
    `designated` on the first die only."""
    n = sum(1 for d in dice if d >= resilience)
    lifts = dice[:1] if designated else dice
    if bonus and any(d < resilience <= d + bonus for d in lifts):
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
    dice: Sequence[int],
    n: int,
    resilience: int,
    bonus: int,
    reroll: bool,
    bonus_on_reroll: bool,
    designated: bool = False,
) -> tuple[int, int]:
    """(hits of the first roll, final hits) reading the first n dice, then the re-rolls from dice[n:], one per
    hit in the order of the dice that hit (so a designated die that hit is re-rolled first, and keeps its
    mark)."""
    first = hits(dice[:n], resilience, bonus, designated)
    if not reroll:
        return first, first
    marked_hit = designated and n > 0 and dice[0] + bonus >= resilience
    again = bonus if bonus_on_reroll and (marked_hit or not designated) else 0
    return first, hits(dice[n : n + first], resilience, again, designated)


def pool_distribution(
    n: int, resilience: int, bonus: int, reroll: bool, bonus_on_reroll: bool, designated: bool = False
) -> dict[int, Fraction]:
    if designated:
        return _designated_distribution(n, resilience, bonus, reroll, bonus_on_reroll)
    first = distribution(n, resilience, bonus)
    return rerolled(first, resilience, bonus if bonus_on_reroll else 0) if reroll else first


def _designated_distribution(
    n: int, resilience: int, bonus: int, reroll: bool, bonus_on_reroll: bool
) -> dict[int, Fraction]:
    """With the bonus on one marked die every die stands alone: n - 1 plain dice and the marked one, each
    hitting (and, re-rolled, hitting again) with its own chance."""
    h, lifted, _ = faces_hitting(resilience, bonus)
    plain, marked = Fraction(h, 6), Fraction(h + lifted, 6)
    if reroll:
        marked *= marked if bonus_on_reroll else plain
        plain *= plain
    if n == 0:
        return {0: Fraction(1)}
    out: dict[int, Fraction] = {}
    for k in range(n):
        pk = comb(n - 1, k) * plain**k * (1 - plain) ** (n - 1 - k)
        for hit, q in ((1, marked), (0, 1 - marked)):
            if pk * q:
                out[k + hit] = out.get(k + hit, Fraction(0)) + pk * q
    return out
