"""A seat at an event's table stays its holder's (issue 63). A lost tablet gets its seat back on the organiser's
word alone: the organiser's tap makes a code for that side (an HMAC of the table and a nonce that names the
side and when it lapses; the code itself is never stored), shown on the organiser's screen and nowhere else,
good once: it gives a new device for that side of the table's game and revokes the side's old ones. No
printout that both sides see carries a seat's code (the result slip both players sign carries none), and a
code for one side is nothing for the other.

Nothing here commits: the route or page wraps each write in `app.core.writing.unit_of_work`.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlmodel import Session

from app.data.models import TournamentTable
from app.errors import Conflict
from app.services import seating, tournaments
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES

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
        raise RulesError("side", f"a table's seats are {' and '.join(SIDES)}, not {side[:20]}")
    tournaments.lock(session, tournament_id)
    table = session.get(TournamentTable, table_id)
    if table is None or table.tournament_id != tournament_id:
        raise NotFoundError("table", str(table_id))
    if table.game_id is None:
        raise Conflict(f"table {table.table} has no game yet: commit its round first")
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
    if not side or table.game_id is None or side_letter != side[0] or not ends.isdigit():
        return None
    if int(ends) < now.timestamp():
        return None
    return side if secrets.compare_digest(_rekey_mac(secret_key, table).encode(), mac.encode()) else None


def rekey(session: Session, secret_key: str, code: str, now: datetime) -> seating.Joined:
    """A lost tablet's seat back with the code the organiser gave: a new device for that side of the table's
    game, the side's old devices revoked; the code is spent (404 for any code not the organiser's last, a
    spent one or one past its time, alike). A wrong code writes nothing and takes no lock."""
    parts = code.strip().split("-")
    number = int(parts[0]) if len(parts) == 3 and parts[0].isdigit() and len(parts[0]) <= 9 else 0
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
    for device in seating.devices(session, seating.GAME, table.game_id):
        if device.role == side:
            seating.revoke_device(session, seating.GAME, table.game_id, device.pk)
    tournaments.log(session, table.tournament_id, "rekeyed", {"side": side}, actor=side, table_id=table.pk)
    return seating.seat(session, seating.GAME, secret_key, table.game_id, side)
