"""Writes a device may safely send twice: an `Idempotency-Key` header on a write under /api/v1/games or
/api/v1/campaigns makes a repeat of it (same device, same key) get the first answer again instead of acting
again. The browser's outbox (frontend/static/js/outbox.js) sends every tap with a fresh key and repeats it
after a network failure, when it cannot know whether the first try reached the server.

A pure ASGI middleware rather than a dependency of `app.services.writing.game_write`: it has to hold the whole
answer (status and body, which a dependency never sees), and it covers the campaigns' writes too, which do
not go through `game_write`.

- The key is scoped to the device: the HMAC of the token presented (Authorization: Bearer, else the cookie),
  as `Token.token_hash` is. A write that presents no token cannot carry a key (422), since its answer (a new
  game's referee token) must never go to anyone who merely guesses the key. Only a device this server
  knows keys a write (a made-up token: 401, counted as every unknown token is), and only a write a route
  takes (an unrouted one is passed on to its 404 or 405): nothing is kept for anyone else.
- The first request claims the key with a row (unique per device and key) before it acts; a concurrent
  repeat finds the claim and waits for the answer, or gets 409 after `WAIT_SECONDS`. A claim whose request
  failed in a way worth repeating (5xx, 401, 408, 425, 429) is released, so the repeat acts.
- A key names one request: the same key with another method, path or body is refused (422).
- Answers are kept for `KEEP` (a day): a key whose answer is older is claimed anew, and a claim deletes such
  answers, `SWEPT_AT_ONCE` at most, once a minute at most (`_Sweeps`). They are kept encrypted with a key
  derived from the device's token, which the database never holds: an answer that carries credentials (a
  reissue, a new table battle's codes) is readable only by the device that asked for it.
- The answer is kept before it is sent: an answer the device has read is always there to replay.
- A server that stops in the middle of a request leaves its claim behind. The request's own transaction marks
  the claim as acted on (a hook on every commit made while the request runs), so a repeat after
  `STALE_AFTER` knows: a claim never acted on is taken over and the repeat acts; a claim acted on whose
  answer was lost gets a 409 that says so (the change is in the game's log). A request whose claim was taken
  over meanwhile cannot commit: exactly one of the two acts. The claims' own writes go through the engine's
  connections, not a session: they record nobody's act, and no session's hook at commit sees them.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from cryptography.fernet import Fernet, InvalidToken
from fastapi.security.utils import get_authorization_scheme_param
from sqlalchemy import bindparam, delete, event, exists, insert, literal, or_, union_all, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.sql import expression
from sqlalchemy.sql.selectable import CompoundSelect
from sqlmodel import col, select
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.db import BOOKKEEPING
from app.data.models import CampaignToken, IdempotentResponse, Token, utcnow
from app.errors import Conflict, TooManyRequests, field_error, refusal
from app.guard import security, signed_out
from app.guard.auth import COOKIE_NAME
from app.services.seating import digest

HEADER = "Idempotency-Key"
# A UUID (what the outbox sends) fits; so do most clients' keys. Printable ASCII only, so it fits a header.
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
PREFIXES = ("/api/v1/games", "/api/v1/campaigns")
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEEP = timedelta(hours=24)
WAIT_SECONDS = 10.0
# A repeat waiting on an unanswered claim asks again after 50 ms, each wait twice the last, at most 0.5 s: a claim
# asked every 50 ms for WAIT_SECONDS cost 0.9-1.2 s of CPU a repeat (hostile pass, stop 19).
POLL_SECONDS = 0.05
POLL_AT_MOST = 0.5
# The answers past KEEP a sweep deletes at most (a backlog of 50,000, a day's, held SQLite's write lock 1.4 s).
SWEPT_AT_ONCE = 1000
REPLAYED_HEADER = "Idempotent-Replayed"
# A claim this old whose request has not answered was left by a server that stopped (no write takes this long).
STALE_AFTER = timedelta(seconds=30)
# status_code of a claim whose request committed its change but has not stored its answer yet.
ACTED = 0
LOST = "this tap was carried out, but its answer was lost when the server stopped: reload to see the change"
LOST_SAID = "Reload to see the change: this tap was carried out but its answer was lost."
FAILED = "the server failed after carrying out this request: the change is in the log; reload to see it"


def _repeatable(status: int) -> bool:
    """An answer that says nothing was done and a repeat may succeed: not kept, the key is released."""
    return status >= 500 or status in (401, 408, 425, 429)


def _refusal(status: int, said: str, why: str) -> tuple[int, bytes]:
    errors = [field_error(["header", HEADER], why)] if status == 422 else None
    # A 409 here is the key's own (still answered, lost), no stale write's: said in its own sentence.
    body = refusal(said, status=status, why=why, field=HEADER, errors=errors, rule=status == 409)
    return status, json.dumps(body).encode()


@dataclass(frozen=True)
class Stored:
    status: int
    content_type: str
    body: bytes


@dataclass(frozen=True)
class Claimed:
    """This request's claim (its row id: a claim taken over by a repeat is a new row)."""

    row_id: int


