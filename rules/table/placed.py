"""A game's units as stands on the table: any unit that is placed (a game's row or a rule set's snapshot) is a
stand of its base, unless it is killed, off the table or has no base of the rule set's (`bases`, its table
kit's). The index of a set of stands is kept while none moves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Protocol

from rules.table.bases import BaseSpec, Stand
from rules.table.coverage import StandIndex


class Placed(Protocol):
    """A unit that may stand on the table."""

    @property
    def id(self) -> int | None: ...
    @property
    def side(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def base(self) -> str | None: ...
    @property
    def x(self) -> float | None: ...
    @property
    def y(self) -> float | None: ...
    @property
    def facing_deg(self) -> float | None: ...
    @property
    def killed(self) -> bool: ...
    @property
    def off_table(self) -> bool: ...


def stand_of(u: Placed, bases: Mapping[str, BaseSpec]) -> Stand | None:
    """The unit as a stand on the table, or None when it is not a placed, living stand with a known base."""
    placed = _placement(u, bases)
    return None if placed is None else Stand(*placed)


Placement = tuple[str, str, BaseSpec, tuple[float, float], float]


def _placement(u: Placed, bases: Mapping[str, BaseSpec]) -> Placement | None:
    """A stand's fields as a plain tuple: cheap to build and to hash, so the kept index is found fast."""
    spec = bases.get(u.base or "")
    if u.killed or u.off_table or u.x is None or u.y is None or spec is None:
        return None
    return (str(u.id), u.side, spec, (u.x, u.y), u.facing_deg if u.facing_deg is not None else 90.0)


def index_of(units: Iterable[Placed], bases: Mapping[str, BaseSpec]) -> StandIndex:
    """The stand index of these units. Kept per set of stands (read-only once built): while no stand moves,
    a game's requests pay only for their queries, not for building the polygons and the tree again."""
    return _stand_index(tuple(p for p in (_placement(u, bases) for u in units) if p is not None))


@lru_cache(maxsize=32)
def _stand_index(placements: tuple[Placement, ...]) -> StandIndex:
    return StandIndex.build([Stand(*p) for p in placements])
