"""Victory points from the log: each objective's holder after each act, scored as its scenario says
(rules.table.objectives), the referee's contested calls; and the winner by points (`by_points`, the hook's
default `GameRules.outcome`; a book that prints its victory conditions overrides it).

The score is derived, never kept: `score_of` replays the game's log over its stands. The log records every
stand's place as a change (x, y, facing, killed, off the table, with what it was before), so the stands as they
stood after each act are the stands now with the later changes taken back. Then, in order:
- after each act of the game (turn 1 on) every objective's holding is worked out (rules.table.objectives
  `holding`); a `first_taken` objective scores its vp, once, to the first side to hold it;
- as each turn (or bound) ends (the log's turn number moves on, or the game ends), each `each_turn` objective
  scores its vp to its holder; a `held_turns` objective counts the turn for its holder (in a row when
  `consecutive`: a turn's end another side or nobody holds it at starts the count again) and scores its vp,
  once, to the first side whose count reaches its `turns`;
- as the game ends, each `game_end` objective scores its vp to its holder; until then a side's points count
  the `game_end` objectives it holds now, as the game would end (so the score a table sees moves with it);
- a referee's call on an objective (`Logged.call`: a side, or None for nobody) stands for its holder until the
  stands' holding of it changes (its holder, its stands or whether it is contested): the call then lapses
  (`ObjectiveScore.lapsed_call`); a call on an objective the stands make no doubt of stands alike (the referee
  is the judge of the table).
Each objective says how it is settled (`settled`): `held` by the stands beyond doubt, `called` by the referee,
or `contested` (no call stands: as the game ends, contested at the end); and each change of its holder in play
(turn 1 on) is kept in order (`Score.taken`: by the stands, by a call, or as a call lapsed), the story's.
Losses are each side's stands destroyed. After each act (turn 1 on) and each turn's end, the scenario's victory
conditions (rules.core.victory) not met yet are checked on the points scored, the holders settled (one contested
and not called is nobody's taking yet) and each side's stands lost: each met is kept in order (`Score.met`) with
its winner; the referee's choice to play on is logged (`Logged.played_on`), and the game goes on until the referee
ends it.
A secret objective (`Objective.secret_to`, issue 69) is revealed as it first scores, or as the game ends: its
points count from then, never "as the game would end" before (the other side would read them in the totals);
`seen_by` leaves it out of what the other side reads until then."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from rules.core.victory import Broken, Condition, Met, check, met_words
from rules.table.bases import BaseSpec, Stand
from rules.table.objectives import HeldTally, Holding, Objective

SIDES = ("attacker", "defender")
PLACE_FIELDS = ("x", "y", "facing_deg", "killed", "off_table")


@dataclass(frozen=True)
class Piece:
    """A unit as the score reads it: its side and base, and where it stands (None: not on the table)."""

    id: int
    side: str
    base: str | None
    x: float | None = None
    y: float | None = None
    facing_deg: float | None = None
    killed: bool = False
    off_table: bool = False


@dataclass(frozen=True)
class Moved:
    """A change to a unit's place as the log keeps it: the field, its value before and after."""

    unit_id: int
    field: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Logged:
    """One event of the log as the score reads it: its game turn, the changes to the stands' places, the
    units it added (absent before it), a referee's call (objective id, side or None) and whether it ended the
    game."""

    turn: int
    moved: tuple[Moved, ...] = ()
    added: tuple[int, ...] = ()
    call: tuple[str, str | None] | None = None
    ended: bool = False
    id: int = 0  # the event's id in the game's log (what the story tells a change of hands by)
    played_on: int | None = None  # the victory condition (its number) the referee chose to play on after
    # An act later undone, or the undoing of one: the stands go where it put them, but nothing scores by it
    # (undone, it never happened), save that a secret objective it took is revealed (the other side read it).
    undone: bool = False
    # An end that comes as a turn would start (the scenario's last turn over, the clock's) ends that turn too; an
    # end during a turn (the referee's, on a victory condition, an instant win) leaves it unfinished: its end
    # scores nothing (a newcomer found the turn the referee ended in scored as if played).
    turn_over: bool = True


