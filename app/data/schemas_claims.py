"""The shapes of a league's results imported from another tool's CSV (issue 70; app/services/league_claims.py):
the file's text, which of its columns is which (named by their header), and each row as kept, the organiser's
claim, never a signed result."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.data.schemas_events import Name

MAX_CSV_CHARS = 200_000  # a file of pairings: 2,000 rows of ten short cells, with room
MAX_CSV_ROWS = 2_000  # pairings in one file, at most (an event day of 200 tables and ten rounds)
MAX_CSV_COLUMNS = 40  # a Best Coast Pairings or Longshanks export has fewer
MAX_CELL_CHARS = 80  # every cell, named or not: a name's length
CLAIM = "the organiser's claim"  # how a claim is said wherever it shows: not signed by any club

Column = Annotated[str, Field(min_length=1, max_length=MAX_CELL_CHARS, description="A column's header.")]


class ClaimColumns(BaseModel):
    """Which of the file's columns (by their header) holds what: a row is one pairing, its first player and its
    second. The winner is the result column's (W, L or D for the first player) when one is named, else the
    higher score's."""

    model_config = ConfigDict(extra="forbid")

    round: Column
    a_name: Column
    b_name: Column
    a_points: Column
    b_points: Column
    a_club: Column | None = None
    b_club: Column | None = None
    result: Column | None = None


class ClaimsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    event: Name = Field(description="The event the file is of, as the league shows it.")
    csv: str = Field(
        min_length=1, max_length=MAX_CSV_CHARS, description="The file's text, its first row the header."
    )
    columns: ClaimColumns
    replace: bool = Field(
        default=False,
        description="Replace the event's claims kept before with this file's (a corrected file): else a row kept "
        "with another result is refused (409).",
    )


class ClaimsRemoved(BaseModel):
    event: str = Field(description="The event as the league first named it.")
    removed: int = Field(description="Claims removed (0: the league kept none of that event).")


class ClaimPlayer(BaseModel):
    name: str
    club: str
    points: int


class ClaimOut(BaseModel):
    id: int
    kept_as: Literal["the organiser's claim"] = Field(description="Never a signed, verified result.")
    event: str
    round: int
    first: ClaimPlayer = Field(description="The row's first player.")
    second: ClaimPlayer
    winner: Literal["first", "second"] | None


class ClaimsOut(BaseModel):
    imported: int = Field(
        description="Games kept anew (a game the file lists twice, once from each side, is one)."
    )
    kept_already: int = Field(description="Games the league kept already, the same result: kept once.")
    claims: list[ClaimOut]
