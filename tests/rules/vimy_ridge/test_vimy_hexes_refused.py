"""Vimy Ridge's hexes as the last session's hostile pass tried them, on a snapshot of counters with no app: a retreat
"into" the hex the counter stands in was taken and logged an act that changed nothing (a retreat moves the
counter: the combat-move erratum, either reading). Hex numbers are a club example (a test fixture), not map
facts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.acts import EditUnit
from rules.vimy_ridge.play.game import ALLIED, GERMAN, VIMY_GAME
from rules.vimy_ridge.ruleset import VimyRidge
from tests.rules.vimy_ridge.test_vimy_play_rules import COMBAT, attacked, counter, refusals, table


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
