"""Signed result bundles and the league (issues 57 and 63).

A settled table's result leaves its club as a bundle (format firestep-result/3, app.data.schemas_league) signed
with the club kit's Ed25519 key (app.club.signing): the scenario's, the forces' and the rule set's version
hashes, the result, the event's number, the round and the table, and the hash of the game's record. The game's
record (`game_record`) is the finished game as every side may read it once it is over, so nothing in it is
still hidden: each event every side may see, as a reader holding no side reads it (the public payload, never a
side's or the referee's private part), with the result the game itself scored at its end
(app.services.result). A bundle is at most MAX_BUNDLE_CHARS characters, under the 2 MiB of any request's body:
a game whose record is larger cannot leave as a bundle (refused at export in one sentence).

A league is made by an organiser, like an event: its token is shown once and kept as an HMAC; the token (a
Bearer, or the league page's cookie) imports bundles and says which clubs the league trusts. A bundle is
typed field by field before anything reads it (app.data.schemas_league.ResultBundle: a refusal names the
field); then its signature and every hash this server can check are checked, a tampered bundle refused in one
sentence. What the league table reads is kept in typed columns (app.data.models.LeagueGame).

A league trusts clubs, not keys: it counts a game only once its organiser trusts the key that signed it (added
by hand with its fingerprint, or by saying yes to a game waiting from an unknown key); a game from a key not
trusted waits (pending), not counted, until then; saying no removes it. One game is one row: its identity is
the signing key, the event's number, the round and the table, so a bundle re-spelt (the signature's hex case or
spaces) or exported under another club name is the same game. The same bundle imported again is the row kept;
another bundle of a game already kept (its result changed and signed again) is refused in one sentence. The
table counts too the rows of another tool's CSV its organiser imported, each line saying how many of its games
rest on that claim (app.services.league_claims; the table is app.services.league_table); docs/result-format.md
publishes the bundle's format.

Nothing here commits: the route or page wraps each write in `app.services.writing.unit_of_work`.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pydantic import ValidationError
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.club import signing
from app.data import schemas_events
from app.data.models import Game, League, LeagueGame, LeagueKey, TournamentRound
from app.data.schemas_league import (
    BUNDLE_FORMAT,
    MAX_LEAGUE_GAMES,
    MAX_TRUSTED_KEYS,
    GameRecord,
    RecordEnd,
    ResultBundle,
)
from app.errors import Conflict, Forbidden, RuleRefused, Unauthorized
from app.services import player_names, seating
from rules.core.commitment import canonical, sha256
from rules.core.errors import NotFoundError, RulesError

MAX_BUNDLE_CHARS = schemas_events.MAX_BUNDLE_CHARS
LEAGUE_COOKIE = "firestep_league"  # the league organiser's token on the pages' device (app/pages/league.py)


# -- export ---------------------------------------------------------------------------------------------------
@cache
def ruleset_hash(ruleset_id: str) -> str:
    """The rule set's version: the sha256 of its package's files as installed (two clubs on the same
    release agree)."""
    from rules.registry import get_ruleset  # the rule sets: imported by the export and import, not a read

    module = import_module(type(get_ruleset(ruleset_id)).__module__.rsplit(".", 1)[0])
    root = Path(module.__file__ or "").parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".yaml")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def game_record(session: Session, game_id: int) -> GameRecord:
    """The finished game as every side may read it once it is over (see the module's docstring): its public
    log and the result the game scored at its end."""
    from app.services import events as events_service  # the log's and the result's code: an export's alone
    from app.services.result import game_result

    log = [
        (e["id"], e["turn"], e["side"], e["step"], e["kind"], e["actor"], e["payload"], e["reverses_id"])
        for e in (
            events_service.event_dict(ev, ())
            for ev in events_service.list_events(session, game_id, (), limit=100_000)
        )
    ]
    ended = game_result(session, game_id)
    return GameRecord(
        log=log,
        ended=None
        if ended is None
        else RecordEnd(winner=ended.winner, points=ended.points, losses=ended.losses),
    )


def export_bundle(
    session: Session,
    key: Ed25519PrivateKey,
    club: str,
    tournament_id: int,
    table_id: int,
    read: dict[str, tuple[dict[str, Any], str]] | None = None,
) -> ResultBundle:
    """A settled table's result, signed with this club's key, as a league checks it at import. `read` keeps each
    scenario's document and hash across the tables of one export (the event's every table in one file: a
    deep copy of the scenario per table was over half of its CPU, 0.68 s for 64 tables)."""
    from app.services import scenarios, tournament_results, tournaments  # an export's: not a league's read

    row = tournaments.get(session, tournament_id)
    club = (
        player_names.normalised(club, "club") if club.strip() else ""
    )  # as a league keeps it (_names_as_kept)
    table = tournament_results.get_table(session, tournament_id, table_id)
    if (res := tournaments.counted(table)) is None or table.game_id is None:
        raise RuleRefused(f"table {table.table}'s result is not settled yet: confirm it first")
    game = session.get(Game, table.game_id)
    rnd = session.get(TournamentRound, table.round_id)
    if game is None or rnd is None:
        raise NotFoundError("game", str(table.game_id))
    read = {} if read is None else read
    if game.scenario and game.scenario not in read:
        document = scenarios.get_document(session, game.scenario)
        read[game.scenario] = document, sha256(document)
    doc, scenario_hash = read[game.scenario] if game.scenario else ({}, sha256({}))
    people = tournament_results.table_players(session, [table])
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
    written = record.written()
    body = {
        "format": BUNDLE_FORMAT,
        "club": club,
        "public_key": signing.public_hex(key),
        "event": row.name,
        "event_id": row.pk,
        "round": rnd.number,
        "table": table.table,
        "ruleset": game.ruleset,
        "ruleset_hash": ruleset_hash(game.ruleset),
        "period": game.period or "",
        "scenario": game.scenario or "",
        "scenario_hash": scenario_hash,
        "forces_hash": sha256(forces),
        "players": {"attacker": [a.name, a.club], "defender": [b.name, b.club]},
        "result": {
            "winner": {"a": "attacker", "b": "defender"}.get(res.winner or ""),
            "points": {"attacker": res.a_points, "defender": res.b_points},
            "losses": {"attacker": res.a_losses, "defender": res.b_losses},
            "reason": res.reason,
        },
        "settled": "altered" if table.status == "altered" else "confirmed",
        "log_hash": sha256(written),
        "log_entries": len(record.log),
    }
    bundle = {**body, "signature": signing.sign(key, canonical(body)), "record": written}
    if len(canonical(bundle)) > MAX_BUNDLE_CHARS:
        raise RuleRefused(
            f"table {table.table}'s game record is over the {MAX_BUNDLE_CHARS:,} characters a bundle carries"
        )
    try:  # what a league would refuse at import is refused here, naming it (a name with a tab, say)
        return ResultBundle.model_validate(bundle)
    except ValidationError as e:
        where = ".".join(str(p) for p in e.errors()[0]["loc"])[:40]
        raise RuleRefused(
            f"table {table.table}'s {where} is not one a league takes: correct it first"
        ) from None


# -- the league and its organiser -------------------------------------------------------------------------------
def create(session: Session, secret_key: str, name: str) -> tuple[League, str]:
    """A new league and its organiser's token (shown once: only its HMAC is kept)."""
    token = seating.new_token()
    name = player_names.normalised(name, "name")  # as every name shown to all: no direction override, NFKC
    row = League(name=name, token_hash=seating.digest(secret_key, token))
    session.add(row)
    session.flush()
    return row, token


