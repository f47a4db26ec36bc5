"""The JSON answers of the game's routes that several routes share or that a service builds (the turn, an
event, a roll asked, a stand's acts, arrived fire, a plan checked, a campaign's result, a scenario
document): one model per resource, so `/openapi.json` describes every answer. What a rule set adds of its own
(its table kit's values flat beside the game's, a resolver's result) stays open (`extra="allow"`); a key an
answer leaves out in some states is optional and the route answers with `response_model_exclude_unset`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from app.data.changes import LoggedChange, UnitValue
from app.data.schemas import FilledOut, PlanItemBodyOut, RequestValue
from app.data.schemas_score import GameScore
from app.data.written import AsWritten
from rules.core.kit import Drawn
from rules.registry import the_campaign

# A PDF answer as /openapi.json documents it: the bytes of the file.
PDF_CONTENT: dict[str, Any] = {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class GameNowOut(AsWritten):
    """Where the game stands (app.services.games.game_state), with its rule set's values flat beside (its
    table kit's), and its board; a live frame's adds what the map draws of the board."""

    model_config = ConfigDict(extra="allow")

    id: int
    version: int
    status: str
    turn: int
    side_to_move: str
    step: int
    # The rule set's own JSON (app.data.board_state): its things on the table are its records, kept whole.
    board: dict[str, Any] = Field(description="The board as stored: what its rule set keeps on the table.")
    board_drawn: list[Drawn] | None = Field(
        default=None, description="In a live frame: what the map draws of the board, as GET /state's."
    )


# -- events -------------------------------------------------------------------------------------------------
class EventOut(BaseModel):
    """An event of the game's log as this viewer reads it (its private parts merged in where it may)."""

    id: int
    turn: int
    side: str
    step: str
    kind: str
    actor: str
    visibility: str
    payload: dict[str, Any]
    reverses_id: int | None
    created_at: str


class LoggedEvent(TypedDict):
    """An event of the log as a viewer reads it (`event_dict`): the JSON of the answers' EventOut."""

    id: int
    turn: int
    side: str
    step: str
    kind: str
    actor: str
    visibility: str
    payload: dict[str, Any]  # each kind's own record, as its act logged it (with the viewer's private parts)
    reverses_id: int | None
    created_at: str


# -- the turn -----------------------------------------------------------------------------------------------
class PermitOut(BaseModel):
    action: str
    units: list[str]
    quote: str
    source: str


class StepNowOut(BaseModel):
    index: int
    number: int
    id: str
    title: str
    printed: str
    source: str


class SequenceStepOut(StepNowOut):
    """A step of the sequence: the step as the turn names it, with who it is for and what it permits."""

    attacker_only: bool
    permits: list[PermitOut]


class NextStartOut(BaseModel):
    """In set-up: advancing starts the game, once what it needs is done (each side's fire plan locked)."""

    action: Literal["start"]
    needs: list[str]
    source: str


_ENDS = "What the game's end waits for, where advancing ends it: each contested objective's call."


class NextAdvanceOut(BaseModel):
    """Advancing moves on to the turn's next step (its title "the game ends" where advancing ends the game)."""

    action: Literal["advance"]
    step: str
    title: str
    needs: list[str] | None = Field(default=None, description=_ENDS)


class NextTurnOut(BaseModel):
    turn: int
    side_to_move: str


class NextEndTurnOut(BaseModel):
    """Advancing ends the step's turn: `then`, whose turn it becomes; `title` "the game ends" where it ends the
    game instead."""

    action: Literal["end-turn"]
    then: NextTurnOut
    title: str | None = None
    needs: list[str] | None = Field(default=None, description=_ENDS)


NextOut = Annotated[NextStartOut | NextAdvanceOut | NextEndTurnOut, Field(discriminator="action")]


class GameTurnOut(_Open):
    """Where the game stands and what the current step needs; the rule set's values flat beside. `needs` and
    `resolvers` while a step is played; `next`: what advancing does (null once the game is over)."""

    status: str
    turn: int
    side_to_move: str
    version: int
    sequence: list[SequenceStepOut]
    source: str
    allowed_now: list[str] = Field(description="What the players may do to the table now.")
    step: StepNowOut | None
    next: NextOut | None
    needs: list[str] | None = None
    needs_cards: list[int | None] | None = Field(
        default=None, description="The stand whose card offers the act settling each of `needs` (null: none)."
    )
    resolvers: list[str] | None = None
    seats_start_and_end: bool = Field(
        default=False,
        description="At an event's table (its organiser, the referee, away from it): the two seats start and end "
        "the game, each saying it is ready (POST turn/advance in set-up, POST finish in play).",
    )
    ready: list[str] | None = Field(
        default=None,
        description="At an event's table: the sides whose seat has said it is ready to start (set-up) or to end "
        "(play) the game; a word to end lapses once anything is played after it.",
    )


