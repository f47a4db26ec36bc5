"""Answer parts that keep the keys their record wrote."""

from __future__ import annotations

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer


class AsWritten(BaseModel):
    """A part of an answer whose keys are those its record wrote: a key the record left out stays out, as
    though dumped with `exclude_unset` whatever the route, so the JSON is the record's as it always was."""

    # Unannotated on purpose: an annotated return would become the answer's schema instead of the model's.
    @model_serializer(mode="wrap")
    def _as_written(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        out: dict[str, object] = handler(self)
        fields, given = type(self).model_fields, self.model_fields_set
        return {k: v for k, v in out.items() if k in given or k not in fields}
