"""HTML pages (Jinja2 + htmx). One URL serves the whole page, or for an htmx request (HX-Request header)
only the fragment it swaps.

The lookup form is generated from each resolver's request schema, so a resolver or rule set registered
later appears without page code: enums become tap buttons, booleans toggles, integers steppers, nested
models fieldsets, and `dice` the die-face pads whose count the resolver itself gives for the request.
Choices the rules refuse for the period (a `RulesError` naming that field) are hidden by asking the
resolver's own `check()`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app import auth, crud, game_engine, security
from app.core.config import ROOT, Settings
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict, Forbidden, TooManyRequests, Unauthorized
from app.models import Game, Unit
from app.routes import fireplans
from app.routes import games as games_routes
from rules.core.dice import DiceSource
from rules.core.errors import NotFoundError, RulesError
from rules.core.ruleset import Context, Resolver, ResolveRequest, RuleSet, validate_dice
from rules.flanders_fields.barrage import PLAN_ITEM_STEPS
from rules.flanders_fields.common import QUALITIES
from rules.flanders_fields.organisation import NATIONS, ORGANISATION_TABLES
from rules.flanders_fields.table_rules import DANGER_ZONE_CM
from rules.registry import all_rulesets, get_ruleset
from rules.table.bases import BASES
from rules.table.frame import AHEAD_DEG
from rules.table.templates import TEMPLATES

FRONTEND = ROOT / "frontend"
STATIC_DIR = FRONTEND / "static"
templates = Jinja2Templates(directory=FRONTEND / "templates")

router = APIRouter(include_in_schema=False)

# Fields every resolve request has; the page supplies them itself rather than from the schema walk.
COMMON_FIELDS = ("period", "dice", "variants")


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


# Words the rule texts write in capitals; a label keeps them so ("SOS", "MG", "LMG unit").
ACRONYMS = {w.lower(): w for w in ("SOS", "MG", "MMG", "HMG", "LMG", "SMG", "BEF", "VP", "HQ", "D3", "D6")}
NUMBER_RANGE = re.compile(r"(?<=\d)-(?=\d)")


def humanise(name: str) -> str:
    """`raw_under_fire` -> "Raw under fire", `range_cm` -> "Range (cm)", `no-effect` -> "No effect",
    `sos` -> "SOS", and a table's range `2-4` -> "2–4" (an en dash, not a word break)."""
    text = str(name)
    unit = ""
    for suffix, label in (("_cm", "cm"), ("_deg", "degrees")):
        if text.endswith(suffix):
            text, unit = text[: -len(suffix)], f" ({label})"
    if re.fullmatch(r"[-+]?\d+(\.\d+)?", text):
        return text + unit  # a signed number keeps its sign
    text = NUMBER_RANGE.sub("–", text)
    words = [ACRONYMS.get(w.lower(), w) for w in text.replace("_", " ").replace("-", " ").split()]
    if not words:
        return text
    first = words[0]
    words[0] = first if first in ACRONYMS.values() else first[:1].upper() + first[1:]
    return " ".join(words) + unit


# The lookup's resolver buttons, most used at the table first (issue 7); any others follow in their order.
MOST_USED = (
    "order-roll",
    "shooting",
    "morale",
    "assault",
    "wire-crossing",
    "rolling-barrage",
    "deep-suppression",
    "sos",
    "gas-wind",
    "deviation",
    "air-attack",
    "heroic-action",
)


