"""Asking the rules for the lookup panel: choices the rules refuse for the period (a `RulesError` naming
that field) are hidden by asking the resolver's own `check()`; then the dice the request needs, the odds,
and the answer once all dice are in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.datastructures import FormData

from app.pages.common import page_or_fragment
from app.pages.forms import (
    PRESENT,
    FieldSpec,
    FormError,
    form_specs,
    initial_values,
    request_body,
    walk_specs,
)
from app.pages.lookup_cards import Pick, cards_of_dice, dice_of_cards
from app.pages.lookup_sheet import sheet_url
from app.pages.templates import humanise, templates
from rules.core.dice import DiceSource
from rules.core.errors import NotFoundError, RulesError
from rules.core.readings import ReadingUsed, reading_label, readings_deciding, tracing
from rules.core.ruleset import (
    CardShown,
    Context,
    ErratumDict,
    Resolver,
    ResolveRequest,
    RuleSet,
    RuleSetDescribed,
    validate_dice,
)
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
    missing: list[FieldSpec] = field(default_factory=list)  # required numbers not entered yet
    touched_errata: set[str] = field(default_factory=set)  # errata the rules read for this form
    readings: tuple[ReadingUsed, ...] = ()  # the errata whose reading decided the answer
    # A resolver whose dice draw cards: the pack they draw from, the cards picked by suit and rank so far (one
    # (suit, rank) per die), and the cards the answer shows (heading, cards, held).
    pack: tuple[str, ...] | None = None
    card_picks: list[Pick] = field(default_factory=list)
    cards: list[tuple[str, list[CardShown], bool]] = field(default_factory=list)
    # Request fields the form does not show but the game fills (the game's pack, for the referee).
    hidden_values: dict[str, Any] = field(default_factory=dict)

    @property
    def resolver_cls(self) -> type[Resolver[Any]]:
        return self.ruleset.resolvers[self.resolver_id]

    @property
    def labels(self) -> dict[str, str]:
        return {s.name: s.label for s in walk_specs(self.specs)}


def missing_fields(specs: list[FieldSpec], values: Mapping[str, Any]) -> list[FieldSpec]:
    """Required numbers shown in the form and still blank (a nested group counts when it is given)."""
    out: list[FieldSpec] = []
    for s in specs:
        if s.kind == "group":
            if values.get(s.name + PRESENT):
                out.extend(missing_fields(s.children, values))
        elif s.required and values.get(s.name) is None:
            out.append(s)
    return out


def _stand_in(spec: FieldSpec) -> Any:
    """A value only for asking which dice a request needs while a required number is still blank."""
    return spec.minimum if spec.minimum is not None else 0


def _validate(lk: Lookup, overrides: Mapping[str, Any] | None = None) -> ResolveRequest:
    values = {**lk.values, **(overrides or {})}
    body = {**lk.hidden_values, **request_body(lk.specs, values)}
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
    if loc.startswith("card."):
        return f"Card {int(loc.split('.')[1]) + 1}"
    if loc.startswith("variants"):
        return "Errata variant"
    if loc == "_reading":
        return "Reading"
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
    lk: Lookup,
    dice_given: list[int | None],
    roll: bool,
    source: DiceSource | None = None,
    answer: bool = True,
) -> None:
    """Fill the panel: refusals, the dice the request needs, the odds, and the answer once all dice are in
    (`answer` False: the game answers it, as it records the roll, so it is not worked out twice)."""
    try:
        ctx = tracing(lk.ruleset.context(lk.period, lk.variants))
    except RulesError as e:
        lk.errors.append(_rules_error(lk, e))
        return
    lk.missing = missing_fields(lk.specs, lk.values)
    if lk.missing:
        # No answer, no preview and no odds until the player enters them: a blank range is not 0 cm.
        stand_ins = {s.name: _stand_in(s) for s in lk.missing}
        try:
            lk.dice_sides = list(lk.resolver_cls().dice(_validate(lk, stand_ins), ctx))
        except (ValidationError, RulesError):
            lk.dice_sides = []
        lk.dice = (dice_given + [None] * len(lk.dice_sides))[: len(lk.dice_sides)]
        lk.touched_errata = set(ctx.touched)
        return
    _probe(lk, ctx)
    try:
        req = _validate(lk)
        resolver = lk.resolver_cls()
        resolver.check(req, ctx)
        lk.dice_sides = list(resolver.dice(req, ctx))
        lk.pack = resolver.pack(req, ctx)
        if lk.pack is not None and lk.card_picks:
            dice_given = dice_of_cards(lk.pack, lk.card_picks)
        lk.dice = (dice_given + [None] * len(lk.dice_sides))[: len(lk.dice_sides)]
        probs = resolver.probabilities(req, ctx)
        order = _odds_order(lk, ctx, req, probs)
        probs = {k: probs[k] for k in order if k in probs}
        preview = resolver.evaluate(req, ctx, tuple(1 for _ in lk.dice_sides))
        lk.preview = {"modifiers": [m.as_dict() for m in preview.modifiers], "sources": list(preview.sources)}
        if answer and (roll or (lk.dice_sides and all(d is not None for d in lk.dice)) or not lk.dice_sides):
            if not roll:
                validate_dice([d for d in lk.dice if d is not None], lk.dice_sides)
                req = req.model_copy(update={"dice": list(lk.dice)})
            else:
                req = req.model_copy(update={"dice": None})
            lk.answer = lk.ruleset.resolve(lk.resolver_id, req, source).as_dict()
            lk.dice = list(lk.answer["dice"])
            note_readings(lk)
            show_cards(lk)
        lk.odds = odds_rows(probs, lk.answer["outcome_key"] if lk.answer else None)
    except ValidationError as e:
        lk.errors.extend(_validation_errors(lk, e))
    except RulesError as e:
        lk.errors.append(_rules_error(lk, e))
    finally:
        lk.touched_errata = set(ctx.touched)


def note_readings(lk: Lookup) -> None:
    """The errata whose reading decided the answer's roll (the form's request, the answer's dice), so the
    answer names the reading used and offers the other. A draw from the pack answers no dice (the drawer learns
    nothing of the pack from them): no reading is worked out again for it."""
    if lk.answer is None or "dice" not in lk.answer:
        return
    try:
        req = _validate(lk)
        lk.readings = readings_deciding(lk.ruleset, lk.resolver_id, req, tuple(lk.answer["dice"]))
    except (ValidationError, RulesError):
        lk.readings = ()  # the answer came from the game's own request: it names no reading it cannot check


def show_cards(lk: Lookup) -> None:
    """The answer's cards (drawn, and the hand), and the pickers set to the cards drawn."""
    if lk.pack is None or lk.answer is None:
        return
    lk.cards = lk.resolver_cls().cards_shown(lk.answer["outcome"])
    if lk.dice:
        lk.card_picks = cards_of_dice(lk.pack, lk.dice)


