"""The turn: the period's order sequence, what the table may do now (rules of play), advancing a step,
and what happens at the start and the end of a turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypedDict

from sqlmodel import Session, and_, col, func, or_, select

from app.data.models import Event, Game, Unit
from app.data.overrides import Overridden
from app.errors import Forbidden, RuleRefused
from app.services import secret_objectives
from app.services.events import record
from app.services.fireplans import arrive, due_items, each_turn, lock_plan, seal_due
from app.services.games import bump_game, game_state, game_values, table_of_game
from app.services.markers import apply_changes, kept_of, rules_of, snapshot_of, table_snapshot
from app.services.seating import Viewer
from app.services.seats import sides
from app.services.unit_names import told_apart_names
from app.services.units import list_units
from rules.core.acts import EndGame, Roll
from rules.core.game import (
    TURN_ENDED,
    TURN_STARTED,
    Member,
    Need,
    Position,
    first_position,
    next_position,
    over,
)
from rules.core.game import acting as acting_sides
from rules.core.records import Snapshot, UnitState
from rules.core.turn import Permit, Step
from rules.core.vocabulary import SIDES


# -- the turn sequence (the game's rule set's: rules.core.game.GameRules) -----------------------------------
def sequence(game: Game) -> tuple[Step, ...]:
    return rules_of(game).steps(game.period)


def position(game: Game) -> Position:
    """Where the game's turn stands, as its rule set's turn model reads it."""
    return Position(game.turn, game.side_to_move, game.step)


def acting(game: Game) -> tuple[str, ...]:
    """The sides that may act now (the turn model's)."""
    return acting_sides(rules_of(game), game.period, position(game))


def step_of(game: Game) -> Step | None:
    seq = sequence(game)
    return seq[game.step] if game.status == "playing" and game.step < len(seq) else None


def turn_info(session: Session, game: Game, units: Sequence[Unit] | None = None) -> dict[str, Any]:
    """Where the game stands and what the current step needs. `units`: the game's units as the caller read
    them in the same request after its writes (a panel built once the act is played), else read here."""
    turn = rules_of(game)
    seq = sequence(game)
    current = step_of(game)
    info: dict[str, Any] = {
        "status": game.status,
        "turn": game.turn,
        "side_to_move": game.side_to_move,
        "version": game.version,
        **game_values(game),
        "sequence": [
            {
                "index": i,
                "number": s.number,
                "id": s.id,
                "title": s.title,
                "printed": s.printed,
                "source": s.source,
                "attacker_only": s.attacker_only,
                "permits": [_permit_dict(p) for p in s.permits],
            }
            for i, s in enumerate(seq)
        ],
        "source": turn.book.turn_source,
        # What the players may do to the table now (markers, moves, edits, new units): the rest is refused.
        "allowed_now": turn.allowed_now(game.status, game.period, position(game)),
    }
    if game.status != "finished" and table_of_game(session, game.pk) is not None:
        info["seats_start_and_end"] = True
        info["ready"] = sorted(ready_sides(session, game, "start" if game.status == "setup" else "end"))
    if game.status == "setup":
        # A plan sealed each turn is written in its turn: set-up locks none.
        locked = {s.side: s.plan_locked or each_turn(game) for s in sides(session, game.pk)}
        info["step"] = None
        info["next"] = {
            "action": "start",
            "needs": [f"lock the {side}'s fire plan" for side, ok in locked.items() if not ok]
            + list(turn.book.set_up_needs),
            "source": turn.book.set_up_source,
        }
        return info
    if current is None:
        info["step"] = None
        info["next"] = None
        return info
    if (
        units is None
    ):  # the version's state: each unit decoded and named once a version (app.services.kept_units)
        kept = kept_of(session, game)
        table = replace(table_snapshot(session, game, kept.units), units=kept.told_apart(None))
    else:
        table = told_apart(snapshot_of(session, game, units), units)
    needs = [current.does, *turn.needs(table, current.id)]
    then = next_position(turn, game.period, position(game))
    nxt = seq[then.step] if then.turn == game.turn and then.side == game.side_to_move else None
    info["step"] = {
        "index": game.step,
        "number": current.number,
        "id": current.id,
        "title": current.title,
        "printed": current.printed,
        "source": current.source,
    }
    info["needs"] = needs
    # The stand whose card offers the act settling each need (the board's "End the game" opens it in one tap).
    info["needs_cards"] = [n.unit_id if isinstance(n, Need) else None for n in needs]
    info["resolvers"] = list(current.resolvers)
    info["next"] = (
        {"action": "advance", "step": nxt.id, "title": nxt.title}
        if nxt
        else {"action": "end-turn", "then": {"turn": then.turn, "side_to_move": then.side}}
    )
    return info


class PermitDict(TypedDict):
    """What a step permits (the turn's PermitOut): the act, the units it is for, the rule's words and line."""

    action: str
    units: list[str]
    quote: str
    source: str


def _permit_dict(p: Permit) -> PermitDict:
    return {"action": p.action, "units": list(p.units), "quote": p.quote, "source": p.source}


def rules_of_play(
    session: Session,
    game: Game,
    viewer: Viewer,
    action: str,
    unit: Unit | UnitState | None = None,
    *,
    side: str | None = None,
    override: bool = False,
    units: Sequence[Member] | None = None,
) -> Overridden | None:
    """Refuse what the game's status and the current step of its turn sequence do not allow: a 409 that
    names the rule or step and says what is allowed now. The referee may override; the answer is then the
    record of the override, for the event that logs the act (None when nothing was overridden). `units`: the
    game's units when the caller has read them (asked for many stands, they are read once)."""
    if override:
        viewer.require_referee("override the rules of play")
    turn = rules_of(game)
    # Only the acts a step's orders give to some units need to know whose orders reach the stand.
    ordered = unit is not None and action in turn.book.ordered_acts
    if unit is None or not ordered:
        units = []
    elif units is None:
        units = list_units(session, game.pk)
    whose = side or (unit.side if unit is not None else None)
    refused = turn.refusal(game.status, game.period, position(game), action, whose, unit, units)
    return _overridden(
        game, viewer, refused or over(game.status, action), override and not _result_stands(game)
    )


def plan_of_play(session: Session, game: Game, viewer: Viewer, side: str) -> None:
    """The rules of play of writing or sealing a plan sealed each turn: in the steps the turn allows
    `plan-fire` (a 409 naming the step otherwise); a plan locked once is written in set-up."""
    if game.status == "playing" and each_turn(game):
        rules_of_play(session, game, viewer, "plan-fire", side=side)


def roll_refused(game: Game, viewer: Viewer, roll: Roll, snapshot: Snapshot) -> str | None:
    """What the current step and the side to move say of a roll (GameRules.roll_refusal): None when allowed,
    else its refusal. A roll is for its unit's side, else for the roller's (the referee's: the side to move's)."""
    side = viewer.role if viewer.role in SIDES else game.side_to_move
    return rules_of(game).roll_refusal(game.status, snapshot, position(game), roll, side)


def roll_of_play(game: Game, viewer: Viewer, roll: Roll, snapshot: Snapshot) -> Overridden | None:
    """The rules of play of a roll: a 409 naming the step, or the record of the referee's override."""
    refused = roll_refused(game, viewer, roll, snapshot) or over(game.status, "roll")
    return _overridden(game, viewer, refused, roll.override and not _result_stands(game))


def _result_stands(game: Game) -> bool:
    """A finished game's result stands: no override of the referee's changes its table (session 23's hostile
    pass moved a stand, put a marker on one and added a unit after the end, each over `override`)."""
    return game.status == "finished"


def _overridden(game: Game, viewer: Viewer, refused: str | None, override: bool) -> Overridden | None:
    if refused is None:
        return None
    if override:
        return Overridden(viewer.role, getattr(refused, "why", refused))  # the rule in full, for the log
    raise conflict(game, refused)


def conflict(game: Game, refused: str) -> RuleRefused:
    """The 409 of a refusal of the rules of play: its one sentence, the rule in full and its source (a rule
    set's Refusal gives them), where the game stands and what is allowed now."""
    turn = rules_of(game)
    step = step_of(game)
    return RuleRefused(
        refused,
        why=getattr(refused, "why", None),
        source=getattr(refused, "source", None),
        current={
            "status": game.status,
            "turn": game.turn,
            "side_to_move": game.side_to_move,
            "step": {"number": step.number, "id": step.id, "title": step.title, "source": step.source}
            if step
            else None,
            "allowed_now": turn.allowed_now(game.status, game.period, position(game)),
            **(
                {}
                if _result_stands(game)
                else {
                    "override": 'the referee may do it anyway with "override": true; the log shows the override'
                }
            ),
        },
    )


def logged_step(game: Game) -> str:
    """The step an act on the table is logged in: the current step, else the game's status."""
    step = step_of(game)
    return step.id if step else game.status


def advance(
    session: Session,
    game: Game,
    viewer: Viewer,
    expected_version: int,
    clock_ends: Callable[[], bool] = lambda: False,
) -> list[Event]:
    """Move to the next step; past the last step the side's turn ends and the other side's begins, unless the
    scenario's last turn is over or, as a new turn would start, the clock's settings end the game
    (`clock_ends`, asked of the game clock by the caller). From set-up this starts the game (locking any plan
    not yet locked). A plan sealed each turn is sealed as
    the turn leaves its last step allowing `plan-fire`, and its items land as the turn enters their step."""
    if game.status == "finished":
        raise RuleRefused("The game is over: its turns no longer change", current=game_state(game))
    if game.status == "setup":
        said: list[Event] = []
        if not viewer.is_referee:
            said = seat_ready(session, game, viewer, "start", expected_version)
            if not both_ready(session, game, "start"):
                return said  # the other seat's word still to come
        bump_game(session, game, None if said else expected_version)
        events = said + [
            lock_plan(session, game, s.side, "system")
            for s in sides(session, game.pk)
            if not s.plan_locked and not each_turn(game)
        ]
        secret_objectives.seal(session, game)  # each side's, published as the game starts (issue 69)
        first = first_position(rules_of(game))
        bump_game(
            session, game, None, status="playing", turn=first.turn, side_to_move=first.side, step=first.step
        )
        source = rules_of(game).book.turn_source
        events.append(record(session, game, "game-started", viewer.role, {"source": source}))
        return events + start_of_turn(session, game)
    if not may_advance(session, game, viewer):
        names = rules_of(game).book.side_names
        raise Forbidden(
            f"Wait for your turn: it is the {' and '.join(side_name(names, s) for s in acting(game))}'s"
        )
    bump_game(session, game, expected_version)
    seq = sequence(game)
    before = step_of(game)
    after = next_position(rules_of(game), game.period, position(game))
    if after.turn == game.turn and after.side == game.side_to_move:  # a step of the same turn
        bump_game(session, game, None, step=after.step)
        now = seq[game.step]
        entered = [
            record(
                session,
                game,
                "step",
                viewer.role,
                {
                    "from": before.id if before else None,
                    "to": now.id,
                    "title": now.title,
                    "source": now.source,
                },
                step=now.id,
            )
        ]
        entered += seal_due(session, game, "system")
        due = due_items(session, game)
        units = list_units(session, game.pk) if due else []  # read once for the items arriving together
        for item in due:
            entered += arrive(session, game, item, step=now.id, units=units)
        return entered
    events = seal_due(session, game, "system", leaving=True) + end_of_turn(session, game, viewer.role)
    if ends_game(game, after):
        return [*events, _ended(session, game, viewer, "last-turn")]
    if after.turn > game.turn and clock_ends():
        return [*events, _ended(session, game, viewer, "clock")]
    bump_game(session, game, None, turn=after.turn, side_to_move=after.side, step=after.step)
    return events + start_of_turn(session, game)


# -- an event's table: no referee there, the seats start and end the game by each saying so ---------------------
READY = "side-ready"  # a seat's word that its side is ready to start (set-up) or to end (play) the game
NEUTRAL = (READY, "undo")  # what may come between the two seats' words to end without lapsing the first


def ready_sides(session: Session, game: Game, purpose: str) -> set[str]:
    """The sides whose seat has said it is ready to `purpose` ("start" or "end") the game and not taken the word
    back (undone): to start, a word said in set-up stands while either side sets up; to end, only a word with
    nothing played since (a move, a roll, a step of either side, an undo of one, lapses it)."""
    since = 0
    if purpose == "end":
        # An undo of anything but a word changes the table as a move does (a move taken back): it lapses a word.
        words = select(Event.id).where(Event.game_id == game.pk, Event.kind == READY)
        played = or_(
            col(Event.kind).not_in(NEUTRAL), and_(Event.kind == "undo", col(Event.reverses_id).not_in(words))
        )
        since = session.exec(select(func.max(Event.id)).where(Event.game_id == game.pk, played)).one() or 0
    rows = session.exec(
        select(Event).where(Event.game_id == game.pk, col(Event.kind).in_(NEUTRAL), col(Event.id) > since)
    ).all()
    undone = {r.reverses_id for r in rows if r.kind == "undo"}
    return {
        str(r.payload.get("side"))
        for r in rows
        if r.kind == READY and r.id not in undone and r.payload.get("for") == purpose
    }


def side_name(names: Mapping[str, str], side: str) -> str:
    """What the book calls `side` (`Book.side_names`: "Canadian"), else the side itself ("attacker")."""
    return names.get(side) or side


def may_advance(session: Session, game: Game, viewer: Viewer) -> bool:
    """Whether `advance` takes the viewer's step on now, the pages' Next step shown by it: the referee until the
    game is over; in set-up a seat at an event's table whose side has not said it is ready (`seat_ready`); in
    play a seat of a side acting now (the step's own sides, else the side to move: its phases are its own)."""
    if game.status == "finished":
        return False
    if viewer.is_referee:
        return True
    if game.status == "setup":
        return table_of_game(session, game.pk) is not None and viewer.role not in ready_sides(
            session, game, "start"
        )
    return any(viewer.may_act_for(side) for side in acting(game))


def both_ready(session: Session, game: Game, purpose: str) -> bool:
    """Whether both seats have said they are ready to `purpose` the game (ready_sides)."""
    return ready_sides(session, game, purpose) == set(SIDES)


def at_table(session: Session, game: Game, purpose: str) -> None:
    """Refuse a player's word to `purpose` a game at no event's table: there the referee starts and ends it."""
    if table_of_game(session, game.pk) is None:
        raise Forbidden(f"Ask the referee: the referee may {purpose} the game, a player may not")


def seat_ready(
    session: Session, game: Game, viewer: Viewer, purpose: str, expected_version: int
) -> list[Event]:
    """A seat's word that its side is ready to `purpose` the game, at an event's table only (its organiser, the
    referee, is away from it: elsewhere the referee starts and ends the game); said again, it is refused."""
    at_table(session, game, purpose)
    if viewer.role in ready_sides(session, game, purpose):
        other = next(s for s in SIDES if s != viewer.role)
        raise RuleRefused(
            f"Your side is ready to {purpose} already: the {other} says it next", current=game_state(game)
        )
    bump_game(session, game, expected_version)
    return [record(session, game, READY, viewer.role, {"side": viewer.role, "for": purpose})]


def starts_turn(game: Game, after: Position | None = None) -> bool:
    """Whether advancing now starts a new turn of a game played (`after`: the next position, where the caller
    has worked it out)."""
    if game.status != "playing":
        return False
    after = after or next_position(rules_of(game), game.period, position(game))
    return after.turn > game.turn


def ends_game(game: Game, after: Position | None = None) -> bool:
    """Whether advancing now ends the game: the scenario's last turn over (`after`: the next position, where
    the caller has worked it out)."""
    last = game.board.get("last_turn")
    return starts_turn(game, after) and isinstance(last, int) and game.turn >= last


def decided(session: Session, game: Game, viewer: Viewer) -> Event | None:
    """The game ended the moment the score its rules keep names a winner while it is played (`Book.score_kept`:
    an instant win, as its book says), in the act's unit of work: its result and rule stand as the score says."""
    kept = rules_of(game).book.score_kept
    said = (game.board.get(kept) or {}).get("outcome") if kept and game.status == "playing" else None
    if not isinstance(said, dict) or not said.get("winner"):
        return None
    return _ended(session, game, viewer, "decided", {"why": said.get("reason"), "source": said.get("source")})


def _ended(
    session: Session, game: Game, viewer: Viewer, reason: str, said: dict[str, Any] | None = None
) -> Event:
    """The game ends by itself as a turn would start (an `EndGame` of the turn, its `reason` the scenario's last
    turn over, "last-turn", or the clock's settings, "clock"), its result the score as it stands
    (app.services.result)."""
    act = EndGame(version=game.version, reason=reason)
    shown = rules_of(game).play(snapshot_of(session, game, []), act).shown
    bump_game(session, game, None, status="finished")
    return record(
        session, game, act.event, viewer.role, {**shown, **(said or {}), "turn": game.turn}, step="finished"
    )


def end_of_turn(session: Session, game: Game, actor: str) -> list[Event]:
    """What the game's rules do as the side's turn ends (Flanders Fields: battalion and higher command stands
    recover, unspent actions lapse)."""
    units = list_units(session, game.pk)
    _, ended = rules_of(game).between_turns(snapshot_of(session, game, units), TURN_ENDED)
    changes = apply_changes(session, game, units, ended)
    return [
        record(
            session,
            game,
            "end-of-turn",
            actor,
            {"changes": changes, "source": rules_of(game).book.end_source},
            step="end-of-turn",
        )
    ]


def start_of_turn(session: Session, game: Game) -> list[Event]:
    """What the game's rules do by themselves as the side to move's turn starts (Flanders Fields: barrages
    already firing advance), then the side's scheduled fire-plan items arrive."""
    turn = rules_of(game)
    seq = sequence(game)
    source = turn.book.turn_source
    events = [
        record(session, game, "turn-started", "system", {"source": source}, step=seq[0].id if seq else "")
    ]
    units = list_units(session, game.pk)
    notices, changes = turn.between_turns(snapshot_of(session, game, units), TURN_STARTED)
    events += [record(session, game, n.kind, "system", {**n.shown, "source": n.source}) for n in notices]
    apply_changes(session, game, units, changes)  # what the notices say: not logged again
    events += seal_due(session, game, "system")
    for item in due_items(session, game):
        events += arrive(session, game, item, units=units)  # the rows as written by the notices
    return events


def told_apart(snapshot: Snapshot, units: Sequence[Unit]) -> Snapshot:
    """The snapshot with its units named as the turn panel says them: no two by the same name, no id."""
    named = told_apart_names(units)
    return replace(snapshot, units=tuple(replace(u, name=named.get(u.id, u.name)) for u in snapshot.units))
