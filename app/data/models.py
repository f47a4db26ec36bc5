"""Database tables. Alembic migrations (migrations/versions) are the only source of the schema."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import JsonValue
from sqlalchemy import JSON, Column, ForeignKey, Index, Integer, LargeBinary, UniqueConstraint, text
from sqlmodel import Field, SQLModel

import app.data.clock_state  # the stored clock's table, registered with these (issue 93)
import app.data.log_index  # the log by stand's table, registered with these (issue 88)
import app.data.score_state  # noqa: F401  # the stored score's table, registered with these (issue 88)
from app.data.json_columns import ModelJSON
from app.data.schemas_campaign import BattleOffer
from app.data.schemas_events import TableResult
from rules.table.frame import TABLE_LENGTH_CM, TABLE_WIDTH_CM


def utcnow() -> datetime:
    return datetime.now(UTC)


# A JSON column is stored JSON, any JSON until it is read: its annotation says so (pydantic's JsonValue, a
# recursive JSON type) where its readers parse it or pass it on whole (a scenario document, a unit's or a
# campaign's state, a plan item's terms, a signed bundle). The columns still `dict[str, Any]` are read key by key
# by services that take the values as they come (the board, an event's payload, a side's hand); one read into its
# model as the row is loaded is an app.data.json_columns.ModelJSON (a campaign battle's offer, an event table's
# result).
def empty_terrain() -> dict[str, JsonValue]:
    return {"type": "FeatureCollection", "features": []}


# A table's default factory is a function, never the builtin `dict` or `list`: SQLModel builds a table row
# asking pydantic, for every field of every row, whether its factory takes the validated data, and pydantic
# answers by reading the factory's signature, which for `list` is parsed from its text (0.5 ms a field; 1.3 ms a
# GameSide row, half of a 200-table round's commit). A function's signature is read in microseconds.
def empty_dict() -> dict[str, JsonValue]:
    return {}


def empty_list() -> list[Any]:
    return []


def owned_by(table: str, index: bool = True) -> Any:
    """A row's owner: the id of its `table` row, deleted with it (one Column per table: a new one each call)."""
    return Field(
        sa_column=Column(Integer, ForeignKey(f"{table}.id", ondelete="CASCADE"), nullable=False, index=index)
    )


class Stored(SQLModel):
    """A table whose rows are numbered by the database: `id` is None only until the row is flushed, so a row
    read from the database, or added and flushed, gives its number as `pk`, an int."""

    id: int | None = Field(default=None, primary_key=True)

    @property
    def pk(self) -> int:
        if self.id is None:
            raise RuntimeError(f"a {type(self).__name__} has no id until it is flushed")
        return self.id


class Game(Stored, table=True):
    __tablename__ = "game"

    name: str = Field(max_length=200)
    ruleset: str = Field(max_length=64, index=True)
    period: str | None = Field(default=None, max_length=32)
    variants: dict[str, str] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    table_width_cm: float = TABLE_WIDTH_CM
    table_length_cm: float = TABLE_LENGTH_CM
    attacker_nation: str = Field(default="", max_length=32)
    defender_nation: str = Field(default="", max_length=32)
    scenario: str | None = Field(default=None, max_length=64)
    version: int = 1
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    # Play state. turn 0 is set-up (fire plans written, forces deployed); status setup -> playing -> finished.
    terrain: dict[str, JsonValue] = Field(
        default_factory=empty_terrain, sa_column=Column(JSON, nullable=False)
    )
    status: str = Field(default="setup", max_length=16)
    turn: int = 0
    side_to_move: str = Field(default="attacker", max_length=16)
    step: int = 0  # index into the period's order sequence (app.services.turns.sequence)
    # The rule set's game-wide values (its table kit's, rules.core.kit.BoardKey.value), by name; one not
    # stored reads as its default.
    state: dict[str, JsonValue] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    # Things on the table that are not stands: gas clouds, rolling barrages, the random-event deck.
    board: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    notes: str = Field(default="", max_length=4000)
    # Archived by its referee: out of the lobby, still readable by its tokens.
    archived_at: datetime | None = None