Claim = Literal["mismatch", "busy", "revoked", "unknown", "lost"] | Claimed | Stored


def _cipher(secret_key: str, token: str) -> Fernet:
    """The key of a device's stored answers: from its token, which only the device holds."""
    raw = hmac.new(secret_key.encode(), b"idempotent answer\0" + token.encode(), hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(raw))


# The statements every keyed write runs, built once (and their cache keys with them: built anew, each cost more
# than its query), their values bound per request (issue 88). The writes are the table's (Core): an ORM statement
# first looks for the rows it changes among the session's objects, as costly as the statement itself here.
_DEVICES: CompoundSelect[tuple[datetime | None]] = union_all(
    select(Token.revoked_at).where(col(Token.token_hash) == bindparam("device")),
    select(CampaignToken.revoked_at).where(col(CampaignToken.token_hash) == bindparam("device")),
)
_ANSWERS = IdempotentResponse.__table__  # type: ignore[attr-defined]
_EXPIRED = delete(_ANSWERS).where(
    _ANSWERS.c.id.in_(
        select(_ANSWERS.c.id).where(_ANSWERS.c.created_at < bindparam("before")).limit(bindparam("swept"))
    )
)
# The claim written where the device holds a seat not revoked: the device's check and the claim in one statement,
# its id returned (no row: `_device_refused` says why; a row of the same device and key: IntegrityError).
_SEATED = or_(
    exists().where(col(Token.token_hash) == bindparam("device"), col(Token.revoked_at).is_(None)),
    exists().where(
        col(CampaignToken.token_hash) == bindparam("device"), col(CampaignToken.revoked_at).is_(None)
    ),
)
_CLAIM = (
    insert(_ANSWERS)
    .from_select(
        ["device_hash", "key", "request_hash", "content_type", "body", "created_at"],
        expression.select(  # SQLAlchemy's: sqlmodel's `select` types four columns at most
            bindparam("device", type_=_ANSWERS.c.device_hash.type),
            bindparam("key", type_=_ANSWERS.c.key.type),
            bindparam("request_hash", type_=_ANSWERS.c.request_hash.type),
            literal("", _ANSWERS.c.content_type.type),
            literal(b"", _ANSWERS.c.body.type),
            bindparam("now", type_=_ANSWERS.c.created_at.type),
        ).where(_SEATED),
    )
    .returning(_ANSWERS.c.id)
)
# The claim of this device and key, where its answer expired (KEEP): the key is claimed anew.
_FORGET = delete(_ANSWERS).where(
    _ANSWERS.c.device_hash == bindparam("device"),
    _ANSWERS.c.key == bindparam("key"),
    _ANSWERS.c.created_at < bindparam("before"),
)
_CLAIMED = select(_ANSWERS).where(
    _ANSWERS.c.device_hash == bindparam("device"), _ANSWERS.c.key == bindparam("key")
)
_MINE = _ANSWERS.c.id == bindparam("row")
_UNANSWERED = _ANSWERS.c.status_code.is_(None)
_RELEASE = delete(_ANSWERS).where(_MINE, _UNANSWERED)
_KEEP_ANSWER = (
    update(_ANSWERS)
    .where(_MINE)
    .values(
        status_code=bindparam("answer_status"),
        content_type=bindparam("answer_type"),
        body=bindparam("answer"),
    )
)
_MARK_ACTED = update(_ANSWERS).where(_MINE, _UNANSWERED).values(status_code=ACTED)


