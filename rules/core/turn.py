"""A rule set's turn as a game follows it: its numbered steps, what each lets the players do at the table, and
what happens on the table by itself (a barrage advancing as a turn starts), logged as its own event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Permit:
    """One thing a step allows (`action`, to the stands of `units`, the rule set's classes of stands), with
    the printed words that allow it."""

    action: str
    units: tuple[str, ...]
    quote: str
    source: str


@dataclass(frozen=True)
class Step:
    """One numbered step of a turn: its heading as printed, its title, the rule, what it needs done
    (`does`), what it allows, the resolvers it usually needs, whether only the attacker has it, and the sides
    that act in it (none named: the side whose turn it is)."""

    id: str
    number: int
    printed: str
    title: str
    source: str
    does: str
    permits: tuple[Permit, ...] = ()
    resolvers: tuple[str, ...] = ()
    attacker_only: bool = False
    sides: tuple[str, ...] = ()


@dataclass(frozen=True)
class Notice:
    """Something that happened on the table by itself: its event's kind, what it shows, and the rule."""

    kind: str
    shown: Mapping[str, Any]
    source: str
