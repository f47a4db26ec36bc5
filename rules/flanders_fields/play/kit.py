"""Flanders Fields' table kit (rules.core.kit): what its games keep on the table besides the stands, and the
kinds of item its fire plans hold (ARTILLERY FIRE PLANS), each a typed model the app validates a plan item by."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict

from rules.core.kit import BoardKey, Grid, PlanKind, TableKit
from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.flanders_fields.play.drawing import draw_barrages, draw_clouds, draw_fire

# The defender's order penalty in force this turn (0, 1 or 2): SUPPRESSION, Deep Suppression (DS).
DEEP_SUPPRESSION = BoardKey(
    "deep_suppression", "Deep suppression", 0, value=True, badge="Deep suppression −{}"
)

JsonObject = dict[str, Any]


class EventPack(BaseModel):
    """The random-event pack (`board["events"]`): the cards out of play, and how many are left to draw."""

    # Assignment is validated and marks the field as set, so it is stored (app.data.board_state).
    model_config = ConfigDict(extra="allow", validate_assignment=True)

    out: tuple[str, ...] = ()
    cards_left: int | None = None


# The board's own keys, in the order a write first adds them (the wind before the clouds it disperses). The
# items inside the lists are read as JSON objects (a board an older firestep wrote loads as it was); the rules
# read them as their records, rules.flanders_fields.play.board_items.
BOARD_KEYS = (
    BoardKey("barrages", "Rolling barrages", (), tuple[JsonObject, ...], draw=draw_barrages),
    BoardKey("clouds", "Gas clouds", (), tuple[JsonObject, ...], draw=draw_clouds),
    BoardKey("wind", "The last gas-wind roll", None, JsonObject | None),
    BoardKey("wind_turn", "The turn of the last gas-wind roll (one a turn)", None, int | None),
    BoardKey("clouds_gone", "Clouds dispersed or blown off the table", (), tuple[JsonObject, ...]),
    BoardKey(
        "fire",
        "Arrived fire-plan fire other than gas and barrages",
        (),
        tuple[JsonObject, ...],
        draw=draw_fire,
    ),
    BoardKey("events", "The random-event pack", None, EventPack | None),
    # Where each battery last fired (unit id -> [x, y]).
    BoardKey("aiming_points", "The batteries' aiming points", {}, dict[str, tuple[float, float]]),
)


# -- the fire plan's items --------------------------------------------------------------------------------
# Strict: JSON `false` is not 0; every number is bounded on its own field.
class FireItem(PlanKind):
    """Aiming points of batteries and mortars, bombardments, superimposed batteries, air missions."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["aiming-point", "bombardment", "superimposed", "mortar", "air-mission"]
    grid: Grid
    battery: str = Field(default="", max_length=64, description="Which battery or mortar fires.")
    turns: Annotated[int, Strict()] = Field(default=1, ge=1, le=50, description="Turns of fire.")


class GasItem(PlanKind):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["gas"]
    grid: Grid
    gas: Literal["offensive", "denying"]
    wind_deg: Annotated[float, Strict()] = Field(
        ge=0, lt=360, description="Direction the controlling player states, table frame."
    )


class BarrageItem(PlanKind):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["rolling-barrage"]
    start_up_cm: Annotated[float, Strict()] = Field(
        ge=0, le=1000, description="Start line: cm up the table from the side's rear edge."
    )
    duration_turns: Annotated[int, Strict()] = Field(
        ge=1, le=20, description="As rolled with barrage-duration (4 + D3)."
    )
    halts: list[Annotated[int, Strict(), Field(ge=1, le=100)]] = Field(
        default_factory=list, max_length=20, description="Turns in which it halts."
    )


class DeepSuppressionItem(PlanKind):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["deep-suppression"]


class FirewaltzItem(PlanKind):
    """A German hurricane bombardment on one place: "Duration and movement of Firewalz attacks i.e. when it
    will roll over and back against any particular place" (ARTILLERY FIRE PLANS); late war, attacker only."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["firewaltz"]
    grid: Grid
    target: Literal["strong-point", "trench-line"] = Field(
        description="strong-point: attacked once by super heavy artillery; trench-line: by heavy."
    )


# A plan item of each shape, as the API's documentation shows them.
PLAN_EXAMPLES: dict[str, dict[str, Any]] = {
    "battery aiming point": {
        "arrival_turn": 1,
        "item": {"kind": "aiming-point", "grid": [64, 120], "battery": "1"},
    },
    "gas": {
        "arrival_turn": 2,
        "item": {"kind": "gas", "grid": [60, 40], "gas": "offensive", "wind_deg": 90},
    },
    "rolling barrage": {
        "arrival_turn": 1,
        "item": {"kind": "rolling-barrage", "start_up_cm": 50, "duration_turns": 6, "halts": [3]},
    },
    "deep suppression": {"arrival_turn": 1, "item": {"kind": "deep-suppression"}},
}

KIT = TableKit(
    bases=BASES,
    templates=TEMPLATES,
    board_keys=(*BOARD_KEYS, DEEP_SUPPRESSION),
    plan_kinds=(FireItem, GasItem, BarrageItem, DeepSuppressionItem, FirewaltzItem),
    plan_examples=PLAN_EXAMPLES,
)
