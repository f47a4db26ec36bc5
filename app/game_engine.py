"""Playing a game: the period's turn sequence, markers, fire-plan commitments and arrivals, resolving with
the game's state, undo, and the after-action report. Routes call these inside one transaction; every
function that writes expects the game row taken with `crud.lock_game` and leaves the commit to the caller."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session, col, select

from app import crud, game_table, hidden
from app.auth import SIDES, Viewer, other_side
from app.errors import Conflict, Forbidden
from app.models import Event, FirePlanEdit, FirePlanItem, Game, GameSide, Unit
from rules.core.errors import RulesError
from rules.flanders_fields.barrage import require_plan_item
from rules.flanders_fields.casualties import casualty_split
from rules.flanders_fields.common import PERIODS, PeriodId
from rules.flanders_fields.errata import CASUALTY_ROUNDING, SRC_CASUALTIES, SRC_EVENTS
from rules.flanders_fields.events import PACK, card_dict
from rules.flanders_fields.gas import SRC_GAS
from rules.flanders_fields.orders import BATTALION_UNITS, CREWED_UNITS, FLAG_UNITS
from rules.flanders_fields.organisation import ORGANISATION_TABLES, build_force
from rules.flanders_fields.organisation import Unit as OrgUnit
from rules.flanders_fields.ruleset import cite
from rules.flanders_fields.scenarios import DEPLOY_DEPTH
from rules.flanders_fields.sequence import (
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
from rules.flanders_fields.shooting import FIRE_TYPE as SHOOTING_FIRE_TYPE
from rules.flanders_fields.suppression import (
    UNIT_LEVELS,
    is_killed,
    recovers_automatically,
    spreads_to_company,
)
from rules.registry import get_ruleset
from rules.table.bases import BASES
from rules.table.frame import Side, Table, grid_to_table

RULESET = "flanders-fields"
_random = random.SystemRandom()  # fire-plan slots and public ids: unguessable by the other side


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
        locked = {s.side: s.plan_locked for s in crud.sides(session, game.id or 0)}
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
    units = crud.list_units(session, game.id or 0)
    due = [u for u in units if u.morale_due]
    if due:
        needs.append("morale tests due: " + ", ".join(f"{u.name} (unit {u.id})" for u in due))
    if current.id == "rolling-barrages":
        for b in game.board.get("barrages", []):
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
    if current.id == "gas" and _wind_due(game):
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


def _wind_due(game: Game) -> bool:
    """ "after initial deployment the controlling player states his preferred wind direction ... At the
    start of every turn thereafter the attacking player rolls a D6": once a game turn, in the attacker's
    gas step, and at once for the first cloud."""
    board = game.board
    if not board.get("clouds") or board.get("wind_turn") == game.turn:
        return False
    return "wind" not in board or game.side_to_move == "attacker"


def _after(game: Game) -> dict[str, Any]:
    if game.side_to_move == "attacker":
        return {"turn": game.turn, "side_to_move": "defender"}
    return {"turn": game.turn + 1, "side_to_move": "attacker"}


def _permit_dict(p: Permit) -> dict[str, Any]:
    return {"action": p.action, "units": list(p.units), "quote": p.quote, "source": p.source}


def _classes_of(session: Session, unit: Unit) -> tuple[UnitClass, ...]:
    """Whose orders reach a stand: those of the nearest unit above it (or itself) that is ordered, as the
    order-roll resolver knows it (a platoon is ordered with its company, a battery as artillery)."""
    by_id: dict[int | None, Unit] = {u.id: u for u in crud.list_units(session, unit.game_id)}
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


def logged_step(game: Game) -> str:
    """The step an act on the table is logged in: the current step, else the game's status."""
    step = step_of(game)
    return step.id if step else game.status


