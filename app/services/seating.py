"""Seats at a game or a campaign, one implementation for both (they share this code, not their tables): the
join code of each side, the tokens (each one a device) that joining and reissuing hand out, looking a
token up, the device list and revocation; and who holds a seat, a `Viewer` (the referee or a side's player, as
the door, app.guard.auth, reads a device's token), whom the services ask what they may do. Tokens and join codes
are random; only HMAC-SHA256(the app's secret key, value) is stored, so a copy of the database cannot be used to
play. A join code only ever buys a token.

A `Seating` names the tables of one kind of thing: `GAME` (game_side, token) and `CAMPAIGN` (campaign_side,
campaign_token). Nothing here locks or commits: the caller takes its row lock first and commits after.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, NamedTuple, TypeVar

from sqlalchemy import bindparam, insert, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from app.data.models import CampaignSide, CampaignToken, GameSide, Token, utcnow
from app.data.schemas_devices import DeviceOut
from app.errors import Forbidden, RuleRefused
from rules.core.errors import NotFoundError

REFEREE = "referee"  # a game's referee, a campaign's organiser
# Only an event's printed card is spent by its first use (app.services.event_seats.take_card): its remedy, in the
# words of the organiser's taps for it (_event_round.html: the table's number, its panel's button), so the player can say what to tap.
SPENT = (
    "This join card has already seated a device: ask the organiser to tap your table’s number, then “New tablet"
    " for” you."
)
# No 0/O or 1/I/L: codes are read aloud across a table and typed on tablets.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

SideRow = TypeVar("SideRow", GameSide, CampaignSide)
TokenRow = TypeVar("TokenRow", Token, CampaignToken)


# -- who holds a seat -------------------------------------------------------------------------------------------
def acts_for(role: str, side: str) -> bool:
    """Whether a seat of `role` may act for `side`'s stands (the referee for either): the pipeline's check of a
    seat (`Viewer.require_side`), and the board's buttons drawn per seat by it alone (a marker recovered)."""
    return role in (REFEREE, side)


@dataclass(frozen=True)
class Viewer:
    """Who is asking, as the door read the device's token (app.guard.auth.seat_viewer): the referee (a
    campaign's organiser) or one side's player, of one game or campaign."""

    game_id: int  # the game's or the campaign's
    role: str  # referee, attacker or defender
    token_id: int | None = None  # the device this request came from

    @property
    def is_referee(self) -> bool:
        return self.role == REFEREE

    def may_act_for(self, side: str) -> bool:
        return acts_for(self.role, side)

    def require_side(self, side: str, what: str) -> None:
        if not self.may_act_for(side):
            raise Forbidden(f"the {self.role} player may not {what} of the {side}")

    def require_referee(self, what: str) -> None:
        if not self.is_referee:
            raise Forbidden(f"only the referee may {what}")

    def sees(self, visibility: str) -> bool:
        return visibility == "all" or self.is_referee or visibility == self.role


# -- codes and tokens --------------------------------------------------------------------------------------
def digest(secret_key: str, value: str) -> str:
    return hmac.new(secret_key.encode(), value.encode(), hashlib.sha256).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_salt() -> str:
    """A fresh secret salt: each side's fire plan starts with one (app.services.seats), each of its items and
    each turn's seal has its own (app.services.fireplans)."""
    return secrets.token_hex(16)


def new_join_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))
    return f"{raw[:5]}-{raw[5:]}"


