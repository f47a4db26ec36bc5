"""Static files with versioned URLs: templates link `static_url("css/app.css")`, which adds the file's content
hash (`?v=...`), so a versioned URL may be cached for a year and a changed file gets a new URL. An
unversioned request is revalidated each time (ETag / Last-Modified)."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from app.pages.templates import STATIC_DIR, templates

IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"


@lru_cache(maxsize=256)
def static_url(path: str) -> str:
    """/static/<path>?v=<first 12 hex digits of the file's SHA-256>; read once per process."""
    file = (STATIC_DIR / path).resolve()
    if not file.is_relative_to(STATIC_DIR.resolve()) or not file.is_file():
        raise FileNotFoundError(f"no static file {path}")
    return f"/static/{path}?v={hashlib.sha256(file.read_bytes()).hexdigest()[:12]}"


class VersionedStaticFiles(StaticFiles):
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        versioned = b"v=" in scope.get("query_string", b"")

        async def send_with_cache(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers.append((b"cache-control", IMMUTABLE if versioned else REVALIDATE))
                message = {**message, "headers": headers}
            await send(message)

        await super().__call__(scope, receive, send_with_cache)


templates.env.globals["static_url"] = static_url
