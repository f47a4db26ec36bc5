"""The shapes of a club event day's requests and answers (app/routes/tournaments.py, issue 57): bounded
writes (names, clubs, force lists, points), typed answers."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import Path
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, Strict, field_validator, model_validator

from app.data.schemas_clock import GameClock
from app.data.written import AsWritten
from rules.event.standings import TIE_BREAKS, TieBreak

MAX_PLAYERS = 800  # an event's players, at most: 400 tables (issue 93; 200 tables since issue 63)
MAX_ROUNDS = 12
MAX_POINTS = 10_000  # a side's game points or losses, at most
# A result bundle with its game's record, at most (its canonical JSON): under the 2 MiB of any request body
# (app.core.config.MAX_BODY_BYTES_DEFAULT), with room for the request around it.
MAX_BUNDLE_CHARS = 1_500_000
MAX_TEXT = 200  # a free text (a force list, a dispute's reason, why a result was changed), at most

EventId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Event id")]
RoundNo = Annotated[int, Path(ge=1, le=MAX_ROUNDS, description="Round number, from 1")]
TableId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Table id, from the round")]
PlayerId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Player id, from the players registered")]
Text = Annotated[str, Field(max_length=MAX_TEXT, pattern=r"^[^\x00-\x1f\x7f]*$")]
Name = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]+$")]
Short = Annotated[str, Field(max_length=80, pattern=r"^[^\x00-\x1f\x7f]*$")]
Points = Annotated[int, Strict(), Field(ge=0, le=MAX_POINTS)]  # strict: `false` is no number of points


class ScoringIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    win: int = Field(default=3, ge=0, le=100)
    draw: int = Field(default=1, ge=0, le=100)
    loss: int = Field(default=0, ge=0, le=100)
    bye: int = Field(default=3, ge=0, le=100)
    order: list[TieBreak] = Field(default=["points", "vp", "sos"], min_length=3, max_length=3)

    @model_validator(mode="after")
    def each_once(self) -> ScoringIn:
        if len(set(self.order)) != 3:
            raise ValueError("order names points, vp and sos, each once")
        return self


class EventCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    ruleset: Annotated[str, Field(min_length=1, max_length=64)]
    period: Annotated[str, Field(max_length=32)] | None = None
    rounds: int = Field(default=3, ge=1, le=MAX_ROUNDS)
    scoring: ScoringIn = Field(default_factory=ScoringIn)
    time_zone: Annotated[str, Field(min_length=1, max_length=64)] = Field(
        default="UTC", description="The IANA time zone the event's times are printed in (Europe/London)."
    )


class ScoringOut(AsWritten):
    """The event's points for a win, a draw, a loss and a bye, and its tie-breakers in order (a key not written
    left out, counted at its default: app.services.tournaments.scoring_of)."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    order: list[TieBreak] = list(TIE_BREAKS)


class ClubEventOut(BaseModel):
    id: int
    name: str
    ruleset: str
    period: str
    rounds: int
    scoring: ScoringOut
    status: str
    round_ends_at: datetime | None
    time_zone: str
    version: int
    created_at: datetime


class EventCreated(BaseModel):
    event: ClubEventOut
    organiser_token: str = Field(description="Bearer token of the organiser; shown once.")


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    club: Short = ""
    force_list: Text = Field(default="", description="The force list by name.")


class PlayersIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: list[PlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS)


class PlayerOut(BaseModel):
    id: int
    name: str
    club: str
    force_list: str
    dropped: bool


class PlayerStatusIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Literal["playing", "dropped", "no-show"] = Field(
        description="playing (back in), dropped (gone for the day) or no-show (not here for the next round)."
    )


class PlayerMarked(BaseModel):
    player: PlayerOut
    status: str
    discarded_draft: int | None = Field(description="The draft's round, discarded: draft it again.")


class DraftIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: Annotated[str, Field(min_length=1, max_length=64)]
    minutes: int = Field(default=150, ge=10, le=600, description="The round's length for its timer.")


class TableResult(BaseModel):
    """A result as the event counts it (app.services.tournament_results): the winner ("a", "b", None for a
    draw), each player's game points and stands lost, and how it ended. A table's column holds one once its
    game offered it (app.data.json_columns.ModelJSON), and its answer says it; null before."""

    model_config = ConfigDict(frozen=True)

    winner: Literal["a", "b"] | None = Field(
        default=None, description="a (the attacker's player), b, or null: a draw."
    )
    a_points: int
    b_points: int
    a_losses: int = 0
    b_losses: int = 0
    reason: str = ""

    def said(self, a: str, b: str) -> str:
        """The result in words, the players' names `a` and `b`: who won, then each one's points by name ("Bob won:
        Ann 3, Bob 1"), or a draw: the winner named, not left to the points (a win on the lower score, or a result
        typed from paper with none), and each player's points beside their name, not left to the columns' order
        (issue 63's and issue 93's newcomer passes, and this stop's)."""
        won = f"{a} won" if self.winner == "a" else f"{b} won" if self.winner == "b" else "A draw"
        return f"{won}: {a} {self.a_points}, {b} {self.b_points}"


class TableOut(BaseModel):
    id: int
    table: int
    a_player_id: int = Field(description="The attacker's player.")
    b_player_id: int = Field(description="The defender's player.")
    a_name: str
    b_name: str
    game_id: int | None
    status: Literal["drafted", "playing", "offered", "confirmed", "disputed", "altered"]
    offered: TableResult | None = Field(description="The result its game offered; null while it is played.")
    a_confirmed: bool
    b_confirmed: bool
    result: TableResult | None = Field(description="The result the event counts; null until it is settled.")