class GameSide(Stored, table=True):
    """One side of a game: its nation, its join code (hashed) and its fire plan's lock and commitment."""

    __tablename__ = "game_side"
    __table_args__ = (UniqueConstraint("game_id", "side"),)

    game_id: int = owned_by("game", index=False)
    side: str = Field(max_length=16)
    nation: str = Field(default="", max_length=32)
    join_code_hash: str = Field(max_length=64, unique=True)
    # Once-per-player allowances (heroic action) kept per side.
    special_uses: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    plan_locked: bool = False
    plan_commitment: str | None = Field(default=None, max_length=64)
    plan_leaves: list[str] = Field(default_factory=empty_list, sa_column=Column(JSON, nullable=False))
    plan_salt: str = Field(default="", max_length=64)  # secret until the game is over
    # Whose dice the side's rolls are (issue 69): "players" (rolled at the table and entered) or "firestep"
    # (the app rolls each one). The seat's choice, kept with the game; every roll logs whose dice they were.
    dice: str = Field(default="players", max_length=16)
    # Its secret objectives' seal (app.services.secret_objectives): published as the game starts; salt as above.
    objectives_commitment: str | None = Field(default=None, max_length=64)
    objectives_leaves: list[str] = Field(default_factory=empty_list, sa_column=Column(JSON, nullable=False))
    objectives_salt: str = Field(default="", max_length=64)
    version: int = 1


class Token(Stored, table=True):
    """A bearer token, stored as HMAC-SHA256(secret key, token): a leaked database grants nothing."""

    __tablename__ = "token"

    game_id: int = owned_by("game", index=False)
    role: str = Field(max_length=16)  # referee, attacker or defender
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
    # A token is a device: the referee sees when it was last used and may revoke it (kept, marked revoked).
    last_seen_at: datetime | None = None
    revoked_at: datetime | None = None


class Unit(Stored, table=True):
    """A node of a force tree (division .. platoon) or a stand; its state lives on the same row, so a marker
    change is one UPDATE of the row at its version (app.services.units.increment)."""

    __tablename__ = "unit"

    game_id: int = owned_by("game")
    parent_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("unit.id", ondelete="CASCADE"), nullable=True)
    )
    side: str = Field(max_length=16)
    ref: str = Field(default="", max_length=120)  # the organisation table's or scenario's id
    name: str = Field(default="", max_length=200)
    level: str = Field(max_length=32)  # division, regiment, battalion, company, platoon, stand, battery ...
    kind: str = Field(default="", max_length=48)
    base: str | None = Field(default=None, max_length=48)
    quality: str | None = Field(default=None, max_length=16)
    models: int = 0
    is_command: bool = False
    off_table: bool = False  # off-table batteries and reinforcements not yet arrived
    x: float | None = None
    y: float | None = None
    facing_deg: float | None = None
    source: str = Field(default="", max_length=300)
    # State: out of play, the special rules used, and the rule set's own state (its `GameRules.book.state_fields`,
    # by name: Flanders Fields' suppression markers, actions left, morale flags, aiming point ...).
    killed: bool = False
    special_uses: dict[str, int] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    state: dict[str, JsonValue] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    version: int = 1
    # Of the bumps of `version`, the writes of its side's secret alone (an aiming point set): the other side
    # reads the version less these, so a bump does not tell it which stand was given a secret (units.Reader).
    hidden_writes: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # The game's count of unit writes at this row's last write, set by the database (app.data.log_index.GameUnits):
    # no answer carries it (it would tell the other side of a secret's write).
    seq: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class FirePlanItem(Stored, table=True):
    """One entry of a side's fire plan: hidden from the opponent until it arrives on the table."""

    __tablename__ = "fire_plan_item"
    __table_args__ = (UniqueConstraint("game_id", "side", "public_id", name="uq_fire_plan_item_public_id"),)

    game_id: int = owned_by("game")
    side: str = Field(max_length=16)
    kind: str = Field(max_length=32)
    arrival_turn: int = 1
    data: dict[str, JsonValue] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    salt: str = Field(max_length=64)
    leaf: str | None = Field(default=None, max_length=64)
    arrived: bool = False
    # The id both sides know the item by: random, so it tells nothing of how many items or edits exist
    # (the row id counts every item of every side and game).
    public_id: int = Field(sa_column=Column(Integer, nullable=False))
    # Its leaf's place in the commitment tree, drawn at random when the plan is locked.
    slot: int | None = None