def normalise_code(code: str) -> str:
    """Codes are read aloud: case, dashes and spaces do not matter."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def code_hash(secret_key: str, code: str) -> str:
    return digest(secret_key, normalise_code(code))


# -- the tables of a game's or a campaign's seats ----------------------------------------------------------
@dataclass(frozen=True)
class Seating(Generic[SideRow, TokenRow]):
    what: str  # "game" or "campaign", as messages name it
    side: type[SideRow]
    token: type[TokenRow]
    owner: str  # the column of both tables that names the game or campaign

    def owner_of(self, row: SideRow | TokenRow) -> int:
        return int(getattr(row, self.owner))


GAME: Seating[GameSide, Token] = Seating("game", GameSide, Token, "game_id")
CAMPAIGN: Seating[CampaignSide, CampaignToken] = Seating(
    "campaign", CampaignSide, CampaignToken, "campaign_id"
)


@dataclass(frozen=True)
class Credentials:
    """What the referee (organiser) is shown once: their token and a join code per side."""

    referee_token: str
    join_codes: dict[str, str]


class Joined(NamedTuple):
    owner_id: int  # the game or campaign
    side: str
    token: str


# -- devices -----------------------------------------------------------------------------------------------
def issue(
    session: Session, seating: Seating[Any, TokenRow], secret_key: str, owner_id: int, role: str
) -> str:
    """A new device; the token itself is shown once, only its HMAC is kept."""
    row, token = _device(seating, secret_key, owner_id, role)
    session.add(row)
    return token


def issue_each(
    session: Session, seating: Seating[Any, Any], secret_key: str, owners: Sequence[int], role: str
) -> dict[int, str]:
    """A new device of `role` for each of `owners`, by owner, in one statement however many (a round's referees
    at its commit's end: 400 rows made as objects one by one were half that request's CPU); each token itself
    shown once, only its HMAC kept."""
    now = utcnow()
    tokens = {owner_id: new_token() for owner_id in owners}
    if tokens:
        session.execute(
            insert(seating.token),
            [
                {
                    seating.owner: owner_id,
                    "role": role,
                    "token_hash": digest(secret_key, token),
                    "created_at": now,
                    "last_seen_at": now,
                }
                for owner_id, token in tokens.items()
            ],
        )
    return tokens


def _device(
    seating: Seating[Any, TokenRow], secret_key: str, owner_id: int, role: str
) -> tuple[TokenRow, str]:
    token = new_token()
    now = utcnow()
    owner: dict[str, Any] = {seating.owner: owner_id}
    row = seating.token(
        **owner, role=role, token_hash=digest(secret_key, token), created_at=now, last_seen_at=now
    )
    return row, token


@cache
def _device_by_hash(model: type[TokenRow]) -> SelectOfScalar[TokenRow]:
    """A device's row by its token's HMAC, the statement built once (and its cache key with it: a statement built
    anew for each request cost more than its query, 0.1 ms of every request a token authorises)."""
    return select(model).where(col(model.token_hash) == bindparam("token_hash"))


def find_device(
    session: Session, seating: Seating[Any, TokenRow], secret_key: str, token: str
) -> TokenRow | None:
    found = session.exec(_device_by_hash(seating.token), params={"token_hash": digest(secret_key, token)})
    return found.first()


def devices(session: Session, seating: Seating[Any, TokenRow], owner_id: int) -> list[TokenRow]:
    model = seating.token
    owner = getattr(model, seating.owner)
    return list(session.exec(select(model).where(owner == owner_id).order_by(col(model.id))))


def revoke_device(
    session: Session, seating: Seating[Any, TokenRow], owner_id: int, device_id: int
) -> TokenRow:
    """Revoke one device of this game or campaign (a device of another one is not found here)."""
    row = session.get(seating.token, device_id)
    if row is None or seating.owner_of(row) != owner_id:
        raise NotFoundError("device", str(device_id))
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        session.add(row)
    return row


def revoke_all(session: Session, seating: Seating[Any, Any], owner_id: int) -> None:
    model = seating.token
    owner = getattr(model, seating.owner)
    session.execute(
        update(model).where(owner == owner_id, col(model.revoked_at).is_(None)).values(revoked_at=utcnow())
    )


def device_out(row: Token | CampaignToken, this_device: int | None) -> DeviceOut:
    """A token as its game or campaign lists it (`this_device`: the token id the request was made with)."""
    return DeviceOut(
        id=row.pk,
        role=row.role,
        issued_at=row.created_at,
        last_seen_at=row.last_seen_at,
        revoked_at=row.revoked_at,
        revoked=row.revoked_at is not None,
        this_device=row.id == this_device,
    )


# -- sides and their join codes ----------------------------------------------------------------------------
def seat_sides(
    session: Session,
    seating: Seating[SideRow, Any],
    secret_key: str,
    owners: Sequence[int],
    sides: Iterable[str],
    new_side: Callable[[int, str, str], SideRow],
    codes_of: Callable[[int], Mapping[str, str]] | None = None,
) -> list[Credentials]:
    """The sides of each new game or campaign of `owners`, each with a fresh join code (`new_side(owner, side,
    code hash)` builds the row), or the code `codes_of(owner)` gives it (a round's games: their join cards'),
    and the referee's first device; written in one statement of each kind however many (a round's games: the
    session keeps no object of them, none is asked for again as it is made)."""
    rows: list[Any] = []
    devices: list[Any] = []
    out = []
    for owner_id in owners:
        given = codes_of(owner_id) if codes_of is not None else {}
        codes: dict[str, str] = {}
        for side in sides:
            codes[side] = given[side] if side in given else new_join_code()
            rows.append(new_side(owner_id, side, code_hash(secret_key, codes[side])))
        device, token = _device(seating, secret_key, owner_id, REFEREE)
        devices.append(device)
        out.append(Credentials(token, codes))
    session.bulk_save_objects(rows + devices)  # each kind together: one statement each
    return out


def reissue(session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int) -> Credentials:
    """New join codes and a new referee token. Every old credential stops working: the old codes, the old
    referee token and every side's token (its players join again with the new codes)."""
    revoke_all(session, seating, owner_id)
    codes = new_side_codes(session, seating, secret_key, owner_id)
    return Credentials(issue(session, seating, secret_key, owner_id, REFEREE), codes)


