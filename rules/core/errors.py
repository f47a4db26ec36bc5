"""Domain errors. The service maps them to HTTP in one place (app/errors.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class RulesError(ValueError):
    """Input the rules cannot accept (HTTP 422).

    `field` is a dotted path into the request ("attacker.kind", "dice.0"); `allowed` lists the values
    that would have been accepted, so the message can name them.
    """

    def __init__(self, field: str, message: str, allowed: Iterable[Any] | None = None) -> None:
        self.field = field
        self.allowed = list(allowed) if allowed is not None else None
        if self.allowed is not None:
            message = f"{message} (allowed: {', '.join(str(a) for a in self.allowed)})"
        self.message = message
        super().__init__(f"{field}: {message}")


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
