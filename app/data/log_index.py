"""What tells a game's state apart by stand, registered with app.data.models' tables (issue 88): `EventUnit`, a
row for each unit an event that stands changes or names, so that a stand's newest act is read in a step of its
own, however long the game (the event table's own indexes, by the event an undo takes back and by game and
kind, are beside it in app.data.models); and `GameUnits`, each game's count of unit writes, which the database
keeps (migration 0032's triggers), so a worker's kept units are checked in one small read."""

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


class GameUnits(SQLModel, table=True):
    """A game's count of unit writes, moved on by the database at every unit row inserted, updated or deleted
    (migration 0032's triggers: no write path can miss it), each unit row carrying the count at its last write
    (`Unit.seq`), and the count at the last deletion (`gone`). A worker's units kept at count N are whole
    while it is N, and brought up to date by the rows of a later `Unit.seq` (app.services.kept_units). Written
    by the database alone."""

    __tablename__ = "game_units"

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
        )
    )
    seq: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    gone: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
