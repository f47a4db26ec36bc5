"""A seat at an event's table stays its holder's (issue 63). A lost tablet gets its seat back on the organiser's
word alone: the organiser's tap makes a code for that side (an HMAC of the table and a nonce that names the
side and when it lapses; the code itself is never stored), shown on the organiser's screen and nowhere else,
good once: it gives a new device for that side of the table's game and revokes the side's old ones. No
printout that both sides see carries a seat's code (the result slip both players sign carries none), and a
code for one side is nothing for the other.

Nothing here commits: the route or page wraps each write in `app.services.writing.unit_of_work`.
"""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session

from app.data.models import TournamentPlayer, TournamentRound, TournamentTable
from app.data.numbers import whole_number
from app.errors import RuleRefused
from app.services import games, seating, tournaments
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES

SETTLED = ("confirmed", "altered")  # a table whose result the event counts: its cards seat no one
REKEY_CODE = re.compile(r"\d{1,9}-[ad]-[0-9a-f]{16}")  # what offer_rekey makes: the table, the side, the MAC
REKEY_MINUTES = 15  # how long the code of a seat the organiser re-keys waits for the player's new tablet


def _rekey_mac(secret_key: str, table: TournamentTable) -> str:
    return seating.digest(secret_key, f"rekey:{table.pk}:{table.slip_hash}")[:16]


def offer_rekey(
    session: Session, secret_key: str, tournament_id: int, table_id: int, side: str, now: datetime
) -> str:
    """The organiser's word that a lost tablet's seat goes to a new device: a code for that side of the table,
    shown on the organiser's screen only, good once and for REKEY_MINUTES (its nonce, side and end are the
    table's `slip_hash`; a new offer replaces the last). No printout carries it."""
    if side not in SIDES:
        raise RulesError("side", "pick the attacker's seat or the defender's")
    tournaments.lock(session, tournament_id)
    table = session.get(TournamentTable, table_id)
    if table is None or table.tournament_id != tournament_id:
        raise NotFoundError("table", str(table_id))
    if table.game_id is None:
        raise RuleRefused(f"table {table.table} has no game yet: commit its round first")
    ends = int((now + timedelta(minutes=REKEY_MINUTES)).timestamp())
    table.slip_hash = f"{side[0]}{ends}:{secrets.token_hex(16)}"
    session.add(table)
    tournaments.log(session, tournament_id, "rekey-offered", {"side": side}, table_id=table.pk)
    return f"{table.pk}-{side[0]}-{_rekey_mac(secret_key, table)}"


def _holds(secret_key: str, table: TournamentTable, side_letter: str, mac: str, now: datetime) -> str | None:
    """The side the table's re-key offer is for, when `side_letter` and `mac` are its code's and it is in time."""
    nonce = table.slip_hash
    side = {"a": "attacker", "d": "defender"}.get(nonce[:1], "")
    ends = nonce[1:].split(":", 1)[0]
    if (
        not side
        or table.game_id is None
        or side_letter != side[0]
        or not (ends.isdecimal() and len(ends) < 12)
    ):
        return None
    if int(ends) < now.timestamp():
        return None
    return side if secrets.compare_digest(_rekey_mac(secret_key, table).encode(), mac.encode()) else None


def rekey(session: Session, secret_key: str, code: str, now: datetime) -> seating.Joined:
    """A lost tablet's seat back with the code the organiser gave: a new device for that side of the table's
    game, the side's old devices revoked; the code is spent (404 for any code not the organiser's last, a
    spent one or one past its time, alike). A wrong code writes nothing and takes no lock."""
    parts = code.strip().split("-")
    number = (whole_number(parts[0], 10**9) or 0) if len(parts) == 3 else 0
    table = session.get(TournamentTable, number) if number else None
    if table is None or _holds(secret_key, table, parts[1], parts[2], now) is None:
        raise NotFoundError("re-key code", code)
    tournaments.lock(session, table.tournament_id)  # one use: two at once wait for each other
    session.refresh(table)
    side = _holds(secret_key, table, parts[1], parts[2], now)  # spent meanwhile?
    if side is None or table.game_id is None:
        raise NotFoundError("re-key code", code)
    table.slip_hash = ""
    session.add(table)
    seating.void_side_codes(session, seating.GAME, table.game_id, [side])  # the side's printed card too
    for device in seating.devices(session, seating.GAME, table.game_id):
        if device.role == side:
            seating.revoke_device(session, seating.GAME, table.game_id, device.pk)
    tournaments.log(session, table.tournament_id, "rekeyed", {"side": side}, actor=side, table_id=table.pk)
    return seating.seat(session, seating.GAME, secret_key, table.game_id, side)


