"""The SQL a test watches an engine run: each statement as the driver got it, with its parameters, so that a test
can count the statements, or ask the database again for their rows or their plans."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


@contextmanager
def asked(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The statements run on `engine` meanwhile, each with its parameters, in order."""
    ran: list[tuple[str, Any]] = []

    def heard(conn: object, cursor: object, statement: str, params: Any, *_: object) -> None:
        ran.append((statement, params))

    event.listen(engine, "before_cursor_execute", heard)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", heard)
