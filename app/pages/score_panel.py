"""The score's panels, rendered by the server (issue 67): the chip (each side's points and clock, the contested
objectives flagged), the dashboard (the turn or bound and its step, each side's points and losses, each objective
with its holder) and the end's list of what is still to settle (the referee's board), as `_score_panel.html`
renders them for one seat. Read from the same service that answers `GET /api/v1/games/{id}/score`
(`app.services.score.score_answer`): the points are the same for every viewer, a side's secret objectives its own
seat's and the referee's until they score (issue 69); only the referee's seat is offered the calls, as only the referee may make one (`CallObjective`, refused to any other seat by the act pipeline).
The referee's call is a button writing to `POST /api/v1/games/{id}/score/calls` through the outbox (api-action.js:
kept offline, an idempotency key, sent once), after which the page reads the panels anew; a refusal is said in
its one sentence. A live frame that may change the score carries the panels for its audience where they changed
(`frame_panel`, in the map's and the board's views: built once per kind of seat and page a wake-up, rendered only
where they show what the feed last carried does not, `KeptPanels`), so no request follows it;
frontend/static/js/game-score.js swaps them in, and reads them here as the page opens and after a resync."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Annotated, Any

from fastapi import Query
from sqlmodel import Session, col, select

from app.core import live
from app.core.routing import Router
from app.core.touched import logged_kind
from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Game, Unit
from app.data.schemas_clock import SideClockOut
from app.data.schemas_score import GameScore, ObjectiveScoreOut
from app.deps import NowDep, SessionDep
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.pages.templates import humanise, rule_state, templates
from app.services import clock as clock_service
from app.services import score as score_service
from app.services import secret_objectives, unit_names
from rules.core.clock import Clock

__all__ = [
    "KeptPanels",
    "ScorePanel",
    "frame_clock",
    "frame_panel",
    "frame_score",
    "render_panel",
    "score_panel",
    "score_panel_page",
]

router = Router()

SIDES = ("attacker", "defender")
VIEWS = ("board", "map")
VIEW = "^(board|map)$"


@dataclass(frozen=True)
class Call:
    """One of the referee's calls on an objective: the side it names ("" for nobody), its words, whether it is
    the call that stands."""

    holder: str
    label: str
    pressed: bool


@dataclass(frozen=True)
class ObjectiveLine:
    """An objective as the score stands, in words: its worth and when it scores, its holder; the referee's calls
    (none for another seat, none outside play)."""

    id: str
    name: str
    vp: int
    when: str
    holder: str  # "" for nobody
    holder_class: str  # holder-attacker, holder-defender, holder-none or holder-contested
    contested: bool
    called: bool  # the holder is the referee's call
    holder_words: str
    calls: tuple[Call, ...]
    count_words: str = ""  # held_turns: "Held 2 of 3 turns by the attacker."
    # On the map (table-objectives.js draws them from the cards): its shape as GeoJSON ("" for none), its label's
    # holder ("Contested", "Attacker's", "Nobody's") and the stands on it as the map labels them ("On it: ...").
    geometry: str = ""
    holder_short: str = ""
    on_words: str = ""

    secret: bool = False  # a secret objective not yet revealed: this seat's own (or the referee's) to read


@dataclass(frozen=True)
class MetLine:
    """A scenario's victory condition met, as every seat is told it (citing the scenario); the referee is
    offered the choice, in one tap, of ending the game with its result or playing on (`choosing`)."""

    number: int
    words: str
    end_label: str  # "End the game: Attacker wins"
    played_on: bool
    choosing: bool


@dataclass(frozen=True)
class SideLine:
    """A side's points, losses and clock (as game-clock.js's face shows it: "" when it has none)."""

    side: str
    name: str
    points: int
    points_text: str  # "1 (5 VP to win)" where the book says what it needs
    losses: int
    clock: str


@dataclass(frozen=True)
class ScorePanel:
    """The score's panels for one seat (`_score_panel.html`)."""

    game_id: int
    turn: int
    turn_line: str
    sides: tuple[SideLine, ...]
    objectives: tuple[ObjectiveLine, ...]
    flagged: int  # contested objectives with no call standing (the chip's flag)
    unsettled: tuple[ObjectiveLine, ...]  # the end's list: contested with no call, or a call lapsed
    contested: int  # of those, contested: "Yes, end the game" waits for none
    referee: bool
    view: str  # the page's parts: "map" (the objectives' cards) or "board" (the end's list)
    met: tuple[MetLine, ...] = ()
    seals: tuple[tuple[str, str, str], ...] = ()  # each side's secret objectives' (side, name, commitment)
    playing: bool = (
        True  # a victory condition met waits on the referee's choice only while the game is played
    )

    @property
    def flag_words(self) -> str:
        """The chip's flag: the contested objectives and a victory condition met still to choose on."""
        said = [f"{self.flagged} contested"] if self.flagged else []
        if self.playing and any(not m.played_on for m in self.met):
            said.append("victory condition met")
        return "; ".join(said)

    def context(self) -> dict[str, object]:
        """The template's names."""
        return {"score_panel": self, "view": self.view}


