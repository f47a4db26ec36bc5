"""The referee gives a side a secret objective by taps (issue 69): a form on the referee's board at set-up, the
same service call as `POST /api/v1/games/{id}/objectives/secret` (app.services.secret_objectives.give), posted
by htmx and answered by this fragment again, with the refusal in one sentence beside the button. A point on the
table (cm from the attacker's left corner, as the scenario format measures), the side, name, points and how it
scores. Only the referee's page draws it (`secret_form` is None for a seat): the objective given is listed here
and in its own side's score card, never in anything the other side's device reads."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlmodel import Session

from app.data.models import Game
from app.data.schemas_scenario import SECRET_VP_BLANK, ObjectiveFeature, SecretObjectiveForm
from app.errors import Conflict
from app.pages.common import REFUSAL_MAX, error_message
from app.services import score as score_service
from app.services import secret_objectives
from app.services.markers import rules_of
from app.services.seating import Viewer
from app.services.writing import game_write
from rules.core.errors import RulesError
from rules.table.objectives import KINDS, MAX_HELD_TURNS, MAX_NAME, MAX_VP, Kind

ANCHOR = "secret-objective"  # the fragment's id, swapped by htmx


@dataclass(frozen=True)
class Given:
    """A secret objective given so far, as the referee's list shows it."""

    side: str
    name: str
    vp: int
    scored: str


class Posted(BaseModel):
    """The form as typed, each field bounded (the route's form model), read as the objective by
    `SecretObjectiveForm`, whose refusal names the field; shown again with a refusal, so that nothing typed is lost
    (blank: as drawn)."""

    model_config = ConfigDict(frozen=True)

    side: str = Field("", max_length=40)
    name: str = Field("", max_length=MAX_NAME)
    vp: str = Field("", max_length=40)  # blank: SECRET_VP_BLANK, its placeholder
    scored: str = Field("", max_length=40)
    turns: str = Field("", max_length=40)
    consecutive: str = Field("", max_length=8)  # its checkbox: "on" when ticked
    x_cm: str = Field("", max_length=40)
    y_cm: str = Field("", max_length=40)


DRAWN = Posted(side="attacker", scored="each_turn")  # the form as first drawn


@dataclass(frozen=True)
class Outcome:
    """What a post of the form came to: the refusal (one sentence, at most REFUSAL_MAX characters) and its
    status, or the sentence saying what was given."""

    error: str | None = None
    done: str | None = None
    status: int = 200
    posted: Posted = DRAWN  # what was typed, with a refusal


@dataclass(frozen=True)
class SecretForm:
    """What the fragment draws: the form while the game is in set-up (`usable`), else only the refusal."""

    url: str
    usable: bool
    sides: tuple[tuple[str, str], ...]  # each side and what its book calls it (blank: nothing more)
    kinds: tuple[Kind, ...]
    width_cm: float
    length_cm: float
    given: tuple[Given, ...]
    error: str | None = None
    done: str | None = None
    posted: Posted = DRAWN
    max_name: int = MAX_NAME
    max_vp: int = MAX_VP
    vp_blank: int = SECRET_VP_BLANK
    max_turns: int = MAX_HELD_TURNS


def secret_form(
    session: Session, game: Game, viewer: Viewer, outcome: Outcome | None = None
) -> SecretForm | None:
    """The referee's form (None for a seat, and once it cannot be used, unless to show why it was refused)."""
    if not viewer.is_referee:  # first: a seat's board costs nothing more
        return None
    rules = rules_of(game)
    usable = game.status == "setup" and not rules.book.score_kept
    outcome = outcome or Outcome()
    if not (usable or outcome.error):
        return None
    rows = secret_objectives.rows(session, [game.pk]) if usable else []
    words = {k.scored: k.label for k in KINDS}
    given = tuple(
        Given(r.side, p.name, p.vp, words[p.scored])
        for r in rows
        for p in [ObjectiveFeature.model_validate(r.feature).properties]
    )
    return SecretForm(
        url=f"/games/{game.pk}/referee/secret-objectives",
        usable=usable,
        sides=tuple((s, rules.book.side_names.get(s, "")) for s in rules.book.sides),
        kinds=KINDS,
        width_cm=game.table_width_cm,
        length_cm=game.table_length_cm,
        given=given,
        error=outcome.error,
        done=outcome.done,
        posted=outcome.posted,
    )


def give(session: Session, game_id: int, viewer: Viewer, posted: Posted) -> Outcome:
    """Give the objective the form describes, with the API's checks and refusals (422 naming the field, 409 once
    the game has started or for rules keeping their own score)."""
    try:
        asked = SecretObjectiveForm.model_validate(posted.model_dump())
        with game_write(session, game_id) as game:
            feature = asked.objective().model_dump(mode="json", exclude_none=True)
            public = score_service.objectives_of(game)
            secret_objectives.give(session, game, asked.side, feature, public)
    except (ValidationError, RulesError, Conflict) as e:
        session.rollback()
        said = error_message(e).split("; ")[0]  # the first field refused, named
        said = said if len(said) <= REFUSAL_MAX else said[: REFUSAL_MAX - 1] + "…"
        return Outcome(error=said, status=409 if isinstance(e, Conflict) else 422, posted=posted)
    return Outcome(done=f"Given: {asked.name}, {asked.vp} VP, to the {asked.side}.")
