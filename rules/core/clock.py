"""The game clock, chess-clock style, worked out from the game's log (issue 55): no timer runs anywhere, so the
same log read at the same moment gives the same clock, on any device and after any restart.

Time runs for the sides whose step it is, as the rule set's turn says (rules.core.game.acting: the side
whose turn it is; both sides in a bound's shared steps), from the moment the game starts until it ends. Only
the referee stops it (`PauseClock`, `ResumeClock`) or gives time back (`GiveTime`); each is an event of the
log. Each side's limit for the whole game and for each turn (seconds, per side; `SetClockLimits`, or chosen as
the game is created) are optional: the limits as last set hold for the whole game.

A side whose time has run out is flagged out of time, to everyone; the clock keeps counting (how far over is
shown) and, by default, nothing else happens by itself: as at a club table, the referee decides what follows
(more time given, the game ended). The rules a tournament adds are settings of the same act (`Limits`): a
player may stop the clock for a dispute, which only the referee restarts (`dispute_pause`); a side out of time
finishes the act under way and then acts no more (`finish_act`: `out_of_time_refusal`); the game ends as a turn
starts with both sides under so much time left (`end_under_seconds`: `ends_the_game`). No rule book firestep
plays prints a clock: these are firestep's own rules, cited as `SOURCE`.

Pure: the log's entries come in with their times (`Entry.at`, seconds on the app's clock: POSIX time) and the
present moment as `now`, the same way; nothing here reads a clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from rules.core.acts import Act, GiveTime, PauseClock, ResumeClock, SetClockLimits
from rules.core.errors import Refusal, RulesError
from rules.core.game import GameRules, Position, acting

SOURCE = "firestep: the game clock"
# The bounds of what the referee may set or give (the app's, no book's): a day's game, a four-hour turn, an hour
# given back at a time.
MAX_GAME_MINUTES = 24 * 60
MAX_TURN_MINUTES = 4 * 60
MAX_GIVEN_SECONDS = 60 * 60


@dataclass(frozen=True)
class SideLimits:
    """One side's time, in seconds: for the whole game and for each turn (None: no limit)."""

    game_seconds: int | None = None
    turn_seconds: int | None = None


@dataclass(frozen=True)
class Limits:
    """The clock as set: each side's seconds for the game and for each turn, by side (a side not named, or
    None: no limit); `dispute_pause`: a player may stop the clock for a dispute (only the referee restarts it);
    `finish_act`: a side out of time finishes the act under way, then acts no more until given time;
    `end_under_seconds`: the game ends as a turn starts with every side under this much game time left."""

    game_seconds: Mapping[str, int | None] = field(default_factory=dict)
    turn_seconds: Mapping[str, int | None] = field(default_factory=dict)
    dispute_pause: bool = False
    finish_act: bool = False
    end_under_seconds: int | None = None

    @classmethod
    def minutes(cls, sides: Sequence[str], game: int | None = None, turn: int | None = None) -> Limits:
        """The same whole minutes for every side (the lobby's and the first API's shape)."""
        return cls(
            {s: None if game is None else game * 60 for s in sides},
            {s: None if turn is None else turn * 60 for s in sides},
        )

    @classmethod
    def of(cls, act: SetClockLimits) -> Limits:
        return cls(
            dict(act.game_seconds),
            dict(act.turn_seconds),
            act.dispute_pause,
            act.finish_act,
            act.end_under_seconds,
        )

    def side(self, side: str) -> SideLimits:
        return SideLimits(self.game_seconds.get(side), self.turn_seconds.get(side))

    @cached_property
    def limited(self) -> bool:
        """Whether any side has a limit, for the game or a turn (a clock with none runs no side out of time)."""
        return any(v is not None for v in (*self.game_seconds.values(), *self.turn_seconds.values()))

    def checked(self, sides: Sequence[str]) -> Limits:
        """These limits, or a RulesError naming the field out of its bounds (or a side not of the game)."""
        bounds = (
            ("game_seconds", MAX_GAME_MINUTES * 60, self.game_seconds),
            ("turn_seconds", MAX_TURN_MINUTES * 60, self.turn_seconds),
        )
        for name, top, by_side in bounds:
            for side, value in by_side.items():
                if side not in sides:
                    raise RulesError(name, "a limit is set for a side of the game", list(sides))
                if value is not None and not 1 <= value <= top:
                    raise RulesError(name, f"a limit is 1 to {top} seconds, or none", [f"1..{top}"])
        top = MAX_GAME_MINUTES * 60
        if self.end_under_seconds is not None and not 1 <= self.end_under_seconds <= top:
            raise RulesError("end_under_seconds", f"1 to {top} seconds, or none", [f"1..{top}"])
        return self