def advance(session: Session, game: Game, viewer: Viewer, expected_version: int) -> list[Event]:
    """Move to the next step; past the last step the side's turn ends and the other side's begins.
    From set-up this starts the game (locking any plan not yet locked)."""
    if game.status == "finished":
        raise Conflict("the game is over", current=crud.game_state(game))
    if game.status == "setup":
        viewer.require_referee("start the game")
        crud.bump_game(session, game, expected_version)
        events = [
            lock_plan(session, game, s.side, "system")
            for s in crud.sides(session, game.id or 0)
            if not s.plan_locked
        ]
        crud.bump_game(session, game, None, status="playing", turn=1, side_to_move="attacker", step=0)
        events.append(crud.record(session, game, "game-started", viewer.role, {"source": TURN_SOURCE}))
        return events + start_of_turn(session, game)
    if not viewer.may_act_for(game.side_to_move):
        raise Forbidden(f"it is the {game.side_to_move}'s turn")
    crud.bump_game(session, game, expected_version)
    seq = sequence(game)
    before = step_of(game)
    if game.step + 1 < len(seq):
        crud.bump_game(session, game, None, step=game.step + 1)
        now = seq[game.step]
        return [
            crud.record(
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
    crud.bump_game(session, game, None, turn=after["turn"], side_to_move=after["side_to_move"], step=0)
    return events + start_of_turn(session, game)


def end_of_turn(session: Session, game: Game, actor: str) -> list[Event]:
    """Battalion and higher command stands recover at the end of their own turn; unspent actions lapse."""
    changes: list[dict[str, Any]] = []
    units = crud.list_units(session, game.id or 0)
    for u in units:
        if u.side != game.side_to_move or u.killed:
            continue
        if u.suppression and u.is_command and recovers_automatically(suppression_level(u)):
            changes += crud.update_unit(session, u, suppression=0)
        if u.actions_left:
            changes += crud.update_unit(session, u, actions_left=0)
    return [
        crud.record(
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
        crud.record(
            session, game, "turn-started", "system", {"source": TURN_SOURCE}, step=sequence(game)[0].id
        )
    ]
    board = dict(game.board)
    if game.side_to_move == "attacker" and game.deep_suppression:
        crud.bump_game(session, game, None, deep_suppression=0)  # a new turn needs a new roll
    barrages = []
    units = crud.list_units(session, game.id or 0)
    table = game_table.table_of(game)
    for b in board.get("barrages", []):
        if b["side"] == game.side_to_move:
            b = {**b, "turns_fired": b["turns_fired"] + 1}
            if b["turns_fired"] > b["duration_turns"]:
                events.append(_board_event(session, game, "barrage-lifted", {"barrage": b}))
                continue
            # "A Rolling Barrage may be ordered to halt for one turn"
            halted = game.turn in b.get("halts", [])
            b = game_table.barrage_step(b, 0.0 if halted else BARRAGE_ADVANCE_CM, units, table)
            kind = "barrage-halted" if halted else "barrage-advanced"
            events.append(_board_event(session, game, kind, {"barrage": b}))
        barrages.append(b)
    board["barrages"] = barrages
    crud.bump_game(session, game, None, board=board)
    due = [
        i
        for i in crud.plan_items(session, game.id or 0, game.side_to_move)
        if not i.arrived and i.arrival_turn == game.turn
    ]
    # In slot order (drawn at random when the plan was locked), so the order of arrival says nothing of the
    # order in which the items were written.
    for item in sorted(due, key=lambda i: (i.slot is None, i.slot or 0, i.public_id)):
        events += arrive(session, game, item)
    return events


def _board_event(session: Session, game: Game, kind: str, payload: dict[str, Any]) -> Event:
    return crud.record(session, game, kind, "system", {**payload, "source": BARRAGE_SOURCE})


# -- fire plans: commitment and arrival ------------------------------------------------------------------
# The commitment is the root of a Merkle tree over a fixed number of leaves, the most items a plan may hold:
# every item's leaf sits in a slot drawn at random when the plan is locked and the other slots hold padding
# leaves, hashes like any other. An arriving item is proved by its own leaf and the hashes on its way to the
# root, the same number whatever the plan holds, so nothing tells the opponent how many items are still to
# come. After the game the padding salt lets anyone rebuild the whole tree.
PLAN_CAPACITY = 64
TREE_DEPTH = PLAN_CAPACITY.bit_length() - 1
PUBLIC_ID_MAX = 2_147_483_647
HOW_TO_CHECK = (
    "Every hash is SHA-256 of compact JSON with sorted keys. An item's leaf is the hash of "
    '{"item": <the item>, "salt": <its salt>}. Going up the tree, join the leaf with each hash of the path in '
    "turn: where bit n of the slot (counted from 0, lowest first) is 0 the leaf side is on the left, "
    'and the pair is hashed as ["left", "right"]. The top of the tree is the root; the commitment is the hash '
    'of {"game": <game id>, "root": <root>, "side": <side>}. It must equal the commitment published when the '
    f"plan was locked. The tree always has {PLAN_CAPACITY} leaves; those not used by an item are the hash of "
    '{"padding": <slot>, "salt": <the padding salt>}, published after the game so that the whole plan can '
    "be checked."
)


def canonical(obj: Any) -> bytes:
    """The one JSON encoding that is hashed: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256(obj: Any) -> str:
    return hashlib.sha256(canonical(obj)).hexdigest()


def item_body(item: FirePlanItem) -> dict[str, Any]:
    return {
        "id": item.public_id,
        "side": item.side,
        "kind": item.kind,
        "arrival_turn": item.arrival_turn,
        "data": item.data,
    }


def leaf_of(body: dict[str, Any], salt: str) -> str:
    return sha256({"item": body, "salt": salt})


def padding_leaf(slot: int, salt: str) -> str:
    return sha256({"padding": slot, "salt": salt})


def tree_levels(leaves: Sequence[str]) -> list[list[str]]:
    """The tree bottom-up: the leaves, then each level of pairs hashed as [left, right], up to the root."""
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([sha256([below[i], below[i + 1]]) for i in range(0, len(below), 2)])
    return levels


def auth_path(levels: Sequence[Sequence[str]], slot: int) -> list[str]:
    return [levels[depth][(slot >> depth) ^ 1] for depth in range(len(levels) - 1)]


def root_from_path(leaf: str, slot: int, path: Sequence[str]) -> str:
    node = leaf
    for depth, sibling in enumerate(path):
        node = sha256([sibling, node] if slot >> depth & 1 else [node, sibling])
    return node


def commitment_of(game_id: int, side: str, root: str) -> str:
    return sha256({"game": game_id, "side": side, "root": root})


def plan_leaves(items: Iterable[FirePlanItem], padding_salt: str) -> list[str]:
    """Every slot's leaf recomputed from the items' content and the padding salt."""
    leaves = [padding_leaf(slot, padding_salt) for slot in range(PLAN_CAPACITY)]
    for item in items:
        if item.slot is not None and 0 <= item.slot < PLAN_CAPACITY:
            leaves[item.slot] = leaf_of(item_body(item), item.salt)
    return leaves


def new_public_id(taken: Iterable[int]) -> int:
    """A random id for a new plan item, unique in its plan."""
    used = set(taken)
    while True:
        candidate = _random.randint(1, PUBLIC_ID_MAX)
        if candidate not in used:
            return candidate


def plan_item(session: Session, game_id: int, side: str, public_id: int) -> FirePlanItem:
    """A plan item by the id its players know it by."""
    for item in crud.plan_items(session, game_id, side):
        if item.public_id == public_id:
            return item
    raise crud.NotFoundError("fire plan item", str(public_id))


def add_plan_item(
    session: Session, game: Game, side: str, kind: str, arrival_turn: int, data: dict[str, Any], salt: str
) -> FirePlanItem:
    """A new item of an unlocked plan, recorded in the side's own edit history (not the shared log)."""
    row = crud.get_side(session, game.id or 0, side)
    require_open(row)
    require_plan_item(kind, game.period)
    items = crud.plan_items(session, game.id or 0, side)
    if len(items) >= PLAN_CAPACITY:
        raise RulesError("item", f"a fire plan holds at most {PLAN_CAPACITY} items; remove one first")
    item = FirePlanItem(
        game_id=game.id or 0,
        side=side,
        kind=kind,
        arrival_turn=arrival_turn,
        data=data,
        salt=salt,
        public_id=new_public_id(i.public_id for i in items),
    )
    session.add(item)
    session.add(FirePlanEdit(game_id=game.id or 0, side=side, action="added", item=item_body(item)))
    session.flush()
    return item


def remove_plan_item(session: Session, game: Game, side: str, public_id: int) -> None:
    require_open(crud.get_side(session, game.id or 0, side))
    item = plan_item(session, game.id or 0, side, public_id)
    session.add(FirePlanEdit(game_id=game.id or 0, side=side, action="removed", item=item_body(item)))
    session.delete(item)


def plan_edits(session: Session, game_id: int, side: str) -> list[dict[str, Any]]:
    """A side's own edit history, oldest first (by time; row ids are shared with the other side's)."""
    rows = session.exec(
        select(FirePlanEdit)
        .where(FirePlanEdit.game_id == game_id, FirePlanEdit.side == side)
        .order_by(col(FirePlanEdit.id))
    )
    return [{"action": r.action, "item": r.item, "at": r.created_at.isoformat()} for r in rows]


def require_open(row: GameSide) -> None:
    if row.plan_locked:
        raise Conflict(f"the {row.side}'s fire plan is locked", current=plan_summary(row))


def lock_plan(session: Session, game: Game, side: str, actor: str) -> Event:
    """Publish the commitment: each item's leaf (hashed with its own secret salt) goes into a random slot of
    the tree, padding fills the rest. Items cannot change afterwards."""
    row = crud.get_side(session, game.id or 0, side)
    if row.plan_locked:
        raise Conflict(f"the {side}'s fire plan is already locked", current=plan_summary(row))
    items = crud.plan_items(session, game.id or 0, side)
    for item, slot in zip(items, _random.sample(range(PLAN_CAPACITY), len(items)), strict=True):
        item.slot = slot
        item.leaf = leaf_of(item_body(item), item.salt)
        session.add(item)
    leaves = plan_leaves(items, row.plan_salt)
    row.plan_locked = True
    row.plan_leaves = leaves
    row.plan_commitment = commitment_of(game.id or 0, side, tree_levels(leaves)[-1][0])
    row.version += 1
    session.add(row)
    return crud.record(
        session,
        game,
        "fire-plan-locked",
        actor,
        {"side": side, "commitment": row.plan_commitment, "capacity": PLAN_CAPACITY},
        step="setup",
    )


def plan_summary(row: GameSide) -> dict[str, Any]:
    return {
        "side": row.side,
        "locked": row.plan_locked,
        "commitment": row.plan_commitment,
        "capacity": PLAN_CAPACITY,
        "how_to_check": HOW_TO_CHECK,
    }


def reveal(item: FirePlanItem, row: GameSide) -> dict[str, Any]:
    """What the opponent gets when an item arrives: the item, its salt, its slot and the hashes on its way
    to the root; enough to check it against the commitment and nothing about the other items."""
    body = item_body(item)
    leaf = leaf_of(body, item.salt)
    tree = row.plan_leaves if row.plan_locked and len(row.plan_leaves) == PLAN_CAPACITY else None
    path = auth_path(tree_levels(tree), item.slot) if tree is not None and item.slot is not None else []
    root = root_from_path(leaf, item.slot, path) if path and item.slot is not None else None
    verified = root is not None and commitment_of(item.game_id, item.side, root) == row.plan_commitment
    return {
        "item": body,
        "salt": item.salt,
        "leaf": leaf,
        "slot": item.slot,
        "path": path,
        "commitment": row.plan_commitment,
        "verified": verified or _legacy_verified(item, row),
        "how_to_check": HOW_TO_CHECK,
    }


def _legacy_verified(item: FirePlanItem, row: GameSide) -> bool:
    """Plans locked before the commitment tree (revision 0005) committed to the sorted list of leaves, each
    over the item with its row id: still checked here, without publishing that list (its length is the
    plan's size)."""
    if not row.plan_locked or len(row.plan_leaves) == PLAN_CAPACITY:
        return False
    leaf = leaf_of({**item_body(item), "id": item.id}, item.salt)
    flat = sha256({"game": item.game_id, "side": item.side, "leaves": sorted(row.plan_leaves)})
    return leaf in row.plan_leaves and flat == row.plan_commitment


def verify_plan(session: Session, game: Game, side: str) -> dict[str, Any]:
    """The whole plan checked against its commitment: every leaf recomputed from the items' stored content
    and the padding salt."""
    row = crud.get_side(session, game.id or 0, side)
    items = crud.plan_items(session, game.id or 0, side)
    recomputed = (
        commitment_of(game.id or 0, side, tree_levels(plan_leaves(items, row.plan_salt))[-1][0])
        if row.plan_locked
        else None
    )
    legacy = row.plan_locked and len(row.plan_leaves) != PLAN_CAPACITY
    if legacy:  # a plan locked before the commitment tree: its padding leaf and every item's leaf
        leaves = [leaf_of({**item_body(i), "id": i.id}, i.salt) for i in items]
        leaves.append(leaf_of({"padding": side}, row.plan_salt))
        recomputed = sha256({"game": game.id or 0, "side": side, "leaves": sorted(leaves)})
    return {
        "side": side,
        "locked": row.plan_locked,
        "commitment": row.plan_commitment,
        "recomputed": recomputed,
        "verified": row.plan_locked and recomputed == row.plan_commitment,
        "capacity": PLAN_CAPACITY,
        "padding_salt": row.plan_salt,
        "items": [{**reveal(i, row), "arrived": i.arrived} for i in items],
        "how_to_check": HOW_TO_CHECK,
    }


def arrive(session: Session, game: Game, item: FirePlanItem) -> list[Event]:
    """An item reaches the table: revealed to all, put on the board; planned deep suppression is rolled."""
    item.arrived = True
    session.add(item)
    row = crud.get_side(session, game.id or 0, item.side)
    events = [
        crud.record(session, game, "fire-plan-arrival", "system", reveal(item, row), step="start-of-turn")
    ]
    board = {k: list(v) if isinstance(v, list) else v for k, v in game.board.items()}
    data = dict(item.data)
    table = Table(game.table_width_cm, game.table_length_cm)
    side: Side = "attacker" if item.side == "attacker" else "defender"
    if "grid" in data:
        data["point"] = list(grid_to_table(side, data["grid"][0], data["grid"][1], table))
    units = crud.list_units(session, game.id or 0)
    if item.kind == "gas":
        cloud = game_table.cloud_arrives(
            {"item_id": item.public_id, "side": item.side, **data, "center": data["point"]}, units
        )
        board["clouds"] = [*board.get("clouds", []), cloud]
    elif item.kind == "rolling-barrage":
        b = {
            "item_id": item.public_id,
            "side": item.side,
            "front_y": grid_to_table(side, 0.0, float(data["start_up_cm"]), table)[1],
            "duration_turns": int(data["duration_turns"]),
            "halts": list(data.get("halts", [])),
            "turns_fired": 1,
        }
        b = game_table.barrage_step(b, 0.0, units, table)
        board["barrages"] = [*board.get("barrages", []), b]
    elif item.kind != "deep-suppression":
        board.setdefault("fire", []).append(
            {"item_id": item.public_id, "side": item.side, "kind": item.kind, **data}
        )
    crud.bump_game(session, game, None, board=board)
    if item.kind == "gas":
        changes = _gas_markers(session, board["clouds"], units)
        events.append(
            crud.record(
                session,
                game,
                "gas-arrived",
                "system",
                {"cloud": board["clouds"][-1], "changes": changes, "source": SRC_GAS},
                step="gas",
            )
        )
    if item.kind == "deep-suppression":
        # "ATTACKERS ROLL D6 FOR DEEP SUPPRESSION": the server rolls it as the turn starts.
        rs = get_ruleset(RULESET)
        req = rs.resolvers["deep-suppression"].Request.model_validate(
            {"period": game.period, "variants": game.variants}
        )
        res = rs.resolve("deep-suppression", req).as_dict()
        before = game.deep_suppression
        crud.bump_game(session, game, None, deep_suppression=int(res["outcome"]["penalty"]))
        events.append(
            crud.record(
                session,
                game,
                "arrival-roll",
                "system",
                {
                    "resolver": "deep-suppression",
                    "resolution": res,
                    "changes": [
                        {
                            "game": game.id,
                            "field": "deep_suppression",
                            "before": before,
                            "after": game.deep_suppression,
                        }
                    ],
                },
                step="deep-suppression",
            )
        )
    return events


# -- the force tree ---------------------------------------------------------------------------------------
def ancestors(unit: Unit, by_id: dict[int | None, Unit]) -> list[Unit]:
    out = []
    cur = by_id.get(unit.parent_id)
    while cur is not None:
        out.append(cur)
        cur = by_id.get(cur.parent_id)
    return out


def ancestor_at(unit: Unit, level: str, by_id: dict[int | None, Unit]) -> Unit | None:
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level == level:
            return a
    return None


def leaves_under(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    children: dict[int | None, list[Unit]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)
    out: list[Unit] = []
    stack = [root]
    while stack:
        u = stack.pop()
        kids = children.get(u.id, [])
        if kids:
            stack.extend(kids)
        else:
            out.append(u)
    return sorted(out, key=lambda u: u.id or 0)


def subtree(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    """The root and everything under it, in id order."""
    inside = {root.id}
    for u in sorted(units, key=lambda u: u.id or 0):  # parents are inserted before their children
        if u.parent_id in inside:
            inside.add(u.id)
    return [u for u in units if u.id in inside]


def suppression_level(u: Unit) -> str:
    """The unit level the suppression rules know a stand by (command stands by their kind)."""
    return u.kind if u.kind in UNIT_LEVELS else "company" if u.level == "company" else "platoon"


def quality_of(unit: Unit, by_id: dict[int | None, Unit]) -> str | None:
    for a in [unit, *ancestors(unit, by_id)]:
        if a.quality:
            return a.quality
    return None


def is_rifle_platoon(u: Unit) -> bool:
    return u.level == "platoon" and u.kind in RIFLE_KINDS


RIFLE_KINDS = ("rifle-platoon", "infantry")  # organisation tables name rifle platoons rifle-platoon


# -- markers ------------------------------------------------------------------------------------------------
def add_suppression(
    session: Session, game: Game, target: Unit, fire: str | None, count: int = 1
) -> list[dict[str, Any]]:
    """Suppress a stand: MG, mortar and artillery fire suppresses its whole company; a third marker kills."""
    if target.killed:
        raise RulesError("unit_id", f"unit {target.id} is already destroyed")
    units = crud.list_units(session, game.id or 0)
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    hit = [target]
    company = ancestor_at(target, "company", by_id) if fire and spreads_to_company(fire) else None
    if company is not None and company is not target:
        hit = [u for u in leaves_under(company, units) if not u.killed]
    changes: list[dict[str, Any]] = []
    for u in hit:
        change = crud.increment(session, u, "suppression", count)
        assert change is not None
        changes.append(change)
        if is_killed(u.suppression) and not u.killed:
            changes += crud.update_unit(session, u, killed=True)
    return changes + morale_flags(session, game, [u for u in hit if u.killed])


def recover(session: Session, unit: Unit, spend_action: bool) -> list[dict[str, Any]]:
    """ "The only method of recovering from Battle Suppression is by the use of an Action": the action comes
    from the stand itself or the nearest unit above it that was ordered (a company's actions)."""
    if unit.killed:
        raise RulesError("unit_id", f"unit {unit.id} is destroyed")
    if unit.suppression < 1:
        raise RulesError("delta", f"unit {unit.id} has no suppression marker to remove")
    changes: list[dict[str, Any]] = []
    if spend_action:
        by_id: dict[int | None, Unit] = {u.id: u for u in crud.list_units(session, unit.game_id)}
        payer = next((a for a in [unit, *ancestors(unit, by_id)] if a.actions_left > 0), None)
        if payer is None:
            raise RulesError(
                "spend_action",
                f"no action left for unit {unit.id} or the units above it: roll its order first",
            )
        spent = crud.increment(session, payer, "actions_left", -1)
        if spent is None:
            raise Conflict("the action was spent meanwhile", current=crud.unit_dict(payer))
        changes.append(spent)
    dropped = crud.increment(session, unit, "suppression", -1)
    if dropped is None:
        raise Conflict("the marker was removed meanwhile", current=crud.unit_dict(unit))
    return [*changes, dropped]


def morale_flags(session: Session, game: Game, newly_lost: Iterable[Unit]) -> list[dict[str, Any]]:
    """Flag a battalion's morale test at 50% and again at 75% of its rifle platoons lost
    ("If a battalion's RIFLE PLATOONS are reduced to 50% it must roll morale. Roll again at -2 when rifle
    company casualties reach 75%.")."""
    units = crud.list_units(session, game.id or 0)
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    changes: list[dict[str, Any]] = []
    seen: set[int] = set()
    for lost in newly_lost:
        bn = ancestor_at(lost, "battalion", by_id)
        if bn is None or bn.id in seen or bn.morale_due:
            continue
        seen.add(bn.id or 0)
        start, gone = rifle_losses(bn, units)
        if start and (
            (bn.morale_stage == 0 and 2 * gone >= start) or (bn.morale_stage <= 1 and 4 * gone >= 3 * start)
        ):
            changes += crud.update_unit(session, bn, morale_due=True)
    return changes


def rifle_losses(bn: Unit, units: Sequence[Unit]) -> tuple[int, int]:
    rifles = [u for u in leaves_under(bn, units) if is_rifle_platoon(u)]
    return len(rifles), sum(1 for u in rifles if u.killed)


def kill(session: Session, game: Game, unit: Unit) -> list[dict[str, Any]]:
    if unit.killed:
        return []
    return crud.update_unit(session, unit, killed=True) + morale_flags(session, game, [unit])


# -- resolving inside a game --------------------------------------------------------------------------------
@dataclass
class Filled:
    field: str
    value: Any
    why: str


# Organisation kinds -> the order-roll resolver's unit ids; MGs and mortars by what they belong to.
ORDER_UNIT = {
    "rifle-company": "rifle-company",
    "field-battery": "regimental-artillery",
    "howitzer-battery": "regimental-artillery",
    "heavy-battery": "regimental-artillery",
    "tank": "tank",
    "tank-company": "tank",
}
MG_KINDS = ("mmg", "mmg-company", "mmg-section")
MORTAR_KINDS = ("light-mortar", "medium-mortar", "heavy-mortar", "light-mortar-battery")
# Organisation kinds -> the shooting resolver's firer ids.
FIRER = {
    "rifle-platoon": "infantry",
    "infantry": "infantry",
    "cavalry-troop": "cavalry",
    "mmg": "mg",
    "lmg": "lmg-unit",
    "field-battery": "field-gun",
    "howitzer-battery": "field-howitzer",
    "heavy-battery": "heavy-artillery",
    "light-mortar": "light-mortar",
    "medium-mortar": "medium-mortar",
    "heavy-mortar": "heavy-mortar",
    "flamethrower": "flamethrower",
}
# "Crewed Weapons such as artillery, machineguns and mortars" (TROOP QUALITY, EXPERIENCED): what a morale
# result of "abandon crewed weapons" abandons.
CREWED_KINDS = frozenset(
    {
        "mmg",
        "light-mortar",
        "medium-mortar",
        "heavy-mortar",
        "field-battery",
        "howitzer-battery",
        "heavy-battery",
    }
)


def order_unit(unit: Unit, by_id: dict[int | None, Unit]) -> str | None:
    if unit.kind in ORDER_UNIT:
        return ORDER_UNIT[unit.kind]
    in_battalion = ancestor_at(unit, "battalion", by_id) is not None
    if unit.kind in MG_KINDS:
        return "battalion-mg" if in_battalion else "regimental-mg"
    if unit.kind in MORTAR_KINDS:
        return "battalion-mortar" if in_battalion else "regimental-mortar"
    return None


def fill(
    game: Game,
    resolver: str,
    fields: set[str],
    unit: Unit | None,
    target: Unit | None,
    units: list[Unit],
    given: dict[str, Any],
) -> list[Filled]:
    """The request fields the game's state knows, each with why; the resolver's own refusals decide the
    rest, so only what the rules let a unit claim is filled (crewed weapons are experienced, raw under
    fire only for raw troops, the flags only for the units they apply to)."""
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    out: list[Filled] = []

    def put(field: str, value: Any, why: str) -> None:
        if field in fields and field not in given:
            out.append(Filled(field, value, why))

    if unit is not None:
        chain = [unit, *ancestors(unit, by_id)]
        bn = ancestor_at(unit, "battalion", by_id)
        q = quality_of(unit, by_id)
        command = _command_stand(unit, units, by_id)
        stands = [u for u in leaves_under(unit, units) if not u.killed]
        if resolver == "order-roll":
            ou = given.get("unit") or order_unit(unit, by_id)
            if ou is not None:
                put("unit", ou, f"{unit.name} is a {unit.kind}")
            if ou in CREWED_UNITS:
                q = "experienced"
                put("quality", q, "Crewed Weapons ... are always classed as Experienced")
            flags = {f for f, allowed in FLAG_UNITS.items() if ou in allowed}
            if "platoon_beyond_25cm" in flags and bn is not None:
                far = _beyond(bn, units, by_id, 25.0)
                if far is not None:
                    put(
                        "platoon_beyond_25cm",
                        far,
                        f"a platoon of {bn.name} more than 25 cm from its commander",
                    )
            if "through_wire" in flags and any(u.stuck_on_wire for u in stands):
                put("through_wire", True, f"a platoon of {unit.name} is in wire")
            if unit.side == "defender" and game.deep_suppression:
                put("deep_suppression", game.deep_suppression, "the deep suppression in force this turn")
        if q:
            put("quality", q, f"quality of {bn.name if bn else chain[-1].name}")
            put("firer_raw", q == "raw", f"{unit.name} is {q}")
            if q == "raw":
                raw = any(a.raw_under_fire for a in chain)
                put(
                    "raw_under_fire", raw, "raw troops that have been fired on" if raw else "not yet fired on"
                )
        gas = [u.name for u in [*stands, *([command] if command else [])] if u.in_gas]
        put("in_gas", bool(gas), f"in a gas cloud: {', '.join(gas)}" if gas else "no stand in a gas cloud")
        put("firer_in_gas", unit.in_gas, f"{unit.name} is {'' if unit.in_gas else 'not '}in a gas cloud")
        if command is not None:
            put("command_suppression", command.suppression, f"suppression markers on {command.name}")
            put(
                "field_promotion",
                command.field_promotion,
                f"{command.name} is {'' if command.field_promotion else 'not '}a field promotion",
            )
        if resolver == "morale" and unit.level == "battalion":
            start, gone = rifle_losses(unit, units)
            put("starting_platoons", start, f"rifle platoons of {unit.name}")
            put("lost_platoons", gone, f"rifle platoons of {unit.name} destroyed")
        if resolver == "shooting" and unit.kind in FIRER:
            put("firer", FIRER[unit.kind], f"{unit.name} is a {unit.kind}")
        if resolver == "wire-crossing" and unit.stuck_on_wire:
            put("through_wire", True, f"{unit.name} is in wire")
    if target is not None:
        put(
            "target_is_command",
            target.is_command,
            f"{target.name} is {'' if target.is_command else 'not '}a command stand",
        )
        if target.kind in ("tank",) and "target" in fields:
            put("target", "armour", f"{target.name} is a tank")
        terrain = game_table.terrain_of(game)
        cover = game_table.target_cover(game, target, quality_of(target, by_id), terrain)
        if cover is not None:
            value = cover.value
            if target.kind == "tank":
                value = "open" if value == "open" else "cover"
            put(cover.field, value, cover.why)
        if unit is not None:
            for m in game_table.shot(game, unit, target, terrain):
                put(m.field, m.value, m.why)
        if resolver == "shooting" and given.get("firer", FIRER.get(unit.kind if unit else "")) == "gas":
            passed = [c.get("passed", {}) for c in game.board.get("clouds", [])]
            full = any(target.id in p.get("full", []) for p in passed)
            partial = any(target.id in p.get("partial", []) for p in passed)
            if full or partial:
                put(
                    "partial_template",
                    not full,
                    "the cloud only partly covered the base" if not full else "fully covered",
                )
        if resolver == "barrage-danger":
            for b in game.board.get("barrages", []):
                hit = next((d for d in b.get("danger", []) if d["unit"] == target.id), None)
                if hit is not None:
                    put(
                        "distance_cm",
                        hit["distance_cm"],
                        f"{target.name} is {hit['distance_cm']:g} cm behind barrage {b['item_id']}",
                    )
    if resolver == "gas-wind":
        wind = game.board.get("wind")
        if wind is not None:
            put("wind", wind, "the wind as it blew last turn (one wind for every cloud)")
        else:
            first = next(iter(game.board.get("clouds", [])), None)
            if first is not None:
                put(
                    "direction_deg",
                    first["wind_deg"],
                    f"the wind direction stated in fire plan item {first['item_id']}",
                )
    return out


def _spend_heroic_action(session: Session, game: Game, viewer: Viewer, unit: Unit | None) -> None:
    """ "Once per game each player may elect to attempt a Heroic Action" (HEROIC ACTIONS)."""
    if unit is None:
        raise RulesError("unit_id", "a heroic action is carried out by a single platoon stand: name it")
    row = crud.get_side(session, game.id or 0, unit.side)
    left = int(row.special_uses.get("heroic-action", 0))
    if left < 1:
        raise RulesError("resolver", f"the {unit.side} player has had the one heroic action of the game")
    row.special_uses = {**row.special_uses, "heroic-action": left - 1}
    row.version += 1
    session.add(row)


def _command_stand(unit: Unit, units: Sequence[Unit], by_id: dict[int | None, Unit]) -> Unit | None:
    """The stand commanding a unit: the command stand of its battalion (or of its own formation)."""
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level in ("battalion", "regiment", "brigade", "division"):
            for u in units:
                if u.parent_id == a.id and u.is_command and not u.killed:
                    return u
            return None
    return None


def _beyond(bn: Unit, units: Sequence[Unit], by_id: dict[int | None, Unit], limit_cm: float) -> bool | None:
    command = _command_stand(bn, units, by_id)
    cstand = game_table.stand_of(command) if command is not None else None
    if cstand is None:
        return None
    cpoly = cstand.polygon()
    placed = [
        s
        for s in (game_table.stand_of(u) for u in leaves_under(bn, units) if u.level == "platoon")
        if s is not None
    ]
    if not placed:
        return None
    return any(s.polygon().distance(cpoly) > limit_cm for s in placed)


# -- random events: the pack and the hands -------------------------------------------------------------------
HAND_KEY = "event-hand"


def _hands(session: Session, game: Game) -> dict[str, list[str]]:
    return {s.side: list(s.special_uses.get(HAND_KEY, [])) for s in crud.sides(session, game.id or 0)}


def _deck(game: Game, hands: dict[str, list[str]]) -> list[str]:
    """The cards still in the pack: every card not held and not out of play (drawn dummies, played cards).
    Its order is the pack's; the draw picks positions in it, so the odds are exact whatever the order."""
    out = set(game.board.get("events", {}).get("out", []))
    held = {c for h in hands.values() for c in h}
    return [c for c in PACK if c not in out and c not in held]


def _redact_opponent(payload: dict[str, Any], drawer: str) -> dict[str, Any]:
    """The drawing player's view of a draw: the opponent's hand is not theirs to see."""
    req = {k: v for k, v in payload["request"].items() if k != "opponent_hand"}
    res = dict(payload["resolution"])
    res["outcome"] = {k: v for k, v in res["outcome"].items() if k != "opponent_hand"}
    return {
        **payload,
        "request": req,
        "resolution": res,
        "filled": [f for f in payload["filled"] if f["field"] != "opponent_hand"],
        "changes": [c for c in payload["changes"] if c.get("side", drawer) == drawer],
    }


def resolve(
    session: Session,
    game: Game,
    viewer: Viewer,
    resolver_id: str,
    fields: dict[str, Any],
    dice: list[int] | None,
    unit_id: int | None,
    target_id: int | None,
    apply: bool,
) -> tuple[dict[str, Any], Event]:
    rs = get_ruleset(game.ruleset)
    if resolver_id not in rs.resolvers:
        raise RulesError("resolver", f"unknown resolver {resolver_id!r}", sorted(rs.resolvers))
    if game.status != "playing":
        raise Conflict(f"the game is in {game.status}, not playing", current=crud.game_state(game))
    units = crud.list_units(session, game.id or 0)
    unit = crud.get_unit(session, game.id or 0, unit_id, "unit_id") if unit_id is not None else None
    target = crud.get_unit(session, game.id or 0, target_id, "target_id") if target_id is not None else None
    if unit is not None:
        viewer.require_side(unit.side, "resolve for a unit")
    if resolver_id == "heroic-action":
        _spend_heroic_action(session, game, viewer, unit)
    if resolver_id == "gas-wind" and apply and not _wind_due(game):
        raise RulesError(
            "resolver",
            "no gas-wind roll is due: it is rolled once a turn by the attacker once a cloud is on the table "
            "(send apply: false to ask the table without moving the clouds)",
        )
    request_model = rs.resolvers[resolver_id].Request
    filled = fill(game, resolver_id, set(request_model.model_fields), unit, target, units, fields)
    drawer = game.side_to_move
    if resolver_id == "random-event":
        # "At the start of each turn a player must draw at least one card": the side to move draws.
        viewer.require_side(drawer, "draw the random event cards")
        hands = _hands(session, game)
        rival = other_side(drawer)
        for name, value, why in (
            ("deck", _deck(game, hands), "the cards left in the game's pack"),
            ("hand", hands[drawer], f"the {drawer}'s hand"),
            ("opponent_hand", hands[rival], f"the {rival}'s hand"),
        ):
            if name in fields:
                raise RulesError(f"fields.{name}", "inside a game the pack and hands are the game's", [])
            filled.append(Filled(name, value, why))
    body = {
        **{f.field: f.value for f in filled},
        **fields,
        "period": game.period,
        "variants": game.variants,
        "dice": dice,
    }
    try:
        req = request_model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise RulesError(f"fields.{loc}" if loc not in ("dice",) else loc, err["msg"]) from None
    resolution = rs.resolve(resolver_id, req).as_dict()
    changes = _apply(session, game, resolver_id, req, resolution, unit, target) if apply else []
    payload = {
        "resolver": resolver_id,
        "unit_id": unit_id,
        "target_id": target_id,
        "request": req.model_dump(mode="json"),
        "filled": [f.__dict__ for f in filled],
        "resolution": resolution,
        "applied": apply,
        "changes": changes,
    }
    step = step_of(game)
    here = step.id if step else ""
    if resolver_id == "random-event":
        # One event: what the opponent learns of the draw is public; the drawer reads its own draw, the
        # opponent only what changed in its own hand (a card handed over), the referee the whole draw.
        mine = _redact_opponent(payload, drawer)
        rival = other_side(drawer)
        theirs = [c for c in changes if c.get("side") == rival]
        private = {drawer: mine, "referee": payload, **({rival: {"changes": theirs}} if theirs else {})}
        ev = crud.record(
            session, game, "roll", viewer.role, _public_draw(resolution, apply), step=here, private=private
        )
        return (payload if viewer.is_referee else mine), ev
    return payload, crud.record(session, game, "roll", viewer.role, payload, step=here)


def _public_draw(res: dict[str, Any], applied: bool) -> dict[str, Any]:
    """What the opponent learns of a draw: how many cards, the dummies and the detrimental cards played."""
    out = res["outcome"]
    shown = [c for c in out["drawn"] if c["kind"] == "dummy" or c["card"] in out["play_now"]]
    return {
        "resolver": "random-event",
        "applied": applied,
        "drawn": len(out["drawn"]),
        "shown": shown,
        "kept": len(out["drawn"]) - len(shown),
        "cards_left": len(out["deck"]),
        "source": SRC_EVENTS,
    }


def _apply(
    session: Session,
    game: Game,
    resolver_id: str,
    req: Any,
    res: dict[str, Any],
    unit: Unit | None,
    target: Unit | None,
) -> list[dict[str, Any]]:
    key = res["outcome_key"]
    outcome = res["outcome"]
    changes: list[dict[str, Any]] = []
    if resolver_id == "order-roll" and unit is not None and isinstance(outcome, dict):
        changes += crud.update_unit(session, unit, actions_left=int(outcome.get("actions", 0)))
    elif resolver_id == "deep-suppression" and isinstance(outcome, dict):
        changes += _set_game(session, game, deep_suppression=int(outcome["penalty"]))
    elif resolver_id == "morale" and unit is not None:
        changes += _apply_morale(session, game, unit, res)
    elif resolver_id == "heroic-action" and unit is not None:
        if key == "platoon-destroyed":  # "if a failure the platoon is immediately destroyed"
            changes += kill(session, game, unit)
    elif resolver_id == "gas-wind":
        changes += _apply_wind(session, game, outcome)
    elif resolver_id == "random-event":
        changes += _apply_draw(session, game, outcome)
    if target is None:
        return changes
    if resolver_id in ("rolling-barrage", "barrage-danger"):
        changes += _rolled_under_barrage(session, game, resolver_id, target)
    if key in ("suppressed", "killed"):
        firer = getattr(req, "firer", None)
        fire = SHOOTING_FIRE_TYPE[firer] if firer else TEMPLATE_FIRE_TYPE.get(resolver_id)
        count = int(res.get("suppression_markers", 1))  # two dice: "two suppressions are two markers"
        changes += (
            kill(session, game, target)
            if key == "killed"
            else add_suppression(session, game, target, fire, count)
        )
    if resolver_id in ("shooting", *TEMPLATE_FIRE_TYPE):
        changes += _fired_on(session, game, target)
    return changes


# The suppression rules' fire types of the template resolvers (shooting uses the firer's).
TEMPLATE_FIRE_TYPE = {
    "rolling-barrage": "artillery",
    "barrage-danger": "artillery",
    "air-attack": "aircraft",
}


def _set_game(session: Session, game: Game, **values: Any) -> list[dict[str, Any]]:
    changes = [
        {"game": game.id, "field": k, "before": getattr(game, k), "after": v}
        for k, v in values.items()
        if getattr(game, k) != v
    ]
    crud.bump_game(session, game, None, **values)
    return changes


def _fired_on(session: Session, game: Game, target: Unit) -> list[dict[str, Any]]:
    """Raw troops are +1 on orders "until they receive any fire": being shot at counts, whatever the
    result, and the order roll is the battalion's, so the battalion is marked."""
    by_id: dict[int | None, Unit] = {u.id: u for u in crud.list_units(session, game.id or 0)}
    if quality_of(target, by_id) != "raw":
        return []
    marked = ancestor_at(target, "battalion", by_id) or target
    return [] if marked.raw_under_fire else crud.update_unit(session, marked, raw_under_fire=True)


def _apply_morale(session: Session, game: Game, bn: Unit, res: dict[str, Any]) -> list[dict[str, Any]]:
    """Carry out a morale result at once ("Troops which have suffered from a poor morale result carry out
    the result as soon as it is determined"): removed from play on a rout; on a retreat every stand is
    suppressed and the battalion's crewed weapons are abandoned (the players move the stands back by
    `retreat_cm`)."""
    units = crud.list_units(session, game.id or 0)
    changes: list[dict[str, Any]] = []
    if res.get("test_due"):
        stage = 2 if res.get("at_75_percent") else 1
        changes += crud.update_unit(session, bn, morale_stage=max(stage, bn.morale_stage))
    changes += crud.update_unit(session, bn, morale_due=False)
    living = [u for u in leaves_under(bn, units) if not u.killed]
    if res.get("removed"):
        for u in living:
            changes += crud.update_unit(session, u, killed=True)
        return changes
    if res.get("suppressed"):
        for u in living:
            # "become Suppressed": a stand already suppressed stays so; no marker is added that could kill.
            if u.suppression == 0:
                changes += crud.update_unit(session, u, suppression=1)
    if res.get("abandon_crewed_weapons"):
        for u in living:
            if u.kind in CREWED_KINDS and not u.crew_abandoned:
                changes += crud.update_unit(session, u, crew_abandoned=True)
    return changes


def _apply_wind(session: Session, game: Game, wind: dict[str, Any]) -> list[dict[str, Any]]:
    """The wind blows every cloud on the table (all offensive gas shares "the same vagaries of weather");
    stands under a cloud are marked in gas, the others no longer."""
    units = crud.list_units(session, game.id or 0)
    kept, gone = game_table.clouds_on_wind(game.board.get("clouds", []), wind, units)
    board = {**game.board, "wind": wind, "wind_turn": game.turn, "clouds": kept}
    if gone:
        board["clouds_gone"] = [*game.board.get("clouds_gone", []), *gone]
    return _set_game(session, game, board=board) + _gas_markers(session, kept, units)


def _gas_markers(
    session: Session, clouds: Sequence[dict[str, Any]], units: Sequence[Unit]
) -> list[dict[str, Any]]:
    covered = game_table.in_gas(clouds, units)
    changes: list[dict[str, Any]] = []
    for u in units:
        if game_table.stand_of(u) is not None and u.in_gas != (u.id in covered):
            changes += crud.update_unit(session, u, in_gas=u.id in covered)
    return changes


def _apply_draw(session: Session, game: Game, outcome: dict[str, Any]) -> list[dict[str, Any]]:
    """Keep the pack and the hands: beneficial cards go to the drawer's hand, cards handed over to the
    opponent's; everything else drawn is out of play."""
    drawer = game.side_to_move
    new = {drawer: list(outcome["hand"]), other_side(drawer): list(outcome["opponent_hand"])}
    changes: list[dict[str, Any]] = []
    for row in crud.sides(session, game.id or 0):
        before = list(row.special_uses.get(HAND_KEY, []))
        if before != new[row.side]:
            changes.append(_set_side(session, row, HAND_KEY, new[row.side]))
    held = {c for h in new.values() for c in h}
    out = [c for c in PACK if c not in outcome["deck"] and c not in held]
    return changes + _set_game(
        session, game, board={**game.board, "events": {"out": out, "cards_left": len(outcome["deck"])}}
    )


def _set_side(session: Session, row: GameSide, key: str, value: Any) -> dict[str, Any]:
    """Set one of a side's allowances; None removes it (so undoing its first use restores it exactly)."""
    before = row.special_uses.get(key)
    kept = {k: v for k, v in row.special_uses.items() if k != key}
    row.special_uses = kept if value is None else {**kept, key: value}
    row.version += 1
    session.add(row)
    return {"side": row.side, "field": key, "before": before, "after": value}


def play_card(session: Session, game: Game, viewer: Viewer, side: str, card: str) -> Event:
    """A card from a player's hand is played (red cards "MAY be played whenever a player wishes"); it is
    shown to everyone and goes out of play."""
    viewer.require_side(side, "play the cards")
    row = crud.get_side(session, game.id or 0, side)
    hand = list(row.special_uses.get(HAND_KEY, []))
    if card not in hand:
        raise RulesError("card", f"the {side} does not hold {card}", hand)
    changes = [_set_side(session, row, HAND_KEY, [c for c in hand if c != card])]
    events = game.board.get("events", {})
    board = {**game.board, "events": {**events, "out": [*events.get("out", []), card]}}
    changes += _set_game(session, game, board=board)
    return crud.record(
        session,
        game,
        "card-played",
        viewer.role,
        {"side": side, "card": card_dict(card), "changes": changes, "source": SRC_EVENTS},
    )


def _rolled_under_barrage(
    session: Session, game: Game, resolver_id: str, target: Unit
) -> list[dict[str, Any]]:
    """A stand rolled for stops being due under every barrage."""
    listed = "pending" if resolver_id == "rolling-barrage" else "danger"
    barrages = []
    for b in game.board.get("barrages", []):
        keep = [x for x in b.get(listed, []) if (x if listed == "pending" else x["unit"]) != target.id]
        barrages.append({**b, listed: keep})
    if barrages == game.board.get("barrages", []):
        return []
    return _set_game(session, game, board={**game.board, "barrages": barrages})


# -- undo ------------------------------------------------------------------------------------------------------
UNDOABLE = ("move", "marker", "unit-update", "roll", "arrival-roll", "unit-added")


def undo(session: Session, game: Game, viewer: Viewer, event_id: int) -> Event:
    """Reverse an event by appending its opposite. Players undo their own moves and markers back to the
    last die roll; undoing a roll is the referee's call."""
    ev = crud.get_event(session, game.id or 0, event_id)
    if not viewer.sees(ev.visibility):
        raise crud.NotFoundError("event", str(event_id))
    if ev.kind not in UNDOABLE:
        raise RulesError("event_id", f"a {ev.kind} event cannot be undone", UNDOABLE)
    if event_id in crud.reversed_ids(session, game.id or 0):
        raise Conflict(f"event {event_id} is already undone", current=crud.game_state(game))
    if not viewer.is_referee:
        if game.status == "finished":
            raise Conflict("The game is over: only the referee may undo now.", current=crud.game_state(game))
        if ev.kind in crud.ROLL_KINDS:
            raise Forbidden("undoing a die roll is the referee's call")
        if ev.actor != viewer.role:
            raise Forbidden("a player may undo only their own moves and markers")
        if event_id < crud.last_roll_id(session, game.id or 0):
            raise Forbidden("a player may undo only back to the last die roll; ask the referee")
    reverse: list[dict[str, Any]] = []
    # The whole record (the referee's view): the reverse is split again into its public and private parts.
    for change in reversed(hidden.view(ev.payload, ev.private, [*SIDES, "referee"]).get("changes", [])):
        reverse.append(_reverse(session, game, change))
    return crud.record(
        session,
        game,
        "undo",
        viewer.role,
        {"undoes": event_id, "kind": ev.kind, "changes": reverse},
        reverses_id=event_id,
    )


def _reverse(session: Session, game: Game, change: dict[str, Any]) -> dict[str, Any]:
    field = change["field"]
    if "side" in change:
        row = crud.get_side(session, game.id or 0, change["side"])
        if row.special_uses.get(field) != change["after"]:
            raise Conflict(f"the {row.side}'s {field} has changed since; undo the later change first")
        return _set_side(session, row, field, change["before"])
    if "game" in change:
        if getattr(game, field) != change["after"]:
            raise Conflict(
                f"game {field} has changed since; undo the later change first", current=crud.game_state(game)
            )
        before = getattr(game, field)
        crud.bump_game(session, game, None, **{field: change["before"]})
        return {"game": game.id, "field": field, "before": before, "after": change["before"]}
    unit = crud.get_unit(session, game.id or 0, change["unit"])
    if "delta" in change:
        got = crud.increment(session, unit, field, -change["delta"])
        if got is None:
            raise Conflict(f"unit {unit.id} {field} is too low to undo", current=crud.unit_dict(unit))
        return got
    if getattr(unit, field) != change["after"]:
        raise Conflict(
            f"unit {unit.id} {field} has changed since; undo the later change first",
            current=crud.unit_dict(unit),
        )
    return crud.update_unit(session, unit, **{field: change["before"]})[0]


# -- after-action report ------------------------------------------------------------------------------------
def casualty_estimate(game: Game, bases: int) -> dict[str, Any]:
    """The rule book's rule of thumb (bases x 15 men, split into thirds and sixths), rounded as the game's
    reading of the casualty-rounding erratum says."""
    ctx = get_ruleset(game.ruleset).context(game.period, game.variants)
    return {
        "bases": bases,
        **casualty_split(bases, str(ctx.value(CASUALTY_ROUNDING))),
        "sources": [SRC_CASUALTIES, ctx.citation(CASUALTY_ROUNDING)],
    }


def report(session: Session, game: Game, viewer: Viewer) -> dict[str, Any]:
    units = crud.list_units(session, game.id or 0)
    events = crud.list_events(session, game.id or 0, _roles(viewer), limit=100_000)
    by_turn: dict[int, list[dict[str, Any]]] = {}
    for ev in events:
        by_turn.setdefault(ev.turn, []).append(event_dict(ev, _roles(viewer)))
    battalions = []
    for bn in (u for u in units if u.level == "battalion"):
        stands = leaves_under(bn, units)
        start, gone = rifle_losses(bn, units)
        lost = sum(1 for u in stands if u.killed)
        battalions.append(
            {
                "unit_id": bn.id,
                "name": bn.name,
                "side": bn.side,
                "rifle_platoons": start,
                "rifle_platoons_lost": gone,
                "bases_lost": lost,
                "casualties": casualty_estimate(game, lost),
            }
        )
    sides_out = {}
    for side in SIDES:
        lost = sum(
            1 for u in units if u.side == side and u.killed and not any(c.parent_id == u.id for c in units)
        )
        sides_out[side] = casualty_estimate(game, lost)
    return {
        "game": crud.game_state(game),
        "turns": [{"turn": t, "events": evs} for t, evs in sorted(by_turn.items())],
        "losses_by_battalion": battalions,
        "casualties_by_side": sides_out,
    }


def _roles(viewer: Viewer) -> list[str]:
    return [*SIDES, "referee"] if viewer.is_referee else [viewer.role]


def event_dict(ev: Event, roles: Iterable[str] = ()) -> dict[str, Any]:
    """An event as a viewer holding `roles` may read it (every read path comes through here): the public
    payload with that viewer's private parts merged in. No roles: the public view only."""
    return {
        "id": ev.id,
        "turn": ev.turn,
        "side": ev.side,
        "step": ev.step,
        "kind": ev.kind,
        "actor": ev.actor,
        "visibility": ev.visibility,
        "payload": hidden.view(ev.payload, ev.private, roles),
        "reverses_id": ev.reverses_id,
        "created_at": ev.created_at.isoformat(),
    }


# -- creating a game -------------------------------------------------------------------------------------------
def create_game(
    session: Session,
    secret_key: str,
    *,
    scenario: str | None = None,
    name: str | None = None,
    period: str | None = None,
    attacker_nation: str = "",
    defender_nation: str = "",
    variants: dict[str, str] | None = None,
    table_width_cm: float | None = None,
    table_length_cm: float | None = None,
    terrain: dict[str, Any] | None = None,
    forces: Sequence[Mapping[str, Any]] = (),
) -> tuple[Game, crud.Credentials]:
    """A new game, by hand, from a scenario, or with `forces` ({side, table, quality?, name?}) built from the
    organisation tables and deployed; forces are stored the way a scenario's are. Returns the credentials
    once."""
    rs = get_ruleset(RULESET)
    spec = None
    if scenario is not None:
        from rules.flanders_fields.scenarios import build_scenario

        # Built with this game's readings: an erratum may change the forces.
        spec = build_scenario(scenario, variants)
        if forces:
            raise RulesError(
                "forces", "a scenario brings its own forces: give a scenario or forces, not both"
            )
    period = period or (spec.period if spec else _common_period(forces))
    rs.context(period, variants or {})  # refuses unknown periods and errata with a 422 naming them
    if terrain is not None:
        from rules.flanders_fields.table_rules import WIRE_BELT_CM
        from rules.table.terrain import terrain_from_geojson

        # Refuses bad features with a 422 naming them.
        terrain_from_geojson(terrain, wire_belt_cm=WIRE_BELT_CM)
    game = Game(
        name=name or (spec.name if spec else "New game"),
        ruleset=RULESET,
        period=period,
        variants=dict(variants or {}),
        table_width_cm=table_width_cm or (spec.table_width_cm if spec else 120.0),
        table_length_cm=table_length_cm or (spec.table_length_cm if spec else 180.0),
        attacker_nation=attacker_nation
        or (spec.attacker_nation if spec else _table_nation(forces, "attacker")),
        defender_nation=defender_nation
        or (spec.defender_nation if spec else _table_nation(forces, "defender")),
        scenario=scenario,
        terrain=terrain or (dict(spec.terrain) if spec else {"type": "FeatureCollection", "features": []}),
        notes="\n".join(spec.notes) if spec else "",
    )
    built = _built_forces(game, forces)
    session.add(game)
    session.flush()
    assert game.id is not None
    creds = crud.create_sides(session, secret_key, game)
    order_of_battle: Mapping[str, Sequence[OrgUnit]] = spec.forces if spec is not None else built
    placements, off_table = (
        (spec.placements, list(_off_table(spec))) if spec is not None else _deploy(game, built)
    )
    for side, nodes in order_of_battle.items():
        for node in nodes:
            crud.add_unit_tree(session, game.id, side, node, placements, off_table=off_table)
    crud.record(
        session,
        game,
        "game-created",
        "referee",
        {
            "scenario": scenario,
            "period": period,
            "source": spec.source if spec else "",
            "forces": [dict(f) for f in forces],
        },
        step="setup",
    )
    session.commit()
    session.refresh(game)
    return game, creds


def _off_table(spec: Any) -> Iterable[str]:
    return [uid for ids in spec.off_table.values() for uid in ids]


# -- forces from the organisation tables -----------------------------------------------------------------------
def _common_period(forces: Sequence[Mapping[str, Any]]) -> str:
    """The earliest period every named table covers (unknown tables are refused later); else early."""
    periods = [
        ORGANISATION_TABLES[f["table_id"]]["periods"] for f in forces if f["table_id"] in ORGANISATION_TABLES
    ]
    return next((p for p in PERIODS if all(p in ps for ps in periods)), "early")


def _table_nation(forces: Sequence[Mapping[str, Any]], side: str) -> str:
    tables = [f["table_id"] for f in forces if f["side"] == side and f["table_id"] in ORGANISATION_TABLES]
    return str(ORGANISATION_TABLES[tables[0]]["nation"]) if tables else ""


def tables_for(nation: str, period: str | None) -> list[str]:
    """Organisation tables of a nation (any when blank) drawn for a period (any when None)."""
    return [
        tid
        for tid, meta in ORGANISATION_TABLES.items()
        if (not nation or meta["nation"] == nation) and (period is None or period in meta["periods"])
    ]


def _built_forces(game: Game, forces: Sequence[Mapping[str, Any]]) -> dict[str, list[OrgUnit]]:
    out: dict[str, list[OrgUnit]] = {side: [] for side in SIDES}
    for i, force in enumerate(forces):
        out[force["side"]].append(table_force(game, force, f"forces.{i}", f"forces-{i}"))
    return out


def table_force(game: Game, force: Mapping[str, Any], field: str, id_prefix: str) -> OrgUnit:
    """Build a force ({side, table_id, quality?, name?}) for a game with build_force. The table must exist,
    be of the side's nation and be drawn for the game's period: else a 422 on `<field>.table_id` naming the
    tables that would do (`<field>.quality` for a quality the table does not allow). Unit ids are
    `<id_prefix>/<table>/...`, so each force of a game needs its own prefix."""
    at = f"{field}." if field else ""
    side, table = force["side"], force["table_id"]
    nation = (game.attacker_nation if side == "attacker" else game.defender_nation).strip().lower()
    fitting = tables_for(nation, game.period)
    meta = ORGANISATION_TABLES.get(table)
    if meta is None:
        raise RulesError(f"{at}table_id", f"unknown organisation table {table!r}", fitting)
    if nation and meta["nation"] != nation:
        raise RulesError(f"{at}table_id", f"{meta['title']} is not a {nation} table", fitting)
    if game.period not in meta["periods"]:
        raise RulesError(
            f"{at}table_id", f"{meta['title']} is not drawn for the {game.period} period", fitting
        )
    try:
        return build_force(
            table,
            quality=force.get("quality"),
            name=force.get("name"),
            variants=game.variants,
            id_prefix=f"{id_prefix}/{table}",
        )
    except RulesError as e:  # build_force names `quality`: point at this force in the request
        e.field = f"{at}{e.field}"
        raise


DEPLOY_GAP_CM = 1.0  # firestep's spacing between default positions, not a rule


def _deploy(game: Game, forces: Mapping[str, list[OrgUnit]]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Default positions for forces built from the tables. The rule book only says "Attacker and Defender
    deploy their forces a battalion at a time" (GAME SEQUENCE), so firestep lines each side up in the zone
    of the specimen game, "Both sides deploy 15cm onto the table" (SPECIMEN GAMES, Mons), at its own base
    edge: battalion by battalion, front rows first, every stand facing the enemy. A battalion (or a stand
    outside any) that no longer fits starts off the table, for the referee to bring on."""
    placements: dict[str, dict[str, Any]] = {}
    off_table: list[str] = []
    width = game.table_width_cm
    depth = min(DEPLOY_DEPTH, game.table_length_cm / 2)  # a small table: the zones meet in the middle
    for side, roots in forces.items():
        groups = [g for root in roots for g in _deploy_groups(root)]
        facing = 90.0 if side == "attacker" else 270.0
        toward_back = -1.0 if side == "attacker" else 1.0  # rows run away from the enemy
        front = depth if side == "attacker" else game.table_length_cm - depth
        x, row_start, row_depth = DEPLOY_GAP_CM, 0.0, 0.0  # row_start: distance of the row behind `front`
        for group in groups:
            saved = (x, row_start, row_depth)
            trial: dict[str, dict[str, Any]] = {}
            for stand in group.stands():
                base = BASES[stand.base or ""]
                if x + base.width_cm + DEPLOY_GAP_CM > width:
                    x, row_start, row_depth = DEPLOY_GAP_CM, row_start + row_depth + DEPLOY_GAP_CM, 0.0
                if x + base.width_cm + DEPLOY_GAP_CM > width or row_start + base.depth_cm > depth:
                    break
                depth_centre = row_start + base.depth_cm / 2
                trial[stand.id] = {
                    "center": [x + base.width_cm / 2, front + toward_back * depth_centre],
                    "facing_deg": facing,
                }
                x, row_depth = x + base.width_cm + DEPLOY_GAP_CM, max(row_depth, base.depth_cm)
            else:
                placements.update(trial)
                continue
            x, row_start, row_depth = saved
            off_table.append(group.id)
    return placements, off_table


def _deploy_groups(unit: OrgUnit) -> list[OrgUnit]:
    """What deploys as one: each battalion (artillery groups included), and each stand outside any."""
    if unit.level == "battalion" or unit.base is not None:
        return [unit]
    return [g for c in unit.children for g in _deploy_groups(c)]