# -- the round's printed join cards ------------------------------------------------------------------------
def printed_codes(
    session: Session, secret_key: str, tournament_id: int, number: int
) -> dict[int, dict[str, str]]:
    """The side codes round `number`'s cards print, by game, worked out again (nothing written: printing
    twice prints the same cards), each side's only while it still seats: not a side the organiser re-keyed,
    not a settled table's, not one whose referee made its own cards since. Empty for a round whose cards were
    never made here."""
    nonce = tournaments.card_nonce(session, tournament_id, number)
    if nonce is None:
        return {}
    tables = tournaments.tables_of(session, tournaments.get_round(session, tournament_id, number).pk)
    made: dict[int, dict[str, str]] = {
        t.game_id: {side: tournaments.card_code(secret_key, nonce, t.game_id, side) for side in SIDES}
        for t in tables
        if t.game_id is not None
    }
    return seating.codes_holding(session, seating.GAME, secret_key, made)


def card_of(session: Session, secret_key: str, game_id: int, side: str, code: str) -> TournamentTable | None:
    """The event table whose round's last printed card for `side` of this game is `code` (whether or not it
    still seats), None when the code is no such card."""
    table = games.table_of_game(session, game_id)
    rnd = session.get(TournamentRound, table.round_id) if table is not None else None
    nonce = tournaments.card_nonce(session, rnd.tournament_id, rnd.number) if rnd is not None else None
    if table is None or nonce is None or side not in SIDES:
        return None
    card = seating.normalise_code(tournaments.card_code(secret_key, nonce, game_id, side))
    return table if hmac.compare_digest(card, seating.normalise_code(code)) else None


def take_card(session: Session, secret_key: str, game_id: int, side: str, code: str) -> None:
    """An event's printed card seats ONE device (issue 63: a second phone with Ann's card took Ann's seat and
    confirmed her result): its first use spends it, any later one is refused (409) with the remedy, a re-key by
    the organiser. Race-safe: `seating.spend_code` is one conditional update. A code that is no event's card
    (a game's own join codes) is left alone."""
    if card_of(session, secret_key, game_id, side, code) is not None:
        seating.spend_code(session, seating.GAME, secret_key, game_id, side, code)


@dataclass(frozen=True)
class Holder:
    """Whose a side's seat at an event's table is: the player, and the table's number."""

    name: str
    table: int


def holder(session: Session, game_id: int, side: str) -> Holder | None:
    """The player a side's seat of this game is for, at an event's table (its card says whose it is, and its
    device is told whom it now plays as: the newcomer pass); None for the referee, or a game at no event."""
    table = games.table_of_game(session, game_id) if side in SIDES else None
    if table is None:
        return None
    player = session.get(TournamentPlayer, table.a_player_id if side == "attacker" else table.b_player_id)
    return Holder(player.name, table.table) if player is not None else None


def keep_own_seat(session: Session, game_id: int, held: str | None, offered: str) -> None:
    """A device that holds one side's seat at an event's table never takes the other side's (issue 93: the first
    player to sit scanned both cards, was seated as both and confirmed the result for both): 409 in the player's
    words. Elsewhere it may (a club game's one tablet passes between its players)."""
    if held not in SIDES or offered not in SIDES or held == offered:
        return
    table = games.table_of_game(session, game_id)
    if table is not None:
        raise RuleRefused(
            f"Each player at table {table.table} joins on their own device: this one is the {held}'s."
        )


def card_refusal(session: Session, secret_key: str, game_id: int, side: str, code: str) -> str | None:
    """Why an event table's printed card for `side` seats no one now, in the player's words with the remedy;
    None when `code` is not that card or it still seats (a wrong code is refused as any other)."""
    table = card_of(session, secret_key, game_id, side, code)
    if table is None or seating.codes_hold(session, seating.GAME, secret_key, game_id, {side: code}):
        return None
    if table.status in SETTLED:
        return f"Table {table.table}'s result is settled: its join cards seat no one now."
    if seating.is_spent(session, seating.GAME, secret_key, game_id, side, code):
        return seating.SPENT
    return "The organiser moved this seat to another device: ask the organiser for a new card or code."
