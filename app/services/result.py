"""How a finished game came out: its winner (or a draw), each side's points and losses and how its
objectives stood, from its score as it ended (app.services.score) and its rule set's victory conditions (the
hook's `victory`: the book's printed ones, else the scenario's own, the more points winning). The after-action
report, its print and the story's last line say it in words (`GameResult.words`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import mapping
from sqlmodel import Session, col, select

from app.data.models import Event, Game, Unit, utcnow
from app.data.schemas_score import GameResultOut
from app.errors import RuleRefused
from app.services import clock as clock_service
from app.services import turns
from app.services.events import record
from app.services.games import bump_game, game_state, table_of_game
from app.services.markers import rules_of
from app.services.score import FINISHED, PLAYED_ON, game_score, objective_answer, objectives_of
from app.services.seating import Viewer
from rules.core.acts import EndGame
from rules.core.clock import ends_the_game
from rules.core.errors import RulesError
from rules.core.score import ObjectiveScore, Score, Verdict, kept_score
from rules.core.victory import Met

_SENTENCE_END = re.compile(r"[.?!]+(?=\s|$)")
__all__ = [
    "GameResult",
    "advance_ends",
    "end_refusal",
    "game_result",
    "how_settled",
    "on_condition",
    "play_on",
    "result_answer",
    "turn_now",
]


@dataclass(frozen=True)
class GameResult:
    """A finished game's result: `winner` a side, or None for a draw; `points` and `losses` by side;
    `objectives` as they stood; the turn (or bound) it ended in and how (`ended_by`: "referee", "last-turn", "clock",
    "decided": an instant win, "condition": the referee's end on the scenario's victory condition met);
    `reason` (why the winner won, in words), `words` (the whole result in one sentence) and `source` (the rule);
    `headline` who won in the book's names for its sides (`Book.side_names`), or a draw: "Canadian victory"."""

    winner: str | None
    points: Mapping[str, int]
    losses: Mapping[str, int]
    objectives: tuple[ObjectiveScore, ...]
    ended_at_turn: int
    ended_by: str
    reason: str
    words: str
    source: str
    headline: str = ""

    @property
    def why(self) -> str:
        """The reason as a sentence begins ("Instant win: ...")."""
        return self.reason[:1].upper() + self.reason[1:]


def game_result(session: Session, game_id: int, score: Score | None = None) -> GameResult | None:
    """The game's result once it is over (None while it is played, or for no such game), from its `score`
    where the caller has read it (app.services.score.game_score)."""
    game = session.get(Game, game_id)
    if game is None or game.status != "finished":
        return None
    ended = session.exec(
        select(Event).where(Event.game_id == game_id, Event.kind == FINISHED).order_by(col(Event.id).desc())
    ).first()
    turn = int(ended.payload.get("turn", ended.turn)) if ended is not None else game.turn
    by = str(ended.payload.get("reason", "referee")) if ended is not None else "referee"
    rules = rules_of(game)
    score = score if score is not None else game_score(session, game)
    key = rules.book.score_kept
    outcome = kept_score(game.board.get(key) or {})[1] if key else rules.outcome(score.points)
    met = _met(score, ended.payload.get("condition") if ended is not None and by == "condition" else None)
    if met is not None:  # the condition decided it, not the points: its words are the reason
        outcome = Verdict(met.winner, met.said, f"The scenario's victory condition {met.number}")
    names = rules.book.side_names
    how = {
        "last-turn": f"as its last {rules.book.turn_word} ended",
        "clock": "by the clock, every side short of time as a new turn began",
        "decided": "the moment its winner won",
        "condition": f"by the referee on the scenario's victory condition {met.number if met else ''}",
    }.get(by, "by the referee")
    words = (
        f"Game over in {rules.book.turn_word} {turn}, ended {how}: {outcome.reason}"
        f" ({_tally(score.points, names)}; {rules.book.stand_word}s lost: {_tally(score.losses, names)})."
    )
    winner = outcome.winner
    headline = (
        f"{turns.side_name(names, winner)[:1].upper()}{turns.side_name(names, winner)[1:]} victory"
        if winner
        else "A draw"
    )
    return GameResult(
        outcome.winner,
        dict(score.points),
        dict(score.losses),
        score.objectives,
        turn,
        by,
        outcome.reason,
        words,
        outcome.source,
        headline,
    )