def _device_refused(conn: Connection, device: str) -> Literal["unknown", "revoked"] | None:
    """Why this device may not key a write (None: it may): no game or campaign holds its token, or it was
    revoked. Nothing is kept for either, so a made-up token cannot fill the table."""
    found = conn.execute(_DEVICES, {"device": device}).scalars().all()
    if not found:
        return "unknown"
    return "revoked" if all(revoked is not None for revoked in found) else None


class _Sweeps:
    """When this process last deleted the answers kept past KEEP (SWEPT_AT_ONCE at most): once a minute at most,
    not at every claim (a statement of each tap, issue 88). A key whose answer expired is claimed anew whenever
    it comes again (`_claim`)."""

    every = 60.0

    def __init__(self) -> None:
        self.last = float("-inf")

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now  # two threads both due delete the same rows: no harm
        return True


_SWEEPS = _Sweeps()


def _claim(engine: Engine, device: str, key: str, request_hash: str) -> Claim:
    # The engine's connections, not a session: a claim's statements are the table's, and its commits record
    # nobody's act, so none of the session's hooks at commit (the score's, the clock's, the mark's) has a part.
    now = utcnow()
    try:
        with engine.begin() as conn:
            asked = {"device": device, "key": key, "request_hash": request_hash, "now": now}
            claimed = conn.execute(_CLAIM, asked).scalar()
            if claimed is None:  # no claim, and no replay to a revoked device: the route answers it 401
                return _device_refused(conn, device) or "busy"
            if _SWEEPS.due():
                conn.execute(_EXPIRED, {"before": now - KEEP, "swept": SWEPT_AT_ONCE})
            return Claimed(claimed)
    except IntegrityError:
        pass  # the key is claimed already: its claim read below
    with engine.begin() as conn:
        if conn.execute(_FORGET, {"device": device, "key": key, "before": now - KEEP}).rowcount:
            return "busy"  # its answer expired: the key is claimed anew
        row = conn.execute(_CLAIMED, {"device": device, "key": key}).first()
        if row is None:  # released between our insert and this read: try again
            return "busy"
        if row.request_hash != request_hash:
            return "mismatch"
        if row.status_code in (None, ACTED):
            if row.created_at > now - STALE_AFTER:
                return "busy"
            if row.status_code == ACTED:
                return "lost"
            # Left by a server that stopped before acting: released, so this repeat claims it and acts.
            conn.execute(_RELEASE, {"row": row.id})
            return "busy"
        return Stored(row.status_code, row.content_type, row.body)


def _finish(engine: Engine, row_id: int, answer: Stored, release: bool) -> None:
    """Keep the answer of the claim, or (`release`) free the claim so that a repeat acts: only if nothing was
    committed, else the answer is kept whatever it says, so that the repeat does not act twice. A claim taken
    over meanwhile is another row: left alone."""
    with engine.begin() as conn:
        if release and conn.execute(_RELEASE, {"row": row_id}).rowcount:
            return
        values = {"answer_status": answer.status, "answer_type": answer.content_type, "answer": answer.body}
        conn.execute(_KEEP_ANSWER, {"row": row_id, **values})


# -- marking the claim in the request's own transaction ------------------------------------------------------
@dataclass
class _Acting:
    row_id: int
    marked: bool = field(default=False)  # set once the claim is marked, or once the request is over: a task
    # the request started (which inherits this context) must never mark or refuse anything later


_acting: ContextVar[_Acting | None] = ContextVar("idempotent_acting", default=None)


@event.listens_for(OrmSession, "before_commit")
def _mark_acted(session: OrmSession) -> None:
    """The first commit a claimed request makes also marks its claim as acted on, in the same transaction;
    if a repeat took the claim over meanwhile, the commit is refused, so only one of them acts."""
    acting = _acting.get()
    if acting is None or acting.marked or session.info.get(BOOKKEEPING):
        return
    result: Any = session.execute(_MARK_ACTED, {"row": acting.row_id})
    if result.rowcount == 0:
        raise Conflict(
            f"this request was taken over by a repeat with the same {HEADER}: nothing was done twice"
        )
    acting.marked = True


