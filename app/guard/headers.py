"""The security headers every HTTP answer carries (a policy of this server's scripts only, no framing, no
sniffing, the referrer kept to this site), set by `SecurityHeaders`, the outermost middleware, so that the door's
own refusals carry them too; an answer private to its device unless its route says otherwise (app.guard.caching);
every cookie Secure over the club's HTTPS. FastAPI's /docs and /redoc get a policy of their own."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from secure import ContentSecurityPolicy, ReferrerPolicy, Secure, XContentTypeOptions, XFrameOptions
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.guard.caching import private_unless_said


def _policy() -> ContentSecurityPolicy:
    return (
        ContentSecurityPolicy()
        .default_src("'self'")
        .object_src("'none'")
        .base_uri("'self'")
        .form_action("'self'")
        .frame_ancestors("'none'")
        .connect_src("'self'")
    )


# Scripts from this server only, no inline one but a printed sheet's Print button (window.print(), by its hash: a
# sheet is also a file opened without the server). Inline *styles* stay allowed (style attributes, htmx's).
SCRIPTS = ("'self'", "'unsafe-hashes'", "'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU='")
APP_HEADERS = Secure(
    csp=_policy().script_src(*SCRIPTS).style_src("'self'", "'unsafe-inline'").img_src("'self'", "data:"),
    referrer=ReferrerPolicy().same_origin(),
    xcto=XContentTypeOptions().nosniff(),
    xfo=XFrameOptions().deny(),
).headers

# As an answer's raw headers, encoded once: set on every answer (names lower case, as MutableHeaders sets them).
_APP_RAW = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in APP_HEADERS.items()]
_APP_NAMES = frozenset(name for name, _ in _APP_RAW)

# FastAPI's /docs (Swagger UI) and /redoc load their bundles, styles and fonts from public CDNs and start
# Swagger UI with one inline script. Rather than vendoring a 1.5 MB bundle, these two pages allow exactly
# those hosts, and the inline script by its SHA-256 (computed from the page FastAPI generates, so it follows
# a FastAPI upgrade or a root_path); nothing a user enters appears on these pages. Redoc runs a worker
# from a blob: URL.
DOCS_CDN = "https://cdn.jsdelivr.net"
DOCS_PATHS = ("/docs", "/redoc")
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def docs_headers(body: bytes) -> dict[str, str]:
    hashes = [
        f"'sha256-{base64.b64encode(hashlib.sha256(m).digest()).decode()}'"
        for m in _INLINE_SCRIPT.findall(body)
    ]
    csp = (
        _policy()
        .script_src("'self'", DOCS_CDN, *hashes)
        .style_src("'self'", "'unsafe-inline'", DOCS_CDN, "https://fonts.googleapis.com")
        .font_src("'self'", "https://fonts.gstatic.com")
        .img_src("'self'", "data:", DOCS_CDN, "https://fastapi.tiangolo.com")
        .worker_src("'self'", "blob:")
    )
    return {**APP_HEADERS, "Content-Security-Policy": csp.header_value}


def _secure_cookie(name: bytes, value: bytes) -> tuple[bytes, bytes]:
    if name.lower() == b"set-cookie" and b"; secure" not in value.lower():
        return name, value + b"; Secure"
    return name, value


class SecurityHeaders:
    """Sets the security headers on every HTTP answer (also refusals made by other middleware), private to the
    asking device unless its route said otherwise (app.guard.caching), and marks every cookie Secure over HTTPS."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith(DOCS_PATHS):
            await self._docs(scope, receive, send)
            return

        https = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # The route's own of these names replaced, as MutableHeaders.update would, in one pass.
                raw = message.get("headers") or []
                message["headers"] = [(k, v) for k, v in raw if k not in _APP_NAMES] + _APP_RAW
                headers = MutableHeaders(scope=message)
                private_unless_said(headers, scope)  # after the route's own caching, before any cache between
                if https:  # the club's HTTPS: no cookie of a seat or a form goes back over plain http
                    message["headers"] = [_secure_cookie(k, v) for k, v in message["headers"]]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The docs pages are small and generated: hold the answer to hash its inline script (asked for
        uncompressed, since the compression inside this middleware would hide the script)."""
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]}
        start: Message = {}
        body = b""

        async def hold(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                body += message.get("body", b"")
                if not message.get("more_body", False):
                    start.setdefault("headers", [])
                    headers = MutableHeaders(scope=start)
                    for name, value in docs_headers(body).items():
                        headers[name] = value
                    headers["content-length"] = str(len(body))
                    await send(start)
                    await send({"type": "http.response.body", "body": body})
            else:
                await send(message)

        await self.app(scope, receive, hold)


def install(app: FastAPI) -> None:
    """The security headers, outermost: every answer has them, also the door's own refusals (413, NUL)."""
    app.add_middleware(SecurityHeaders)
