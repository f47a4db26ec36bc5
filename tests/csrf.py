"""What a test client needs to post like a page of this server: the CSRF token that the server set in the
`firestep_csrf` cookie and rendered into every form (app/guard/security.py)."""

from __future__ import annotations

from typing import Any

from app.guard.security import CSRF_COOKIE, CSRF_FIELD, CSRF_HEADER


def csrf_token(client: Any) -> str:
    """This client's token, fetching a page first if the server has not given it one yet."""
    if CSRF_COOKIE not in client.cookies:
        assert client.get("/").status_code == 200
    token: str = client.cookies[CSRF_COOKIE]
    return token


def form(client: Any, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Form fields as a page of this server sends them: with the token."""
    return {**(data or {}), CSRF_FIELD: csrf_token(client)}


def header(client: Any) -> dict[str, str]:
    """The header htmx and the page scripts send with a cookie-authorised request."""
    return {CSRF_HEADER: csrf_token(client)}
