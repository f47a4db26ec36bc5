"""What an act on a game answers (`Played`, typed by the act) and how the act pipeline (app.services.acts)
carries an act checked against the request to its writing (`Todo`), with the kinds of act by what they answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from app.data.changes import LoggedChange
from app.data.models import Event, Unit
from app.services.kept_units import KeptUnits
from rules.core.acts import (
    Act,
    AddUnit,
    AdvanceTurn,
    ApplyArrival,
    BuildForce,
    CallObjective,
    EditUnit,
    EndGame,
    GiveTime,
    LayTemplate,
    MoveFormation,
    MoveStand,
    MoveTemplate,
    PauseClock,
    PlaceMarker,
    PlayCard,
    RecoverMarker,
    RemoveTemplate,
    ResumeClock,
    SetClockLimits,
)
from rules.core.game import Answer
from rules.core.records import UnitState

T = TypeVar("T")


@dataclass
class Played(Generic[T]):
    """A played act: the event that logs it (for a turn advanced, every event it logged), the changes as
    the log keeps them, and the act's own answer record (`T`, which `play` types by the act: a roll's
    ResolvedOut, the unit a unit's act wrote, a template's TemplateOut; None for an act answered by its event)."""

    event: Event
    changes: list[LoggedChange]
    answer: T
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Written:
    """What an act's writer answers once the rule set has: the payload its event logs (each act's own JSON),
    the changes as the log keeps them, and the act's answer before it is logged (a unit, a template, a roll's
    record; None for an act answered by its event)."""

    payload: dict[str, Any]
    changes: list[LoggedChange]
    answer: Any = None


@dataclass
class Todo(Generic[T]):
    """An act checked against the request: the rules of play to ask (action, unit, side), the units read,
    how its answer is written (payload for the log, changes, the act's answer record, private parts), and
    what follows once it is logged (the answer record, with what the event says)."""

    asks: list[tuple[str, Unit | UnitState | None, str | None]]
    units: list[Unit] | None
    write: Callable[[Answer], Written]
    in_step: bool = True
    private: dict[str, Any] | None = None
    logged: Callable[[Event, Any], T] | None = None
    # The act as the rule set plays it, completed with what only the app knows (how the game names its stands).
    act: Act | None = None
    # The game's units as the worker keeps them, where the act read them so (a roll): the pipeline plays on them.
    kept: KeptUnits | None = None


UnitActs = AddUnit | BuildForce | EditUnit | MoveStand | PlaceMarker | RecoverMarker
TemplateActs = LayTemplate | MoveTemplate | RemoveTemplate
EventActs = (
    MoveFormation | ApplyArrival | PlayCard | PauseClock | ResumeClock | GiveTime | SetClockLimits | CallObjective
    | EndGame | AdvanceTurn
)  # fmt: skip
