"""Whole numbers as a person types them or a client sends them, in text (a form's field, a cookie, a code).

`str.isdigit` is no test that `int()` reads a text: "²" and "٣" are digits to it and "²" no number to `int()`
(a 500), and `int()` refuses more than 4,300 digits outright. Every whole number read from text goes through
`whole_number`: plain ASCII digits, fewer than its bound's, under the bound."""

from __future__ import annotations


def whole_number(text: str, below: int) -> int | None:
    """`text` as a whole number from 0 to `below` - 1, else None."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(below))):
        return None
    number = int(text)
    return number if number < below else None
