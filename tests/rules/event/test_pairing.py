"""Swiss pairing and table assignment (rules.event.pairing) as properties over random events: whole events
are played round by round with random results, each round paired from what the rounds before left."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.event.pairing import Entrant, Pair, Pairing, assign_tables, pair_round


@dataclass
class Record:
    club: str
    seed: int
    points: int = 0
    opponents: set[int] = field(default_factory=set)
    tables: set[int] = field(default_factory=set)
    byes: int = 0

    def entrant(self, pid: int) -> Entrant:
        return Entrant(
            pid,
            self.club,
            self.points,
            self.seed,
            frozenset(self.opponents),
            frozenset(self.tables),
            self.byes > 0,
        )


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], int, list[list[int]]]:
    """Clubs of the players (seed order; "" is no club), the rounds (at most half the count, so a pairing with
    no rematch always exists) and each round's results (0 a win for the higher-placed, 1 a draw, 2 a loss)."""
    n = draw(st.integers(min_value=2, max_value=15))
    clubs = draw(st.lists(st.sampled_from(["", "Ypres", "Arras", "Mons", "Loos"]), min_size=n, max_size=n))
    rounds = draw(st.integers(min_value=1, max_value=max(1, n // 2)))
    results = draw(
        st.lists(st.lists(st.integers(0, 2), min_size=n, max_size=n), min_size=rounds, max_size=rounds)
    )
    return clubs, rounds, results


def play(
    clubs: list[str], rounds: int, results: list[list[int]]
) -> list[tuple[dict[int, Record], list[Pair], int | None]]:
    """Each round: the records it was paired from, its pairs and its bye."""
    records = {i + 1: Record(club, i) for i, club in enumerate(clubs)}
    played = []
    for r in range(rounds):
        before = {
            k: Record(v.club, v.seed, v.points, set(v.opponents), set(v.tables), v.byes)
            for k, v in records.items()
        }
        pairing = pair_round([rec.entrant(pid) for pid, rec in records.items()], r + 1)
        played.append((before, list(pairing.pairs), pairing.bye))
        for i, p in enumerate(pairing.pairs):
            a, b = records[p.a], records[p.b]
            a.opponents.add(p.b)
            b.opponents.add(p.a)
            a.tables.add(p.table)
            b.tables.add(p.table)
            outcome = results[r][i]
            a.points += (3, 1, 0)[outcome]
            b.points += (0, 1, 3)[outcome]
        if pairing.bye is not None:
            records[pairing.bye].points += 3
            records[pairing.bye].byes += 1
    return played


@settings(max_examples=60, deadline=None)
@given(events())
def test_every_player_is_paired_once_a_round_with_a_bye_only_for_an_odd_count(event: tuple) -> None:
    for before, pairs, bye in play(*event):
        seen = Counter(pid for p in pairs for pid in (p.a, p.b))
        assert set(seen) | ({bye} if bye is not None else set()) == set(before)
        assert all(count == 1 for count in seen.values())
        assert (bye is not None) == (len(before) % 2 == 1)
        assert bye not in seen
        assert sorted(p.table for p in pairs) == list(range(1, len(pairs) + 1))


@settings(max_examples=60, deadline=None)
@given(events())
def test_no_rematch_and_no_second_bye(event: tuple) -> None:
    for before, pairs, bye in play(*event):
        for p in pairs:
            assert p.b not in before[p.a].opponents, f"{p.a} met {p.b} again"
        if bye is not None:
            assert before[bye].byes == 0, f"{bye} had a second bye"


def fewest_same_club_pairs(clubs: list[str]) -> int:
    """The fewest pairs of one club a first round can have: the biggest club's players beyond what everyone
    else can take (one of them takes the bye of an odd count)."""
    sizes = Counter(c for c in clubs if c)
    biggest = max(sizes.values(), default=0)
    n = len(clubs)
    if n % 2:
        biggest, n = max(0, biggest - 1), n - 1
    return max(0, 2 * biggest - n) // 2


@settings(max_examples=80, deadline=None)
@given(events())
def test_round_one_keeps_clubs_apart_where_it_can(event: tuple) -> None:
    clubs = event[0]
    before, pairs, _ = play(clubs, 1, event[2][:1])[0]
    same = sum(1 for p in pairs if before[p.a].club and before[p.a].club == before[p.b].club)
    assert same == fewest_same_club_pairs(clubs)


def back(before: dict[int, Record], pairs: list[Pair], assignment: tuple[int, ...]) -> int:
    """How many players sit at a table they played at before."""
    return sum(
        (t in before[p.a].tables) + (t in before[p.b].tables) for p, t in zip(pairs, assignment, strict=True)
    )


@settings(max_examples=60, deadline=None)
@given(events())
def test_no_player_back_at_a_table_where_it_can_be_avoided(event: tuple) -> None:
    for before, pairs, _ in play(*event):
        if len(pairs) > 6:
            continue  # the brute force below is for small rounds; the larger ones are held by the same code

        fewest = min(back(before, pairs, perm) for perm in itertools.permutations(range(1, len(pairs) + 1)))
        assert back(before, pairs, tuple(p.table for p in pairs)) == fewest


def test_swiss_pairs_by_points_and_the_bye_goes_to_the_last_placed() -> None:
    points = {1: 9, 2: 6, 3: 6, 4: 3, 5: 3, 6: 0, 7: 0}
    pairing = pair_round([Entrant(pid, points=pts, seed=pid) for pid, pts in points.items()], 4)
    assert pairing.bye == 7
    assert [(p.a, p.b) for p in pairing.pairs] == [(1, 2), (3, 4), (5, 6)]


def test_a_rematch_outweighs_points() -> None:
    entrants = [
        Entrant(1, points=6, opponents=frozenset({2})),
        Entrant(2, points=6, opponents=frozenset({1})),
        Entrant(3, points=0),
        Entrant(4, points=0),
    ]
    assert {(p.a, p.b) for p in pair_round(entrants, 3).pairs} == {(1, 3), (2, 4)}


def test_tables_keep_the_leading_pair_at_table_one_unless_a_player_was_there() -> None:
    first = (Entrant(1), Entrant(2))
    second = (Entrant(3), Entrant(4))
    assert assign_tables([first, second]) == [1, 2]
    assert assign_tables([(Entrant(1, tables=frozenset({1})), Entrant(2)), second]) == [2, 1]


def test_a_hand_swap_is_said_in_what_it_breaks_not_refused() -> None:
    from rules.event.pairing import Breach, NotInPairing, Pairing, breaches, swap_players, swap_tables

    ann = Entrant(1, "ypres", 3, 0, frozenset({2}), frozenset({1}))
    bob = Entrant(2, "ypres", 3, 1, frozenset({1}), frozenset({2}), had_bye=True)
    cat = Entrant(3, "arras", 0, 2, frozenset(), frozenset({2}))
    dan = Entrant(4, "arras", 0, 3, frozenset(), frozenset({1}))
    eve = Entrant(5, "", 0, 4, frozenset(), frozenset())
    drafted = Pairing((Pair(1, 1, 3), Pair(2, 2, 4)), 5)
    assert breaches([ann, bob, cat, dan, eve], drafted, 2) == [
        Breach("table", (1,), 1),
        Breach("table", (2,), 2),
    ]
    # Cat and Bob change places: Ann meets Bob again; Bob's table-2 pair moves to table 1, where Dan sat.
    edited = swap_tables(swap_players(drafted, 3, 2), 1, 2)
    assert edited == Pairing((Pair(2, 1, 2), Pair(1, 3, 4)), 5)
    assert breaches([ann, bob, cat, dan, eve], edited, 2) == [
        Breach("table", (4,), 1),
        Breach("rematch", (1, 2)),
        Breach("table", (2,), 2),
    ]
    # Bob takes the bye from Eve (his second); in round 1 Ann and Bob would be one club's.
    to_bye = swap_players(drafted, 2, 5)
    assert to_bye.bye == 2 and Pair(2, 5, 4) in to_bye.pairs
    assert Breach("bye", (2,)) in breaches([ann, bob, cat, dan, eve], to_bye, 2)
    assert Breach("club", (1, 2)) in breaches([ann, bob, cat, dan, eve], edited, 1)
    for swap, bad in (
        (lambda: swap_players(drafted, 1, 9), "second"),
        (lambda: swap_tables(drafted, 7, 1), "first"),
    ):
        try:
            swap()
        except NotInPairing as e:
            assert e.which == bad
        else:
            raise AssertionError("a swap of what the draft has not")


def rank_order(entrants: list[Entrant]) -> dict[int, int]:
    """Each player's place in the pairing's ranking: points, then seed."""
    ranked = sorted(entrants, key=lambda e: (-e.points, e.seed, e.id))
    return {e.id: i for i, e in enumerate(ranked)}


def weighed(entrants: list[Entrant], pairing: Pairing, round_number: int) -> tuple[int, ...]:
    """What the pairing's rules weigh, most first: rematches, a second bye, pairs of one club (round 1), the bye's
    place, the points apart and the places apart of the pairs (squared), then the players back at a table and
    the pairs' distance from their tables (squared)."""
    by_id, place = {e.id: e for e in entrants}, rank_order(entrants)
    pairs = sorted(pairing.pairs, key=lambda p: (place[p.a], place[p.b]))
    return (
        sum(p.b in by_id[p.a].opponents or p.a in by_id[p.b].opponents for p in pairs),
        pairing.bye is not None and by_id[pairing.bye].had_bye,
        sum(
            round_number == 1 and by_id[p.a].club != "" and by_id[p.a].club == by_id[p.b].club for p in pairs
        ),
        -place[pairing.bye] if pairing.bye is not None else 0,
        sum((by_id[p.a].points - by_id[p.b].points) ** 2 for p in pairs),
        sum((place[p.a] - place[p.b]) ** 2 for p in pairs),
        sum((p.table in by_id[p.a].tables) + (p.table in by_id[p.b].tables) for p in pairs),
        sum((i + 1 - p.table) ** 2 for i, p in enumerate(pairs)),
    )


def test_the_pruned_graphs_pair_as_well_as_every_pair_and_table() -> None:
    """After round 1 the matchings leave out the pairs and tables the best pairing cannot use (issue 93: 800
    players' round 3 took 3.5 s of CPU): on seeded random events of up to 60 players and 9 rounds (rematches
    forced in the small ones), each round's pairing weighs what the graphs of every pair and every table find,
    rule by rule, and after round 1 is the very same pairing (344 rounds of 424). Where two pairings weigh the
    same, the two graphs could each find another (the matching's order breaks such a tie, as an order of the
    entrants may): one round of 1,488 did so in a longer run of seeds, both weighing the same by every rule.
    Round 1's graph leaves out the club tier and the pairs of one club (`_fewest_club_pairs`), so its matching
    breaks ties its own way: 3 of these 80 round 1s are another pairing weighing the same."""
    rounds_paired = differ = 0
    for seed in range(80):
        rng = random.Random(seed)
        clubs = [rng.choice(["", "Ypres", "Arras"]) for _ in range(rng.randrange(2, 61))]
        records = {i + 1: Record(club, i) for i, club in enumerate(clubs)}
        for r in range(rng.randrange(2, 10)):
            entrants = [rec.entrant(pid) for pid, rec in records.items()]
            pruned = pair_round(entrants, r + 1)
            full = pair_round(entrants, r + 1, every_pair=True)
            assert weighed(entrants, pruned, r + 1) == weighed(entrants, full, r + 1), (seed, r + 1)
            rounds_paired, differ = rounds_paired + 1, differ + (r > 0 and pruned != full)
            for p in pruned.pairs:
                a, b = records[p.a], records[p.b]
                a.opponents.add(p.b)
                b.opponents.add(p.a)
                a.tables.add(p.table)
                b.tables.add(p.table)
                outcome = rng.randrange(3)
                a.points += (3, 1, 0)[outcome]
                b.points += (0, 1, 3)[outcome]
            if pruned.bye is not None:
                records[pruned.bye].points += 3
                records[pruned.bye].byes += 1
    assert rounds_paired > 350 and differ == 0, (rounds_paired, differ)


def test_round_one_leaves_out_only_pairs_the_best_pairing_cannot_hold() -> None:
    """Round 1 weighs clubs apart above points, and its matching leaves out the pairs `_club_reach` rules out
    (800 players' round 1 over every pair: 1 s of CPU on a slow machine, 4 to 35 s with clubs registered
    together): on 1,200 seeded layouts of 2 to 40 players (clubs mixed, registered together in runs or sorted,
    one club over half; some with points), it weighs what the graph of every pair finds, rule by rule. A
    reach one player narrower fails it (hundreds of layouts)."""
    for seed in range(1200):
        rng = random.Random(seed)
        n, names = rng.randrange(2, 41), ["", "Ypres", "Arras", "Mons", "Loos"][: rng.randrange(2, 6)]
        layout = seed % 4
        if layout == 0:
            clubs = [rng.choice(names) for _ in range(n)]
        elif layout == 1:
            clubs = sorted(rng.choice(names) for _ in range(n))
        elif layout == 2:
            clubs = ["Ypres" if rng.random() < 0.6 else rng.choice(names) for _ in range(n)]
        else:
            clubs = list(
                itertools.chain.from_iterable([rng.choice(names)] * rng.randrange(1, 8) for _ in range(n))
            )
        points = [rng.choice((0, 0, 1, 3)) if seed % 7 == 0 else 0 for _ in range(n)]
        entrants = [Entrant(i + 1, club, points[i], i) for i, club in enumerate(clubs[:n])]
        pruned, full = pair_round(entrants, 1), pair_round(entrants, 1, every_pair=True)
        assert weighed(entrants, pruned, 1) == weighed(entrants, full, 1), seed


def clubs_registered_together(rng: random.Random) -> tuple[list[str], list[int]]:
    """2 to 40 players' clubs (seed order; "" is no club) as a club registers, together, and some points: runs
    of random lengths up to the whole field, one club of a third to all of it among others, clubs of equal
    size one after another, or clubs sorted with a few players out of place."""
    n = rng.randrange(2, 41)
    names = ["", "Ypres", "Arras", "Mons", "Loos", "Vimy"][: rng.randrange(2, 7)]
    shape = rng.randrange(4)
    clubs: list[str] = []
    if shape == 0:
        while len(clubs) < n:
            clubs += [rng.choice(names)] * rng.randrange(1, n + 1)
    elif shape == 1:
        size, at = rng.randrange(n // 3, n + 1), rng.randrange(n + 1)
        others = [rng.choice(names[:1] + names[2:]) for _ in range(n - size)]
        clubs = others[:at] + ["Ypres"] * size + others[at:]
    elif shape == 2:
        many = rng.randrange(2, 6)
        for k in range(many + 1):
            clubs += [names[k % len(names)] + str(k)] * max(1, n // many)
    else:
        clubs = sorted((rng.choice(names) for _ in range(n)), key=lambda c: (rng.random() < 0.3, c))
    points = [rng.choice((0, 0, 1, 3)) for _ in range(n)] if rng.random() < 0.3 else [0] * n
    return clubs[:n], points


def test_round_one_pairs_clubs_registered_together_as_every_pair() -> None:
    """Round 1 with clubs registered together (a hostile pass, issue 93: 800 players with a club of 400 took
    18 to 30 s of CPU, 2 clubs of 400 or 5 of 160 4 to 5 s): its graph holds only pairings of the fewest pairs
    of one club and the pairs `_club_reach` leaves, and on 1,500 seeded layouts of 2 to 40 players, odd counts
    and points among them, it weighs what the graph of every pair finds, rule by rule. A reach one player
    narrower fails it (each bound of `_crossers_fit` and `_absorbed` one tighter: 19 to 881 layouts)."""
    for seed in range(1500):
        clubs, points = clubs_registered_together(random.Random(seed))
        entrants = [Entrant(i + 1, club, points[i], i) for i, club in enumerate(clubs)]
        pruned, full = pair_round(entrants, 1), pair_round(entrants, 1, every_pair=True)
        assert weighed(entrants, pruned, 1) == weighed(entrants, full, 1), seed


@pytest.mark.timed  # a CPU-time limit: run alone, after the parallel run (Makefile's pytest)
def test_the_largest_event_is_paired_within_a_second_of_cpu_a_round() -> None:
    """The project's rule, every request within 1 s of CPU, for the draft (issue 93): networkx's matching paired
    400 players' round 3 in 12 s and 800 players' round 1 in 4 s; rustworkx's over every pair 800 players'
    round 2 in 3.5 s. The largest event, 800 players (app.data.schemas_events.MAX_PLAYERS), five rounds with
    their results a fixed pattern, each pairing timed alone."""
    records = {i + 1: Record(("Ypres", "Arras", "Mons", "Loos", "")[i % 5], i) for i in range(800)}
    for r in range(5):
        started = time.process_time()
        pairing = pair_round([rec.entrant(pid) for pid, rec in records.items()], r + 1)
        spent = time.process_time() - started
        assert len(pairing.pairs) == 400 and spent <= 1.0, (r + 1, spent)
        for i, p in enumerate(pairing.pairs):
            a, b = records[p.a], records[p.b]
            assert p.b not in a.opponents
            a.opponents.add(p.b)
            b.opponents.add(p.a)
            a.tables.add(p.table)
            b.tables.add(p.table)
            a.points += (3, 1, 0)[(i * 7 + r) % 3]
            b.points += (0, 1, 3)[(i * 7 + r) % 3]


@pytest.mark.timed  # a CPU-time limit: run alone, after the parallel run (Makefile's pytest)
def test_round_one_of_the_largest_event_with_clubs_registered_together_is_paired_within_a_second_of_cpu() -> (
    None
):
    """The draft's 1 s of CPU for round 1 of 800 players when clubs register together (a hostile pass, issue
    93): a club of 400 first, in the middle or last took 10 to 29 s, 2 clubs of 400 4.4 s, 600 and 199 with a
    bye 1.8 s; each is paired in 0.1 to 0.3 s now, on a loaded machine. Still over: 5 to 9 clubs of equal
    size one after another, or runs of 20 to 250 of a club, take 0.7 to 2.2 s (their pairs cross far)."""
    mixed = [("Arras", "Mons", "Loos", "")[i % 4] for i in range(400)]
    layouts = {
        "a club of 400 first": ["Ypres"] * 400 + mixed,
        "a club of 400 in the middle": mixed[:200] + ["Ypres"] * 400 + mixed[200:],
        "a club of 400 last": mixed + ["Ypres"] * 400,
        "2 clubs of 400": ["Ypres"] * 400 + ["Arras"] * 400,
        "600 and 199, a bye": ["Ypres"] * 600 + ["Arras"] * 199,
    }
    for name, clubs in layouts.items():
        entrants = [Entrant(i + 1, club, 0, i) for i, club in enumerate(clubs)]
        started = time.process_time()
        pairing = pair_round(entrants, 1)
        spent = time.process_time() - started
        assert len(pairing.pairs) == len(clubs) // 2 and spent <= 1.0, (name, spent)