def _presented_token(headers: Headers) -> str | None:
    """The token the routes will read (app.guard.auth.presented_token): Bearer, its scheme in any case as
    FastAPI's HTTPBearer reads it, else the cookie."""
    scheme, credentials = get_authorization_scheme_param(headers.get("authorization"))
    if scheme.lower() == "bearer" and credentials:
        return credentials
    return cookie_parser(headers.get("cookie", "")).get(COOKIE_NAME) or None


def _routed(scope: Scope) -> bool:
    """Does a route of the app take this method and path? (The routes' own matching, as the router does.)"""
    return any(route.matches(scope)[0] == Match.FULL for route in scope["app"].router.routes)


async def _send_unknown_token(send: Send, path: str) -> None:
    """A key with a token no device holds: 401, counted like every unknown token (429 once over the limit); its
    sentence names what the address asks for (app.guard.signed_out)."""
    try:
        security.token_failed()
    except TooManyRequests as e:
        body = json.dumps(refusal(e.message, status=429, retry_after=e.retry_after, why=e.message)).encode()
        await _send_answer(send, 429, "application/json", body, False, (("retry-after", str(e.retry_after)),))
        return
    why = f"unknown token: {HEADER} keys the writes of a device of this server"
    said = refusal("Join again: this device's token is unknown here.", status=401, why=why)
    body = json.dumps({**said, "said": signed_out.said(path)}).encode()
    await _send_answer(send, 401, "application/json", body, False, (("www-authenticate", "Bearer"),))


