"""What a player (or the referee) does to a game, as typed records: every act on a game is one of these, played
through one service call (app.services.acts.play) and one call of the rule set (`GameRules.play`), which
answers what the act changes and what everyone is shown, or refuses it with its rule (a RulesError).

Each act names the event that logs it (`event`) and the act of the rules of play it is (`action`, asked of
the turn before it is played; "" when the turn does not restrict it). `override`: the referee does it anyway,
and the log shows it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.core.dice import Count
from rules.core.records import PlanItem


@dataclass(frozen=True, kw_only=True)
class Act:
    """One act on a game."""

    override: bool = False
    event: ClassVar[str] = ""
    action: ClassVar[str] = ""


# -- the force tree ------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class AddUnit(Act):
    """A unit added by hand to `side`'s force tree (`fields`: the unit's own, as the API takes them)."""

    side: str
    fields: Mapping[str, Any]
    event: ClassVar[str] = "unit-added"
    action: ClassVar[str] = "build-forces"


@dataclass(frozen=True, kw_only=True)
class BuildForce(Act):
    """A force built for `side` from an organisation-table entry, or a formation of the rule set's chart of troops
    (an entry with `sub_units`: rules.core.forces)."""

    side: str
    entry: Mapping[str, Any]
    event: ClassVar[str] = "force-added"
    action: ClassVar[str] = "build-forces"


@dataclass(frozen=True, kw_only=True)
class EditUnit(Act):
    """A unit's state set by hand over its `version` (each field the act of the rules of play its rule set
    names: rules.core.game.edit_act)."""

    unit_id: int
    version: int
    values: Mapping[str, Any]
    event: ClassVar[str] = "unit-update"


# -- the table -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class MoveStand(Act):
    """A stand placed or moved to (x, y) cm facing `facing_deg`, over its `version` when given."""

    unit_id: int
    x: float
    y: float
    facing_deg: float
    version: int | None = None
    event: ClassVar[str] = "move"
    action: ClassVar[str] = "move-stands"


@dataclass(frozen=True, kw_only=True)
class MoveFormation(Act):
    """A unit's stands on the table shifted by (dx, dy) cm and turned `turn_deg` about their centre."""

    unit_id: int
    dx: float
    dy: float
    turn_deg: float = 0.0
    event: ClassVar[str] = "move"
    action: ClassVar[str] = "move-stands"


@dataclass(frozen=True, kw_only=True)
class PlaceMarker(Act):
    """A marker placed on a unit by hand (`cause`: what placed it, where the rules care)."""

    unit_id: int
    cause: str | None = None
    count: int = 1
    event: ClassVar[str] = "marker"
    action: ClassVar[str] = "place-markers"


@dataclass(frozen=True, kw_only=True)
class RecoverMarker(Act):
    """A marker taken off a unit by hand, spending what it costs when `spend_action`."""

    unit_id: int
    spend_action: bool = True
    event: ClassVar[str] = "marker"
    action: ClassVar[str] = "recover-markers"


@dataclass(frozen=True, kw_only=True)
class LayTemplate(Act):
    """A template laid on the table for `side` (None: the viewer's own)."""

    kind: str
    side: str | None
    x: float
    y: float
    rotation: float
    event: ClassVar[str] = "template-placed"
    action: ClassVar[str] = "lay-templates"


@dataclass(frozen=True, kw_only=True)
class MoveTemplate(Act):
    """A template on the table moved or turned (None: as it was), over its `version` when given."""

    template_id: int
    x: float | None = None
    y: float | None = None
    rotation: float | None = None
    version: int | None = None
    event: ClassVar[str] = "template-moved"
    action: ClassVar[str] = "lay-templates"


@dataclass(frozen=True, kw_only=True)
class RemoveTemplate(Act):
    """A template taken off the table."""

    template_id: int
    event: ClassVar[str] = "template-removed"
    action: ClassVar[str] = "lay-templates"


# -- rolls, fire, cards and the turn -------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Roll(Act):
    """A resolver rolled in the game (an order roll, a shot, an assault, a morale test, a draw ...): the
    fields given (the game fills the rest), the dice (None: the server rolls) or, for a roll whose rule counts
    the dice reaching a number, their `count`, the units it is for, and whether its result is applied."""

    resolver: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    dice: Sequence[int] | None = None
    count: Count | None = None
    unit_id: int | None = None
    target_id: int | None = None
    apply: bool = True
    # A secret draw made at the table from the players' own pack (RollTerms.drawn_at_table): the cards drawn,
    # which the game draws from its pack in their stead (their places in it are the dice).
    cards: Sequence[str] = ()
    event: ClassVar[str] = "roll"


