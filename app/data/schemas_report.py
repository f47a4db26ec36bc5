"""The after-action report's JSON answer (app.services.report): the game as it stands, the log by turn, the
losses, the story and the luck ledger, each typed as the services build it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from app.data.schemas_answers import EventOut, GameNowOut
from app.data.schemas_score import GameResultOut


class ReportTurnOut(BaseModel):
    turn: int
    events: list[EventOut]


class CasualtiesOut(BaseModel):
    """The men the stands lost stand for (rules.core.game.GameRules.casualties): the stands, and beside them
    what the rule set's book counts of them (men killed and wounded, platoons, ...) with its `sources`."""

    model_config = ConfigDict(extra="allow")

    bases: int = Field(description="The stands lost.")


class MomentOut(TypedDict):
    """A decisive moment of the story (app.services.story): the act in words, its odds, how much it changed
    (`effect`: units) and how decisive it was (exact fractions)."""

    event_id: int
    turn: int
    words: str
    odds: str
    effect: int
    probability: str
    decisiveness: str


class StoryTurnOut(TypedDict):
    turn: int
    sentences: list[str]


class StoryOut(BaseModel):
    """The story of the game (app.services.story.story): its decisive moments, each turn's sentences, and the
    result in words once the game is over (`ending`)."""

    decisive: list[MomentOut]
    turns: list[StoryTurnOut]
    ending: str | None


class LuckRollOut(TypedDict):
    """A roll of the luck ledger (app.services.ledger.Roll.as_dict) at the odds it was rolled at (none: `odds`
    says why)."""

    event_id: int
    turn: int
    side: str
    unit_id: int | None
    unit: str
    resolver: str
    outcome_key: str
    probability: str | None
    probabilities_exact: dict[str, str] | None
    odds: str
    changed_the_table: bool
    rolled_by: Annotated[
        Literal["players", "firestep"],
        Field(
            description="Whose dice: the players' (entered at the table, each face or a count) or firestep's."
        ),
    ]


class OutcomeTallyOut(TypedDict):
    outcome_key: str
    expected: Annotated[str, Field(description="How many the odds made likely, exactly.")]
    expected_approx: float
    actual: int


class ResolverTallyOut(TypedDict):
    """Per resolver: how many of each outcome its odds made likely against how many came up."""

    resolver: str
    rolls: int
    outcomes: list[OutcomeTallyOut]


class LedgerSideOut(TypedDict):
    rolls: list[LuckRollOut]
    expected_against_actual: list[ResolverTallyOut]
    odds_missing: int


class LedgerOut(TypedDict):
    """The luck ledger (app.services.ledger.ledger): each side's rolls and, per resolver, the outcomes its odds
    made likely against those that came up."""

    sides: dict[str, LedgerSideOut]


class BattalionLossOut(BaseModel):
    unit_id: int
    name: str
    side: str
    rifle_platoons: int
    rifle_platoons_lost: int
    bases_lost: int
    casualties: CasualtiesOut


class ReportOut(BaseModel):
    game: GameNowOut
    turns: list[ReportTurnOut]
    losses_by_battalion: list[BattalionLossOut]
    casualties_by_side: dict[str, CasualtiesOut]
    story: StoryOut
    ledger: LedgerOut
    # How the game came out, once it is over (the story's `ending` says it in words).
    result: GameResultOut | None = None