class AdvancedOut(BaseModel):
    turn: GameTurnOut
    events: list[EventOut] = Field(description="What advancing did, as this viewer reads it.")


# -- a roll ---------------------------------------------------------------------------------------------------
class ModifierOut(BaseModel):
    label: str
    value: int
    source: str


class _Resolution(BaseModel):
    """A resolver's answer (rules.core.resolution.Resolution.as_dict). Resolver-specific fields (thresholds,
    notes, ...) are added."""

    model_config = ConfigDict(extra="allow")

    ruleset: str
    resolver: str
    period: str | None
    rolled_by_server: bool
    modifiers: list[ModifierOut]
    total: int | None
    outcome: Any
    outcome_key: str
    sources: list[str]
    variants: dict[str, str]


class ResolutionOut(_Resolution):
    """The answer to a resolve request. Resolver-specific fields (thresholds, notes, ...) are added."""

    dice: list[int]
    probabilities: dict[str, float]
    probabilities_exact: dict[str, str]


class RolledResolutionOut(_Resolution):
    """A roll's resolution in a game, as this viewer reads it: a secret draw's drawer is not told the dice, nor
    the odds of the pack it did not see."""

    dice: list[int] | None = None
    probabilities: dict[str, float] | None = None
    probabilities_exact: dict[str, str] | None = None


class OverriddenOut(BaseModel):
    """The referee's override logged with an act: by whom, and every rule of play it overrode, in words."""

    by: str
    refused: str


class RolledRequestOut(BaseModel):
    """The request a roll in a game was resolved on (its resolver's own model, rules.core.ruleset.ResolveRequest
    and the fields it adds), as this viewer reads it: a secret draw's drawer is not told its dice."""

    model_config = ConfigDict(extra="allow")

    period: str | None
    dice: list[int] | None = None
    variants: dict[str, str]


class ResolvedOut(BaseModel):
    """A roll played and logged (rules.core.rolls.Rolled.logged, as its roller reads it: a secret draw's other
    cards and the pack left out for its drawer), with what it did in words (app.services.resolve.in_words, not
    for a draw): the act pipeline's answer to a Roll (app.services.acts.play)."""

    model_config = ConfigDict(extra="allow")

    event_id: int
    resolver: str
    unit_id: int | None
    target_id: int | None
    request: RolledRequestOut = Field(description="The resolver's request as it was rolled.")
    filled: list[FilledOut]
    resolution: RolledResolutionOut
    applied: bool
    changes: list[LoggedChange] = Field(description="What it changed, as the log keeps it (none unapplied).")
    override: OverriddenOut | None = None
    outcome_words: str | None = None
    odds_words: dict[str, str] | None = Field(
        default=None, description='Each outcome\'s exact chance in words: "1 in 216".'
    )
    said: list[str] | None = Field(default=None, description="What it did to whom, a sentence each.")


# -- a stand's card -----------------------------------------------------------------------------------------
class RefusedOut(BaseModel):
    """What the rules of play refuse now, in one sentence, with the rule in full and its printed line."""

    detail: str
    why: str | None
    source: str | None


class EffectOut(BaseModel):
    """What a roll would change, as the card words it (app.services.resolve: a rule's change record): whose
    field moves by how much (`delta`) or to what (`value`), why and by which rule; a change of the board or a
    side names no unit or field."""

    reason: str
    source: str
    unit_id: int | None = None
    field: str | None = None
    delta: int | None = None
    value: UnitValue = Field(default=None, description="What the unit's field is set to (a set, not a move).")


class CountedOut(BaseModel):
    """A roll whose rule counts its dice reaching a number: how many dice, and the number; where a bonus lifts
    one die short of it, the lowest face it lifts (`lift`, 0: no bonus) and whether only the first die's; whether
    the dice reaching it are rolled again (`again`)."""

    dice: int
    reach: int
    lift: int = 0
    first_only: bool = False
    again: bool = False


