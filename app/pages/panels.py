"""A panel of a game's page, served by one route from its builder (issue 90's convention). A panel is its model (a
frozen dataclass whose `context()` its partial renders), its builder (a function of the game and the asking seat,
`game` and `seat`, and of whatever else the request gives, each as FastAPI reads it: a path's parameter,
`SessionDep`, `NowDep`, the seat's query as one query model, `Annotated[Model, Query()]`, that also writes the
links of its taps) and its partial (`frontend/templates/_<panel>.html`). `panel_page` answers GET at its path with
the partial of the panel its builder builds for this seat, as a page of the game (`app.pages.seats.game_page`: 404
for no such game, the join form for a device with no seat, a rule's refusal in its sentence)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from inspect import Parameter, Signature, signature
from typing import Any, Protocol, TypeVar, get_type_hints

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.deps import GameId, SessionDep, SettingsDep
from app.pages.seats import game_page

__all__ = ["Panel", "panel_page"]


class Panel(Protocol):
    def context(self) -> Mapping[str, Any]: ...


Builder = TypeVar("Builder", bound=Callable[..., Panel])
# What every panel's route reads besides its builder's own: the asking device and its game.
PAGE: dict[str, Any] = {"request": Request, "session": SessionDep, "settings": SettingsDep, "game_id": GameId}


def panel_page(router: APIRouter, path: str, partial: str) -> Callable[[Builder], Builder]:
    """Registers GET `path` (a path of one game, `{game_id}`) answering `partial` rendered from the panel the
    decorated builder builds; its parameters but `game` and `seat` are the route's, read as FastAPI reads them."""

    def register(build: Builder) -> Builder:
        hints = get_type_hints(build, include_extras=True)
        own = [
            p.replace(kind=Parameter.KEYWORD_ONLY, annotation=hints[p.name])
            for p in signature(build).parameters.values()
            if p.name not in ("game", "seat")
        ]
        names = [p.name for p in own]
        page_reads = [
            Parameter(n, Parameter.KEYWORD_ONLY, annotation=a) for n, a in PAGE.items() if n not in names
        ]

        def page(**read: Any) -> Response:
            given = {n: read[n] for n in names}
            return game_page(
                read["request"],
                read["session"],
                read["settings"],
                read["game_id"],
                partial,
                partial,
                lambda game, seat: dict(build(game=game, seat=seat, **given).context()),
            )

        page.__signature__ = Signature([*page_reads, *own])  # type: ignore[attr-defined]
        page.__doc__ = build.__doc__
        router.get(path, response_class=HTMLResponse, name=build.__name__)(page)
        return build

    return register
