"""Swiss pairing and table assignment for one round of a club event, as maximum-weight matchings
(rustworkx's, Edmonds' blossom algorithm compiled; networkx's in Python drafted round 3 of 400 players in 12 s of
CPU, issue 93) over integer weights, so the best pairing is found, not a greedy one.

A round's pairing, in order of what matters most:
1. No rematch: a pair that has met before is kept only when no pairing without one exists.
2. A bye for an odd count: one player sits out, never one who had a bye before where that can be avoided,
   and the one with the fewest event points (then the lowest seed) otherwise.
3. Round 1: no two players of one club where that can be avoided (an empty club is nobody's club).
4. Swiss by points: pairs of players as close in event points as can be (the sum of the squared differences
   is the least), then close in seed.
Each pair then gets a table so that no player sits at a table they played at before where that can be avoided,
the leading pairs at the low-numbered tables otherwise.

The organiser may then swap two players of the draft (one of them the bye's) or two pairs' tables by hand
(`swap_players`, `swap_tables`); what a hand pairing breaks is said by `breaches`, with the very tests the
matching weighs (`met`, `same_club`, `back_at`): one piece of code per idea, the hand pairing warned, not refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
import rustworkx as rx
from numpy.typing import NDArray

BYE = -1  # the matching's node that stands for the bye


@dataclass(frozen=True)
class Entrant:
    """A player as the next round's pairing sees them: their seed (the order they were registered), club,
    event points so far, whom they met, at which tables, and whether they had a bye."""

    id: int
    club: str = ""
    points: int = 0
    seed: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)
    tables: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False


@dataclass(frozen=True)
class Pair:
    table: int  # numbered from 1
    a: int  # the higher-placed player
    b: int


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[Pair, ...]
    bye: int | None  # the player who sits out, None for an even count


def met(a: Entrant, b: Entrant) -> bool:
    """A rematch: the two have played each other before."""
    return b.id in a.opponents or a.id in b.opponents


def same_club(a: Entrant, b: Entrant, round_number: int) -> bool:
    """Two players of one club in round 1 (an empty club is nobody's club)."""
    return round_number == 1 and bool(a.club) and a.club == b.club


def back_at(e: Entrant, table: int) -> bool:
    """The player played at this table before."""
    return table in e.tables


BreachKind = Literal["rematch", "club", "table", "bye"]


@dataclass(frozen=True)
class Breach:
    """What a (hand-edited) pairing breaks: a rematch or two of one club in round 1 (both players), a player
    back at a table (the player and the table), a second bye (the player)."""

    kind: BreachKind
    players: tuple[int, ...]
    table: int | None = None


def breaches(entrants: Sequence[Entrant], pairing: Pairing, round_number: int) -> list[Breach]:
    """Everything the pairing breaks that the drafting avoids where it can, table by table, then the bye."""
    by_id = {e.id: e for e in entrants}
    out: list[Breach] = []
    for p in sorted(pairing.pairs, key=lambda p: p.table):
        a, b = by_id[p.a], by_id[p.b]
        if met(a, b):
            out.append(Breach("rematch", (a.id, b.id)))
        if same_club(a, b, round_number):
            out.append(Breach("club", (a.id, b.id)))
        out.extend(Breach("table", (e.id,), p.table) for e in (a, b) if back_at(e, p.table))
    if pairing.bye is not None and by_id[pairing.bye].had_bye:
        out.append(Breach("bye", (pairing.bye,)))
    return out


class NotInPairing(LookupError):
    """A swap named a player or table the pairing has not: `which` is "first" or "second"."""

    def __init__(self, which: str) -> None:
        super().__init__(which)
        self.which = which


def swap_players(pairing: Pairing, first: int, second: int) -> Pairing:
    """The pairing with two players' places exchanged (a pair's seat or the bye); NotInPairing naming the one
    not in it."""
    seats = {pid for p in pairing.pairs for pid in (p.a, p.b)} | (
        {pairing.bye} if pairing.bye is not None else set()
    )
    for name, pid in (("first", first), ("second", second)):
        if pid not in seats:
            raise NotInPairing(name)
    swap = {first: second, second: first}
    pairs = tuple(replace(p, a=swap.get(p.a, p.a), b=swap.get(p.b, p.b)) for p in pairing.pairs)
    bye = swap.get(pairing.bye, pairing.bye) if pairing.bye is not None else None
    return Pairing(pairs, bye)


def swap_tables(pairing: Pairing, first: int, second: int) -> Pairing:
    """The pairing with two pairs' tables exchanged; NotInPairing naming the table not in it."""
    tables = {p.table for p in pairing.pairs}
    for name, t in (("first", first), ("second", second)):
        if t not in tables:
            raise NotInPairing(name)
    swap = {first: second, second: first}
    return Pairing(tuple(replace(p, table=swap.get(p.table, p.table)) for p in pairing.pairs), pairing.bye)


@dataclass(frozen=True)
class _Weights:
    """The matching's weights as tiers, each unit more than everything below it put together can add up to:
    rematch > a second bye > club (round 1) > who takes the bye > points apart > seeds apart."""

    seed: int
    points: int
    bye_rank: int
    club: int
    second_bye: int
    rematch: int
    base: int

    @classmethod
    def of(cls, n: int, max_points: int) -> _Weights:
        pairs = n // 2 + 1
        seed = 1
        points = n * n * pairs + 1
        bye_rank = (max_points * max_points * pairs + 1) * points
        club = (n + 1) * bye_rank
        second_bye = (pairs + 1) * club
        rematch = 2 * second_bye
        return cls(seed, points, bye_rank, club, second_bye, rematch, (pairs + 1) * rematch)


def pair_round(entrants: Sequence[Entrant], round_number: int, every_pair: bool = False) -> Pairing:
    """The pairing of round `round_number` (from 1) for these entrants. `every_pair`: the matching over every
    pair and every table, none left out (what the tests hold the pruned graphs to)."""
    if len({e.id for e in entrants}) != len(entrants) or any(e.id == BYE for e in entrants):
        raise ValueError("each entrant needs a distinct id, not -1")
    if not entrants:
        return Pairing((), None)
    n = len(entrants)
    w = _Weights.of(n, max(e.points for e in entrants) - min(e.points for e in entrants))
    ranked = sorted(entrants, key=lambda e: (-e.points, e.seed, e.id))
    # The graph's node i is ranked[i], node n the bye; only the pairs the best pairing can hold are its edges
    # (`_reach`): over every pair 800 players' round 1 was 319,600 edges and 1 s of CPU on a slow machine.
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + 1 if n % 2 else n))
    seed_cost = [d * d * w.seed for d in range(n)]
    ids = [e.id for e in ranked]
    points = [e.points for e in ranked]
    clubs = [e.club if round_number == 1 else "" for e in ranked]  # same_club's test, a string compare
    any_met = any(e.opponents for e in ranked)
    # Round 1's fewest pairs of one club, where nobody met or had a bye (`_fewest_club_pairs`): the graph holds
    # only pairings with that many, so the club tier is left out of the weights (with it, rustworkx's matching
    # took 18 to 30 s of CPU on 800 players with a club of 400 registered together, 0.1 s without).
    settled = round_number == 1 and not (every_pair or any_met or any(e.had_bye for e in ranked))
    big = _fewest_club_pairs(clubs) if settled else None
    edges: list[tuple[int, int, int]] = []
    add = edges.append
    for i, j in _reach(ranked, clubs, any_met, round_number, every_pair, big):
        one_club = bool(clubs[i]) and clubs[i] == clubs[j]
        if big is not None and (big not in (clubs[i], clubs[j]) if big else one_club):
            continue  # a pair the fewest pairs of one club rule out
        gap = points[i] - points[j]
        weight = w.base - gap * gap * w.points - seed_cost[j - i]
        if one_club and big is None:
            weight -= w.club
        if any_met and met(ranked[i], ranked[j]):
            weight -= w.rematch
        add((i, j, weight))
    if n % 2:
        for i, e in enumerate(ranked):
            if big and clubs[i] != big:
                continue  # over half of one club, one of it sits out
            # The fewest points, then the lowest seed: the last-ranked has the least to lose by sitting out.
            add((i, n, w.base - (n - 1 - i) * w.bye_rank - (w.second_bye if e.had_bye else 0)))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    bye: int | None = None
    pairs: list[tuple[int, int]] = []
    for u, v in matched:
        if n in (u, v):
            bye = ids[v if u == n else u]
            continue
        pairs.append((min(u, v), max(u, v)))  # by rank: the higher-placed first
    pairs.sort()
    tables = assign_tables([(ranked[a], ranked[b]) for a, b in pairs], every_table=every_pair)
    return Pairing(tuple(Pair(t, ids[a], ids[b]) for (a, b), t in zip(pairs, tables, strict=True)), bye)


