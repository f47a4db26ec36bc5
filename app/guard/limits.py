"""The door's limits on what a client may send (issue 12): the request body's size for the whole app, and text
no database can store (NUL, lone surrogates) refused before any route reads it. The types every request model
bounds its fields with are the data's (app.data.bounded).

Everything beyond a limit is refused at the door with 413 or 422 naming the limit, so nothing stored can
later make a read fail or slow the lobby down."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import RefusalBody, as_asked, field_error, field_of, label_of, refusal, short

# -- request body size ----------------------------------------------------------------------------------------


def too_large(max_bytes: int) -> RefusalBody:
    """The errors.py refusal for a body over the limit."""
    why = f"the request body is larger than the limit of {max_bytes} bytes"
    allowed = {"max_bytes": max_bytes}
    return refusal(
        f"Send at most {max_bytes} bytes: this request is larger.",
        status=413,
        why=why,
        field="body",
        allowed=allowed,
        errors=[field_error(["body"], why, "content_too_large", allowed)],
    )


# A refused body is still read (and dropped) up to this much, so that the client, still sending, reads the
# 413 instead of a connection reset; past it the connection is closed unread.
DRAIN_MAX_BYTES = 16 * 1024 * 1024


async def _drain(receive: Receive) -> None:
    drained = 0
    while drained <= DRAIN_MAX_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        if not message.get("more_body"):
            return


class BodyTooLarge(HTTPException):
    """Raised from receive() once the bytes read pass the limit. An HTTPException so that FastAPI, which
    turns other errors while reading a body into a 400, lets it through to the handler install() adds."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        super().__init__(status_code=413, detail=f"the request body is larger than {max_bytes} bytes")


def install(app: FastAPI, max_bytes: int) -> None:
    """The body size limit for the whole app, answered in the errors.py shape wherever it is hit."""

    async def _too_large(_req: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, BodyTooLarge)
        return JSONResponse(
            status_code=413,
            content=too_large(exc.max_bytes),
            headers={"Connection": "close"},
        )

    app.add_exception_handler(BodyTooLarge, _too_large)
    app.add_middleware(DoorLimits, max_bytes=max_bytes)


# -- NUL characters ------------------------------------------------------------------------------------------
# PostgreSQL text and JSON cannot hold NUL (0x00), and no name, code or note needs one: a request carrying one
# anywhere (path, query, JSON string or key, form field) is refused at the door, on every backend alike, with
# a 422 naming where it is, instead of failing at the database.


# Each kind of text no column can hold (_bad_text's): what to do, of the field's label, and why.
_UNSTORABLE = {
    "nul": (
        "Remove the NUL character (0x00) from {}.",
        "the text contains a NUL character (0x00), which is not allowed",
    ),
    "unicode": (
        "Send {} as valid Unicode text: it holds a lone surrogate.",
        "the text holds a lone surrogate (a code point U+D800..U+DFFF alone), which no encoding can store",
    ),
}


def unstorable_refused(loc: list[str | int], bad: str) -> RefusalBody:
    """The 422 of a text at `loc` holding what no column can hold (`bad`: "nul" or "unicode")."""
    do, why = _UNSTORABLE[bad]
    return refusal(
        do.format(short(label_of(loc), 40)),
        status=422,
        why=why,
        field=field_of(loc),
        errors=[field_error(loc, why, bad)],
    )


def _unencodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _bad_text(text: str) -> str | None:
    """Why a text cannot be stored: "nul" (PostgreSQL holds none), "unicode" (a lone surrogate, which JSON
    can escape but no encoding can write: stored, every later read of it failed), or None."""
    if "\x00" in text:
        return "nul"
    return "unicode" if _unencodable(text) else None


