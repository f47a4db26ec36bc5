"""Flanders Fields' words for what happens on the table, each one of the core's generic changes
(rules.core.game): the app writes them without knowing these names. The state a Flanders Fields unit carries
is `STATE_FIELDS`, the one list of it (the stand card)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from rules.core.records import AddToState, SetBoard, SetSideState, SetState, StateField
from rules.flanders_fields.play.board_items import Barrage

# The stand card: markers and flags the rules read and the board shows.
STATE_FIELDS: tuple[StateField, ...] = (
    StateField(
        "suppression",
        "Suppression",
        0,
        counter=True,
        maximum=3,
        filter="Suppressed",
        words=("suppression marker", "suppression markers"),
    ),
    StateField(
        "actions_left",
        "Actions left",
        0,
        counter=True,
        maximum=12,
        words=("action", "actions"),
        spent="spent",
    ),
    # The game turn of a unit's order roll ("he may not return to order the same unit later on in the turn"),
    # and the action it is carrying out (game_orders: a company's stands move or fire together for one).
    StateField("ordered_turn", "Ordered in turn", 0, shown=False),
    # A command stand, ordered by no roll, carries its moves this turn there ("may move twice", MOVE COMMAND
    # STANDS): {"act": "command-move", "turn": n, "moves": k}.
    StateField("action_under_way", "Action under way", None, shown=False),
    StateField(
        "stuck_on_wire",
        "Stuck on wire",
        badge="WIRE",
        filter="On wire",
        edit="flag",
        words=("stuck on the wire", "off the wire"),
    ),
    StateField(
        "deep_shelter", "In deep shelter", edit="flag", words=("in deep shelter", "out of deep shelter")
    ),
    StateField("in_gas", "In gas", badge="GAS", edit="flag", words=("in gas", "out of the gas")),
    StateField(
        "morale_due",
        "Morale test due",
        badge="MORALE TEST DUE",
        filter="Morale due",
        words=("must test morale", "has tested its morale"),
        on_head=True,
        on_turn=True,
    ),
    StateField("raw_under_fire", "Raw under fire", edit="flag"),
    StateField("limbered", "Limbered", edit="flag", words=("limbered", "unlimbered")),
    # Machine guns and light mortars "on mule/horse packs" (MOVEMENT): packed to move, unpacked to fire.
    StateField("packed", "On packs", edit="flag", words=("packed on its animals", "unpacked")),
    StateField("mutiny", "Mutiny", edit="flag", words=("mutinied", "mutiny over")),
    StateField(
        "crew_abandoned",
        "Crew abandoned",
        edit="flag",
        words=("crew abandoned the gun", "crew back at the gun"),
    ),
    StateField("field_promotion", "Field promotion", shown=False, edit="flag"),
    StateField("morale_stage", "Morale tests taken", 0, maximum=2, shown=False, on_head=True),
    # A formation a scenario starts off the table as reinforcements: the turn it is first diced for (0: none)
    # and the last turn it was diced for (SPECIMEN GAMES: "Reinforcements arrive ... if a 6 is rolled").
    StateField("reinforcement_turn", "Diced for from turn", 0, shown=False, maximum=100, on_turn=True),
    StateField("reinforcement_diced", "Last diced for on turn", 0, shown=False, maximum=100, on_turn=True),
    # Where a battery is aimed: its side's secret until it fires there (ARTILLERY AIMING POINT).
    StateField("aiming_point", "Aiming point", None, secret=True, shown=False, edit="point"),
)


class UnderWay(TypedDict, total=False):
    """The action a unit is carrying out: an ordered unit's ("move" or "fire", its `stands`), or a command
    stand's moves this turn ("command-move", its `turn` and `moves`)."""

    act: str
    stands: list[int]
    turn: int
    moves: int


class FlandersFieldsUnitState(BaseModel):
    """A Flanders Fields unit's state, one field per STATE_FIELDS entry at its default."""

    model_config = ConfigDict(frozen=True)

    suppression: int = 0
    actions_left: int = 0
    ordered_turn: int = 0
    action_under_way: UnderWay | None = None
    stuck_on_wire: bool = False
    deep_shelter: bool = False
    in_gas: bool = False
    morale_due: bool = False
    raw_under_fire: bool = False
    limbered: bool = False
    packed: bool = False
    mutiny: bool = False
    crew_abandoned: bool = False
    field_promotion: bool = False
    morale_stage: int = 0
    reinforcement_turn: int = 0
    reinforcement_diced: int = 0
    aiming_point: tuple[float, float] | None = None


# The side state that keeps a side's random-event cards.
HAND_KEY = "event-hand"


def _init(self: Any, **values: Any) -> None:
    for k, v in values.items():
        object.__setattr__(self, k, v)


@dataclass(frozen=True, init=False)
class SuppressionAdded(AddToState):
    """`count` suppression markers placed on a stand by `fire` (None when the fire type is not known)."""

    fire: str | None = None

    def __init__(self, reason: str, source: str, unit_id: int, count: int, fire: str | None = None):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="suppression", delta=count, gone="")
        _init(self, fire=fire)

    @property
    def count(self) -> int:
        return self.delta