@lru_cache(maxsize=256)
def _errata_of_examples(ruleset_id: str, resolver_id: str, period: str | None) -> frozenset[str]:
    """The errata the rules read when resolving the resolver's own examples in this period, on every face."""
    rs = get_ruleset(ruleset_id)
    resolver = rs.resolvers[resolver_id]()
    try:
        ctx = tracing(rs.context(period, {}))
    except RulesError:
        return frozenset()  # no period chosen yet: nothing to resolve the examples in
    for example in resolver.examples:
        try:
            req = rs.resolvers[resolver_id].Request.model_validate(
                {**example, "period": period, "dice": None}
            )
            resolver.check(req, ctx)
            sides = resolver.dice(req, ctx)
            for face in range(1, max(sides, default=1) + 1):
                resolver.evaluate(req, ctx, tuple(min(face, s) for s in sides))
        except (ValidationError, RulesError):
            continue  # an example of another period
    return frozenset(ctx.touched)


def errata_touching(lk: Lookup) -> list[str]:
    """The errata this resolver reads in this period (its examples and the form as it is), in the rule set's
    order: the only ones the lookup offers."""
    ids = lk.touched_errata | _errata_of_examples(lk.ruleset.id, lk.resolver_id, lk.period)
    return [eid for eid in lk.ruleset.errata if eid in ids]


def errata_rows(lk: Lookup) -> list[ErratumDict]:
    return [lk.ruleset.errata[eid].as_dict() for eid in errata_touching(lk)]


def variants_from(rs: RuleSet, form: FormData | Mapping[str, Any]) -> dict[str, str]:
    chosen = {}
    for eid, erratum in rs.errata.items():
        value = form.get(f"variants.{eid}")
        if value and value != erratum.default:
            chosen[eid] = str(value)
    return chosen


