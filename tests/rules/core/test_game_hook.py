"""The game hook is narrow: a rule set owns a few objects (its unit state, its turn, its rolls, its fire plan,
its table, its report, its new games) and answers any act in one call; each member has a default, so a rule
set plays with none of them given."""

from __future__ import annotations

import dataclasses

from rules.core.acts import MoveStand
from rules.core.game import GameRules
from rules.core.records import Snapshot, UnitState
from rules.registry import all_game_rules, get_game_rules, get_ruleset

MOST_MEMBERS = 12


def test_the_hook_has_at_most_twelve_public_members_each_with_a_default() -> None:
    public = [n for n in dir(GameRules) if not n.startswith("_")]
    fields = {f.name for f in dataclasses.fields(GameRules)}
    assert len(set(public) | fields) <= MOST_MEMBERS, sorted(set(public) | fields)
    bare = GameRules()  # every member defaulted
    assert all(getattr(bare, name) is not None for name in fields)


def test_a_bare_rule_set_plays_a_move_and_keeps_the_stand_on_the_table() -> None:
    stand = UnitState(1, None, "attacker", "platoon", x=10.0, y=10.0, facing_deg=90.0)
    snap = Snapshot("bare", None, (stand,), 120.0, 180.0)
    answer = GameRules().play(snap, MoveStand(unit_id=1, x=20.0, y=10.0, facing_deg=90.0))
    assert [(c.field, c.value) for c in answer.changes] == [("x", 20.0)]


def test_each_rule_set_declares_claims_of_fields_its_resolvers_ask_for() -> None:
    # Issue 52: what the table keeps and what a player measures are named once per rule set; a name no
    # resolver of it asks for would keep or mark nothing.
    for game in all_game_rules():
        claims = game.rolls.terms.claims
        asked = {f for r in get_ruleset(game.ruleset_id).resolvers.values() for f in r.Request.model_fields}
        assert claims.declared <= asked, (game.ruleset_id, sorted(claims.declared - asked))
        assert not claims.kept & set(claims.measured)
    assert all(
        get_game_rules(rs_id).rolls.terms.claims.kept for rs_id in ("flanders-fields", "2mm-earth-1418")
    )
    assert not GameRules().rolls.terms.claims.declared  # none by default: every field is the player's to give
