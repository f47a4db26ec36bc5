"""The score of a game, derived from its log (rules.core.score): each side's victory points and losses, and
each of the game's objectives (its board's `table_objectives`, from its scenario) with its holder, the stands
that hold it, whether it is contested and whether the referee called it. Nothing is stored: the score is worked
out from the events and the stands as they stand, so it survives a restart and follows an undo (a worker keeps
the log's replay between reads, to replay only the events since: app.services.score_replays).

What a viewer reads: the stands' places are on the table for every device (app.services.units hides only a
unit's secret state), and a stand off the table holds nothing, so the points are the same for every viewer. A
side's secret objectives (app.services.secret_objectives, issue 69) are counted with the others, but until one
scores (or the game ends) its points are not counted and only its side and the referee read it (`game_score`'s
`role`; rules.core.score.seen_by): every other reader, by default, reads the score without it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from shapely.geometry import mapping
from sqlalchemy import and_, func, or_
from sqlmodel import Session, col, select

from app.core.touched import logged_kind
from app.data.board_state import board_json, read_board
from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Event, Game, Unit
from app.data.schemas_clock import GameClock
from app.data.schemas_score import (
    GameScore,
    ObjectiveScoreOut,
    ObjectivesVerifiedOut,
    SideScoreOut,
    VictoryMetOut,
)
from app.errors import RuleRefused
from app.services import score_replays, secret_objectives
from app.services.events import reversed_ids_of
from app.services.markers import rules_of
from rules.core.clock import Clock
from rules.core.errors import RulesError
from rules.core.score import (
    Logged,
    Moved,
    ObjectiveScore,
    Piece,
    Score,
    kept_score,
    pieces_before,
    replay_start,
    score_at,
    score_of,
    seen_by,
)
from rules.core.victory import Condition, conditions_from_json
from rules.table.objectives import Objective, objectives_from_geojson

__all__ = [
    "CALLED",
    "FINISHED",
    "PLAYED_ON",
    "conditions_of",
    "game_score",
    "game_scores",
    "objective_answer",
    "objectives_edited",
    "objectives_of",
    "score_answer",
    "seen_as",
    "touches_score",
]

CALLED = "objective-called"  # rules.core.acts.CallObjective.event
FINISHED = "game-finished"  # rules.core.acts.EndGame.event
TURN_OVER = (
    "last-turn",
    "clock",
)  # an EndGame's reasons that end the game as a turn would start (turns._ended)
PLAYED_ON = "victory-played-on"  # the referee plays on after a victory condition met (app.services.result)
_PLACE = frozenset({"x", "y", "facing_deg", "killed", "off_table"})


def objectives_of(game: Game) -> list[Objective]:
    """The game's objectives as its scenario wrote them (none for a game made without one)."""
    kept = game.board.get("table_objectives")
    if not kept:
        return []
    return objectives_from_geojson(kept, game.table_width_cm, game.table_length_cm)


def conditions_of(game: Game, objectives: Sequence[Objective]) -> list[Condition]:
    """The game's victory conditions as its scenario wrote them (checked as it was imported)."""
    kept = game.board.get("victory_conditions")
    if not kept:
        return []
    return conditions_from_json(list(kept), {o.id for o in objectives}, rules_of(game).book.broken)


# Said of the table's objectives, the page's and the API's alike (the API's route: docs/scenario-format.md).
SECRET_GIVEN = (
    "a game's secret objective is given apart and sealed: the referee's Give a side a secret objective"
)


def still_secret(session: Session, game: Game, objective_id: str) -> bool:
    """Whether `objective_id` is a secret objective not yet revealed (read only for an id of no public one)."""
    if any(o.id == objective_id for o in objectives_of(game)):
        return False
    if not any(r.feature.get("id") == objective_id for r in secret_objectives.rows(session, [game.pk])):
        return False
    return all(o.id != objective_id for o in game_score(session, game).objectives)


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


class LogRow(Protocol):
    """An event's columns the score reads (`Event`'s; read alone, no row object made: 2,000 of them were 0.4 s)."""

    id: int
    turn: int
    kind: str
    payload: dict[str, Any]
    private: dict[str, Any]
    reverses_id: int | None


def logged(events: Iterable[LogRow], undone: set[int]) -> list[Logged]:
    """The game's events as the score reads them: the stands' places changed, the units added, the referee's
    calls and the game's end; an act undone and its undoing marked (nothing scores by them: Logged.undone)."""
    out: list[Logged] = []
    for ev in events:
        whole = {**ev.payload, **(ev.private or {}).get("referee", {})}
        moved = tuple(
            Moved(c.unit, c.field, getattr(c, "before", None), c.after)
            for c in changes_in(whole)
            if isinstance(c, UnitSet | UnitCounted) and c.field in _PLACE
        )
        added: tuple[int, ...] = ()
        unit = whole.get("unit")
        if ev.kind == "unit-added" and isinstance(unit, dict) and isinstance(unit.get("id"), int):
            added = (unit["id"],)
        call = None
        if ev.kind == CALLED and ev.id not in undone:
            side = whole.get("side")
            call = (str(whole.get("objective_id")), side if isinstance(side, str) else None)
        played_on = whole.get("condition") if ev.kind == PLAYED_ON and ev.id not in undone else None
        out.append(
            Logged(
                ev.turn,
                moved,
                added,
                call,
                ev.kind == FINISHED,
                ev.id,
                played_on if isinstance(played_on, int) else None,
                ev.id in undone or ev.reverses_id is not None,
                whole.get("reason", TURN_OVER[0]) in TURN_OVER,
            )
        )
    return out


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


