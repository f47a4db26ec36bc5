"""An event's results (issue 57): a table's finished game offers its scored result (app.services.result) to
the event, both players' seats confirm it (or one disputes it), and only the organiser alters a result once
confirmed or disputed, logged with the result before and after. A lost tablet's seat: app.services.event_seats.

The standings (rules.event.standings) count the settled results, CSV as exported. A finished table's result
leaves the club as a signed bundle (the club kit's Ed25519 key, app.club.signing): the scenario's, the forces'
and the rule set's version hashes, the result, and the hash of the game's record. Another club's firestep
imports it: the signature and the hashes it can check are checked, a tampered bundle refused in one sentence,
and the league table counts the bundles imported.

The game's record (`game_record`, format firestep-result/2) is the finished game as every side may read it
once it is over, so nothing in it is still hidden: each event every side may see (visibility "all"), as a
reader holding no side reads it (app.services.events.event_dict with no roles: the public payload, never a
side's or the referee's private part: a hand of cards, the undealt pack), with the result the game itself
scored at its end (app.services.result: winner, points and stands lost). The bundle carries the record beside
its signed body, whose `log_hash` is the sha256 of the record's canonical JSON; the importer recomputes it
and, for a result the table confirmed as its game offered it, checks that the record ends the game with the
bundle's result (a result set by the organiser, perhaps of a game that could not end, is told apart by the
bundle's `settled` and not checked against the record).
A bundle is at most MAX_BUNDLE_CHARS characters (1.5 million), under the 2 MiB of any request's body
(app.guard.limits): a game whose record is larger cannot leave as a bundle (refused at export in one sentence).
The league keeps a bundle without its record (checked at import; the signed hash is kept). An older
firestep-result/1 bundle, with no record, is refused in one sentence: its log hash cannot be checked.

Nothing here commits: the route or page wraps each write in `app.core.writing.unit_of_work`.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any, Literal

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.club import signing
from app.core import live
from app.data import schemas_events
from app.data.models import Event, Game, LeagueResult, Tournament, TournamentPlayer, TournamentTable
from app.errors import Conflict, Forbidden
from app.guard.auth import SIDES, Viewer
from app.services import clock, scenarios, tournaments
from app.services import events as events_service
from app.services import score as score_service
from app.services.result import game_result
from app.services.score import FINISHED
from rules.core.clock import Clock, Entry
from rules.core.commitment import canonical, sha256
from rules.core.errors import NotFoundError, RulesError
from rules.event.standings import Played, Standing, standings
from rules.registry import get_ruleset

Side = Literal["a", "b"]
BUNDLE_FORMAT = "firestep-result/2"  # /1 carried no game record: refused (its log hash cannot be checked)
MAX_BUNDLE_CHARS = schemas_events.MAX_BUNDLE_CHARS
SIDE_OF = {"attacker": "a", "defender": "b"}  # the a player is the table's attacker
MAX_POINTS = schemas_events.MAX_POINTS


@dataclass(frozen=True)
class TableResult:
    """A result as the event counts it: the winner ("a", "b", None for a draw), each player's game points
    and stands lost, and how it ended."""

    winner: Side | None
    a_points: int
    b_points: int
    a_losses: int = 0
    b_losses: int = 0
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "a_points": self.a_points,
            "b_points": self.b_points,
            "a_losses": self.a_losses,
            "b_losses": self.b_losses,
            "reason": self.reason,
        }

    @classmethod
    def of(cls, d: Mapping[str, Any]) -> TableResult:
        return cls(d.get("winner"), d["a_points"], d["b_points"], d.get("a_losses", 0), d.get("b_losses", 0),
                   d.get("reason", ""))  # fmt: skip


# -- results from the table --------------------------------------------------------------------------------
def get_table(session: Session, tournament_id: int, table_id: int) -> TournamentTable:
    row = session.get(TournamentTable, table_id)
    if row is None or row.tournament_id != tournament_id:
        raise NotFoundError("table", str(table_id))
    return row


def _offer(session: Session, table: TournamentTable) -> TournamentTable:
    """The table's finished game offers its scored result, once (the caller asked `refusal` first: a game
    still being played is refused there)."""
    result = game_result(session, table.game_id) if table.status == "playing" and table.game_id else None
    if result is None:
        return table
    table.offered = TableResult(
        SIDE_OF.get(result.winner or "") if result.winner else None,  # type: ignore[arg-type]
        int(result.points.get("attacker", 0)),
        int(result.points.get("defender", 0)),
        int(result.losses.get("attacker", 0)),
        int(result.losses.get("defender", 0)),
        result.reason[:200],
    ).as_dict()
    table.status = "offered"
    session.add(table)
    tournaments.log(session, table.tournament_id, "offered", table.offered, actor="table", table_id=table.pk)
    return table


def _wake(session: Session, table: TournamentTable) -> None:
    """The organiser's live view follows the table's game: a change of its result wakes it at commit."""
    if table.game_id is not None:
        live.mark(session, table.game_id)


def refusal(session: Session, table: TournamentTable, who: Viewer | None) -> Forbidden | Conflict | None:
    """Why a seat's confirmation (or dispute) of the table's result would be refused now, None when it would
    be taken: the one answer the act and the table's page (which offers the act only then) both read."""
    if who is None or who.game_id != table.game_id or who.role not in SIDES:
        return Forbidden("only the two players' seats of this table confirm its result")
    if table.status == "playing" and (table.game_id is None or game_result(session, table.game_id) is None):
        return Conflict(f"table {table.table}'s game is still being played: end it first (How a game is won)")
    if table.status not in ("playing", "offered"):
        return Conflict(f"table {table.table}'s result is {table.status}: only the organiser changes it now")
    return None