@dataclass(frozen=True)
class ObjectiveScore:
    """An objective as the score stands: its holder (the referee's call where one stands), the stands that
    hold it, whether a stand within 1 cm of its edge could change that, whether the holder is the referee's
    call, and the side that took it first (None: never taken)."""

    id: str
    name: str
    vp: int
    scored: str
    holder: str | None
    stands: tuple[int, ...]
    contested: bool
    called_by_referee: bool
    first_taken_by: str | None = None
    settled: str = "held"  # SETTLED: held by the stands, called by the referee, contested with no call
    lapsed_call: str | None = None  # the side a call that lapsed since named ("nobody"), while no call stands
    first_taken_turn: int | None = None  # the turn `first_taken_by` first held it
    turns: int = 0  # held_turns: the turns' ends it must be held at, `consecutive` or in all
    consecutive: bool = False
    turns_held: int = (
        0  # held_turns: the count of `turns_held_by` (the holder now, else the side counting most)
    )
    turns_held_by: str | None = None
    secret_to: str | None = None  # a secret objective's side (issue 69)
    revealed: bool = True  # False: a secret objective that has not scored in a game not over
    geometry: Any = None  # a secret objective's point or area (the board, which has the others', has not it)


SETTLED = ("held", "called", "contested")


@dataclass(frozen=True)
class Taken:
    """An objective changing hands in play: in which turn, to whom (None: nobody), and how: `stands` (the
    stands' holding), `called` (the referee's call) or `lapsed` (the stands' again, as a call lapsed)."""

    turn: int
    objective_id: str
    name: str
    side: str | None
    how: str
    event_id: int = 0


@dataclass(frozen=True)
class Score:
    """Each side's victory points (as the game would end now, until it has), its stands lost, the objectives
    as they stand, and the turns whose end has been scored."""

    points: Mapping[str, int]
    losses: Mapping[str, int]
    objectives: tuple[ObjectiveScore, ...]
    ended: bool = False
    turns_scored: tuple[int, ...] = ()
    taken: tuple[Taken, ...] = ()
    needed: Mapping[str, int] = field(
        default_factory=dict
    )  # the points a side needs to win, where the book says
    met: tuple[Met, ...] = ()  # the scenario's victory conditions met, in order (rules.core.victory)


@dataclass(frozen=True)
class Verdict:
    """How a game came out: the winner (None: a draw), why, in words, and the printed line it comes from."""

    winner: str | None
    reason: str
    source: str = ""


def by_points(points: Mapping[str, int], source: str = "") -> Verdict:
    """The winner by victory points, where the scenario's objectives decide (the hook's default `outcome`):
    more points win, level points are a draw."""
    a, d = points.get("attacker", 0), points.get("defender", 0)
    if a == d:
        # "Level at 0 victory points each" reads as a score nobody made (issue 64's newcomer pass).
        said = "a draw: neither side scored" if a == 0 else f"a draw at {_vp(a)} each"
        return Verdict(None, said, source)
    winner = "attacker" if a > d else "defender"
    return Verdict(winner, f"the {winner} wins by {_vp(max(a, d))} to {min(a, d)}", source)


def _vp(n: int) -> str:
    return f"{n} victory point{'' if n == 1 else 's'}"


NO_PIECES: Mapping[int, Piece] = MappingProxyType({})  # an event's units added, where it adds none


def pieces_before(
    now: Sequence[Piece], log: Sequence[Logged]
) -> tuple[dict[int, Piece], list[Mapping[int, Piece]]]:
    """The units as they stood before the log's first event, and as each unit added by an event stood right
    after it (by event index): the units now with every later change taken back."""
    state = {p.id: p for p in now}
    added_at: list[Mapping[int, Piece]] = [NO_PIECES] * len(log)  # an event's own made as it adds one
    for i in range(len(log) - 1, -1, -1):
        ev = log[i]
        for m in reversed(ev.moved):
            p = state.get(m.unit_id)
            # A change to what the unit already is (a stand put back where it stood) changes nothing.
            if p is not None and m.field in PLACE_FIELDS and getattr(p, m.field) != m.before:
                state[m.unit_id] = replace(p, **{m.field: m.before})
        for uid in ev.added:
            p = state.pop(uid, None)
            if p is not None:
                added_at[i] = {**added_at[i], uid: p}
    return state, added_at


