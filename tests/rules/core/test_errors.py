"""The rules' errors cross a process whole: a PDF is rendered in the server's worker process
(app/core/worker.py), whose exceptions come back pickled."""

from __future__ import annotations

import pickle

from rules.core.errors import NotFoundError, RulesError


def test_a_refusal_keeps_every_part_across_a_process() -> None:
    refused = RulesError(
        "units.0", "pick a stand of your side", [7, 9], "FF p. 12", "Only your own stands act.", True
    )
    back = pickle.loads(pickle.dumps(refused))
    assert type(back) is RulesError
    parts = ("field", "reason", "allowed", "source", "why", "ids", "message", "args")
    assert {p: getattr(back, p) for p in parts} == {p: getattr(refused, p) for p in parts}


def test_a_not_found_keeps_every_part_across_a_process() -> None:
    missing = NotFoundError("scenario", "the-hill", ["mons-1914", "trench-raid"])
    back = pickle.loads(pickle.dumps(missing))
    assert type(back) is NotFoundError
    parts = ("what", "name", "allowed", "message", "args")
    assert {p: getattr(back, p) for p in parts} == {p: getattr(missing, p) for p in parts}