def _seat_side(session: Session, table: TournamentTable, who: Viewer) -> Side:
    if (refused := refusal(session, table, who)) is not None:
        raise refused
    return "a" if who.role == "attacker" else "b"


def confirm(session: Session, tournament_id: int, table_id: int, who: Viewer) -> TournamentTable:
    """A player's seat confirms the result its game offered; both confirmed, the event counts it."""
    tournaments.lock(session, tournament_id)
    side = _seat_side(session, get_table(session, tournament_id, table_id), who)
    table = _offer(session, get_table(session, tournament_id, table_id))
    setattr(table, f"{side}_confirmed", True)
    if table.a_confirmed and table.b_confirmed:
        table.status, table.result = "confirmed", dict(table.offered)
    session.add(table)
    _wake(session, table)
    tournaments.log(session, tournament_id, "confirmed", {"side": side}, actor=who.role, table_id=table.pk)
    return table


def dispute(session: Session, tournament_id: int, table_id: int, who: Viewer, why: str) -> TournamentTable:
    """A player's seat disputes the offered result: the organiser settles it (alter)."""
    tournaments.lock(session, tournament_id)
    side = _seat_side(session, get_table(session, tournament_id, table_id), who)
    table = _offer(session, get_table(session, tournament_id, table_id))
    table.status = "disputed"
    session.add(table)
    _wake(session, table)
    tournaments.log(session, tournament_id, "disputed", {"side": side, "why": why}, actor=who.role,
                    table_id=table.pk)  # fmt: skip
    return table


def alter(
    session: Session, tournament_id: int, table_id: int, result: TableResult, why: str
) -> TournamentTable:
    """The organiser sets a table's result (a disputed one, a confirmed one, one whose game cannot end, one
    typed from a paper slip), logged with the result before and after; a reason is asked only to override what
    both players confirmed."""
    tournaments.lock(session, tournament_id)
    table = get_table(session, tournament_id, table_id)
    if table.status == "drafted":
        raise Conflict(f"table {table.table} is only a draft: commit its round first")
    if table.status == "confirmed" and not why.strip():
        raise RulesError("why", "both players confirmed this result: say why you change it")
    before = dict(table.result or table.offered)
    table.result, table.status = result.as_dict(), "altered"
    session.add(table)
    _wake(session, table)
    tournaments.log(session, tournament_id, "altered", {"before": before, "after": table.result, "why": why},
                    table_id=table.pk)  # fmt: skip
    return table


# -- standings ---------------------------------------------------------------------------------------------
def played(session: Session, row: Tournament) -> list[Played]:
    out: list[Played] = []
    for r in tournaments.rounds_of(session, row.pk):
        if r.status != "committed":
            continue
        if r.bye_player_id is not None:
            out.append(Played(r.bye_player_id, None, None))
        for t in tournaments.tables_of(session, r.pk):
            if t.status in tournaments.SETTLED:
                res = TableResult.of(t.result)
                winner = {"a": t.a_player_id, "b": t.b_player_id}.get(res.winner or "")
                out.append(Played(t.a_player_id, t.b_player_id, winner, res.a_points, res.b_points))
    return out


