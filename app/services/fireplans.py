"""Fire plans: the items a side writes in secret, the hash-tree commitment that locks them, revealing and
verifying an item, and a planned barrage arriving on the table. A rule set's plan is either one plan for the
game, locked before it starts (Flanders Fields), or a plan for each turn sealed during it
(Book.plan_terms.sealed_each_turn: its commitment per (game, side, turn), FirePlanSeal)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from sqlmodel import Session, col, select

from app.data.board_state import board_json, read_board
from app.data.models import Event, FirePlanEdit, FirePlanItem, FirePlanSeal, Game, Unit
from app.data.schemas_answers import PlanEditOut
from app.errors import RuleRefused
from app.services.events import record
from app.services.games import bump_game, game_state
from app.services.markers import apply_changes, board_changed, rules_of, snapshot_of, table_read
from app.services.seating import Viewer, new_salt
from app.services.seats import get_side, sides
from app.services.units import list_units
from rules.core import commitment
from rules.core.acts import ArriveItem, PlanFire
from rules.core.commitment import HOW_TO_CHECK, PLAN_CAPACITY, leaf_of
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import Landed, Position
from rules.core.records import PlanItem


# -- fire plans --------------------------------------------------------------------------------------------
def plan_items(session: Session, game_id: int, side: str, turn: int | None = None) -> list[FirePlanItem]:
    """A side's items (those landing in `turn` only, when given)."""
    query = select(FirePlanItem).where(FirePlanItem.game_id == game_id, FirePlanItem.side == side)
    if turn is not None:
        query = query.where(FirePlanItem.arrival_turn == turn)
    return list(session.exec(query.order_by(col(FirePlanItem.id))))


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
@dataclass(frozen=True)
class Seal:
    """The lock a plan stands under: the commitment published at locking, its tree's leaves and its padding
    salt (none while it is open)."""

    locked: bool
    commitment: str | None = None
    leaves: tuple[str, ...] = ()
    salt: str = ""


def each_turn(game: Game) -> bool:
    """Whether the game's plan is sealed turn by turn (else one plan, locked before the game starts)."""
    return rules_of(game).book.plan_terms.sealed_each_turn


def turn_seals(session: Session, game_id: int, side: str) -> list[FirePlanSeal]:
    query = select(FirePlanSeal).where(FirePlanSeal.game_id == game_id, FirePlanSeal.side == side)
    return list(session.exec(query.order_by(col(FirePlanSeal.turn))))


def seal_of(session: Session, game: Game, side: str, turn: int) -> Seal:
    """The lock of `side`'s plan: its one plan's, or, sealed each turn, its plan for `turn`'s."""
    if not each_turn(game):
        row = get_side(session, game.pk, side)
        return Seal(row.plan_locked, row.plan_commitment, tuple(row.plan_leaves), row.plan_salt)
    sealed = next((s for s in turn_seals(session, game.pk, side) if s.turn == turn), None)
    return Seal(True, sealed.commitment, tuple(sealed.leaves), sealed.salt) if sealed else Seal(False)


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
    """A new item of an unlocked plan, recorded in the side's own edit history (not the shared log). A plan
    sealed each turn holds the current turn's items only."""
    row = get_side(session, game.pk, side)
    if each_turn(game) and arrival_turn != game.turn:
        raise RulesError(
            "arrival_turn",
            f"the plan is written turn by turn: write turn {arrival_turn}'s items during turn {arrival_turn}",
        )
    require_open(session, game, side, arrival_turn)
    rules = rules_of(game)
    if kind not in rules.book.kit.plan_kind_names:  # another rule set's kind: the schema takes every game's
        raise RulesError(
            "item.kind", f"this game's fire plan holds no {kind}", rules.book.kit.plan_kind_names
        )
    rules.play(snapshot_of(session, game, []), PlanFire(side=side, kind=kind, nation=row.nation))
    items = plan_items(session, game.pk, side, arrival_turn if each_turn(game) else None)
    if len(items) >= PLAN_CAPACITY:
        raise RulesError("item", f"a fire plan holds at most {PLAN_CAPACITY} items; remove one first")
    item = FirePlanItem(
        game_id=game.pk,
        side=side,
        kind=kind,
        arrival_turn=arrival_turn,
        data=data,
        salt=salt,
        public_id=new_public_id(i.public_id for i in items),
    )
    session.add(item)
    session.add(FirePlanEdit(game_id=game.pk, side=side, action="added", item=item_body(item)))
    session.flush()
    return item


