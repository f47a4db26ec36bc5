"""The seal's check, said by the server (issue 67): a side's fire plan checked against the commitment published
at locking, or its secret objectives against the one published as the game started, in one sentence that the
"Check" button (htmx, hx-get) swaps into its section's [data-verify-result]. The same services and the same
access as the JSON routes (app/routes/fireplans.py's and app/routes/score.py's verify), so a refusal is theirs,
said in the page's words in the same place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.core.config import Settings
from app.core.routing import Router
from app.data.models import Game
from app.data.schemas_answers import PlanCheckedOut, PlanVerifiedOut
from app.data.schemas_score import ObjectivesVerifiedOut
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict
from app.pages.common import is_htmx
from app.pages.score_panel import Words
from app.pages.seats import Seat, game_page
from app.services import fireplans
from app.services import score as score_service
from app.services.seating import Viewer
from rules.core.vocabulary import Side

__all__ = ["Verdict", "objectives_verdict", "plan_verdict", "plan_words"]

router = Router()

FRAGMENT = "_plan_verified.html"
SHOWN = 12  # a commitment's first hex digits, enough to compare by eye with the one on the page


@dataclass(frozen=True)
class Verdict:
    """What the check says: a match, no match, or why it was not made (`refused`: the JSON route's status)."""

    said: str
    good: bool = False
    refused: int = 0

    def context(self) -> dict[str, object]:
        """The context `_plan_verified.html` renders (tests/app/test_plan_verify.py holds the two)."""
        return {"verdict": self}


def _digits(value: str | None) -> str:
    return f"{value[:SHOWN]}…" if value else "nothing"


def _gave(n: int) -> str:
    """What the commitment was rebuilt from, as the sentence's subject."""
    if n == 1:
        return "the 1 item revealed gives"
    return f"the {n} items revealed give" if n else "with no item (none was sealed) the seal gives"


def _verdict(checked: PlanCheckedOut | PlanVerifiedOut | ObjectivesVerifiedOut, secret: bool) -> Verdict:
    """One seal's check in words: the items it rebuilt the commitment from, and whether it is the one published."""
    if not checked.verified:
        return Verdict(
            f"No match: the plan revealed gives {_digits(checked.recomputed)}, not the commitment published "
            f"({_digits(checked.commitment)}). Tell the referee."
        )
    published, what = (
        ("as the game started", "secret objectives were") if secret else ("at locking", "plan was")
    )
    gave = _gave(len(checked.items or ()))
    return Verdict(
        f"Match: {gave} exactly the commitment published {published} ({_digits(checked.recomputed)}). "
        f"The {what} not changed.",
        good=True,
    )


def plan_verdict(session: Session, game: Game, viewer: Viewer, side: Side) -> Verdict:
    """`side`'s fire plan checked as GET /api/v1/games/{id}/fireplans/{side}/verify checks it for `viewer`: its
    own side and the referee, everyone once the game is over (else 403); a plan sealed each turn, turn by turn."""
    if not fireplans.may_read_plan(viewer, side, game):
        return Verdict("Not yet: the other side's plan can be checked once the game is over.", refused=403)
    return plan_words(PlanVerifiedOut.model_validate(fireplans.verify_plan(session, game, side)))


def plan_words(plan: PlanVerifiedOut) -> Verdict:
    """The verify route's answer in words: its one lock's, or (a plan sealed each turn) every sealed turn's, a
    turn that does not match said as a lock's own."""
    sealed: list[PlanCheckedOut | PlanVerifiedOut] = [*plan.turns] if plan.turns is not None else [plan]
    locks = [t for t in sealed if t.locked]
    if not locks:
        return Verdict("Not yet: the plan is checked once it is locked.")
    wrong = next((t for t in locks if not t.verified), None)
    if wrong is not None or len(locks) == 1:
        return _verdict(wrong or locks[0], secret=False)
    n = sum(len(t.items or ()) for t in locks)
    return Verdict(
        f"Match: {_gave(n)} exactly the commitment published at each of its {len(locks)} lockings. The plan "
        "was not changed.",
        good=True,
    )


def objectives_verdict(session: Session, game: Game, viewer: Viewer, side: Side) -> Verdict:
    """`side`'s secret objectives checked as GET /api/v1/games/{id}/objectives/{side}/verify checks them for
    `viewer`: its own side, the referee and everyone once the game is over the whole tree, the other side those
    revealed. Nothing revealed yet is one answer whether the side holds some or none (409)."""
    whole = game.status == "finished" or viewer.may_act_for(side)
    try:
        checked = score_service.secrets_checked(session, game, side, whole)
    except Conflict:
        name = Words(game.ruleset, "").word(side)
        return Verdict(
            f"Not yet: the {name}'s secret objectives can be checked once one scores, or at the end.",
            refused=409,
        )
    return _verdict(checked, secret=True)


def _answer(
    request: Request,
    session: Session,
    settings: Settings,
    game_id: int,
    check: Callable[[Session, Game, Viewer, Side], Verdict],
    side: Side,
) -> Response:
    """The verdict for this seat. htmx swaps only a 2xx, so a refusal is said in the fragment with a 200 to htmx
    and with the JSON route's status to any other asker; no seat here: the join page's 401, as the API's."""
    verdict = Verdict("")

    def build(game: Game, seat: Seat) -> dict[str, object]:
        nonlocal verdict
        verdict = check(session, game, seat.viewer, side)
        return verdict.context()

    page = game_page(request, session, settings, game_id, FRAGMENT, FRAGMENT, build)
    if verdict.refused and not is_htmx(request):
        page.status_code = verdict.refused
    return page


@router.get("/games/{game_id}/fire-plan/{side}/verify", response_class=HTMLResponse)
def plan_verify_page(
    game_id: GameId, side: Side, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The fire plan's "Check it now" (_fire_plan_verify.html)."""
    return _answer(request, session, settings, game_id, plan_verdict, side)


@router.get("/games/{game_id}/objectives/{side}/verify", response_class=HTMLResponse)
def objectives_verify_page(
    game_id: GameId, side: Side, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """A side's secret objectives' "Check the …'s" (the score panel's seal, _score_panel.html)."""
    return _answer(request, session, settings, game_id, objectives_verdict, side)