def _side_rows(session: Session, seating: Seating[SideRow, Any], owner_id: int) -> list[SideRow]:
    owner = getattr(seating.side, seating.owner)
    return list(session.exec(select(seating.side).where(owner == owner_id).order_by(col(seating.side.id))))


def new_side_codes(
    session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int
) -> dict[str, str]:
    """A new join code for every side (the old ones, and the referee join code, stop working); the devices
    already seated keep their seats. What new join cards print."""
    codes: dict[str, str] = {}
    for row in _side_rows(session, seating, owner_id):
        codes[row.side] = new_join_code()
        row.join_code_hash = code_hash(secret_key, codes[row.side])
        session.add(row)
    return codes


def referee_code(session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int) -> str:
    """The referee's join code (printed on the referee's join card, so the token itself is never shown in a
    QR code nor typed). Nothing is stored: it is an HMAC of the sides' current join code hashes, so it is
    revoked with them, whenever the sides get new codes (new join cards, `firestep credentials`)."""
    hashes = ":".join(row.join_code_hash for row in _side_rows(session, seating, owner_id))
    return derived_code(secret_key, f"referee-join:{seating.what}:{owner_id}:{hashes}")


def derived_code(secret_key: str, value: str) -> str:
    """A join code that is an HMAC of `value` (so it can be printed again from what made it, and no one
    without the secret key can work it out), in the join codes' alphabet and shape."""
    number = int(digest(secret_key, value), 16)
    chars = []
    for _ in range(10):
        number, index = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[index])
    return f"{''.join(chars[:5])}-{''.join(chars[5:])}"


def set_side_codes(
    session: Session, seating: Seating[Any, Any], secret_key: str, codes: Mapping[int, Mapping[str, str]]
) -> None:
    """These join codes, by game or campaign, for the sides named (the old ones stop working; seated devices
    keep their seats); the sides of every one read in one query."""
    if not codes:
        return
    owner = getattr(seating.side, seating.owner)
    for row in session.exec(select(seating.side).where(col(owner).in_(list(codes)))):
        mine = codes[getattr(row, seating.owner)]
        if row.side in mine:
            row.join_code_hash = code_hash(secret_key, mine[row.side])
            session.add(row)


