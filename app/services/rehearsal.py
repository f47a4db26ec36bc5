"""Rehearsing a side's fire plan on the game's current table: the enemy's stands as they stand now (their
positions are public), the side's own plan (never the other side's), and rules/flanders_fields/planning/rehearsal.py
for every number.

A rehearsal can take seconds of CPU. It runs in one worker process at a lower priority, off the server's
own process (threads would hold the GIL and stall every other request), and only so many wait for it: per
device and overall, more are refused with 429 and Retry-After, naming the limit."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from sqlmodel import Session

from app.data.models import Game, Unit
from app.errors import TooManyRequests
from app.guard.auth import Viewer
from app.services.fireplans import plan_items
from app.services.table import table_of
from app.services.unit_names import display_names
from app.services.units import list_units
from rules.core.errors import RulesError
from rules.core.game import ancestor_at
from rules.flanders_fields.planning import rehearsal as R
from rules.flanders_fields.play.game_table import stand_of, target_cover, terrain_index
from rules.flanders_fields.play.units import quality_of
from rules.table.frame import Side

RULESET = "flanders-fields"


def enemy_targets(terrain_json: dict[str, Any], units: Sequence[Unit], side: str) -> list[R.TargetStand]:
    """The other side's living stands on the table, each with its company (or itself), the cover the
    terrain under its base gives it, and its markers now."""
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    terrain = terrain_index(terrain_json)
    names = display_names(units)  # "1/1/2 Coy Plt 3": every company has a "Platoon 3"
    out: list[R.TargetStand] = []
    for u in units:
        stand = stand_of(u)
        if u.side == side or stand is None:
            continue
        company = ancestor_at(u, "company", by_id)
        cover = target_cover(u, quality_of(u, by_id), terrain)
        out.append(
            R.TargetStand(
                id=str(u.id),
                name=names.get(u.id or 0, u.name),
                group=f"company-{company.id}" if company is not None else f"stand-{u.id}",
                stand=stand,
                cover=str(cover.value) if cover is not None else "open",
                is_command=u.is_command,
                armour=u.kind == "tank",
                markers=u.suppression,
            )
        )
    return out


def rehearse_plan(
    session: Session,
    game: Game,
    viewer: Viewer,
    side: str,
    turns: int | None,
    seed: int,
    samples: int,
    firers: Mapping[str, str],
    sos: Sequence[Mapping[str, Any]],
    variants: Mapping[str, str] | None = None,
    brigades: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The side's own plan against the enemy's stands as they stand now, by the game's variants and the
    request's own over them. The caller has checked that the viewer plays this side or referees (the plan
    read here is the side's own)."""
    viewer.require_side(side, "rehearse the fire plan")
    if game.ruleset != RULESET:
        raise RulesError("game", f"fire-plan rehearsal is for {RULESET} games", [RULESET])
    plan_side: Side = "attacker" if side == "attacker" else "defender"
    with GATE.admit(viewer.token_id):
        items = [
            {"id": str(i.public_id), "kind": i.kind, "arrival_turn": i.arrival_turn, "data": i.data}
            for i in plan_items(session, game.id or 0, side)
        ]
        units = list_units(session, game.id or 0)
        # Everything else, reading the enemy's stands included, is CPU work: the worker process does it.
        work = (
            plan_side,
            items,
            table_of(game),
            dict(firers),
            list(sos),
            dict(brigades or {}),
            game.terrain,
            units,
        )
        readings = {**game.variants, **(variants or {})}
        body = _run(_rehearse, *work, game.period or "late", readings, turns, seed, samples)
    body["game"] = game.id  # its assumptions are the rules' own (rules/flanders_fields/planning/rehearsal.py)
    return body


# -- running rehearsals off the request path -----------------------------------------------------------------
PER_DEVICE = 2  # a device's page and its API call may overlap; a third waits for them
OVERALL = 4  # per server process: with one worker process, the last of them waits for the three before it
RETRY_AFTER_SECONDS = 3
NICE = 10  # the worker yields the CPU to the server's own process


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
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _lower_priority() -> None:
    os.nice(NICE)


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            # spawn: forking a server process that runs threads could copy a lock some thread holds.
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(1, mp_context=context, initializer=_lower_priority)
        return _pool


def start_worker() -> None:
    """Start the worker process now, in the background, so that the first rehearsal does not wait for it
    to import the app (seconds)."""
    _executor().submit(os.getpid)


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def _submit(fn: Callable[..., Any], *args: Any) -> Any:
    pool = _executor()
    try:
        return pool.submit(fn, *args).result()
    except BrokenProcessPool:
        _discard(pool)
        raise


def _run(fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """fn(*args) in the worker process; a refusal there is raised here."""
    try:
        answer = _submit(fn, *args)
    except BrokenProcessPool:  # the worker died (killed, out of memory): once more, with a new one
        answer = _submit(fn, *args)
    if isinstance(answer, tuple):  # RulesError does not survive pickling as it is: its parts come back
        _, field, message, allowed = answer
        error = RulesError(field, message)  # the message already names the allowed values
        error.allowed = allowed
        raise error
    assert isinstance(answer, dict)
    return answer


def _rehearse(
    plan_side: Side,
    items: list[dict[str, Any]],
    table: Any,
    firers: dict[str, str],
    sos: list[Mapping[str, Any]],
    brigades: dict[str, str],
    terrain: dict[str, Any],
    units: list[Unit],
    period: str,
    variants: Mapping[str, str],
    turns: int | None,
    seed: int,
    samples: int,
) -> dict[str, Any] | tuple[str, str, str, list[Any] | None]:
    """In the worker process: the plan rehearsed against the enemy's stands, as the answer's body, or a
    refusal's parts."""
    try:
        plan = R.plan_from_items(plan_side, items, table, firers, sos, brigades)
        targets = enemy_targets(terrain, units, plan_side)
        result = R.rehearse(plan, targets, table, period, variants, turns=turns, seed=seed, samples=samples)
    except RulesError as e:
        return ("refused", e.field, e.message, e.allowed)
    body = result.as_dict()
    body["stands"] = [
        {
            "stand": t.id,
            "name": t.name,
            "center": list(t.stand.center) if t.stand else None,
            "cover": t.cover,
            "markers_now": t.markers,
        }
        for t in targets
    ]
    return body
