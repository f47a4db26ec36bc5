"""An htmx request refused with a page's HTML (not a JSON refusal, which carries `said`) gets the sentence a player
is shown for its status in the notice header, the words of app.errors.shown_to_player (a 401's naming what was
asked for, app.guard.signed_out): net-status.js shows the header and words nothing itself. A refusal that sets
its own header keeps it, made by `notice_words`."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import one_sentence, shown_to_player
from app.guard import signed_out
from app.guard.security import NOTICE_HEADER


def notice_words(text: str, status: int) -> str:
    """`text` as the notice header carries it: one sentence a header may hold, else the words for `status`. A
    form's field is named as the client sent it: a control character in one had ended the connection (the
    hostile pass of session 16), a name of several sentences made a notice of several."""
    printable = "".join(c if c.isprintable() else " " for c in text)
    return one_sentence(printable, shown_to_player(status)).encode("latin-1", "replace").decode("latin-1")


class HtmxNotice:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (b"hx-request", b"true") not in scope["headers"]:
            await self.app(scope, receive, send)
            return

        async def noticed(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 400:
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                if NOTICE_HEADER not in headers and "json" not in headers.get("content-type", ""):
                    wait = headers.get("retry-after", "")
                    status = message["status"]
                    headers[NOTICE_HEADER] = (
                        signed_out.said(scope["path"])
                        if status == 401
                        else shown_to_player(
                            status, retry_after=int(wait) if wait.isdecimal() and len(wait) < 10 else None
                        )
                    )
            await send(message)

        await self.app(scope, receive, noticed)
