"""A game's units as one viewer reads them (GET /games/{id}/units), answered from the worker's kept units
(app.services.kept_units, issue 88: the list validated a model and worked out names for every unit of a
1,400-stand game on each read). Each unit's answer is encoded once for what it depends on: its row's version,
the game's version (its board shows a side's secret, its end shows every one), the audience reading it (which
secrets it holds) and the unit's names (its place in the force tree, worked out once per tree); the list is
the join of the answers, so a read after an act on one stand encodes that stand alone."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row
from sqlmodel import Session

from app.data.models import Game, Unit
from app.data.schemas_units import UnitOut, unit_of
from app.services.kept_units import KEPT_GAMES, KEPT_UNITS, KeptUnits, Key, game_key, kept_units
from app.services.seating import Viewer
from app.services.units import Reader, reader
from rules.registry import NO_RULES

__all__ = ["listed", "unit_out"]


# (the game, the audience's sides) -> the units' answers, each with what it was encoded for, and the whole list
@dataclass
class _Encoded:
    units: dict[int, tuple[Row[Any], tuple[str, str, str], tuple[int, str], bytes]] = field(
        default_factory=dict
    )
    listed: tuple[KeptUnits, tuple[int, str], bytes] | None = None


_ENCODED: OrderedDict[tuple[Key, frozenset[str]], _Encoded] = OrderedDict()
_LOCK = threading.Lock()


def unit_out(u: Unit | Row[Any], read: Reader) -> UnitOut:
    """A unit as this viewer may read it (units.Reader: the other side's secrets hidden)."""
    return unit_of(read(u))


def listed(session: Session, game: Game, viewer: Viewer) -> bytes:
    """Every unit of the game as `viewer` reads it, named, as the JSON array GET /units answers."""
    # A rule set not played as a game reads as the hook's defaults (no state fields).
    read = reader(game, viewer)
    kept = kept_units(session, game, (read.rules or NO_RULES).book.state_fields)
    names = kept.listed_names
    at = (game.version, game.status)  # the board shows a side's secret, the end every one
    with _LOCK:
        seat = (game_key(session, game), read.sides)
        encoded = _ENCODED.setdefault(seat, _Encoded())
        _ENCODED.move_to_end(seat)
        # Each game read by its referee and its two sides, as many units each as the kept units' budget.
        while len(_ENCODED) > 1 and (
            len(_ENCODED) > 3 * KEPT_GAMES or sum(len(e.units) for e in _ENCODED.values()) > 3 * KEPT_UNITS
        ):
            _ENCODED.popitem(last=False)
    done = encoded.listed
    if done is not None and done[0] is kept and done[1] == at:
        return done[2]
    parts: list[bytes] = []
    for uid, row in kept.rows.items():
        named, was = names[uid], encoded.units.get(uid)
        # The same row read (a kept row is the one read at its version) under the same names and game.
        if was is None or was[0] is not row or was[1] is not named or was[2] != at:
            full, short, plain = named
            update = {"full_name": full, "short_name": short, "plain_name": plain}
            was = (row, named, at, unit_out(row, read).model_copy(update=update).model_dump_json().encode())
            encoded.units[uid] = was
        parts.append(was[3])
    body = b"[" + b",".join(parts) + b"]"
    encoded.listed = (kept, at, body)
    return body
