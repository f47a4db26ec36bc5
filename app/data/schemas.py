"""Request and response models that more than one module uses: the JSON routes (app/routes) and the pages
(app/pages) validate the same bodies with the same limits, and no route module imports another."""

from __future__ import annotations

from types import UnionType
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, create_model

from app.data.bounded import Bool, DiceCounted, Die, Float, Id, Int, JsonObject, Key, Terrain, Variants
from app.data.models import FirePlanItem
from app.data.schemas_clock import ClockLimits
from app.data.written import AsWritten
from rules.core.dice import Count
from rules.core.kit import PlanKind
from rules.core.vocabulary import Side
from rules.registry import all_game_rules, all_rulesets

# -- path parameters --


CampaignId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Campaign id")]


DeviceId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Device id, from the device list")]


# -- joining a game or a campaign --


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=64)


# -- creating a game --


# The referee's override of the rules of play; the event logs it as such.
Override = Annotated[
    Bool,
    Field(
        description="Referee only: do it although the game's status or the current step of the turn sequence "
        "does not allow it (GET /turn lists what is allowed now); the event records the override."
    ),
]


class ForceIn(BaseModel):
    """A force built from an organisation table of the rule book (the dataset organisation-tables lists
    them, with each table's nation, periods and allowed qualities)."""

    model_config = ConfigDict(extra="forbid")

    side: Side
    table_id: str = Field(min_length=1, max_length=64, description="Organisation table id, e.g. gb-1914.")
    # The rule set refuses a quality the table does not allow, naming the ones it does.
    quality: str | None = Field(
        default=None, min_length=1, max_length=32, description="One the table allows; default the table's."
    )
    template: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Build only this named part of the table (its `templates` in the dataset "
        "organisation-tables, e.g. battalion); omit for the whole table.",
    )
    name: str | None = Field(default=None, min_length=1, max_length=200)
    override: Override = False


class SubUnitIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Key = Field(description="A row of the rule set's chart (GET /api/v1/rulesets/{id}/force-chart).")
    # The chart's own bound is checked by the rule set, naming the field.
    bases: Int = Field(ge=1, le=100, description="How many bases, all of its kind.")
    name: str | None = Field(default=None, min_length=1, max_length=200)


