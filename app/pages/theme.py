"""This device's colours (issue 92): Night or Day chosen in the page menu (`POST /theme`) is kept in a cookie that
every page reads as it is drawn (base.html links night.css for all media at night, for none by day; with no
choice made, Auto, for the system's dark setting, or as the page sets it: the referee's screen at night, its
`night_by_default`). Auto chosen forgets the choice. A cookie, not a script's storage: the page is drawn in its
colours from its first paint, and no script runs for it."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Form
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from app.core.routing import Router
from app.pages.templates import templates

__all__ = ["COOKIE", "choose_theme"]

router = Router(include_in_schema=False)

COOKIE = "firestep-theme"  # read by base.html and _page_menu.html
KEPT_FOR = 400 * 24 * 3600  # as long as a browser keeps a cookie (Chromium's limit, 400 days)
BACK_MOST = (
    2000  # the way back's longest: a page's address longer than this sends its path alone (_page_menu.html)
)
templates.env.globals["theme_back_most"] = BACK_MOST


class ThemeForm(BaseModel):
    """The menu's form: the colours chosen (Auto: none kept) and the page to go back to (a path of this site)."""

    theme: Literal["night", "day", "auto"]
    back: str = Field(default="/", max_length=BACK_MOST)


@router.post("/theme")
def choose_theme(chosen: Annotated[ThemeForm, Form()]) -> Response:
    """The colours kept on this device, and the page it was chosen on drawn again in them (a path of this site
    only: `//host` and `/\\host` are another site's, so the start page instead)."""
    back = chosen.back if chosen.back.startswith("/") and not chosen.back.startswith(("//", "/\\")) else "/"
    answer = RedirectResponse(back, status_code=303)
    if chosen.theme == "auto":  # no choice kept: each page's own default again
        answer.delete_cookie(COOKIE, path="/", samesite="lax", httponly=True)
    else:
        answer.set_cookie(COOKIE, chosen.theme, max_age=KEPT_FOR, path="/", samesite="lax", httponly=True)
    return answer
