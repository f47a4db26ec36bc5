"""A unit's field set, as the log keeps it (app.data.changes.UnitSet), types its before and after as what a unit's
field holds (`UnitValue`, issue 90): every value a unit's column or a rule set's declared state field can hold is
one, and is kept as written (an int an int, a float a float, a record as its rule set declares it, its keys in
the record's order)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from app.data.changes import UnitSet, read_changes
from app.data.models import Unit
from app.services.units import COLUMNS
from rules.registry import all_game_rules

# Each unit column's type and each declared state field's, by where it is declared.
FIELDS: dict[str, Any] = {f"column {n}": Unit.model_fields[n].annotation for n in COLUMNS} | {
    f"{rules.book.ruleset_id} {n}": f.annotation
    for rules in all_game_rules()
    if rules.book.unit_state is not None
    for n, f in rules.book.unit_state.model_fields.items()
}


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere in it (JSON has neither)."""
    text = json.dumps(value)
    return not any(word in text for word in ("NaN", "Infinity")) and not (
        isinstance(value, float) and not math.isfinite(value)
    )


@settings(max_examples=300, deadline=None)
@given(data=st.data(), where=st.sampled_from(sorted(FIELDS)))
def test_every_value_a_units_field_holds_is_logged_as_written(data: st.DataObject, where: str) -> None:
    annotation = FIELDS[where]
    written = TypeAdapter(annotation).dump_python(data.draw(st.from_type(annotation)), mode="json")
    if not _finite(written):
        return
    logged = {"unit": 1, "field": where.split()[-1], "before": written, "after": written}
    (read,) = read_changes([logged])
    assert isinstance(read, UnitSet)
    again = read.model_dump(mode="json")
    kept = [json.dumps(v, sort_keys=True) for v in (again["before"], again["after"], written)]  # 1 is not 1.0
    assert kept[0] == kept[1] == kept[2], where


def test_a_value_no_units_field_holds_is_refused_not_rewritten() -> None:
    """An object that is neither a count by name nor one of the rule sets' records, a record with a key it does not
    declare, a list of lists: each refused (pydantic took the first two as a record and dropped their keys, the
    hostile pass of this stop: `{"a": [1]}` logged as `{}`)."""
    for value in ({"a": [1]}, {"act": "move", "stands": [1], "note": "x"}, [[1, 2]]):
        with pytest.raises(ValidationError):
            read_changes([{"unit": 1, "field": "f", "before": value, "after": 1}])
