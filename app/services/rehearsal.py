"""Rehearsing a side's fire plan on the game's current table: the enemy's stands as they stand now (their
positions are public), the side's own plan (never the other side's), and the game's rule set for every number
(`GameRules.play` asked a `RehearsePlan`).

A rehearsal can take seconds of CPU. It runs in one worker process at a lower priority, off the server's
own process (threads would hold the GIL and stall every other request), and only so many wait for it: per
device and overall, more are refused with 429 and Retry-After, naming the limit (the worker process is
app.core.worker's)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sqlmodel import Session

from app.core import worker
from app.core.worker import start_worker as start_worker
from app.core.worker import stop_worker as stop_worker
from app.data.models import Game
from app.errors import TooManyRequests
from app.services.fireplans import plan_items
from app.services.markers import rules_of, snapshot_of
from app.services.seating import Viewer
from app.services.unit_names import display_names
from app.services.units import list_units
from rules.core.acts import RehearsePlan
from rules.core.errors import RulesError
from rules.core.game import RehearsalRequest
from rules.core.records import Snapshot
from rules.registry import get_game_rules


def rehearse_plan(
    session: Session, game: Game, viewer: Viewer, side: str, asked: RehearsalRequest
) -> dict[str, Any]:
    """The side's own plan against the enemy's stands as they stand now, by the game's variants and the
    request's own over them. The caller has checked that the viewer plays this side or referees (the plan
    read here is the side's own)."""
    viewer.require_side(side, "rehearse the fire plan")
    rules_of(game)  # a rule set not played as a game is refused before the gate
    with GATE.admit(viewer.token_id):
        items = [
            {"id": str(i.public_id), "kind": i.kind, "arrival_turn": i.arrival_turn, "data": i.data}
            for i in plan_items(session, game.pk, side)
        ]
        units = list_units(session, game.pk)
        snapshot = replace(snapshot_of(session, game, units), variants={**game.variants, **asked.variants})
        names = display_names(units)  # "1/1/2 Coy Plt 3": every company has a "Platoon 3"
        options = asked.options()  # the rule set's own fields of its request (its fire plan's `rehearsal`)
        # Everything else, reading the enemy's stands included, is CPU work: the worker process does it.
        body = _run(
            _rehearse,
            game.ruleset,
            snapshot,
            side,
            items,
            names,
            options,
            asked.turns,
            asked.seed,
            asked.samples,
        )
    body["game"] = game.id  # its assumptions are the rules' own
    return body


def request_of(game: Game, body: RehearsalRequest) -> RehearsalRequest:
    """The request, where it is the game's rule set's own (its fire plan's `rehearsal`); another rule set's
    request is refused."""
    model = rules_of(game).book.plan_terms.rehearsal
    if model is not None and not isinstance(body, model):
        raise RulesError("body", "this rule set rehearses a plan from a request of its own")
    return body


# -- running rehearsals off the request path -----------------------------------------------------------------
PER_DEVICE = 2  # a device's page and its API call may overlap; a third waits for them
OVERALL = 4  # per server process: with one worker process, the last of them waits for the three before it
RETRY_AFTER_SECONDS = 3


class Gate:
    """How many rehearsals are running or waiting, per device and overall; past a limit, 429."""

    def __init__(self, per_device: int = PER_DEVICE, overall: int = OVERALL) -> None:
        self.per_device = per_device
        self.overall = overall
        self._lock = threading.Lock()
        self._by_device: Counter[int | None] = Counter()

    @contextmanager
    def admit(self, device: int | None) -> Iterator[None]:
        with self._lock:
            if self._by_device[device] >= self.per_device:
                raise TooManyRequests(
                    f"this device already has {self.per_device} fire-plan rehearsals running, the limit per "
                    f"device: try again in {RETRY_AFTER_SECONDS} s",
                    RETRY_AFTER_SECONDS,
                )
            if self._by_device.total() >= self.overall:
                raise TooManyRequests(
                    f"the server is already running {self.overall} fire-plan rehearsals, its limit: try again "
                    f"in {RETRY_AFTER_SECONDS} s",
                    RETRY_AFTER_SECONDS,
                )
            self._by_device[device] += 1
        try:
            yield
        finally:
            with self._lock:
                self._by_device[device] -= 1
                if self._by_device[device] <= 0:
                    del self._by_device[device]


GATE = Gate()


def _run(fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """fn(*args) in the worker process; a refusal there is raised here."""
    answer = worker.submit(fn, *args)
    if isinstance(answer, tuple):  # RulesError does not survive pickling as it is: its parts come back
        _, field, reason, allowed, source, why = answer
        raise RulesError(field, reason, allowed, source, why)
    assert isinstance(answer, dict)
    return answer


def _rehearse(
    ruleset: str,
    snapshot: Snapshot,
    side: str,
    items: list[dict[str, Any]],
    names: Mapping[int, str],
    options: Mapping[str, Any],
    turns: int | None,
    seed: int,
    samples: int,
) -> dict[str, Any] | tuple[str, str, str, list[Any] | None, str | None, str | None]:
    """In the worker process: the plan rehearsed by the game's rule set, as the answer's body, or a
    refusal's parts."""
    try:
        asked = RehearsePlan(
            side=side, items=items, names=names, options=options, turns=turns, seed=seed, samples=samples
        )
        return dict(get_game_rules(ruleset).play(snapshot, asked).shown)
    except RulesError as e:
        return ("refused", e.field, e.reason, e.allowed, e.source, e.why)