def remove_plan_item(session: Session, game: Game, side: str, public_id: int) -> None:
    item = plan_item(session, game.pk, side, public_id)
    require_open(session, game, side, item.arrival_turn)
    session.add(FirePlanEdit(game_id=game.pk, side=side, action="removed", item=item_body(item)))
    session.delete(item)


def plan_edits(session: Session, game_id: int, side: str) -> list[PlanEditOut]:
    """A side's own edit history, oldest first (by time; row ids are shared with the other side's)."""
    rows = session.exec(
        select(FirePlanEdit)
        .where(FirePlanEdit.game_id == game_id, FirePlanEdit.side == side)
        .order_by(col(FirePlanEdit.id))
    )
    return [PlanEditOut(action=r.action, item=r.item, at=r.created_at.isoformat()) for r in rows]


def require_open(session: Session, game: Game, side: str, turn: int) -> None:
    if each_turn(game) and game.status == "finished":
        raise RuleRefused("The game is over: its plans no longer change", current=game_state(game))
    if seal_of(session, game, side, turn).locked:
        raise RuleRefused(f"the {side}'s fire plan is locked", current=plan_summary(session, game, side))


def _commit(session: Session, game: Game, side: str, items: list[FirePlanItem], padding: str) -> list[str]:
    """Each item's leaf (hashed with its own secret salt) put in a random slot of the tree, padding in the
    rest: the tree's leaves."""
    for item, slot in zip(items, _random.sample(range(PLAN_CAPACITY), len(items)), strict=True):
        item.slot = slot
        item.leaf = leaf_of(item_body(item), item.salt)
        session.add(item)
    return plan_leaves(items, padding)


def lock_refusal(game: Game) -> str | None:
    """Why no plan of this game may be locked (or sealed) now, in one sentence, or None where it may: what the
    plan's page offers (its Lock button, or this sentence) is what `lock_plan` accepts."""
    if each_turn(game):
        return (
            None
            if game.status == "playing"
            else "A plan sealed each turn is sealed in its turn: start the game first."
        )
    return None if game.status == "setup" else "Fire plans are locked before the game starts."


def lock_plan(session: Session, game: Game, side: str, actor: str) -> Event:
    """Publish the commitment: each item's leaf (hashed with its own secret salt) goes into a random slot of
    the tree, padding fills the rest. Items cannot change afterwards. Only during set-up: the game's start
    locks every plan not yet locked (turns.advance), so a plan never starts unlocked. A plan sealed each turn
    is sealed during its turn instead (`seal_turn`)."""
    if each_turn(game):
        return seal_turn(session, game, side, actor)
    refused = lock_refusal(game)
    if refused:
        raise RuleRefused(refused, current=game_state(game))
    row = get_side(session, game.pk, side)
    if row.plan_locked:
        raise RuleRefused(
            f"the {side}'s fire plan is already locked", current=plan_summary(session, game, side)
        )
    leaves = _commit(session, game, side, plan_items(session, game.pk, side), row.plan_salt)
    row.plan_locked = True
    row.plan_leaves = leaves
    row.plan_commitment = commitment.plan_commitment(game.pk, side, leaves)
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


def seal_turn(session: Session, game: Game, side: str, actor: str) -> Event:
    """Seal `side`'s plan for the current turn, with the same commitment as a plan locked once (over a fresh
    padding salt), published to both sides; the seal is kept for the turn, to verify after the game."""
    refused = lock_refusal(game)
    if refused:
        raise RuleRefused(refused, current=game_state(game))
    if seal_of(session, game, side, game.turn).locked:
        raise RuleRefused(
            f"the {side}'s fire plan for turn {game.turn} is already sealed",
            current=plan_summary(session, game, side),
        )
    padding = new_salt()
    leaves = _commit(session, game, side, plan_items(session, game.pk, side, game.turn), padding)
    committed = commitment.plan_commitment(game.pk, side, leaves)
    session.add(
        FirePlanSeal(
            game_id=game.pk, side=side, turn=game.turn, commitment=committed, leaves=leaves, salt=padding
        )
    )
    session.flush()
    steps = rules_of(game).steps(game.period)
    return record(
        session,
        game,
        "fire-plan-locked",
        actor,
        {"side": side, "turn": game.turn, "commitment": committed, "capacity": PLAN_CAPACITY},
        step=steps[game.step].id if game.step < len(steps) else game.status,
    )


