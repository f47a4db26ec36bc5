"""The score of a game, derived from its log (rules.core.score): each side's victory points and losses, and
each of the game's objectives (its board's `table_objectives`, from its scenario) with its holder, the stands
that hold it, whether it is contested and whether the referee called it.

Stored with the act (issue 88): app.services.score_store advances the log's replay in the unit of work of every
act that logs an event and stores it as the game's row (app.data.score_state.StoredScore), so a read is that
row. A game with no row, or a newest row of other objectives, or not of the newest event (events written in one
statement, a game made before): its read replays its log from the newest good point, or the start, and writes
nothing; its next act stores it.

What a viewer reads: the stands' places are on the table for every device (app.services.units hides only a
unit's secret state), and a stand off the table holds nothing, so the points are the same for every viewer. A
side's secret objectives (app.services.secret_objectives, issue 69) are counted with the others, but until one
scores (or the game ends) its points are not counted and only its side and the referee read it (`game_score`'s
`role`; rules.core.score.seen_by): every other reader, by default, reads the score without it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shapely.geometry import mapping
from sqlalchemy import Executable, func, tuple_
from sqlmodel import Session, col, select

from app.core.db import ids_written
from app.core.touched import logged_kind
from app.data.board_state import board_json, read_board
from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Event, Game
from app.data.schemas_clock import GameClock
from app.data.schemas_score import (
    GameScore,
    ObjectiveScoreOut,
    ObjectivesVerifiedOut,
    SideScoreOut,
    VictoryMetOut,
)
from app.data.score_state import StoredScore
from app.data.score_state import read as read_state
from app.errors import RuleRefused
from app.services import secret_objectives
from app.services.markers import rules_of
from app.services.score_store import (
    CALLED,
    FINISHED,
    PLAYED_ON,
    Frame,
    advanced,
    conditions_of,
    frames,
    objectives_of,
)
from rules.core.clock import Clock
from rules.core.errors import RulesError
from rules.core.score import (
    PLACE_FIELDS,
    ObjectiveScore,
    Score,
    kept_score,
    score_at,
    seen_by,
)
from rules.table.objectives import objectives_from_geojson

__all__ = [
    "CALLED",
    "FINISHED",
    "PLAYED_ON",
    "conditions_of",
    "game_points",
    "game_score",
    "game_scores",
    "newest_events",
    "objective_answer",
    "objectives_edited",
    "objectives_of",
    "score_answer",
    "seen_as",
    "touches_score",
]

# Said of the table's objectives, the page's and the API's alike (the API's route: docs/scenario-format.md).
SECRET_GIVEN = (
    "a game's secret objective is given apart and sealed: the referee's Give a side a secret objective"
)


# The refusal of an edit to the table once the game has started (the table editor's page says the same).
STARTED = "the game has started, and its table can be edited only before it starts"


def objectives_edited(game: Game, collection: Mapping[str, Any]) -> dict[str, Any]:
    """The game's board with its objectives replaced by `collection` (as a scenario writes them, each checked
    on the game's table: a RulesError naming the field), which the score then reads; refused (409) once the
    game has started, as an edit to its table is."""
    if game.status != "setup":
        raise RuleRefused(STARTED)
    kept = objectives_from_geojson(collection, game.table_width_cm, game.table_length_cm)
    ids = {o.id for o in kept}
    for i, c in enumerate(game.board.get("victory_conditions") or ()):
        if c.get("objective") and c["objective"] not in ids:  # its score would name an objective gone
            said = f"victory condition {i + 1} names the objective {c['objective']}: keep it"
            raise RulesError("table_objectives", said, sorted(ids | {str(c["objective"])}))
    for i, feature in enumerate(collection.get("features") or ()):  # the board is every device's
        if (feature.get("properties") or {}).get(secret_objectives.SECRET) is not None:
            raise RulesError(f"table_objectives.features.{i}.properties.secret_to", SECRET_GIVEN)
    board = read_board(game)
    board.table_objectives = dict(collection) if collection.get("features") else None
    return board_json(game, board)


def game_score(session: Session, game: Game, role: str | None = None) -> Score:
    """The game's score now, from its log (or as its rules keep it on its board: Book.score_kept), as `role`
    may read it (`seen_as`; None: a reader of no seat, what is every device's)."""
    return seen_as(game_scores(session, [game], whole=True)[game.pk], role)


def seen_as(score: Score, role: str | None) -> Score:
    """The score as a seat of `role` reads it: the referee every objective, a side its own secret ones too,
    anyone else none that is still secret."""
    return score if role == "referee" else seen_by(score, role)


def secrets_checked(session: Session, game: Game, side: str, whole: bool) -> ObjectivesVerifiedOut:
    """`side`'s secret objectives checked against the commitment published as the game started
    (secret_objectives.verification): the whole tree where `whole` (the game over, or asked by the side itself or
    the referee), else those revealed; nothing revealed yet is one 409 whether the side holds any or none."""
    full = game_score(session, game, "referee")
    revealed = {o.id for o in full.objectives if o.secret_to == side and o.revealed}
    if not whole and not revealed:
        raise RuleRefused(
            f"nothing of the {side}'s secret objectives is revealed yet: check it once one scores"
        )
    return secret_objectives.verification(session, game, side, revealed, whole)


# Built once, the games bound at each read (every score read built them anew): each game's newest
# event, looked up by game (one step down its index, not a scan of its log as a group), and what is stored at
# those events: the state a score is made of, or the points alone (no state decoded).
_NEWEST = select(
    col(Game.id), select(func.max(col(Event.id))).where(col(Event.game_id) == col(Game.id)).scalar_subquery()
).where(col(Game.id).in_(ids_written("game_ids")))
_AT_NEWEST = tuple_(col(StoredScore.game_id), col(StoredScore.event_id)).in_(ids_written("points"))
_STORED_STATES = select(col(StoredScore.game_id), col(StoredScore.inputs), col(StoredScore.state)).where(
    _AT_NEWEST
)
_STORED_POINTS = select(col(StoredScore.game_id), col(StoredScore.inputs), col(StoredScore.points)).where(
    _AT_NEWEST
)


def newest_events(session: Session, game_ids: Sequence[int]) -> dict[int, int]:
    """Each of these games' newest event's id, by game (0: none), in one query however many."""
    if not game_ids:
        return {}
    return {pk: n or 0 for pk, n in session.execute(_NEWEST, {"game_ids": list(game_ids)})}


def _stored_now(
    session: Session, games: Sequence[Game], stored: Executable, newest: Mapping[int, int] | None = None
) -> tuple[dict[int, Frame], dict[int, Any]]:
    """Each game's Frame, and what `stored` reads of its row at its newest event (`newest`, by game, where the
    caller has read it: `newest_events`), where that row is of the frame's objectives and conditions (a game
    with none: its log is replayed, `advanced`)."""
    framed = frames(session, games)
    ids = [g.pk for g in games]
    newest = newest_events(session, ids) if newest is None else {pk: newest.get(pk, 0) for pk in ids}
    rows = session.execute(stored, {"points": list(newest.items())})
    return framed, {pk: kept for pk, inputs, kept in rows if inputs == framed[pk].digest}


def game_scores(session: Session, games: Sequence[Game], whole: bool = False) -> dict[int, Score]:
    """Each game's score now (game_score), by id, for any number of games in a few queries. Every device's (no
    objective still secret), or the `whole` score (the referee's). A game's stored score is read where it is the
    log's newest event's and of the game's objectives and conditions; else (a game made before it was stored,
    or its events written in bulk) its log is replayed from the newest stored point (or the start), and nothing
    is written: the next act stores it."""
    out: dict[int, Score] = {}
    reading = [g for g in games if not rules_of(g).book.score_kept]
    for game in games:
        key = rules_of(game).book.score_kept
        if key:
            out[game.pk] = kept_score(game.board.get(key) or {})[0]
    if not reading:
        return out
    framed, states = _stored_now(session, reading, _STORED_STATES)
    for game in reading:
        frame = framed[game.pk]
        state = states.get(game.pk)
        if state is not None:
            replay = read_state(state).replay(frame.start(), {})
        else:
            replay = advanced(session, game, frame, store=False)
        whole_score = score_at(replay)
        out[game.pk] = whole_score if whole else seen_by(whole_score, None)
    return out


def game_points(
    session: Session, games: Sequence[Game], newest: Mapping[int, int] | None = None
) -> dict[int, dict[str, int]]:
    """Each side's points in each of these games now, by id (every reader's: `seen_by` hides none), for any
    number of games in a few queries: the organiser's board of a round's hundreds of tables (issue 93). A row
    a game, as its newest act stored them (`newest`: each game's newest event, where the caller has read it);
    a game whose row has none (stored before they were, or no row): its score (`game_scores`)."""
    reading = [g for g in games if not rules_of(g).book.score_kept]
    _, stored = _stored_now(session, reading, _STORED_POINTS, newest) if reading else ({}, {})
    out = {pk: {side: int(n) for side, n in points.items()} for pk, points in stored.items() if points}
    rest = [g for g in games if g.pk not in out]
    scored = game_scores(session, rest) if rest else {}
    return out | {pk: {side: int(n) for side, n in s.points.items()} for pk, s in scored.items()}


def score_answer(game: Game, score: Score, clock: Clock | None = None) -> GameScore:
    """The score as `GET /games/{id}/score` answers it, with each side's clock (app.services.clock)."""
    rules = rules_of(game)
    shapes = {o.id: mapping(o.geometry) for o in objectives_of(game)}
    steps = rules.steps(game.period)
    step = steps[game.step].title if game.status == "playing" and game.step < len(steps) else None
    return GameScore(
        game_id=game.pk,
        status=game.status,
        turn=game.turn,
        turn_word=rules.book.turn_word,
        last_turn=game.board.get("last_turn"),
        side_to_move=game.side_to_move,
        step=step,
        sides=[
            SideScoreOut(side=s, points=score.points[s], losses=score.losses[s], needed=score.needed.get(s))
            for s in score.points
        ],
        objectives=[objective_answer(o, shapes) for o in score.objectives],
        met=[VictoryMetOut.model_validate(m, from_attributes=True) for m in score.met],
        clocks=GameClock.of(clock).sides if clock is not None else [],
    )


def objective_answer(o: ObjectiveScore, shapes: Mapping[str, Any]) -> ObjectiveScoreOut:
    """An objective of the score as the API answers it, with its point or area (`shapes`, by id)."""
    return ObjectiveScoreOut.model_validate(
        {
            **{k: getattr(o, k) for k in o.__dataclass_fields__},
            "stands": list(o.stands),
            "geometry": shapes.get(o.id) or (mapping(o.geometry) if o.geometry is not None else None),
        }
    )


def touches_score(event: Mapping[str, Any]) -> bool:
    """Whether an event (as `events.event_dict` gives it) may change the score: a stand moved, destroyed or
    taken off, a unit added, a call (an undo of any of them too), the objectives edited, the turn moving on or the
    game's end. Any other (a marker, its undo) leaves the score as it was, and its frame reads nothing for it."""
    if logged_kind(event) in (CALLED, FINISHED, PLAYED_ON, "unit-added", "step", "turn-started"):
        return True  # an undone call or unit as well
    if event["kind"] == "game-updated":  # the referee's edit of the table's objectives (objectives_edited)
        return "table_objectives" in (event["payload"].get("fields") or ())
    # An undo says by its changes, as any event (a marker's undo changes no stand's place).
    return any(
        isinstance(c, UnitSet | UnitCounted) and c.field in PLACE_FIELDS for c in changes_in(event["payload"])
    )