def _stands(pieces: Mapping[int, Piece], bases: Mapping[str, BaseSpec]) -> list[Stand]:
    out = []
    for p in pieces.values():
        spec = bases.get(p.base or "")
        if spec is None or p.killed or p.off_table or p.x is None or p.y is None:
            continue
        facing = float(p.facing_deg) if p.facing_deg is not None else 90.0
        out.append(Stand(str(p.id), p.side, spec, (float(p.x), float(p.y)), facing))
    return out


# What a tally keeps of a game as it goes on, beside its objectives and the objectives scored (a set): a stored
# score keeps the same (app.data.score_state).
TALLY_KEPT = ("holdings", "points", "calls", "lapsed", "taken", "first", "first_turn", "was", "changes",
              "turns_scored", "counts", "met")  # fmt: skip


def _copy(value: Any) -> Any:
    """A tally's dict or list copied one level down, a dict of dicts (the held turns' counts) two."""
    if isinstance(value, dict):
        return {k: dict(v) if isinstance(v, dict) else v for k, v in value.items()}
    return list(value)


@dataclass
class _Tally:
    objectives: Sequence[Objective]
    holdings: dict[str, Holding]
    points: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    calls: dict[str, tuple[str | None, Holding]] = field(default_factory=dict)
    lapsed: dict[str, str | None] = field(default_factory=dict)  # a call that lapsed, while no other stands
    taken: dict[str, str] = field(default_factory=dict)  # first_taken objectives scored, to whom
    first: dict[str, str] = field(default_factory=dict)  # every objective: the first side to hold it in play
    first_turn: dict[str, int] = field(default_factory=dict)  # ... and in which turn
    was: dict[str, str | None] = field(default_factory=dict)  # each objective's holder after the last event
    changes: list[Taken] = field(default_factory=list)
    turns_scored: list[int] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # held_turns: turns' ends held, by side
    met: list[Met] = field(default_factory=list)
    scored: set[str] = field(default_factory=set)  # the objectives that have scored: a secret one is revealed

    def copied(self) -> _Tally:
        """A tally to go on from, this one left as it is (its objectives shared: never changed)."""
        return replace(
            self, **{name: _copy(getattr(self, name)) for name in TALLY_KEPT}, scored=set(self.scored)
        )

    def holder(self, o: Objective) -> str | None:
        call = self.calls.get(o.id)
        return call[0] if call is not None else self.holdings[o.id].holder

    def settled(self, o: Objective) -> bool:
        """Whether the objective's holder is beyond doubt: the stands' not contested, or the referee's call."""
        return o.id in self.calls or not self.holdings[o.id].contested

    def held(self, holdings: dict[str, Holding]) -> None:
        """The holdings after an act: a call stands while the stands' holding it was made on stands."""
        self.holdings = holdings
        for oid, (side, on) in list(self.calls.items()):
            h = holdings[oid]
            if h != on:
                del self.calls[oid]
                self.lapsed[oid] = side

    def call(self, oid: str, side: str | None) -> None:
        self.calls[oid] = (side, self.holdings[oid])
        self.lapsed.pop(oid, None)

    def changed_hands(self, turn: int, call: str | None, event_id: int) -> None:
        """Each objective whose holder the event changed (told from turn 1 on), and how."""
        for o in self.objectives:
            side = self.holder(o)
            if o.id in self.was and side != self.was[o.id] and turn >= 1:
                how = "called" if o.id == call else "lapsed" if o.id in self.lapsed else "stands"
                self.changes.append(Taken(turn, o.id, o.name, side, how, event_id))
            self.was[o.id] = side

    def first_taken(self, turn: int) -> None:
        for o in self.objectives:
            side = self.holder(o)
            if side in SIDES and side is not None and o.id not in self.first:
                self.first[o.id] = side
                self.first_turn[o.id] = turn
            if o.scored == "first_taken" and o.id not in self.taken and side in SIDES:
                self.taken[o.id] = side
                self.points[side] += o.vp
                self.scored.add(o.id)

    def seen_taken(self) -> None:
        """A first_taken objective a side holds by an undone act: not scored, but shown as it would have been."""
        for o in self.objectives:
            if o.scored == "first_taken" and o.id not in self.taken and self.holder(o) in SIDES:
                self.scored.add(o.id)

    def turn_ended(self, turn: int) -> None:
        if turn < 1 or turn in self.turns_scored:
            return
        self.turns_scored.append(turn)
        for o in self.objectives:
            side = self.holder(o)
            if o.scored == "each_turn" and side in SIDES:
                self.points[side] += o.vp
                self.scored.add(o.id)
            elif o.scored == "held_turns":
                self.held_at_end(o, side)

    def held_at_end(self, o: Objective, side: str | None) -> None:
        """A turn's end counted for a held_turns objective's holder; the first side to reach its turns scores."""
        count = self.counts.setdefault(o.id, dict.fromkeys(SIDES, 0))
        for s in SIDES:
            if s == side:
                count[s] += 1
            elif o.consecutive:
                count[s] = 0
        if side in SIDES and side is not None and o.id not in self.taken and count[side] >= o.turns:
            self.taken[o.id] = side
            self.points[side] += o.vp
            self.scored.add(o.id)

    def game_ended(self) -> None:
        for o in self.objectives:
            side = self.holder(o)
            if o.scored == "game_end" and side in SIDES:
                self.points[side] += o.vp
                self.scored.add(o.id)