async def _send_answer(
    send: Send,
    status: int,
    content_type: str,
    body: bytes,
    replayed: bool,
    extra: tuple[tuple[str, str], ...] = (),
) -> None:
    headers = [
        (b"content-type", content_type.encode("latin-1")),
        (b"content-length", str(len(body)).encode()),
        *((name.encode("latin-1"), value.encode("latin-1")) for name, value in extra),
    ]
    if replayed:
        headers.append((REPLAYED_HEADER.lower().encode(), b"true"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class IdempotentWrites:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WRITES or not scope["path"].startswith(PREFIXES):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        keys = headers.getlist(HEADER)
        if not keys or not _routed(scope):  # nothing acts on an unrouted request (404, 405): nothing is kept
            await self.app(scope, receive, send)
            return
        refused = self._check(keys, headers)
        if refused:
            await _send_answer(send, refused[0], "application/json", refused[1], replayed=False)
            return
        key, token = keys[0], _presented_token(headers)
        assert token is not None
        engine: Engine = scope["app"].state.engine
        secret_key: str = scope["app"].state.settings.secret_key
        device = digest(secret_key, token)
        cipher = _cipher(secret_key, token)
        body = await _read_body(receive)
        if body is None:  # the client went before its body came whole: nothing to act on, nothing kept
            return
        request_hash = hashlib.sha256(
            b"\0".join(
                [scope["method"].encode(), scope["path"].encode(), scope.get("query_string", b""), body]
            )
        ).hexdigest()

        deadline, polls = time.monotonic() + WAIT_SECONDS, 0
        while True:
            claim = await asyncio.to_thread(_claim, engine, device, key, request_hash)
            if isinstance(claim, Stored):
                try:
                    body_then = cipher.decrypt(claim.body)
                except InvalidToken:  # kept under another secret key: no answer to give, say so
                    claim, body_then = "lost", b""
                if isinstance(claim, Stored):
                    await _send_answer(send, claim.status, claim.content_type, body_then, replayed=True)
                    return
            if claim == "lost":
                # `carried_out` tells the browser's outbox the tap was made (it is not queued again).
                lost = refusal(LOST_SAID, status=409, why=LOST, carried_out=True, rule=True)
                await _send_answer(send, 409, "application/json", json.dumps(lost).encode(), replayed=False)
                return
            if claim == "mismatch":
                status, text = _refusal(
                    422,
                    f"Send a new {HEADER} with each new request: this one was used for another.",
                    f"this {HEADER} was already used for another request (method, path or body): "
                    "send a new key with each new request",
                )
                await _send_answer(send, status, "application/json", text, replayed=False)
                return
            if claim == "revoked":
                await self.app(scope, _replay(body, receive), send)
                return
            if claim == "unknown":
                await _send_unknown_token(send, scope["path"])
                return
            if isinstance(claim, Claimed):
                break
            if time.monotonic() > deadline:
                status, text = _refusal(
                    409,
                    "Repeat this in a moment: a request with the same key is still being answered.",
                    f"a request with this {HEADER} is still being answered: repeat it in a moment",
                )
                await _send_answer(send, status, "application/json", text, replayed=False)
                return
            await asyncio.sleep(min(POLL_SECONDS * 2**polls, POLL_AT_MOST))
            polls += 1
        await self._act(scope, receive, body, send, engine, claim.row_id, cipher)

    @staticmethod
    def _check(keys: list[str], headers: Headers) -> tuple[int, bytes] | None:
        if len(keys) > 1:
            return _refusal(
                422,
                f"Send one {HEADER} header, not {len(keys)}.",
                f"send one {HEADER} header, not {len(keys)}",
            )
        if not KEY_PATTERN.fullmatch(keys[0]):
            return _refusal(
                422,
                f"Make the {HEADER} 8 to 64 characters of A-Z, a-z, 0-9, - and _ (a UUID fits).",
                f"{HEADER} must be 8 to 64 characters of A-Z, a-z, 0-9, '-' and '_' (a UUID fits)",
            )
        if _presented_token(headers) is None:
            return _refusal(
                422,
                f"Send the {HEADER} with the device's token (Authorization: Bearer or the cookie).",
                f"{HEADER} keys a device's repeated writes: send it with the device's token "
                "(Authorization: Bearer or the cookie)",
            )
        return None

    async def _act(
        self,
        scope: Scope,
        receive: Receive,
        body: bytes,
        send: Send,
        engine: Engine,
        row_id: int,
        cipher: Fernet,
    ) -> None:
        status = 500
        content_type = ""
        chunks: list[bytes] = []
        start: Message | None = None
        kept = False

        async def keep(message: Message) -> None:
            # The answer is kept before the device reads any of it: a tap the device saw answered is replayed
            # at once, whatever happens to this server next (kill -9 between the two left a claim acted on
            # with no answer, and the repeat waited out STALE_AFTER to be told the answer was lost).
            nonlocal status, content_type, start, kept
            if message["type"] == "http.response.start":
                status = message["status"]
                content_type = Headers(raw=message.get("headers", [])).get("content-type", "")
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            answer = Stored(status, content_type[:100], cipher.encrypt(b"".join(chunks)))
            await asyncio.to_thread(_finish, engine, row_id, answer, _repeatable(status))
            kept = True
            await send(start)
            await send({"type": "http.response.body", "body": b"".join(chunks)})

        state = _Acting(row_id)
        acting = _acting.set(state)
        try:
            await self.app(scope, _replay(body, receive), keep)
        except BaseException:
            if not kept:
                failed = Stored(
                    500, "application/json", cipher.encrypt(json.dumps({"detail": FAILED}).encode())
                )
                await asyncio.to_thread(_finish, engine, row_id, failed, True)
            raise
        finally:
            state.marked = True
            _acting.reset(acting)
        if not kept:  # the app answered no whole response
            answer = Stored(status, content_type[:100], cipher.encrypt(b"".join(chunks)))
            await asyncio.to_thread(_finish, engine, row_id, answer, _repeatable(status))


def _replay(body: bytes, receive: Receive) -> Receive:
    """The request's body again, for the app (this middleware has read it already)."""
    sent = False

    async def receive_body() -> Message:
        nonlocal sent
        if sent:  # what comes after the body is the client leaving
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive_body


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (app.guard.limits, outside this middleware, has already bounded its size); None
    when the client went before it came whole (a part claimed would spend the key its repeat brings whole)."""
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)
