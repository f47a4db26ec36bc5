"""The log's indexes (issue 88), registered with app.data.models' tables: the log by stand (`EventUnit`, a row
for each unit an event that stands changes or names), the undos by the event each takes back, and the log by
game and kind, so that a stand's newest act, whether an event was taken back and a game's events of a few kinds
(the clock's) are each read in a step of their own, however long the game."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, text
from sqlmodel import Field, SQLModel

from app.data.models import Event


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


# The undos by the event each takes back (few rows: a partial index of the log's undos), so whether an event
# was taken back is one step however long the log (app.services.events.taken_back).
EVENT_REVERSED = text("reverses_id IS NOT NULL")
Index(
    "ix_event_reverses_id",
    Event.__table__.c.reverses_id,  # type: ignore[attr-defined]
    sqlite_where=EVENT_REVERSED,
    postgresql_where=EVENT_REVERSED,
)


# A game's events by kind: the clock's few (app.services.clock.entries) without the rest of a long log.
Index("ix_event_game_id_kind", Event.__table__.c.game_id, Event.__table__.c.kind)  # type: ignore[attr-defined]
