"""Who plays the next round of an event (issue 63), the organiser's to say between rounds: a player dropped (gone
for the day), marked a no-show (not here for the next round) or back in; a late player is simply registered
(app.services.tournaments.register) and paired from the next round drafted. A player out is paired in no
round drafted while out and keeps the results played so far in the standings. Either act changes who the
next round pairs, so a draft under review is discarded (the organiser drafts again; the answer says so).

Nothing here commits: the route or page wraps each write in `app.services.writing.unit_of_work`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlmodel import Session, col, select

from app.data.models import TournamentLog, TournamentPlayer
from app.services import tournaments
from rules.core.errors import NotFoundError

Status = Literal["playing", "dropped", "no-show"]
KINDS: dict[Status, str] = {"playing": "back-in", "dropped": "dropped", "no-show": "no-show"}


@dataclass(frozen=True)
class Marked:
    player: TournamentPlayer
    discarded_draft: int | None  # the draft's round number, discarded because who plays changed


def set_status(session: Session, tournament_id: int, player_id: int, status: Status) -> Marked:
    """The organiser marks a player dropped, a no-show or back in (logged); a draft under review is discarded."""
    tournaments.lock(session, tournament_id)
    player = session.get(TournamentPlayer, player_id)
    if player is None or player.tournament_id != tournament_id:
        raise NotFoundError("player", str(player_id))
    player.dropped = status != "playing"
    session.add(player)
    gone = tournaments.discard_draft(session, tournament_id)
    tournaments.log(session, tournament_id, KINDS[status], {"player": player.pk, "discarded_draft": gone})
    return Marked(player, gone)


def statuses(session: Session, tournament_id: int) -> dict[int, Status]:
    """Each player out of the next round and why (the last mark the organiser made); a player in is absent."""
    q = select(TournamentLog).where(
        TournamentLog.tournament_id == tournament_id, col(TournamentLog.kind).in_(list(KINDS.values()))
    )
    by_kind = {kind: status for status, kind in KINDS.items()}
    out: dict[int, Status] = {}
    for entry in session.exec(q.order_by(col(TournamentLog.id))):
        player = entry.detail.get("player")
        if isinstance(player, int):
            out[player] = by_kind[entry.kind]
    return {p: s for p, s in out.items() if s != "playing"}