def _met(score: Score, number: Any) -> Met | None:
    return next((m for m in score.met if m.number == number), None)


def _met_now(session: Session, game: Game, viewer: Viewer, number: int, choice: str) -> Met:
    """The victory condition `number` met in this game played, for the referee's choice, else refused."""
    viewer.require_referee(f"{choice} on a victory condition")
    if game.status != "playing":
        raise turns.conflict(game, "The game is not being played: a victory condition waits for its play.")
    written = len(game.board.get("victory_conditions") or ())
    if not 1 <= number <= written:  # the hostile pass: "condition 4 is not met" of a scenario of three
        raise RulesError(
            "condition", f"the scenario has {written} victory conditions: there is no number {number}"
        )
    met = _met(game_score(session, game), number)
    if met is None:
        raise RuleRefused(
            f"Victory condition {number} is not met: the game goes on.", current=game_state(game)
        )
    return met


def on_condition(session: Session, game: Game, viewer: Viewer, version: int | None, number: int) -> EndGame:
    """The referee's end of the game on the scenario's victory condition `number`, met (refused otherwise):
    its result is the condition's (game_result)."""
    _met_now(session, game, viewer, number, "end the game")
    return EndGame(version=game.version if version is None else version, reason="condition", condition=number)


def play_on(session: Session, game: Game, viewer: Viewer, version: int | None, number: int) -> Event:
    """The referee's choice to play on after the scenario's victory condition `number` was met, logged (the
    score then tells it as played on: rules.core.score); chosen once."""
    met = _met_now(session, game, viewer, number, "play on")
    if met.played_on:
        raise RuleRefused(
            f"You chose to play on after victory condition {number} already.", current=game_state(game)
        )
    bump_game(session, game, version)
    return record(session, game, PLAYED_ON, viewer.role, {"condition": number, "words": met.words})


def _tally(by_side: Mapping[str, int], names: Mapping[str, str]) -> str:
    return ", ".join(f"{turns.side_name(names, side)} {n}" for side, n in by_side.items())


def result_answer(game: Game, result: GameResult) -> GameResultOut:
    """The result as the API answers it."""
    shapes = {o.id: mapping(o.geometry) for o in objectives_of(game)}
    names = rules_of(game).book.side_names
    return GameResultOut(
        winner=result.winner,
        points=dict(result.points),
        losses=dict(result.losses),
        objectives=[
            objective_answer(o, shapes).model_copy(update={"settled_words": how_settled(o, True, names)})
            for o in result.objectives
        ],
        ended_at_turn=result.ended_at_turn,
        ended_by=result.ended_by,
        reason=result.reason,
        words=result.words,
        source=result.source,
        headline=result.headline,
    )


def end_refusal(score: Score, by_referee: bool = True, caller: str = "the referee") -> str | None:
    """Why the game may not end now, in one sentence, or None: an objective contested with no call standing
    (a call that lapsed included) is called first, so that the result never settles it by the stands' chance
    (issue 64), whether the referee ends it or its last turn does (`by_referee` False: the last turn's end
    waits for the calls, acts.play). The board's "End the game" offers each call in one tap and its "Yes" only
    once this says None (frontend/static/js/game-score.js reads the same `settled`). `caller`: who calls it
    for the players ("the organiser" at an event's table, where no referee is)."""
    # A name cut and its own sentence ends ("St. Julien", "Hill 60!") left out: one sentence of at most 120.
    open_ = [_SENTENCE_END.sub("", o.name[:48]) for o in score.objectives if o.settled == "contested"]
    if not open_:
        return None
    one = len(open_) == 1
    names = open_[0] if one else f"{open_[0]} and {len(open_) - 1} more"
    verb = "is" if one else "are"
    call = f"call {'it' if one else 'each'}" if by_referee else f"{caller} calls {'it' if one else 'each'}"
    return f"{names} {verb} contested: {call} before the game ends."


