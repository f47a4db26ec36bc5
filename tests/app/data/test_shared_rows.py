"""What many rows share is made once (issue 63: a round of 64 of the largest tables, committed in one request):
a JSON object many rows are written with is encoded once, and a table's row is built without parsing any
builtin's signature."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, SQLModel

from app.core.db import SharedJson, json_text, json_value
from app.data.models import Game
from app.services.writing import unit_of_work


@pytest.mark.storage
def test_a_shared_json_object_is_written_as_its_text_encoded_once(session: Session) -> None:
    terrain = {"type": "FeatureCollection", "features": [{"id": "w1", "properties": {"kind": "woods"}}]}
    shared = SharedJson(terrain)
    assert json_text(shared) is shared.text and json.loads(shared.text) == terrain
    with unit_of_work(session):
        games = [Game(name=f"Table {i}", ruleset="flanders-fields", terrain=shared) for i in range(3)]
        session.add_all(games)
    ids = [g.pk for g in games]
    session.expire_all()
    assert [session.get(Game, pk).terrain for pk in ids] == [terrain] * 3  # type: ignore[union-attr]


def test_the_engines_json_decoder_reads_what_json_loads_reads_and_refuses_what_it_refuses() -> None:
    # Its short way (the scanner at once) for a text as json_text wrote it; json.loads's for any other.
    for value in ({}, {"a": [1, 2.5, None, True], "b": {"c": "d\u00e9"}}, [1, "x"], "x", 12, 1e-3):
        assert json_value(json_text(value)) == value
    for text in (' {"a": 1} ', "[1, 2]\n", b'{"a":1}', b' {"a": 1} ', '{"a":1}'.encode("utf-16"), "NaN"):
        assert repr(json_value(text)) == repr(json.loads(text))
    for bad in ('{"a":1}x', "", "  ", "{", "[1,]"):
        with pytest.raises(json.JSONDecodeError) as refused:
            json_value(bad)
        with pytest.raises(json.JSONDecodeError) as also:
            json.loads(bad)
        assert str(refused.value) == str(also.value)


def test_a_shared_json_object_is_read_only_so_its_text_stays_its_value() -> None:
    shared = SharedJson({"features": []})
    for write in (
        lambda: shared.__setitem__("features", [1]),
        lambda: shared.update(features=[1]),
        lambda: shared.pop("features"),
        lambda: shared.clear(),
        lambda: shared.setdefault("x", 1),
    ):
        with pytest.raises(TypeError, match="read-only"):
            write()
    assert shared == {"features": []} and json.loads(shared.text) == shared


def test_no_table_builds_a_default_with_a_builtin_whose_signature_pydantic_parses() -> None:
    # SQLModel asks pydantic, for each field of each row built, whether its default factory takes the validated
    # data: for `list` pydantic parses its signature's text (0.5 ms a field; a round's 400 sides were 1.3 ms a
    # row). A function of the module answers in microseconds.
    builtins = [
        f"{table.__name__}.{name}"
        for table in SQLModel.__subclasses__()
        + [t for s in SQLModel.__subclasses__() for t in s.__subclasses__()]
        if getattr(table, "__table__", None) is not None
        for name, field in table.model_fields.items()
        if isinstance(field.default_factory, type)
    ]
    assert builtins == []
