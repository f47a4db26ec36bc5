"""An assault spends an action of the unit ordered (issue 53, finding 6): "Troops require an order to move into
contact with an enemy, movement is carried out platoon by platoon" (CLOSE COMBAT (ASSAULTING)) and an order's
actions are "REMOVE A SUPPRESSION LEVEL, FIRE or MOVE": the assault is its stand's move into contact, a MOVE
action (erratum assault-action, the book's wording by default), through the path the card, /ask and /resolve
take (GameRules.forbidden, then the roll worked out with its consequences)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core.acts import MoveStand, Roll
from rules.core.records import Snapshot, StandAct
from rules.core.rolls import work_out
from rules.flanders_fields.errata import ASSAULT_ACTION
from rules.flanders_fields.errata.assault import SRC_CLOSE_COMBAT
from rules.flanders_fields.play.changes import ActionSpent
from rules.registry import get_ruleset
from tests.rules.flanders_fields.play.test_game_rules import GAME, battalion, snapshot

# A Coy's platoons 4 and 5 against the defender's platoon 20.
WINS = [6, 1]  # the attacker's die, the defender's: "the winner destroys/captures enemy"


def _assault(snap: Snapshot, stand: int, apply: bool = True) -> Roll:
    return Roll(resolver="assault", dice=WINS, unit_id=stand, target_id=20, apply=apply)


def _assaulted(snap: Snapshot, stand: int) -> tuple[Snapshot, tuple[Any, ...]]:
    """The assault as /resolve plays it: refused by the turn, else worked out and its changes made."""
    roll = _assault(snap, stand)
    assert GAME.forbidden(snap, roll) == ()
    w = work_out(GAME, GAME.book.roll_terms, get_ruleset("flanders-fields"), snap, roll)
    changes = (*w.spent, *w.changes)
    return snap.after(changes), changes


def _spent(changes: tuple[Any, ...]) -> list[int]:
    return [c.unit_id for c in changes if isinstance(c, ActionSpent)]


def test_a_company_with_two_actions_assaults_and_has_one_left() -> None:
    snap = snapshot(battalion(u3={"actions_left": 2, "ordered_turn": 1}), turn=1)
    after, changes = _assaulted(snap, 4)
    assert _spent(changes) == [3] and after.unit(3).actions_left == 1
    assert changes[0].source.startswith(SRC_CLOSE_COMBAT)  # spent by the close combat's line
    assert after.unit(20).killed  # the assault itself is rolled as before
    assert after.unit(3).action_under_way == {"act": "move", "stands": [4]}
    # Its other platoons closing join the move into contact: "movement is carried out platoon by platoon".
    again, changes = _assaulted(after, 5)
    assert _spent(changes) == [] and again.unit(3).actions_left == 1


def test_an_assault_joins_the_move_that_brought_its_stand_into_contact() -> None:
    """ "may continue to move up to 5 cm and may assault any foes within that distance": one action."""
    snap = snapshot(battalion(u3={"actions_left": 2, "ordered_turn": 1}), turn=1)
    moved = GAME.play(snap, MoveStand(unit_id=4, x=10, y=95, facing_deg=90))
    snap = snap.after(moved.changes)
    assert snap.unit(3).actions_left == 1
    after, changes = _assaulted(snap, 4)
    assert _spent(changes) == [] and after.unit(3).actions_left == 1


def test_an_assault_without_an_action_is_refused_with_the_printed_line() -> None:
    used = snapshot(battalion(u3={"actions_left": 0, "ordered_turn": 1}), turn=1)
    (refusal,) = GAME.forbidden(used, _assault(used, 4))
    assert refusal == "A Coy has no action left this turn: its order is used up"
    assert refusal.why.startswith("Troops require an order to move into contact with an enemy")
    assert refusal.source.startswith(SRC_CLOSE_COMBAT)
    unordered = snapshot(battalion(), turn=1)
    (refusal,) = GAME.forbidden(unordered, _assault(unordered, 4))
    assert refusal == "A Coy has no action left: roll its order first"
    # Asked (the card's /ask) without applying: nothing is spent, nothing refused.
    assert GAME.forbidden(used, _assault(used, 4, apply=False)) == ()


def test_the_stand_card_says_what_is_left_of_the_order() -> None:
    snap = snapshot(battalion(u3={"actions_left": 2, "ordered_turn": 1}), turn=1)
    (assault,) = [a for a in GAME.stand_card(snap, 4) if isinstance(a, StandAct) and a.resolver == "assault"]
    assert assault.why == "2 actions left (A Coy)"


def test_under_the_other_reading_the_assault_spends_nothing() -> None:
    """Erratum assault-action, order-only: "Troops may enter combat after they have received a successful
    order"; the move into contact on the table spends the action, the dice nothing."""
    snap = snapshot(battalion(u3={"actions_left": 2, "ordered_turn": 1}), turn=1)
    other = replace(snap, variants={ASSAULT_ACTION: "order-only"})
    after, changes = _assaulted(other, 4)
    assert _spent(changes) == [] and after.unit(3).actions_left == 2
    used = replace(other, units=battalion(u3={"actions_left": 0, "ordered_turn": 1}))
    assert GAME.forbidden(used, _assault(used, 4)) == ()
    (assault,) = [a for a in GAME.stand_card(other, 4) if isinstance(a, StandAct) and a.resolver == "assault"]
    assert assault.why == ""


def test_the_erratum_lists_both_readings_the_books_wording_by_default() -> None:
    erratum = get_ruleset("flanders-fields").errata[ASSAULT_ACTION]
    assert erratum.default == "move-action" and erratum.section == "assault"
    (book, other) = erratum.readings
    assert "Troops require an order to move into contact with an enemy" in book.text and book.value is True
    assert "Troops may enter combat after they have received a successful order" in other.text
    assert other.value is False
