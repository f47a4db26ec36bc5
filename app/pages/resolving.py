"""Asking the rules for the lookup panel: choices the rules refuse for the period (a `RulesError` naming
that field) are hidden by asking the resolver's own `check()`; then the dice the request needs, the odds,
and the answer once all dice are in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.datastructures import FormData

from app.pages.common import page_or_fragment
from app.pages.forms import FieldSpec, FormError, form_specs, initial_values, request_body, walk_specs
from app.pages.templates import humanise
from rules.core.dice import DiceSource
from rules.core.errors import NotFoundError, RulesError
from rules.core.ruleset import Context, Resolver, ResolveRequest, RuleSet, validate_dice
from rules.registry import all_rulesets, get_ruleset

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
        return {s.name: s.label for s in walk_specs(self.specs)}


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
    for s in walk_specs(lk.specs):
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


def odds_rows(probs: Mapping[str, Fraction], outcome_key: str | None) -> list[dict[str, Any]]:
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
        lk.odds = odds_rows(probs, lk.answer["outcome_key"] if lk.answer else None)
    except ValidationError as e:
        lk.errors.extend(_validation_errors(lk, e))
    except RulesError as e:
        lk.errors.append(_rules_error(lk, e))


def _errata_for(rs: RuleSet, period: str | None) -> list[dict[str, Any]]:
    return [e.as_dict() for e in rs.errata.values() if not e.periods or period in e.periods]


def variants_from(rs: RuleSet, form: FormData | Mapping[str, Any]) -> dict[str, str]:
    chosen = {}
    for eid, erratum in rs.errata.items():
        value = form.get(f"variants.{eid}")
        if value and value != erratum.default:
            chosen[eid] = str(value)
    return chosen


def rulesets_summary() -> list[dict[str, Any]]:
    return [rs.describe() for rs in all_rulesets()]


def default_period(rs: RuleSet, period: str | None) -> str | None:
    if period in rs.period_ids:
        return period
    return rs.period_ids[0] if rs.period_ids else None


def lookup_response(request: Request, lk: Lookup) -> Response:
    context = {
        "rulesets": rulesets_summary(),
        "rs": lk.ruleset.describe(),
        "period": lk.period,
        "lk": lk,
        "errata": _errata_for(lk.ruleset, lk.period),
    }
    return page_or_fragment(request, "lookup.html", "_lookup_panel.html", context)


def new_lookup(ruleset: str, resolver: str, period: str | None) -> Lookup:
    rs = get_ruleset(ruleset)
    if resolver not in rs.resolvers:
        raise NotFoundError("resolver", resolver, rs.resolvers)
    specs = form_specs(rs.resolvers[resolver].Request)
    return Lookup(rs, resolver, default_period(rs, period), specs, initial_values(specs), {})


def form_error(lk: Lookup, e: FormError) -> dict[str, str]:
    return {"field": e.name, "label": _field_label(lk, e.name), "message": e.message}