class FirePlanSeal(Stored, table=True):
    """A side's plan for one turn, sealed (a rule set whose plan is sealed each turn, Book.plan_terms.sealed_each_turn):
    the commitment published at sealing, its tree's leaves, and its padding salt (secret until the game is
    over). Flanders Fields' one plan keeps its seal on its side (GameSide)."""

    __tablename__ = "fire_plan_seal"
    __table_args__ = (UniqueConstraint("game_id", "side", "turn", name="uq_fire_plan_seal_turn"),)

    game_id: int = owned_by("game")
    side: str = Field(max_length=16)
    turn: int
    commitment: str = Field(max_length=64)
    leaves: list[str] = Field(default_factory=empty_list, sa_column=Column(JSON, nullable=False))
    salt: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)


class SecretObjective(Stored, table=True):
    """An objective only its side (and the referee) reads until it scores (app.services.secret_objectives)."""

    __tablename__ = "secret_objective"

    game_id: int = owned_by("game")
    side: str = Field(max_length=16)
    feature: dict[str, JsonValue] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    salt: str = Field(max_length=64)
    slot: int | None = None  # its leaf's, drawn as the game starts


class FirePlanEdit(Stored, table=True):
    """A side's own record of its fire-plan edits (nothing a player entered is lost), kept out of the shared
    event log so that the other side cannot count them."""

    __tablename__ = "fire_plan_edit"

    game_id: int = owned_by("game")
    side: str = Field(max_length=16)
    action: str = Field(max_length=16)  # added or removed
    item: dict[str, JsonValue] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class Event(Stored, table=True):
    """The append-only log. Its id is also the Server-Sent Events id. Undo appends an event that names the
    one it reverses in `reverses_id`."""

    __tablename__ = "event"

    game_id: int = owned_by("game")
    turn: int = 0
    side: str = Field(default="", max_length=16)  # side to move when it happened
    step: str = Field(default="", max_length=48)
    kind: str = Field(max_length=32)
    actor: str = Field(max_length=16)  # referee, attacker, defender or system
    visibility: str = Field(
        default="all", max_length=16
    )  # all, or the one side (and referee) that may see it
    payload: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    # What only one side (and the referee) may read, by role: {"attacker": {...}, "referee": {...}}. Read
    # through app.services.events.view, which merges the parts a viewer may see over the public payload.
    private: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    reverses_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("event.id"), nullable=True)
    )
    created_at: datetime = Field(default_factory=utcnow)


# The undos by the event each takes back (few rows: a partial index of the log's undos), so whether an event
# was taken back is one step however long the log (app.services.events.taken_back).
EVENT_REVERSED = text("reverses_id IS NOT NULL")
Index(
    "ix_event_reverses_id",
    Event.__table__.c.reverses_id,  # type: ignore[attr-defined]
    sqlite_where=EVENT_REVERSED,
    postgresql_where=EVENT_REVERSED,
)
# A game's events by kind, in id order: the clock's few (app.services.clock.kept_of) without the rest of a long
# log, and those after its stored clock a range.
Index(
    "ix_event_game_id_kind_id",
    *(Event.__table__.c[name] for name in ("game_id", "kind", "id")),  # type: ignore[attr-defined]
)
# A game's units written after a count (app.services.kept_units): those alone, however many the game has.
Index("ix_unit_game_seq", Unit.__table__.c.game_id, Unit.__table__.c.seq)  # type: ignore[attr-defined]


class Campaign(Stored, table=True):
    """A Firestorm campaign played like a game: the pure state (rules.firestorm.campaign.CampaignState) as
    JSON, its version for optimistic concurrency, and the organiser's corrected map."""

    __tablename__ = "campaign"

    name: str = Field(max_length=200)
    ruleset: str = Field(default="firestorm-villers-bretonneux", max_length=64)
    variants: dict[str, str] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    adjacency: dict[str, list[str]] = Field(
        default_factory=empty_dict, sa_column=Column(JSON, nullable=False)
    )
    state: dict[str, JsonValue] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    version: int = 1
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class CampaignSide(Stored, table=True):
    """One side of a campaign (german or bef) and its join code, stored hashed like a game's."""

    __tablename__ = "campaign_side"
    __table_args__ = (UniqueConstraint("campaign_id", "side"),)

    campaign_id: int = owned_by("campaign", index=False)
    side: str = Field(max_length=16)
    join_code_hash: str = Field(max_length=64, unique=True)


