"""The shapes of the league's requests and answers (app/routes/league.py, issue 63) and of a signed result
bundle (firestep-result/3), exported by an event's organiser and imported by a league's.

A bundle is checked field by field at import, before anything else reads it: every field the league reads is
typed, bounded and required, none other is allowed (a refusal names the field, 422). The model coerces and
normalises nothing (strict), so the body it validated is, field for field, the one its club signed: the
signature is verified over the body as sent.

The format is published as a JSON Schema inside this package (BUNDLE_SCHEMA, served by app/routes/league.py;
docs/result-format.md says how a bundle is signed and checked): it is the source another club's tool reads,
and tests/app/league/test_result_format.py holds these models to it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cache
from importlib.resources import files
from typing import Annotated, Any, Literal, cast

from fastapi import Path
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    Strict,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError

from app.data.bounded import nested_at_most
from app.data.schemas_events import MAX_BUNDLE_CHARS, MAX_POINTS, MAX_ROUNDS, Name, Short
from rules.core.commitment import canonical

BUNDLE_FORMAT = "firestep-result/3"  # /2 carried no round (one game could not be told from another): refused
MAX_LOG_ENTRIES = 100_000  # a game's record, at most (app.services.league.game_record reads no more)
MAX_TRUSTED_KEYS = 200  # the clubs one league trusts, at most
RECORD_MAX_DEPTH = 32  # a game's record: its log, an event, its payload (a few levels), with room to spare
# The games one league keeps, at most: a national league, 100 clubs' 100 games (issue 70). Its table is read in
# one query; bench/league_import.py fills a league to this bound (the standings' read 70 ms of CPU on SQLite).
MAX_LEAGUE_GAMES = 10_000
BUNDLE_SCHEMA = "firestep-result-3.schema.json"  # this package's file: the format as another tool reads it

LeagueId = Annotated[int, Path(ge=1, le=2_147_483_647, description="League id")]
RowId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Row id, from the league's lists")]
Hex64 = Annotated[str, Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]
PublicKey = Annotated[
    str,
    Field(
        min_length=64,
        max_length=64,
        pattern=r"^[0-9a-fA-F]{64}$",
        description="A club's Ed25519 result-signing public key, raw, as 64 hex digits.",
    ),
]
Count = Annotated[int, Strict(), Field(ge=0, le=MAX_POINTS)]
Text200 = Annotated[str, Strict(), Field(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]
Id = Annotated[str, Strict(), Field(max_length=64, pattern=r"^[^\x00-\x1f\x7f]*$")]
Side = Literal["attacker", "defender"]


@cache
def bundle_schema() -> bytes:
    """The published JSON Schema of a bundle, read through the package (an installed wheel carries it)."""
    return files("app.data").joinpath(BUNDLE_SCHEMA).read_bytes()


class _Exact(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Sides(_Exact):
    attacker: Count
    defender: Count


class Players(_Exact):
    """Each side's player as [name, club]."""

    # Lax for the pair alone (a JSON array is a list, which strict mode refuses as a tuple); its strings stay strings.
    attacker: tuple[Name, Short] = Field(strict=False)
    defender: tuple[Name, Short] = Field(strict=False)


class BundleResult(_Exact):
    winner: Side | None = Field(description="None for a draw.")
    points: Sides
    losses: Sides
    reason: Text200


_nested = cast(
    "Callable[[Any], Any]", nested_at_most(RECORD_MAX_DEPTH).func
)  # refuses a record nested deeper


def _whole(value: Any) -> Any:
    """A record within a bundle's size, nested at most RECORD_MAX_DEPTH levels, holding no lone surrogate (a file's JSON may escape one
    (\\ud800), which no encoding writes: a file uploaded on the league's page reaches here past the door's check
    of a JSON body, and its record's hash was a 500)."""
    _nested(value)
    try:
        written = canonical(value)
    except UnicodeEncodeError:
        said = "bundle.record holds a lone surrogate (U+D800..U+DFFF), a text no encoding stores: refused"
        raise PydanticCustomError("lone_surrogate", said) from None
    if len(written) > MAX_BUNDLE_CHARS:
        raise PydanticCustomError("too_long", f"a result bundle is at most {MAX_BUNDLE_CHARS:,} characters")
    return value


# One event of the record: [id, turn, side to move, step, kind, actor, public payload, id of the event it reverses].
LogEntry = Annotated[
    tuple[int, int, str, str, str, str, dict[str, Any], int | None],  # the payload: each act's own record
    WithJsonSchema(  # as the published schema writes it (its payload an object: each act's own record)
        {
            "type": "array",
            "minItems": 8,
            "maxItems": 8,
            "prefixItems": [
                *[{"type": "integer"}] * 2,
                *[{"type": "string"}] * 4,
                {"type": "object"},
                {"type": ["integer", "null"]},
            ],
        }
    ),
]


