"""A JSON column read into its model once, where the row is loaded (issue 90): `ModelJSON(Model)` keeps the
model's JSON and answers the model (a pydantic model, or a dataclass of the rules: pydantic's TypeAdapter reads
either), so no service decodes the column again. None is the empty object the column held before it was typed
(its rows keep it: no migration)."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import JsonValue, TypeAdapter
from sqlalchemy import JSON
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

M = TypeVar("M")


class ModelJSON(TypeDecorator[M]):
    """A JSON column holding one `model`, or None (the empty object)."""

    impl = JSON
    cache_ok = True

    def __init__(self, model: type[M]) -> None:
        super().__init__()
        self.model = model
        self.adapter = TypeAdapter(model)

    def process_bind_param(self, value: M | None, dialect: Dialect) -> dict[str, JsonValue]:
        return {} if value is None else self.adapter.dump_python(value, mode="json")

    def process_result_value(self, value: Any | None, dialect: Dialect) -> M | None:
        return self.adapter.validate_python(value) if value else None