# -- the log as the clock reads it ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One event of the game's log, as the clock reads it: when it was logged (POSIX seconds)."""

    at: float


@dataclass(frozen=True)
class Moved(Entry):
    """The game's turn stands here from now on: the game started, a step or a turn began (`step`: the step's
    id as logged; one the turn does not know keeps the step the game was in, else its first)."""

    turn: int
    side: str
    step: str = ""


@dataclass(frozen=True)
class Ended(Entry):
    """The game is over: the clock stops for good."""


@dataclass(frozen=True)
class Paused(Entry):
    """The clock was paused (`dispute`: for a dispute)."""

    dispute: bool = False


@dataclass(frozen=True)
class Resumed(Entry):
    """The referee resumed the clock."""


@dataclass(frozen=True)
class Given(Entry):
    """The referee gave `seconds` back to `side`."""

    side: str
    seconds: int


@dataclass(frozen=True)
class LimitsSet(Entry):
    """The clock's limits from now on (at the game's creation, or by the referee)."""

    limits: Limits


# -- the clock -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SideClock:
    """One side's clock: the seconds charged to it and given back, in the game and in the current turn; what
    remains of each limit (negative: over by that much; None: no limit); whether its time has run out."""

    side: str
    used: float = 0.0
    given: float = 0.0
    turn_used: float = 0.0
    turn_given: float = 0.0
    remaining: float | None = None
    turn_remaining: float | None = None
    out_at: float | None = None  # when its time last ran out (None: it has time left)

    @property
    def out_of_time(self) -> bool:
        return any(r is not None and r <= 0 for r in (self.remaining, self.turn_remaining))


@dataclass(frozen=True)
class Clock:
    """The game clock as of `as_of`: the sides it runs for now (none while paused, before the game starts and
    after it ends), whether it is paused (and for a dispute), the turn the turn limit counts, the limits and each side's
    clock."""

    as_of: float
    running: tuple[str, ...] = ()
    paused: bool = False
    dispute: bool = False
    started: bool = False
    ended: bool = False
    turn: int = 0
    limits: Limits = field(default_factory=Limits)
    sides: tuple[SideClock, ...] = ()

    def side(self, side: str) -> SideClock:
        return next(s for s in self.sides if s.side == side)


@dataclass
class Counted:
    """The clock as the log has been read up to its last entry: where the turn stands, whether the clock is paused
    or the game over, the limits, and what each side has used and been given (in the game, and in each turn, by
    turn). What a game keeps as its clock (app.services.clock: stored with its last clock event, so a read goes on
    from it over the entries since, not over the whole log); `clock_at` makes the clock of it as of a moment."""

    at: float | None = None  # the last entry's time (None: no entry read)
    position: Position | None = None
    paused: bool = False
    dispute: bool = False
    ended: bool = False
    limits: Limits = field(default_factory=Limits)
    out_at: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    given: dict[str, float] = field(default_factory=dict)
    turn_used: dict[int, dict[str, float]] = field(default_factory=dict)  # by turn, then side
    turn_given: dict[int, dict[str, float]] = field(default_factory=dict)

    def copied(self) -> Counted:
        """A copy of its own, to be read on (never the one given: a stored or kept clock stays as it was)."""
        return replace(
            self,
            out_at=dict(self.out_at),
            used=dict(self.used),
            given=dict(self.given),
            turn_used={turn: dict(by_side) for turn, by_side in self.turn_used.items()},
            turn_given={turn: dict(by_side) for turn, by_side in self.turn_given.items()},
        )


