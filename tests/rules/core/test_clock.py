"""The game clock (rules.core.clock) worked out from a log of timestamped entries: it charges the sides whose
step it is (both in a bound's shared steps), stops while the referee pauses it and after the game ends, gives
time back, counts limits per game and per turn, and reads the same log the same way every time."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from rules.core.acts import GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.clock import (
    Counted,
    Ended,
    Entry,
    Given,
    Limits,
    LimitsSet,
    Moved,
    Paused,
    Resumed,
    SideLimits,
    clock,
    clock_at,
    counted,
    ends_the_game,
    may_pause,
    out_of_time_refusal,
    refusal,
)
from rules.core.errors import RulesError
from rules.core.game import Book, GameRules
from rules.core.turn import Step
from rules.registry import get_game_rules

T0 = 1_795_633_200.0  # 2026-11-25 19:00 UTC, as the app's clock gives it
BOTH = ("attacker", "defender")


def at(seconds: float) -> float:
    return T0 + seconds


def _step(id: str, sides: tuple[str, ...] = ()) -> Step:
    return Step(id, 1, id, id, "test", id, sides=sides)


class Alternating(GameRules):
    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (_step("move"), _step("fire"))


class Bound(GameRules):
    book = Book(bound=True)

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (_step("plan", BOTH), _step("attacker-executes", ("attacker",)))


def used(entries: list[Entry], now: float, turn: GameRules | None = None) -> dict[str, float]:
    c = clock(entries, turn or Alternating(), None, at(now))
    return {s.side: s.used for s in c.sides}


def test_nothing_runs_before_the_game_starts() -> None:
    c = clock([LimitsSet(at(0), Limits.minutes(BOTH, 60))], Alternating(), None, at(500))
    assert c.running == () and not c.started
    assert [(s.used, s.remaining) for s in c.sides] == [(0, 3600), (0, 3600)]


def test_the_side_whose_turn_it_is_is_charged_and_the_next_turn_charges_the_other() -> None:
    log: list[Entry] = [Moved(at(10), 1, "attacker"), Moved(at(70), 1, "attacker", "fire")]
    assert used(log, 100) == {"attacker": 90, "defender": 0}
    log.append(Moved(at(100), 1, "defender", "move"))
    c = clock(log, Alternating(), None, at(130))
    assert c.running == ("defender",)
    assert {s.side: s.used for s in c.sides} == {"attacker": 90, "defender": 30}


def test_a_bounds_shared_step_charges_both_sides_its_own_step_one() -> None:
    log: list[Entry] = [Moved(at(0), 1, "attacker", "plan")]
    assert clock(log, Bound(), None, at(60)).running == BOTH
    assert used(log, 60, Bound()) == {"attacker": 60, "defender": 60}
    log.append(Moved(at(60), 1, "attacker", "attacker-executes"))
    assert used(log, 100, Bound()) == {"attacker": 100, "defender": 60}


def test_2mm_earth_1418s_planning_steps_charge_both_sides() -> None:
    """The real turn: the bound's planning steps are both sides' (its `Step.sides`)."""
    rules = get_game_rules("2mm-earth-1418")
    first = rules.steps(None)[0]
    c = clock([Moved(at(0), 1, "attacker", first.id)], rules, None, at(45))
    assert c.running == BOTH and [s.used for s in c.sides] == [45, 45]


def test_a_pause_stops_every_side_until_the_referee_resumes() -> None:
    log: list[Entry] = [Moved(at(0), 1, "attacker"), Paused(at(20))]
    c = clock(log, Alternating(), None, at(500))
    assert c.paused and c.running == () and c.side("attacker").used == 20
    # A step moved on while paused leaves the clock paused.
    log += [Moved(at(600), 1, "attacker", "fire"), Resumed(at(700))]
    c = clock(log, Alternating(), None, at(730))
    assert not c.paused and c.running == ("attacker",) and c.side("attacker").used == 50


def test_the_end_of_the_game_stops_the_clock() -> None:
    log: list[Entry] = [Moved(at(0), 1, "attacker"), Ended(at(40))]
    c = clock(log, Alternating(), None, at(4000))
    assert c.ended and c.running == () and c.side("attacker").used == 40


def test_time_given_back_counts_against_the_game_and_the_turn() -> None:
    log: list[Entry] = [
        LimitsSet(at(0), Limits.minutes(BOTH, 10, 2)),
        Moved(at(0), 1, "attacker"),
        Given(at(30), "attacker", 45),
    ]
    a = clock(log, Alternating(), None, at(150)).side("attacker")
    assert (a.used, a.given) == (150, 45)
    assert a.remaining == 600 + 45 - 150 and a.turn_remaining == 120 + 45 - 150
    # The next turn's limit starts afresh; what was given in the last one stays given in the game.
    log.append(Moved(at(150), 2, "attacker", "move"))
    a = clock(log, Alternating(), None, at(160)).side("attacker")
    assert (a.turn_used, a.turn_given, a.turn_remaining) == (10, 0, 110)
    assert a.remaining == 600 + 45 - 160


def test_a_side_over_its_game_limit_is_out_of_time_and_the_clock_keeps_counting() -> None:
    log: list[Entry] = [LimitsSet(at(0), Limits.minutes(BOTH, 1)), Moved(at(0), 1, "attacker")]
    c = clock(log, Alternating(), None, at(59))
    assert not c.side("attacker").out_of_time
    c = clock(log, Alternating(), None, at(75))
    a = c.side("attacker")
    assert a.out_of_time and a.remaining == -15 and c.running == ("attacker",)
    assert not c.side("defender").out_of_time
    # Time given back lifts the flag.
    a = clock([*log, Given(at(80), "attacker", 60)], Alternating(), None, at(80)).side("attacker")
    assert not a.out_of_time and a.remaining == 40


def test_a_side_over_its_turn_limit_is_out_of_time_for_that_turn() -> None:
    log: list[Entry] = [LimitsSet(at(0), Limits.minutes(BOTH, turn=1)), Moved(at(0), 1, "attacker")]
    assert clock(log, Alternating(), None, at(61)).side("attacker").out_of_time
    log += [Moved(at(61), 1, "defender"), Moved(at(90), 2, "attacker")]
    a = clock(log, Alternating(), None, at(100)).side("attacker")
    assert not a.out_of_time and a.turn_used == 10 and a.remaining is None


def test_the_same_log_read_again_gives_the_same_clock() -> None:
    """A restart reads the log again: nothing but the log and the moment asked decides the clock."""
    log: list[Entry] = [
        LimitsSet(at(0), Limits.minutes(BOTH, 30, 5)),
        Moved(at(5), 1, "attacker"),
        Paused(at(50)),
        Given(at(60), "defender", 30),
        Resumed(at(90)),
        Moved(at(120), 1, "defender"),
    ]
    assert clock(log, Alternating(), None, at(200)) == clock(list(log), Alternating(), None, at(200))


def test_a_log_whose_clock_steps_back_charges_nothing_for_that_interval() -> None:
    log: list[Entry] = [Moved(at(100), 1, "attacker"), Moved(at(90), 1, "attacker", "fire")]
    assert used(log, 110) == {"attacker": 10, "defender": 0}
    assert used(log, 50) == {"attacker": 0, "defender": 0}


def test_the_referees_acts_are_refused_where_they_make_no_sense() -> None:
    before = clock([], Alternating(), None, at(0))
    assert refusal(before, PauseClock()) is not None  # nothing runs yet
    running = clock([Moved(at(0), 1, "attacker")], Alternating(), None, at(1))
    assert refusal(running, PauseClock()) is None
    assert refusal(running, ResumeClock()) is not None
    paused = clock([Moved(at(0), 1, "attacker"), Paused(at(1))], Alternating(), None, at(2))
    assert refusal(paused, PauseClock()) is not None and refusal(paused, ResumeClock()) is None
    for refused in (
        refusal(before, PauseClock()),
        refusal(running, ResumeClock()),
        refusal(paused, PauseClock()),
    ):
        assert refused is not None and len(refused) <= 120
    assert refusal(running, GiveTime(side="defender", seconds=60)) is None
    with pytest.raises(RulesError) as bad_side:
        refusal(running, GiveTime(side="umpire", seconds=60))
    assert bad_side.value.field == "side"
    with pytest.raises(RulesError) as too_much:
        refusal(running, GiveTime(side="attacker", seconds=3601))
    assert too_much.value.field == "seconds"
    with pytest.raises(RulesError) as too_long:
        refusal(running, SetClockLimits(turn_seconds={"attacker": 0}))
    assert too_long.value.field == "turn_seconds"
    with pytest.raises(RulesError) as no_side:
        refusal(running, SetClockLimits(game_seconds={"umpire": 60}))
    assert no_side.value.field == "game_seconds"
    with pytest.raises(RulesError) as never:
        refusal(running, SetClockLimits(end_under_seconds=0))
    assert never.value.field == "end_under_seconds"
    assert (
        refusal(running, SetClockLimits(game_seconds={"attacker": 10_800}, turn_seconds={"defender": 30}))
        is None
    )
    ended = clock([Moved(at(0), 1, "attacker"), Ended(at(1))], Alternating(), None, at(2))
    assert (
        refusal(ended, SetClockLimits(game_seconds={"attacker": 60})) is not None
    )  # accepted before (hostile pass)


def test_after_the_end_the_clock_takes_no_act() -> None:
    """Issue 64's hostile pass: a game ended while its clock was paused took the referee's resume and time
    given, taking a side's out-of-time flag away from a result that stands."""
    ended = clock([Moved(at(0), 1, "attacker"), Paused(at(1)), Ended(at(2))], Alternating(), None, at(3))
    for act in (ResumeClock(), GiveTime(side="attacker", seconds=60), PauseClock(), SetClockLimits()):
        refused = refusal(ended, act)
        assert refused is not None and refused.startswith("The game is over"), act


