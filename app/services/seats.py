"""The seats at a game: its sides, the credentials that let devices sit at them (join codes, tokens), the
devices holding them, and each side's once-per-game allowances."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from app import live
from app.auth import (
    SIDES,
    digest,
    issue_token,
    new_join_code,
    new_salt,
    normalise_code,
    revoke_all,
    revoke_device,
)
from app.models import Game, GameSide, Token
from app.services.games import lock_game
from rules.core.errors import NotFoundError


# -- sides, join codes ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Credentials:
    referee_token: str
    join_codes: dict[str, str]


def create_sides(session: Session, secret_key: str, game: Game) -> Credentials:
    assert game.id is not None
    codes: dict[str, str] = {}
    nations = {"attacker": game.attacker_nation, "defender": game.defender_nation}
    for side in SIDES:
        code = new_join_code()
        codes[side] = code
        session.add(
            GameSide(
                game_id=game.id,
                side=side,
                nation=nations[side],
                join_code_hash=digest(secret_key, normalise_code(code)),
                special_uses={"heroic-action": 1},
                plan_salt=new_salt(),
            )
        )
    return Credentials(issue_token(session, secret_key, game.id, "referee"), codes)


def reissue_credentials(session: Session, secret_key: str, game_id: int) -> Credentials:
    """New referee token and join codes for a game. Every old credential stops working: the old codes, the
    old referee token and every side's token (its players join again with the new codes)."""
    lock_game(session, game_id)
    revoke_all(session, Token, game_id)
    codes: dict[str, str] = {}
    for side in sides(session, game_id):
        code = new_join_code()
        codes[side.side] = code
        side.join_code_hash = digest(secret_key, normalise_code(code))
        session.add(side)
    creds = Credentials(issue_token(session, secret_key, game_id, "referee"), codes)
    live.mark(session, game_id)  # wake open streams, so revoked devices' streams end now
    session.flush()
    return creds


# -- devices ----------------------------------------------------------------------------------------------------
def revoke_game_device(session: Session, game_id: int, device_id: int) -> Token:
    lock_game(session, game_id)
    row = revoke_device(session, Token, game_id, device_id)
    live.mark(session, game_id)
    session.flush()
    return row


def join(session: Session, secret_key: str, code: str) -> tuple[int, str, str]:
    row = session.exec(
        select(GameSide).where(GameSide.join_code_hash == digest(secret_key, normalise_code(code)))
    ).first()
    if row is None:
        raise NotFoundError("join code", code)
    token = issue_token(session, secret_key, row.game_id, row.side)
    session.flush()
    return row.game_id, row.side, token


def sides(session: Session, game_id: int) -> list[GameSide]:
    return list(session.exec(select(GameSide).where(GameSide.game_id == game_id).order_by(col(GameSide.id))))


def get_side(session: Session, game_id: int, side: str) -> GameSide:
    row = session.exec(select(GameSide).where(GameSide.game_id == game_id, GameSide.side == side)).first()
    if row is None:
        raise NotFoundError("side", side, SIDES)
    return row


def set_side_allowance(session: Session, row: GameSide, key: str, value: Any) -> dict[str, Any]:
    """Set one of a side's allowances; None removes it (so undoing its first use restores it exactly)."""
    before = row.special_uses.get(key)
    kept = {k: v for k, v in row.special_uses.items() if k != key}
    row.special_uses = kept if value is None else {**kept, key: value}
    row.version += 1
    session.add(row)
    return {"side": row.side, "field": key, "before": before, "after": value}