@dataclass
class _Victory:
    """The scenario's victory conditions as the log is replayed: each side's stands (at the start, lost)
    kept only where a side broken is a condition."""

    conditions: Sequence[Condition]
    broken: Broken | None
    names: dict[str, str]
    counts_stands: bool = False
    turn_word: str = "turn"  # the book's (Book.turn_word): 2mm's met in bound 1, not turn 1 (issue 89)

    def checked(self, tally: _Tally, counted: Mapping[str, list[int]], turn: int, event_id: int) -> None:
        if not self.conditions or turn < 1:
            return
        lost: dict[str, tuple[int, int]] = {}
        if self.counts_stands:
            for s in SIDES:
                lost[s] = (counted[s][0], counted[s][1])
        # An objective taken is met by its holder settled, never by a contested one the referee has not called
        # (issue 89: "End the game: Attacker wins" beside the same objective read "contested").
        holders = {o.id: tally.holder(o) for o in tally.objectives if tally.settled(o)}
        for c, winner in check(self.conditions, tally.met, tally.points, holders, lost, self.broken):
            said = met_words(c, winner, turn, self.names, self.broken, self.turn_word)
            words = f"Scenario victory condition {c.number}: {said}."
            tally.met.append(Met(c.number, c.kind, winner, turn, event_id, words, said=said))


@dataclass
class Replay:
    """The log's replay as far as it has gone: the units as they stand after its last event (`pieces`), the
    objectives' standings (`kept`), the points, holders and turns scored so far, the game's turn and whether it
    ended. `replay_start` makes one, `resumed` goes on from it over later events (leaving it as it was: a value
    the service keeps to read the next score from the events since, app.services.score), `score_at` reads it."""

    objectives: Sequence[Objective]
    pieces: dict[int, Piece]
    kept: HeldTally
    tally: _Tally
    victory: _Victory
    bases: Mapping[str, BaseSpec]
    turn: int = 0
    ended: bool = False
    events: int = 0  # the events replayed
    # Each side's stands (units with a base) and those destroyed, as `pieces` stand: counted as they change, so
    # a replay gone on from a stored one with only the units its events touch reads them (app.services.score).
    counted: dict[str, list[int]] = field(default_factory=lambda: {s: [0, 0] for s in SIDES})

    def copy(self) -> Replay:
        """A replay that goes on from this one, this one left as it is (the objectives' shapes shared)."""
        counted = {s: list(c) for s, c in self.counted.items()}
        tally = self.tally.copied()
        return replace(self, pieces=dict(self.pieces), kept=self.kept.copy(), tally=tally, counted=counted)


def _count(counted: dict[str, list[int]], p: Piece | None, n: int) -> None:
    """A unit's part in its side's stands and losses (`Replay.counted`) added (`n` 1) or taken off (-1)."""
    if p is not None and p.base and p.side in counted:
        counted[p.side][0] += n
        counted[p.side][1] += n if p.killed else 0


