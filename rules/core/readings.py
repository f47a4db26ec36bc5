"""Which errata decide an answer: for a resolver's request (and, for a roll, its dice), the errata whose reading
the answer depended on, each with the reading used and the readings that would have answered otherwise.

Nothing is declared twice: the rule set's resolvers read an erratum through their `Context`
(`Context.reading`, `value`, `citation`), so a context that notes what is read names the errata a request
touches, and working the request out again under each other reading says whether that reading decides it. An
erratum read but deciding nothing (a raw firer's penalty when the die is a natural 6 either way) is not named:
the answer does not depend on it. Pure: no I/O, the dice come in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.core.errors import RulesError
from rules.core.ruleset import (
    Context,
    Erratum,
    Reading,
    ResolveRequest,
    RuleSet,
    TracingContext,
    validate_dice,
)


def tracing(ctx: Context) -> TracingContext:
    return TracingContext(ctx.ruleset, ctx.period, ctx.variants)


def reading_label(reading: Reading) -> str:
    """A reading as a player names it: `per-target` -> "Per target"."""
    words = reading.id.replace("-", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class ReadingUsed:
    """An erratum whose reading decided an answer: the reading in force (`used`, a variant when it is not the
    erratum's default) and the other readings (`others`), each of which would have answered otherwise."""

    erratum: Erratum
    used: Reading
    others: tuple[Reading, ...]
    # The reading's source split for the period asked about (source_for): the part citing it or no period, and
    # the parts citing only the others ("" when none), which a page keeps behind a disclosure.
    here: str = ""
    elsewhere: str = ""

    @property
    def variant(self) -> bool:
        return self.used.id != self.erratum.default

    @property
    def mark(self) -> str:
        """Whether the reading is the club's default or a variant, as the line is followed: "(default)"."""
        return "(a variant)" if self.variant else "(default)"

    @property
    def line(self) -> str:
        """ "Reading: <erratum's topic>: <reading>", as the answer and the sheet print it."""
        return f"Reading: {self.erratum.topic}: {reading_label(self.used)}"


def now_played(rs: RuleSet, before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """Each erratum whose reading a game's edit changed, with the reading it now plays, as the game's record and
    its seats read it: "Raw troops shooting: main text"."""
    return [
        f"{e.topic}: {reading_label(e.reading(after.get(e.id, e.default))).lower()}"
        for e in rs.errata.values()
        if before.get(e.id, e.default) != after.get(e.id, e.default)
    ]


def source_for(rs: RuleSet, period: str | None, source: str) -> tuple[str, str]:
    """A source field ("; "-joined citations) split for `period` where it cites that period's text: the citations
    naming it or no period, and those naming only another's (a reading quoted from each period's playsheet lists
    all three). A source citing no text of the period (another period's table read into it) is kept whole."""
    names = {p.id: p.name for p in rs.periods}
    if period not in names or names[period] not in source:
        return source, ""
    here: list[str] = []
    elsewhere: list[str] = []
    for part in source.split("; "):
        other = any(n in part for pid, n in names.items() if pid != period)
        (elsewhere if other and names[period] not in part else here).append(part)
    return ("; ".join(here), "; ".join(elsewhere)) if here else (source, "")


def _used(ctx: Context, erratum: Erratum, used: Reading, others: tuple[Reading, ...]) -> ReadingUsed:
    return ReadingUsed(erratum, used, others, *source_for(ctx.ruleset, ctx.period, used.source))


def in_force(ctx: Context, erratum_ids: Iterable[str]) -> tuple[ReadingUsed, ...]:
    """The reading in force (the context's variant, else the default) of each erratum named that applies in the
    context's period, in the rule set's order, each with its other readings: what a printed sheet uses."""
    named = set(erratum_ids)
    return tuple(
        _used(ctx, e, e.reading(ctx.reading(e.id)), tuple(r for r in e.readings if r.id != ctx.reading(e.id)))
        for e in ctx.ruleset.errata.values()
        if e.id in named and (not e.periods or ctx.period in e.periods)
    )


# How an answer is compared across readings: a roll's outcome, or (no dice yet) its odds, or the refusal.
Answer = tuple[str, Any, Any]


def _answer(
    rs: RuleSet, resolver_id: str, req: ResolveRequest, ctx: Context, dice: tuple[int, ...] | None
) -> Answer:
    resolver = rs.resolvers[resolver_id]()
    try:
        resolver.check(req, ctx)
        sides = resolver.dice(req, ctx)
        if dice is None:
            odds: Mapping[str, Fraction] = resolver.probabilities(req, ctx)
            return ("odds", tuple(sides), sorted(odds.items()))
        evaluation = resolver.evaluate(req, ctx, validate_dice(dice, sides))
        # The other stands a shot attacks each have a die and an outcome of their own (`also`, as every
        # rule set's answer lists them): a reading deciding one of them decides the answer too.
        also = [a.get("outcome") for a in evaluation.details.get("also") or () if isinstance(a, Mapping)]
        return ("roll", (evaluation.key, also), evaluation.outcome)
    except RulesError as e:  # one reading refuses what the other allows: the reading decides that too
        return ("refused", e.field, e.message)


def readings_deciding(
    rs: RuleSet, resolver_id: str, req: ResolveRequest, dice: tuple[int, ...] | None = None
) -> tuple[ReadingUsed, ...]:
    """The errata whose reading decides this request's answer (with `dice`: that roll's outcome; without: its
    odds, or its refusal), in the rule set's order. The request's own `variants` are the readings used; a
    request the rules refuse under every reading alike names none. Raises RulesError for an unknown period or
    variant, as resolving it would."""
    base = rs.context(req.period, req.variants)
    traced = tracing(base)
    answer = _answer(rs, resolver_id, req, traced, dice)
    used: list[ReadingUsed] = []
    for eid, erratum in rs.errata.items():
        if eid not in traced.touched:
            continue
        current = erratum.reading(base.reading(eid))
        others = tuple(
            r
            for r in erratum.readings
            if r.id != current.id
            and _answer(rs, resolver_id, req, rs.context(base.period, {**base.variants, eid: r.id}), dice)
            != answer
        )
        if others:
            used.append(_used(base, erratum, current, others))
    return tuple(used)
