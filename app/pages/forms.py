"""The lookup form, generated from each resolver's request schema, so a resolver or rule set registered
later appears without page code: enums become tap buttons, booleans toggles, integers steppers, nested
models fieldsets. Here: the field specs, coercion of the posted form, and the request body it makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import FormData

from app.pages.templates import humanise
from rules.core.ruleset import ResolveRequest

# Fields every resolve request has; the page supplies them itself rather than from the schema walk.
COMMON_FIELDS = ("period", "dice", "variants")


# Option words a player at the table looks for, where the rules' id does not say it: the order roll of a
# battalion is the roll of its rifle companies ("Battalion Rifle Companies" on every period's playsheet).
OPTION_LABELS = {"rifle-company": "Battalion (rifle companies)"}


# -- the form, from the request schema ---------------------------------------------------------------------


@dataclass
class FieldSpec:
    """One control of the lookup form. `name` is the dotted path into the request body."""

    name: str
    label: str
    kind: str  # enum | bool | int | number | text | group
    help: str = ""
    options: list[Any] = field(default_factory=list)
    refused: set[Any] = field(default_factory=set)
    default: Any = None
    has_default: bool = False
    nullable: bool = False
    minimum: float | None = None
    maximum: float | None = None
    children: list[FieldSpec] = field(default_factory=list)
    hidden: bool = False
    from_game: str = ""  # why the game's state preset this value, when it did
    ask: str = ""  # a choice the game could not make for the picked unit: the player's, never silently

    @property
    def dom_id(self) -> str:
        return "f-" + self.name.replace(".", "-").replace("_", "-")

    @property
    def required(self) -> bool:
        """A number the rules need and give no default for (a range, a distance): the player enters or
        measures it; the form never fills one in silently."""
        return self.kind in ("int", "number") and not self.has_default and not self.nullable

    def option_label(self, option: Any) -> str:
        return OPTION_LABELS.get(str(option)) or humanise(str(option))

    def initial(self) -> Any:
        if self.has_default:
            return self.default
        if self.nullable or self.required:
            return None
        if self.kind == "enum":
            return self.options[0]
        if self.kind == "bool":
            return False
        return ""


def _deref(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _spec(name: str, prop: Mapping[str, Any], defs: Mapping[str, Any]) -> FieldSpec | None:
    """The control for one schema property, or None for shapes a tap form cannot hold (lists, maps):
    those keep their default."""
    nullable = False
    base = prop
    if "anyOf" in prop:
        branches = [b for b in prop["anyOf"] if b.get("type") != "null"]
        nullable = len(branches) < len(prop["anyOf"])
        if len(branches) != 1:
            return None
        base = branches[0]
    base = _deref(base, defs)
    leaf = name.rsplit(".", 1)[-1]
    spec = FieldSpec(
        name=name,
        label=humanise(leaf),
        kind="",
        help=str(prop.get("description") or base.get("description") or ""),
        default=prop.get("default"),
        has_default="default" in prop,
        nullable=nullable,
    )
    kind = base.get("type")
    if "enum" in base:
        spec.kind, spec.options = "enum", list(base["enum"])
    elif "const" in base:
        return None
    elif kind == "boolean":
        spec.kind = "bool"
    elif kind in ("integer", "number"):
        spec.kind = "int" if kind == "integer" else "number"
        lo, hi = base.get("minimum", prop.get("minimum")), base.get("maximum", prop.get("maximum"))
        if lo is None and "exclusiveMinimum" in base:
            lo = base["exclusiveMinimum"] + (1 if kind == "integer" else 0)
        if hi is None and "exclusiveMaximum" in base:
            hi = base["exclusiveMaximum"] - (1 if kind == "integer" else 0)
        spec.minimum, spec.maximum = lo, hi
    elif kind == "string":
        spec.kind = "text"
    elif kind == "object" and "properties" in base:
        spec.kind = "group"
        spec.children = _specs(base, defs, prefix=f"{name}.")
    else:
        return None
    return spec


def _specs(schema: Mapping[str, Any], defs: Mapping[str, Any], prefix: str = "") -> list[FieldSpec]:
    out = []
    for prop_name, prop in schema.get("properties", {}).items():
        if not prefix and prop_name in COMMON_FIELDS:
            continue
        spec = _spec(prefix + prop_name, prop, defs)
        if spec is not None:
            out.append(spec)
    return out


def form_specs(request_model: type[ResolveRequest]) -> list[FieldSpec]:
    schema = request_model.model_json_schema()
    return _specs(schema, schema.get("$defs", {}))


def walk_specs(specs: list[FieldSpec]) -> list[FieldSpec]:
    out: list[FieldSpec] = []
    for s in specs:
        out.append(s)
        out.extend(walk_specs(s.children))
    return out


PRESENT = "__present"  # the switch of an optional nested group ("give the wind")


def initial_values(specs: list[FieldSpec]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for s in walk_specs(specs):
        if s.kind == "group":
            values[s.name + PRESENT] = not s.nullable or (s.has_default and s.default is not None)
        else:
            values[s.name] = s.initial()
    return values


class FormError(Exception):
    def __init__(self, name: str, message: str) -> None:
        self.name = name
        self.message = message
        super().__init__(message)


def _coerce(spec: FieldSpec, raw: list[str]) -> Any:
    if spec.kind == "bool":
        return "true" in raw
    text = raw[-1].strip() if raw else ""
    if text == "":
        if spec.nullable or spec.required:
            return None  # a required number left blank: the lookup asks for it (resolving.missing_fields)
        if spec.kind == "enum":
            return spec.initial()
        raise FormError(spec.name, f"{spec.label}: enter a value")
    if spec.kind == "enum":
        for opt in spec.options:
            if str(opt) == text:
                return opt
        raise FormError(spec.name, f"{spec.label}: choose one of {', '.join(map(str, spec.options))}")
    if spec.kind in ("int", "number"):
        try:
            number = float(text)
        except ValueError:
            raise FormError(spec.name, f"{spec.label}: {text!r} is not a number") from None
        if spec.kind == "int":
            if number != int(number):
                raise FormError(spec.name, f"{spec.label}: a whole number is needed, not {text}")
            return int(number)
        return number
    return text


def values_from_form(specs: list[FieldSpec], form: FormData) -> tuple[dict[str, Any], list[FormError]]:
    values = initial_values(specs)
    errors: list[FormError] = []
    for s in walk_specs(specs):
        if s.kind == "group":
            if s.nullable:
                values[s.name + PRESENT] = "true" in form.getlist(s.name + PRESENT)
            continue
        raw = [str(v) for v in form.getlist(s.name)]
        if not raw and s.kind != "bool":
            continue
        try:
            values[s.name] = _coerce(s, raw)
        except FormError as e:
            errors.append(e)
    return values, errors


def request_body(specs: list[FieldSpec], values: Mapping[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for s in specs:
        if s.kind == "group":
            if values.get(s.name + PRESENT):
                body[s.name.rsplit(".", 1)[-1]] = request_body(s.children, values)
            elif s.nullable:
                body[s.name.rsplit(".", 1)[-1]] = None
            continue
        body[s.name.rsplit(".", 1)[-1]] = values.get(s.name)
    return body


MAX_DICE = 64  # as the API's roll takes at most (app.data.schemas)


def _whole(text: str, below: int) -> int | None:
    """`text` as a whole number under `below`, else None ("²" is a digit to str.isdigit and no number to int(),
    and int() refuses more than 4300 digits)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(below))):
        return None
    return int(text) if int(text) < below else None


def dice_from(form: FormData) -> list[int | None]:
    """The faces tapped so far, by position (`dice.0`, `dice.1`, ... under MAX_DICE); None where none is tapped
    yet. A position or a face that is no small whole number is left out (a billion's place was a billion-long
    list)."""
    given: dict[int, int] = {}
    for key, raw in form.multi_items():
        if not key.startswith("dice."):
            continue
        index, value = _whole(key.removeprefix("dice."), MAX_DICE), _whole(str(raw).strip(), 1000)
        if index is not None and value is not None:
            given[index] = value
    return [given.get(i) for i in range(max(given) + 1)] if given else []