def game_scores(session: Session, games: Sequence[Game], whole: bool = False) -> dict[int, Score]:
    """Each game's score now (game_score), by id, read for any number of games in one query of their stands
    and one of their logs: the organiser's board of a round's hundreds of tables (issue 63). Every device's
    (no objective still secret), or the `whole` score (the referee's)."""
    out: dict[int, Score] = {}
    reading: dict[int, tuple[Game, list[Objective]]] = {}
    for game in games:
        key = rules_of(game).book.score_kept
        if key:
            out[game.pk] = kept_score(game.board.get(key) or {})[0]
        else:
            reading[game.pk] = (game, objectives_of(game))
    if not reading:
        return out
    secret = secret_objectives.objectives(session, [g for g, _ in reading.values()])
    reading = {pk: (g, [*objectives, *secret[pk]]) for pk, (g, objectives) in reading.items()}
    # The stands' columns alone (no unit's row object made), as the database holds them now.
    stands = (
        select(col(Unit.game_id), col(Unit.id), col(Unit.side), col(Unit.base))
        .add_columns(col(Unit.x), col(Unit.y), col(Unit.facing_deg), col(Unit.killed), col(Unit.off_table))
        .where(col(Unit.game_id).in_(list(reading)), col(Unit.base).is_not(None))
        .order_by(col(Unit.id))
    )
    now: dict[int, list[Piece]] = {pk: [] for pk in reading}
    for game_id, *piece in session.execute(stands):
        if piece[2]:  # a stand has a base
            now[game_id].append(Piece(*piece))
    # A condition names a public objective only (rules.core.scenario): its words are every seat's.
    conditions = {
        pk: conditions_of(game, [o for o in objectives if o.secret_to is None])
        for pk, (game, objectives) in reading.items()
    }
    # Without any objective or condition, the stands now give the losses: the log is not read.
    logs: dict[int, list[LogRow]] = {
        pk: [] for pk, (_, objectives) in reading.items() if objectives or conditions[pk]
    }
    undone = reversed_ids_of(session, list(logs))
    # A game's replay kept from an earlier read (app.services.score_replays): only its last event and those after
    # it are read.
    inputs = {pk: _inputs(game, reading[pk][1], conditions[pk]) for pk, (game, _) in reading.items()}
    # Kept by database (a worker may serve more than one: the tests' do) and by game, as made (an id reused).
    url = str(session.get_bind().engine.url)  # its password hidden
    keys = {pk: (url, pk, game.created_at) for pk, (game, _) in reading.items()}
    starts = {pk: score_replays.resume_point(keys[pk], inputs[pk], undone[pk]) for pk in logs}
    after = {pk: s.event_id for pk, s in starts.items() if s is not None}
    counts: dict[int, int] = {}
    if after:  # the events each game has, to tell one committed late, below a kept replay's
        q = select(col(Event.game_id), func.count()).where(col(Event.game_id).in_(list(after)))
        counts = {pk: n for pk, n in session.execute(q.group_by(col(Event.game_id)))}
    if logs:
        _read_logs(session, logs, after)
    for pk, (game, objectives) in reading.items():
        book = rules_of(game).book
        if pk not in logs:
            whole_score = score_of(objectives, book.kit.bases, now[pk], [], conditions[pk], book.broken)
        else:
            log = logged(logs[pk], undone[pk])
            start = starts[pk]
            replay = None
            if start is not None:
                replay = score_replays.replayed(
                    keys[pk], inputs[pk], start, counts.get(pk, 0), now[pk], log, undone[pk], None
                )
            if replay is None:  # none kept, or not good for these events: the whole log replayed
                if start is not None:
                    logs[pk] = []
                    _read_logs(session, {pk: logs[pk]}, {})
                    log = logged(logs[pk], undone[pk])
                back = pieces_before(now[pk], log)[0]
                fresh = replay_start(objectives, book.kit.bases, back, conditions[pk], book.broken)
                replay = score_replays.replayed(
                    keys[pk], inputs[pk], None, 0, now[pk], log, undone[pk], fresh
                )
            assert replay is not None  # (replayed from the start, it is)
            whole_score = score_at(replay)
        out[pk] = whole_score if whole else seen_by(whole_score, None)
    return out


def _read_logs(session: Session, logs: dict[int, list[LogRow]], after: Mapping[int, int]) -> None:
    """Each game's events into `logs` (by game id), in order: from `after`'s event id where it names one."""
    whole = [pk for pk in logs if pk not in after]
    which = [and_(col(Event.game_id) == pk, col(Event.id) >= after[pk]) for pk in logs if pk in after]
    if whole:
        which.append(col(Event.game_id).in_(whole))
    q = (
        select(col(Event.game_id), col(Event.id), col(Event.turn), col(Event.kind))
        .add_columns(col(Event.payload), col(Event.private), col(Event.reverses_id))
        .where(or_(*which))
        .order_by(col(Event.id))
    )
    for row in session.execute(q):
        logs[row.game_id].append(row)


def _inputs(game: Game, objectives: Sequence[Objective], conditions: Sequence[Condition]) -> object:
    """What a kept replay is good for: the rule set (its bases), the objectives (their shapes as bytes: a
    shape's repr is cut short) and the victory conditions it was made with."""
    return (
        game.ruleset,
        tuple(
            (o.id, o.name, o.vp, o.scored, o.held_by, o.turns, o.consecutive, o.secret_to, o.geometry.wkb)
            for o in objectives
        ),
        tuple(conditions),
    )


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
        isinstance(c, UnitSet | UnitCounted) and c.field in _PLACE for c in changes_in(event["payload"])
    )
