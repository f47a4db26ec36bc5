"""Vimy Ridge's hexes as the last session's hostile pass tried them, on a snapshot of counters with no app: a retreat
"into" the hex the counter stands in was taken and logged an act that changed nothing (a retreat moves the
counter: the combat-move erratum, either reading), and a hex off the map (9999) was taken as a counter's hex in
set-up and in play (the map's extent is the club's, as its copy prints it: the book prints no map size). Hex numbers
are a club example (a test fixture), not map facts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core.acts import AddUnit, EditUnit
from rules.core.errors import RulesError
from rules.vimy_ridge.play.club import ClubData
from rules.vimy_ridge.play.game import ALLIED, GERMAN, VIMY_GAME
from rules.vimy_ridge.ruleset import VimyRidge
from tests.rules.vimy_ridge.test_vimy_play_rules import COMBAT, MOVEMENT, attacked, counter, refusals, table


def _retreated(**values: object) -> EditUnit:
    return EditUnit(unit_id=2, version=1, values=values)


@pytest.mark.parametrize("reading", ["one-hex", "players-count"])
def test_a_retreat_into_the_hex_the_counter_stands_in_is_refused(reading: str) -> None:
    snap = attacked(table(counter(1, ALLIED, "0910"), counter(2, GERMAN, "1010"), step=COMBAT))  # D2
    snap = replace(snap, variants={"combat-move": reading})
    for values in (
        {"hex": "1010", "applied_result": "retreated"},  # the card's Retreat sent with its own hex
        {"hex": "1010"},  # a combat-phase move, read as the retreat it applies: it logged no change at all
        {"applied_result": "retreated"},  # a retreat naming no hex: the counter stays
    ):
        said = refusals(snap, _retreated(**values))
        assert said and "leaves" in said[0] and "1010" in said[0] and len(said[0]) <= 120, (values, said)
        (refusal,) = VIMY_GAME.forbidden(snap, _retreated(**values))
        assert refusal.source == VimyRidge().context(None, snap.variants).citation("combat-move")
    assert refusals(snap, _retreated(hex="1110", applied_result="retreated")) == []  # a retreat a hex away
    assert refusals(snap, _retreated(applied_result="depleted")) == []  # the D2 taken as a step lost instead


# The club's map, as its copy numbers its hexes (a test's).
MAP: dict[str, Any] = {"last_column": 22, "last_row": 34}


def test_a_hex_off_the_club_s_map_is_refused_naming_the_field() -> None:
    assert set(MAP) <= set(ClubData.model_fields)
    setting_up = table(counter(1, ALLIED, "0910"), turn=0, step=0, **MAP)
    moving = table(counter(1, ALLIED, "0910", movement_allowance=99), step=MOVEMENT, **MAP)
    moving = replace(moving, variants={"movement": "players-count"})  # no allowance to stop a far move first
    placed = AddUnit(side=GERMAN, fields={"state": {"hex": "9999", "division": "79th Reserve"}})
    for snap, act in (
        (setting_up, placed),
        (setting_up, EditUnit(unit_id=1, version=1, values={"hex": "9999"})),
        (moving, EditUnit(unit_id=1, version=1, values={"hex": "2335"})),
        (moving, EditUnit(unit_id=1, version=1, values={"hex": "0935"})),
        (moving, EditUnit(unit_id=1, version=1, values={"hex": "2310"})),
    ):
        with pytest.raises(RulesError) as e:
            VIMY_GAME.forbidden(snap, act)
        assert e.value.field == "hex", act
        assert "not on the map" in e.value.reason and len(e.value.reason) <= 120, e.value.reason
    # The map's own hexes, its corners included, are taken.
    assert refusals(moving, EditUnit(unit_id=1, version=1, values={"hex": "2234"})) == []
    assert refusals(moving, EditUnit(unit_id=1, version=1, values={"hex": "0101"})) == []
    # Where the club has not entered its map's extent, the four digits are all the book gives to check.
    unbounded = replace(moving, board={})
    assert refusals(unbounded, EditUnit(unit_id=1, version=1, values={"hex": "9999"})) == []
