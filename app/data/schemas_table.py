"""A template on the table as the game's answers show it (app.services.templates keeps them on the board). The
stateless geometry's request models are rules.table.requests'."""

from __future__ import annotations

from pydantic import BaseModel, Field


class TemplateOut(BaseModel):
    """A template on the table (app.services.templates keeps them on the board)."""

    id: int
    kind: str
    side: str = Field(description="The side the template belongs to: it and the referee may move it.")
    x: float
    y: float
    rotation: float
    version: int = Field(description="The id of the event that last changed it.")
