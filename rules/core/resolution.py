"""What a resolver answers: frozen values, JSON-ready through as_dict()."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NotRequired, TypedDict


class ModifierDict(TypedDict):
    """A modifier as JSON (an answer's `modifiers`; a table's, where each is a number: else PrintedModifier)."""

    label: str
    value: int
    source: str


class PrintedModifier(TypedDict):
    """A modifier as a rule table prints it: its words, its value (a number, or words such as "-n"), the rule,
    and the erratum that disputes it where one does."""

    label: str
    value: int | str
    source: str
    erratum: NotRequired[str]


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int
    source: str

    def as_dict(self) -> ModifierDict:
        return {"label": self.label, "value": self.value, "source": self.source}


@dataclass(frozen=True)
class Evaluation:
    """The answer for one particular roll.

    `key` names the outcome for the probability table (several rolls share a key); `outcome` is what the
    player is told, a string or a small JSON object. `details` are extra response fields (thresholds,
    notes, consequences) and must be JSON-ready.
    """

    key: str
    outcome: Any
    modifiers: tuple[Modifier, ...] = ()
    total: int | None = None
    sources: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolution:
    ruleset: str
    resolver: str
    period: str | None
    dice: tuple[int, ...]
    rolled_by_server: bool
    evaluation: Evaluation
    probabilities: Mapping[str, Fraction]
    variants: Mapping[str, str]

    def as_dict(self) -> dict[str, Any]:
        ev = self.evaluation
        sources = list(dict.fromkeys([*ev.sources, *(m.source for m in ev.modifiers)]))
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "resolver": self.resolver,
            "period": self.period,
            "dice": list(self.dice),
            "rolled_by_server": self.rolled_by_server,
            "modifiers": [m.as_dict() for m in ev.modifiers],
            "total": ev.total,
            "outcome": ev.outcome,
            "outcome_key": ev.key,
            "probabilities": {k: float(v) for k, v in sorted(self.probabilities.items())},
            "probabilities_exact": {
                k: f"{v.numerator}/{v.denominator}" for k, v in sorted(self.probabilities.items())
            },
            "sources": sources,
            "variants": dict(self.variants),
        }
        for k, v in ev.details.items():
            out.setdefault(k, v)
        return out