def get(session: Session, league_id: int) -> League:
    row = session.get(League, league_id)
    if row is None:
        raise NotFoundError("league", str(league_id))
    return row


def list_leagues(session: Session, limit: int = 200, older_than: int | None = None) -> list[League]:
    """The newest first, `limit` of them (the lobby's, or a page of the API's), older than the id `older_than`."""
    query = select(League).order_by(col(League.id).desc()).limit(limit)
    if older_than is not None:
        query = query.where(col(League.id) < older_than)
    return list(session.exec(query))


def league_of_token(session: Session, secret_key: str, token: str) -> int | None:
    """The league whose organiser `token` is, else None (the start page's join box takes it too)."""
    owner = session.exec(
        select(League).where(col(League.token_hash) == seating.digest(secret_key, token))
    ).first()
    return owner.pk if owner is not None else None


def require_organiser(session: Session, secret_key: str, league_id: int, token: str | None) -> League:
    """The league, when `token` is its organiser's: 401 without a token or with one no league knows, 403 for
    another league's."""
    row = get(session, league_id)
    if not token:
        raise Unauthorized()
    owner = league_of_token(session, secret_key, token)
    if owner is None:
        raise Unauthorized("this is not a league organiser's token: use the token the league was made with")
    if not hmac.compare_digest(str(owner), str(league_id)):
        raise Forbidden("this token is the organiser's of another league")
    return row