def clock_face(seconds: float) -> str:
    """A side's time as m:ss (h:mm:ss), whole seconds cut, not rounded, as game-clock.js's face shows it."""
    s = int(abs(seconds) // 1)
    hh, mm, ss = s // 3600, (s % 3600) // 60, s % 60
    return f"{'−' if seconds < 0 else ''}{f'{hh}:{mm:02d}' if hh else mm}:{ss:02d}"


def clock_text(clocks: Sequence[SideClockOut], side: str) -> str:
    """What a side's clock shows: the tighter of the time left in the game and in the turn, else the time used."""
    c = next((c for c in clocks if c.side == side), None)
    if c is None:
        return ""
    lefts = [v for v in (c.remaining_seconds, c.turn_remaining_seconds) if v is not None]
    return clock_face(min(lefts) if lefts else c.used_seconds - c.given_seconds)


class Words:
    """The book's words for the sides and the turn, as the score's panels say them."""

    def __init__(self, ruleset: str, turn_word: str) -> None:
        self.state = rule_state(ruleset)
        self.turn_word = turn_word

    def name(self, side: str) -> str:
        """A side's name in a heading ("Canadian", else "Attacker")."""
        return self.state.side_name(side) or humanise(side)

    def word(self, side: str) -> str:
        """A side in a sentence ("the Canadian", else "the attacker")."""
        return self.state.side_name(side) or side

    def when(self, scored: str) -> str:
        return {
            "each_turn": f"each {self.turn_word}",
            "game_end": "at the end of the game",
            "first_taken": "the first time it is taken",
        }.get(scored) or humanise(scored)

    def held_turns(self, o: ObjectiveScoreOut) -> str:
        """When a held_turns objective scores ("once held at the end of 3 turns in a row")."""
        plural = "" if o.turns == 1 else "s"
        return f"once held at the end of {o.turns} {self.turn_word}{plural}{' in a row' if o.consecutive else ''}"

    def count(self, o: ObjectiveScoreOut) -> str:
        """How far a held_turns objective's count has come: "Held 2 of 3 turns by the attacker."."""
        if (
            o.scored != "held_turns" or not o.turns_held_by or not o.turns_held
        ):  # "held 0 of 2" beside "held by"
            return ""
        plural = "" if o.turns == 1 else "s"
        run = " in a row" if o.consecutive else ""
        return f"Held {o.turns_held} of {o.turns} {self.turn_word}{plural}{run} by the {self.word(o.turns_held_by)}."

    def lapsed(self, o: ObjectiveScoreOut) -> str:
        if not o.lapsed_call:
            return ""
        who = "nobody" if o.lapsed_call == "nobody" else f"the {self.word(o.lapsed_call)}"
        return f"; the referee's call for {who} lapsed as the stands moved"

    def holder(self, o: ObjectiveScoreOut) -> str:
        """Who holds it, in a sentence."""
        if o.contested:
            if o.called_by_referee:
                whose = f"the {self.word(o.holder)}'s" if o.holder else "nobody's"
                return f"Contested; the referee called it: {whose}"
            # The score counts the holder as the stands stand until the referee calls it: said, so the card and
            # the points agree (a newcomer read "contested" beside points scored by one side alone).
            whose = f"the {self.word(o.holder)}'s" if o.holder else "nobody's"
            return f"Contested: the referee's call (as the stands stand, {whose}: a stand is within 1 cm of its edge){self.lapsed(o)}"
        if not o.holder:
            return f"Held by nobody{self.lapsed(o)}"
        n = len(o.stands)
        stands = f" ({n} stand{'s' if n > 1 else ''})" if n else ""
        called = ", as the referee called it" if o.called_by_referee else ""
        return f"Held by the {self.word(o.holder)}{stands}{called}{self.lapsed(o)}"


def objective_line(
    o: ObjectiveScoreOut,
    words: Words,
    calls: bool,
    names: Mapping[int, str] | None = None,
    revealing: bool = False,
) -> ObjectiveLine:
    """An objective in words, with the referee's calls where `calls`: a secret one's not before its reveal, save
    where `revealing` (the end's list, whose call reveals it: issue 89, else a secret one contested never let the
    game end)."""
    offered = tuple(
        Call(
            side,
            f"{words.name(side)}'s" if side else "Nobody's",
            o.called_by_referee and (o.holder or "") == side,
        )
        for side in (*SIDES, "")
    )
    on = [names[i] for i in o.stands if i in names] if names else []  # as the map labels them
    return ObjectiveLine(
        id=o.id,
        name=o.name,
        vp=o.vp,
        when=words.held_turns(o) if o.scored == "held_turns" else words.when(o.scored),
        holder=o.holder or "",
        holder_class=f"holder-{'contested' if o.contested else o.holder or 'none'}",
        contested=o.contested,
        called=o.called_by_referee,
        holder_words=f"{words.holder(o)}.",
        # A call is logged for all: not before its reveal, save where it reveals it.
        calls=offered if calls and (o.revealed or revealing) else (),
        count_words=words.count(o),
        geometry=o.geometry.model_dump_json() if o.geometry else "",
        holder_short="Contested"
        if o.contested and not o.called_by_referee
        else f"{humanise(o.holder)}'s"
        if o.holder
        else "Nobody's",
        on_words=f"On it: {', '.join(on)}." if on else "",
        secret=not o.revealed,
    )


def panel_of(
    game: Game,
    score: GameScore,
    referee: bool,
    view: str,
    seals: Mapping[str, str] | None = None,
    names: Mapping[int, str] | None = None,
) -> ScorePanel:
    """The panels of `score` (GET /score's answer) for a seat, the referee's with its calls while in play; the
    map's objective cards name the stands on each by `names` (`stand_names`)."""
    words = Words(game.ruleset, score.turn_word)
    calling = referee and score.status == "playing"
    if score.status == "finished":
        turn_line = "The game is over."
    elif score.status == "setup":
        turn_line = "Setting up."
    else:
        of = f" of {score.last_turn}" if score.last_turn else ""
        step = f": {humanise(score.step)}" if score.step else ""
        turn_line = (
            f"{humanise(score.turn_word)} {score.turn}{of}{step}; {words.name(score.side_to_move)} to move."
        )
    unsettled = [o for o in score.objectives if o.settled == "contested" or o.lapsed_call]
    return ScorePanel(
        game_id=score.game_id,
        turn=score.turn,
        turn_line=turn_line,
        sides=tuple(
            SideLine(
                side=s.side,
                name=words.name(s.side),
                points=s.points,
                points_text=f"{s.points} ({s.needed} VP to win)" if s.needed else str(s.points),
                losses=s.losses,
                clock=clock_text(score.clocks, s.side),
            )
            for s in score.sides
        ),
        objectives=tuple(objective_line(o, words, calling and o.contested, names) for o in score.objectives),
        flagged=sum(1 for o in score.objectives if o.contested and not o.called_by_referee),
        unsettled=tuple(objective_line(o, words, calling, revealing=True) for o in unsettled),
        # What the end waits for, as the server's (result.end_refusal, on the score every seat reads): a secret one
        # not revealed is offered its calls but waits for none (issue 89: "Yes, end the game" never came).
        contested=sum(1 for o in unsettled if o.settled == "contested" and o.revealed),
        referee=referee,
        view=view,
        met=tuple(
            MetLine(
                m.number,
                m.words,
                f"End the game: {f'{words.name(m.winner)} wins' if m.winner else 'a draw'}",
                m.played_on,
                calling,
            )
            for m in score.met
        ),
        seals=tuple((s, words.word(s), c) for s, c in sorted((seals or {}).items())),
        playing=score.status == "playing",
    )


def stand_names(session: Session, game: Game) -> dict[int, str]:
    """Each stand's short name, as the map's labels show it (the units' read, app.services.unit_names): read of
    the columns naming reads alone (no unit's row object made: a live frame's panels read them per change)."""
    named = select(col(Unit.id), col(Unit.parent_id), col(Unit.side), col(Unit.level))
    rows = session.execute(
        named.add_columns(col(Unit.kind), col(Unit.name))
        .where(col(Unit.game_id) == game.pk)
        .order_by(col(Unit.id))
    )
    return {pk: short for pk, (_, short) in unit_names.names([unit_names.Named(*r) for r in rows]).items()}


def score_panel(session: Session, game: Game, role: str, now: datetime, view: str = VIEWS[0]) -> ScorePanel:
    """The score's panels for a seat of `role`, read as GET /api/v1/games/{id}/score answers."""
    clock = clock_service.game_clock(session, game, now)
    answer = score_service.score_answer(game, score_service.game_score(session, game, role), clock)
    seals = secret_objectives.commitments(session, game.pk)
    return panel_of(
        game, answer, role == "referee", view, seals, stand_names(session, game) if view == "map" else None
    )


@panel_page(router, "/games/{game_id}/score/panel", "_score_panel.html")
def score_panel_page(
    game: Game,
    seat: Seat,
    session: SessionDep,
    now: NowDep,
    view: Annotated[str, Query(pattern=VIEW)] = VIEWS[0],
) -> ScorePanel:
    """The score's panels for this seat (the chip's points and flag, the dashboard, the end's list)."""
    return score_panel(session, game, seat.viewer.role, now, view)


def frame_score(session: Session, game: Game, shared: live.Shared, at: datetime, role: str) -> GameScore:
    """The score as a live frame's parts read it for a seat of `role` (GET /score's answer, its clocks as of
    `at`, when the frame's newest event was logged: the same frames whenever its events are rendered): worked
    out once per wake-up of the feed, then as each kind of seat may read it (a side's secret objectives its own)."""
    whole = shared.get(("score-whole", at), lambda: score_service.game_score(session, game, "referee"))
    clock = frame_clock(session, game, shared, at)
    score: GameScore = shared.get(
        ("score-answer", role, at),
        lambda: score_service.score_answer(game, score_service.seen_as(whole, role), clock),
    )
    return score


def frame_clock(session: Session, game: Game, shared: live.Shared, at: datetime) -> Clock:
    """The game's clock as a live frame carries it, as of `at` (its newest event's time): read once a wake-up
    (its stored clock and the entries since, app.services.clock.kept), the score's and the frame's one reading."""
    clock: Clock = shared.get(("frame-clock", at), lambda: clock_service.game_clock(session, game, at))
    return clock


_NAMING = frozenset({"parent_id", "side", "level", "kind", "name"})  # what naming reads (unit_names.Named)


def _plain(event: Any) -> bool:
    """Whether an event (as a feed reads it) leaves the stands' names and the sides' seals as they were: a call
    (or its undo), or one only setting or counting what naming does not read of units (a move, a loss)."""
    if logged_kind({"kind": event.kind, "payload": event.payload}) == score_service.CALLED:
        return True
    changes = changes_in(event.payload)
    return bool(changes) and all(
        isinstance(c, UnitSet | UnitCounted) and c.field not in _NAMING for c in changes
    )


class _KeptRead:
    """What the panels read of the game besides the score (the stands' names, the seals), kept between a feed's
    wake-ups as of event `upto`: read again after any event but a call or a unit's state set (`_plain`), or when the
    feed's read does not reach back to `upto`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.value: Any = None
        self.upto = -1

    def get(self, shared: live.Shared, read: Callable[[], Any]) -> Any:
        with self.lock:
            new = shared.since(self.upto) if self.value is not None else None
            if new is None or not all(_plain(e) for e in new):
                self.value, self.upto = read(), shared.newest
            elif new:
                self.upto = new[-1].id
            return self.value


def _kept(shared: live.Shared, name: str, read: Callable[[], Any]) -> Any:
    """`read`'s value for this wake-up, kept by the feed between wake-ups (`_KeptRead`)."""
    return shared.get(name, lambda: shared.kept.get(name, _KeptRead).get(shared, read))


class KeptPanels:
    """The panels each kind of seat and page (role, view) was last carried, kept by a game's feed between its
    wake-ups (`live.Shared.kept`): as of the newest event of the read that built them (`upto`), without the
    clocks' faces (game-clock.js runs them on; a running clock's differ each frame), as `ScorePanel`s."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last: dict[tuple[str, str], tuple[int, ScorePanel]] = {}

    def changed(self, role: str, view: str, panel: ScorePanel, upto: int) -> bool:
        """Whether `panel`, built by a read up to event `upto`, shows what the panels last carried do not: each
        read's newer than the last; an older read's (an audience that joined late rendering it) is carried."""
        shown = replace(
            panel, sides=tuple(replace(s, clock="" if not s.clock else "on") for s in panel.sides)
        )
        with self.lock:
            was, before = self.last.get((role, view), (-1, None))
            if upto <= was:
                return True
            self.last[(role, view)] = (upto, shown)
            return shown != before


def render_panel(game: Game, panel: ScorePanel) -> str:
    """The panels as `_score_panel.html` renders them."""
    return templates.get_template("_score_panel.html").render(game=game, **panel.context())


def frame_panel(
    session: Session, game: Game, role: str, view: str, shared: live.Shared, at: datetime
) -> str | None:
    """The panels a live frame carries (`score_panel`) to a seat of `role`: the referee's with its calls, a side's
    without and with its own secret objectives, for the map's page or the board's, as `GET /games/{id}/score/panel`
    answers that seat (its clocks as of `at`, frame_score); None where they show what the feed's last frames
    carried to such seats (`KeptPanels`: a stand moved on no objective changes none). Built once per wake-up of
    the feed for each, and rendered only where they changed."""

    def build() -> str | None:
        panel = panel_of(
            game,
            frame_score(session, game, shared, at, role),
            role == "referee",
            view,
            _kept(shared, "seals", lambda: secret_objectives.commitments(session, game.pk)),
            _kept(shared, "stand-names", lambda: stand_names(session, game)) if view == "map" else None,
        )
        kept: KeptPanels = shared.kept.get("score-panels", KeptPanels)
        return render_panel(game, panel) if kept.changed(role, view, panel, shared.newest) else None

    html: str | None = shared.get(("score-panel", role, view, at), build)
    return html