def replay_start(
    objectives: Sequence[Objective],
    bases: Mapping[str, BaseSpec],
    start: Mapping[int, Piece],
    conditions: Sequence[Condition] = (),
    broken: Broken | None = None,
    turn_word: str = "turn",
) -> Replay:
    """The replay before the log's first event: the units as they stood then (`pieces_before`); a condition met
    is said in `turn_word`'s (the book's turn)."""
    kept = HeldTally(objectives)
    for piece in start.values():
        _put(kept, piece.id, piece, bases)
    tally = _Tally(objectives, {o.id: kept.holding(o.id) for o in objectives})
    victory = _Victory(
        conditions,
        broken,
        {o.id: o.name for o in objectives},
        any(c.kind == "side_broken" for c in conditions),
        turn_word,
    )
    out = Replay(objectives, dict(start), kept, tally, victory, bases)
    for piece in start.values():
        _count(out.counted, piece, 1)
    return out


def resumed(state: Replay, log: Sequence[Logged], added_at: Sequence[Mapping[int, Piece]]) -> Replay:
    """The replay gone on over `log`, the events after `state`'s (`added_at`: each one's units added, as
    `pieces_before` gives them), `state` left as it was. The same replay as the whole log's, so long as the
    units at `state` are the units `pieces_before` gives before `log` (the caller's check: a change not logged
    makes them differ, and the whole log is replayed then)."""
    return _replayed(state.copy(), log, added_at)


def score_of(
    objectives: Sequence[Objective],
    bases: Mapping[str, BaseSpec],
    now: Sequence[Piece],
    log: Sequence[Logged],
    conditions: Sequence[Condition] = (),
    broken: Broken | None = None,
    turn_word: str = "turn",
) -> Score:
    """The score of a game whose units stand as `now` after `log` (its events in order, the undone ones
    with their undoing: both are in the log), its scenario's victory `conditions` checked (`broken`: its rule
    set's declaration of a side broken): see the module's steps."""
    pieces, added_at = pieces_before(now, log)
    start = replay_start(objectives, bases, pieces, conditions, broken, turn_word)
    return score_at(_replayed(start, log, added_at))


def _replayed(state: Replay, log: Sequence[Logged], added_at: Sequence[Mapping[int, Piece]]) -> Replay:
    """`state` (changed in place) gone on over `log`: see the module's steps."""
    objectives, bases, pieces, kept = state.objectives, state.bases, state.pieces, state.kept
    tally, victory = state.tally, state.victory
    turn = state.turn
    state.events += len(log)
    for i, ev in enumerate(log):
        if state.ended:
            break
        if ev.turn > turn:
            tally.turn_ended(turn)
            victory.checked(tally, state.counted, turn, ev.id)
            turn = state.turn = ev.turn
        touched = [*added_at[i].values()]  # the units the event put, moved or took off, before and after
        for uid, new in added_at[i].items():
            _count(state.counted, pieces.get(uid), -1)
            _count(state.counted, new, 1)
        pieces.update(added_at[i])
        for m in ev.moved:
            p = pieces.get(m.unit_id)
            # A change to what the unit already is touches nothing: its standings and counts stay as they are.
            if p is not None and m.field in PLACE_FIELDS and getattr(p, m.field) != m.after:
                pieces[m.unit_id] = replace(p, **{m.field: m.after})
                touched += [p, pieces[m.unit_id]]
                _count(state.counted, p, -1)
                _count(state.counted, pieces[m.unit_id], 1)
        if touched and objectives:
            # Only an objective a touched stand's standing to changed can change hands.
            changed: set[str] = set()
            for uid in dict.fromkeys(p.id for p in touched):
                changed |= _put(kept, uid, pieces.get(uid), bases)
            if changed:
                holdings = dict(tally.holdings)
                for oid in changed:
                    holdings[oid] = kept.holding(oid)
                tally.held(holdings)
        called = None
        if ev.call is not None and any(o.id == ev.call[0] for o in objectives):
            called = ev.call[0]
            tally.call(called, ev.call[1])
            tally.scored.add(called)  # a secret objective's call, in every seat's log, reveals it (issue 89)
        if ev.undone:
            tally.seen_taken()
        else:
            tally.changed_hands(turn, called, ev.id)
            if turn >= 1:
                tally.first_taken(turn)
        if ev.played_on is not None:
            tally.met = [replace(m, played_on=m.played_on or m.number == ev.played_on) for m in tally.met]
        if ev.ended:
            if ev.turn_over:
                tally.turn_ended(turn)
            tally.game_ended()
            state.ended = True
        victory.checked(tally, state.counted, turn, ev.id)
    return state