class CampaignToken(Stored, table=True):
    """A bearer token of a campaign (role referee = the organiser, german or bef), stored hashed."""

    __tablename__ = "campaign_token"

    campaign_id: int = owned_by("campaign", index=False)
    role: str = Field(max_length=16)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
    last_seen_at: datetime | None = None
    revoked_at: datetime | None = None


class CampaignEvent(Stored, table=True):
    """The campaign's append-only log: every action with its dice, who took it, the events it caused and the
    state before it (so undo, itself a new event naming the one it reverses, can restore it)."""

    __tablename__ = "campaign_event"

    campaign_id: int = owned_by("campaign")
    kind: str = Field(max_length=16)  # created, map, action, undo
    actor: str = Field(max_length=16)  # referee (the organiser), german or bef
    turn: int = 1
    phase: str = Field(default="", max_length=16)  # the phase the action was taken in
    action: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    dice: list[int] = Field(default_factory=empty_list, sa_column=Column(JSON, nullable=False))
    rolled_by_server: bool = False
    events: list[dict[str, JsonValue]] = Field(
        default_factory=empty_list, sa_column=Column(JSON, nullable=False)
    )
    state_before: dict[str, JsonValue] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    version: int = 1  # the campaign's version after this event
    reverses_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("campaign_event.id"), nullable=True)
    )
    created_at: datetime = Field(default_factory=utcnow)


# A campaign battle has at most one table game that is still open (not yet applied, overridden or abandoned).
CAMPAIGN_BATTLE_OPEN = text("status IN ('open', 'offered')")


class CampaignBattle(Stored, table=True):
    """A campaign battle fought on the table (app/services/campaign_battles.py): the campaign's turn and battle
    it belongs to, the Flanders Fields game opened for it, the result the finished game offers (who holds the
    field as the referee recorded it, the Great War score and its reasons) and the score the organiser
    applied. Status: open -> offered -> confirmed or overridden; abandoned when the campaign moved on."""

    __tablename__ = "campaign_battle"
    __table_args__ = (
        Index(
            "uq_campaign_battle_open",
            "campaign_id",
            "turn",
            "battle",
            unique=True,
            sqlite_where=CAMPAIGN_BATTLE_OPEN,
            postgresql_where=CAMPAIGN_BATTLE_OPEN,
        ),
    )

    campaign_id: int = owned_by("campaign")
    turn: int
    battle: int  # the battle's number in its turn, counted from 1 as the page shows it
    # The game outlives nothing it needs: deleting it leaves the link (and any offer) as a record.
    game_id: int | None = Field(
        default=None,
        sa_column=Column(Integer, ForeignKey("game.id", ondelete="SET NULL"), nullable=True, index=True),
    )
    area: str = Field(max_length=16)  # the contested area, e.g. C-3
    period: str = Field(max_length=32)  # the Flanders Fields period the turn's date chose
    attacker: str = Field(max_length=16)  # the Firestorm side attacking: german or bef
    layout_seed: int = 0
    status: str = Field(default="open", max_length=16)
    field_held_by: str | None = Field(default=None, max_length=16)  # attacker, defender or neither
    offer_attacker_vp: int | None = None
    offer_defender_vp: int | None = None
    offer: BattleOffer | None = Field(default=None, sa_column=Column(ModelJSON(BattleOffer), nullable=False))
    applied_attacker_vp: int | None = None
    applied_defender_vp: int | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class IdempotentResponse(Stored, table=True):
    """The answer to the first write a device sent with an `Idempotency-Key` header (app/guard/idempotency.py): a
    repeat with the same key gets this answer again instead of acting twice. `status_code` is None while the
    first request is still being answered."""

    __tablename__ = "idempotent_response"
    __table_args__ = (UniqueConstraint("device_hash", "key", name="uq_idempotent_response_device_key"),)

    device_hash: str = Field(max_length=64)  # HMAC of the presented token, like Token.token_hash
    key: str = Field(max_length=64)
    request_hash: str = Field(max_length=64)  # method, path and body: a key names one request only
    status_code: int | None = None
    content_type: str = Field(default="", max_length=100)
    body: bytes = Field(default=b"", sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, index=True)