def event_standings(
    session: Session, tournament_id: int
) -> tuple[list[Standing], dict[int, TournamentPlayer]]:
    row = tournaments.get(session, tournament_id)
    people = tournaments.players(session, tournament_id)
    lines = standings([p.pk for p in people], played(session, row), tournaments.scoring_of(row))
    return lines, {p.pk: p for p in people}


def standings_csv(session: Session, tournament_id: int) -> str:
    lines, people = event_standings(session, tournament_id)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["place", "player", "club", "force list", "points", "vp difference", "strength of schedule",
                "played", "won", "drawn", "lost", "byes"])  # fmt: skip
    for s in lines:
        p = people[s.player]
        w.writerow([s.place, _cell(p.name), _cell(p.club), _cell(p.force_list), s.points, s.vp, s.sos,
                    s.played, s.won, s.drawn, s.lost, s.byes])  # fmt: skip
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet never reads a player's name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# -- signed result bundles and the league ----------------------------------------------------------------------
@cache
def ruleset_hash(ruleset_id: str) -> str:
    """The rule set's version: the sha256 of its package's files as installed (two clubs on the same
    release agree)."""
    module = import_module(type(get_ruleset(ruleset_id)).__module__.rsplit(".", 1)[0])
    root = Path(module.__file__ or "").parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".yaml")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def game_record(session: Session, game_id: int) -> dict[str, Any]:
    """The finished game as every side may read it once it is over (see the module's docstring): its public
    log and the result the game scored at its end."""
    log = [
        [e["id"], e["turn"], e["side"], e["step"], e["kind"], e["actor"], e["payload"], e["reverses_id"]]
        for e in (
            events_service.event_dict(ev, ())
            for ev in events_service.list_events(session, game_id, (), limit=100_000)
        )
    ]
    ended = game_result(session, game_id)
    return {
        "log": log,
        "ended": {"winner": ended.winner, "points": dict(ended.points), "losses": dict(ended.losses)}
        if ended is not None
        else None,
    }


def export_bundle(
    session: Session, key: Ed25519PrivateKey, club: str, tournament_id: int, table_id: int
) -> dict[str, Any]:
    """A settled table's result, signed with this club's key."""
    row = tournaments.get(session, tournament_id)
    table = get_table(session, tournament_id, table_id)
    if table.status not in tournaments.SETTLED or table.game_id is None:
        raise Conflict(f"table {table.table}'s result is not settled yet: confirm it first")
    game = session.get(Game, table.game_id)
    if game is None:
        raise NotFoundError("game", str(table.game_id))
    doc = scenarios.get_document(session, game.scenario) if game.scenario else {}
    people = {p.pk: p for p in tournaments.players(session, tournament_id)}
    a, b = people[table.a_player_id], people[table.b_player_id]
    forces = {
        side: {
            "player": p.name,
            "club": p.club,
            "force_list": p.force_list,
            "scenario": doc.get("sides", {}).get(side),
        }
        for side, p in (("attacker", a), ("defender", b))
    }
    record = game_record(session, game.pk)
    res = TableResult.of(table.result)
    body = {
        "format": BUNDLE_FORMAT,
        "club": club,
        "public_key": signing.public_hex(key),
        "event": row.name,
        "table": table.table,
        "ruleset": game.ruleset,
        "ruleset_hash": ruleset_hash(game.ruleset),
        "period": game.period or "",
        "scenario": game.scenario or "",
        "scenario_hash": sha256(doc),
        "forces_hash": sha256(forces),
        "players": {"attacker": [a.name, a.club], "defender": [b.name, b.club]},
        "result": {
            "winner": {"a": "attacker", "b": "defender"}.get(res.winner or ""),
            "points": {"attacker": res.a_points, "defender": res.b_points},
            "losses": {"attacker": res.a_losses, "defender": res.b_losses},
            "reason": res.reason,
        },
        "settled": "altered" if table.status == "altered" else "confirmed",
        "log_hash": sha256(record),
        "log_entries": len(record["log"]),
    }
    bundle = {**body, "signature": signing.sign(key, canonical(body)), "record": record}
    if len(canonical(bundle)) > MAX_BUNDLE_CHARS:
        raise Conflict(
            f"table {table.table}'s game record is over the {MAX_BUNDLE_CHARS} characters a bundle carries"
        )
    return bundle


