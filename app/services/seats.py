"""The seats at a game: its sides, the credentials that let devices sit at them (join codes, tokens) and the
devices holding them, through app.services.seating (the same code as a campaign's seats), with the game's
own part: taking the game's row lock, waking its streams, and each side's own state as its rule set starts it
(once-per-game allowances)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from app.core import live
from app.data.changes import SideSet
from app.data.models import Game, GameSide, Token
from app.errors import RuleRefused
from app.services import seating
from app.services.events import record
from app.services.games import game_state, lock_game
from app.services.seating import Credentials as Credentials
from app.services.seating import Viewer, new_salt
from rules.core.errors import NotFoundError
from rules.core.vocabulary import SIDES
from rules.registry import get_game_rules


# -- sides, join codes, devices (app.services.seating, as a game's) ----------------------------------------
def create_sides(
    session: Session,
    secret_key: str,
    games: Sequence[Game],
    codes_of: Callable[[int], Mapping[str, str]] | None = None,
) -> list[Credentials]:
    """The sides of each of these new games and their credentials (app.services.seating.seat_sides; `codes_of`,
    a game's join codes by side where they are given, not drawn)."""
    by_id = {game.pk: game for game in games}

    def new_side(game_id: int, side: str, join_code_hash: str) -> GameSide:
        game = by_id[game_id]
        nations = {"attacker": game.attacker_nation, "defender": game.defender_nation}
        return GameSide(
            game_id=game_id,
            side=side,
            nation=nations[side],
            join_code_hash=join_code_hash,
            special_uses=dict(get_game_rules(game.ruleset).book.side_state),
            plan_salt=new_salt(),
        )

    return seating.seat_sides(session, seating.GAME, secret_key, list(by_id), SIDES, new_side, codes_of)


def reissue_credentials(session: Session, secret_key: str, game_id: int) -> Credentials:
    """New referee token and join codes for a game; every old credential stops working."""
    lock_game(session, game_id)
    creds = seating.reissue(session, seating.GAME, secret_key, game_id)
    live.mark(session, game_id)  # wake open streams, so revoked devices' streams end now
    session.flush()
    return creds


def devices(session: Session, game_id: int) -> list[Token]:
    return seating.devices(session, seating.GAME, game_id)


def revoke_game_device(session: Session, game_id: int, device_id: int) -> Token:
    lock_game(session, game_id)
    row = seating.revoke_device(session, seating.GAME, game_id, device_id)
    live.mark(session, game_id)
    session.flush()
    return row


def sides(session: Session, game_id: int) -> list[GameSide]:
    return list(session.exec(select(GameSide).where(GameSide.game_id == game_id).order_by(col(GameSide.id))))


def get_side(session: Session, game_id: int, side: str) -> GameSide:
    row = session.exec(_SIDE, params={"game_id": game_id, "side": side}).first()
    if row is None:
        raise NotFoundError("side", side, SIDES)
    return row


# Built once, bound at each read (a stand's card asks whose dice its side rolls: built anew, a tenth of its acts'
# CPU, py-spy's samples).
_SIDE = select(GameSide).where(GameSide.game_id == bindparam("game_id"), GameSide.side == bindparam("side"))


DICE_CHOSEN = "dice-chosen"  # the event of a side's choice of whose dice it rolls (the game record says it)


def set_dice(session: Session, game: Game, viewer: Viewer, side: str, dice: str) -> GameSide:
    """A side's choice of whose dice its rolls are ("players" or "firestep"): its own seat's (or the
    referee's), never the other side's; kept with the game, the rolls logging whose dice each was."""
    viewer.require_side(side, "choose whose dice roll")
    if game.status == "finished":
        raise RuleRefused("The game is over: its rolls were made", current=game_state(game))
    row = get_side(session, game.pk, side)
    if row.dice != dice:
        row.dice = dice
        row.version += 1
        session.add(row)
        # In the log every seat reads (the hostile pass: a side switched to its own dice for one roll and back,
        # unseen); each roll says whose dice it was as well.
        record(session, game, DICE_CHOSEN, viewer.role, {"side": side, "dice": dice})
    return row


def set_side_allowance(session: Session, row: GameSide, key: str, value: Any) -> SideSet:
    """Set one of a side's allowances; None removes it (so undoing its first use restores it exactly)."""
    before = row.special_uses.get(key)
    kept = {k: v for k, v in row.special_uses.items() if k != key}
    row.special_uses = kept if value is None else {**kept, key: value}
    row.version += 1
    session.add(row)
    return SideSet(side=row.side, field=key, before=before, after=value)
