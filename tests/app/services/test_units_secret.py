"""A side's secret as the rule set declares it (`GameRules.secret`), read by the writes of many units at once
(app.services.units.update_units) as by one unit's (`update_unit`): 2mm Earth 1418's battery plan, its side's
alone while the battery has neither fired nor moved, though its field carries no `secret` flag."""

from __future__ import annotations

from sqlmodel import Session

from app.services import game_setup
from app.services.markers import rules_of
from app.services.seating import Viewer
from app.services.units import list_units, reader, update_units
from app.services.writing import unit_of_work
from rules.core.vocabulary import other_side


def test_a_field_the_rule_set_keeps_secret_is_its_side_s_in_a_write_of_many_units(session: Session) -> None:
    s = session
    with unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario="earth2mm-demo-ferme")
        rules = rules_of(game)
        field = next(f for f in rules.book.state_fields if f.name == "sub_plan")
        battery = next(u for u in list_units(s, game.pk) if rules.secret(u, field))
        assert not field.secret  # the rule set's declaration, not the field's flag
        enemy = Viewer(game.pk, other_side(battery.side))
        seen = reader(game, enemy)(battery)["version"]
        (change,) = update_units(s, [(battery, "sub_plan", "hold")])
        # Logged in its side's part (events.split), and its bump not shown to the other side.
        assert change.side == battery.side
        assert battery.hidden_writes == 1 and reader(game, enemy)(battery)["version"] == seen


def test_a_secret_set_again_unchanged_in_a_write_of_many_units_is_its_side_s_too(session: Session) -> None:
    """As `update_unit` logs it (the hostile pass of session 17): set again unchanged, a secret is still a
    write of its side's, logged in its part, and its bump not shown to the other side (else the other side,
    seeing the version rise with no public change, would learn which stand was given one)."""
    s = session
    with unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret-again", scenario="earth2mm-demo-ferme")
        rules = rules_of(game)
        field = next(f for f in rules.book.state_fields if f.name == "sub_plan")
        battery = next(u for u in list_units(s, game.pk) if rules.secret(u, field))
        enemy = Viewer(game.pk, other_side(battery.side))
        seen = reader(game, enemy)(battery)["version"]
        (change,) = update_units(s, [(battery, "sub_plan", battery.state.get("sub_plan"))])
        assert change.side == battery.side and change.before == change.after
        assert reader(game, enemy)(battery)["version"] == seen
