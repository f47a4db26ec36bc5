"""How a finished game came out: its winner (or a draw), each side's points and losses and how its
objectives stood, from its score as it ended (app.services.score) and its rule set's victory conditions (the
hook's `victory`: the book's printed ones, else the scenario's own, the more points winning). The after-action
report, its print and the story's last line say it in words (`GameResult.words`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from shapely.geometry import mapping
from sqlmodel import Session, col, select

from app.data.models import Event, Game
from app.data.schemas_answers import GameResultOut
from app.services.markers import rules_of
from app.services.score import FINISHED, game_score, objective_answer, objectives_of
from rules.core.score import ObjectiveScore, kept_score

__all__ = ["GameResult", "game_result", "result_answer"]


@dataclass(frozen=True)
class GameResult:
    """A finished game's result: `winner` a side, or None for a draw; `points` and `losses` by side;
    `objectives` as they stood; the turn (or bound) it ended in and how (`ended_by`: "referee", "last-turn");
    `reason` (why the winner won, in words), `words` (the whole result in one sentence) and `source` (the rule)."""

    winner: str | None
    points: Mapping[str, int]
    losses: Mapping[str, int]
    objectives: tuple[ObjectiveScore, ...]
    ended_at_turn: int
    ended_by: str
    reason: str
    words: str
    source: str


def game_result(session: Session, game_id: int) -> GameResult | None:
    """The game's result once it is over (None while it is played, or for no such game)."""
    game = session.get(Game, game_id)
    if game is None or game.status != "finished":
        return None
    ended = session.exec(
        select(Event).where(Event.game_id == game_id, Event.kind == FINISHED).order_by(col(Event.id).desc())
    ).first()
    turn = int(ended.payload.get("turn", ended.turn)) if ended is not None else game.turn
    by = str(ended.payload.get("reason", "referee")) if ended is not None else "referee"
    rules = rules_of(game)
    score = game_score(session, game)
    key = rules.book.score_kept
    outcome = kept_score(game.board.get(key) or {})[1] if key else rules.outcome(score.points)
    how = "as its last " + rules.book.turn_word + " ended" if by == "last-turn" else "by the referee"
    words = (
        f"Game over in {rules.book.turn_word} {turn}, ended {how}: {outcome.reason}"
        f" ({_tally(score.points)}; stands lost: {_tally(score.losses)})."
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
    )


def _tally(by_side: Mapping[str, int]) -> str:
    return ", ".join(f"{side} {n}" for side, n in by_side.items())


def result_answer(game: Game, result: GameResult) -> GameResultOut:
    """The result as the API answers it."""
    shapes = {o.id: mapping(o.geometry) for o in objectives_of(game)}
    return GameResultOut(
        winner=result.winner,
        points=dict(result.points),
        losses=dict(result.losses),
        objectives=[objective_answer(o, shapes) for o in result.objectives],
        ended_at_turn=result.ended_at_turn,
        ended_by=result.ended_by,
        reason=result.reason,
        words=result.words,
        source=result.source,
    )
