"""Citations: where in which text a rule, a table row or a reading comes from.

Every rule set names the texts it quotes once (a `Texts`) and cites a section of one with its `cite`, so
every source field reads "<text>: <section>" and no rule set repeats the format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Citation:
    """A section of a text, rendered as the source fields carry it."""

    text: str
    section: str

    def __str__(self) -> str:
        return f"{self.text}: {self.section}"


@dataclass(frozen=True)
class Texts:
    """The texts a rule set quotes: its main text and, per war period, the playsheet that governs it."""

    main: str
    by_period: Mapping[str, str] = field(default_factory=dict)

    def cite(self, section: str, period: str | None = None) -> str:
        """A section of the period's playsheet when `period` is given, else of the main text."""
        return str(Citation(self.by_period[period] if period else self.main, section))

    def cite_periods(self, section: str, periods: tuple[str, ...]) -> str:
        """The same section of several periods' playsheets, in one source field."""
        return "; ".join(self.cite(section, p) for p in periods)