def unstorable_in(value: Any, loc: list[str | int]) -> tuple[list[str | int], str] | None:
    """Where the first string (value or key) that cannot be stored is, and why (`_bad_text`), walking without
    recursion: a JSON body's, or a JSON file's a page reads (which the door does not parse)."""
    stack: list[tuple[Any, list[str | int]]] = [(value, loc)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            if bad := _bad_text(node):
                return where, bad
        elif isinstance(node, dict):
            for key, item in node.items():
                if bad := _bad_text(key):
                    # The key named as it can be answered (a lone surrogate cannot be written back).
                    return [*where, key if bad == "nul" else key.encode("utf-8", "replace").decode()], bad
                stack.append((item, [*where, key]))
        elif isinstance(node, list):
            stack.extend((item, [*where, i]) for i, item in enumerate(node))
    return None


def non_utf8_json() -> RefusalBody:
    why = "a JSON body must be encoded as UTF-8 (RFC 8259 section 8.1), not UTF-16 or UTF-32"
    allowed = {"encoding": "utf-8"}
    return refusal(
        "Send the JSON body encoded as UTF-8.",
        status=422,
        why=why,
        field="body",
        allowed=allowed,
        errors=[field_error(["body"], why, "json_encoding", allowed)],
    )


def _read_as_json(content_type: str) -> bool:
    # FastAPI parses a body as JSON when its type says JSON, and when it names no type at all.
    return "json" in content_type or not content_type.strip()


# A JSON escape of NUL or of a surrogate (a pair is fine, one alone is not): only such a body is parsed here.
_SUSPECT_ESCAPE = re.compile(rb"\\u(0000|[dD][89a-fA-F])")


def _bad_in_body(body: bytes, content_type: str) -> tuple[list[str | int], str] | None:
    if _read_as_json(content_type):
        # JSON must escape NUL and lone surrogates; the cheap test first, parsing only a body that may hold
        # one. (A body in UTF-16 or UTF-32, which json.loads also reads, is refused before this: its escapes
        # are not these bytes; raw bytes that are not UTF-8 do not parse, and the route answers that.)
        if not _SUSPECT_ESCAPE.search(body):
            return None
        try:
            return unstorable_in(json.loads(body), ["body"])
        except ValueError:
            return None  # unparseable: the route answers that
    if "x-www-form-urlencoded" in content_type and b"%00" in body:
        for name, value in parse_qsl(body.decode("latin-1"), keep_blank_values=True):
            if "\x00" in name or "\x00" in value:
                return ["body", name.replace("\x00", "")], "nul"
    if "multipart/" in content_type and b"\x00" in body:
        return ["body"], "nul"
    return None


UTF8 = ("utf-8", "utf-8-sig")  # json.detect_encoding's names for UTF-8, with or without a byte-order mark


# A write's body is read by the door whole, to look in it for text no database stores.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


# A host name is at most 253 characters (RFC 1035) and its port six more: a longer Host header names no host, and
# the pages write their links and QR codes from it (the hostile pass: one of 2,300 characters was a 500 where the
# QR encoder could not hold the link).
HOST_MOST = 253 + len(":65535")


def _refused_head(scope: Scope) -> JSONResponse | None:
    """The refusal of a repeated Authorization header, a Host header longer than a host name, or of a NUL in the
    path or the query string."""
    host = next((value for key, value in scope.get("headers", ()) if key == b"host"), b"")
    if len(host) > HOST_MOST:
        why = f"the Host header is longer than a host name and its port, {HOST_MOST} characters"
        said = refusal(
            f"Send a Host header of at most {HOST_MOST} characters.", status=400, why=why, field="host"
        )
        return JSONResponse(status_code=400, content=said)
    if sum(k.lower() == b"authorization" for k, _ in scope.get("headers", ())) > 1:
        # Two: the CSRF check (asgi-csrf) and the route would each read another (session 17's hostile pass).
        why = "the request has more than one Authorization header"
        said = refusal("Send one Authorization header.", status=422, why=why, field="authorization")
        return JSONResponse(status_code=422, content=said)
    where: list[str | int] | None = None
    if "\x00" in scope["path"] or b"%00" in scope.get("raw_path", b""):
        where = ["path"]
    query = scope.get("query_string", b"")
    if where is None and b"%00" in query:
        for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if "\x00" in name or "\x00" in value:
                where = ["query", name.replace("\x00", "")]
                break
    if where is None:
        return None
    # In the path or the query: a link's.
    content = as_asked(scope["method"], unstorable_refused(where, "nul"))
    return JSONResponse(status_code=422, content=content)


def _refused_body(scope: Scope, body: bytes) -> JSONResponse | None:
    """The refusal of a JSON body not in UTF-8, or of a body holding a NUL or a lone surrogate."""
    content_type = dict(scope.get("headers", ())).get(b"content-type", b"").decode("latin-1").lower()
    if body and _read_as_json(content_type) and json.detect_encoding(body) not in UTF8:
        return JSONResponse(status_code=422, content=non_utf8_json())
    bad = _bad_in_body(body, content_type)
    if bad is None:
        return None
    where, why = bad
    content = unstorable_refused(where, why)
    return JSONResponse(status_code=422, content=content)


class DoorLimits:
    """Pure ASGI middleware, the one layer bounding what a request carries (they were two, the size limit around
    the NUL refusal, each wrapping the request's receive and the second its send again: issue 88):
    - the body's size: a declared Content-Length over the limit is refused before the app runs; a chunked body is
      counted as it is read and refused when it passes the limit;
    - a repeated Authorization header, NUL characters in the path, the query string and the body, lone surrogates
      in a JSON body's texts (the only way a request can carry text that is not Unicode: form and URL decoding
      replace bad bytes), and JSON bodies in another encoding than UTF-8 (json.loads would read UTF-16 and UTF-32
      too, escapes and all, past the NUL test on the body's bytes) are refused.
    A write's body is read here whole, counted as it comes, and handed to the app as read: nothing is left to
    count. Any other request's body (the app may read one) is counted as the app reads it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            status_code=413,
            content=too_large(self.max_bytes),
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await _drain(receive)
            await self._refuse(scope, receive, send)
            return
        if (refused := _refused_head(scope)) is not None:
            await refused(scope, receive, send)
        elif scope["method"] in WRITES:
            await self._write(scope, receive, send)
        else:
            await self._counted(scope, receive, send)

    async def _write(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A write: its body read whole (refused once past the limit), looked in, then handed to the app."""
        messages: list[Message] = []
        parts: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            parts.append(part := message.get("body", b""))
            received += len(part)
            if received > self.max_bytes:
                if message.get("more_body"):
                    await _drain(receive)
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        if (refused := _refused_body(scope, b"".join(parts))) is not None:
            await refused(scope, receive, send)
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _counted(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Any other request: its body counted as the app reads it, refused when it passes the limit."""
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    if message.get("more_body"):
                        await _drain(receive)
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            # Read outside a FastAPI route (no handler turned it into a response): answer here if we still can.
            if started:
                raise
            await self._refuse(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