def fingerprint(public_key: str) -> str:
    """A key's SHA-256 in groups of four (as the club's own export page shows it, to compare)."""
    hexed = hashlib.sha256(bytes.fromhex(public_key)).hexdigest().upper()
    return " ".join(hexed[i : i + 4] for i in range(0, len(hexed), 4))


# -- trust --------------------------------------------------------------------------------------------------
def keys(session: Session, league_id: int) -> list[LeagueKey]:
    return list(
        session.exec(select(LeagueKey).where(LeagueKey.league_id == league_id).order_by(col(LeagueKey.id)))
    )


def trust(session: Session, league_id: int, public_key: str, club: str) -> LeagueKey:
    """The league trusts a club's key (again: its name as now given, kept as an event keeps a club's name): its
    games count, those waiting too."""
    public_key, club = public_key.lower(), player_names.normalised(club, "club")
    kept = session.exec(
        select(LeagueKey).where(LeagueKey.league_id == league_id, LeagueKey.public_key == public_key)
    ).first()
    if kept is not None:
        kept.club = club
        session.add(kept)
        return kept
    if len(keys(session, league_id)) >= MAX_TRUSTED_KEYS:
        raise RuleRefused(f"a league trusts at most {MAX_TRUSTED_KEYS} clubs' keys: remove one first")
    row = LeagueKey(league_id=league_id, public_key=public_key, club=club)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # trusted meanwhile by another request
        raise Conflict("this key was trusted meanwhile: reload the league") from None
    return row


def distrust(session: Session, league_id: int, key_id: int) -> None:
    """The league no longer trusts a key: its games wait again (kept, not counted)."""
    row = session.get(LeagueKey, key_id)
    if row is None or row.league_id != league_id:
        raise NotFoundError("key", str(key_id))
    session.delete(row)


def game_of(session: Session, league_id: int, game_id: int) -> LeagueGame:
    row = session.get(LeagueGame, game_id)
    if row is None or row.league_id != league_id:
        raise NotFoundError("league game", str(game_id))
    return row


def accept(session: Session, league_id: int, game_id: int) -> LeagueKey:
    """The organiser's yes to a waiting game: its club's key trusted (named as the bundle names the club), not
    when another key is trusted under that club's name (or a look-alike of it): a club's new key is added by
    hand, its fingerprint compared."""
    row = game_of(session, league_id, game_id)
    name = row.club or f"club {fingerprint(row.club_key)[:9]}"
    if any(
        k.public_key != row.club_key and player_names.skeleton(k.club) == player_names.skeleton(name)
        for k in keys(session, league_id)
    ):  # a game from an unknown key under a trusted club's name: one tap would trust an impostor as that club
        raise RuleRefused(
            f"{name[:30]} is trusted already with another key: this key is not theirs (add a new key by hand)"
        )
    return trust(session, league_id, row.club_key, name)


def refuse(session: Session, league_id: int, game_id: int) -> None:
    """The organiser's no to a waiting game: removed (a counted game is removed by distrusting its key)."""
    row = game_of(session, league_id, game_id)
    if row.club_key in trusted(session, league_id):
        raise RuleRefused(
            "this game is counted: its club's key is trusted, remove the key to stop counting it"
        )
    session.delete(row)


def trusted(session: Session, league_id: int) -> set[str]:
    return {k.public_key for k in keys(session, league_id)}


# -- import -------------------------------------------------------------------------------------------------
def verify_bundle(
    session: Session, bundle: ResultBundle, hashes: dict[str, str | None] | None = None
) -> None:
    """A typed bundle whose signature and every hash this server can check hold; else a refusal of one
    sentence naming what does not. `hashes` keeps each scenario's hash (None: not this server's) across the
    bundles of one import."""
    from app.services import scenarios  # an import's: not a league's read (firestep league publish)

    if not signing.verifies(bundle.public_key, bundle.signature, _encoded(bundle.signed_body(), "bundle")):
        raise RulesError("bundle.signature", "the bundle was changed after its club signed it: refused")
    try:
        ours = ruleset_hash(bundle.ruleset)
    except Exception:  # a rule set this server does not play
        raise RulesError(
            "bundle.ruleset", f"this server does not play {bundle.ruleset[:40]}: refused"
        ) from None
    if bundle.ruleset_hash != ours:
        raise RulesError(
            "bundle.ruleset_hash", "the game was played by another version of the rules: refused"
        )
    hashes = {} if hashes is None else hashes
    if bundle.scenario and bundle.scenario not in hashes:
        try:
            hashes[bundle.scenario] = sha256(scenarios.get_document(session, bundle.scenario))
        except NotFoundError:
            hashes[bundle.scenario] = None  # another club's own scenario: its hash is as signed
    if bundle.scenario:
        ours_hash = hashes[bundle.scenario]
        if ours_hash is not None and bundle.scenario_hash != ours_hash:
            raise RulesError("bundle.scenario_hash", "the scenario differs from this server's copy: refused")
    _check_record(bundle)