def most_used_first(resolvers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rank = {rid: i for i, rid in enumerate(MOST_USED)}
    return sorted(resolvers, key=lambda r: rank.get(str(r["id"]), len(rank)))  # sorted() is stable


def num(value: Any) -> Any:
    """30.0 -> 30 in a number box; other values unchanged."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


templates.env.filters["humanise"] = humanise
templates.env.filters["num"] = num
templates.env.filters["most_used_first"] = most_used_first


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

    @property
    def dom_id(self) -> str:
        return "f-" + self.name.replace(".", "-").replace("_", "-")

    def initial(self) -> Any:
        if self.has_default:
            return self.default
        if self.nullable:
            return None
        if self.kind == "enum":
            return self.options[0]
        if self.kind == "bool":
            return False
        if self.kind in ("int", "number"):
            return int(self.minimum) if self.minimum is not None else 0
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


def _walk(specs: list[FieldSpec]) -> list[FieldSpec]:
    out: list[FieldSpec] = []
    for s in specs:
        out.append(s)
        out.extend(_walk(s.children))
    return out


PRESENT = "__present"  # the switch of an optional nested group ("give the wind")


def initial_values(specs: list[FieldSpec]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for s in _walk(specs):
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
        if spec.nullable:
            return None
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
    for s in _walk(specs):
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


# -- asking the rules --------------------------------------------------------------------------------------


@dataclass
class Lookup:
    """Everything the lookup panel shows for one state of the form."""

    ruleset: RuleSet
    resolver_id: str
    period: str | None
    specs: list[FieldSpec]
    values: dict[str, Any]
    variants: dict[str, str]
    dice_sides: list[int] = field(default_factory=list)
    dice: list[int | None] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)
    odds: list[dict[str, Any]] = field(default_factory=list)
    preview: dict[str, Any] | None = None  # modifiers and thresholds before rolling
    answer: dict[str, Any] | None = None

    @property
    def resolver_cls(self) -> type[Resolver[Any]]:
        return self.ruleset.resolvers[self.resolver_id]

    @property
    def labels(self) -> dict[str, str]:
        return {s.name: s.label for s in _walk(self.specs)}


def _validate(lk: Lookup, overrides: Mapping[str, Any] | None = None) -> ResolveRequest:
    values = {**lk.values, **(overrides or {})}
    body = request_body(lk.specs, values)
    body["period"] = lk.period
    if lk.variants:
        body["variants"] = lk.variants
    return lk.resolver_cls.Request.model_validate(body)


def _refused(lk: Lookup, ctx: Context, name: str, value: Any) -> bool:
    """Whether the rules refuse `value` for field `name`, everything else in the form as it is."""
    try:
        req = _validate(lk, {name: value})
        resolver = lk.resolver_cls()
        resolver.check(req, ctx)
        resolver.dice(req, ctx)
    except ValidationError:
        return False
    except RulesError as e:
        return e.field == name
    return False


def _probe(lk: Lookup, ctx: Context) -> None:
    """Hide choices the period's rules refuse; hide a control left with nothing to choose."""
    for s in _walk(lk.specs):
        current = lk.values.get(s.name)
        if s.kind == "enum":
            s.refused = {o for o in s.options if o != current and _refused(lk, ctx, s.name, o)}
            # Keep a control whose current value is refused, so the player can change it.
            s.hidden = len(s.options) - len(s.refused) <= 1 and not _refused(lk, ctx, s.name, current)
        elif s.kind == "bool" and current is False and _refused(lk, ctx, s.name, True):
            s.hidden = True


def _field_label(lk: Lookup, loc: str) -> str:
    labels = lk.labels
    if loc in labels:
        return labels[loc]
    if loc.startswith("dice"):
        return "Dice"
    if loc.startswith("variants"):
        return "Errata variant"
    if loc == "period":
        return "Period"
    return humanise(loc.rsplit(".", 1)[-1])


def _rules_error(lk: Lookup, e: RulesError) -> dict[str, str]:
    return {"field": e.field, "label": _field_label(lk, e.field), "message": e.message}


def _validation_errors(lk: Lookup, e: ValidationError) -> list[dict[str, str]]:
    out = []
    for err in e.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        out.append({"field": loc, "label": _field_label(lk, loc), "message": str(err.get("msg", ""))})
    return out


def _odds(probs: Mapping[str, Fraction], outcome_key: str | None) -> list[dict[str, Any]]:
    return [
        {
            "key": k,
            "percent": float(p) * 100,
            "exact": f"{p.numerator}/{p.denominator}",
            "hit": k == outcome_key,
        }
        for k, p in probs.items()
    ]


def _odds_order(lk: Lookup, ctx: Context, req: ResolveRequest, probs: Mapping[str, Fraction]) -> list[str]:
    """Outcomes in the order the dice reach them (lowest roll first), so the bar reads like the table."""
    resolver = lk.resolver_cls()
    sides = resolver.dice(req, ctx)
    if len(sides) != 1:
        return sorted(probs)
    order: list[str] = []
    for face in range(1, sides[0] + 1):
        key = resolver.evaluate(req, ctx, (face,)).key
        if key not in order:
            order.append(key)
    return order + sorted(k for k in probs if k not in order)


def run_lookup(
    lk: Lookup, dice_given: list[int | None], roll: bool, source: DiceSource | None = None
) -> None:
    """Fill the panel: refusals, the dice the request needs, the odds, and the answer once all dice are in."""
    try:
        ctx = lk.ruleset.context(lk.period, lk.variants)
    except RulesError as e:
        lk.errors.append(_rules_error(lk, e))
        return
    _probe(lk, ctx)
    try:
        req = _validate(lk)
        resolver = lk.resolver_cls()
        resolver.check(req, ctx)
        lk.dice_sides = list(resolver.dice(req, ctx))
        lk.dice = (dice_given + [None] * len(lk.dice_sides))[: len(lk.dice_sides)]
        probs = resolver.probabilities(req, ctx)
        order = _odds_order(lk, ctx, req, probs)
        probs = {k: probs[k] for k in order if k in probs}
        preview = resolver.evaluate(req, ctx, tuple(1 for _ in lk.dice_sides))
        lk.preview = {"modifiers": [m.as_dict() for m in preview.modifiers], "sources": list(preview.sources)}
        if roll or (lk.dice_sides and all(d is not None for d in lk.dice)) or not lk.dice_sides:
            if not roll:
                validate_dice([d for d in lk.dice if d is not None], lk.dice_sides)
                req = req.model_copy(update={"dice": list(lk.dice)})
            else:
                req = req.model_copy(update={"dice": None})
            lk.answer = lk.ruleset.resolve(lk.resolver_id, req, source).as_dict()
            lk.dice = list(lk.answer["dice"])
        lk.odds = _odds(probs, lk.answer["outcome_key"] if lk.answer else None)
    except ValidationError as e:
        lk.errors.extend(_validation_errors(lk, e))
    except RulesError as e:
        lk.errors.append(_rules_error(lk, e))


STANDARD_ANSWER_KEYS = frozenset(
    {
        "ruleset",
        "resolver",
        "period",
        "dice",
        "rolled_by_server",
        "modifiers",
        "total",
        "outcome",
        "outcome_key",
        "probabilities",
        "probabilities_exact",
        "sources",
        "variants",
    }
)


def answer_details(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The resolver-specific parts of an answer (thresholds, notes, consequences), for display."""
    return {k: v for k, v in answer.items() if k not in STANDARD_ANSWER_KEYS and v not in (None, [], {}, "")}


def period_labels(periods: list[dict[str, Any]]) -> dict[str, str]:
    """Period names without the words they all share ("Western Front ..."), short enough for a chip."""
    words = [str(p["name"]).split() for p in periods]
    shared = 0
    while len(words) > 1 and all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    return {p["id"]: " ".join(w[shared:]) for p, w in zip(periods, words, strict=True)}


def short_list(values: list[Any]) -> bool:
    """A few short scalars read best on one line ("2, 4"); anything longer as a list."""
    return len(values) <= 6 and all(len(str(v)) <= 12 for v in values)


templates.env.globals["answer_details"] = answer_details
templates.env.globals["short_list"] = short_list
templates.env.globals["period_labels"] = period_labels


def _errata_for(rs: RuleSet, period: str | None) -> list[dict[str, Any]]:
    return [e.as_dict() for e in rs.errata.values() if not e.periods or period in e.periods]


def _variants_from(rs: RuleSet, form: FormData | Mapping[str, Any]) -> dict[str, str]:
    chosen = {}
    for eid, erratum in rs.errata.items():
        value = form.get(f"variants.{eid}")
        if value and value != erratum.default:
            chosen[eid] = str(value)
    return chosen


def _dice_from(form: FormData) -> list[int | None]:
    """The faces tapped so far, by position (`dice.0`, `dice.1`, ...); None where none is tapped yet."""
    given: dict[int, int] = {}
    for key, raw in form.multi_items():
        index, value = key.removeprefix("dice."), str(raw).strip()
        if key.startswith("dice.") and index.isdigit() and value.isdigit():
            given[int(index)] = int(value)
    return [given.get(i) for i in range(max(given) + 1)] if given else []


def _rulesets_summary() -> list[dict[str, Any]]:
    return [rs.describe() for rs in all_rulesets()]


def _default_period(rs: RuleSet, period: str | None) -> str | None:
    if period in rs.period_ids:
        return period
    return rs.period_ids[0] if rs.period_ids else None


def _page(
    request: Request, full: str, fragment: str, context: dict[str, Any], status_code: int = 200
) -> Response:
    name = fragment if is_htmx(request) else full
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def _too_many(response: Response, e: TooManyRequests) -> Response:
    """A page refused for too many failures: 429, and Retry-After (net-status.js words it for htmx)."""
    response.status_code = 429
    response.headers["Retry-After"] = str(e.retry_after)
    return response


def _not_found(request: Request, e: NotFoundError) -> Response:
    return templates.TemplateResponse(
        request, "error.html", {"title": "Not found", "message": e.message}, status_code=404
    )


# -- routes ------------------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def start_page(request: Request, session: SessionDep) -> Response:
    return _start(request, session)


@router.get("/lookup", response_class=HTMLResponse)
def lookup_index(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    ruleset: str | None = None,
    period: str | None = None,
    game: int | None = None,
    unit: int | None = None,
) -> Response:
    if game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            rs = get_ruleset(g.ruleset)
            picked = _picked_unit(session, g, seat, unit)
            return {**_game_lookup_context(session, g, seat, picked), "rs": rs.describe(), "lk": None}

        return _game_page(request, session, settings, game, "lookup.html", "_lookup_panel.html", build)
    try:
        rs = get_ruleset(ruleset) if ruleset else all_rulesets()[0]
    except NotFoundError as e:
        return _not_found(request, e)
    context = {
        "rulesets": _rulesets_summary(),
        "rs": rs.describe(),
        "period": _default_period(rs, period),
        "lk": None,
    }
    return _page(request, "lookup.html", "_lookup_panel.html", context)


def _lookup_response(request: Request, lk: Lookup) -> Response:
    context = {
        "rulesets": _rulesets_summary(),
        "rs": lk.ruleset.describe(),
        "period": lk.period,
        "lk": lk,
        "errata": _errata_for(lk.ruleset, lk.period),
    }
    return _page(request, "lookup.html", "_lookup_panel.html", context)


def _new_lookup(ruleset: str, resolver: str, period: str | None) -> Lookup:
    rs = get_ruleset(ruleset)
    if resolver not in rs.resolvers:
        raise NotFoundError("resolver", resolver, rs.resolvers)
    specs = form_specs(rs.resolvers[resolver].Request)
    return Lookup(rs, resolver, _default_period(rs, period), specs, initial_values(specs), {})


@router.get("/lookup/{ruleset}/{resolver}", response_class=HTMLResponse)
def lookup_form(
    request: Request,
    ruleset: str,
    resolver: str,
    session: SessionDep,
    settings: SettingsDep,
    period: str | None = None,
    game: int | None = None,
    unit: int | None = None,
) -> Response:
    if game is not None:

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = _game_lookup(session, g, seat, resolver, unit)
            run_lookup(gl.lk, [], roll=False)
            return _game_lookup_response(session, g, seat, gl)

        return _game_page(request, session, settings, game, "lookup.html", "_lookup_panel.html", build)
    try:
        lk = _new_lookup(ruleset, resolver, period)
    except NotFoundError as e:
        return _not_found(request, e)
    run_lookup(lk, [], roll=False)
    return _lookup_response(request, lk)


@router.post("/lookup/{ruleset}/{resolver}", response_class=HTMLResponse)
async def lookup_resolve(
    request: Request, ruleset: str, resolver: str, session: SessionDep, settings: SettingsDep
) -> Response:
    form = await request.form()
    action = str(form.get("action", ""))
    # Underscored: no resolver field can be named so (a resolver may have a field called "unit").
    game_field = str(form.get("_game") or "")
    if game_field.isdigit():
        unit_field = str(form.get("_unit") or "")

        def build(g: Game, seat: Seat) -> dict[str, Any]:
            gl = _game_lookup(session, g, seat, resolver, int(unit_field) if unit_field.isdigit() else None)
            gl.lk.values, form_errors = values_from_form(gl.lk.specs, form)
            if form_errors:
                gl.lk.errors = [_form_error(gl.lk, e) for e in form_errors]
            else:
                run_lookup(gl.lk, [] if action == "clear" else _dice_from(form), roll=False)
                if not gl.lk.errors and action in ("record", "roll"):
                    _record(session, g, seat, gl, server_rolls=action == "roll")
            return _game_lookup_response(session, g, seat, gl)

        return _game_page(
            request, session, settings, int(game_field), "lookup.html", "_lookup_panel.html", build
        )
    try:
        lk = _new_lookup(ruleset, resolver, str(form.get("period") or "") or None)
    except NotFoundError as e:
        return _not_found(request, e)
    lk.values, form_errors = values_from_form(lk.specs, form)
    lk.variants = _variants_from(lk.ruleset, form)
    if form_errors:
        lk.errors = [_form_error(lk, e) for e in form_errors]
        return _lookup_response(request, lk)
    dice = [] if action == "clear" else _dice_from(form)
    run_lookup(lk, dice, roll=action == "roll")
    return _lookup_response(request, lk)


def _form_error(lk: Lookup, e: FormError) -> dict[str, str]:
    return {"field": e.name, "label": _field_label(lk, e.name), "message": e.message}


# -- lookups inside a game: preset from the game's state, recorded in its log -------------------------------


@dataclass
class GameLookup:
    """A lookup for a unit of a game: the form preset from what the game knows, and, once recorded, the
    in-game resolution (its event, the values the game filled in, the changes it applied)."""

    lk: Lookup
    unit: Unit | None
    filled: list[game_engine.Filled]
    recorded: dict[str, Any] | None = None


def _picked_unit(session: Session, game: Game, seat: Seat, unit_id: int | None) -> Unit | None:
    if unit_id is None:
        return None
    unit = crud.get_unit(session, game.id or 0, unit_id)
    if not seat.viewer.may_act_for(unit.side):
        raise Forbidden(f"{unit.name} is one of the {unit.side}'s units: pick one of your own")
    return unit


def _game_lookup(session: Session, game: Game, seat: Seat, resolver: str, unit_id: int | None) -> GameLookup:
    """The lookup form with the game's period and errata, preset with the fields the game's state fills
    for this unit: the same filling the in-game resolve endpoint does (game_engine), so the form shows
    beforehand what the game will use."""
    unit = _picked_unit(session, game, seat, unit_id)
    lk = _new_lookup(game.ruleset, resolver, game.period)
    lk.variants = dict(game.variants)
    fields = set(lk.resolver_cls.Request.model_fields)
    units = crud.list_units(session, game.id or 0)
    filled = game_engine.fill(game, resolver, fields, unit, None, units, {})
    specs = {s.name: s for s in _walk(lk.specs)}
    for f in filled:
        spec = specs.get(f.field)
        if spec is None:
            continue  # a shape the form does not show (a list): the game fills it when recording
        spec.from_game = f.why
        if spec.kind == "group" and isinstance(f.value, dict):
            lk.values[spec.name + PRESENT] = True
            lk.values.update(
                {f"{spec.name}.{k}": v for k, v in f.value.items() if f"{spec.name}.{k}" in specs}
            )
        else:
            lk.values[spec.name] = f.value
    return GameLookup(lk, unit, filled)


def _record(session: Session, game: Game, seat: Seat, gl: GameLookup, server_rolls: bool) -> None:
    """Resolve through the in-game endpoint (POST /api/v1/games/{id}/resolve/{resolver}), which records
    the roll in the game's log and applies it. Only fields the player changed from the game's preset are
    sent, so the game fills the rest itself and says why."""
    lk = gl.lk
    preset = {f.field: f.value for f in gl.filled}
    body = request_body(lk.specs, lk.values)
    fields = {k: v for k, v in body.items() if k not in preset or preset[k] != v}
    dice = None if server_rolls or not lk.dice_sides else [d for d in lk.dice if d is not None]
    try:
        if dice is not None and len(dice) < len(lk.dice_sides):
            raise RulesError("dice", "tap the face of every die first, or ask firestep to roll")
        body_in = games_routes.ResolveIn(fields=fields, dice=dice, unit_id=gl.unit.id if gl.unit else None)
        out = games_routes.resolve(game.id or 0, lk.resolver_id, body_in, seat.viewer, session)
    except USER_ERRORS as e:
        session.rollback()
        lk.errors.append({"field": "game", "label": "Not recorded", "message": _error_message(e)})
        return
    answer = out.resolution
    order = [row["key"] for row in lk.odds]
    exact = {k: Fraction(v) for k, v in answer.get("probabilities_exact", {}).items()}
    ranked = sorted(exact, key=lambda k: order.index(k) if k in order else len(order))
    lk.odds = _odds({k: exact[k] for k in ranked}, answer["outcome_key"])
    lk.answer = answer
    lk.dice = list(answer["dice"])
    labels = lk.labels
    gl.recorded = {
        "event_id": out.event_id,
        "applied": out.applied,
        "changes": out.changes,
        "filled": [
            {**f, "label": labels.get(str(f["field"]), humanise(str(f["field"])))} for f in out.filled
        ],
    }


def _game_lookup_context(session: Session, game: Game, seat: Seat, unit: Unit | None) -> dict[str, Any]:
    tree = _unit_tree(crud.list_units(session, game.id or 0))
    return {
        "rulesets": [],
        "period": game.period,
        "errata": [],
        "unit": unit,
        "unit_tree": {side: nodes for side, nodes in tree.items() if seat.viewer.may_act_for(side)},
    }


def _game_lookup_response(session: Session, game: Game, seat: Seat, gl: GameLookup) -> dict[str, Any]:
    return {
        **_game_lookup_context(session, game, seat, gl.unit),
        "rs": gl.lk.ruleset.describe(),
        "lk": gl.lk,
        "recorded": gl.recorded,
    }


@router.get("/sw.js")
def service_worker() -> FileResponse:
    # Served from the root so its scope covers every page.
    return FileResponse(
        STATIC_DIR / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


@router.get("/manifest.webmanifest")
def manifest() -> FileResponse:
    return FileResponse(STATIC_DIR / "manifest.webmanifest", media_type="application/manifest+json")


# -- games: create, join, and the pages of one game ------------------------------------------------------
# The device keeps the token of each game it has joined (cookie `firestep_games`, "id:token" pairs) and the
# current game's token in `firestep_token`, the cookie the API reads, so the page's own API calls (htmx,
# fetch, the event stream) are authorised with no token in the page.
GAMES_COOKIE = "firestep_games"
COOKIE_AGE = 60 * 60 * 24 * 30


def _device_games(request: Request) -> dict[int, str]:
    out: dict[int, str] = {}
    for pair in request.cookies.get(GAMES_COOKIE, "").split("|"):
        gid, _, token = pair.partition(":")
        if gid.isdigit() and token:
            out[int(gid)] = token
    return out


def _remember(request: Request, response: Response, game_id: int, token: str) -> None:
    games = {**_device_games(request), game_id: token}
    value = "|".join(f"{gid}:{tok}" for gid, tok in list(games.items())[-20:])
    response.set_cookie(GAMES_COOKIE, value, httponly=True, samesite="lax", max_age=COOKIE_AGE)
    response.set_cookie(auth.COOKIE_NAME, token, httponly=True, samesite="lax", max_age=COOKIE_AGE)


@dataclass
class Seat:
    """Who this device is in a game, and the token that says so."""

    viewer: auth.Viewer
    token: str


def _seat(request: Request, session: Session, settings: Settings, game_id: int) -> Seat | None:
    for token in (request.cookies.get(auth.COOKIE_NAME), _device_games(request).get(game_id)):
        if not token:
            continue
        try:
            return Seat(auth.viewer(game_id, token, session, settings), token)
        except (Unauthorized, Forbidden):
            continue
    return None


def _game_page(
    request: Request,
    session: Session,
    settings: Settings,
    game_id: int,
    full: str,
    fragment: str,
    build: Callable[[Game, Seat], dict[str, Any]],
) -> Response:
    """A page of one game: 404 for no such game, the join form when this device has no seat in it."""
    try:
        game = crud.get_game(session, game_id)
    except NotFoundError as e:
        return _not_found(request, e)
    try:
        seat = _seat(request, session, settings, game_id)
    except TooManyRequests as e:
        message = security.page_wait_message(e, "unknown tokens")
        page = templates.TemplateResponse(
            request, "error.html", {"game": game, "title": "Too many tries", "message": message}
        )
        return _too_many(page, e)
    if seat is None:
        context = {"game": game, "title": "Join this game", "error": None}
        return templates.TemplateResponse(request, "join.html", context, status_code=401)
    try:
        context = {"game": game, "seat": seat, "role": seat.viewer.role, **build(game, seat)}
        status = 200
    except Forbidden as e:
        context = {"game": game, "title": "Not for your eyes", "message": e.message}
        full = fragment = "error.html"
        status = 403
    except NotFoundError as e:
        context = {"game": game, "title": "Not found", "message": e.message}
        full = fragment = "error.html"
        status = 404
    except RulesError as e:
        context = {"game": game, "title": "Not possible", "message": _error_message(e)}
        full = fragment = "error.html"
        status = 422
    response = _page(request, full, fragment, context, status)
    if request.cookies.get(auth.COOKIE_NAME) != seat.token:
        _remember(request, response, game_id, seat.token)
    return response


def _error_message(e: Exception) -> str:
    if isinstance(e, RulesError):
        return f"{humanise(e.field.rsplit('.', 1)[-1])}: {e.message}"
    if isinstance(e, ValidationError):
        return "; ".join(
            f"{humanise(str(err['loc'][-1])) if err.get('loc') else 'Value'}: {err['msg']}"
            for err in e.errors()
        )
    if isinstance(e, NotFoundError | Conflict | Forbidden | Unauthorized):
        return str(e.message)
    return str(e)


USER_ERRORS = (RulesError, ValidationError, NotFoundError, Conflict, Forbidden, Unauthorized)


def _scenarios() -> list[dict[str, Any]]:
    from rules.flanders_fields.scenarios import SCENARIOS

    return [{"id": sid, "name": getattr(s, "name", sid)} for sid, s in SCENARIOS.items()]


def organiser_refusal(settings: Settings, form: FormData, what: str) -> tuple[str, int] | None:
    """The page's plain-words refusal (message, status) when this server wants its organiser key to create
    `what` and the form's key is missing or wrong; None when creating may go ahead."""
    problem = auth.organiser_key_problem(settings.organiser_key, str(form.get("organiser_key") or ""))
    if problem == "missing":
        return f"Only the organiser may start {what} on this server: enter the organiser key.", 401
    if problem == "wrong":
        return "That is not the organiser key: check it with the organiser.", 403
    return None


@router.post("/games/new", response_class=HTMLResponse)
async def create_game_page(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    form = await request.form()
    refused = organiser_refusal(settings, form, "games")
    if refused:
        return _start(request, session, error=refused[0], status_code=refused[1])
    fields: dict[str, Any] = {}
    scenario = str(form.get("scenario") or "")
    if scenario == "tables":
        fields.update(_forces_from(form))
    elif scenario:
        fields["scenario"] = scenario
    else:
        for key in ("name", "period", "attacker_nation", "defender_nation"):
            if form.get(key):
                fields[key] = str(form.get(key)).strip()
    try:
        body = games_routes.GameCreate.model_validate(fields)
        game, creds = game_engine.create_game(
            session, settings.secret_key, **body.model_dump(exclude_none=True)
        )
    except USER_ERRORS as e:
        session.rollback()
        return _start(request, session, error=_create_error(e, fields), status_code=422)
    context = {"game": game, "codes": creds.join_codes}
    response = templates.TemplateResponse(request, "created.html", context)
    _remember(request, response, game.id or 0, creds.referee_token)
    return response


def _forces_from(form: FormData) -> dict[str, Any]:
    """The start page's "forces from the organisation tables": a period, and per side a nation, a table and
    a quality (blank: the table's own), as a GameCreate body."""
    fields: dict[str, Any] = {"forces": []}
    for key in ("name", "forces_period"):
        if form.get(key):
            fields["period" if key == "forces_period" else key] = str(form.get(key)).strip()
    for side in auth.SIDES:
        if form.get(f"{side}_force_nation"):
            fields[f"{side}_nation"] = str(form.get(f"{side}_force_nation"))
        force: dict[str, Any] = {"side": side, "table_id": str(form.get(f"{side}_table") or "")}
        if form.get(f"{side}_quality"):
            force["quality"] = str(form.get(f"{side}_quality"))
        fields["forces"].append(force)
    return fields


def _create_error(e: Exception, fields: Mapping[str, Any]) -> str:
    """A refusal of a new game, saying which side's force it is about (forces.N.* in the API)."""
    parts = e.field.split(".") if isinstance(e, RulesError) else []
    if isinstance(e, RulesError) and len(parts) == 3 and parts[0] == "forces" and parts[1].isdigit():
        side = fields["forces"][int(parts[1])]["side"]
        what = "organisation table" if parts[2] == "table_id" else parts[2]
        return f"{humanise(side)} {what}: {e.message}"
    return _error_message(e)


@router.post("/join", response_class=HTMLResponse)
async def join_page(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    form = await request.form()
    code = str(form.get("code") or "").strip()
    try:
        if not code:
            raise RulesError("code", "enter the join code your referee gave you")
        security.check_join_attempts()
        game_id, _side, token = crud.join(session, settings.secret_key, code)
    except TooManyRequests as e:
        return _too_many(_start(request, session, error=security.page_wait_message(e, "wrong join codes")), e)
    except USER_ERRORS as e:
        if isinstance(e, NotFoundError):
            security.join_failed()
        message = (
            "That join code is not known here: check it with the referee."
            if isinstance(e, NotFoundError)
            else _error_message(e)
        )
        return _start(request, session, error=message, status_code=422)
    game = crud.get_game(session, game_id)
    target = f"/games/{game_id}/fire-plan" if game.status == "setup" else f"/lookup?game={game_id}"
    response = RedirectResponse(target, status_code=303)
    _remember(request, response, game_id, token)
    return response


def _start(request: Request, session: Session, error: str | None = None, status_code: int = 200) -> Response:
    device = _device_games(request)
    games = crud.list_games(session)
    context = {
        "rulesets": _rulesets_summary(),
        "game_ruleset": get_ruleset(game_engine.RULESET).describe(),
        "games": games,
        "mine": [g for g in games if g.id in device],
        "scenarios": _scenarios(),
        "org_tables": list(ORGANISATION_TABLES.values()),
        "nations": NATIONS,
        "qualities": QUALITIES,
        "error": error,
    }
    return templates.TemplateResponse(request, "start.html", context, status_code=status_code)


def _unit_tree(units: list[Unit]) -> dict[str, list[dict[str, Any]]]:
    """Each side's units as nested nodes (division .. stand), with battalion casualties against the 50% and
    75% morale thresholds."""
    children: dict[int | None, list[Unit]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)

    def node(u: Unit) -> dict[str, Any]:
        kids = [node(c) for c in children.get(u.id, [])]
        out: dict[str, Any] = {"unit": u, "children": kids, "leaf": not kids}
        if u.level == "battalion" or (
            u.level != "company" and any(k["unit"].level == "company" for k in kids)
        ):
            total, lost = game_engine.rifle_losses(u, units)
            if total:
                out["losses"] = {
                    "lost": lost,
                    "total": total,
                    "half": -(-total // 2),
                    "three_quarters": -(-3 * total // 4),
                }
        return out

    roots = [u for u in units if u.parent_id is None]
    return {side: [node(u) for u in roots if u.side == side] for side in auth.SIDES}


@router.get("/games/{game_id}/referee", response_class=HTMLResponse)
def referee_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        roles = [seat.viewer.role] if not seat.viewer.is_referee else ["referee", *auth.SIDES]
        events = crud.list_events(session, game_id, roles, 0, 100_000)[-40:]
        undone = crud.reversed_ids(session, game_id)
        return {
            "turn": game_engine.turn_info(session, game),
            "tree": _unit_tree(crud.list_units(session, game_id)),
            "events": [game_engine.event_dict(e, roles) for e in reversed(events)],
            "undone": undone,
        }

    return _game_page(request, session, settings, game_id, "referee.html", "_referee_board.html", build)


@router.get("/games/{game_id}/fire-plan", response_class=HTMLResponse)
def fire_plan_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep, side: str | None = None
) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        return _plan_context(session, game, seat, side)

    return _game_page(request, session, settings, game_id, "fire_plan.html", "_fire_plan.html", build)


def _plan_context(
    session: Session, game: Game, seat: Seat, side: str | None, error: str | None = None
) -> dict[str, Any]:
    viewer = seat.viewer
    chosen = side if side in auth.SIDES else (viewer.role if viewer.role in auth.SIDES else "attacker")
    # The API decides who may read a plan: the opponent is refused (403) until the game is over.
    items = fireplans.list_items(game.id or 0, chosen, viewer, session)
    plans = {p.side: p for p in fireplans.list_plans(game.id or 0, viewer, session)}
    by_turn: dict[int, list[Any]] = {}
    for item in items:
        by_turn.setdefault(item.arrival_turn, []).append(item)
    return {
        "side": chosen,
        "items": items,
        "timeline": sorted(by_turn.items()),
        "plans": plans,
        "plan": plans.get(chosen),
        "error": error,
        # Only what the period has: an early plan offers no rolling barrage or Deep Suppression.
        "kinds": [k for k in PLAN_KINDS if k not in PLAN_ITEM_STEPS or PLAN_ITEM_STEPS[k].has(game.period)],
    }


PLAN_KINDS = (
    "aiming-point",
    "bombardment",
    "superimposed",
    "mortar",
    "air-mission",
    "gas",
    "rolling-barrage",
    "deep-suppression",
)
PLAN_FIELDS = {
    "fire": ("grid", "battery", "turns"),
    "gas": ("grid", "gas", "wind_deg"),
    "rolling-barrage": ("start_up_cm", "duration_turns", "halts"),
    "deep-suppression": (),
}


TEXT_PLAN_FIELDS = ("battery", "gas")


def _form_number(raw: Any) -> Any:
    """A typed-in number as the API takes it (the API refuses numbers sent as strings); anything that is not
    a number stays as typed, so the refusal names the field."""
    text = str(raw or "").strip()
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _plan_item(form: FormData) -> dict[str, Any]:
    """The API's PlanItemIn body from the fire-plan form: only the fields of the chosen kind."""
    kind = str(form.get("kind") or "")
    group = kind if kind in PLAN_FIELDS else "fire"
    item: dict[str, Any] = {"kind": kind}
    for name in PLAN_FIELDS[group]:
        if name == "grid":
            item["grid"] = [_form_number(form.get("grid_x")), _form_number(form.get("grid_y"))]
        elif name == "halts":
            raw = str(form.get("halts") or "")
            item["halts"] = [_form_number(h) for h in raw.replace(";", ",").split(",") if h.strip()]
        elif form.get(name) not in (None, ""):
            value = str(form.get(name)).strip()
            item[name] = value if name in TEXT_PLAN_FIELDS else _form_number(value)
    return {"arrival_turn": _form_number(form.get("arrival_turn") or "1"), "item": item}


@router.post("/games/{game_id}/fire-plan/{side}", response_class=HTMLResponse)
async def fire_plan_action(
    game_id: GameId, side: str, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """Add an item, remove one, or lock the plan, through the fire-plan API functions (same rules, same
    refusals), then show the plan again with any refusal as a message."""
    form = await request.form()
    action = str(form.get("action") or "add")

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        error = None
        try:
            if side not in auth.SIDES:
                raise RulesError("side", "no such side", auth.SIDES)
            if action == "lock":
                fireplans.lock(game_id, side, seat.viewer, session)
            elif action.startswith("remove-"):
                item_id = int(action.removeprefix("remove-"))
                fireplans.delete_item(game_id, side, item_id, seat.viewer, session)
            else:
                body = fireplans.PlanItemIn.model_validate(_plan_item(form))
                fireplans.add_item(game_id, side, body, seat.viewer, session)
        except (RulesError, ValidationError, NotFoundError, Conflict, ValueError) as e:
            session.rollback()
            error = _error_message(e)
        session.expire_all()
        return _plan_context(session, crud.get_game(session, game_id), seat, side, error)

    return _game_page(request, session, settings, game_id, "fire_plan.html", "_fire_plan.html", build)


@router.get("/games/{game_id}/map", response_class=HTMLResponse)
def map_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    def build(game: Game, seat: Seat) -> dict[str, Any]:
        # Base and template sizes come from the rules' own tables, so the map draws true proportions.
        sizes = {
            "bases": {k: {"shape": b.shape, "w": b.width_cm, "d": b.depth_cm} for k, b in BASES.items()},
            "templates": {
                k: {"w": t.width_cm, "d": t.depth_cm, "across": t.across_table} for k, t in TEMPLATES.items()
            },
            # For what the game has on the table: clouds face the enemy of the side that released them,
            # and a rolling barrage endangers its own side's stands in the band behind its rear edge.
            "ahead": dict(AHEAD_DEG),
            "danger_cm": DANGER_ZONE_CM,
        }
        return {"sizes": sizes, "template_kinds": list(TEMPLATES)}

    return _game_page(request, session, settings, game_id, "map.html", "map.html", build)
