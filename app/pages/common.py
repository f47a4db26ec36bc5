"""What every page shares: htmx detection, the one page-or-fragment response, the refusal pages, and
plain-language messages for people at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Request
from fastapi.responses import Response
from pydantic import ValidationError

from app.errors import Conflict, Forbidden, TooManyRequests, Unauthorized
from app.guard import security
from app.pages.templates import humanise, templates
from app.sentences import error_words, field_names
from rules.core.errors import NotFoundError, RulesError


def is_htmx(request: Request) -> bool:
    """Whether htmx asked (for the fragment it swaps); the answer then varies on the header, and says so
    (app.guard.caching: a cache keeps the page and the fragment of one URL apart)."""
    request.state.varies_on_htmx = True
    return request.headers.get("HX-Request") == "true"


def page_or_fragment(
    request: Request, full: str, fragment: str, context: dict[str, Any], status_code: int = 200
) -> Response:
    name = fragment if is_htmx(request) else full
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def too_many(response: Response, e: TooManyRequests) -> Response:
    """A page refused for too many failures: 429, and Retry-After (worded for htmx by app.guard.notice)."""
    response.status_code = 429
    response.headers["Retry-After"] = str(e.retry_after)
    return response


def not_found(request: Request, e: NotFoundError) -> Response:
    return templates.TemplateResponse(
        request, "error.html", {"title": "Not found", "message": e.message}, status_code=404
    )


REFUSAL_TITLES = {403: "Not for this device", 404: "Nothing at this address", 503: "Not available here yet"}


def refusal_page(request: Request, status: int, sentence: str, remedy: tuple[str, str] | None) -> Response:
    """A refusal a browser opened (app.errors.wants_a_page): its sentence, and its remedy as a link (the
    start page's is always offered)."""
    link = {"text": remedy[0], "href": remedy[1]} if remedy else None
    context = {"title": REFUSAL_TITLES.get(status, "Refused"), "message": sentence, "link": link}
    return templates.TemplateResponse(request, "error.html", context, status_code=status)


REFUSAL_MAX = 120  # a refusal is one sentence of at most 120 characters


def error_message(e: Exception) -> str:
    if isinstance(e, RulesError):
        # One sentence of at most 120 characters: the values allowed are named where they fit (a resolver's
        # dozens of names do not; the page's own choices offer them).
        field = humanise(e.field.rsplit(".", 1)[-1])
        said = f"{field}: {e.message}"
        return said if len(said) <= REFUSAL_MAX else f"{field}: {e.reason}"
    if isinstance(e, ValidationError):
        # The first field refused, by its name: a list's item by its list (the hostile pass read "0: Input should
        # be ..."), a union's by its field; one sentence (each error joined was none: the page's generic one).
        first = e.errors()[0]
        names = field_names(first.get("loc") or ())
        said = f"{humanise(names[-1]) if names else 'Value'}: {error_words(first)}"
        # A union's every tag named ran to 221 characters (session 23's hostile pass): the page's choices offer them.
        return said if len(said) <= REFUSAL_MAX else said.rsplit(": give ", 1)[0][:REFUSAL_MAX]
    if isinstance(e, NotFoundError | Conflict | Forbidden | Unauthorized):
        return str(e.message)
    return str(e)


USER_ERRORS = (RulesError, ValidationError, NotFoundError, Conflict, Forbidden, Unauthorized)


Joined = TypeVar("Joined")


class JoinRefused(Exception):
    """A join code the page refuses, with the sentence to show the player and the page's status (409 for a
    code that seated a device before, an event's spent card; 422 otherwise)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


class SeatHeld(Exception):
    """The device already holds another seat where the code leads: the page asks before replacing it."""

    def __init__(self, owner_id: int, held: str, offered: str) -> None:
        super().__init__(f"this device holds {held} in {owner_id}, the code is for {offered}")
        self.owner_id, self.held, self.offered = owner_id, held, offered


REPLACE_FIELD = "replace_seat"  # the confirm step's "yes": this device gives up the seat it holds


def keep_seat_unless_confirmed(owner_id: int, held: str | None, offered: str, replace: str) -> None:
    """The join forms of games and campaigns alike: a device that holds another seat in the game or campaign
    the code leads to keeps it unless its user confirms (SeatHeld until the form's REPLACE_FIELD says "yes")."""
    if held is not None and held != offered and replace != "yes":
        raise SeatHeld(owner_id, held, offered)


def confirm_seat_page(
    request: Request,
    e: SeatHeld,
    *,
    name: str,
    code: str,
    action: str,
    keep_url: str,
    words: Callable[[str], str],
) -> Response:
    """The confirm step (409: nothing changed yet), in the player's words; the code it carries back was typed on
    this device, so the answer is never stored."""
    context = {
        "title": f"Switch seats in {name}?",
        "name": name,
        "held": words(e.held),
        "offered": words(e.offered),
        "code": code,
        "action": action,
        "keep_url": keep_url,
        "replace_field": REPLACE_FIELD,
    }
    response = templates.TemplateResponse(request, "join_confirm.html", context, status_code=409)
    response.headers["Cache-Control"] = "no-store"
    return response


def join_with_code(
    code: str, who_gave_it: str, join: Callable[[str], Joined], what: str = "join code"
) -> Joined:
    """The join forms of games and campaigns alike: refuse an empty code, check and count wrong codes against
    the device's rate limit (TooManyRequests passes through), and word every refusal for the player. `what`
    names what the form takes (a game's form also takes the referee's token)."""
    try:
        if not code:
            raise RulesError("code", f"enter the {what} your {who_gave_it} gave you")
        security.check_guesses()
        return join(code)
    except NotFoundError as e:
        security.guess_failed()
        raise JoinRefused(f"That {what} is not known here: check it with the {who_gave_it}.") from e
    except USER_ERRORS as e:
        raise JoinRefused(error_message(e), 409 if isinstance(e, Conflict) else 422) from e
