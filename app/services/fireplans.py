"""Fire plans: the items a side writes in secret, the hash-tree commitment that locks them, revealing and
verifying an item, and a planned barrage arriving on the table."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from sqlmodel import Session, col, select

from app.data.board_state import board_json, read_board
from app.data.models import Event, FirePlanEdit, FirePlanItem, Game, GameSide
from app.errors import Conflict
from app.guard.auth import Viewer
from app.services.events import record
from app.services.games import bump_game, game_state
from app.services.markers import apply_changes, board_changed, rules_of, snapshot_of
from app.services.seats import get_side
from app.services.units import list_units
from rules.core import commitment
from rules.core.commitment import HOW_TO_CHECK, PLAN_CAPACITY, leaf_of
from rules.core.dice import roll
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import Outcome
from rules.core.records import PlanItem
from rules.registry import get_ruleset


# -- fire plans --------------------------------------------------------------------------------------------
def plan_items(session: Session, game_id: int, side: str) -> list[FirePlanItem]:
    return list(
        session.exec(
            select(FirePlanItem)
            .where(FirePlanItem.game_id == game_id, FirePlanItem.side == side)
            .order_by(col(FirePlanItem.id))
        )
    )


def get_plan_item(session: Session, game_id: int, side: str, item_id: int) -> FirePlanItem:
    item = session.exec(
        select(FirePlanItem).where(
            FirePlanItem.id == item_id, FirePlanItem.game_id == game_id, FirePlanItem.side == side
        )
    ).first()
    if item is None:
        raise NotFoundError("fire plan item", str(item_id))
    return item


_random = random.SystemRandom()  # fire-plan slots and public ids: unguessable by the other side

PUBLIC_ID_MAX = 2_147_483_647


# -- fire plans: commitment (rules.core.commitment) and arrival ---------------------------------------------
def item_body(item: FirePlanItem) -> dict[str, Any]:
    return {
        "id": item.public_id,
        "side": item.side,
        "kind": item.kind,
        "arrival_turn": item.arrival_turn,
        "data": item.data,
    }


def plan_leaves(items: Iterable[FirePlanItem], padding_salt: str) -> list[str]:
    """Every slot's leaf recomputed from the items' content and the padding salt."""
    return commitment.plan_leaves(((i.slot, item_body(i), i.salt) for i in items), padding_salt)


def new_public_id(taken: Iterable[int]) -> int:
    """A random id for a new plan item, unique in its plan."""
    used = set(taken)
    while True:
        candidate = _random.randint(1, PUBLIC_ID_MAX)
        if candidate not in used:
            return candidate


def plan_item(session: Session, game_id: int, side: str, public_id: int) -> FirePlanItem:
    """A plan item by the id its players know it by."""
    for item in plan_items(session, game_id, side):
        if item.public_id == public_id:
            return item
    raise NotFoundError("fire plan item", str(public_id))


def add_plan_item(
    session: Session, game: Game, side: str, kind: str, arrival_turn: int, data: dict[str, Any], salt: str
) -> FirePlanItem:
    """A new item of an unlocked plan, recorded in the side's own edit history (not the shared log)."""
    row = get_side(session, game.id or 0, side)
    require_open(row)
    rules_of(game).fire_plan.plan_item_allowed(kind, game.period, side, row.nation)
    items = plan_items(session, game.id or 0, side)
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
    require_open(get_side(session, game.id or 0, side))
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
    the tree, padding fills the rest. Items cannot change afterwards. Only during set-up: the game's start
    locks every plan not yet locked (turns.advance), so a plan never starts unlocked."""
    if game.status != "setup":
        raise Conflict("fire plans are locked before the game starts", current=game_state(game))
    row = get_side(session, game.id or 0, side)
    if row.plan_locked:
        raise Conflict(f"the {side}'s fire plan is already locked", current=plan_summary(row))
    items = plan_items(session, game.id or 0, side)
    for item, slot in zip(items, _random.sample(range(PLAN_CAPACITY), len(items)), strict=True):
        item.slot = slot
        item.leaf = leaf_of(item_body(item), item.salt)
        session.add(item)
    leaves = plan_leaves(items, row.plan_salt)
    row.plan_locked = True
    row.plan_leaves = leaves
    row.plan_commitment = commitment.plan_commitment(game.id or 0, side, leaves)
    row.version += 1
    session.add(row)
    return record(
        session,
        game,
        "fire-plan-locked",
        actor,
        {"side": side, "commitment": row.plan_commitment, "capacity": PLAN_CAPACITY},
        step="setup",
    )


def may_read_plan(viewer: Viewer, side: str, game: Game) -> bool:
    """A plan is its own side's and the referee's; everyone's once the game is over (to verify it)."""
    return viewer.may_act_for(side) or game.status == "finished"


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
    slot = item.slot
    path = (
        commitment.auth_path(commitment.tree_levels(tree), slot)
        if tree is not None and slot is not None
        else []
    )
    root = commitment.root_from_path(leaf, slot, path) if path and slot is not None else None
    verified = (
        root is not None and commitment.commitment_of(item.game_id, item.side, root) == row.plan_commitment
    )
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
    flat = commitment.legacy_commitment(item.game_id, item.side, row.plan_leaves)
    return leaf in row.plan_leaves and flat == row.plan_commitment