def void_side_codes(
    session: Session, seating: Seating[Any, Any], owner_id: int, sides: Sequence[str]
) -> None:
    """The named sides' join codes stop working and no new one is shown (a seat re-keyed by the organiser, a
    settled table): the stored value is no code's HMAC, so no code seats that side until new ones are made."""
    for row in _side_rows(session, seating, owner_id):
        if row.side in sides:
            row.join_code_hash = f"void:{secrets.token_hex(16)}"
            session.add(row)


def spent_hash(secret_key: str, code: str) -> str:
    """What a spent code's side keeps instead of the code's HMAC: no code's HMAC (so the code seats no one),
    yet the spent code is still known when it comes again (refused as spent, not as unknown)."""
    return digest(secret_key, f"spent:{normalise_code(code)}")


def spend_code(
    session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int, side: str, code: str
) -> None:
    """This use of `side`'s join code is its last (409 when it is not the first): one conditional UPDATE from
    the code's HMAC to its spent mark, so of two devices joining at once only one changes the row (PostgreSQL
    makes the second wait for the first's row lock and re-read it; SQLite writes one at a time), not a read
    then a write."""
    model = seating.side
    owner = getattr(model, seating.owner)
    result = session.execute(
        update(model)
        .where(
            owner == owner_id,
            col(model.side) == side,
            col(model.join_code_hash) == code_hash(secret_key, code),
        )
        .values(join_code_hash=spent_hash(secret_key, code))
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise RuleRefused(SPENT)


def is_spent(
    session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int, side: str, code: str
) -> bool:
    rows = {row.side: row.join_code_hash for row in _side_rows(session, seating, owner_id)}
    return hmac.compare_digest(rows.get(side, ""), spent_hash(secret_key, code))


def codes_hold(
    session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int, codes: dict[str, str]
) -> bool:
    """Whether these are still every named side's join codes."""
    rows = {row.side: row.join_code_hash for row in _side_rows(session, seating, owner_id)}
    return all(hmac.compare_digest(rows.get(side, ""), code_hash(secret_key, c)) for side, c in codes.items())


def codes_holding(
    session: Session, seating: Seating[Any, Any], secret_key: str, codes: Mapping[int, Mapping[str, str]]
) -> dict[int, dict[str, str]]:
    """Of these join codes, by game or campaign, those that are still their side's; the sides of every one read
    in one query (a round's sheet of 200 tables read them a table a query: issue 93)."""
    if not codes:
        return {}
    owner = getattr(seating.side, seating.owner)
    kept = {(getattr(row, seating.owner), row.side): row.join_code_hash
            for row in session.exec(select(seating.side).where(col(owner).in_(list(codes))))}  # fmt: skip
    return {
        owner_id: {
            side: code
            for side, code in mine.items()
            if hmac.compare_digest(kept.get((owner_id, side), ""), code_hash(secret_key, code))
        }
        for owner_id, mine in codes.items()
    }


def is_referee_code(
    session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int, code: str
) -> bool:
    expected = normalise_code(referee_code(session, seating, secret_key, owner_id))
    return hmac.compare_digest(expected, normalise_code(code))


def side_of_code(session: Session, seating: Seating[Any, Any], secret_key: str, code: str) -> tuple[int, str]:
    """(game or campaign id, side) whose join code this is, seating nobody (404 for a code no side has, 409 for
    a spent one)."""
    model = seating.side
    row = session.exec(select(model).where(col(model.join_code_hash) == code_hash(secret_key, code))).first()
    if row is None:
        if session.exec(
            select(model).where(col(model.join_code_hash) == spent_hash(secret_key, code))
        ).first():
            raise RuleRefused(SPENT)
        raise NotFoundError("join code", code)
    return seating.owner_of(row), row.side


def join(session: Session, seating: Seating[Any, Any], secret_key: str, code: str) -> Joined:
    """A new device for the side whose join code this is (404 for a code no side has)."""
    return seat(session, seating, secret_key, *side_of_code(session, seating, secret_key, code))


def seat(session: Session, seating: Seating[Any, Any], secret_key: str, owner_id: int, side: str) -> Joined:
    """A new device for a side that side_of_code found."""
    return Joined(owner_id, side, issue(session, seating, secret_key, owner_id, side))