def verify_bundle(session: Session, bundle: Mapping[str, Any]) -> dict[str, Any]:
    """The bundle's signed body, once its signature and every hash this server can check hold; else a
    refusal of one sentence naming what does not."""
    body = {k: v for k, v in bundle.items() if k not in ("signature", "record")}
    if body.get("format") == "firestep-result/1":
        raise RulesError(
            "bundle.format",
            "a firestep-result/1 bundle has no game record to check its log hash: export it again",
        )
    if body.get("format") != BUNDLE_FORMAT:
        raise RulesError("bundle.format", f"not a firestep result bundle: its format is not {BUNDLE_FORMAT}")
    if not signing.verifies(
        str(body.get("public_key", "")), str(bundle.get("signature", "")), canonical(body)
    ):
        raise RulesError("bundle.signature", "the bundle was changed after its club signed it: refused")
    ruleset = str(body.get("ruleset", ""))
    try:
        ours = ruleset_hash(ruleset)
    except Exception:  # a rule set this server does not play
        raise RulesError("bundle.ruleset", f"this server does not play {ruleset[:40]}: refused") from None
    if body.get("ruleset_hash") != ours:
        raise RulesError(
            "bundle.ruleset_hash", "the game was played by another version of the rules: refused"
        )
    scenario = str(body.get("scenario", ""))
    if scenario:
        try:
            doc = scenarios.get_document(session, scenario)
        except NotFoundError:
            doc = None  # another club's own scenario: its hash is as signed
        if doc is not None and body.get("scenario_hash") != sha256(doc):
            raise RulesError("bundle.scenario_hash", "the scenario differs from this server's copy: refused")
    _check_result(body.get("result"))
    _check_record(body, bundle.get("record"))
    return body


def _check_record(body: Mapping[str, Any], record: Any) -> None:
    """The game's record is the one the club signed the hash of; a result the table confirmed is the one the
    game's record ends with."""
    if not isinstance(record, dict) or body.get("log_hash") != sha256(record):
        raise RulesError(
            "bundle.record", "the game's record is not the one whose log hash the club signed: refused"
        )
    log = record.get("log")
    if not isinstance(log, list) or body.get("log_entries") != len(log):
        raise RulesError(
            "bundle.record", "the game's record has not as many entries as the bundle says: refused"
        )
    if body.get("settled") != "confirmed":
        return  # set by the organiser (a game that could not end, a dispute): not the game's own, unchecked
    if not any(isinstance(e, list) and len(e) > 4 and e[4] == FINISHED for e in log):
        raise RulesError("bundle.record", "the game's record has no end of the game: refused")
    ended, result = record.get("ended"), body.get("result") or {}
    if not isinstance(ended, dict) or [ended.get(k) for k in ("winner", "points", "losses")] != [
        result.get(k) for k in ("winner", "points", "losses")
    ]:
        raise RulesError("bundle.result", "the result is not the one the game's record ends with: refused")


def _check_result(result: Any) -> None:
    ok = isinstance(result, dict) and result.get("winner") in (None, *SIDES)
    for part in ("points", "losses"):
        values = result.get(part) if isinstance(result, dict) else None
        ok = ok and isinstance(values, dict) and set(values) == set(SIDES)
        ok = ok and all(isinstance(v, int) and 0 <= v <= MAX_POINTS for v in (values or {}).values())
    if not ok:
        raise RulesError(
            "bundle.result", "the bundle's result is not a winner with points and losses: refused"
        )


def checked_words(bundle: Mapping[str, Any]) -> str:
    """What an imported bundle's checks were, in words."""
    if bundle.get("settled") == "confirmed":
        return "Signature, hashes and the game's record checked: the result is the one the game ended with."
    return "Signature, hashes and the game's record checked; the result was set by its organiser, not by the game."


def import_bundle(session: Session, bundle: Mapping[str, Any]) -> LeagueResult:
    """A verified bundle kept for the league (importing it again gives the one kept)."""
    body = verify_bundle(session, bundle)
    digest = sha256(dict(bundle))
    kept = session.exec(select(LeagueResult).where(LeagueResult.digest == digest)).first()
    if kept is not None:
        return kept
    row = LeagueResult(
        digest=digest,
        club_key=str(body["public_key"])[:64],
        club=str(body.get("club", ""))[:80],
        bundle={k: v for k, v in bundle.items() if k != "record"},  # checked; its signed hash is kept
    )
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # imported meanwhile by another request
        found = session.exec(select(LeagueResult).where(LeagueResult.digest == digest)).first()
        if found is None:
            raise
        return found
    return row


@dataclass(frozen=True)
class LeagueLine:
    place: int
    player: str
    club: str
    played: int
    won: int
    drawn: int
    lost: int
    points: int
    vp: int


