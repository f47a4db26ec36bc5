"""A secret plan's commitment (fire plans, in any rule set): the root of a Merkle tree over a fixed number of
leaves, the most items a plan may hold. Every item's leaf sits in a slot drawn at random when the plan is
locked (the caller draws the slots: no randomness here) and the other slots hold padding leaves, hashes like
any other. An arriving item is proved by its own leaf and the hashes on its way to the root, the same number
whatever the plan holds, so nothing tells the opponent how many items are still to come. After the game the
padding salt lets anyone rebuild the whole tree. Pure: hashing only."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

PLAN_CAPACITY = 64
TREE_DEPTH = PLAN_CAPACITY.bit_length() - 1

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


def leaf_of(body: Mapping[str, Any], salt: str) -> str:
    return sha256({"item": body, "salt": salt})


def padding_leaf(slot: int, salt: str) -> str:
    return sha256({"padding": slot, "salt": salt})


def plan_leaves(slotted: Iterable[tuple[int | None, Mapping[str, Any], str]], padding_salt: str) -> list[str]:
    """Every slot's leaf: each (slot, item body, salt) in its slot (an item with no slot, or a slot outside
    the tree, is left out), padding in the rest."""
    leaves = [padding_leaf(slot, padding_salt) for slot in range(PLAN_CAPACITY)]
    for slot, body, salt in slotted:
        if slot is not None and 0 <= slot < PLAN_CAPACITY:
            leaves[slot] = leaf_of(body, salt)
    return leaves


def tree_levels(leaves: Sequence[str]) -> list[list[str]]:
    """The tree bottom-up: the leaves, then each level of pairs hashed as [left, right], up to the root."""
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([sha256([below[i], below[i + 1]]) for i in range(0, len(below), 2)])
    return levels


def auth_path(levels: Sequence[Sequence[str]], slot: int) -> list[str]:
    """The sibling hashes on the way from a slot's leaf to the root."""
    return [levels[depth][(slot >> depth) ^ 1] for depth in range(len(levels) - 1)]


def root_from_path(leaf: str, slot: int, path: Sequence[str]) -> str:
    node = leaf
    for depth, sibling in enumerate(path):
        node = sha256([sibling, node] if slot >> depth & 1 else [node, sibling])
    return node


def commitment_of(game_id: int, side: str, root: str) -> str:
    return sha256({"game": game_id, "side": side, "root": root})


def plan_commitment(game_id: int, side: str, leaves: Sequence[str]) -> str:
    """The commitment published when a plan is locked: over the root of its whole tree of leaves."""
    return commitment_of(game_id, side, tree_levels(leaves)[-1][0])


def legacy_commitment(game_id: int, side: str, leaves: Iterable[str]) -> str:
    """Plans locked before the commitment tree (revision 0005) committed to the sorted list of their leaves
    (each over the item with its row id, and one padding leaf)."""
    return sha256({"game": game_id, "side": side, "leaves": sorted(leaves)})