def verify_plan(session: Session, game: Game, side: str) -> dict[str, Any]:
    """The whole plan checked against its commitment: every leaf recomputed from the items' stored content
    and the padding salt."""
    row = get_side(session, game.id or 0, side)
    items = plan_items(session, game.id or 0, side)
    recomputed = (
        commitment.plan_commitment(game.id or 0, side, plan_leaves(items, row.plan_salt))
        if row.plan_locked
        else None
    )
    legacy = row.plan_locked and len(row.plan_leaves) != PLAN_CAPACITY
    if legacy:  # a plan locked before the commitment tree: its padding leaf and every item's leaf
        leaves = [leaf_of({**item_body(i), "id": i.id}, i.salt) for i in items]
        leaves.append(leaf_of({"padding": side}, row.plan_salt))
        recomputed = commitment.legacy_commitment(game.id or 0, side, leaves)
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
    """An item reaches the table: revealed to all, put on the board as the game's rule set says, then what
    follows (the units under what arrived, a roll the server makes for it)."""
    item.arrived = True
    session.add(item)
    row = get_side(session, game.id or 0, item.side)
    events = [record(session, game, "fire-plan-arrival", "system", reveal(item, row), step="start-of-turn")]
    units = list_units(session, game.id or 0)
    game_rules = rules_of(game)
    planned = PlanItem(item.public_id, item.side, item.kind, item.arrival_turn, item.data)
    now = snapshot_of(session, game, units)
    landed = game_rules.fire_plan.arrival(
        now, planned, roll(game_rules.fire_plan.arrival_dice(now, planned), _random)
    )
    board = read_board(game)
    for key, value in landed.board.items():
        setattr(board, key, value)
    bump_game(session, game, None, board=board_json(game, board))
    if landed.event:
        changes = board_changed(session, game, units)
        payload = {**landed.shown, "changes": changes, "source": landed.source}
        events.append(record(session, game, landed.event, "system", payload, step=landed.step))
    if landed.roll:
        rs = get_ruleset(game.ruleset)
        req = rs.resolvers[landed.roll].Request.model_validate(
            {"period": game.period, "variants": game.variants}
        )
        res = rs.resolve(landed.roll, req).as_dict()
        rolled = game_rules.rolls.consequences(
            landed.roll, snapshot_of(session, game, units), Outcome(req, res)
        )
        events.append(
            record(
                session,
                game,
                "arrival-roll",
                "system",
                {
                    "resolver": landed.roll,
                    "resolution": res,
                    "changes": apply_changes(session, game, units, rolled),
                },
                step=landed.step,
            )
        )
    return events
