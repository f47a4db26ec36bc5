"""What a Flanders Fields game keeps on its board (its kit's `BOARD_KEYS`): the rolling barrages, the gas
clouds (on the table and gone) and the other fire arrived from the fire plans, each the plan item's data with
what the table made of it, as the rules write and read them (the plan item's other keys kept as written; the
app stores the board's lists as JSON, rules.flanders_fields.play.kit)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from rules.core.vocabulary import Side


class BarrageDanger(TypedDict):
    """A stand of the barrage's own side in the 6 cm behind it, and its chance of being hit."""

    unit: int
    distance_cm: float
    at_risk: float
    at_risk_exact: str


class Barrage(TypedDict):
    """A rolling barrage: its plan item, its side, its front line, its duration and halts as planned, the turns
    it has fired, the band it covers and the stands still to roll under it and in its danger zone."""

    item_id: int
    side: Side
    front_y: float
    duration_turns: int
    halts: list[int]
    turns_fired: int
    covers_y: NotRequired[list[float]]
    pending: NotRequired[list[int]]
    danger: NotRequired[list[BarrageDanger]]


class Passed(TypedDict):
    """The stand ids a cloud covers or passed over, fully and partly."""

    full: list[int]
    partial: list[int]


class Cloud(TypedDict):
    """A gas cloud: its plan item, side and gas, its centre on the table, the turns it has moved on the wind,
    the stands it passed over, whether it has sunk, and why it is gone (of a cloud gone)."""

    item_id: int
    side: Side
    center: list[float]
    gas: NotRequired[str]
    moves: NotRequired[int]
    passed: NotRequired[Passed]
    source: NotRequired[str]
    sunk: NotRequired[bool]
    why: NotRequired[str]


class Deviated(TypedDict):
    """A battery's fire deviating as it arrived: the dice, whether it deviates, by the clock and how far."""

    dice: list[int]
    deviates: bool
    clock: int | None
    distance_cm: float


class Fire(TypedDict):
    """Fire arrived from a fire plan other than gas and barrages: its plan item, the turn it arrived, the point
    it was aimed at (table cm) and where it lands after any deviation."""

    item_id: int
    side: Side
    kind: str
    turn: int
    point: NotRequired[list[float]]
    lands: NotRequired[list[float]]
    deviation: NotRequired[Deviated]
    turns: NotRequired[int]
    battery: NotRequired[str]
