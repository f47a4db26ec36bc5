"""What the table fills and a card asks for answer a request's field as what a resolver's request field holds
(`app.data.schemas.RequestValue`, issue 90): every value any rule set's resolver's request field can hold is
answered as written (an int an int, a float a float, a model as the resolver declares it); a value no request
field holds is refused, not rewritten."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from app.data.schemas import FilledOut
from rules.registry import all_rulesets

# Each request field's type, by rule set, resolver and field.
FIELDS: dict[str, Any] = {
    f"{ruleset.id} {resolver.id} {name}": f.annotation
    for ruleset in all_rulesets()
    for resolver in ruleset.resolvers.values()
    for name, f in resolver.Request.model_fields.items()
}


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere in it (JSON has neither)."""
    text = json.dumps(value)
    return not any(word in text for word in ("NaN", "Infinity")) and not (
        isinstance(value, float) and not math.isfinite(value)
    )


@settings(max_examples=300, deadline=None)
@given(data=st.data(), where=st.sampled_from(sorted(FIELDS)))
def test_every_value_a_request_field_holds_is_answered_as_written(data: st.DataObject, where: str) -> None:
    annotation = FIELDS[where]
    written = TypeAdapter(annotation).dump_python(data.draw(st.from_type(annotation)), mode="json")
    if not _finite(written):
        return
    filled = FilledOut.model_validate(
        {"field": where.split()[-1], "value": written, "why": "", "table": written}
    )
    again = filled.model_dump(mode="json")
    kept = [json.dumps(v, sort_keys=True) for v in (again["value"], again["table"], written)]  # 1 is not 1.0
    assert kept[0] == kept[1] == kept[2], where


def test_a_value_no_request_field_holds_is_refused_not_rewritten() -> None:
    for value in ({"a": [1]}, [[1, 2]], [{"q": 1}], {"a": {"b": 1}}):
        with pytest.raises(ValidationError):
            FilledOut.model_validate({"field": "f", "value": value, "why": ""})
