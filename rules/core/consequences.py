"""What a roll does, said in sentences from the rule set's own words for its fields (StateField.words):
"1/1 Coy Plt 1 destroyed. 1 Bn must test morale. 1/1 Coy Plt 2 and 1/1 Coy Plt 3 gain 1 suppression marker
each." The stand card says these before its Apply (the changes the rules would make) and after it (the changes
they made): the same changes, so the same sentences. The rules' own bookkeeping (a field the card does not
show) and the board's and a side's keys are not said: they are not what happened to a unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.core.records import AddToState, Change, SetState, StateField

# The fields every unit has, in the words of a change to them (as set, as cleared).
UNIT_WORDS: Mapping[str, tuple[str, str]] = {
    "killed": ("destroyed", "back in the fight"),
    "off_table": ("off the table", "back on the table"),
}


def counted(n: int, words: tuple[str, str] | tuple[()], label: str) -> str:
    """`n` things in the field's words, singular or plural ("1 suppression marker", "2 actions"); a count
    without words of its own says its label ("dug in (bounds): 2")."""
    if not words:
        return f"{label.lower()} {n}"
    return f"{'no' if n == 0 else n} {words[0] if n == 1 else words[1]}"


def listed(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _predicate(c: Change, field: StateField | None, names: Mapping[int, str], many: bool) -> str | None:
    """What the change does to its unit, in words following the unit's name; None when it is not said."""
    if isinstance(c, SetState) and c.field in UNIT_WORDS:
        return UNIT_WORDS[c.field][0 if c.value else 1]
    if field is None or not field.shown:
        return None
    if isinstance(c, AddToState):
        verb = ("gain" if c.delta > 0 else "lose") + ("" if many else "s")
        return f"{verb} {counted(abs(c.delta), field.words, field.label)}" + (" each" if many else "")
    if not isinstance(c, SetState):
        return None
    if field.kind == "count":
        return f"{'have' if many else 'has'} {counted(int(c.value), field.words, field.label)}"
    if field.words:
        return field.words[0 if c.value not in (False, None, "") else 1]
    label = field.label.lower()
    if field.kind == "flag":
        return label if c.value else f"no longer {label}"
    if c.value in (None, ""):
        return f"{'have' if many else 'has'} no {label}"
    value = names.get(c.value, str(c.value)) if field.edit == "unit" else str(c.value)
    return f"{label}: {value}"


def said(changes: Sequence[Change], fields: Sequence[StateField], names: Mapping[int, str]) -> list[str]:
    """The changes as sentences, one for each thing done, naming every unit it is done to (by `names`, the
    game's short names), in the order the rules made them."""
    by_name = {f.name: f for f in fields}
    # The same change to several units is one sentence naming them all.
    done: dict[tuple[str, str, str], tuple[SetState | AddToState, list[int]]] = {}
    for c in changes:
        if isinstance(c, SetState | AddToState):
            key = (type(c).__name__, c.field, repr(c.value if isinstance(c, SetState) else c.delta))
            whom = done.setdefault(key, (c, []))[1]
            if c.unit_id not in whom:
                whom.append(c.unit_id)
    out = []
    for first, whom in done.values():
        what = _predicate(first, by_name.get(first.field), names, len(whom) > 1)
        if what is not None:
            out.append(f"{listed([names.get(u, f'unit {u}') for u in whom])} {what}.")
    return out


def odds_words(p: Fraction | str) -> str:
    """An exact chance as the stand card, the story and the luck ledger say it: "1 in 216", "5 in 12"; a
    possible outcome is never rounded to nothing ("(0%)"), a sure one is "certain", one that cannot happen
    "never"."""
    p = Fraction(p)
    if p >= 1:
        return "certain"
    if p <= 0:
        return "never"
    return f"{p.numerator} in {p.denominator}"


def outcome_words(outcome: Any) -> str:
    """A resolution's outcome in words: its key humanised ("attacker wins"), or its counts with their plurals
    ("1 action", "2 hits, 1 injury, no kills", "1 hit waiting"; a list counted: "2 injured", "none removed");
    what is not a count, a flag or a word is left to the changes."""
    if not isinstance(outcome, Mapping):
        return str(outcome).replace("-", " ").replace("_", " ")
    parts = []
    for key, value in outcome.items():
        plural = str(key).replace("_", " ")
        head, _, rest = plural.partition(" ")  # the noun comes first: "hits waiting"
        one = " ".join([head[:-3] + "y" if head.endswith("ies") else head.removesuffix("s"), rest]).strip()
        if isinstance(value, bool):
            parts.append(plural if value else f"not {plural}")
        elif isinstance(value, int):
            parts.append(counted(value, (one, plural), plural))
        elif isinstance(value, list):
            parts.append(f"{len(value) or 'none'} {plural}")
        elif isinstance(value, str) and value:
            parts.append(f"{plural} {value.replace('-', ' ')}")
    return ", ".join(parts)
