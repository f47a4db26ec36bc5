"""A stand's card playing a roll entered as its count (issues 69 and 89), rendered by `app.pages.stand_play`: the
count to tap (how many of its dice reached the number), where a bonus lifts a die short of it the question whether
it did, where the dice reaching it are rolled again how many reached it again, each control carrying what it asks
next (`app.pages.stand_next`); and the words a recorded count says after its dice."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.pages.stand_next import PlayState, Tap
from rules.core.dice import Threshold

__all__ = [
    "CountView",
    "again_forced",
    "again_taps",
    "count_certain",
    "count_taps",
    "counted_more",
    "lift_taps",
    "lifted_forced",
]


@dataclass(frozen=True)
class CountView:
    """A roll whose rule counts the dice reaching a number, entered as that count: its `dice`, the number
    (`reach`), and how many reached it as tapped (`pressed`, None: not yet); where a bonus lifts a die short of
    it (issue 89: a 2mm heavy weapon's (+#)), the question whether one was (`lift`, the lowest face it lifts;
    `first_only`: the marked die's alone), its No and Yes (`lift_taps`, asked while the dice leave it open) and
    the answer tapped (`lifted`)."""

    dice: int
    reach: int
    pressed: int | None = None
    certain: bool = False  # every die reaches the number (or none can): nothing to ask, the Apply records it
    taps: tuple[Tap, ...] = ()  # each count's: the card with it, or (no target) the roll recorded with it
    lift: int = 0
    first_only: bool = False
    lift_taps: tuple[Tap, ...] = ()
    lifted: bool | None = None
    again_taps: tuple[Tap, ...] = ()  # where the dice reaching it are rolled again: each count of them again
    again: int | None = None

    @property
    def again_question(self) -> str:
        """The re-roll's question: "The 2 dice that reached it are rolled again: how many show 4 or more?"."""
        rolled = (
            "The die that reached it is"
            if self.pressed == 1
            else f"The {self.pressed} dice that reached it are"
        )
        return f"{rolled} rolled again: how many show {self.reach} or more?"

    @property
    def lift_question(self) -> str:
        """The bonus's question in the table's words: "Did one of the other dice show 3? The bonus lifts one to 4"."""
        low, high = max(1, self.lift), min(6, self.reach - 1)
        faces = str(low) if low == high else f"{low} to {high}"
        if self.first_only:
            return f"Did the marked die show {faces}? Its bonus lifts it to {self.reach}."
        dice = "one of the other dice" if self.pressed else "one of the dice"
        return f"Did {dice} show {faces}? The bonus lifts one to {self.reach}."


def counted_more(count: Mapping[str, Any]) -> str:
    """What a roll entered as its count adds where a bonus lifts a die short of its number or the dice reaching
    it are rolled again (issue 89), as its line says it after "2 of 3 dice reaching 4+": ", another lifted to it
    by the bonus", ", 1 of them again", else nothing."""
    lifted = ", another lifted to it by the bonus" if count.get("lifted") else ""
    return lifted + (f", {count['again']} of them again" if count.get("again") is not None else "")


def count_taps(state: PlayState, targeted: bool, count: int, counted: Mapping[str, Any]) -> tuple[Tap, ...]:
    """Each count a roll's dice may show, tapped: the card with it, or where the roll takes no target and the
    count is whole (no bonus's or re-roll's question left open), the roll of `count` dice recorded as that count."""
    taps: list[Tap] = []
    for k in range(counted["dice"] + 1):
        lifted = lifted_forced(counted, k, None)
        whole = not targeted and lifted is not None and again_forced(counted, k, None) in (None, 0)
        taps.append(
            ("apply", state.model_copy(update={"reached": k, "lifted": lifted}).body(count=count))
            if whole
            else state.ask(reached=k, lifted=None, dice=())
        )
    return tuple(taps)


def lift_taps(state: PlayState, targeted: bool, count: int) -> tuple[Tap, ...]:
    """The bonus's No and Yes: the card with it, or where the roll takes no target, the roll recorded."""
    return tuple(
        ("apply", state.model_copy(update={"lifted": b}).body(count=count))
        if not targeted
        else state.ask(lifted=b, dice=())
        for b in (False, True)
    )


def again_taps(state: PlayState, targeted: bool, count: int) -> tuple[Tap, ...]:
    """Each count of the dice rolled again (those that reached it) that reach it again: the card with it, or
    where the roll takes no target, the roll recorded."""
    return tuple(
        ("apply", state.model_copy(update={"again": j}).body(count=count))
        if not targeted
        else state.ask(again=j, dice=())
        for j in range((state.reached or 0) + 1)
    )


def again_forced(counted: Mapping[str, Any], reached: int, given: int | None) -> int | None:
    """How many of the dice rolled again reached it again, where nothing was rolled again (0 of none), else as
    `given` (None: still to ask, or no die of the roll is rolled again)."""
    return None if not counted.get("again") else 0 if reached == 0 else given


def lifted_forced(counted: Mapping[str, Any], reached: int, given: bool | None) -> bool | None:
    """Whether a bonus lifted a die short of the count's number, where the dice leave no choice (no bonus, every
    die reached, or no face short of it escapes the bonus), else as `given` (None: still to ask)."""
    t = Threshold(
        counted["dice"],
        counted["reach"],
        lift=counted.get("lift", 0),
        first_only=bool(counted.get("first_only")),
    )
    if not t.faces_lifted or reached >= t.dice:
        return False
    if max(1, t.lift) == 1 and (not t.first_only or reached == 0):  # every face short of it is lifted
        return True
    return given


def count_certain(counted: Mapping[str, int]) -> int | None:
    """The count a roll's dice cannot miss: all of them where every face reaches the number, none where no face
    can; None where the count is the dice's to tell."""
    t = Threshold(counted["dice"], counted["reach"])
    return t.dice if t.faces_reaching == t.sides else 0 if t.faces_reaching == 0 else None
