"""The resolver framework: dice validation, server rolls, exact odds, errata variants."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Literal

import pytest

from rules.core import (
    Context,
    Erratum,
    Evaluation,
    Modifier,
    Period,
    Reading,
    Resolver,
    ResolveRequest,
    RuleSet,
)
from rules.core.errors import RulesError


class Toy(RuleSet):  # not registered: lives only in this test
    id = "toy"
    name = "Toy"
    periods = (Period("a", "A"), Period("b", "B"))


Toy.add_errata(
    Erratum(
        "target",
        "success target",
        (Reading("book", "4+", "book p1", 4), Reading("sheet", "5+", "sheet p2", 5)),
        default="sheet",
    )
)


class ToyRequest(ResolveRequest):
    period: Literal["a", "b"]
    bonus: int = 0


@Toy.resolver
class TwoDice(Resolver[ToyRequest]):
    id = "two-dice"
    Request = ToyRequest

    def dice(self, req: ToyRequest, ctx: Context) -> tuple[int, ...]:
        return (6, 6)

    def evaluate(self, req: ToyRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mods = (Modifier("bonus", req.bonus, "toy"),) if req.bonus else ()
        total = max(dice) + req.bonus
        ok = total >= ctx.value("target")
        return Evaluation("pass" if ok else "fail", ok, mods, total, (ctx.citation("target"),))


def test_player_dice_are_used_and_odds_are_exact() -> None:
    res = Toy().resolve("two-dice", ToyRequest(period="a", dice=[3, 5]))
    assert res.dice == (3, 5) and not res.rolled_by_server
    assert res.evaluation.key == "pass"
    # max of 2D6 >= 5 fails only when both dice are 1-4: 16/36.
    assert res.probabilities == {"pass": Fraction(20, 36), "fail": Fraction(16, 36)}


def test_variant_changes_the_reading_and_is_marked() -> None:
    res = Toy().resolve("two-dice", ToyRequest(period="a", dice=[4, 1], variants={"target": "book"}))
    assert res.evaluation.key == "pass"
    assert res.evaluation.sources == ("book p1 [variant]",)
    assert res.probabilities["fail"] == Fraction(9, 36)


def test_server_rolls_when_no_dice_given() -> None:
    res = Toy().resolve("two-dice", ToyRequest(period="b"), source=random.Random(7))
    assert res.rolled_by_server and len(res.dice) == 2 and all(1 <= d <= 6 for d in res.dice)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"dice": [1]}, "dice"),
        ({"dice": [1, 7]}, "dice.1"),
        ({"dice": [0, 2]}, "dice.0"),
        ({"variants": {"nope": "book"}}, "variants"),
        ({"variants": {"target": "nope"}}, "variants.target"),
    ],
)
def test_bad_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as err:
        Toy().resolve("two-dice", ToyRequest(period="a", **kwargs))  # type: ignore[arg-type]
    assert err.value.field == field
    assert "allowed" in err.value.message or field == "dice"


def test_unknown_period_lists_allowed() -> None:
    with pytest.raises(RulesError) as err:
        Toy().context("z")
    assert err.value.allowed == ["a", "b"]


def test_a_whole_float_past_the_integer_limit_is_refused_where_an_integer_is_asked() -> None:
    """2147483648.0 would be read as an integer past REQUEST_INT_LIMIT (and answered 500 once the odds cache
    read it again from JSON): refused at once, naming the path; a float field keeps its floats."""
    from pydantic import BaseModel, ValidationError

    from rules.core.ruleset import REQUEST_INT_LIMIT, ResolveRequest

    class Base(BaseModel):
        base: int

    class Asked(ResolveRequest):
        count: int = 0
        bases: list[Base] = []
        cm: float = 0.0

    for given, path in (
        ({"count": 2147483648.0}, "count"),
        ({"bases": [{"base": 2147483648.0}]}, "bases.0.base"),
    ):
        with pytest.raises(ValidationError, match=f"{path}: out of range"):
            Asked.model_validate(given)
    assert Asked.model_validate({"cm": 2147483648.0}).cm == REQUEST_INT_LIMIT + 1


def test_a_card_of_a_pack_is_its_face_unless_the_resolver_says_more() -> None:
    assert TwoDice().card("QC") == {"card": "QC", "name": "QC", "kind": "card", "title": None, "text": ""}
