"""A refusal's words as a sentence: one line, a capital, a full stop; the one test of "one sentence" (issue 26:
a refusal is one sentence a player reads at a glance), its JSON Schema pattern, a value echoed cut short, and a
request field named in words ("body.target_id" is "the target")."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, get_args

from pydantic_core import ErrorDetails

from rules.core.errors import SENTENCE_MAX

MAX_DETAIL = SENTENCE_MAX  # issue 26: a refusal is one sentence a player reads at a glance
# A sentence ends inside the text where . ? or ! is followed by a space: "1.5 cm" and "(13.1)" do not end one,
# nor does an ordinal's full stop after a number or a Roman numeral standing alone ("1. Kompanie", "I. Bataillon":
# the names a refusal carries as the scenario writes them). A JSON Schema pattern for ErrorOut.detail too (no
# look-around, for every regex engine), and the one test of a sentence (`is_one_sentence`).
_ORDINAL = r"(?:[0-9]+|[IVXLC]+)\.\s"
ONE_SENTENCE = rf"^(?:{_ORDINAL})?(?:[^.?!\s]|[\s(]{_ORDINAL}|\s|[.?!]+[^.?!\s])*[.?!]+$"
_ONE_SENTENCE = re.compile(ONE_SENTENCE)


def sentence(text: str) -> str:
    """`text` written as a sentence: one line, a capital first letter, a full stop at the end."""
    text = " ".join(str(text).split()).rstrip(" :;,")
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".?" else f"{text}."


def is_one_sentence(text: str) -> bool:
    """At most MAX_DETAIL characters, ending with "." or "?", with no sentence ending inside."""
    return 0 < len(text) <= MAX_DETAIL and text[-1] in ".?" and _ONE_SENTENCE.fullmatch(text) is not None


def one_sentence(text: str, fallback: str) -> str:
    """`text` as one sentence if it is one, else `fallback` (a fixed sentence saying what to do)."""
    said = sentence(text)
    return said if is_one_sentence(said) else fallback


def short(value: object, width: int = 24) -> str:
    """A value echoed from the request, cut to `width` characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def choices(allowed: Sequence[Any]) -> str:
    """Allowed values in words: "a, b or c"."""
    words = [str(a) for a in allowed]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


# pydantic's names for a type a union tried ("constrained-str", "int", "list[int]", "function-after[...]"): parts
# of an error's location that name no field the client sent (session 20's hostile pass read "Terrain constrained str").
_TYPE_TAG = re.compile(r"str|int|float|bool|bytes|none|constrained-[a-z]+|[a-z-]+\[.*\]")


def field_names(loc: Sequence[str | int]) -> list[str]:
    """The fields an error's location goes through: a list's index and a union's type tag left out."""
    return [p for p in loc if isinstance(p, str) and not _TYPE_TAG.fullmatch(p)]


def error_words(error: ErrorDetails) -> str:
    """pydantic's message for one error, in the client's words where pydantic's are its own: a union's tag that
    matches none ("Input tag 'Point' found using 'type' does not match any of the expected tags: ...")."""
    ctx = error.get("ctx") or {}
    if error.get("type") == "union_tag_invalid":
        expected = re.findall(r"'([^']*)'", str(ctx.get("expected_tags", "")))
        said = (
            f"its {str(ctx.get('discriminator', 'type')).strip(chr(39))} {ctx.get('tag')} is not taken here"
        )
        return f"{said}: give {choices(expected)}" if expected else said
    said = str(error.get("msg", "")).removeprefix("Value error, ")
    if said.startswith("Expected UploadFile"):  # a form's text where it takes a file (Starlette's words)
        return "choose a file to send, not a text"
    return said


# -- a request field in words --------------------------------------------------------------------------------
def field_of(loc: list[str | int] | tuple[str | int, ...]) -> str:
    """The request field a location names: ["body", "attacker", "kind"] is "attacker.kind"."""
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:] or parts
    return ".".join(str(p) for p in parts)


# Suffixes a field's name carries for the machine, not the player: "target_id" is "the target".
LABEL_SUFFIXES = {"_ids": "s", "_id": "", "_cm": "", "_deg": "", "_at": ""}


# A field named by a bare "id" is the thing's own name as the client gave it (a scenario's "mons-1914").
LABEL_WORDS = {"id": "the short name"}


def humanized(name: str) -> str:
    """A request field's name in words: "target_id" -> "the target", "range_cm" -> "the range"."""
    if name in LABEL_WORDS:
        return LABEL_WORDS[name]
    words = name
    for suffix, plural in LABEL_SUFFIXES.items():
        if words.endswith(suffix) and len(words) > len(suffix):
            words = words[: -len(suffix)] + plural
            break
    return "the " + " ".join(words.replace("_", " ").replace("-", " ").split())


def _models_in(fields: Any) -> Iterator[Any]:
    """The models the fields hold, each field's own or one of its union's."""
    for info in fields:
        yield from (a for a in (info.annotation, *get_args(info.annotation)) if hasattr(a, "model_fields"))


def label_of(loc: Sequence[str | int], model: Any = None) -> str:
    """A request field in words, as a refusal's sentence names it: the title of the model's field where it
    has one (`model`: the route's body model), else its last named part humanized ("body.target_id" -> "the
    target"); the whole body "the request's body"."""
    parts = list(loc)
    where = parts[0] if parts and parts[0] in ("body", "query", "path", "header", "cookie") else ""
    names = field_names(parts[1:] if where else parts)
    if not names:
        return "the request's body" if where == "body" else "the request"
    title = None
    for name in names:
        fields = getattr(model, "model_fields", None)
        if isinstance(fields, dict) and name not in fields:  # a form's model, its fields posted flat (Form())
            model = next((m for m in _models_in(fields.values()) if name in m.model_fields), model)
            fields = getattr(model, "model_fields", None)
        if not isinstance(fields, dict) or name not in fields:
            title = None
            continue
        info = fields[name]
        title = info.title
        model = next(
            (a for a in (info.annotation, *get_args(info.annotation)) if hasattr(a, "model_fields")), None
        )
    return title[:1].lower() + title[1:] if title else humanized(names[-1])
