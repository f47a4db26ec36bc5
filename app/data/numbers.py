"""Whole numbers as a person types them or a client sends them, in text (a form's field, a cookie, a code).

`str.isdigit` is no test that `int()` reads a text: "²" and "٣" are digits to it and "²" no number to `int()`
(a 500), and `int()` refuses more than 4,300 digits outright. Every whole number read from text goes through
`whole_number`: plain ASCII digits, fewer than its bound's, under the bound. A form's whole number read by
pydantic (`blank_as`) is held to its digits too: its lax `int` reads "3_0" as 30, as `int()` does."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

_DIGITS = re.compile(r"-?[0-9]+")  # a sign, so that -1 is refused by its field's bound, in its words


def whole_number(text: str, below: int) -> int | None:
    """`text` as a whole number from 0 to `below` - 1, else None."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(below))):
        return None
    number = int(text)
    return number if number < below else None


def or_blank(text: object, default: object) -> object:
    """A form's number field as typed, or `default` where it was left blank: the field's placeholder shows
    `default`, never a prefilled value (a tap on a prefilled "0" and a "5" sent "05"; on a "1" and a "3", 13)."""
    return default if isinstance(text, str) and not text.strip() else text


def blank_as(default: Any) -> BeforeValidator:
    """A form's whole-number field for pydantic: blank read as `default` (None: no value, no limit on turns), not
    a refusal; typed, its plain digits only ("3_0", "٣" refused naming the field: pydantic's lax int took them)."""

    def read(value: object) -> object:
        value = or_blank(value, default)
        if isinstance(value, str) and not _DIGITS.fullmatch(value.strip()):
            # The field's own sentence, no "Value error, " before it (a page shows the message as it is).
            raise PydanticCustomError("value_error", "give a whole number in plain digits, such as 3")
        return value

    return BeforeValidator(read)