# -- the clock the referee sets (issue 64): seconds, per side, and the rules tournaments add ------------------
def test_each_side_has_its_own_limits_in_seconds() -> None:
    limits = Limits({"attacker": 90, "defender": None}, {"defender": 45})
    log: list[Entry] = [LimitsSet(at(0), limits), Moved(at(0), 1, "attacker"), Moved(at(30), 1, "defender")]
    c = clock(log, Alternating(), None, at(50))
    a, d = c.side("attacker"), c.side("defender")
    assert (a.remaining, a.turn_remaining) == (60, None)
    assert (d.remaining, d.turn_remaining) == (None, 25)
    assert limits.side("attacker") == SideLimits(90, None)
    assert Limits.minutes(BOTH, 2, 1) == Limits(
        {"attacker": 120, "defender": 120}, {"attacker": 60, "defender": 60}
    )


def test_a_side_out_of_time_finishes_the_act_under_way_then_acts_no_more() -> None:
    log: list[Entry] = [
        LimitsSet(at(0), Limits({"attacker": 60}, finish_act=True)),
        Moved(at(10), 1, "attacker"),
    ]
    c = clock(log, Alternating(), None, at(100))
    assert c.side("attacker").out_at == at(70)  # ran out 60 s after its time began to run
    assert out_of_time_refusal(c, "attacker", 0) is None  # the act under way is finished
    refused = out_of_time_refusal(c, "attacker", 1)
    assert refused is not None and len(refused) <= 120 and refused.source == "firestep: the game clock"
    assert out_of_time_refusal(c, "defender", 5) is None  # the other side has time
    # Given time, it acts again; without the setting, the flag alone (the referee decides).
    given = clock([*log, Given(at(100), "attacker", 60)], Alternating(), None, at(101))
    assert given.side("attacker").out_at is None and out_of_time_refusal(given, "attacker", 3) is None
    flagged = clock(
        [LimitsSet(at(0), Limits({"attacker": 60})), Moved(at(10), 1, "attacker")],
        Alternating(),
        None,
        at(100),
    )
    assert flagged.side("attacker").out_of_time and out_of_time_refusal(flagged, "attacker", 3) is None


