"""The log by stand (issue 88), registered with app.data.models' tables: `EventUnit`, a row for each unit an
event that stands changes or names, so that a stand's newest act is read in a step of its own, however long the
game (the event table's own indexes, by the event an undo takes back and by game and kind, are beside it in
app.data.models)."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer
from sqlmodel import Field, SQLModel


class EventUnit(SQLModel, table=True):
    """The log by stand: a row for each unit an event changes or names (in any part of it, a side's own
    included), written as the event is logged (app.services.events.record). An event taken back leaves it, and
    an undo is never in it: a stand's newest row is its newest act that stands, read in one step however long
    the game (a stand's card's Undo, app.services.undo.card_undo). Its key is the read's order; the event is
    not a foreign key (the game's deletion takes both, and an undo deletes its event's rows by their key)."""

    __tablename__ = "event_unit"

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
        )
    )
    unit_id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    event_id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