def advance_ends(session: Session, game: Game) -> bool:
    """Whether advancing now ends the game by itself: its last turn over, or, as a new turn would start, the
    clock's settings (rules.core.clock.ends_the_game, as of now); either end waits for the referee's calls."""
    if turns.ends_game(game):
        return True
    return turns.starts_turn(game) and ends_the_game(clock_service.game_clock(session, game, utcnow()))


def turn_now(session: Session, game: Game, units: Sequence[Unit] | None = None) -> dict[str, Any]:
    """Where the game stands and what its step needs (app.services.turns.turn_info), and, where advancing
    ends the game (its last turn over, or the clock's settings: `advance_ends`), what the end waits for: each objective contested with no call, which
    the referee calls first (`next.needs`; acts.play refuses the advance until then). `units`: the game's units
    as the caller read them after its writes in the same request (turn_info's), else read there."""
    info = turns.turn_info(session, game, units)
    if info.get("next") and advance_ends(session, game):
        waits = [
            f"the referee's call on {o.name} (contested)"
            for o in game_score(session, game).objectives
            if o.settled == "contested"
        ]
        info["next"] = {**info["next"], "title": "the game ends", **({"needs": waits} if waits else {})}
    return info


def how_settled(o: ObjectiveScore, over: bool, names: Mapping[str, str] | None = None) -> str:
    """How an objective was settled, in words (the report's): held by the stands, called by the referee, or
    contested (at the end, once the game is `over`); a call that lapsed is said too, and, once the game is
    `over`, whose secret objective it was; each side as the book calls it (`names`: `Book.side_names`)."""
    names = names or {}
    holder = f"the {turns.side_name(names, o.holder)}" if o.holder else "nobody"
    if o.settled == "called":
        said = f"called by the referee for {holder}"
    elif o.settled == "contested":
        said = f"contested{' at the end' if over else ''}, not called: the stands gave it to {holder}"
    else:
        said = f"held by {holder}" if o.holder else "held by nobody"
    if o.lapsed_call:
        who = "nobody" if o.lapsed_call == "nobody" else f"the {turns.side_name(names, o.lapsed_call)}"
        said += f" (the referee's call for {who} lapsed as the stands moved)"
    if o.secret_to and over:  # whose secret it was, once over: every secret is revealed then (issue 89)
        said = f"the {turns.side_name(names, o.secret_to)}'s secret objective, {said}"
    return said


# -- the end: by the referee, or at an event's table by its two seats ------------------------------------------
def caller(session: Session, game: Game) -> str:
    """Who calls a contested objective, as its players know them: at an event's table its organiser, away."""
    return "the referee" if table_of_game(session, game.pk) is None else "the organiser"


def may_end(session: Session, game: Game, viewer: Viewer) -> None:
    """Refuse to end a game over already, or one with an objective contested and not called."""
    if game.status == "finished":
        raise turns.conflict(game, "The game is over already: its result stands.")
    # The board's "End the game" offers the referee each call first (one tap each); the seats of an event's
    # table ask their organiser, who referees it.
    refused = end_refusal(game_score(session, game), viewer.is_referee, caller(session, game))
    if refused is not None:
        raise RuleRefused(refused, current=game_state(game))


def seat_ends(session: Session, game: Game, viewer: Viewer, version: int) -> Event | None:
    """A seat's word to end its game at an event's table (turns.seat_ready): the word, while the other side's is
    still to come; None once both have said it (the game is then ended, an EndGame act)."""
    turns.at_table(session, game, "end")  # away from an event, asked first: a player may not end it
    if game.status == "setup":  # its seats' words to start come first: a game never played has no result
        raise turns.conflict(
            game, "The game has not started: both sides say they are ready to start it first."
        )
    may_end(session, game, viewer)
    said = turns.seat_ready(session, game, viewer, "end", version)
    return None if turns.both_ready(session, game, "end") else said[-1]
