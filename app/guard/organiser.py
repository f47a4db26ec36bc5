"""An event's organiser at the API's door (issue 57): their token (Authorization: Bearer, else this event's in
the cookie the event page set) and the check every organiser's route makes first, a wrong token counted as a
guess (app.guard.security). The event day's routes share it: app/routes/tournaments.py and event_board.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import Cookie, Depends, Request
from sqlmodel import Session

from app import errors
from app.core.config import Settings
from app.guard import auth, security
from app.services import tournaments

__all__ = ["ORGANISER_COOKIE", "Token", "organiser_only", "organiser_token"]

ORGANISER_COOKIE = tournaments.ORGANISER_COOKIE


def organiser_token(
    request: Request,
    token: Annotated[str | None, Depends(auth.presented_token)],
    cookie: Annotated[str | None, Cookie(alias=ORGANISER_COOKIE, max_length=auth.KEYED_COOKIE_CHARS)] = None,
) -> str | None:
    """The organiser's token: Authorization: Bearer, else this event's in the organiser's cookie the event page
    set (one per event this browser runs)."""
    return auth.bearer_else_keyed(request, token, cookie, request.path_params.get("event_id"))


Token = Annotated[str | None, Depends(organiser_token)]


def organiser_only(session: Session, settings: Settings, event_id: int, token: str | None) -> None:
    """Refuse anyone but the event's organiser (a wrong token counted against the address)."""
    try:
        tournaments.require_organiser(session, settings.secret_key, event_id, token)
    except errors.Unauthorized:
        security.token_failed()
        raise