class Scenario(SQLModel, table=True):
    """A scenario imported on this server (app/services/scenarios.py): its document kept as it was imported
    (docs/scenario-format.md), so exporting it gives it back. The scenarios a rule set ships are read from its
    files, never stored."""

    __tablename__ = "scenario"

    id: str = Field(primary_key=True, max_length=64)
    ruleset: str = Field(max_length=64)
    title: str = Field(max_length=200)
    period: str = Field(max_length=32)
    document: dict[str, JsonValue] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class ScenarioDraft(Stored, table=True):
    """A scenario being built in the editor (issue 67), kept on the server so a reload or a lost wifi loses
    nothing: one per browser, rule set and scenario edited, its owner the hash of the browser's own random key (its
    cookie), so no other browser can name it (app/services/scenario_drafts.py). Its document is in the format,
    unchecked until it is saved as a scenario."""

    __tablename__ = "scenario_draft"
    __table_args__ = (
        UniqueConstraint("owner", "ruleset", "scenario", name="uq_scenario_draft_owner_ruleset_scenario"),
    )

    owner: str = Field(max_length=64)  # sha256 of the browser's key: the key itself is never stored
    ruleset: str = Field(max_length=64)
    # The scenario edited, '' for a new one (not NULL: the unique key must hold a browser to one new draft).
    scenario: str = Field(default="", max_length=64, sa_column_kwargs={"server_default": ""})
    document: dict[str, JsonValue] = Field(sa_column=Column(JSON, nullable=False))
    version: int = 1
    updated_at: datetime = Field(default_factory=utcnow, index=True)


class Tournament(Stored, table=True):
    """A club event day (app/services/tournaments.py): N rounds of one rule set and period, its scoring and
    tie-breakers (rules.event.standings.EventScoring, the organiser's choice) and the current round's timer."""

    __tablename__ = "tournament"

    name: str = Field(max_length=200)
    ruleset: str = Field(max_length=64)
    period: str = Field(max_length=32)
    rounds: int = 3
    scoring: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="open", max_length=16)  # open (registering, playing) -> finished
    round_ends_at: datetime | None = None  # the round timer every table shows
    time_zone: str = Field(default="UTC", max_length=64)  # an IANA name: the round's end printed in it
    version: int = 1
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class TournamentToken(Stored, table=True):
    """The organiser's bearer token of an event, stored as HMAC-SHA256(secret key, token) like a game's."""

    __tablename__ = "tournament_token"

    tournament_id: int = owned_by("tournament")
    role: str = Field(default="organiser", max_length=16)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None


class TournamentPlayer(Stored, table=True):
    """A player registered at an event: name, club and force list (by name); seeded in registration order."""

    __tablename__ = "tournament_player"

    tournament_id: int = owned_by("tournament")
    name: str = Field(max_length=80)
    club: str = Field(default="", max_length=80)
    force_list: str = Field(default="", max_length=200)
    dropped: bool = False


class TournamentRound(Stored, table=True):
    """A round of an event: its scenario, draft (the pairing under review) -> committed (games made)."""

    __tablename__ = "tournament_round"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    tournament_id: int = owned_by("tournament")
    number: int
    scenario: str = Field(max_length=64)
    status: str = Field(default="draft", max_length=16)
    bye_player_id: int | None = None
    minutes: int = 150  # the round's length, the organiser's; the timer runs from commit


class TournamentTable(Stored, table=True):
    """One table of a round: its two players (a the attacker), its game once committed, the result the game
    offered, each seat's confirmation and the result the event counts. Status: drafted -> playing ->
    offered -> confirmed, disputed, or altered (the organiser's, logged)."""

    __tablename__ = "tournament_table"
    __table_args__ = (UniqueConstraint("round_id", "table"),)

    tournament_id: int = owned_by("tournament")
    round_id: int = owned_by("tournament_round", index=False)
    table: int
    a_player_id: int = Field(sa_column=Column(Integer, ForeignKey("tournament_player.id"), nullable=False))
    b_player_id: int = Field(sa_column=Column(Integer, ForeignKey("tournament_player.id"), nullable=False))
    game_id: int | None = Field(
        default=None,
        sa_column=Column(Integer, ForeignKey("game.id", ondelete="SET NULL"), nullable=True, index=True),
    )
    status: str = Field(default="drafted", max_length=16)
    offered: TableResult | None = Field(
        default=None, sa_column=Column(ModelJSON(TableResult), nullable=False)
    )
    a_confirmed: bool = False
    b_confirmed: bool = False
    result: TableResult | None = Field(default=None, sa_column=Column(ModelJSON(TableResult), nullable=False))
    slip_hash: str = Field(
        default="", max_length=64
    )  # the re-key offered: side, end and nonce (tournament_results)


