"""Each rule set's unit state is a model of its own (`Book.unit_state`, issue 90): the same fields as its
book's `state_fields` in the same order, each at the state field's default, a value of another kind refused."""

from __future__ import annotations

import pytest

from rules.registry import all_game_rules

GAMES = [g for g in all_game_rules() if g.book.state_fields]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.book.ruleset_id)
def test_unit_state_is_the_books_state_fields(game):
    model = game.book.unit_state
    assert model is not None, "a rule set with state fields declares its unit state's model"
    assert list(model.model_fields) == [f.name for f in game.book.state_fields]
    defaults = model()
    for f in game.book.state_fields:
        assert getattr(defaults, f.name) == f.default, f.name


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.book.ruleset_id)
def test_a_unit_state_refuses_a_value_of_another_kind(game):
    model = game.book.unit_state
    counted = next((f.name for f in game.book.state_fields if f.kind == "count"), None)
    assert counted is not None
    with pytest.raises(ValueError):
        model.model_validate({counted: "many"})