class _Counting:
    """The clock as the log is read: its rules, and a `Counted` of its own (`c`), read on."""

    def __init__(self, rules: GameRules, period: str | None, start: Counted) -> None:
        self.rules, self.period = rules, period
        self.c = start.copied()

    def running(self) -> tuple[str, ...]:
        if self.c.position is None or self.c.paused or self.c.ended:
            return ()
        sides = self.rules.book.sides
        return tuple(s for s in acting(self.rules, self.period, self.c.position) if s in sides)

    def until(self, at: float) -> None:
        """Charge the running sides the time from the last entry to `at` (none if the log's clock stepped
        back)."""
        since = self.c.at if self.c.at is not None else at
        if self.c.at is not None and at > self.c.at and self.c.position is not None:
            seconds = at - self.c.at
            this_turn = self.c.turn_used.setdefault(self.c.position.turn, {})
            for side in self.running():
                self.c.used[side] = self.c.used.get(side, 0.0) + seconds
                this_turn[side] = this_turn.get(side, 0.0) + seconds
        if self.c.at is None or at > self.c.at:
            self.c.at = at
        self._ran_out(since)

    def _ran_out(self, since: float) -> None:
        """Note when each side's time ran out: as it ran, `remaining` seconds before now, but not before
        `since` (the last entry read: a limit lowered runs a side out as it is set)."""
        # A clock of no limit (most, an event's games among them): this, twice an entry read, was the most of the
        # organiser's board's CPU mid-round (issue 93).
        if not self.c.limits.limited:
            self.c.out_at.clear()
            return
        for side in self.rules.book.sides:
            left = [r for r in self._left(side) if r is not None]
            if left and min(left) <= 0:
                self.c.out_at.setdefault(side, max(since, (self.c.at or since) + min(left)))
            else:
                self.c.out_at.pop(side, None)

    def read(self, entry: Entry) -> None:
        self.until(entry.at)
        if isinstance(entry, Moved):
            self.c.position = self._position(entry)
        elif isinstance(entry, Ended):
            self.c.ended = True
        elif isinstance(entry, Paused | Resumed):
            self.c.paused = isinstance(entry, Paused)
            self.c.dispute = isinstance(entry, Paused) and entry.dispute
        elif isinstance(entry, Given):
            self.c.given[entry.side] = self.c.given.get(entry.side, 0.0) + entry.seconds
            this_turn = self.c.turn_given.setdefault(self.c.position.turn if self.c.position else 0, {})
            this_turn[entry.side] = this_turn.get(entry.side, 0.0) + entry.seconds
        elif isinstance(entry, LimitsSet):
            self.c.limits = entry.limits
        self._ran_out(self.c.at if self.c.at is not None else entry.at)

    def _position(self, moved: Moved) -> Position:
        ids = [s.id for s in self.rules.steps(self.period)]
        if moved.step in ids:
            return Position(moved.turn, moved.side, ids.index(moved.step))
        was = self.c.position
        same = was is not None and (was.turn, was.side) == (moved.turn, moved.side)
        return Position(moved.turn, moved.side, was.step if was is not None and same else 0)

    def _left(self, side: str) -> tuple[float | None, float | None]:
        """What remains of the side's game and turn limits (None: no limit)."""
        now = self.c.position.turn if self.c.position else 0
        limits = self.c.limits.side(side)
        game, turn = limits.game_seconds, limits.turn_seconds
        used, given = self.c.used.get(side, 0.0), self.c.given.get(side, 0.0)
        turn_used = self.c.turn_used.get(now, {}).get(side, 0.0)
        turn_given = self.c.turn_given.get(now, {}).get(side, 0.0)
        return (
            None if game is None else game + given - used,
            None if turn is None else turn + turn_given - turn_used,
        )

    def side(self, side: str) -> SideClock:
        now = self.c.position.turn if self.c.position else 0
        remaining, turn_remaining = self._left(side)
        return SideClock(
            side,
            self.c.used.get(side, 0.0),
            self.c.given.get(side, 0.0),
            self.c.turn_used.get(now, {}).get(side, 0.0),
            self.c.turn_given.get(now, {}).get(side, 0.0),
            remaining,
            turn_remaining,
            self.c.out_at.get(side),
        )


