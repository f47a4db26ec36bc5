"""The server's worker process (app/core/worker.py) raises in the server what a render raised in it, and is
still there for the next render: a not-found there broke the process pool (its exception could not be
unpickled), so the request after it waited on a new worker and the one that raised it was not a 404."""

from __future__ import annotations

import pytest

from app.core import worker
from rules.core.errors import NotFoundError, RulesError


def _missing(name: str) -> None:
    raise NotFoundError("rule set", name, ["flanders-fields"])


def _refused(field: str) -> None:
    raise RulesError(field, "choose one of the papers", ["a4", "letter"], ids=True)


def _pid() -> int:
    import os

    return os.getpid()


def test_what_a_render_raises_in_the_worker_is_raised_here_and_the_worker_goes_on() -> None:
    first, _cpu = worker.timed(_pid)
    with pytest.raises(NotFoundError) as missing:
        worker.timed(_missing, "toy-test")
    assert (missing.value.what, missing.value.name, missing.value.allowed) == (
        "rule set",
        "toy-test",
        ["flanders-fields"],
    )
    with pytest.raises(RulesError) as refused:
        worker.timed(_refused, "paper")
    assert (refused.value.field, refused.value.allowed, refused.value.ids) == (
        "paper",
        ["a4", "letter"],
        True,
    )
    again, _cpu = worker.timed(_pid)
    assert again == first  # the same worker process: the pool was not broken