class RecordEnd(BaseModel):
    """The result a game scored at its end, as its record carries it (by side)."""

    winner: Annotated[str | None, WithJsonSchema({"type": ["string", "null"]})]
    points: dict[str, int]
    losses: dict[str, int]


class GameRecord(BaseModel):
    """A finished game as every side may read it once over (app.services.league.game_record): its public log
    and the result it scored at its end, None when it did not end by itself. Not signed, its hash is: a key
    beyond these is kept as sent, so the record hashes as its club wrote it (`written`)."""

    model_config = ConfigDict(extra="allow")

    log: Annotated[list[LogEntry], Field(max_length=MAX_LOG_ENTRIES)]
    ended: RecordEnd | None

    def written(self) -> dict[str, JsonValue]:
        """The record as JSON, whose canonical form's sha256 is a bundle's `log_hash`."""
        return self.model_dump(mode="json")


class ResultBundle(_Exact):
    """A signed result bundle: the body's fields and the club's Ed25519 signature over their canonical JSON
    (rules.core.commitment.canonical), and the game's record beside them (its sha256 is the signed
    `log_hash`)."""

    format: Literal["firestep-result/3"]
    club: Short = Field(
        description="The club's name as its organiser exported it (not part of the game's identity)."
    )
    public_key: PublicKey
    event: Text200
    event_id: Annotated[
        int, Field(ge=1, le=2_147_483_647, description="The event's number on its club's server.")
    ]
    round: Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
    table: Annotated[int, Field(ge=1, le=10_000)]
    ruleset: Id
    ruleset_hash: Hex64
    period: Id
    scenario: Id
    scenario_hash: Hex64
    forces_hash: Hex64
    players: Players
    result: BundleResult
    settled: Literal["confirmed", "altered"] = Field(
        description="confirmed: the result the game offered, both seats confirmed; altered: set by the organiser."
    )
    log_hash: Hex64 = Field(description="The sha256 of `record`'s canonical JSON.")
    log_entries: Annotated[int, Field(ge=0, le=MAX_LOG_ENTRIES)]
    signature: str = Field(
        min_length=128,
        max_length=200,
        description="Hex, over the canonical JSON of every field but `signature` and `record`.",
    )
    record: Annotated[GameRecord, BeforeValidator(_whole)] = Field(
        description="The finished game as every side may read it once over: its public log and the result it "
        "scored at its end (app.services.league.game_record)."
    )

    @field_validator("format", mode="before")
    @classmethod
    def older_format(cls, v: object) -> object:
        if isinstance(v, str) and v.startswith("firestep-result/") and v != BUNDLE_FORMAT:
            raise ValueError(f"a {v[:24]} bundle has no round to tell its game apart: export it again")
        return v

    @field_validator("signature")
    @classmethod
    def hex_signature(cls, v: str) -> str:
        """A signature is 64 bytes, however its hex is spelt (case, spaces): read as its bytes' hex."""
        digits = "".join(v.split()).lower()
        if len(digits) != 128 or any(c not in "0123456789abcdef" for c in digits):
            raise ValueError("the signature is 128 hex digits")
        return digits

    def signed_body(self) -> dict[str, Any]:
        """The body as its club signed it (every field but the signature and the record)."""
        return self.model_dump(mode="json", exclude={"signature", "record"})


class BundleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bundle: ResultBundle = Field(description="A result bundle as a club's firestep exported it.")


class LeagueCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description="The league's name, as its table is headed.")


class LeagueOut(BaseModel):
    id: int
    name: str
    created_at: datetime


class LeagueCreated(BaseModel):
    league: LeagueOut
    organiser_token: str = Field(
        description="Shown once: imports and trust need it (Bearer, or the page's cookie)."
    )


class KeyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    public_key: PublicKey
    club: Name = Field(description="The club's name, as the league shows it.")


class KeyOut(BaseModel):
    id: int
    public_key: str
    club: str
    fingerprint: str = Field(
        description="The key's SHA-256 in groups of four, to compare with the club's own."
    )


class LeagueGameOut(BaseModel):
    id: int
    status: Literal["counted", "pending"] = Field(
        description="counted: its club's key is trusted; pending: waiting for the organiser's yes."
    )
    club: str
    club_key: str
    fingerprint: str
    event: str
    round: int
    table: int
    players: dict[Side, tuple[str, str]]
    winner: Side | None
    points: dict[Side, int]
    checked: str = Field(description="What was checked, in words (a result set by the organiser is said so).")


class LeagueLineOut(BaseModel):
    place: int
    player: str
    club: str
    played: int
    won: int
    drawn: int
    lost: int
    points: int
    vp: int
    claimed: int = Field(
        description="Of the games played, those resting on the organiser's claim (a CSV row), not a signed bundle."
    )


class LeagueTableOut(BaseModel):
    league: LeagueOut
    lines: list[LeagueLineOut]
    pending: int = Field(description="Games imported from keys not yet trusted: not counted.")