@dataclass(frozen=True, kw_only=True)
class ApplyArrival(Act):
    """An arrived fire-plan item's card applied (`dice` by each roll's key, the rest rolled by the server;
    `measured`: stands too close to call, as measured at the table; `shots`: on a card that leaves its shots
    to its side, the shots laid on each roll)."""

    item_id: int
    dice: Mapping[str, Sequence[int]] = field(default_factory=dict)
    measured: Mapping[str, str] = field(default_factory=dict)
    shots: Mapping[str, int] = field(default_factory=dict)
    # How the cards name the stands (the game's names for them): given by the app, which alone knows them.
    names: Mapping[int, str] = field(default_factory=dict)
    event: ClassVar[str] = "arrival-fire"


@dataclass(frozen=True, kw_only=True)
class ArriveItem(Act):
    """A fire-plan item reaching the table as its turn or step starts (the turn moving on plays it): its dice
    (None: rolled as the rules ask, a deviation, the wind), the dice of a roll made for it (`roll_dice`; None:
    the rule set's roller) and how the plan may name the stands (`names`)."""

    item: PlanItem
    dice: Sequence[int] | None = None
    roll_dice: Sequence[int] | None = None
    names: Mapping[int, str] = field(default_factory=dict)
    event: ClassVar[str] = "fire-plan-arrival"


@dataclass(frozen=True, kw_only=True)
class PlanFire(Act):
    """An item of `kind` written into `side`'s fire plan (its nation: `nation`, "" when the game names none),
    refused when the rules do not let the side plan it."""

    side: str
    kind: str
    nation: str = ""
    action: ClassVar[str] = "plan-fire"


@dataclass(frozen=True, kw_only=True)
class RehearsePlan(Act):
    """`side`'s own fire plan (`items`) rehearsed against the other side's stands as they stand now, nothing
    written (`names`: how the answer names the stands; `options`: the request's own choices; `turns`, `seed` and
    `samples` as the rehearsal takes them). The answer shows the rehearsal's body."""

    side: str
    items: Sequence[Mapping[str, Any]]
    names: Mapping[int, str] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    turns: int | None = None
    seed: int = 0
    samples: int = 0


@dataclass(frozen=True, kw_only=True)
class TakeBackDraw(Act):
    """A secret draw taken back (its event undone by the referee): `payload` the draw as the referee reads it."""

    resolver: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class PlayCard(Act):
    """A card played from `side`'s hand."""

    side: str
    card: str
    event: ClassVar[str] = "card-played"


@dataclass(frozen=True, kw_only=True)
class AdvanceTurn(Act):
    """The turn moved on a step (from set-up: the game started), over the game's `version`."""

    version: int
    event: ClassVar[str] = "step"


# -- the game clock (rules.core.clock): the referee's alone ----------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class PauseClock(Act):
    """The game clock stopped for every side until the referee resumes it (`dispute`: stopped for a dispute,
    by the referee or, where the clock's settings allow it, by a player calling the referee)."""

    dispute: bool = False
    event: ClassVar[str] = "clock-paused"


@dataclass(frozen=True, kw_only=True)
class ResumeClock(Act):
    """The game clock running again for the sides whose step it is."""

    event: ClassVar[str] = "clock-resumed"


@dataclass(frozen=True, kw_only=True)
class GiveTime(Act):
    """`seconds` given back to `side`'s clock (in the game and in the turn it is given)."""

    side: str
    seconds: int
    event: ClassVar[str] = "clock-time-given"


@dataclass(frozen=True, kw_only=True)
class SetClockLimits(Act):
    """The clock as the referee sets it from now on (rules.core.clock.Limits): each side's seconds for the game
    and for each turn (a side not named, or None: no limit), and the rules tournaments add."""

    game_seconds: Mapping[str, int | None] = field(default_factory=dict)
    turn_seconds: Mapping[str, int | None] = field(default_factory=dict)
    dispute_pause: bool = False
    finish_act: bool = False
    end_under_seconds: int | None = None
    event: ClassVar[str] = "clock-limits-set"


# -- how a game is won ---------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CallObjective(Act):
    """The referee's call on an objective (contested: a stand within 1 cm of its edge): `side` holds it, or
    None, nobody, until the stands' holding of it changes (rules.core.score)."""

    objective_id: str
    side: str | None
    # A side's secret objective's name, as the app keeps it apart (never on the board): the app completes the act
    # with it once it has found the objective secret (issue 89: a secret one contested could never be called, so
    # the game could not end); its call, in every seat's log, reveals it.
    secret: str | None = None
    event: ClassVar[str] = "objective-called"


@dataclass(frozen=True, kw_only=True)
class EndGame(Act):
    """The game ended, over the game's `version`: by the referee, or as its scenario's last turn ends
        (`reason`: "referee", "last-turn", "clock", "decided": its score named a winner at once, an instant win, or
    "condition": the referee ended it on the scenario's victory condition `condition`, met); its
        result is the score as it then stands (rules.core.score)."""

    version: int
    reason: str = "referee"
    condition: int | None = None  # reason "condition": the scenario's victory condition met (its number)
    event: ClassVar[str] = "game-finished"
