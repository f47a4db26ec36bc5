"""Domain errors. The service maps them to HTTP in one place (app/errors.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SENTENCE_MAX = 120  # issue 26: a refusal is one sentence of at most this many characters, read at a glance


class RulesError(ValueError):
    """Input the rules cannot accept (HTTP 422).

    `field` is a dotted path into the request ("attacker.kind", "dice.0"); `allowed` lists the values
    that would have been accepted, so the message can name them. `reason` is the message as raised, without
    that list: one short clause the API answers as its one-sentence refusal (app/errors.py), so it is
    written to say what to do; `why`, where given, is the rule in full, and `source` the printed rule.
    `ids`: the allowed values are ids (of units, bases), kept beside the sentence and never named in it.
    """

    def __init__(
        self,
        field: str,
        message: str,
        allowed: Iterable[Any] | None = None,
        source: str | None = None,
        why: str | None = None,
        ids: bool = False,
    ) -> None:
        self.field = field
        self.reason = message
        self.ids = ids
        self.source = source
        self.why = why
        self.allowed = list(allowed) if allowed is not None else None
        message = why or message
        if self.allowed:
            message = f"{message} (allowed: {', '.join(str(a) for a in self.allowed)})"
        self.message = message
        super().__init__(f"{field}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its parts where it crosses a process (a PDF rendered in the server's worker): an
        # exception is pickled with its message alone, which this __init__ cannot take.
        return type(self), (self.field, self.reason, self.allowed, self.source, self.why, self.ids)


class NotFoundError(LookupError):
    """Something named in the URL does not exist (HTTP 404)."""

    def __init__(self, what: str, name: str, allowed: Iterable[str] | None = None) -> None:
        self.what = what
        self.name = name
        self.allowed = sorted(allowed) if allowed is not None else None
        message = f"unknown {what} {name!r}"
        if self.allowed is not None:
            message += f" (allowed: {', '.join(self.allowed)})"
        self.message = message
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.what, self.name, self.allowed)  # as RulesError's, across a process


class Refusal(str):
    """A refusal of the rules of play: the string is its one sentence (at most 120 characters, saying what
    to do); `why` is the rule in full and `source` the printed line it comes from. `remedy`, where the sentence
    names an act that would lift it ("unpack it first"), names that act as a stand's card knows it: a state
    field's edit by the field ("packed"), a roll by its resolver ("order-roll"), else the act's action
    ("recover-markers"); the card offers it first."""

    why: str
    source: str | None
    remedy: str

    def __new__(cls, sentence: str, why: str, source: str | None = None, remedy: str = "") -> Refusal:
        made = super().__new__(cls, sentence)
        made.why = why
        made.source = source
        made.remedy = remedy
        return made
