"""A fire plan's commitment (rules/core/commitment.py), checked against hashes built here by hand from the
published recipe (HOW_TO_CHECK), not from the module's own helpers."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rules.core import commitment as C


def by_hand(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_hashed_encoding_is_compact_sorted_utf8() -> None:
    assert C.canonical({"b": "é", "a": [1, 2]}) == '{"a":[1,2],"b":"é"}'.encode()
    assert C.sha256({"b": 1, "a": 2}) == hashlib.sha256(b'{"a":2,"b":1}').hexdigest()


def test_a_four_leaf_tree_hashes_pairs_left_then_right() -> None:
    leaves = [by_hand({"padding": i, "salt": "s"}) for i in range(4)]
    left, right = by_hand([leaves[0], leaves[1]]), by_hand([leaves[2], leaves[3]])
    levels = C.tree_levels(leaves)
    assert levels[-1] == [by_hand([left, right])]
    # slot 2 (binary 10): its sibling leaf 3 on the right, then the left pair's hash on the left
    assert C.auth_path(levels, 2) == [leaves[3], left]
    assert C.root_from_path(leaves[2], 2, [leaves[3], left]) == by_hand([left, right])


def test_every_slot_proves_its_leaf_with_a_path_as_long_whatever_the_plan_holds() -> None:
    items = {
        5: {"id": 7, "kind": "gas"},
        0: {"id": 9, "kind": "mortar"},
        63: {"id": 1, "kind": "air-mission"},
    }
    slotted = [(slot, body, f"salt-{slot}") for slot, body in items.items()]
    leaves = C.plan_leaves(slotted, "padding-salt")
    assert len(leaves) == C.PLAN_CAPACITY == 2**C.TREE_DEPTH
    for slot in range(C.PLAN_CAPACITY):
        expected = (
            by_hand({"item": items[slot], "salt": f"salt-{slot}"})
            if slot in items
            else by_hand({"padding": slot, "salt": "padding-salt"})
        )
        assert leaves[slot] == expected
    levels = C.tree_levels(leaves)
    root = levels[-1][0]
    published = C.plan_commitment(12, "attacker", leaves)
    assert published == by_hand({"game": 12, "side": "attacker", "root": root})
    for slot in range(C.PLAN_CAPACITY):
        path = C.auth_path(levels, slot)
        assert len(path) == C.TREE_DEPTH
        assert C.commitment_of(12, "attacker", C.root_from_path(leaves[slot], slot, path)) == published
    # a changed item, or the right leaf in another slot, proves nothing
    forged = by_hand({"item": {**items[5], "kind": "mortar"}, "salt": "salt-5"})
    assert C.root_from_path(forged, 5, C.auth_path(levels, 5)) != root
    assert C.root_from_path(leaves[5], 4, C.auth_path(levels, 5)) != root


def test_items_without_a_slot_in_the_tree_are_left_out() -> None:
    padding_only = C.plan_leaves([], "p")
    assert (
        C.plan_leaves([(None, {"id": 1}, "s"), (64, {"id": 2}, "s"), (-1, {"id": 3}, "s")], "p")
        == padding_only
    )


def test_a_plan_locked_before_the_tree_committed_to_its_sorted_leaves() -> None:
    leaves = ["c", "a", "b"]
    expected = by_hand({"game": 3, "side": "defender", "leaves": ["a", "b", "c"]})
    assert C.legacy_commitment(3, "defender", leaves) == expected