class AskedOut(BaseModel):
    """A roll worked out against the table, nothing written (app.services.resolve.ask)."""

    model_config = ConfigDict(extra="allow")

    resolver: str
    unit_id: int | None
    target_id: int | None
    filled: list[FilledOut] = Field(description="What the table fills, each with its rule.")
    resolution: ResolutionOut
    effects: list[EffectOut] = Field(description="What it would do to whom, a change each.")
    outcome_words: str | None
    odds_words: dict[str, str] = Field(description='Each outcome\'s exact chance in words: "1 in 216".')
    said: list[str]
    refused: RefusedOut | None
    counted: CountedOut | None = Field(
        default=None,
        description="Where the roll counts the dice reaching a number: `count` may replace `dice`.",
    )


class CardRefusedOut(RefusedOut):
    """A refusal as a stand's card greys an act with it, with the act that lifts it (`remedy`, or "")."""

    remedy: str


class CardOfferOut(BaseModel):
    """One act of a stand's card, with the pipeline's refusal (null: it would be accepted now)."""

    kind: str
    key: str
    label: str
    unit_id: int | None
    refused: CardRefusedOut | None
    values: dict[str, str | int | bool | None] = Field(
        default={}, description="A move's result set with the place the player names (a retreat), else none."
    )


class StandActOut(BaseModel):
    """A roll a stand's card offers (rules.core.records.StandAct): the button's words, the resolver, the unit
    that rolls, why, whether it takes a target, its dice, its order and who joins it, and the request's fields
    the player chooses on the card before the die."""

    label: str
    resolver: str
    unit_id: int
    why: str
    target: bool
    dice: int
    pool: bool
    order: str
    joined: str
    on_enemy: bool
    options: list[str]


class EditChoiceOut(BaseModel):
    """A value a card's edit may set (rules.core.records.EditChoice), and the field of a stand tapped on the map
    it fills (`target`), needed or left to the player."""

    value: bool | int | str = Field(description="The value the edit sets: a flag, a count or a word.")
    label: str
    target: str
    needs_target: bool


class StandEditOut(BaseModel):
    """A unit edit a stand's card offers (rules.core.records.StandEdit), with the values the rules allow now."""

    label: str
    field: str
    unit_id: int
    why: str
    choices: list[EditChoiceOut]


class StandActsOut(BaseModel):
    acts: list[StandActOut] = Field(description="The rolls the card offers this device now.")
    edits: list[StandEditOut] = Field(description="The unit edits it offers now, each with its values.")
    refused: CardRefusedOut | None = Field(description="When nothing is offered: why, in one sentence.")
    offers: list[CardOfferOut] = Field(
        description="Every act of the stand, the remedies of its refusals first."
    )
    first: str = Field(description='"edits" or "acts" when a remedy is offered first, else "".')


class TargetMarkOut(BaseModel):
    unit_id: int
    mark: str = Field(description='The reason in a few words: "out of range".')
    refused: str
    why: str
    source: str | None


# -- fire plans -----------------------------------------------------------------------------------------------
class CardRollOut(BaseModel):
    """A roll an arrival card asks for (rules.core.fire_cards.CardRoll): the key its dice are given under, the
    resolver and its request as the game fills it, its dice, how many times, the exact odds; a stand's roll
    names the stand and where it is under the fire (`measured`: as the players measured one too close)."""

    key: str
    resolver: str
    request: dict[str, RequestValue] = Field(description="The resolver's request as the game fills it.")
    filled: list[FilledOut]
    dice: list[int]
    times: int
    probabilities_exact: dict[str, str]
    odds_words: dict[str, str]
    unit_id: int | None = None
    name: str | None = None
    under: str | None = None
    measured: str | None = None


class CardAppliedOut(BaseModel):
    """The event that applied a card this turn: its effect, in words what it did, and the dice rolled."""

    event_id: int
    effect: str
    said: list[str]
    dice: list[int]


class DeviationOut(AsWritten):
    """An aiming point's deviation rolled as its item arrived (the deviation resolver's outcome, with its
    dice); none rolled: no key."""

    model_config = ConfigDict(extra="allow")

    dice: list[int] | None = None
    deviates: bool | None = None
    clock: int | None = Field(default=None, description="The clock hour it deviates towards (12: ahead).")
    distance_cm: int | None = None


