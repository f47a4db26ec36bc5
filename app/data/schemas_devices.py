"""A device's token as its game or campaign lists it (`DeviceOut`): the answer the seats build
(app.services.seating), in a module of its own so that what reads tokens (the door, a command's start) does not
load the rule sets with the game's other answers (app.data.schemas)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class DeviceOut(BaseModel):
    """A token issued for a game or campaign: the referee's (organiser's), or one per join of a side."""

    id: int
    role: str
    issued_at: datetime
    last_seen_at: datetime | None = Field(description="Last use, to within a minute.")
    revoked_at: datetime | None
    revoked: bool
    this_device: bool = Field(description="The token this request was made with.")