def counted(
    entries: Sequence[Entry], rules: GameRules, period: str | None, start: Counted | None = None
) -> Counted:
    """The clock as the log stands after `entries` (in order), read on from `start` (the log read up to the
    entry before them; None: from the game's start)."""
    counting = _Counting(rules, period, start or Counted())
    for entry in entries:
        counting.read(entry)
    return counting.c


def clock_at(counted_: Counted, rules: GameRules, period: str | None, now: float) -> Clock:
    """The clock as of `now`, from the log read up to its last entry (`counted`)."""
    counting = _Counting(rules, period, counted_)
    counting.until(now)
    return Clock(
        as_of=now,
        running=counting.running(),
        paused=counting.c.paused,
        dispute=counting.c.paused and counting.c.dispute,
        started=counting.c.position is not None,
        ended=counting.c.ended,
        turn=counting.c.position.turn if counting.c.position else 0,
        limits=counting.c.limits,
        sides=tuple(counting.side(s) for s in rules.book.sides),
    )


def clock(entries: Sequence[Entry], rules: GameRules, period: str | None, now: float) -> Clock:
    """The clock as of `now`, from the game's log in order (`entries`) and its rule set's turn (`rules`)."""
    return clock_at(counted(entries, rules, period), rules, period, now)


def refusal(now: Clock, act: Act) -> Refusal | None:
    """Why a clock act cannot be played on the clock as it stands (None:
    it can); a value out of its bounds is a RulesError naming its field. Only the referee acts on the clock,
    but for a player stopping it for a dispute where the clock's settings allow it (the app's door checks the
    seat: `may_pause`)."""
    if now.ended:  # resumed, given time or set after the end, the clock would change a result that stands
        return Refusal(
            "The game is over: its clock stands as it ended",
            "the clock runs from the game's start to its end",
            SOURCE,
        )
    if isinstance(act, PauseClock):
        if not now.started:
            return Refusal(
                "The clock runs only while the game is played: there is nothing to pause",
                "the clock runs from the game's start to its end",
                SOURCE,
            )
        if now.paused:
            return Refusal("The clock is already paused: resume it to run it again", "paused once", SOURCE)
    if isinstance(act, ResumeClock) and not now.paused:
        return Refusal(
            "The clock is running: pause it before resuming it", "only a paused clock resumes", SOURCE
        )
    if isinstance(act, GiveTime):
        sides = [s.side for s in now.sides]
        if act.side not in sides:
            raise RulesError("side", "give time to a side of the game", sides)
        if not 1 <= act.seconds <= MAX_GIVEN_SECONDS:
            raise RulesError(
                "seconds", f"give 1 to {MAX_GIVEN_SECONDS} seconds at a time", [f"1..{MAX_GIVEN_SECONDS}"]
            )
    if isinstance(act, SetClockLimits):
        Limits.of(act).checked([s.side for s in now.sides])
    return None


def may_pause(now: Clock, act: Act, by: str) -> bool:
    """Whether `by` may play this clock act at all: the referee any; a player only stops the clock for a
    dispute, where the clock's settings allow it."""
    return by == "referee" or (isinstance(act, PauseClock) and act.dispute and now.limits.dispute_pause)


def out_of_time_refusal(now: Clock, side: str, acts_since: int) -> Refusal | None:
    """Why `side` may not act now, where the clock's settings say a side out of time finishes the act under way
    and then acts no more (`acts_since`: the acts it logged since its time ran out; the first finishes the act
    under way). None: it may act."""
    if not now.limits.finish_act or now.ended:
        return None
    mine = now.side(side)
    if not mine.out_of_time or acts_since < 1:
        return None
    return Refusal(
        f"The {side} is out of time and has finished its act: the referee gives time or ends the game",
        "a side out of time finishes the act under way, then acts no more until it is given time",
        SOURCE,
    )


def ends_the_game(now: Clock) -> bool:
    """Whether the game ends as this turn starts: the clock's settings name a time, and every side has less
    than it left in the game."""
    under = now.limits.end_under_seconds
    if under is None or not now.sides:
        return False
    return all(s.remaining is not None and s.remaining < under for s in now.sides)