class FormationIn(BaseModel):
    """A formation built from the rule set's chart of troops (GET /api/v1/rulesets/{id}/force-chart): its
    sub-units, each of a number of bases of one kind, the formation graded with one of the chart's qualities."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=200)
    quality: Key | None = None
    sub_units: list[SubUnitIn] = Field(min_length=1, max_length=50)


class GameFormationIn(FormationIn):
    side: Side
    override: Override = False


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: str | None = Field(
        default=None,
        max_length=64,
        description="A shipped or imported scenario's id (GET /api/v1/scenarios), e.g. mons-1914.",
    )
    ruleset: str | None = Field(
        default=None,
        max_length=64,
        description="The rule set the game is played by: any played as a game (GET /api/v1/rulesets, "
        "`playable`); a scenario names its own; by default the first.",
    )
    name: str | None = Field(default=None, min_length=1, max_length=200)
    # The rule set refuses a period it does not know, naming the ones it does (GET /api/v1/rulesets).
    period: str | None = Field(
        default=None, min_length=1, max_length=32, description="e.g. early, mid, late."
    )
    attacker_nation: str = Field(default="", max_length=32)
    defender_nation: str = Field(default="", max_length=32)
    variants: Variants = Field(default_factory=dict)
    table_width_cm: Float | None = Field(default=None, gt=0, le=1000)
    table_length_cm: Float | None = Field(default=None, gt=0, le=1000)
    terrain: Terrain | None = Field(default=None, description="GeoJSON FeatureCollection.")
    forces: list[ForceIn] | None = Field(
        default=None,
        max_length=6,
        description="Forces built from the organisation tables and deployed at each side's base edge "
        "(not with a scenario, which brings its own).",
    )
    clock: ClockLimits | None = Field(
        default=None, description="The game clock's limits per side (minutes): for the game, for each turn."
    )


# -- resolving inside a game --


class CountIn(BaseModel):
    """Dice entered as the table counted them, for a roll whose rule counts the dice reaching a number: how
    many were rolled (the roll's pool) and how many reached it (the rules refuse a count the pool cannot show)."""

    model_config = ConfigDict(extra="forbid")

    dice: DiceCounted = Field(description="How many dice were rolled.")
    reached: DiceCounted = Field(description="How many reached the number.")
    lifted: Bool = Field(
        default=False,
        description="Where a bonus lifts one die short of the number (the count's `lift`): whether one was.",
    )
    again: DiceCounted | None = Field(
        default=None,
        description="Where the dice reaching the number are rolled again (the count's `again`): how many reached it again.",
    )


DiceBy = Literal["players", "firestep"]


class SideDiceIn(BaseModel):
    """A side's choice of whose dice its rolls are: its players' own, rolled at the table and entered, or
    firestep's, rolled by the app for each of its rolls."""

    model_config = ConfigDict(extra="forbid")

    dice: DiceBy


class SideDiceOut(BaseModel):
    """A side's dice as the game keeps them."""

    side: Side
    dice: DiceBy


class AskIn(BaseModel):
    """A roll asked of the table, nothing written: period and variants come from the game; the game's state
    fills the modifiers it knows (shown in `filled`); fields given here win."""

    model_config = ConfigDict(extra="forbid")

    fields: JsonObject = Field(default_factory=dict, description="The resolver's own request fields.")
    dice: list[Die] | None = Field(default=None, max_length=64, description="Omit to let the server roll.")
    count: CountIn | None = Field(
        default=None, description="In place of `dice`, where the roll counts the dice reaching a number."
    )
    unit_id: Id | None = Field(default=None, description="The unit acting or tested.")
    target_id: Id | None = Field(default=None, description="The stand shot at.")

    def counted(self) -> Count | None:
        """The count given as the rules read it (issues 69 and 89), or None: the dice's faces or the server's."""
        c = self.count
        return Count(c.dice, c.reached, c.lifted, c.again) if c is not None else None


def _as_answered(annotation: Any) -> tuple[Any, ...]:
    """The types a request field typed `annotation` answers as: its bounds and its choices left to the request,
    which was checked by them as it was asked (a Literal answered as its values' type, an Annotated as its type, a
    choice as each of its types, a list, a tuple or a map of them so too), a model as itself."""
    origin, args = get_origin(annotation), get_args(annotation)
    # A number as written: 10.0 stays 10.0 in a list of ints, 1 stays 1 in a pair of floats.
    if annotation in (int, float):
        return (int, float)
    if origin is Annotated:
        return _as_answered(args[0])
    if origin is Literal:
        return tuple(dict.fromkeys(type(a) for a in args))
    if origin in (Union, UnionType):
        return tuple(dict.fromkeys(t for a in args for t in _as_answered(a)))
    if origin in (list, dict, tuple):
        inner = tuple(a if a is Ellipsis else _one_of(_as_answered(a)) for a in args)
        return (origin[inner],)
    return (annotation,)


def _one_of(types: tuple[Any, ...]) -> Any:
    return types[0] if len(types) == 1 else Union[types]  # noqa: UP007 (a union built from the rule sets)


if TYPE_CHECKING:  # built from the rule sets' resolvers; type-checked as what it is read as
    RequestValue = Any
else:
    # What a field of a resolver's request holds, in any rule set (its Request's fields): a value the table
    # fills (FilledOut) or a request a card asks for (CardRollOut) carries.
    RequestValue = _one_of(
        tuple(
            dict.fromkeys(
                t
                for ruleset in all_rulesets()
                for resolver in ruleset.resolvers.values()
                for f in resolver.Request.model_fields.values()
                for t in _as_answered(f.annotation)
            )
        )
    )


class FilledOut(BaseModel):
    """One request field the table filled (rules.core.records.Filled): its value, why, and, when a player gave
    it over the table's (measured by the tape, judged by eye, or set by the referee), `given` with the
    table's own value beside it (`table`); the ask answer also names the rule (`source`)."""

    model_config = ConfigDict(extra="forbid")

    field: str
    value: RequestValue = Field(description="The request field's value.")
    why: str = Field(description='Why the table says so, or the claim in words ("by the tape: 5 cm; ...").')
    source: str | None = Field(default=None, description="The rule that lets the table say so (/ask only).")
    given: bool | None = Field(default=None, description="Given by a player over the table's value.")
    table: RequestValue = Field(default=None, description="The table's own value, beside a value given.")


class ResolveIn(AskIn):
    """A resolver call inside a game, recorded in its log (and applied, unless `apply` is false)."""

    apply: Bool = Field(default=True, description="Apply the result to markers and state.")
    override: Override = False


# -- devices (tokens) of a game or a campaign --


# -- fire plans --


# The kinds of plan item every rule set played as a game knows (rules.core.kit.TableKit.plan_kinds), told
# apart by `kind`; the game's rule set says which it allows (GameRules.play asked a PlanFire).
PLAN_KINDS: tuple[type[PlanKind], ...] = tuple(m for r in all_game_rules() for m in r.book.kit.plan_kinds)


class PlanItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    arrival_turn: Int = Field(
        ge=1,
        le=100,
        description="The turn at whose start the item arrives (a plan sealed each turn: the current turn, the "
        "item landing at its step of it).",
    )
    if TYPE_CHECKING:
        item: PlanKind
    else:
        item: Union[PLAN_KINDS] = Field(discriminator="kind")  # noqa: UP007 (a union built from the rule sets)


def _as_stored(annotation: Any) -> Any:
    """A plan kind's field type as an answer reads it back: its bounds left to the writes (an item is checked
    as it is written), and a number as stored, an int staying an int (a revealed item must hash as it was
    committed, rules.core.commitment)."""
    if get_origin(annotation) is Annotated:
        return _as_stored(get_args(annotation)[0])
    if get_origin(annotation) is list:
        return list[_as_stored(get_args(annotation)[0])]  # type: ignore[misc]
    return float | int if annotation is float else annotation


def _plan_fields() -> dict[str, Any]:
    """Every plan kind's fields but `kind`, in the kinds' order: a name two kinds type apart is either type,
    described as the first kind describes it."""
    types: dict[str, list[Any]] = {}
    described: dict[str, str | None] = {}
    for kind in PLAN_KINDS:
        for name, f in kind.model_fields.items():
            if name != "kind":
                seen = types.setdefault(name, [])
                if (tp := _as_stored(f.annotation)) not in seen:
                    seen.append(tp)
                described.setdefault(name, f.description)
    return {
        name: (Union[tuple(tps)], Field(default=None, description=described[name]))  # noqa: UP007 (built)
        for name, tps in types.items()
    }


class PlanDataFields(AsWritten):
    # A key an older version wrote is answered as it was stored.
    model_config = ConfigDict(extra="allow")


if TYPE_CHECKING:  # built from the rule sets' plan kinds; type-checked as its base
    PlanData = PlanDataFields
else:
    PlanData = create_model(
        "PlanData",
        __base__=PlanDataFields,
        __doc__="A plan item's terms: the fields of its kind (the rule sets' plan kinds, "
        "rules.core.kit.TableKit.plan_kinds) but `kind`, as they were written.",
        **_plan_fields(),
    )


class PlanItemBodyOut(BaseModel):
    """A plan item as its plan committed to it (app.services.fireplans.item_body)."""

    id: int
    side: str
    kind: str
    arrival_turn: int
    data: PlanData


class PlanItemOut(PlanItemBodyOut):
    arrived: bool


class PlanOut(BaseModel):
    side: str
    locked: bool
    commitment: str | None
    capacity: int = Field(description="The most items a plan holds: the leaves of its commitment tree.")
    how_to_check: str = Field(description="How to check an arrived item against the commitment.")
    turn: int | None = Field(
        default=None, description="A plan sealed each turn: the turn whose plan this is (else none)."
    )


def plan_item_out(i: FirePlanItem) -> PlanItemOut:
    return PlanItemOut(
        id=i.public_id, side=i.side, kind=i.kind, arrival_turn=i.arrival_turn, data=i.data, arrived=i.arrived
    )