def _fewest_club_pairs(clubs: Sequence[str]) -> str:
    """In a round 1 where nobody met or had a bye, the pairings of the fewest pairs of one club, as a rule on the
    pairs and the bye: the club X over half the players if there is one (its players are each paired with one
    not of X, or paired within X, or sit out), else "" (no pair of one club, anyone sits out). Every pairing
    the rule allows has as many pairs of one club, the fewest, so the matching need not weigh them.

    Why: say X has s players of the n, the largest club. If s <= n - s, a pairing with no pair of one club
    exists, and with any player sitting out for an odd n (list the players club by club, X first, and pair the
    k-th with the (k + n // 2)-th; a bye not of X leaves s <= n - 1 - s, as s <= n - s and n is odd). If
    s > n - s, a pairing with x pairs of a player of X and one not of X, and b = 1 if a player of X sits out
    (else 0), has at least (s - x - b) / 2 pairs within X, the fewest (s - (n - s) - n % 2) / 2 just when each
    of the n - s others is paired with one of X (x = n - s) and, for an odd n, one of X sits out (b = 1); and
    then it has no other pair of one club. So the best pairing, which has the fewest pairs of one club (the
    club tier outweighs all below it; above it, rematch and a second bye weigh nothing here), is among those
    the rule allows, and each pairing the rule allows has that fewest: over s > n - s, its n - s others each
    take one of X (their only pairs), and one of X sits out for an odd n, which leaves (s - (n - s) - n % 2) / 2
    pairs within X."""
    sizes = Counter(c for c in clubs if c)
    if not sizes:
        return ""
    club, s = sizes.most_common(1)[0]
    return club if s > len(clubs) - s else ""


