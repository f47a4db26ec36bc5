"""The game hook plays with nothing given: a bare `GameRules` moves a stand, and each rule set's claims name
fields its resolvers ask for (its size: tests/rules/test_hook_size.py)."""

from __future__ import annotations

from rules.core.acts import MoveStand
from rules.core.game import GameRules
from rules.core.records import Snapshot, UnitState
from rules.registry import all_game_rules, get_game_rules, get_ruleset


def test_a_bare_rule_set_plays_a_move_and_keeps_the_stand_on_the_table() -> None:
    stand = UnitState(1, None, "attacker", "platoon", x=10.0, y=10.0, facing_deg=90.0)
    snap = Snapshot("bare", None, (stand,), 120.0, 180.0)
    answer = GameRules().play(snap, MoveStand(unit_id=1, x=20.0, y=10.0, facing_deg=90.0))
    assert [(c.field, c.value) for c in answer.changes] == [("x", 20.0)]


def test_each_rule_set_declares_claims_of_fields_its_resolvers_ask_for() -> None:
    # Issue 52: what the table keeps and what a player measures are named once per rule set; a name no
    # resolver of it asks for would keep or mark nothing.
    for game in all_game_rules():
        claims = game.book.roll_terms.claims
        asked = {
            f for r in get_ruleset(game.book.ruleset_id).resolvers.values() for f in r.Request.model_fields
        }
        assert claims.declared <= asked, (game.book.ruleset_id, sorted(claims.declared - asked))
        assert not claims.kept & set(claims.measured)
    assert all(
        get_game_rules(rs_id).book.roll_terms.claims.kept for rs_id in ("flanders-fields", "2mm-earth-1418")
    )
    assert (
        not GameRules().book.roll_terms.claims.declared
    )  # none by default: every field is the player's to give