def points_at(state: Replay) -> dict[str, int]:
    """Each side's victory points as the replay stands: as the game would end now, until it has (a secret
    objective's points come with its reveal: never before). Every reader's (`seen_by` hides no points)."""
    tally = state.tally
    points = dict(tally.points)
    if not state.ended:
        for o in state.objectives:
            side = tally.holder(o)
            if o.scored == "game_end" and side in SIDES and (o.secret_to is None or o.id in tally.scored):
                points[side] += o.vp
    return points


def score_at(state: Replay) -> Score:
    """The score as the replay stands: as the game would end now, until it has."""
    tally, ended, objectives = state.tally, state.ended, state.objectives
    losses = {s: state.counted[s][1] for s in SIDES}
    return Score(
        points_at(state),
        losses,
        tuple(_objective_score(o, tally, ended) for o in objectives),
        ended,
        tuple(tally.turns_scored),
        tuple(tally.changes),
        met=tuple(tally.met),
    )


def _put(kept: HeldTally, uid: int, p: Piece | None, bases: Mapping[str, BaseSpec]) -> set[str]:
    """The unit put in the tally as it stands now (`p` None: gone); the objectives whose standings it changed.
    (A stand whose centre is farther from an objective than its base reaches cannot touch it: `HeldTally`.)"""
    stand = _stands({uid: p}, bases) if p is not None else []
    return kept.place(str(uid), stand[0] if stand else None)


def _objective_score(o: Objective, tally: _Tally, ended: bool) -> ObjectiveScore:
    h = tally.holdings[o.id]
    called = o.id in tally.calls
    holder = tally.holder(o)
    contested = h.contested and not called
    lapsed = tally.lapsed[o.id] or "nobody" if o.id in tally.lapsed and not called else None
    count = tally.counts.get(o.id, {})
    counting = holder if holder in SIDES else max(count, key=lambda s: count[s], default=None)
    return ObjectiveScore(
        o.id,
        o.name,
        o.vp,
        o.scored,
        holder,
        tuple(int(s) for s in h.stands) if holder == h.holder else (),
        contested,
        called,
        tally.first.get(o.id),
        "called" if called else "contested" if contested else "held",
        lapsed,
        tally.first_turn.get(o.id),
        o.turns,
        o.consecutive,
        min(count.get(counting, 0), o.turns) if counting else 0,  # once scored, held as many as it took
        counting if count.get(counting or "", 0) or holder in SIDES else None,
        o.secret_to,
        o.secret_to is None or ended or o.id in tally.scored,
        o.geometry if o.secret_to is not None else None,
    )


def seen_by(score: Score, side: str | None) -> Score:
    """The score as `side` may read it (None: every other reader): a secret objective that has not scored, nor
    its changes of hands, for its own side alone (issue 69). Its points come with its reveal (`score_of`), so
    the points are every reader's."""
    hidden = {o.id for o in score.objectives if not o.revealed and o.secret_to != side}
    if not hidden:
        return score
    return replace(
        score,
        objectives=tuple(o for o in score.objectives if o.id not in hidden),
        taken=tuple(t for t in score.taken if t.objective_id not in hidden),
    )


def kept_score(tally: Mapping[str, Any]) -> tuple[Score, Verdict]:
    """A score a game keeps on its board (`Book.score_kept`), as the score and the outcome the game reads: its
    `points` and `losses` by side, its `objectives` (id, name, vp, scored, holder) and its `outcome` (winner,
    reason, source), or, while that names no winner, `at_end`: the outcome should the game end now."""
    points = {s: int((tally.get("points") or {}).get(s, 0)) for s in SIDES}
    losses = {s: int((tally.get("losses") or {}).get(s, 0)) for s in SIDES}
    objectives = tuple(
        ObjectiveScore(
            str(o["id"]), str(o["name"]), int(o["vp"]), str(o["scored"]), o.get("holder"), (), False, False
        )
        for o in tally.get("objectives") or ()
    )
    said = tally.get("outcome") or {}
    if not said.get("winner"):
        said = tally.get("at_end") or said
    outcome = Verdict(said.get("winner"), str(said.get("reason", "")), str(said.get("source", "")))
    needed = {s: int(n) for s, n in (tally.get("needed") or {}).items() if s in SIDES}
    return Score(points, losses, objectives, needed=needed), outcome