def _reach(
    ranked: Sequence[Entrant],
    clubs: Sequence[str],
    any_met: bool,
    round_number: int,
    every_pair: bool,
    big: str | None = None,
) -> Iterable[tuple[int, int]]:
    """The pairs of ranks i < j the matching weighs: every pair for `every_pair` (and in a round 1 with a
    rematch to avoid), else only those the best pairing can hold (`_blocked` after round 1, `_club_reach` in it,
    `big` as `_fewest_club_pairs` says, or None where nobody's club count is settled)."""
    n = len(ranked)
    first, second = np.triu_indices(n, 1)
    if not every_pair and (round_number > 1 or not any_met):
        between = second - first - 1 - n % 2  # the players ranked between the two, the bye not counted
        if round_number > 1:
            blocked = np.array(_blocked(ranked), dtype=np.int64)
            keep = between <= blocked[first] + blocked[second]
        else:
            keep = _club_reach(clubs, first, second, between, big)
        first, second = first[keep], second[keep]
    return zip(first.tolist(), second.tolist(), strict=True)


def _blocked(ranked: Sequence[Entrant]) -> list[int]:
    """After round 1, for each rank, twice its player's opponents among these entrants: ranks i < j are paired by
    the best pairing only if j - i - 1 <= blocked[i] + blocked[j] + (1 for an odd count, the bye).

    Why: after round 1 a pair's weight is its rematch, then its points and ranks apart, each squared, and the
    points fall as the rank grows. Take a pair (i, j) of the best pairing and a player c ranked between them,
    not the bye, paired with d. Of the four, the two ranked first paired and the two ranked last paired are as
    close in points or closer, and strictly closer in rank, squared, than (i, j) and (c, d): a better pairing,
    unless one of the two new pairs is a rematch; each new pair holds i or j, and c or d. So an opponent x of
    i or of j blocks two players between them at most (x, and the one paired with x), and every other player
    between them would make the pairing better."""
    position = {e.id: i for i, e in enumerate(ranked)}
    rivals: list[set[int]] = [set() for _ in ranked]
    for i, e in enumerate(ranked):
        for other in e.opponents:
            j = position.get(other)
            if j is not None and j != i:
                rivals[i].add(j)
                rivals[j].add(i)
    return [2 * len(r) for r in rivals]


