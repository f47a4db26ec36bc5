"""The turn: the period's order sequence, what the table may do now (rules of play), advancing a step,
and what happens at the start and the end of a turn."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.data.board_state import board_json, read_board
from app.data.models import Event, Game, Unit
from app.errors import Conflict, Forbidden
from app.guard.auth import Viewer
from app.services.events import record
from app.services.fireplans import arrive, lock_plan, plan_items
from app.services.games import bump_game, game_state
from app.services.markers import apply_changes, rules_of, snapshot_of
from app.services.seats import sides
from app.services.table import table_of
from app.services.units import ancestor_at, ancestors, list_units
from rules.flanders_fields.book.common import PERIODS, PeriodId
from rules.flanders_fields.book.sequence import (
    ANY_UNIT,
    SEQUENCES,
    TURN_SOURCE,
    Act,
    Action,
    Permit,
    Step,
    UnitClass,
    allowed_now,
    refusal,
    unit_classes,
)
from rules.flanders_fields.play.game_table import barrage_step
from rules.flanders_fields.play.units import order_unit
from rules.flanders_fields.resolvers.orders import BATTALION_UNITS
from rules.flanders_fields.ruleset import cite

# -- the turn sequence -----------------------------------------------------------------------------------
# "It advances its own width at the start of the attacking side's turn." (ROLLING BARRAGE)
BARRAGE_ADVANCE_CM = 20.0


BARRAGE_SOURCE = cite("ROLLING BARRAGE")


def sequence(game: Game) -> tuple[Step, ...]:
    return SEQUENCES[_period(game)].steps


def _period(game: Game) -> PeriodId:
    return next((p for p in PERIODS if p == game.period), "early")


def step_of(game: Game) -> Step | None:
    seq = sequence(game)
    return seq[game.step] if game.status == "playing" and game.step < len(seq) else None


def turn_info(session: Session, game: Game) -> dict[str, Any]:
    """Where the game stands and what the current step needs."""
    seq = sequence(game)
    current = step_of(game)
    info: dict[str, Any] = {
        "status": game.status,
        "turn": game.turn,
        "side_to_move": game.side_to_move,
        "version": game.version,
        "deep_suppression": game.deep_suppression,
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
        "source": TURN_SOURCE,
        # What the players may do to the table now (markers, moves, edits, new units): the rest is refused.
        "allowed_now": allowed_now(game.status, _period(game), game.step, game.side_to_move),
    }
    if game.status == "setup":
        locked = {s.side: s.plan_locked for s in sides(session, game.id or 0)}
        info["step"] = None
        info["next"] = {
            "action": "start",
            "needs": [f"lock the {side}'s fire plan" for side, ok in locked.items() if not ok]
            + ["deploy both forces (defender first, a battalion at a time)"],
            "source": cite("GAME SEQUENCE"),
        }
        return info
    if current is None:
        info["step"] = None
        info["next"] = None
        return info
    needs: list[str] = [current.does]
    units = list_units(session, game.id or 0)
    due = [u for u in units if u.morale_due]
    if due:
        needs.append("morale tests due: " + ", ".join(f"{u.name} (unit {u.id})" for u in due))
    if current.id == "rolling-barrages":
        for b in read_board(game).barrages:
            if b["side"] != game.side_to_move:
                continue
            lo, hi = b.get("covers_y", [b["front_y"], b["front_y"]])
            if b.get("pending"):
                needs.append(
                    f"barrage {b['item_id']} ({lo:g}-{hi:g} cm up the table): roll rolling-barrage for units "
                    + ", ".join(str(i) for i in b["pending"])
                )
            if b.get("danger"):
                needs.append(
                    f"barrage {b['item_id']}: roll barrage-danger for units "
                    + ", ".join(str(d["unit"]) for d in b["danger"])
                    + " in the 6 cm behind it"
                )
    if current.id == "gas" and wind_due(game):
        needs.append("roll gas-wind: the wind moves every gas cloud on the table")
    nxt = seq[game.step + 1] if game.step + 1 < len(seq) else None
    info["step"] = {
        "index": game.step,
        "number": current.number,
        "id": current.id,
        "title": current.title,
        "printed": current.printed,
        "source": current.source,
    }
    info["needs"] = needs
    info["resolvers"] = list(current.resolvers)
    info["next"] = (
        {"action": "advance", "step": nxt.id, "title": nxt.title}
        if nxt
        else {"action": "end-turn", "then": _after(game)}
    )
    return info


def wind_due(game: Game) -> bool:
    """ "after initial deployment the controlling player states his preferred wind direction ... At the
    start of every turn thereafter the attacking player rolls a D6": once a game turn, in the attacker's
    gas step, and at once for the first cloud."""
    board = read_board(game)
    if not board.clouds or board.wind_turn == game.turn:
        return False
    return board.wind is None or game.side_to_move == "attacker"


def _after(game: Game) -> dict[str, Any]:
    if game.side_to_move == "attacker":
        return {"turn": game.turn, "side_to_move": "defender"}
    return {"turn": game.turn + 1, "side_to_move": "attacker"}


def _permit_dict(p: Permit) -> dict[str, Any]:
    return {"action": p.action, "units": list(p.units), "quote": p.quote, "source": p.source}


def _classes_of(session: Session, unit: Unit) -> tuple[UnitClass, ...]:
    """Whose orders reach a stand: those of the nearest unit above it (or itself) that is ordered, as the
    order-roll resolver knows it (a platoon is ordered with its company, a battery as artillery)."""
    by_id: dict[int | None, Unit] = {u.id: u for u in list_units(session, unit.game_id)}
    parent = by_id.get(unit.parent_id)
    chain = [unit, *ancestors(unit, by_id)]
    ordered = next((o for o in (order_unit(u, by_id) for u in chain) if o is not None), None)
    return unit_classes(
        is_command=unit.is_command,
        under_battalion=ordered in BATTALION_UNITS
        if ordered is not None
        else ancestor_at(unit, "battalion", by_id) is not None,
        commands_battalion=parent is not None and parent.level == "battalion",
    )


def rules_of_play(
    session: Session,
    game: Game,
    viewer: Viewer,
    action: Action,
    unit: Unit | None = None,
    *,
    side: str | None = None,
    override: bool = False,
) -> dict[str, Any] | None:
    """Refuse what the game's status and the current step of its turn sequence do not allow: a 409 that
    names the rule or step and says what is allowed now. The referee may override; the answer is then the
    record of the override, for the event that logs the act (None when nothing was overridden)."""
    if override:
        viewer.require_referee("override the rules of play")
    # Markers land wherever fire lands and states are recorded as they happen: only the acts a step's orders
    # give to some units need to know whose orders reach the stand.
    ordered = action in ("move-stands", "recover-markers", "redirect-aiming-points")
    classes = _classes_of(session, unit) if unit is not None and ordered else ANY_UNIT
    act = Act(action, side or (unit.side if unit is not None else None), classes)
    refused = refusal(game.status, _period(game), game.step, game.side_to_move, act)
    if refused is None:
        return None
    if override:
        return {"by": viewer.role, "refused": refused}
    step = step_of(game)
    raise Conflict(
        refused,
        current={
            "status": game.status,
            "turn": game.turn,
            "side_to_move": game.side_to_move,
            "step": {"number": step.number, "id": step.id, "title": step.title, "source": step.source}
            if step
            else None,
            "allowed_now": allowed_now(game.status, _period(game), game.step, game.side_to_move),
            "override": 'the referee may do it anyway with "override": true; the log shows the override',
        },
    )


def with_override(payload: dict[str, Any], override: dict[str, Any] | None) -> dict[str, Any]:
    """An act's event payload, carrying the referee's override of the rules of play when there was one."""
    return {**payload, "override": override} if override else payload


def logged_step(game: Game) -> str:
    """The step an act on the table is logged in: the current step, else the game's status."""
    step = step_of(game)
    return step.id if step else game.status