def _check_record(bundle: ResultBundle) -> None:
    """The game's record is the one the club signed the hash of; a result the table confirmed is the one the
    game's record ends with."""
    from app.services.score import FINISHED  # an import's: not a league's read (firestep league publish)

    record = bundle.record
    if bundle.log_hash != hashlib.sha256(canonical(record.written())).hexdigest():
        raise RulesError(
            "bundle.record", "the game's record is not the one whose log hash the club signed: refused"
        )
    if bundle.log_entries != len(record.log):
        raise RulesError(
            "bundle.record", "the game's record has not as many entries as the bundle says: refused"
        )
    if bundle.settled != "confirmed":
        return  # set by the organiser (a game that could not end, a dispute): not the game's own, unchecked
    if not any(e[4] == FINISHED for e in record.log):
        raise RulesError("bundle.record", "the game's record has no end of the game: refused")
    ended, result = record.ended, bundle.result
    if ended is None or (ended.winner, ended.points, ended.losses) != (
        result.winner,
        result.points.model_dump(),
        result.losses.model_dump(),
    ):
        raise RulesError("bundle.result", "the result is not the one the game's record ends with: refused")


def _encoded(value: Any, field: str) -> bytes:
    """`value`'s canonical JSON, or a refusal naming `field` when a text in it is a lone surrogate (JSON escapes
    one, no encoding writes it: a file uploaded on the league's page reaches here past the door's check of a
    JSON body, and its record's hash was a 500)."""
    try:
        return canonical(value)
    except UnicodeEncodeError:
        raise RulesError(
            field, f"{field} holds a lone surrogate (U+D800..U+DFFF), a text no encoding stores: refused"
        ) from None


def identity(bundle: ResultBundle) -> str:
    """One game, however its bundle is spelt or whichever club name it is exported under."""
    return sha256([bundle.public_key.lower(), bundle.event_id, bundle.round, bundle.table])


def checked_words(settled: str) -> str:
    """What an imported bundle's checks were, in words."""
    if settled == "confirmed":
        return "Signature, hashes and the game's record checked: the result is the one the game ended with."
    return "Signature, hashes and the game's record checked; the result was set by its organiser, not by the game."


def lock_league(session: Session, league_id: int) -> None:
    """Take the league's row before keeping bundles: imports into one league wait for each other, and on SQLite
    the write transaction begins here, so that each bundle's savepoint nests inside it (a savepoint opened with
    no transaction around it commits when released, and a refusal after it would not undo it)."""
    session.execute(update(League).where(col(League.id) == league_id).values(id=League.id))


class Batch:
    """What the bundles of one import share: each scenario's hash (as verify_bundle's `hashes`) and the league's
    games, counted once for the bound and kept up to date as rows are added. Counting them before each bundle
    read the league's every row again a bundle: a 100-bundle import into a league of 10,000 games was 100
    counts of up to 10,000 rows (bench/league_import.py). Held only under lock_league (no other import adds
    rows meanwhile)."""

    def __init__(self) -> None:
        self.hashes: dict[str, str | None] = {}
        self.games: int | None = None