def _club_reach(
    clubs: Sequence[str],
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    between: NDArray[np.int64],
    big: str | None,
) -> NDArray[np.bool_]:
    """In round 1 (nobody met), which pairs of ranks (first[k] < second[k], `between` the players ranked between
    them but the bye) the best pairing can hold: two of one club only side by side; i of club A and j of
    club B (A != B, or either without one) only if the players between them can each be paired across (i, j)
    as below (`_crossers_fit`), and, where the fewest pairs of one club are settled (`big`, not None:
    `_fewest_club_pairs`), those before i and after j can be paired as `_absorbed` says.

    Why: a pair's weight is its club first, then points and ranks apart, each squared; the points fall as the
    rank grows. Take two pairs of the best pairing, (i, j) and (c, d), c of club C and d of D. If one lies
    inside the other (i < c, d < j), either other pairing of the four is as close in points or closer and
    strictly closer in rank; if they cross (i < c < j < d), pairing the two ranked first and the two ranked
    last is. Each is a better pairing unless it has more pairs of one club. Neither (i, j) nor (c, d) is then
    of one club, else the other pairing would need both its pairs of one club (A = C and B = D, or A = D and
    B = C), which makes (i, j) and (c, d) both of one club, as many. So no pair lies inside another (each
    other pairing gaining a pair of one club takes A = C or B = D, and A = D or B = C: one of each makes
    A = B or C = D), two of one club have nobody between them, and two crossing pairs i < c < j < d are each
    of two clubs with A = C or B = D. So each player c between i and j but the bye is paired across (i, j):
    c of A with one not of A after j, c of B with one not of B before i, c of another club with one of B
    after j or one of A before i. And any two pairs crossing (i, j) from the right cross each other (neither
    lies inside the other), so share their first's club or their last's: if one of another club is paired
    after j, with one of B, each of A paired after j is paired with one of B too; likewise before i, A's."""
    names = {club: k for k, club in enumerate(sorted({c for c in clubs if c}))}
    none = len(names)  # the row of players without a club, which counts nobody
    code = np.array([names.get(c, none) for c in clubs], dtype=np.int64)
    n = len(clubs)
    counts = np.zeros((none + 1, n + 1), dtype=np.int64)  # counts[k, x]: club k's players ranked before x
    clubbed = np.flatnonzero(code < none)
    counts[code[clubbed], clubbed + 1] = 1
    counts = counts.cumsum(axis=1)
    a, b = code[first], code[second]
    a_between = counts[a, second] - counts[a, first + 1]
    b_between = counts[b, second] - counts[b, first + 1]
    others = second - first - 1 - a_between - b_between
    room = (
        counts[b, n] - counts[b, second + 1],  # B's players after j
        counts[a, first],  # A's players before i
        (n - 1 - second) - (counts[a, n] - counts[a, second + 1]),  # the players after j not of A
        first - counts[b, first],  # the players before i not of B
    )
    fits = _crossers_fit(a_between, b_between, others, *room)
    if n % 2:  # the bye, paired with nobody, may be any one of those between
        fits |= _crossers_fit(np.maximum(a_between - 1, 0), b_between, others, *room)
        fits |= _crossers_fit(a_between, np.maximum(b_between - 1, 0), others, *room)
        fits |= _crossers_fit(a_between, b_between, np.maximum(others - 1, 0), *room)
    if big is not None and none:
        row = names.get(big, -1)
        fits &= _absorbed(counts[:-1], first, second, a, b, a_between, b_between, row, n % 2)
    one_club = (a == b) & (a < none)
    return np.where(one_club, between <= 0, fits)


def _crossers_fit(
    a: NDArray[np.int64],
    b: NDArray[np.int64],
    o: NDArray[np.int64],
    b_after: NDArray[np.int64],
    a_before: NDArray[np.int64],
    not_a_after: NDArray[np.int64],
    not_b_before: NDArray[np.int64],
) -> NDArray[np.bool_]:
    """Whether `a` players of A, `b` of B and `o` of other clubs, all between i (of A) and j (of B), can each be
    paired across (i, j) as `_club_reach` says, each with a player of their own: the o split into o_r paired
    after j (with B's) and o_l before i (with A's); after j, a + o_r <= B's there if o_r > 0, else a <= those
    not of A there; before i, b + o_l <= A's there if o_l > 0, else b <= those not of B there."""
    right_free = a <= not_a_after  # none of another club paired after j
    left_free = b <= not_b_before
    all_right = (a + o <= b_after) & left_free
    all_left = (b + o <= a_before) & right_free
    split = (o >= 2) & (a < b_after) & (b < a_before) & ((b_after - a) + (a_before - b) >= o)
    return (right_free & left_free & (o == 0)) | all_right | all_left | split