def seal_due(session: Session, game: Game, actor: str, leaving: bool = False) -> list[Event]:
    """Seal each plan of the current turn still open once no step left in the turn allows `plan-fire` (the
    turn model's rules of play), or as the turn ends (`leaving`): each turn's plan is sealed before any of
    it lands, empty or not."""
    if game.status != "playing" or not each_turn(game):
        return []
    turn = rules_of(game)
    rest = range(game.step, len(turn.steps(game.period)))

    def writable(side: str, step: int) -> bool:
        now = Position(game.turn, game.side_to_move, step)
        return turn.refusal(game.status, game.period, now, "plan-fire", side, None, []) is None

    return [
        seal_turn(session, game, s.side, actor)
        for s in sides(session, game.pk)
        if not seal_of(session, game, s.side, game.turn).locked
        and (leaving or not any(writable(s.side, i) for i in rest))
    ]


def may_read_plan(viewer: Viewer, side: str, game: Game) -> bool:
    """A plan is its own side's and the referee's; everyone's once the game is over (to verify it)."""
    return viewer.may_act_for(side) or game.status == "finished"


class PlanSummary(TypedDict):
    """A side's plan as both sides read it (the answers' PlanOut)."""

    side: str
    locked: bool
    commitment: str | None
    capacity: int
    how_to_check: str
    turn: NotRequired[int]  # a plan sealed each turn: the turn whose plan it is


def plan_summary(session: Session, game: Game, side: str) -> PlanSummary:
    """A side's plan as both sides read it: locked or not and its commitment (sealed each turn: the current
    turn's plan), never what it holds."""
    seal = seal_of(session, game, side, game.turn)
    summary: PlanSummary = {
        "side": side,
        "locked": seal.locked,
        "commitment": seal.commitment,
        "capacity": PLAN_CAPACITY,
        "how_to_check": HOW_TO_CHECK,
    }
    if each_turn(game):
        summary["turn"] = game.turn
    return summary


def reveal(item: FirePlanItem, row: Seal) -> dict[str, Any]:
    """What the opponent gets when an item arrives: the item, its salt, its slot and the hashes on its way
    to the root; enough to check it against the commitment and nothing about the other items. `row`: the
    lock of the item's plan (`seal_of`)."""
    body = item_body(item)
    leaf = leaf_of(body, item.salt)
    tree = row.leaves if row.locked and len(row.leaves) == PLAN_CAPACITY else None
    slot = item.slot
    path = (
        commitment.auth_path(commitment.tree_levels(tree), slot)
        if tree is not None and slot is not None
        else []
    )
    root = commitment.root_from_path(leaf, slot, path) if path and slot is not None else None
    verified = root is not None and commitment.commitment_of(item.game_id, item.side, root) == row.commitment
    return {
        "item": body,
        "salt": item.salt,
        "leaf": leaf,
        "slot": item.slot,
        "path": path,
        "commitment": row.commitment,
        "verified": verified or _legacy_verified(item, row),
        "how_to_check": HOW_TO_CHECK,
    }


def _legacy_verified(item: FirePlanItem, row: Seal) -> bool:
    """Plans locked before the commitment tree (revision 0005) committed to the sorted list of leaves, each
    over the item with its row id: still checked here, without publishing that list (its length is the
    plan's size)."""
    if not row.locked or len(row.leaves) == PLAN_CAPACITY:
        return False
    leaf = leaf_of({**item_body(item), "id": item.id}, item.salt)
    flat = commitment.legacy_commitment(item.game_id, item.side, row.leaves)
    return leaf in row.leaves and flat == row.commitment


def verify_plan(session: Session, game: Game, side: str) -> dict[str, Any]:
    """The whole plan checked against its commitment: every leaf recomputed from the items' stored content
    and the padding salt. A plan sealed each turn: each sealed turn's, and verified when every one is."""
    if not each_turn(game):
        return {
            "side": side,
            **_verified(game, side, seal_of(session, game, side, 0), plan_items(session, game.pk, side)),
        }
    turns = [
        {
            "turn": s.turn,
            **_verified(
                game,
                side,
                Seal(True, s.commitment, tuple(s.leaves), s.salt),
                plan_items(session, game.pk, side, s.turn),
            ),
        }
        for s in turn_seals(session, game.pk, side)
    ]
    return {
        "side": side,
        "verified": all(t["verified"] for t in turns),
        "capacity": PLAN_CAPACITY,
        "how_to_check": HOW_TO_CHECK,
        "turns": turns,
    }


