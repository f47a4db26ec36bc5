"""Who is asking: the referee, or the player of one side. Tokens and join codes are random; the database
keeps only HMAC-SHA256(app secret key, value), so a copy of the database cannot be used to play."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session, select

from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Forbidden, Unauthorized
from app.models import Token

Side = Literal["attacker", "defender"]
SIDES: tuple[Side, ...] = ("attacker", "defender")
REFEREE = "referee"
COOKIE_NAME = "firestep_token"
# No 0/O or 1/I/L: codes are read aloud across a table and typed on tablets.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def digest(secret_key: str, value: str) -> str:
    return hmac.new(secret_key.encode(), value.encode(), hashlib.sha256).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_join_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))
    return f"{raw[:5]}-{raw[5:]}"


def new_salt() -> str:
    return secrets.token_hex(16)


def normalise_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


def other_side(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


@dataclass(frozen=True)
class Viewer:
    game_id: int
    role: str  # referee, attacker or defender

    @property
    def is_referee(self) -> bool:
        return self.role == REFEREE

    def may_act_for(self, side: str) -> bool:
        return self.is_referee or self.role == side

    def require_side(self, side: str, what: str) -> None:
        if not self.may_act_for(side):
            raise Forbidden(f"the {self.role} player may not {what} of the {side}")

    def require_referee(self, what: str) -> None:
        if not self.is_referee:
            raise Forbidden(f"only the referee may {what}")

    def sees(self, visibility: str) -> bool:
        return visibility == "all" or self.is_referee or visibility == self.role


def issue_token(session: Session, secret_key: str, game_id: int, role: str) -> str:
    token = new_token()
    session.add(Token(game_id=game_id, role=role, token_hash=digest(secret_key, token)))
    return token


_bearer = HTTPBearer(
    auto_error=False, description="The token from game creation or from joining with a code."
)
_cookie = APIKeyCookie(name=COOKIE_NAME, auto_error=False, description="Set by POST /api/v1/join.")


def presented_token(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_cookie)],
) -> str | None:
    """Authorization: Bearer, else the cookie, else ?token= (EventSource cannot send headers)."""
    if bearer is not None and bearer.credentials:
        return bearer.credentials
    return cookie or request.query_params.get("token") or None


def viewer(
    game_id: GameId,
    token: Annotated[str | None, Depends(presented_token)],
    session: SessionDep,
    settings: SettingsDep,
) -> Viewer:
    if not token:
        raise Unauthorized()
    row = session.exec(select(Token).where(Token.token_hash == digest(settings.secret_key, token))).first()
    if row is None:
        raise Unauthorized("unknown token")
    if row.game_id != game_id:
        raise Forbidden("this token belongs to another game")
    return Viewer(game_id=game_id, role=row.role)


ViewerDep = Annotated[Viewer, Depends(viewer)]
