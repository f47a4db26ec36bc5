"""Who may keep an answer: every answer this server renders is private to the device that asked, unless its route
says otherwise (a versioned static file, a public playsheet, a page kept from every cache with `no-store`).

A seat's page, a stand card's fragment, the score panel, a JSON answer read by a token: each is drawn for the
seat its cookie or token names, and a cache shared between devices (a club's proxy, a phone carrier's) that kept
one would hand one seat's view, the other side's hidden stands included, to the next device asking the same URL.
`private` keeps them out of every shared cache; `Vary: Cookie` keeps a browser from answering one seat's request
with another seat's copy (two seats on one device); `no-cache` has the browser ask again each time (the answers
carry no validator, so it fetches anew) while still letting the service worker keep a seat's pages for the
table's offline minutes, per seat (frontend/static/sw.js keeps nothing marked `no-store`, and keeps a fragment
never: only a navigation). A page that answers htmx with a fragment of itself (app.pages.common.is_htmx) also
varies on `HX-Request`, so that no cache answers the page's URL with its fragment, or the other way round."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import Scope

PRIVATE = "private, no-cache"


def private_unless_said(headers: MutableHeaders, scope: Scope) -> None:
    """Mark an answer private to the asking device where its route set no caching of its own, and say
    `Vary: HX-Request` where the route read it (app.pages.common.is_htmx marks the request's state)."""
    if "cache-control" not in headers:
        headers["Cache-Control"] = PRIVATE
        _vary(headers, "Cookie")
    if scope.get("state", {}).get("varies_on_htmx"):
        _vary(headers, "HX-Request")


def _vary(headers: MutableHeaders, name: str) -> None:
    """`name` in the answer's Vary once (a route may have said it already; Starlette's add_vary_header adds)."""
    if name.lower() not in {v.strip().lower() for v in headers.get("vary", "").split(",")}:
        headers.add_vary_header(name)