class FireCardOut(BaseModel):
    """An arrived item that fires this turn (rules.core.fire_cards.FireCard), with the event that applied it
    this turn (`applied`, null while it waits)."""

    item_id: int
    side: str
    kind: str
    what: str
    source: str
    aimed: list[float]
    lands: list[float]
    polygon: list[list[float]]
    deviation: DeviationOut = Field(description="Its aiming point's deviation as it arrived (none: {}).")
    first: CardRollOut | None = Field(description="The roll that decides whether and how often it fires.")
    stands: dict[str, list[CardRollOut]] = Field(description="The stands' rolls by where they are under it.")
    notes: list[str]
    shots: int
    applied: CardAppliedOut | None


class ArrivalsOut(BaseModel):
    turn: int
    side_to_move: str
    cards: list[FireCardOut] = Field(description="The turn's arrived items, a card each.")


class ArrivalAppliedOut(ArrivalsOut):
    event: EventOut


class PlanEditOut(BaseModel):
    action: str
    item: PlanItemBodyOut
    at: str


class PlanItemRevealedOut(BaseModel):
    """An item with its salt and the hashes on its way to the plan's root."""

    item: PlanItemBodyOut
    salt: str
    leaf: str
    slot: int | None
    path: list[str]
    commitment: str | None
    verified: bool
    how_to_check: str
    arrived: bool


class PlanCheckedOut(BaseModel):
    """One plan under its lock, its commitment recomputed (a plan sealed each turn: one per sealed turn)."""

    turn: int | None = None
    side: str | None = None
    locked: bool
    commitment: str | None
    recomputed: str | None
    verified: bool
    capacity: int
    padding_salt: str | None
    items: list[PlanItemRevealedOut]
    how_to_check: str


class PlanVerifiedOut(BaseModel):
    """The whole plan checked: one lock, or (a plan sealed each turn) `turns`, each sealed turn's."""

    side: str
    verified: bool
    capacity: int
    how_to_check: str
    turns: list[PlanCheckedOut] | None = None
    locked: bool | None = None
    commitment: str | None = None
    recomputed: str | None = None
    padding_salt: str | None = None
    items: list[PlanItemRevealedOut] | None = None


class RehearsalOut(_Open):
    """A rehearsal as the game's rule set answers it (Flanders Fields: per enemy stand and turn, the chances of
    0, 1, 2 suppression markers and of being destroyed)."""

    game: int


# -- campaigns --------------------------------------------------------------------------------------------------
# A rule set's campaign as the answers carry it: its state, one legal action, one event and one action taken, each
# the type its campaign declares (rules.core.campaign.Campaign: `state`, `legal_action`, `event`, `action`), read
# through the registry.
if TYPE_CHECKING:  # the rule set's own types; to the type checker, a model and values of any shape
    CampaignState = BaseModel
    LegalAction = object
    CampaignEvent = object
    CampaignAction = BaseModel
else:
    CampaignState = the_campaign().state
    LegalAction = the_campaign().legal_action
    CampaignEvent = the_campaign().event
    CampaignAction = the_campaign().action


class CampaignResultOut(BaseModel):
    final: bool
    turn: int
    points: dict[str, int]
    captured_troops: dict[str, int]
    outcome_key: str
    outcome: str
    margin: int


class Snapshot(BaseModel):
    """A campaign as a client needs it to act (app.services.campaign_store.snapshot): its version, its state,
    what may be done next and the score."""

    id: int
    name: str
    version: int = Field(description="Send it back with the next write.")
    state: CampaignState = Field(description="The state as the rule set's campaign declares it.")
    legal_actions: list[LegalAction] = Field(description="What may be done next; `dice` says how many.")
    result: CampaignResultOut


# -- scenarios --------------------------------------------------------------------------------------------------
class ScenarioDocumentOut(_Open):
    """A scenario document as it was imported or shipped (docs/scenario-format.md): its keys as stored."""

    format: str
    id: str
    title: str
    ruleset: str | None = None
    period: str | None = None


# -- rule sets ------------------------------------------------------------------------------------------------
class FormationUnitOut(BaseModel):
    """A built formation as a scenario document writes its units."""

    id: str
    name: str
    level: str
    kind: str
    base: str | None
    quality: str | None
    source: str
    children: list[FormationUnitOut]


class ChartKindOut(BaseModel):
    id: str
    name: str
    what: str


class ForceChartOut(BaseModel):
    """What a force is built from: the rule set's chart, its words for the three levels and its bounds."""

    title: str
    words: dict[str, str]
    kinds: list[ChartKindOut]
    qualities: list[str]
    default_quality: str | None
    most_sub_units: int
    most_bases: int
    source: str


class ObjectiveCalledOut(BaseModel):
    """The referee's call recorded: its event and the score after it."""

    event: EventOut
    score: GameScore
