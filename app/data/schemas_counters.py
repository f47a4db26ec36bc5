"""The answer of a game played on a board of counters (GET /api/v1/games/{id}/counters): what its page shows
besides the units, from rules.core.kit.CounterBoard and the rule set's counter notes."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator


class TrackTurnOut(BaseModel):
    number: int
    label: str = Field(description='As the track prints it: "9 April, Morning".')
    note: str = Field(description="What the turn forbids or brings, one line with its rule.")
    dark: bool = Field(description="Drawn as a night turn.")


class FlippedOut(BaseModel):
    flag: str = Field(description='The unit\'s state flag that turns its counter ("": none turns).')
    fields: list[str] = Field(description="The unit fields printed on the other face, in order.")


class CountersOut(BaseModel):
    """A game played on a board of counters (rules.core.kit.CounterBoard): what its page shows besides the
    units (GET .../units carries each counter's place in `place_field`)."""

    place_field: str = Field(description="The unit field holding a counter's place.")
    place_word: str = Field(description='What a place is called: "hex".')
    group_level: str = Field(description="The level of the formation counters are grouped under.")
    group_field: str = Field(description="The unit field naming a counter's group, where groups are words.")
    values: list[str] = Field(description="The unit fields printed on a counter, in order.")
    track: list[TrackTurnOut] = Field(description="The game's turn track, turn by turn.")
    dark_means: str = Field(
        default="", description="What a dark (night) turn of the track means, with its rule: the track's key."
    )
    places: dict[str, str] = Field(description="What each named place is, with its rule.")
    marks: dict[int, str] = Field(description="What lies on each counter besides its state, by unit id.")
    badges: list[str] = Field(description="The rule set's game-wide values set, in words.")
    steps: list[str] = Field(
        description='Each step of a turn as the book prints it ("Combat phase"), in order.'
    )
    flipped: FlippedOut = Field(
        default_factory=lambda: FlippedOut(flag="", fields=[]),
        description="What turns a counter to its other face, and the fields printed there.",
    )

    @field_validator("flipped", mode="before")
    @classmethod
    def _face(cls, value: Any) -> Any:
        """The board's (flag, fields) pair, as rules.core.kit.CounterBoard keeps it, named."""
        if isinstance(value, tuple):
            flag, fields = value
            return {"flag": flag, "fields": list(fields)}
        return value