def advance(session: Session, game: Game, viewer: Viewer, expected_version: int) -> list[Event]:
    """Move to the next step; past the last step the side's turn ends and the other side's begins.
    From set-up this starts the game (locking any plan not yet locked)."""
    if game.status == "finished":
        raise Conflict("the game is over", current=game_state(game))
    if game.status == "setup":
        viewer.require_referee("start the game")
        bump_game(session, game, expected_version)
        events = [
            lock_plan(session, game, s.side, "system")
            for s in sides(session, game.id or 0)
            if not s.plan_locked
        ]
        bump_game(session, game, None, status="playing", turn=1, side_to_move="attacker", step=0)
        events.append(record(session, game, "game-started", viewer.role, {"source": TURN_SOURCE}))
        return events + start_of_turn(session, game)
    if not viewer.may_act_for(game.side_to_move):
        raise Forbidden(f"it is the {game.side_to_move}'s turn")
    bump_game(session, game, expected_version)
    seq = sequence(game)
    before = step_of(game)
    if game.step + 1 < len(seq):
        bump_game(session, game, None, step=game.step + 1)
        now = seq[game.step]
        return [
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
    events = end_of_turn(session, game, viewer.role)
    after = _after(game)
    bump_game(session, game, None, turn=after["turn"], side_to_move=after["side_to_move"], step=0)
    return events + start_of_turn(session, game)


def end_of_turn(session: Session, game: Game, actor: str) -> list[Event]:
    """What the game's rules do as the side's turn ends (Flanders Fields: battalion and higher command stands
    recover, unspent actions lapse)."""
    units = list_units(session, game.id or 0)
    ended = rules_of(game).end_of_turn(snapshot_of(session, game, units), game.side_to_move)
    changes = apply_changes(session, game, units, ended)
    return [
        record(
            session,
            game,
            "end-of-turn",
            actor,
            {"changes": changes, "source": cite("SUPPRESSION, RECOVERY FROM BATTLE SUPPRESSION")},
            step="end-of-turn",
        )
    ]


def start_of_turn(session: Session, game: Game) -> list[Event]:
    """Scheduled fire-plan items of the side to move arrive by themselves; barrages already firing advance."""
    events = [
        record(session, game, "turn-started", "system", {"source": TURN_SOURCE}, step=sequence(game)[0].id)
    ]
    board = read_board(game)
    if game.side_to_move == "attacker" and game.deep_suppression:
        bump_game(session, game, None, deep_suppression=0)  # a new turn needs a new roll
    barrages = []
    units = list_units(session, game.id or 0)
    table = table_of(game)
    for b in board.barrages:
        if b["side"] == game.side_to_move:
            b = {**b, "turns_fired": b["turns_fired"] + 1}
            if b["turns_fired"] > b["duration_turns"]:
                events.append(_board_event(session, game, "barrage-lifted", {"barrage": b}))
                continue
            # "A Rolling Barrage may be ordered to halt for one turn"
            halted = game.turn in b.get("halts", [])
            b = barrage_step(b, 0.0 if halted else BARRAGE_ADVANCE_CM, units, table)
            kind = "barrage-halted" if halted else "barrage-advanced"
            events.append(_board_event(session, game, kind, {"barrage": b}))
        barrages.append(b)
    board.barrages = tuple(barrages)
    bump_game(session, game, None, board=board_json(game, board))
    due = [
        i
        for i in plan_items(session, game.id or 0, game.side_to_move)
        if not i.arrived and i.arrival_turn == game.turn
    ]
    # In slot order (drawn at random when the plan was locked), so the order of arrival says nothing of the
    # order in which the items were written.
    for item in sorted(due, key=lambda i: (i.slot is None, i.slot or 0, i.public_id)):
        events += arrive(session, game, item)
    return events


def _board_event(session: Session, game: Game, kind: str, payload: dict[str, Any]) -> Event:
    return record(session, game, kind, "system", {**payload, "source": BARRAGE_SOURCE})
