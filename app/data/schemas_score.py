"""The score's and the result's JSON answers (issue 55): each side's points and losses, each objective as it is
held or called, the game's result."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.data.schemas_clock import SideClockOut
from app.data.schemas_scenario import ObjectiveFeature


# -- the score (issue 55) -----------------------------------------------------------------------------------
class SideScoreOut(BaseModel):
    """A side's victory points (as the game would end now, until it has) and its stands destroyed."""

    side: str
    points: int
    losses: int
    needed: int | None = Field(
        default=None, description="The points the side needs to win, where the book says."
    )


class PointOut(BaseModel):
    """A GeoJSON point: x and y, table cm."""

    type: Literal["Point"]
    coordinates: list[float]


class PolygonOut(BaseModel):
    """A GeoJSON polygon: its rings (the outer, then any holes), each closed, of x and y points in table cm."""

    type: Literal["Polygon"]
    coordinates: list[list[list[float]]]


# An objective is a point or an area (rules.table.objectives).
ObjectiveShape = Annotated[PointOut | PolygonOut, Field(discriminator="type")]


class ObjectiveScoreOut(BaseModel):
    """An objective as the score stands: its holder (None: nobody; the referee's call where one stands), the
    stands holding it, whether a stand within 1 cm of its edge could change that (for the referee's call),
    whether the holder is the referee's call, and the side that took it first."""

    id: str
    name: str
    vp: int
    scored: str
    holder: str | None
    stands: list[int]
    contested: bool
    called_by_referee: bool
    first_taken_by: str | None = Field(default=None, description="The first side to hold it in play")
    first_taken_turn: int | None = Field(default=None, description="The turn that side first held it in")
    settled: Literal["held", "called", "contested"] = Field(
        default="held",
        description="How it is settled: held by the stands beyond doubt, called by the referee, or contested "
        "with no call standing (the referee calls it before ending the game; as the game ended: contested at "
        "the end)",
    )
    lapsed_call: str | None = Field(
        default=None,
        description="The side a call of the referee named that has lapsed since (the stands' holding changed), "
        "'nobody' for a call for nobody; null while a call stands or none lapsed",
    )
    geometry: ObjectiveShape | None = Field(
        default=None, description="Its point or area as the scenario writes it (GeoJSON, table cm)"
    )
    settled_words: str | None = Field(
        default=None,
        description="In a result: how it was settled, in words (app.services.result.how_settled)",
    )
    turns: int = Field(
        default=0, description="held_turns: the turns' ends it is held at to score (0: another kind)"
    )
    consecutive: bool = Field(default=False, description="held_turns: those turns in a row, else in all")
    turns_held: int = Field(
        default=0, description="held_turns: the turns' ends `turns_held_by` has held it at"
    )
    turns_held_by: str | None = Field(
        default=None, description="held_turns: the holder now, else the side that has held it the most"
    )
    secret_to: Literal["attacker", "defender"] | None = Field(
        default=None,
        description="A secret objective's side: only it and the referee read it until it scores (issue 69)",
    )
    revealed: bool = Field(default=True, description="False: a secret objective that has not scored yet")


class VictoryMetOut(BaseModel):
    """A scenario's victory condition met in play (rules.core.victory.Met): the game goes on until the referee
    ends it with this result or plays on (`played_on`)."""

    number: int = Field(description="Its number in the scenario's `victory_conditions`, 1 on")
    kind: Literal["points", "objective_taken", "side_broken"]
    winner: str | None = Field(description="The side it makes the winner (null: level)")
    turn: int
    words: str = Field(description="What was met, citing the scenario")
    played_on: bool = Field(description="The referee chose to play on")


class GameScore(BaseModel):
    """`GET /games/{id}/score`: where the game stands (its turn or bound, its last turn, the step), each
    side's points and losses, each objective, and each side's clock (`clocks`)."""

    game_id: int
    status: str
    turn: int
    turn_word: str
    last_turn: int | None = None
    side_to_move: str
    step: str | None
    sides: list[SideScoreOut]
    objectives: list[ObjectiveScoreOut]
    met: list[VictoryMetOut] = Field(
        default_factory=list,
        description="The scenario's victory conditions met, in order (rules.core.victory)",
    )
    clocks: list[SideClockOut] = Field(
        default_factory=list, description="Each side's clock (GET /clock answers the whole GameClock)."
    )


class GameResultOut(BaseModel):
    """How a finished game came out (app.services.result.GameResult): the winner (None: a draw), each side's
    points and losses, the objectives as they stood, the turn it ended in, why, in words, and its rule; who won
    in the book's names for its sides (`headline`: "Canadian victory", or "A draw")."""

    winner: str | None
    points: dict[str, int]
    losses: dict[str, int]
    objectives: list[ObjectiveScoreOut]
    ended_at_turn: int
    ended_by: str
    reason: str
    words: str
    source: str
    headline: str


class SecretGivenOut(BaseModel):
    """A secret objective given at set-up: its id (drawn at random) and its side."""

    id: str
    side: Literal["attacker", "defender"]


class SecretObjectiveRevealedOut(BaseModel):
    """A secret objective revealed: the objective, its salt, its slot, its leaf and the hashes on its way to
    the root (rules.core.commitment), and whether they give the commitment published."""

    objective: ObjectiveFeature
    salt: str
    slot: int
    leaf: str
    path: list[str]
    root: str = Field(description="The commitment its leaf and path give (its side's, when they are true)")
    verified: bool


class ObjectivesVerifiedOut(BaseModel):
    """`GET /games/{id}/objectives/{side}/verify`: the side's commitment, the one rebuilt from what is revealed
    (the whole tree with the padding salt when `padding_salt` is given), whether they match, and each objective
    revealed."""

    side: Literal["attacker", "defender"]
    commitment: str
    recomputed: str | None
    verified: bool
    capacity: int
    padding_salt: str | None
    items: list[SecretObjectiveRevealedOut]
    how_to_check: str
