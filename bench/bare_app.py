"""The yardsticks of the HTTP benchmarks: a bare FastAPI app, served by uvicorn with the same settings as
firestep, with nothing else (no middleware, no other routes):
- for bench/resolve_throughput.py, one endpoint that validates a body like the order roll's (the same fields,
  types and limits) and answers the same JSON through a response model like firestep's;
- for bench/act_cost.py, the bare append: one row of the game log's table (an act's event, as big as the act's)
  appended through firestep's own engine (app.core.db.make_engine) to the database of FIRESTEP_DATABASE_URL,
  nothing read."""

from __future__ import annotations

import os
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.data.models import Event

# The answer firestep gives to bench/resolve_throughput.py's order roll, so both send the same bytes back.
ANSWER: dict[str, Any] = {
    "ruleset": "flanders-fields",
    "resolver": "order-roll",
    "period": "early",
    "dice": [4],
    "rolled_by_server": False,
    "modifiers": [{"label": "Veteran or Storm troops", "value": 1, "source": "playsheet " * 9}],
    "total": 5,
    "outcome": {"actions": 2},
    "outcome_key": "actions-2",
    "probabilities": {"actions-0": 1 / 6, "actions-1": 1 / 3, "actions-2": 1 / 3, "actions-3": 1 / 6},
    "probabilities_exact": {"actions-0": "1/6", "actions-1": "1/3", "actions-2": "1/3", "actions-3": "1/6"},
    "sources": ["playsheet " * 10, "playsheet " * 9],
    "variants": {},
    "table": [{"roll": "1", "actions": 0}, {"roll": "2-4", "actions": 1}, {"roll": "5-6", "actions": 2}],
    "actions_are": "REMOVE A SUPPRESSION LEVEL, FIRE or MOVE",
    "natural_one": False,
    "notes": [],
}


class OrderRoll(BaseModel):
    model_config = ConfigDict(extra="forbid")

    period: Literal["early", "mid", "late"]
    dice: Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(max_length=4)] | None = None
    variants: Annotated[
        dict[Annotated[str, Field(max_length=64)], Annotated[str, Field(max_length=64)]], Field(max_length=16)
    ] = {}
    unit: Literal["rifle-company", "machine-gun-company", "mortar-battery", "field-battery"]
    quality: Literal["raw", "regular", "veteran", "elite"] = "regular"
    raw_under_fire: bool = False
    in_gas: bool = False
    platoon_beyond_25cm: bool = False
    field_promotion: bool = False
    tank_failed_last_turn: bool = False
    after_amiens: bool = False
    mortar_without_line_of_sight: bool = False
    artillery_own_line_of_sight: bool = False
    staff_support: bool = False
    through_wire: bool = False
    command_suppression: Annotated[int, Field(ge=0, le=10)] = 0
    deep_suppression: Annotated[int, Field(ge=0, le=2)] = 0
    special_rule: Annotated[str, Field(max_length=64)] | None = None


class Modifier(BaseModel):
    label: str
    value: int
    source: str


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")

    ruleset: str
    resolver: str
    period: str | None
    dice: list[int]
    rolled_by_server: bool
    modifiers: list[Modifier]
    total: int | None
    outcome: Any
    outcome_key: str
    probabilities: dict[str, float]
    probabilities_exact: dict[str, str]
    sources: list[str]
    variants: dict[str, str]


app = FastAPI()


@app.post("/resolve", response_model=Answer)
def resolve(req: OrderRoll) -> dict[str, Any]:
    return {**ANSWER, "dice": req.dice or [4]}


class Row(BaseModel):
    """An event row as the game log's API shows it (its id and time the database's)."""

    game_id: int
    turn: int
    side: str
    step: str
    kind: str
    actor: str
    visibility: str
    payload: dict[str, Any]
    private: dict[str, Any] = {}


@cache
def engine() -> Engine:
    return make_engine(os.environ["FIRESTEP_DATABASE_URL"])


@app.post("/append")
def append(row: Row) -> dict[str, int]:
    with Session(engine()) as session:
        event = Event(**row.model_dump())
        session.add(event)
        session.flush()
        appended = event.pk
        session.commit()
    return {"event_id": appended}


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}