def _verified(game: Game, side: str, row: Seal, items: list[FirePlanItem]) -> dict[str, Any]:
    """One plan under its lock: its commitment recomputed from the items and the padding salt."""
    recomputed = (
        commitment.plan_commitment(game.pk, side, plan_leaves(items, row.salt)) if row.locked else None
    )
    legacy = row.locked and len(row.leaves) != PLAN_CAPACITY
    if legacy:  # a plan locked before the commitment tree: its padding leaf and every item's leaf
        leaves = [leaf_of({**item_body(i), "id": i.id}, i.salt) for i in items]
        leaves.append(leaf_of({"padding": side}, row.salt))
        recomputed = commitment.legacy_commitment(game.pk, side, leaves)
    return {
        "locked": row.locked,
        "commitment": row.commitment,
        "recomputed": recomputed,
        "verified": row.locked and recomputed == row.commitment,
        "capacity": PLAN_CAPACITY,
        "padding_salt": row.salt,
        "items": [{**reveal(i, row), "arrived": i.arrived} for i in items],
        "how_to_check": HOW_TO_CHECK,
    }


def planned(item: FirePlanItem) -> PlanItem:
    return PlanItem(item.public_id, item.side, item.kind, item.arrival_turn, item.data)


def due_items(session: Session, game: Game) -> list[FirePlanItem]:
    """The items that land now, in slot order (drawn at random at locking, so the order of arrival says
    nothing of the order they were written in): those of this turn whose step (Book.plan_terms.arrival_steps; none,
    as the turn starts) the turn has reached. One plan for the game: the side to move's, as its turn starts;
    sealed each turn: both sides' once sealed."""
    rules = rules_of(game)
    ids = [s.id for s in rules.steps(game.period)]
    landing = [s.side for s in sides(session, game.pk)] if each_turn(game) else [game.side_to_move]
    due = [
        i
        for side in landing
        if not each_turn(game) or seal_of(session, game, side, game.turn).locked
        for i in plan_items(session, game.pk, side, game.turn)
        if not i.arrived and _index(ids, rules.book.plan_terms.arrival_steps.get(i.kind)) <= game.step
    ]
    return sorted(due, key=lambda i: (i.slot is None, i.slot or 0, i.public_id))


def _index(ids: list[str], step: str | None) -> int:
    return ids.index(step) if step in ids else 0


def arrive(
    session: Session,
    game: Game,
    item: FirePlanItem,
    step: str = "start-of-turn",
    units: list[Unit] | None = None,
) -> list[Event]:
    """An item reaches the table (as the turn starts, or as it enters `step`): revealed to all, put on the
    board as the game's rule set says, then what follows (the units under what arrived, a roll the server
    makes for it). `units`: the game's units as read for the items arriving together (their writes keep the
    rows up to date), else read here."""
    item.arrived = True
    session.add(item)
    row = seal_of(session, game, item.side, item.arrival_turn)
    events = [record(session, game, "fire-plan-arrival", "system", reveal(item, row), step=step)]
    units = units if units is not None else list_units(session, game.pk)
    # The game's units as the worker keeps them (each decoded once per version, named once per force tree: issue
    # 91, ten batteries landing together on the largest table decoded and named its 2,000 units ten times).
    read = table_read(session, game)
    now, kept = read.snapshot, read.kept
    # The plan names a battery as the fire plan shows it ("2 How Bty"): one on the table does not deviate.
    answer = rules_of(game).play(now, ArriveItem(item=planned(item), names=kept.short_names))
    if not isinstance(answer, Landed):
        raise TypeError(f"an item landing is answered by a Landed, not {type(answer).__name__}")
    landed = answer.arrival
    board = read_board(game)
    for key, value in landed.board.items():
        setattr(board, key, value)
    bump_game(session, game, None, board=board_json(game, board))
    if landed.event:
        changes = board_changed(session, game, units)
        payload = {**landed.shown, "changes": changes, "source": landed.source}
        events.append(record(session, game, landed.event, "system", payload, step=landed.step))
    if answer.resolution is not None:  # the roll the server made for it, and what it does
        events.append(
            record(
                session,
                game,
                "arrival-roll",
                "system",
                {
                    "resolver": landed.roll,
                    "resolution": answer.resolution,
                    "changes": apply_changes(session, game, units, answer.changes),
                },
                step=landed.step,
            )
        )
    return events
