"""A card entered by suit and rank is the die that draws it from the resolver's own pack: the random event
resolved with that die draws that very card, for a first and a second card, and a card not in the pack is
refused naming its picker."""

from __future__ import annotations

import pytest

from app.pages.lookup_cards import cards_of_dice, dice_of_cards
from rules.core.errors import RulesError
from rules.registry import get_ruleset

RS = get_ruleset("flanders-fields")


def draw(request: dict[str, object], picks: list[tuple[str | None, str | None]]) -> list[str]:
    req = RS.resolvers["random-event"].Request.model_validate({"period": "mid", **request})
    pack = RS.resolvers["random-event"]().pack(req, RS.context("mid", {}))
    dice = dice_of_cards(pack, picks)
    assert cards_of_dice(pack, dice) == picks
    answer = RS.resolve("random-event", req.model_copy(update={"dice": dice})).as_dict()
    return [c["card"] for c in answer["outcome"]["drawn"]]


def test_the_queen_of_clubs_by_suit_and_rank_is_drawn() -> None:
    assert draw({}, [("C", "Q")]) == ["QC"]
    # Two cards: the second is found in the pack once the first is out.
    assert draw({"draw": 2, "hand": ["AH"]}, [("S", "A"), ("D", "2")]) == ["AS", "2D"]
    assert draw({"deck": ["KS", "3H", "QC"]}, [("C", "Q")]) == ["QC"]


def test_a_card_not_in_the_pack_is_refused_naming_its_picker() -> None:
    with pytest.raises(RulesError) as held:
        draw({"hand": ["QD"]}, [("D", "Q")])
    assert held.value.field == "card.0" and "Queen of Diamonds" in held.value.message
    with pytest.raises(RulesError) as twice:
        draw({"draw": 2}, [("C", "Q"), ("C", "Q")])
    assert twice.value.field == "card.1" and "earlier card" in twice.value.message


def test_a_card_half_picked_draws_nothing_yet() -> None:
    pack = tuple(
        RS.resolvers["random-event"]().pack(
            RS.resolvers["random-event"].Request.model_validate({"period": "mid"}), RS.context("mid", {})
        )
    )
    assert dice_of_cards(pack, [("C", None)]) == [None]
