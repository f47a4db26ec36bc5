"""The stored clock (issue 93): a game's clock as its log stands after its last clock event, the rules' `Counted`
(rules.core.clock), written in the unit of work of the act that logged the event (app.services.clock). A read of
the clock is this row and the clock events since it, however long the game: the organiser's board of hundreds of
tables read every game's clock events and counted each clock over them (over a second of CPU mid-round)."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer
from sqlmodel import Field, SQLModel

from app.data.json_columns import ModelJSON
from rules.core.clock import Counted


class StoredClock(SQLModel, table=True):
    """A game's clock as its log stands after its event `event_id` (the newest event the clock was read up to).
    No row: the game's clock is counted from its log (a game made before, or in a round's one statement) until an
    act logs a clock event."""

    __tablename__ = "stored_clock"

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
        )
    )
    event_id: int = Field(sa_column=Column(Integer, nullable=False))
    state: Counted = Field(sa_column=Column(ModelJSON(Counted), nullable=False))