def _absorbed(
    counts: NDArray[np.int64],
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    a: NDArray[np.int64],
    b: NDArray[np.int64],
    a_between: NDArray[np.int64],
    b_between: NDArray[np.int64],
    big: int,
    odd: int,
) -> NDArray[np.bool_]:
    """Where the fewest pairs of one club are settled (`_fewest_club_pairs`: `big` is the row of its club X in
    `counts`, [club, x] its players ranked before x, or -1 for no pair of one club), which pairs (i, j) leave
    the players before i and after j a pairing: none of them is paired across (i, j) (a pair inside another),
    so those before i are paired among themselves, with one between i and j (from the left, as `_club_reach`
    says: one of A, or with one of B) or sit out; likewise after j.

    With no pair of one club: of the p players before i, m of a club C, at least 2m - p of C (one fewer for a
    bye) are paired with one between; that takes a player between not of A if C is A, is none if C is B (two
    of B), and one of B between otherwise. Likewise after j (C is B: one not of B; C is A: none; else an A).

    With X over half: each player not of X is paired with one of X (the bye is one of X), so the others before
    i outnumber X's there by no more than X's players between; none if i is of X and j is not (a pair from
    the left holds one of A or of B, and one not of X of A = X is none). Likewise after j."""
    n = counts.shape[1] - 1
    inside = second - first - 1
    if big < 0:
        after = counts[:, n : n + 1] - counts[:, 1:]  # [club, x]: its players ranked after x
        lead, most = counts.argmax(axis=0)[first], counts.max(axis=0)[first]
        cap = np.where(lead == a, inside - a_between, np.where(lead == b, 0, b_between))
        fits = 2 * most - first - odd <= cap
        lead, most = after.argmax(axis=0)[second], after.max(axis=0)[second]
        cap = np.where(lead == b, inside - b_between, np.where(lead == a, 0, a_between))
        return fits & (2 * most - (n - 1 - second) - odd <= cap)
    x_before, x_after = counts[big, first], counts[big, n] - counts[big, second + 1]
    x_inside = counts[big, second] - counts[big, first + 1]
    cap_before = np.where((b == big) | (a != big), x_inside, 0)
    cap_after = np.where((a == big) | (b != big), x_inside, 0)
    before_fits = first - 2 * x_before <= cap_before
    return before_fits & (n - 1 - second - 2 * x_after <= cap_after)


def assign_tables(
    pairs: Sequence[tuple[Entrant, Entrant]], tables: Iterable[int] | None = None, every_table: bool = False
) -> list[int]:
    """The table of each pair (in the order given, leading pair first): the fewest players back at a table
    they played at, then each pair as near its place in the order as can be.

    With as many tables as pairs (not `every_table`), pair i meets table j in the graph only if |i - j| is at
    most the tables pair i sat at plus the pairs that sat at table j. Why: say the best assignment gives pair i
    table j > i. Of the pairs after i, at least j - i have tables before j; any such pair k, at table t, could
    swap tables with i, both nearer their places ((i - j)^2 + (k - t)^2 falls by 2 (k - i)(j - t)), a better
    assignment, unless pair i sat at t before (one k a table of i's) or pair k at j (one k a pair that sat at
    j); likewise for j < i. 400 pairs' round 3 was 160,000 edges, 0.5 s of CPU."""
    numbers = list(tables) if tables is not None else list(range(1, len(pairs) + 1))
    if len(numbers) < len(pairs):
        raise ValueError("fewer tables than pairs")
    if not pairs:
        return []
    n = len(numbers)
    repeat = n * n * n + 1
    base = repeat * (2 * len(pairs) + 1)
    # Node i is the i-th pair, node len(pairs) + j the j-th table.
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(pairs) + n))
    tables_of = [a.tables | b.tables for a, b in pairs]
    sat = [0] * n  # the pairs that sat at each table before, by its place in `numbers`
    place = {t: j for j, t in enumerate(numbers)}
    for been in tables_of:
        for t in been:
            if t in place:
                sat[place[t]] += 1
    pruned = n == len(pairs) and not every_table
    most = max(sat)
    edges: list[tuple[int, int, int]] = []
    add = edges.append
    for i, (a, b) in enumerate(pairs):
        been, first = tables_of[i], len(pairs)
        mine = sum(1 for t in been if t in place)
        near = range(max(0, i - mine - most), min(n, i + mine + most + 1)) if pruned else range(n)
        for j in near:
            t = numbers[j]
            if pruned and abs(i - j) > mine + sat[j]:
                continue
            weight = base - (i - j) * (i - j)
            if t in been:
                weight -= (back_at(a, t) + back_at(b, t)) * repeat
            add((i, first + j, weight))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    out = [0] * len(pairs)
    for u, v in matched:
        pair, table = min(u, v), max(u, v)
        out[pair] = numbers[table - len(pairs)]
    return out