class HandEditOut(BaseModel):
    swap: Literal["players", "tables"]
    first: int
    second: int


class RoundOut(BaseModel):
    number: int
    scenario: str
    status: Literal["draft", "committing", "committed"]  # committing: its games being made
    minutes: int
    bye_player_id: int | None
    tables: list[TableOut]
    version: int = Field(
        description="The event's version this was read at: a hand edit of the draft names it."
    )
    warnings: list[str] = Field(description="What the draft's pairing breaks (a rematch, one club's players in "
                                "round 1, a table met before, a second bye): warned, not refused.")  # fmt: skip
    hand_edits: list[HandEditOut] = Field(
        description="The draft's swaps by hand, in order (kept once committed)."
    )


class SwapIn(BaseModel):
    """Two players of the draft exchange places (the bye's player too), or two pairs their tables."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=1, le=2_147_483_647, description="The event's version the draft was read at.")
    swap: Literal["players", "tables"]
    first: int = Field(ge=1, le=2_147_483_647, description="A player's id, or a table's number.")
    second: int = Field(ge=1, le=2_147_483_647, description="A player's id, or a table's number.")


class TableSeats(BaseModel):
    table_id: int
    game_id: int
    referee_token: str = Field(description="The table game's referee token (the organiser's); shown once.")
    join_codes: dict[str, str] = Field(description="A code per seat (attacker, defender); shown once.")


class TableCards(BaseModel):
    table_id: int
    game_id: int
    join_codes: dict[str, str] = Field(
        description="The new code per seat (attacker, defender) its card prints."
    )


class Committed(RoundOut):
    seats: list[TableSeats]


class Committing(BaseModel):
    """A round's commit stopped on its request's CPU budget (issue 63): the games made so far are kept, hidden;
    the same POST again carries on from there."""

    status: Literal["committing"] = "committing"
    made: int = Field(ge=0, description="The round's tables whose game is made so far.")
    tables: int = Field(ge=1, description="The round's tables.")


class TableLive(TableOut):
    """A table as the organiser's view shows it: its game's turn, step and status, its score so far."""

    turn: int | None
    game_status: str | None
    score: dict[str, int] = Field(description="The game's points by side, live while it is played.")
    clock: GameClock | None = Field(
        default=None, description="Its game's clock as of the frame (a device runs it on locally)."
    )
    dispute_reason: str = Field(
        default="", max_length=MAX_TEXT, description="A disputed table's reason, as its player gave it."
    )


class BoardOut(BaseModel):
    event: ClubEventOut
    round: int | None
    round_ends_at: datetime | None
    tables: list[TableLive]
    disputes: int


class RoundLine(BaseModel):
    """An event table's round timer as its game's stream sends it beside the events (an `aside` frame)."""

    round: int | None = Field(default=None, description="The round the table plays; null: no round running.")
    ends_at: datetime | None = Field(default=None, description="When it ends; null: the timer is stopped.")
    result: str | None = Field(
        default=None,
        description="The table's result: playing, offered, confirmed, disputed or altered (set by the organiser).",
    )
    confirmed: int = Field(default=0, ge=0, le=2, description="How many of the table's players confirmed it.")


class TimerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ends_at: AwareDatetime | None = Field(
        description="When the round ends, with its time zone; null stops it."
    )

    @field_validator("ends_at", mode="before")
    @classmethod
    def a_time_written(cls, value: object) -> object:
        """An ISO 8601 string: a bare number is no time (strict mode refuses the string a JSON body carries)."""
        if value is not None and not isinstance(value, str):
            raise ValueError("the round's end is an ISO 8601 time with its time zone, or null")
        return value

    @field_validator("ends_at")
    @classmethod
    def in_utc(cls, value: datetime | None) -> datetime | None:
        """Kept in UTC: a time whose UTC reading falls outside the years 1 to 9999 is refused, not a 500."""
        if value is None:
            return None
        try:
            utc = value.astimezone(UTC)
        except OverflowError:
            utc = None
        # A day inside the years 1 to 9999: the event's own zone (at most a day off UTC) reads it on the sheet.
        if utc is None or not datetime(1, 1, 2, tzinfo=UTC) <= utc <= datetime(9999, 12, 30, tzinfo=UTC):
            raise ValueError(
                "the round's end falls outside the years 1 to 9999 in some time zone: give a nearer time"
            )
        return utc


class DisputeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    why: Text = ""


class ResultIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    winner: Literal["a", "b"] | None = Field(description="a (the attacker's player), b, or null for a draw.")
    a_points: Points
    b_points: Points
    a_losses: Points = 0
    b_losses: Points = 0
    why: Text = Field(
        default="",
        description="Why the organiser changed it (logged); asked only to override a result both "
        "players confirmed.",
    )


class StandingOut(BaseModel):
    place: int
    player_id: int
    name: str
    club: str
    points: int
    vp: int
    sos: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int


class ExportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    club: Short = Field(default="", description="The club's name, as the league shows it.")


class RekeyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, Field(min_length=3, max_length=40, pattern=r"^[0-9a-zA-Z-]+$")]


class RekeyOfferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: Literal["attacker", "defender"] = Field(description="The seat whose lost tablet is replaced.")


class RekeyOffer(BaseModel):
    side: str
    code: str = Field(
        description="Good once, for `minutes`: the player's new device posts it to /events/rekey."
    )
    minutes: int


class Rekeyed(BaseModel):
    game_id: int
    side: str
    token: str