def import_bundle(
    session: Session, league_id: int, bundle: ResultBundle, batch: Batch | None = None
) -> LeagueGame:
    """A verified bundle kept for the league: counted once its key is trusted. The same bundle again gives the
    row kept; another bundle of a game already kept is refused. `batch`: the import's, when it has several."""
    batch = Batch() if batch is None else batch
    verify_bundle(session, bundle, batch.hashes)
    _names_as_kept(bundle)
    body = bundle.signed_body()
    del body["club"]  # the club's name as exported is not the game's: the same game under another name is one
    body_hash, ident = sha256(body), identity(bundle)
    kept = _kept(session, league_id, ident)
    if kept is not None:
        if kept.body_hash != body_hash:
            raise RuleRefused(
                f"this league already has {bundle.event[:40]}'s round {bundle.round} table {bundle.table} "
                "with another result: refuse that one first"
            )
        return kept
    if batch.games is None:
        batch.games = session.exec(
            select(func.count()).select_from(LeagueGame).where(LeagueGame.league_id == league_id)
        ).one()
    if batch.games >= MAX_LEAGUE_GAMES:
        raise RuleRefused(f"a league keeps at most {MAX_LEAGUE_GAMES} games: start a new league")
    players, result = bundle.players, bundle.result
    row = LeagueGame(
        league_id=league_id,
        identity=ident,
        body_hash=body_hash,
        club_key=bundle.public_key.lower(),
        club=bundle.club,
        event=bundle.event,
        round=bundle.round,
        table=bundle.table,
        a_name=players.attacker[0],
        a_club=players.attacker[1],
        b_name=players.defender[0],
        b_club=players.defender[1],
        winner=result.winner,
        a_points=result.points.attacker,
        b_points=result.points.defender,
        settled=bundle.settled,
        bundle={**bundle.signed_body(), "signature": bundle.signature},  # checked; its record's hash is kept
    )
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # imported meanwhile by another request
        found = _kept(session, league_id, ident)
        if found is None or found.body_hash != body_hash:
            raise Conflict(
                "this game was imported meanwhile with another result: reload the league"
            ) from None
        return found
    batch.games += 1
    return row


def _names_as_kept(bundle: ResultBundle) -> None:
    """Each name and club as an event keeps it (app.services.player_names): one with a direction override or an
    invisible letter would print in the league as another's name; one not NFKC would be a second player."""
    named = [("bundle.club", bundle.club)]
    for side, (name, club) in (("attacker", bundle.players.attacker), ("defender", bundle.players.defender)):
        named += [(f"bundle.players.{side}.0", name), (f"bundle.players.{side}.1", club)]
    for field, text in named:
        if text and player_names.normalised(text, field) != text:
            raise RulesError(field, f"{field} is not spelt as its event keeps it (NFKC): export it again")
    (a_name, a_club), (b_name, b_club) = bundle.players.attacker, bundle.players.defender
    if [player_names.skeleton(t) for t in (a_name, a_club)] == [
        player_names.skeleton(t) for t in (b_name, b_club)
    ]:
        # An event registers no look-alike (app.services.player_names): one player counted twice, won and lost.
        raise RulesError(
            "bundle.players.defender", "the defender is the attacker (the same name and club): refused"
        )


def kept_already(session: Session, league_id: int, bundles: list[ResultBundle]) -> int:
    """How many of these bundles' games the league keeps already (an import of them again keeps no new row)."""
    idents = sorted({identity(b) for b in bundles})
    q = select(func.count()).select_from(LeagueGame).where(LeagueGame.league_id == league_id)
    return int(session.exec(q.where(col(LeagueGame.identity).in_(idents))).one())


def _kept(session: Session, league_id: int, ident: str) -> LeagueGame | None:
    return session.exec(
        select(LeagueGame).where(LeagueGame.league_id == league_id, LeagueGame.identity == ident)
    ).first()


def pending(session: Session, league_id: int) -> int:
    """How many of the league's games wait: their key is not one it trusts."""
    q = (
        select(func.count())
        .select_from(LeagueGame)
        .where(
            LeagueGame.league_id == league_id, col(LeagueGame.club_key).not_in(trusted(session, league_id))
        )
    )
    return int(session.exec(q).one())


def waiting(session: Session, league_id: int, limit: int) -> list[LeagueGame]:
    """The first `limit` of the league's games from keys it does not trust (its page lists them for a yes)."""
    q = select(LeagueGame).where(
        LeagueGame.league_id == league_id, col(LeagueGame.club_key).not_in(trusted(session, league_id))
    )
    return list(session.exec(q.order_by(col(LeagueGame.id)).limit(limit)))


def games_page(session: Session, league_id: int, newer_than: int, limit: int) -> list[LeagueGame]:
    """The league's games of an id above `newer_than`, the first `limit` of them by id: a page read in the
    database (reading the league's every game for a page of 100 took 1.05-1.41 s of CPU at 10,000 games)."""
    q = select(LeagueGame).where(LeagueGame.league_id == league_id, col(LeagueGame.id) > newer_than)
    return list(session.exec(q.order_by(col(LeagueGame.id)).limit(limit)))


def games(session: Session, league_id: int) -> list[LeagueGame]:
    return list(
        session.exec(select(LeagueGame).where(LeagueGame.league_id == league_id).order_by(col(LeagueGame.id)))
    )
