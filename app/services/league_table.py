"""The league table (issues 63 and 70): the signed games whose club the league trusts and the organiser's claims
(another tool's CSV, app.services.league_claims), points for a win, a draw and a loss, then the difference of
victory points; each line says how many of its games rest on claims.

Two rules make a claim and a signed game, or two files, agree on who played what:
- A signed game supersedes a claim of the same pairing: the same event (its name as it looks, case and
  look-alike letters aside: the organiser names a file's event, a club's bundle carries its event's name), the
  same round and the same two players by name (as they look, either listed first; clubs not compared, as one
  tool leaves them out). The claim is kept and listed, saying so, and not counted: one game counts once. Of two
  claims of one pairing (two files spelling a name or the event apart), the later supersedes the earlier.
- A player is their name and club; a name seen with no club is the player of that name with a club when the
  league has exactly one club for that name (one file gave the club, another did not). With two clubs for
  one name, there are two players, and the line with no club stays apart: the league cannot tell whose it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.data.models import LeagueClaim, LeagueGame, LeagueKey
from app.data.schemas_league import LeagueLineOut
from app.services import player_names

SCORING = (3, 1, 0)  # a league's points for a win, a draw and a loss
Player = tuple[str, str]  # a name and a club ("" for none), as kept


@lru_cache(maxsize=8192)  # a league of 10,000 games names a few hundred players: each looked at once
def look(text: str) -> str:
    """What a name looks like whatever its case (TR39's skeleton of it casefolded)."""
    return player_names.skeleton(text.casefold())


# Casefolded, a capital I is an i, which the skeleton keeps apart from the l it looks like: matched as one (the
# hostile pass: "AIice" beside "Alice", "Autumn CIassic" not replacing "Autumn Classic"). `look` itself stays as
# a claim's stored identity reads it (app.services.league_claims).
_I_AS_L = str.maketrans({"i": "l"})


@lru_cache(maxsize=8192)  # a league's every game pairs its event and players: each name translated once
def alike(text: str) -> str:
    """What a name looks like, as two names are matched: `look`, an i read as the l a capital I looks like."""
    return look(text).translate(_I_AS_L)


def pairing(event: str, rnd: int, a_name: str, b_name: str) -> tuple[str, int, frozenset[str]]:
    """One game's pairing, as a signed game and a claim of it are matched (the module's first rule)."""
    return alike(event), rnd, frozenset((alike(a_name), alike(b_name)))


class Played(NamedTuple):
    """A counted game or a claim, as the table reads it: `claim` the claim's id (None for a signed game)."""

    claim: int | None
    winner: str | None  # "attacker" (the first listed), "defender", None for a draw
    event: str
    round: int
    a: Player
    a_points: int
    b: Player
    b_points: int


@dataclass
class Counted:
    """What the league counts: its signed games from trusted keys, its claims (superseded ones too, not
    counted), the ids of the claims a signed game supersedes and each player as the table names them."""

    signed: list[Played]
    claims: list[Played]
    superseded: set[int] = field(default_factory=set)
    players: dict[Player, Player] = field(default_factory=dict)
    replaced: set[int] = field(default_factory=set)  # claims a later claim of their pairing supersedes

    def counted(self) -> list[Played]:
        left_out = self.superseded | self.replaced  # once, not for each claim
        return self.signed + [c for c in self.claims if c.claim not in left_out]


def same_players(pairs: Iterable[Player]) -> dict[Player, Player]:
    """Each (name, club) as the table names its player (the module's second rule): by how the name and the
    club look, as first spelt; a name with no club is its one clubbed player's, when there is exactly one."""
    first: dict[tuple[str, str], Player] = {}
    clubs: dict[str, set[str]] = {}
    for name, club in pairs:
        first.setdefault((alike(name), alike(club)), (name, club))
        if club:
            clubs.setdefault(alike(name), set()).add(alike(club))
    said: dict[Player, Player] = {}
    for (name_look, club_look), spelt in first.items():
        theirs = clubs.get(name_look, set())
        if not club_look and len(theirs) == 1:
            club_look = next(iter(theirs))
        said[spelt] = first[(name_look, club_look)]
    return said


def read(session: Session, league_id: int) -> Counted:
    trusted = set(session.exec(select(LeagueKey.public_key).where(LeagueKey.league_id == league_id)))
    g, c = LeagueGame, LeagueClaim
    games = session.execute(  # the columns the table reads, not the bundles kept beside them
        sa_select(*(col(x) for x in (g.club_key, g.winner, g.event, g.round, g.a_name, g.a_club, g.a_points,
                                     g.b_name, g.b_club, g.b_points)))
        .where(col(g.league_id) == league_id)
        .order_by(col(g.id))
    )  # fmt: skip
    claims = session.execute(
        sa_select(*(col(x) for x in (c.id, c.winner, c.event, c.round, c.a_name, c.a_club, c.a_points,
                                     c.b_name, c.b_club, c.b_points)))
        .where(col(c.league_id) == league_id)
        .order_by(col(c.id))
    )  # fmt: skip
    signed = [
        Played(None, w, e, r, (an, ac), ap, (bn, bc), bp)
        for key, w, e, r, an, ac, ap, bn, bc, bp in games
        if key in trusted
    ]
    side = {"a": "attacker", "b": "defender"}
    kept = [
        Played(i, side.get(w or ""), e, r, (an, ac), ap, (bn, bc), bp)
        for i, w, e, r, an, ac, ap, bn, bc, bp in claims
    ]
    # Each pairing looked at only when there are both (a league of signed games alone reads none of this).
    by_signed = {pairing(p.event, p.round, p.a[0], p.b[0]) for p in signed} if kept else set()
    superseded = {
        p.claim
        for p in kept
        if p.claim is not None and pairing(p.event, p.round, p.a[0], p.b[0]) in by_signed
    }
    latest: dict[tuple[str, int, frozenset[str]], int] = {}  # each pairing's latest claim (ids rise)
    replaced: set[int] = set()
    for p in kept:
        if p.claim is not None:
            earlier = latest.get(pair := pairing(p.event, p.round, p.a[0], p.b[0]))
            if earlier is not None:
                replaced.add(earlier)
            latest[pair] = p.claim
    counted = Counted(signed, kept, superseded, replaced=replaced)
    # Each (name, club) once, in the order first seen (the first spelling is the one shown, the same each run).
    counted.players = same_players(dict.fromkeys(x for p in counted.counted() for x in (p.a, p.b)))
    return counted


def table(session: Session, league_id: int, scoring: tuple[int, int, int] = SCORING) -> list[LeagueLineOut]:
    """The league table (see the module's docstring): points, then victory-point difference, then the name."""
    return lines(read(session, league_id), scoring)


def lines(counted: Counted, scoring: tuple[int, int, int] = SCORING) -> list[LeagueLineOut]:
    """The table of what `read` found (the site reads it once for its standings and its claims' lines)."""
    record: dict[Player, list[int]] = {}
    for p in counted.counted():
        for side, who, mine, theirs in (("attacker", p.a, p.a_points, p.b_points),
                                        ("defender", p.b, p.b_points, p.a_points)):  # fmt: skip
            t = record.setdefault(counted.players[who], [0, 0, 0, 0, 0, 0])
            outcome = 0 if p.winner == side else 1 if p.winner is None else 2
            t[outcome] += 1
            t[3] += scoring[outcome]
            t[4] += mine - theirs
            t[5] += p.claim is not None
    order = sorted(record.items(), key=lambda kv: (-kv[1][3], -kv[1][4], kv[0]))
    out: list[LeagueLineOut] = []
    for i, ((name, club), (won, drawn, lost, pts, vp, claimed_games)) in enumerate(order):
        same = out and (out[-1].points, out[-1].vp) == (pts, vp)
        out.append(
            LeagueLineOut(
                place=out[-1].place if same else i + 1,
                player=name,
                club=club,
                played=won + drawn + lost,
                won=won,
                drawn=drawn,
                lost=lost,
                points=pts,
                vp=vp,
                claimed=claimed_games,
            )
        )
    return out
