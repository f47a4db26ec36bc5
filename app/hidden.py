"""Hidden information in the event log: every event has a public payload and, per role, a private part that
only that side (and the referee) may read.

Two rules make a secret safe by default. Writing (`split`, run by `crud.record` on every event): a change to
a side's own row (its hand of cards, its once-per-player allowances) is that side's, so it is moved out of
the public payload whoever wrote the event. Reading (`view`, run by `game_engine.event_dict` on every read
path: the log, the stream, the report, the pages): a viewer gets the public payload with the parts of the
roles it holds merged over it, and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

REFEREE = "referee"
# The order parts are merged in: the referee's (the whole record) last, so it wins.
PART_ORDER = ("attacker", "defender", REFEREE)


def _side_of(change: Any) -> str | None:
    return change.get("side") if isinstance(change, Mapping) and isinstance(change.get("side"), str) else None


def split(
    payload: Mapping[str, Any], private: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The public payload and the private parts of an event about to be logged. Side-row changes in
    `payload["changes"]` go to their side's part (with the public changes, in order) and the referee's part
    keeps the whole list; a part given in `private` keeps its own `changes` when it has them."""
    public = dict(payload)
    parts: dict[str, dict[str, Any]] = {role: dict(part) for role, part in (private or {}).items()}
    changes = payload.get("changes")
    if isinstance(changes, list) and any(_side_of(c) for c in changes):
        public["changes"] = [c for c in changes if _side_of(c) is None]
        for side in sorted({s for c in changes if (s := _side_of(c))}):
            own = [c for c in changes if _side_of(c) in (None, side)]
            parts.setdefault(side, {}).setdefault("changes", own)
        parts.setdefault(REFEREE, {}).setdefault("changes", list(changes))
    return public, parts


def view(
    payload: Mapping[str, Any], private: Mapping[str, Any] | None, roles: Iterable[str]
) -> dict[str, Any]:
    """What a viewer holding `roles` reads of an event: the public payload, with its own parts over it."""
    mine = set(roles)
    out = dict(payload)
    for role in PART_ORDER:
        part = (private or {}).get(role)
        if role in mine and isinstance(part, Mapping):
            out.update(part)
    return out