@dataclass(frozen=True, init=False)
class SuppressionRecovered(AddToState):
    """One marker removed by an action."""

    def __init__(self, reason: str, source: str, unit_id: int):
        gone = "the marker was removed meanwhile"
        _init(self, reason=reason, source=source, unit_id=unit_id, field="suppression", delta=-1, gone=gone)


@dataclass(frozen=True, init=False)
class ActionSpent(AddToState):
    def __init__(self, reason: str, source: str, unit_id: int):
        gone = "the action was spent meanwhile"
        _init(self, reason=reason, source=source, unit_id=unit_id, field="actions_left", delta=-1, gone=gone)


class _Fixed(SetState):
    """A Flanders Fields name for setting one field to one value (the class's FIELD and VALUE)."""

    FIELD: ClassVar[str]
    VALUE: ClassVar[Any]

    def __init__(self, reason: str, source: str, unit_id: int):
        _init(self, reason=reason, source=source, unit_id=unit_id, field=self.FIELD, value=self.VALUE)


class SuppressionCleared(_Fixed):
    """Every marker removed at once (a stand that recovers on its own)."""

    FIELD, VALUE = "suppression", 0


class BecameSuppressed(_Fixed):
    """A stand without markers becomes suppressed (one marker)."""

    FIELD, VALUE = "suppression", 1


class ActionsLapsed(_Fixed):
    FIELD, VALUE = "actions_left", 0


@dataclass(frozen=True, init=False)
class ActionUnderWay(SetState):
    """The action a unit is carrying out (`under`: {"act": "move" or "fire", "stands": [ids]}), None when none
    is: the next act of its stands spends a new one."""

    def __init__(self, reason: str, source: str, unit_id: int, under: UnderWay | None):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="action_under_way", value=under)


@dataclass(frozen=True, init=False)
class CommandMoved(SetState):
    """A command stand has made its `moves`th move of game turn `turn` (kept as what it is carrying out: the
    end of its side's turn clears it with the actions under way)."""

    def __init__(self, reason: str, source: str, unit_id: int, turn: int, moves: int):
        made: UnderWay = {"act": "command-move", "turn": turn, "moves": moves}
        _init(self, reason=reason, source=source, unit_id=unit_id, field="action_under_way", value=made)


@dataclass(frozen=True, init=False)
class Ordered(SetState):
    """A unit has had its order roll in game turn `turn`."""

    def __init__(self, reason: str, source: str, unit_id: int, turn: int):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="ordered_turn", value=turn)


class UnitKilled(_Fixed):
    FIELD, VALUE = "killed", True


class MoraleDue(_Fixed):
    """A unit must test its morale."""

    FIELD, VALUE = "morale_due", True


class MoraleTested(_Fixed):
    """A battalion has tested its morale: no test is due now."""

    FIELD, VALUE = "morale_due", False


class CrewAbandoned(_Fixed):
    FIELD, VALUE = "crew_abandoned", True


class CameOnTable(_Fixed):
    """Reinforcements arrived: on the table, for their player to place."""

    FIELD, VALUE = "off_table", False


@dataclass(frozen=True, init=False)
class ReinforcementsDiced(SetState):
    """Reinforcements diced for this turn (once a turn)."""

    def __init__(self, reason: str, source: str, unit_id: int, turn: int):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="reinforcement_diced", value=turn)


class CameUnderFire(_Fixed):
    """Raw troops have now been fired on."""

    FIELD, VALUE = "raw_under_fire", True


@dataclass(frozen=True, init=False)
class ActionsGranted(SetState):
    """An order roll's actions (0 on a failure)."""

    def __init__(self, reason: str, source: str, unit_id: int, actions: int):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="actions_left", value=actions)

    @property
    def actions(self) -> int:
        return int(self.value)


@dataclass(frozen=True, init=False)
class GasMarked(SetState):
    """A stand is now (or no longer) in a gas cloud."""

    def __init__(self, reason: str, source: str, unit_id: int, in_gas: bool):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="in_gas", value=in_gas)

    @property
    def in_gas(self) -> bool:
        return bool(self.value)


@dataclass(frozen=True, init=False)
class MoraleStage(SetState):
    """A battalion has now taken its `stage`th morale test (1 after the 50% test, 2 after the 75% test)."""

    def __init__(self, reason: str, source: str, unit_id: int, stage: int):
        _init(self, reason=reason, source=source, unit_id=unit_id, field="morale_stage", value=stage)


@dataclass(frozen=True, init=False)
class DeepSuppressionSet(SetBoard):
    def __init__(self, reason: str, source: str, penalty: int):
        _init(self, reason=reason, source=source, key="deep_suppression", value=penalty)

    @property
    def penalty(self) -> int:
        return int(self.value)


@dataclass(frozen=True, init=False)
class BarragesRolled(SetBoard):
    """A stand has had its roll under the barrages: the board's barrages as they now read."""

    unit_id: int = 0

    def __init__(self, reason: str, source: str, unit_id: int, barrages: tuple[Barrage, ...]):
        _init(self, reason=reason, source=source, key="barrages", value=tuple(barrages), unit_id=unit_id)

    @property
    def barrages(self) -> tuple[Barrage, ...]:
        return tuple(self.value)


def hand_set(reason: str, source: str, side: str, hand: tuple[str, ...]) -> SetSideState:
    """A side's random-event hand as it now reads."""
    return SetSideState(reason, source, side, HAND_KEY, list(hand))