# A one-tap reading is "erratum=reading"; no erratum id or reading id is longer than the variants allow.
READING_TAP_MAX = 130


def reading_tapped(rs: RuleSet, form: FormData) -> tuple[str, str] | None:
    """The reading a one-tap button under an answer asks for (`_reading`: "erratum=reading"), checked against
    the rule set; None when the form has none. Raises RulesError naming `_reading` for one naming no
    erratum's reading (a hostile form: the panel says so, nothing else changes)."""
    raw = str(form.get("_reading") or "")[:READING_TAP_MAX]
    if not raw:
        return None
    eid, _, rid = raw.partition("=")
    erratum = rs.errata.get(eid)
    if erratum is None or rid not in {r.id for r in erratum.readings}:
        raise RulesError("_reading", "names no erratum's reading of this rule set")
    return eid, rid


def apply_tapped_reading(lk: Lookup, form: FormData) -> tuple[str, str] | None:
    """A free lookup re-asked with the reading tapped under its answer (the same dice, the other reading);
    the reading tapped, or None (none tapped, or a refused one, said in the panel)."""
    try:
        tapped = reading_tapped(lk.ruleset, form)
    except RulesError as e:
        lk.errors.append(_rules_error(lk, e))
        return None
    if tapped is not None:
        lk.variants = with_reading(lk.variants, lk.ruleset, *tapped)
    return tapped


def with_reading(variants: Mapping[str, str], rs: RuleSet, eid: str, rid: str) -> dict[str, str]:
    """The variants with one erratum read otherwise (its default: left out, as a game stores it)."""
    out = {k: v for k, v in variants.items() if k != eid}
    if rid != rs.errata[eid].default:
        out[eid] = rid
    return out


def rulesets_summary() -> list[RuleSetDescribed]:
    return [rs.describe() for rs in all_rulesets()]


def chosen_period(rs: RuleSet, period: str | None) -> str | None:
    """The period asked for, if the rule set has it; None otherwise (the page asks the player to pick one,
    rather than silently answering for the first period)."""
    return period if period in rs.period_ids else None


def lookup_context(lk: Lookup, errata_open: bool = False) -> dict[str, Any]:
    """The panel's context for a lookup: the errata only as a count and the chosen readings, unless the
    player opened them (they load on demand: GET /lookup/{ruleset}/{resolver}/errata)."""
    touching = errata_touching(lk)
    return {
        "rulesets": rulesets_summary(),
        "rs": lk.ruleset.describe(),
        "period": lk.period,
        "lk": lk,
        "errata_count": len(touching),
        "errata": [lk.ruleset.errata[eid].as_dict() for eid in touching] if errata_open else [],
    }


def lookup_response(request: Request, lk: Lookup, errata_open: bool = False) -> Response:
    return page_or_fragment(request, "lookup.html", "_lookup_panel.html", lookup_context(lk, errata_open))


def new_lookup(ruleset: str, resolver: str, period: str | None) -> Lookup:
    rs = get_ruleset(ruleset)
    if resolver not in rs.resolvers:
        raise NotFoundError("resolver", resolver, rs.resolvers)
    specs = form_specs(rs.resolvers[resolver].Request)
    return Lookup(rs, resolver, chosen_period(rs, period), specs, initial_values(specs), {})


def form_error(lk: Lookup, e: FormError) -> dict[str, str]:
    return {"field": e.name, "label": _field_label(lk, e.name), "message": e.message}


# -- the answer in words ----------------------------------------------------------------------------------


def outcome_words(outcome: Any) -> str | None:
    """The outcome as a player says it: "Suppressed", "2 actions", "1 action"; None for an outcome with more
    parts than a phrase holds (the panel then lists them)."""
    if isinstance(outcome, str):
        return humanise(outcome)
    if isinstance(outcome, bool) or outcome is None:
        return None
    if isinstance(outcome, int | float):
        return str(outcome)
    if isinstance(outcome, Mapping) and 0 < len(outcome) <= 2:
        parts = []
        for key, n in outcome.items():
            if isinstance(n, bool) or not isinstance(n, int):
                return None
            noun = humanise(str(key)).lower()
            parts.append(f"{n} {noun[:-1] if n == 1 and noun.endswith('s') else noun}")
        return ", ".join(parts)
    return None


templates.env.globals["outcome_words"] = outcome_words
templates.env.globals["lookup_sheet_url"] = sheet_url
templates.env.globals["reading_label"] = reading_label
