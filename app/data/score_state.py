"""The stored score (issue 88): its table (`StoredScore`, registered with app.data.models' tables) and the
replay's state as its rows keep it (`ScoreState`), read into that model once as a row is read and written from it.

A replay (rules.core.score.Replay) is the objectives' standings, the tally of points, holders, calls and turns,
the victory conditions met and each side's stands and losses. The units' places are not kept: they are the
units' rows now, with the log's later changes taken back (rules.core.score.pieces_before), so a replay gone on
from a stored one reads only the units its events touch. The objectives and conditions are the game's (their
digest beside the state): a state is put back into a replay made of the same ones (`replay`)."""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, ConfigDict, JsonValue
from sqlalchemy import JSON, Column, ForeignKey, Integer
from sqlmodel import Field, SQLModel

from rules.core.score import TALLY_KEPT, Piece, Replay, Taken
from rules.core.victory import Met
from rules.table.objectives import HeldTally, Holding, Standing


class ScoreState(BaseModel):
    """A replay's state after its last event, without its units' places (see the module)."""

    model_config = ConfigDict(extra="forbid")

    events: int  # the events replayed
    turn: int
    ended: bool
    counted: dict[str, list[int]]  # each side's stands and those destroyed
    # rules.table.objectives.HeldTally's standings, by objective, each a text (`standings_text`): the largest
    # table's are tens of thousands, and as JSON objects they were most of an act's time (2 MB, 0.3 s).
    standings: dict[str, str]
    holdings: dict[str, Holding]
    points: dict[str, int]
    calls: dict[str, tuple[str | None, Holding]]
    lapsed: dict[str, str | None]
    taken: dict[str, str]
    first: dict[str, str]
    first_turn: dict[str, int]
    was: dict[str, str | None]
    changes: list[Taken]
    turns_scored: list[int]
    counts: dict[str, dict[str, int]]
    met: list[Met]
    scored: list[str]

    @classmethod
    def of(cls, replay: Replay) -> ScoreState:
        """The state `replay` has reached (left as it is)."""
        t = replay.tally.copied()
        return cls.model_construct(  # of the replay's own values, already of these types
            events=replay.events,
            turn=replay.turn,
            ended=replay.ended,
            counted={s: list(c) for s, c in replay.counted.items()},
            standings={oid: standings_text(d) for oid, d in replay.kept.standings().items()},
            **{name: getattr(t, name) for name in TALLY_KEPT},
            scored=sorted(t.scored),
        )

    def replay(self, start: Replay, pieces: dict[int, Piece]) -> Replay:
        """The replay this state is, put into `start` (a fresh one of the same objectives and conditions, with no
        unit: rules.core.score.replay_start, left as it is) with `pieces`, the units as they stood after its last
        event that the events to come touch. Its standings are put into a new tally, sorted once as it is first
        read (a state read to be scored, not gone on from, has none: `read`)."""
        fresh = start.copy()
        kept = HeldTally(start.objectives) if self.standings else fresh.kept
        for oid, text in self.standings.items():
            for stand_id, standing in standings_of(text):
                kept.put(oid, stand_id, standing)
        tally = replace(
            fresh.tally, **{name: getattr(self, name) for name in TALLY_KEPT}, scored=set(self.scored)
        )
        tally = tally.copied()  # the model's own values left as they are
        counted = {s: list(c) for s, c in self.counted.items()}
        return replace(
            fresh,
            pieces=pieces,
            kept=kept,
            tally=tally,
            turn=self.turn,
            ended=self.ended,
            events=self.events,
            counted=counted,
        )


def standings_text(standings: dict[str, Standing]) -> str:
    """An objective's standings as stored: `stand|side|flags` each (flags: 1 meets, 2 firmly, 4 close), by spaces."""
    return " ".join(
        f"{sid}|{side}|{meets + 2 * firm + 4 * close}"
        for sid, (side, meets, firm, close) in standings.items()
    )


def standings_of(text: str) -> list[tuple[str, Standing]]:
    """The standings `standings_text` wrote, by stand."""
    out: list[tuple[str, Standing]] = []
    for token in text.split(" ") if text else ():
        sid, side, flags = token.split("|")
        f = int(flags)
        out.append((sid, (side, bool(f & 1), bool(f & 2), bool(f & 4))))
    return out


def read(state: dict[str, JsonValue]) -> ScoreState:
    """A stored state read to be scored, not gone on from: its standings left out (a stand's standing to each
    objective it is near: the largest table's are tens of thousands, and the score reads the holdings alone)."""
    return ScoreState.model_validate({**state, "standings": {}})


class StoredScore(SQLModel, table=True):
    """A game's score as its log stands after its event `event_id` (app.services.score_store): the replay's `state`
    (a ScoreState), advanced in the unit of work of every act that logs an event, so a read is its newest row.
    One every so many events stays (`periodic`): an undo goes on from the newest before the event it takes
    back. `inputs`: the digest of the objectives and victory conditions it was replayed with (another digest:
    replayed again). No row: the game's score is replayed from its log (a game made before, or in a round's one
    statement) until an act stores it."""

    __tablename__ = "stored_score"

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
        )
    )
    event_id: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    periodic: bool = False
    inputs: str = Field(max_length=64)
    state: dict[str, JsonValue] = Field(sa_column=Column(JSON, nullable=False))  # always written whole
    # Each side's points as the state stands (rules.core.score.points_at, every reader's): what the organiser's
    # board of hundreds of tables reads, a row a table, no state decoded nor scored. None: a row stored before.
    points: dict[str, int] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
