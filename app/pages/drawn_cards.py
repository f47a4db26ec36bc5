"""The cards a side drew at the table map, rendered by the server (issue 67): once the map's "Draw a card" or
"Enter a card" is recorded (POST /api/v1/games/{id}/resolve/{draw} or .../cards/drawn, a roll of the game's secret
draw), the cards drawn with their titles and texts and what the rules then do with them, read from the draw's event
as this seat may read it (the other side never reads a card it was not shown: the event's own visibility and
views). frontend/static/js/table-cards.js sends the draw through the outbox and swaps this in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Path
from sqlmodel import Session

from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.models import Game
from app.deps import SessionDep
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.services import events as events_service
from app.services.markers import rules_of
from app.services.seating import Viewer
from rules.core.errors import NotFoundError

__all__ = ["CardsDrawn", "cards_drawn", "cards_drawn_page"]

router = Router()


@dataclass(frozen=True)
class DrawnCard:
    """A card as drawn: its id in the pack (a rank and suit), title, text and kind (how the rules play it)."""

    card: str
    title: str
    text: str
    kind: str


@dataclass(frozen=True)
class CardsDrawn:
    """A draw as its event says it to this seat: the cards and the rules' notes on what becomes of them."""

    event_id: int
    cards: tuple[DrawnCard, ...]
    notes: tuple[str, ...]

    def context(self) -> dict[str, object]:
        """The context `_cards_drawn.html` renders (tests/app/games/test_cards_drawn_page.py holds the two)."""
        return {"drawn": self}


def cards_drawn(session: Session, game: Game, viewer: Viewer, event_id: int) -> CardsDrawn:
    """The cards of the draw recorded as event `event_id`, as `viewer` reads it: none of an event the viewer may
    not read, of another game, or that is no draw of the game's cards (each the same refusal)."""
    ev = events_service.readable(session, game.pk, viewer, event_id, "roll")
    payload = events_service.event_dict(ev, events_service.roles_of(viewer))["payload"]
    # The other side reads a draw's event without its cards (its count only): for it, as for any other roll, there
    # is no draw of cards to show, and the refusal is the one for an event that does not exist.
    if (
        payload.get("resolver") not in rules_of(game).book.roll_terms.secret_draws
        or "resolution" not in payload
    ):
        raise NotFoundError("event", str(event_id))
    res = payload.get("resolution") or {}
    drawn = (res.get("outcome") or {}).get("drawn") or []
    return CardsDrawn(
        ev.pk,
        tuple(
            DrawnCard(
                str(c.get("card", "")),
                str(c.get("title") or ""),
                str(c.get("text") or ""),
                str(c.get("kind") or ""),
            )
            for c in drawn
            if isinstance(c, dict)
        ),
        tuple(str(n) for n in res.get("notes") or []),
    )


@panel_page(router, "/games/{game_id}/map/cards/{event_id}", "_cards_drawn.html")
def cards_drawn_page(
    game: Game, seat: Seat, session: SessionDep, event_id: Annotated[int, Path(ge=1, le=INT32_MAX)]
) -> CardsDrawn:
    """The cards this seat's draw (event `event_id`) drew, for the map's cards panel."""
    return cards_drawn(session, game, seat.viewer, event_id)