class TournamentLog(Stored, table=True):
    """The event's append-only log: drafts, commits, results offered, confirmed, disputed and altered (with
    the result before and after), who did it."""

    __tablename__ = "tournament_log"

    tournament_id: int = owned_by("tournament")
    kind: str = Field(max_length=16)
    actor: str = Field(max_length=16)
    table_id: int | None = None
    detail: dict[str, Any] = Field(default_factory=empty_dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class League(Stored, table=True):
    """A league (issue 63; app/services/league.py): the clubs' result bundles its organiser imported, counted
    once its organiser trusts the signing club's key. Its organiser's token is kept as an HMAC like an event's;
    none for the league the bundles imported before leagues were moved into (read only)."""

    __tablename__ = "league"

    name: str = Field(max_length=200)
    token_hash: str | None = Field(default=None, max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow)


class LeagueKey(Stored, table=True):
    """A club's result-signing key (Ed25519, raw public key as lower-case hex) its league's organiser trusts."""

    __tablename__ = "league_key"
    __table_args__ = (UniqueConstraint("league_id", "public_key"),)

    league_id: int = owned_by("league")
    public_key: str = Field(max_length=64)
    club: str = Field(max_length=80)
    added_at: datetime = Field(default_factory=utcnow)


class LeagueGame(Stored, table=True):
    """One game a league imported from a verified bundle: one row per `identity` (the signing key, the event,
    the round and the table), whatever the bundle's spelling or club name; what the league table reads is in
    its own typed columns, the bundle's signed body kept beside them (without the game's record). It counts
    once its key is one the league trusts (LeagueKey); until then it waits for the organiser."""

    __tablename__ = "league_game"
    __table_args__ = (UniqueConstraint("league_id", "identity"),)

    league_id: int = owned_by("league")
    identity: str = Field(max_length=64)
    body_hash: str = Field(max_length=64)  # the signed body's sha256: the same bundle again is the same row
    club_key: str = Field(max_length=64, index=True)
    club: str = Field(max_length=80)
    event: str = Field(max_length=200)
    round: int
    table: int
    a_name: str = Field(max_length=80)
    a_club: str = Field(max_length=80)
    b_name: str = Field(max_length=80)
    b_club: str = Field(max_length=80)
    winner: str | None = Field(default=None, max_length=16)  # attacker, defender, None for a draw
    a_points: int
    b_points: int
    settled: str = Field(max_length=16)  # confirmed (by the table's game) or altered (by its organiser)
    bundle: dict[str, JsonValue] = Field(sa_column=Column(JSON, nullable=False))
    imported_at: datetime = Field(default_factory=utcnow)


class LeagueClaim(Stored, table=True):
    """One result a league's organiser imported from another tool's CSV (Best Coast Pairings, Longshanks): the
    organiser's claim, signed by no club. The league table counts it and says, line by line, how many games
    rest on claims; one row per `identity` (the event as the organiser named it, the round, the two players)."""

    __tablename__ = "league_claim"
    __table_args__ = (UniqueConstraint("league_id", "identity"),)

    league_id: int = owned_by("league")
    identity: str = Field(max_length=64)
    result_hash: str = Field(max_length=64)  # the row's result: the same row again is the row kept
    event: str = Field(max_length=80)  # as the organiser named the file's event
    round: int
    a_name: str = Field(max_length=80)  # the row's first player
    a_club: str = Field(max_length=80)
    b_name: str = Field(max_length=80)
    b_club: str = Field(max_length=80)
    winner: str | None = Field(default=None, max_length=1)  # a, b, None for a draw
    a_points: int
    b_points: int
    imported_at: datetime = Field(default_factory=utcnow)
