"""A row this unit of work read by a table's own statement, made the object the session holds, as a query's
loading makes it, with no statement of its own (issue 88: an ORM statement looks for its rows among the session's
objects and loads them attribute by attribute, as costly as the statement itself at each act)."""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Row
from sqlalchemy.orm import class_mapper, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_dict, set_committed_value
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session, SQLModel

T = TypeVar("T", bound=SQLModel)


def held(session: Session, model: type[T], row: Row[Any]) -> T:
    """The `model` row `row` read (its table's columns, by name: one it does not answer is left unread until
    asked, its first reading a statement of its own) as the session holds a row it read: the object the session
    holds already, its values set as committed over what it held; else a new instance, its values put in its
    dict and committed at once (set one by one, they were most of the cost of an act's own stand), added to the
    session. Its JSON values copies: a row kept by the worker (app.services.kept_units) is never written
    through an object made of it."""
    read = row._mapping
    values = {
        key: dict(got) if isinstance(got := read[key], dict) else got
        for key in _columns(model)
        if key in read
    }
    obj = session.identity_map.get(identity_key(model, values["id"]))
    if obj is not None:
        for key, got in values.items():
            set_committed_value(obj, key, got)
        return obj
    made: T = _manager(model).new_instance()
    instance_dict(made).update(values)
    make_transient_to_detached(made)
    session.add(made)
    return made


@cache
def _columns(model: Any) -> tuple[str, ...]:
    """The model's columns by name, looked up once."""
    return tuple(c.key for c in class_mapper(model).columns)


@cache
def _manager(model: Any) -> Any:
    """The model's class manager (what makes a new instance as a query's loading does), looked up once."""
    return class_mapper(model).class_manager
