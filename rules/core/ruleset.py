"""Rule sets as registered classes with a few hooks; the war period is a parameter, not a subclass.

A rule set declares its periods, its errata (places where the texts disagree, each with a default
reading and the others as named variants), its datasets (tables served read-only), its resolvers and its
lookups (stateless answers of no dice, such as the table's geometry). Resolvers, datasets and lookups may live
in any module of the rule set's package and attach themselves with the class decorators `RuleSet.resolver`,
`RuleSet.dataset` and `RuleSet.lookup`.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from types import UnionType
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    NotRequired,
    TypedDict,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from rules.core.dice import Count, DiceSource, Threshold, count_rolls, exact_distribution, roll
from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Resolution

# Enumerating more rolls than this per request is a sign a resolver should override probabilities().
MAX_ENUMERATION = 6**8


@dataclass(frozen=True)
class Period:
    id: str
    name: str
    source: str = ""


# The value the engine uses under a reading, each erratum's own, in the shapes the rule sets give them: a flag, a
# number, a word (None: the rule is off); the kinds or steps a rule names (2mm's who may overwatch); a size, width
# then depth (2mm's base); a table by name, of flags, numbers, words, names or pairs (Flanders Fields' modifiers,
# Vimy's artillery track), or of tables of words or names (2mm's quality by kind, Vimy's combat results by code);
# a table by turn (Vimy's night turns, Firestorm's battles a turn). A reading's answer (GET /rulesets/{id}) types
# each so, and the type checker holds every erratum to them. A pair is a sequence of two, not a tuple: a client
# generated from /openapi.json reads a tuple's fixed places (prefixItems) as a list of anything.
ReadingScalar = bool | int | float | str | None
SizePair = Annotated[Sequence[float], Field(min_length=2, max_length=2)]
CountPair = Annotated[Sequence[int], Field(min_length=2, max_length=2)]
ReadingValue = (
    ReadingScalar
    | Sequence[str]
    | SizePair
    | Mapping[
        str, ReadingScalar | Sequence[str] | CountPair | Mapping[str, str] | Mapping[str, Sequence[str]]
    ]
    | Mapping[int, bool | int]
)


@dataclass(frozen=True)
class Reading:
    """One way of reading a disputed rule: what it says, where, and the value the engine uses."""

    id: str
    text: str
    source: str
    value: ReadingValue = None


class ReadingDict(TypedDict):
    id: str
    text: str
    source: str
    value: ReadingValue  # the value the engine uses under this reading: each erratum's own


class ErratumDict(TypedDict):
    """An erratum as JSON: its topic, default reading, periods, note and section, and its readings."""

    id: str
    topic: str
    default: str
    periods: list[str]
    note: str
    section: str
    readings: list[ReadingDict]


class PeriodDict(TypedDict):
    id: str
    name: str
    source: str


class ResolverSummary(TypedDict):
    id: str
    summary: str


class DatasetSummary(TypedDict):
    name: str
    summary: str
    per_period: bool


class RuleSetDescribed(TypedDict):
    """A rule set as its pages and the API list it: its id, name and source, its periods, lookups, datasets
    and errata."""

    id: str
    name: str
    source: str
    periods: list[PeriodDict]
    resolvers: list[ResolverSummary]
    datasets: list[DatasetSummary]
    errata: list[ErratumDict]


@dataclass(frozen=True)
class Erratum:
    """A place where two texts disagree (or one is silent). `default` names the reading used unless a
    game picks another as a variant; `periods` says where the dispute matters (empty: everywhere);
    `section` groups errata by topic."""

    id: str
    topic: str
    readings: tuple[Reading, ...]
    default: str
    periods: tuple[str, ...] = ()
    note: str = ""
    # Where the period playsheet prints it (e.g. "firing"), or the topic when the playsheet has no section.
    section: str = ""
    # How a printed sheet's "Readings used" names it where the topic is long (the sheet keeps to two pages).
    short: str = ""

    def __post_init__(self) -> None:
        ids = [r.id for r in self.readings]
        if self.default not in ids or len(set(ids)) != len(ids):
            raise ValueError(
                f"erratum {self.id}: default {self.default!r} must be one of unique readings {ids}"
            )

    def reading(self, reading_id: str) -> Reading:
        for r in self.readings:
            if r.id == reading_id:
                return r
        raise KeyError(reading_id)

    def as_dict(self) -> ErratumDict:
        return {
            "id": self.id,
            "topic": self.topic,
            "default": self.default,
            "periods": list(self.periods),
            "note": self.note,
            "section": self.section,
            "readings": [
                {"id": r.id, "text": r.text, "source": r.source, "value": r.value} for r in self.readings
            ],
        }


@dataclass(frozen=True)
class Context:
    """Everything a resolver may depend on besides the request: the period and the chosen readings."""

    ruleset: RuleSet
    period: str | None
    variants: Mapping[str, str] = field(default_factory=dict)

    def reading(self, erratum_id: str) -> str:
        """The reading id in force for an erratum (the game's choice, else the default)."""
        erratum = self.ruleset.errata[erratum_id]
        return self.variants.get(erratum_id, erratum.default)

    def value(self, erratum_id: str) -> Any:
        erratum = self.ruleset.errata[erratum_id]
        return erratum.reading(self.reading(erratum_id)).value

    def citation(self, erratum_id: str) -> str:
        erratum = self.ruleset.errata[erratum_id]
        r = erratum.reading(self.reading(erratum_id))
        marker = "" if r.id == erratum.default else " [variant]"
        return f"{r.source}{marker}"


# No request number needs more than a 32-bit integer (the games' stored ones are PostgreSQL INTEGERs).
REQUEST_INT_LIMIT = 2**31 - 1


def _accepts_bool(annotation: Any) -> bool:
    """Whether a field's type takes true/false itself (bool, a Literal of one, Any), anywhere in it."""
    if annotation is bool or annotation is Any or annotation is object:
        return True
    if get_origin(annotation) is Literal:
        return any(isinstance(v, bool) for v in get_args(annotation))
    return any(_accepts_bool(a) for a in get_args(annotation))


def _leaves(annotation: Any) -> frozenset[Any]:
    """The scalar types and models a field is made of, through Optional, Annotated, lists and tuples."""
    try:
        return _cached_leaves(annotation)
    except TypeError:  # an unhashable annotation: worked out each time
        return _leaves_of(annotation)


def _leaves_of(annotation: Any) -> frozenset[Any]:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _leaves(get_args(annotation)[0])
    if origin in (list, tuple, Sequence, UnionType) or str(origin) == "typing.Union":
        return frozenset().union(*(_leaves(a) for a in get_args(annotation) if a is not Ellipsis))
    return frozenset({annotation})


# Every request checks each of its fields this way: the walk through the field's type is done once per type.
_cached_leaves = functools.lru_cache(maxsize=1024)(_leaves_of)


@dataclass(frozen=True)
class _Shape:
    """What `_check_numbers` reads of a field's type: its scalar leaves (None aside), the fields of the models
    among them by name (first model first; None: no model) and whether it takes true/false."""

    leaves: frozenset[Any]
    fields: Mapping[str, Any] | None
    accepts_bool: bool


def _shape(annotation: Any) -> _Shape:
    """A field type's shape, worked out once per type (a request of many nested values, a bombardment
    circle's hundreds of bases, walks the same few types again and again)."""
    try:
        return _cached_shape(annotation)
    except TypeError:  # an unhashable annotation: worked out each time
        return _shape_of(annotation)


def _shape_of(annotation: Any) -> _Shape:
    leaves = _leaves(annotation) - {type(None)}
    models = [m for m in leaves if isinstance(m, type) and issubclass(m, BaseModel)]
    fields: dict[str, object] = {}  # each field's annotation, by name
    for m in models:
        for name, info in m.model_fields.items():
            fields.setdefault(name, info.annotation)
    return _Shape(leaves, fields if models else None, _accepts_bool(annotation))


_cached_shape = functools.lru_cache(maxsize=1024)(_shape_of)
_NO_FIELD = object()


def _check_numbers(annotation: Any, value: Any, path: str, depth: int = 0) -> None:
    """Refuse what pydantic's lax mode would coerce: true/false where a number is, 0/1 or "yes" where
    true/false is, "5" where a number is; and integers past REQUEST_INT_LIMIT. Walks lists and the fields of
    nested models (their own config is not this one)."""
    shape = _shape(annotation)
    leaves = shape.leaves
    if isinstance(value, list | tuple) and depth < 4:
        for i, item in enumerate(value):
            _check_numbers(annotation, item, f"{path}.{i}", depth + 1)
        return
    if isinstance(value, dict) and shape.fields is not None and depth < 4:
        for key, item in value.items():
            inner = shape.fields.get(key, _NO_FIELD)
            if inner is not _NO_FIELD:
                _check_numbers(inner, item, f"{path}.{key}", depth + 1)
        return
    if isinstance(value, bool):
        if not shape.accepts_bool:
            raise ValueError(f"{path}: true/false is not a number")
    elif leaves == {bool}:
        raise ValueError(f"{path}: must be true or false")
    elif isinstance(value, str) and leaves and leaves <= {int, float}:
        raise ValueError(f"{path}: a string is not a number")
    elif (
        isinstance(value, int | float)
        and abs(value) > REQUEST_INT_LIMIT
        and (
            isinstance(value, int) or (int in leaves and float not in leaves)  # 2e9 read as an integer
        )
    ):
        raise ValueError(f"{path}: out of range (allowed -{REQUEST_INT_LIMIT}..{REQUEST_INT_LIMIT})")


class ResolveRequest(BaseModel):
    """Fields every resolve request has. Rule sets subclass it to narrow `period` to a Literal.

    The config and the validator below hold for every field of every subclass: no NaN or Infinity (Python's
    json reads the literals), no `true`/`false` where a number is expected (pydantic's lax mode would read
    them as 1 and 0) nor 0/1 where true/false is, nor "5" where a number is, no integer past
    REQUEST_INT_LIMIT."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    period: str | None = Field(default=None, max_length=32, description="War period id of the rule set.")
    # The faces themselves are each resolver's to check (its 422 lists the faces its dice have).
    dice: list[int] | None = Field(
        default=None,
        max_length=64,
        description="The faces the player rolled, in the order the resolver asks for. Omit to let the server roll.",
    )
    variants: dict[Annotated[str, Field(max_length=64)], Annotated[str, Field(max_length=64)]] = Field(
        default_factory=dict,
        max_length=32,
        description="Erratum id -> reading id, for the rules a game plays differently.",
    )

    @field_validator("*", mode="before")
    @classmethod
    def _numbers_are_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name or "")
        if field is not None:
            _check_numbers(field.annotation, value, info.field_name or "")
        return value


Req = TypeVar("Req", bound=ResolveRequest)


class Resolver(ABC, Generic[Req]):
    """One rule resolution. Subclasses set `id`, `summary`, `Request`, and implement dice() and evaluate().

    evaluate() must be a pure function of (request, context, dice): the default probabilities() calls it
    for every possible roll, so the odds are exact and always agree with the answer.
    """

    id: ClassVar[str]
    summary: ClassVar[str] = ""
    Request: ClassVar[type[ResolveRequest]]
    examples: ClassVar[Sequence[Mapping[str, Any]]] = ()
    # A request's flag naming the act it plays where one resolver plays two (2mm's shot and melee), with the
    # act's name: the log names the roll the player made by it (`RuleSet.roll_name`), not by the resolver.
    named_by: ClassVar[tuple[tuple[str, str], ...]] = ()

    def dice(self, req: Req, ctx: Context) -> tuple[int, ...]:
        """Sides of each die the player rolls for this request (e.g. (6,) or (6, 6))."""
        return (6,)

    def check(self, req: Req, ctx: Context) -> None:
        """Refuse requests the rules do not allow (raise RulesError). Runs before any die is looked at."""

    def counted(self, req: Req, ctx: Context) -> Threshold | None:
        """Where the rule counts the dice reaching a number rather than reading each face (its answer a
        function of that count alone): the dice and the number, so the table may enter the count in a tap or
        two. None by default: each face is read (a rule set whose book counts dice overrides it)."""
        return None

    def pack(self, req: Req, ctx: Context) -> tuple[str, ...] | None:
        """For a resolver whose dice draw cards: the pack they draw from, in order (a die's face n is the nth
        card still in the pack once the earlier dice's cards are out), so a card drawn at the table can be
        entered as the card itself. None: the dice are dice."""
        return None

    def card(self, code: str) -> CardShown:
        """What a card of the pack is: `card`, `name`, `kind`, `title` and `text` (for a resolver with a pack). By
        default the card as the pack writes it, with no title or text of its own (a pack whose cards say nothing
        but their face)."""
        return {"card": code, "name": code, "kind": "card", "title": None, "text": ""}

    def cards_shown(self, outcome: Any) -> list[tuple[str, list[CardShown], bool]]:
        """The cards an answer shows its player, as (heading, cards as `card()` describes them, whether they
        are held, so playable later): what was drawn and the player's own hand, never the pack."""
        return []

    @abstractmethod
    def evaluate(self, req: Req, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        """The answer for this roll: outcome key and value, modifiers, total, sources, details."""

    def probabilities(self, req: Req, ctx: Context) -> dict[str, Fraction]:
        sides = self.dice(req, ctx)
        if count_rolls(sides) > MAX_ENUMERATION:
            raise RulesError("dice", f"{len(sides)} dice are too many to enumerate; resolve fewer at once")
        return exact_distribution(sides, lambda d: self.evaluate(req, ctx, d).key)


class CardShown(TypedDict):
    """A card of a resolver's pack as its player is shown it (`Resolver.card`): its face, its name (a dummy
    has none), its kind, title and text, and whether it goes to the opponent (where the pack says)."""

    card: str
    name: NotRequired[str]
    kind: str
    title: str | None
    text: str
    to_opponent: NotRequired[bool]


ResolverT = TypeVar("ResolverT", bound=type[Resolver[Any]])
LookupT = TypeVar("LookupT", bound=Callable[..., BaseModel])


@dataclass(frozen=True)
class TracingContext(Context):
    """A Context that notes every erratum the rules read: the errata a request (or a dataset) touches."""

    touched: set[str] = field(default_factory=set, compare=False)

    def reading(self, erratum_id: str) -> str:
        self.touched.add(erratum_id)
        return super().reading(erratum_id)


@dataclass(frozen=True)
class Dataset:
    """A read-only table served as JSON. `build(period)` returns it; period is None when not per period."""

    name: str
    summary: str
    build: Callable[[str | None], Any]
    per_period: bool = False


@dataclass(frozen=True)
class Built:
    """A dataset's build (`RuleSet.data`): its rule set, the readings it is built under (a game's, for its
    playsheet) and the errata it read (`read`: which the values it answers depend on)."""

    ruleset_id: str
    variants: Mapping[str, str]
    read: set[str] = field(default_factory=set)


# The dataset being built. A dataset reads the errata through `RuleSet.context(period)` as a lookup does, so a
# game's readings reach every value it prints, and what it read is noted, without each of the rule set's
# builders taking them as an argument; outside `RuleSet.data` a context without variants reads the defaults.
_BUILDING: ContextVar[Built | None] = ContextVar("building", default=None)


@dataclass(frozen=True)
class Lookup:
    """A stateless answer of the rule set with no dice (the table's geometry: a distance, a line of sight, a
    gas cloud's drift): its request and answer models are the function's own, read from its signature. Served
    at /api/v1/rulesets/<rule set>/lookups/<id>; a refusal is a RulesError naming the field."""

    id: str
    summary: str
    answer: Callable[[Any], BaseModel]
    request_model: type[BaseModel]
    answer_model: type[BaseModel]

    @classmethod
    def of(cls, lookup_id: str, summary: str, fn: Callable[[Any], BaseModel]) -> Lookup:
        hints = get_type_hints(fn)
        request = next(v for k, v in hints.items() if k != "return")
        return cls(lookup_id, summary, fn, request, hints["return"])


class RuleSet:
    id: ClassVar[str]
    name: ClassVar[str]
    source: ClassVar[str] = ""
    # The version of its book the rule set's data follows, as the book prints it ("" where it prints none: a
    # playsheet then says so rather than guess one).
    version: ClassVar[str] = ""
    periods: ClassVar[tuple[Period, ...]] = ()
    # The lookup's resolver buttons most used at the table, in that order; the others follow in theirs.
    most_used: ClassVar[tuple[str, ...]] = ()
    _resolvers: ClassVar[dict[str, type[Resolver[Any]]]]
    _datasets: ClassVar[dict[str, Dataset]]
    _errata: ClassVar[dict[str, Erratum]]
    _lookups: ClassVar[dict[str, Lookup]]
    # Its game rules where it is played as a game (a rules.core.game.GameRules, given by
    # rules.registry.register_game or written on the class); None: a rule set of lookups and dice. Typed where it
    # is read (rules.registry.get_game_rules): the hook's module sits above this one.
    game: ClassVar[object] = None
    # Its campaign where it has one (a rules.core.campaign.Campaign, written on the class by its package), read
    # by the app through rules.registry.the_campaign; None: no campaign.
    campaign: ClassVar[object] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._resolvers = {}
        cls._datasets = {}
        cls._errata = {}
        cls._lookups = {}

    # -- registration hooks (used by the rule set's own modules) -----------------------------------------
    @classmethod
    def resolver(cls, resolver_cls: ResolverT) -> ResolverT:
        if resolver_cls.id in cls._resolvers:
            raise ValueError(f"{cls.id}: resolver {resolver_cls.id} registered twice")
        cls._resolvers[resolver_cls.id] = resolver_cls
        return resolver_cls

    @classmethod
    def dataset(
        cls, name: str, summary: str, per_period: bool = False
    ) -> Callable[[Callable[[str | None], Any]], Callable[[str | None], Any]]:
        def deco(fn: Callable[[str | None], Any]) -> Callable[[str | None], Any]:
            if name in cls._datasets:
                raise ValueError(f"{cls.id}: dataset {name} registered twice")
            cls._datasets[name] = Dataset(name, summary, fn, per_period)
            return fn

        return deco

    @classmethod
    def lookup(cls, lookup_id: str, summary: str) -> Callable[[LookupT], LookupT]:
        def deco(fn: LookupT) -> LookupT:
            if lookup_id in cls._lookups:
                raise ValueError(f"{cls.id}: lookup {lookup_id} registered twice")
            cls._lookups[lookup_id] = Lookup.of(lookup_id, summary, fn)
            return fn

        return deco

    @classmethod
    def add_errata(cls, *errata: Erratum) -> None:
        for e in errata:
            if e.id in cls._errata:
                raise ValueError(f"{cls.id}: erratum {e.id} registered twice")
            cls._errata[e.id] = e

    # -- what the service reads ----------------------------------------------------------------------------
    @property
    def resolvers(self) -> Mapping[str, type[Resolver[Any]]]:
        return self._resolvers

    def roll_name(self, resolver_id: str, request: Mapping[str, Any]) -> str:
        """The act a logged roll played, as its request's flag names it (`Resolver.named_by`), or ""."""
        resolver = self._resolvers.get(resolver_id)
        named = resolver.named_by if resolver is not None else ()
        return next((name for flag, name in named if request.get(flag) is True), "")

    @property
    def datasets(self) -> Mapping[str, Dataset]:
        return self._datasets

    @property
    def errata(self) -> Mapping[str, Erratum]:
        return self._errata

    @property
    def lookups(self) -> Mapping[str, Lookup]:
        return self._lookups

    @property
    def period_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.periods)

    def check_period(self, period: str | None, field_name: str = "period") -> str | None:
        if not self.periods:
            return None
        if period not in self.period_ids:
            raise RulesError(field_name, f"unknown period {period!r}", self.period_ids)
        return period

    def context(self, period: str | None, variants: Mapping[str, str] | None = None) -> Context:
        period = self.check_period(period)
        building = _BUILDING.get()
        if variants is None and building is not None and building.ruleset_id == self.id:
            # in a dataset's build: the readings it is built under, and every erratum it reads noted
            return TracingContext(self, period, dict(building.variants), building.read)
        return Context(self, period, self.checked_variants(variants or {}))

    def game_context(
        self, period: str | None, variants: Mapping[str, str], stored: Mapping[str, str] | None = None
    ) -> Context:
        """A game's readings as it stores them: as `context` checks them, and each one new to the game (not in
        `stored`) of an erratum disputed in its period (one of another period would be kept unplayed, then played
        unseen if the period changed)."""
        ctx = self.context(period, variants)
        for eid in (e for e, r in variants.items() if (stored or {}).get(e) != r):
            erratum = self._errata[eid]
            if erratum.periods and ctx.period not in erratum.periods:
                names = " or ".join(p.name for p in self.periods if p.id in erratum.periods)
                raise RulesError(
                    f"variants.{eid}", f"that rule is disputed only in {names}, not this game's period"
                )
        return ctx

    def checked_variants(self, variants: Mapping[str, str]) -> dict[str, str]:
        """The readings chosen, each of a known erratum and one of its readings (a RulesError naming it else)."""
        chosen: dict[str, str] = {}
        for eid, rid in variants.items():
            if eid not in self._errata:
                raise RulesError("variants", f"unknown erratum {eid!r}", sorted(self._errata))
            erratum = self._errata[eid]
            if rid not in {r.id for r in erratum.readings}:
                raise RulesError(
                    f"variants.{eid}", f"unknown reading {rid!r}", [r.id for r in erratum.readings]
                )
            chosen[eid] = rid
        return chosen

    def data(self, name: str, period: str | None = None, variants: Mapping[str, str] | None = None) -> Any:
        """The dataset `name` (of `period` where it is built per period), its values under the readings
        `variants` (a game's; unknown errata or readings refused as `context` refuses them), else the defaults."""
        return self.built(name, period, variants)[0]

    def built(
        self, name: str, period: str | None = None, variants: Mapping[str, str] | None = None
    ) -> tuple[Any, frozenset[str]]:
        """`data`, with the errata its build read: the errata whose readings its values may depend on."""
        ds = self._datasets[name]
        building = Built(self.id, self.checked_variants(variants or {}))
        token = _BUILDING.set(building)
        try:
            return ds.build(self.check_period(period) if ds.per_period else None), frozenset(building.read)
        finally:
            _BUILDING.reset(token)

    def resolve(
        self,
        resolver_id: str,
        req: ResolveRequest,
        source: DiceSource | None = None,
    ) -> Resolution:
        """Validate, take the player's dice (or roll them), evaluate, and attach the exact odds."""
        resolver = self._resolvers[resolver_id]()
        ctx = self.context(req.period, req.variants)
        resolver.check(req, ctx)
        sides = resolver.dice(req, ctx)
        if req.dice is None:
            dice = roll(sides, source or random.SystemRandom())
            by_server = bool(sides)  # nothing was rolled when the resolver needs no dice
        else:
            dice = validate_dice(req.dice, sides)
            by_server = False
        evaluation = resolver.evaluate(req, ctx, dice)
        if not sides and type(resolver).probabilities is Resolver.probabilities:
            # No dice: one roll, of none, whose answer is this one (the enumeration's, evaluated once).
            probs = {evaluation.key: Fraction(1)}
        else:
            probs = dict(self._odds(resolver_id, req.model_dump_json(exclude={"dice"})))
        return Resolution(
            self.id, resolver_id, ctx.period, dice, by_server, evaluation, probs, dict(ctx.variants)
        )

    def counted(
        self, resolver_id: str, req: ResolveRequest, count: Count
    ) -> tuple[tuple[int, ...], Threshold]:
        """The faces standing for `count` of the roll `req` (its dice left out), with the number they were
        counted against; refused where the rule reads each face or the count cannot be (naming its field)."""
        resolver = self._resolvers[resolver_id]()
        ctx = self.context(req.period, req.variants)
        resolver.check(req, ctx)
        threshold = resolver.counted(req, ctx)
        if threshold is None:
            raise RulesError("count", "this roll reads each die's face: tap each die as it fell")
        return faces_of_count(threshold, count), threshold

    # The exact odds are a pure function of the request without its dice (evaluate() is pure and never reads
    # req.dice), and at the table the same few questions are asked again and again: each is enumerated once.
    @functools.lru_cache(maxsize=4096)  # noqa: B019 (rule sets live as long as the process)
    def _odds(self, resolver_id: str, request_json: str) -> Mapping[str, Fraction]:
        resolver = self._resolvers[resolver_id]()
        req = resolver.Request.model_validate_json(request_json)
        probs = resolver.probabilities(req, self.context(req.period, req.variants))
        if sum(probs.values(), Fraction(0)) != 1:
            raise AssertionError(f"{self.id}/{resolver_id}: probabilities do not sum to 1")
        return probs

    def describe(self) -> RuleSetDescribed:
        return {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "periods": [{"id": p.id, "name": p.name, "source": p.source} for p in self.periods],
            "resolvers": [{"id": r.id, "summary": r.summary} for r in self._resolvers.values()],
            "datasets": [
                {"name": d.name, "summary": d.summary, "per_period": d.per_period}
                for d in self._datasets.values()
            ],
            "errata": [e.as_dict() for e in self._errata.values()],
        }


def validate_dice(given: Sequence[int], sides: Sequence[int]) -> tuple[int, ...]:
    if len(given) != len(sides):
        raise RulesError("dice", f"expected {len(sides)} dice (sides {list(sides)}), got {len(given)}")
    for i, (face, s) in enumerate(zip(given, sides, strict=True)):
        if not 1 <= face <= s:
            raise RulesError(f"dice.{i}", f"a D{s} shows 1 to {s}, got {face}", range(1, s + 1))
    return tuple(given)


def iter_errata(rulesets: Iterable[RuleSet]) -> Iterable[tuple[str, Erratum]]:
    for rs in rulesets:
        for e in rs.errata.values():
            yield rs.id, e


# Every registered rule set by its id: the registry's one store (rules.registry fills it and reads it), read
# by a game's play (rules.core.game) for the resolvers its rolls are worked out with.
REGISTERED: dict[str, RuleSet] = {}


def faces_of_count(threshold: Threshold, count: Count) -> tuple[int, ...]:
    """Faces that stand for a count (the lowest face reaching the number, the highest missing it; where a bonus
    lifts a die, one face it lifts, first, and misses it does not lift), so the resolver reads a count as it
    reads faces; a count the dice cannot show is refused naming its field."""
    if count.dice != threshold.dice:
        raise RulesError("count.dice", f"this roll is {threshold.dice} dice, not {count.dice}")
    can = threshold.faces_reaching
    if not 0 <= count.reached <= count.dice:
        raise RulesError("count.reached", f"between 0 and {count.dice} dice reach it, not {count.reached}")
    if can == 0 and count.reached:
        raise RulesError("count.reached", f"no die of {threshold.sides} sides reaches {threshold.reach}")
    if can == threshold.sides and count.reached != count.dice:
        raise RulesError("count.reached", f"every die reaches {threshold.reach}: {count.dice} of them")
    hit = max(1, threshold.reach)
    miss = min(threshold.sides, threshold.reach - 1)
    short = count.dice - count.reached
    if threshold.again:  # the first roll's faces, then the re-rolls' (the dice not re-rolled read as 1s)
        if count.again is None:
            raise RulesError(
                "count.again", "the dice reaching it are rolled again: say how many reached it again"
            )
        if not 0 <= count.again <= count.reached:
            raise RulesError(
                "count.again", f"between 0 and {count.reached} dice reach it again, not {count.again}"
            )
        rolled = (hit,) * count.reached + (miss,) * short
        return rolled + (hit,) * count.again + (miss,) * (count.reached - count.again) + (1,) * short
    if count.again is not None:
        raise RulesError("count.again", "no die of this roll is rolled again: say only how many reached it")
    if count.lifted:
        if not threshold.faces_lifted:
            raise RulesError(
                "count.lifted", "no bonus lifts a die of this roll: say only how many reached it"
            )
        if not short:
            raise RulesError("count.lifted", f"every die reached {threshold.reach}: none was left to lift")
        return (miss,) + (hit,) * count.reached + (miss,) * (short - 1)
    plain = threshold.lift - 1 if threshold.faces_lifted else miss  # a miss the bonus does not lift
    first = short if not threshold.first_only else 1 if not count.reached else 0  # the misses it could lift
    if first and plain < 1:
        raise RulesError(
            "count.lifted", f"the bonus lifts every die short of {threshold.reach}: one was lifted"
        )
    return (hit,) * count.reached + (plain,) * first + (miss,) * (short - first)