def test_a_limit_lowered_runs_a_side_out_as_it_is_set() -> None:
    log: list[Entry] = [Moved(at(0), 1, "attacker"), LimitsSet(at(100), Limits({"attacker": 30}))]
    assert clock(log, Alternating(), None, at(120)).side("attacker").out_at == at(100)


def test_the_game_ends_as_a_turn_starts_only_when_every_side_is_under_the_set_time() -> None:
    limits = Limits({"attacker": 600, "defender": 600}, end_under_seconds=300)
    log: list[Entry] = [LimitsSet(at(0), limits), Moved(at(0), 1, "attacker"), Moved(at(350), 1, "defender")]
    assert not ends_the_game(clock(log, Alternating(), None, at(600)))  # the defender: 350 s left
    assert ends_the_game(clock(log, Alternating(), None, at(651)))  # 250 s and 299 s
    unset = Limits({"attacker": 600, "defender": 600})
    assert not ends_the_game(clock([LimitsSet(at(0), unset), *log[1:]], Alternating(), None, at(900)))
    no_limit = Limits({"attacker": 600}, end_under_seconds=300)  # the defender has no limit: never under
    assert not ends_the_game(clock([LimitsSet(at(0), no_limit), *log[1:]], Alternating(), None, at(900)))


def test_a_player_stops_the_clock_only_for_a_dispute_where_the_settings_allow_it() -> None:
    allowed = clock(
        [LimitsSet(at(0), Limits(dispute_pause=True)), Moved(at(0), 1, "attacker")],
        Alternating(),
        None,
        at(5),
    )
    plain = clock([Moved(at(0), 1, "attacker")], Alternating(), None, at(5))
    assert may_pause(allowed, PauseClock(dispute=True), "defender")
    assert not may_pause(plain, PauseClock(dispute=True), "defender")
    assert not may_pause(allowed, PauseClock(), "defender") and not may_pause(
        allowed, ResumeClock(), "defender"
    )
    assert may_pause(plain, ResumeClock(), "referee")
    paused = clock([Moved(at(0), 1, "attacker"), Paused(at(5), dispute=True)], Alternating(), None, at(60))
    assert paused.paused and paused.dispute and paused.side("attacker").used == 5


