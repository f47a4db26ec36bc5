"""A page's refusal re-rendered by one handler (issue 90): a page's POST route, `posted`, reads its form through
FastAPI's form fields or a form model (`Annotated[Model, Form()]`) and names the renderer of its page; a refusal on
it (a field the model refuses, an organiser's dependency, a service's refusal, too many guesses) renders that page
with its one sentence and what was entered, never FastAPI's JSON 422 and never an except-branch per page."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Form, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from fastapi.routing import APIRoute
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from app import errors
from app.core.config import Settings
from app.deps import SessionDep, SettingsDep
from app.errors import Conflict, Forbidden, TooManyRequests, Unauthorized
from app.guard import auth, security
from app.pages.common import USER_ERRORS, JoinRefused, error_message, too_many
from app.sentences import sentence
from rules.core.errors import NotFoundError


@dataclass(frozen=True)
class Refusal:
    """A page's refusal: its one sentence, its status and what was entered (each field's text as typed)."""

    said: str
    status: int
    typed: dict[str, str] = field(default_factory=dict)
    error: Exception | None = None  # the service's refusal, for a page that words it in its own form's words


Render = Callable[[Request, Session, Settings, Refusal], Response]
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])

_RENDERERS: dict[Callable[..., Any], Render] = {}


def posted(
    router: APIRouter, path: str, render: Render, *dependencies: Any
) -> Callable[[Endpoint], Endpoint]:
    """A page's POST route (HTML) behind `dependencies`, whose refusal renders `render`'s page."""

    def route(endpoint: Endpoint) -> Endpoint:
        _RENDERERS[endpoint] = render
        return router.post(path, response_class=HTMLResponse, dependencies=list(dependencies))(endpoint)

    return route


class PageRefused(Exception):
    """A page's own refusal in its sentence (a code not known, a choice the form never offers) and status."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


STATUSES: tuple[tuple[type[Exception], int], ...] = (
    (Unauthorized, 401), (Forbidden, 403), (NotFoundError, 404), (Conflict, 409),
)  # fmt: skip


def status_of(e: Exception) -> int:
    """A refusal's status as the API's would be (a page renders it or keeps its own)."""
    if isinstance(e, PageRefused | JoinRefused):
        return e.status
    return next((status for kind, status in STATUSES if isinstance(e, kind)), 422)


def server_organiser(what: str) -> Any:
    """The dependency of a form that creates `what` where this server wants its organiser key (its form's
    `organiser_key`, as the API's X-Organiser-Key header: app.guard.auth.require_organiser): missing 401, wrong
    403, in plain words; too many wrong keys from the address pass through (TooManyRequests)."""

    async def organiser(
        settings: SettingsDep, organiser_key: Annotated[str, Form(max_length=200)] = ""
    ) -> None:
        problem = auth.organiser_key_problem(settings.organiser_key, organiser_key)
        if problem == "missing":
            raise Unauthorized(
                f"Only the organiser may start {what} on this server: enter the organiser key."
            )
        if problem == "wrong":
            raise Forbidden("That is not the organiser key: check it with the organiser.")

    return Depends(organiser)


def form_sentence(exc: RequestValidationError, model: Any) -> str:
    """The first field the form model refused, named, as the API words it (app.errors.model_refusal)."""
    return str(errors.model_refusal(exc.errors(), model)["detail"])


GUESSED_WORDS = {"failed join codes": "wrong join codes"}  # the door's words for a guess, as a page says them


def _guessed(e: TooManyRequests) -> str:
    """What was guessed too often, as the door's refusal names it ("too many failed join codes from ...")."""
    what = e.message.removeprefix("too many ").split(" from this address", 1)[0]
    return GUESSED_WORDS.get(what, what)


async def entered(request: Request) -> dict[str, str]:
    """What the form held, each text field as typed (a file is not sent back)."""
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


async def _as_posted(request: Request) -> FormData:
    """The form FastAPI read for the route's model (Starlette keeps it: parsed once)."""
    return await request.form()


PostedForm = Annotated[FormData, Depends(_as_posted)]
"""The form as posted, the one escape from a form model: for the fields a rule set names, which no model of the
app can declare (a resolver's fields, its dice, card picks and variants; a club's data and its list of counters),
each read bounded by its reader beside the route's form model of the fields the page itself names."""


async def _kept_session(request: Request, session: SessionDep) -> None:
    """The request's session (FastAPI's one per request), kept for the refusal's page to read through."""
    request.state.page_session = session


class PageRoute(APIRoute):
    """A page route: where its endpoint was `posted` with a renderer, a refusal on it is its page again."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if inspect.unwrap(endpoint) in _RENDERERS:
            kwargs["dependencies"] = [Depends(_kept_session), *(kwargs.get("dependencies") or [])]
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Any]:
        handler = super().get_route_handler()
        shown = _RENDERERS.get(inspect.unwrap(self.endpoint))
        if shown is None:
            return handler
        render = shown
        model = errors.body_model(self)

        async def answer(request: Request) -> Response:
            waited: TooManyRequests | None = None
            error: Exception | None = None
            try:
                response: Response = await handler(request)
                return response
            except RequestValidationError as e:
                if any(error["loc"][:1] != ("body",) for error in e.errors()):
                    raise  # the address names no page to render: refused as it always was (app.errors)
                said, status = form_sentence(e, model), 422
            except (
                TooManyRequests
            ) as e:  # too many wrong keys or codes from this address: 429, and Retry-After
                waited = e
                said, status = security.page_wait_message(e, _guessed(e)), 429
            except (*USER_ERRORS, PageRefused, JoinRefused) as e:
                # Written as a sentence (the services' refusals start lower case: "round 1 still waits ...").
                error, said, status = e, sentence(error_message(e)), status_of(e)
            refusal = Refusal(said, status, await entered(request), error)
            response = await run_in_threadpool(_rendered, request, render, refusal)
            return too_many(response, waited) if waited is not None else response

        return answer


def _rendered(request: Request, render: Render, refusal: Refusal) -> Response:
    """The page again, read through the request's session once what the refused write began is undone."""
    session: Session = request.state.page_session
    session.rollback()
    return render(request, session, request.app.state.settings, refusal)
