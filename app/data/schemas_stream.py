"""What the Server-Sent Events streams send, frame by frame (issue 68): `/openapi.json` documents each stream
as its frames (app/openapi.py's `sse`), each frame's `data:` one of these models."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.data.schemas_answers import EventOut, GameNowOut
from app.data.schemas_clock import GameClock
from app.data.schemas_events import RoundLine
from app.data.schemas_score import GameScore
from app.data.schemas_units import UnitOut


class EventFrame(EventOut):
    """A game's stream: an event of its log as this viewer reads it (`event:` its kind, `id:` its id), with
    what the stream's `view` adds to apply it without a request."""

    as_of_event: int | None = Field(
        default=None,
        description="With a view: the newest event the frame's parts may hold (apply them as of it)",
    )
    refetch: bool | None = Field(
        default=None, description="The view's parts would make the frame too big: read them with a request"
    )
    units: list[UnitOut] | None = Field(
        default=None, description="view=map: the units the event touched, as GET /units answers them"
    )
    state: GameNowOut | None = Field(
        default=None,
        description="view=map, the game itself changed: where it stands, its board and what the map draws of it",
    )
    score: GameScore | None = Field(default=None, description="The score, where the event changed it")
    score_panel: str | None = Field(
        default=None,
        description="view=map or board, where the event may change the score and they changed: the score's panels "
        "for this seat (HTML, as GET /games/{id}/score/panel answers; absent: as last carried), beside the other "
        "parts' 8 KB; null where they alone would pass 8 KB: read them",
    )
    result: str | None = Field(default=None, description="A finished game's result line (HTML)")
    notice: str | None = Field(
        default=None, description="A sentence every seat is told: the referee now plays another reading"
    )
    claim: str | None = Field(
        default=None,
        description="view=map, a roll another seat made: the values it gave over the table's, said",
    )
    board: str | None = Field(
        default=None, description="view=board: the referee board's pieces it changed (HTML)"
    )
    clock: GameClock | None = Field(default=None, description="The game clock, for an event the clock reads")
    clock_panel: str | None = Field(
        default=None,
        description="The game clock's panel for this seat (HTML, as GET /games/{id}/clock/panel answers), for an "
        "event the clock reads",
    )


class AsideFrame(BaseModel):
    """A game's stream, a frame that is no event of its game (`event: aside`, no id): an event table's round
    timer and its result's state, sent as the stream opens and whenever either changes."""

    round: RoundLine