def league(session: Session, scoring: tuple[int, int, int] = (3, 1, 0)) -> list[LeagueLine]:
    """The league table from every imported bundle: a player is their name and club; points for a win,
    a draw and a loss (the league's choice), then victory-point difference."""
    record: dict[tuple[str, str], list[int]] = {}
    for row in session.exec(select(LeagueResult).order_by(col(LeagueResult.id))):
        b = row.bundle
        for side in SIDES:
            other = SIDES[1 - SIDES.index(side)]
            name, club = b["players"][side]
            t = record.setdefault((name, club), [0, 0, 0, 0, 0])
            winner = b["result"]["winner"]
            t[0 if winner == side else 1 if winner is None else 2] += 1
            t[3] += scoring[0] if winner == side else scoring[1] if winner is None else scoring[2]
            t[4] += b["result"]["points"][side] - b["result"]["points"][other]
    order = sorted(record.items(), key=lambda kv: (-kv[1][3], -kv[1][4], kv[0]))
    lines: list[LeagueLine] = []
    for i, ((name, club), (won, drawn, lost, pts, vp)) in enumerate(order):
        same = lines and (lines[-1].points, lines[-1].vp) == (pts, vp)
        lines.append(LeagueLine(lines[-1].place if same else i + 1, name, club, won + drawn + lost, won, drawn,
                                lost, pts, vp))  # fmt: skip
    return lines


def table_players(session: Session, tables: Sequence[TournamentTable]) -> dict[int, TournamentPlayer]:
    ids = {i for t in tables for i in (t.a_player_id, t.b_player_id)}
    if not ids:
        return {}
    return {p.pk: p for p in session.exec(select(TournamentPlayer).where(col(TournamentPlayer.id).in_(ids)))}


# -- the organiser's live view: each table's score and clock -------------------------------------------------
@dataclass(frozen=True)
class TableState:
    """A table's game as the organiser's view last read it: its latest event, each side's points then and its
    log as the clock reads it (the clock itself is worked out from it as of each frame, with no read)."""

    last_event: int
    points: dict[str, int]
    log: tuple[Entry, ...]


def _points(session: Session, game: Game) -> dict[str, int]:
    return {side: int(v) for side, v in score_service.game_score(session, game).points.items()}


@dataclass
class Following:
    """What the organiser's live view knows of each table's game between frames: a game is read again only once
    it has a new event (one query for every table says which), and then only its new events (one query for all
    the games that moved): each side's points worked out again only when one of them may change the score (a
    marker does not), the clock's log extended by those it reads. Forty tables where one moved cost a few rows."""

    kept: dict[int, TableState] = field(default_factory=dict)

    def read(self, session: Session, games: Sequence[Game]) -> dict[int, TableState]:
        ids = [g.pk for g in games]
        latest: dict[int, int] = {}
        if ids:
            q = (
                select(Event.game_id, func.max(Event.id))
                .where(col(Event.game_id).in_(ids))
                .group_by(col(Event.game_id))
            )
            latest = {int(g): int(m or 0) for g, m in session.exec(q)}
        moved = {
            g.pk: had
            for g in games
            if (had := self.kept.get(g.pk)) is not None and had.last_event != latest.get(g.pk, 0)
        }
        since: dict[int, list[Event]] = {pk: [] for pk in moved}
        if moved:
            q2 = (
                select(Event)
                .where(
                    col(Event.game_id).in_(list(moved)),
                    col(Event.id) > min(h.last_event for h in moved.values()),
                )
                .order_by(col(Event.id))
            )
            for ev in session.exec(q2):
                if ev.pk > moved[ev.game_id].last_event:
                    since[ev.game_id].append(ev)
        for game in games:
            last = latest.get(game.pk, 0)
            had = self.kept.get(game.pk)
            if had is None:
                self.kept[game.pk] = TableState(
                    last, _points(session, game), tuple(clock.entries(session, game.pk))
                )
            elif game.pk in moved:
                new = since[game.pk]
                # The whole record (every part): the organiser's read is the server's own, never sent as it is.
                rescore = any(
                    score_service.touches_score(events_service.event_dict(ev, events_service.PART_ORDER))
                    for ev in new
                )
                log = clock.read_on(session, game, had.log, new)
                self.kept[game.pk] = TableState(last, _points(session, game) if rescore else had.points, log)
        return self.kept

    @staticmethod
    def clock_of(game: Game, state: TableState, now: datetime) -> Clock:
        return clock.clock_of(game, state.log, now)
