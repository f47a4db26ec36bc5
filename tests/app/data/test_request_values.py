"""What the table fills and a card asks for answer a request's field as what a resolver's request field holds
(`app.data.schemas.RequestValue`, issue 90): every value of every resolver's examples, in any rule set, and each
shape a field holds, is answered as written (an int an int, a float a float, in a list or a pair too, a model as its
Request reads it); a value no request field holds is refused, not rewritten."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import TypeAdapter

from app.data.schemas import FilledOut
from app.data.schemas_answers import CardRollOut
from rules.registry import all_rulesets

# Every field value of every resolver's examples as its Request reads it (a model's float field 49 is 49.0), by rule
# set, resolver and field.
EXAMPLES: dict[str, Any] = {
    f"{ruleset.id} {resolver.id} {name}": TypeAdapter(f.annotation).dump_python(
        TypeAdapter(f.annotation).validate_python(value), mode="json"
    )
    for ruleset in all_rulesets()
    for resolver in ruleset.resolvers.values()
    for example in resolver.examples
    for name, value in example.items()
    if (f := resolver.Request.model_fields.get(name)) is not None
}
# The shapes the fields hold, written as a client may write them (a pair of whole floats, a pair of ints).
SHAPES = (5, 5.0, True, "open", None, [1, 2], [10.0, 20.0], [0.0, 0.0], [1, 2.5], ["2H", "AS"], {"a": "b"})


@pytest.mark.parametrize("written", [*EXAMPLES.values(), *SHAPES], ids=[*EXAMPLES, *map(json.dumps, SHAPES)])
def test_every_value_a_request_field_holds_is_answered_as_written(written: Any) -> None:
    filled = FilledOut.model_validate({"field": "f", "value": written, "why": "", "table": written})
    again = filled.model_dump(mode="json", exclude_unset=True)
    roll = {"key": "1", "resolver": "r", "request": {"f": written}, "filled": [], "dice": [], "times": 1}
    asked = CardRollOut.model_validate({**roll, "probabilities_exact": {}, "odds_words": {}})
    kept = [again["value"], again["table"], asked.model_dump(mode="json", exclude_unset=True)["request"]["f"]]
    assert {json.dumps(v, sort_keys=True) for v in kept} == {
        json.dumps(written, sort_keys=True)
    }  # 1 is not 1.0


def test_a_value_no_request_field_holds_is_refused_not_rewritten() -> None:
    for value in ({"a": [1]}, [[1, 2]], [{"q": 1}], {"a": {"b": 1}}):
        with pytest.raises(ValueError):
            FilledOut.model_validate({"field": "f", "value": value, "why": ""})