_ENTRY = st.one_of(
    st.builds(
        Moved, st.just(0.0), st.integers(1, 3), st.sampled_from(BOTH), st.sampled_from(["", "move", "fire"])
    ),
    st.builds(Ended, st.just(0.0)),
    st.builds(Paused, st.just(0.0), st.booleans()),
    st.builds(Resumed, st.just(0.0)),
    st.builds(Given, st.just(0.0), st.sampled_from(BOTH), st.integers(1, 600)),
    st.builds(
        LimitsSet,
        st.just(0.0),
        st.builds(Limits.minutes, st.just(BOTH), *[st.one_of(st.none(), st.integers(1, 5))] * 2),
    ),
)


@given(
    steps=st.lists(st.tuples(st.integers(-5, 400), _ENTRY), max_size=25),
    split=st.integers(0, 25),
    now=st.integers(0, 9000),
)
@settings(max_examples=200, deadline=None)
def test_the_clock_read_on_from_where_it_was_kept_is_the_clock_read_whole(
    steps: list[tuple[int, Entry]], split: int, now: int
) -> None:
    """What a game keeps of its clock (`Counted`, stored with its last clock event, issue 93) read on over the
    entries since gives the clock the whole log gives, at any moment, a log whose clock steps back included, the
    kept state written out as JSON and read back as the app stores it."""
    log, t = [], 0
    for delta, e in steps:
        t += delta
        log.append(replace(e, at=at(t)))
    kept = TypeAdapter(Counted)
    before = kept.validate_json(kept.dump_json(counted(log[:split], Alternating(), None)))
    read_on = counted(log[split:], Alternating(), None, before)
    assert clock_at(read_on, Alternating(), None, at(now)) == clock(log, Alternating(), None, at(now))
