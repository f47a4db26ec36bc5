"""A league's static site (issue 70): what `firestep league publish OUT/` writes, opened from a folder or served
by any host, so a league's table outlives the laptop that keeps it.

The site is files, each rendered from the league as the database keeps it (app.services.league): the standings
(`table`, as the app's league page shows them), the events, one page per counted game beside its signed bundle
as a .json file and what checking its signature says, one page per club and per player, `index.json`
(SiteIndex, versioned) and `feed.atom` (Atom 1.0, RFC 4287) of the results, newest first. Only games signed by a
key the league trusts are published as games: a game waiting for the organiser's yes is the organiser's, not the
league's. The organiser's claims (another tool's file) are listed as such on the events and players' pages and in
index.json, never in the feed: it carries signed results only.

Nothing reads the clock: the feed's times are when each result entered the league, so the same league gives
byte-identical files, and `publish` writes only the files whose bytes changed and removes the pages of what
left the league (a game refused, a key distrusted), into a folder of its own (app.services.site_folder: its
manifest, each file written whole, another's folder refused). A page's key is every value it shows: a page whose
key the manifest has is not rendered again (a league at its limit re-published with one game changed renders
the few pages that show it). Every link is relative and the CSS is copied beside the
pages, so the folder opens over file:// with no server, no script and no CDN. Names are escaped by Jinja's
autoescape (HTML) and as ElementTree escapes them (the feed).
"""

from __future__ import annotations

import gc
import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, partial
from pathlib import Path
from typing import Literal
from xml.sax.saxutils import escape as xml_escape

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape
from pydantic import BaseModel, Field, JsonValue
from sqlalchemy import String, cast
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from app.club import signing
from app.core import shipped
from app.core.db import json_value
from app.data.models import League, LeagueGame
from app.data.schemas_league import LeagueLineOut
from app.services import league, league_table, site_folder
from rules.core.commitment import canonical

SITE_VERSION: Literal[1] = 1  # index.json's format: a reader checks it before reading the rest
CSS = ("app.css", "night.css", "events.css")  # the app's own, so the site and the app show a league alike
ATOM = "http://www.w3.org/2005/Atom"
NO_DATABASE = (
    "No league database here: run firestep serve (or set FIRESTEP_VAR_DIR to the folder that holds firestep.db) "
    "first."
)
CLAIMED: Literal["the organiser's claim, not signed"] = "the organiser's claim, not signed"

_env = Environment(
    loader=FileSystemLoader(shipped.frontend() / "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


# -- the index a program reads ----------------------------------------------------------------------------------
class SiteLine(LeagueLineOut):
    """A line of the table as GET /api/v1/leagues/{id} answers it, with its player's page on the site."""

    page: str


class SiteGame(BaseModel):
    id: str  # the game's identity in the league (app.services.league.identity), its page's name
    event: str
    event_id: int
    round: int
    table: int
    attacker: tuple[str, str]
    defender: tuple[str, str]
    winner: Literal["attacker", "defender"] | None
    points: tuple[int, int]
    settled: str
    signed_by: str  # the trusted club's name as the league trusts its key
    fingerprint: str
    verified: bool
    recorded: datetime  # when the result entered the league
    page: str
    bundle: str


class SiteClaim(BaseModel):
    """A game its organiser imported from another tool's file (app.services.league_claims): counted in the
    standings, signed by nobody, so it has no page, no bundle and no entry in the feed."""

    kept_as: Literal["the organiser's claim, not signed"] = CLAIMED
    event: str
    round: int
    first: tuple[str, str]  # the player's name and club ("" for none)
    second: tuple[str, str]
    winner: Literal["first", "second"] | None
    points: tuple[int, int]
    superseded: bool = Field(
        default=False, description="A signed result of the same event, round and players counts instead."
    )
    replaced: bool = Field(
        default=False, description="A later claim of the same event, round and players counts."
    )


class SiteIndex(BaseModel):
    version: Literal[1] = SITE_VERSION  # claims added beside games: a version 1 reader reads what it knew
    league: str
    standings: list[SiteLine]
    games: list[SiteGame]
    claims: list[SiteClaim] = Field(default_factory=list)


# -- building the site ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Game:
    identity: str  # the game's whole identity in the league (its feed entry's id)
    info: SiteGame
    checked: str
    bundle: str  # the bundle as the database keeps its text (its file's bytes made from it once needed)
    said: str  # the hash of its key and kept text: its signature check's in the manifest, its file's key
    items: dict[str, Markup] = field(default_factory=dict, compare=False, repr=False)

    def item(self, root: str) -> Markup:
        """Its line in a list of games, as Jinja's autoescape writes it: made once a root for every page that
        lists it (the index and the events pages list every game, its clubs' and players' pages each)."""
        made = self.items.get(root)
        if made is None:
            i = self.info
            made = self.items[root] = Markup(
                f'<li><a href="{escape(root)}{escape(i.page)}">{escape(_headline(i))}</a> <span class="muted">'
                f"{escape(i.event)}, round {i.round}, table {i.table}</span></li>"
            )
        return made


def slug(text: str, kind: str) -> str:
    """A file name for a name: its ASCII letters, then a hash of the name itself (two names spelt alike in ASCII,
    or one with none, are two pages)."""
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_).strip("-")[:40] or kind
    return f"{words}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def verified(row: LeagueGame) -> bool:
    """Whether the kept bundle's signature is its key's over its body: the import's own check
    (league.verify_bundle) of what the league keeps (the record is not kept, its signed hash is)."""
    return _verifies(row.club_key, row.bundle)


def _verifies(club_key: str, bundle: Mapping[str, object]) -> bool:
    body = {k: v for k, v in bundle.items() if k != "signature"}
    return signing.verifies(club_key, str(bundle.get("signature", "")), canonical(body))


def _bundle_file(text: str) -> bytes:
    """A bundle's file: the bundle kept, canonical (made only for a bundle whose kept text is new)."""
    return canonical(json_value(text)) + b"\n"


def _games(
    session: Session, league_id: int, checked: Mapping[str, bool], seen: dict[str, bool]
) -> list[_Game]:
    """The league's published games; `checked` what checking each bundle said at the last publishing (by the
    hash of its key and kept text: the same text, the same answer), `seen` filled with what it says now. The
    columns the pages show are read, the bundle as its kept text: it is decoded only where its check or its
    file is made again (decoding and encoding every bundle again was a fifth of a re-publish)."""
    clubs = {k.public_key: k.club for k in league.keys(session, league_id)}
    prints = {key: league.fingerprint(key) for key in clubs}
    g = LeagueGame
    rows = session.execute(
        sa_select(*(col(x) for x in (g.identity, g.club_key, g.event, g.round, g.table, g.a_name, g.a_club,
                                     g.b_name, g.b_club, g.winner, g.a_points, g.b_points, g.settled,
                                     g.imported_at)),
                  cast(col(g.bundle), String), col(g.bundle)["event_id"].as_integer())
        .where(col(g.league_id) == league_id)
        .order_by(col(g.id))
    )  # fmt: skip
    out = []
    for identity, key, event, rnd, table, an, ac, bn, bc, winner, ap, bp, settled, at, text, event_id in rows:
        if key not in clubs:
            continue  # waiting for the organiser's yes: not published
        ident = identity[:16]
        said = hashlib.sha256(f"{key}\0{text}".encode()).hexdigest()[:32]
        was = checked.get(said)
        ok = seen[said] = was if isinstance(was, bool) else _verifies(key, json_value(text))
        info = SiteGame(
            id=ident,
            event=event,
            event_id=event_id or 0,  # kept from a typed bundle
            round=rnd,
            table=table,
            attacker=(an, ac),
            defender=(bn, bc),
            winner=winner,
            points=(ap, bp),
            settled=settled,
            signed_by=clubs[key],
            fingerprint=prints[key],
            verified=ok,
            recorded=at.replace(microsecond=0, tzinfo=UTC),
            page=f"games/{ident}.html",
            bundle=f"games/{ident}.json",
        )
        words = (
            league.checked_words(settled)
            if ok
            else "The signature does not verify: do not trust this result."
        )
        out.append(_Game(identity, info, words, text, said))
    out.sort(key=lambda x: (x.info.event, x.info.event_id, x.info.round, x.info.table, x.info.id))
    return out


@cache
def _made_by() -> str:
    """What every page is made by: this module and the site's templates (a new release's pages made again)."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for template in sorted((shipped.frontend() / "templates" / "league_site").glob("*.html")):
        digest.update(template.name.encode() + b"\0" + template.read_bytes())
    return digest.hexdigest()


@dataclass
class Site:
    """The site's files: each relative path, its key and how its bytes are made (app.services.site_folder): a
    page whose key the folder's manifest has is not rendered again."""

    made: dict[str, site_folder.File] = field(default_factory=dict)
    memo: site_folder.Memo = field(default_factory=dict)  # kept in the folder's manifest for the next publish

    @property
    def files(self) -> dict[str, bytes]:
        """Every file's bytes, each made."""
        return {path: file.make() for path, file in self.made.items()}

    def page(self, path: str, template: str, key: object, **context: object) -> None:
        """A page of `template`; `key` every value of `context` it shows (the same key, the same page)."""
        made = hashlib.sha256(f"{_made_by()}\0{template}\0{key!r}".encode()).hexdigest() if key else None
        self.made[path] = site_folder.File(made, partial(_render, path, template, context))

    def data(self, path: str, data: bytes | Callable[[], bytes], key: str | None = None) -> None:
        """A file of `data`, or of what `data` makes when its `key` is not the manifest's."""
        self.made[path] = site_folder.File(key, data if callable(data) else partial(bytes, data))


def _k(model: BaseModel) -> tuple[object, ...]:
    """A model's values, as a page's key holds them (its repr is ten times slower: 4 s for a league's keys)."""
    return tuple(model.__dict__.values())


def _digest(key: object) -> str:
    """A key's hash, as other pages' keys hold it (a game's values: its page's, its clubs' and its players')."""
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


def _render(path: str, template: str, context: dict[str, object]) -> bytes:
    root = "../" * path.count("/")
    return _env.get_template(f"league_site/{template}").render(root=root, **context).encode()


def build(session: Session, league_id: int, checked: Mapping[str, bool] | None = None) -> Site:
    """The league's site, from the league as kept: the same league, the same bytes. Each game, club and player
    is looked up in a dict made in one pass (a league of 10,000 games and 3,000 players read every game for
    each player: over 15 minutes)."""
    row = league.get(session, league_id)
    seen: dict[str, bool] = {}
    games = _games(session, league_id, checked or {}, seen)
    counted = league_table.read(session, league_id)
    lines = league_table.lines(counted)
    verified: dict[str, JsonValue] = dict(seen)  # each bundle's check, kept for the next publish
    site = Site(memo={"verified": verified})
    standings = [
        SiteLine(**line.model_dump(), page=f"players/{slug(line.player + chr(0) + line.club, 'player')}.html")
        for line in lines
    ]
    claims = _claims(counted)
    clubs = sorted(
        (
            {g.info.attacker[1] for g in games}
            | {g.info.defender[1] for g in games}
            | {line.club for line in lines}
        )
        - {""}  # a player of no club: no link and no page (a link with no name, a "No club" page)
    )
    club_page = {c: f"clubs/{slug(c, 'club')}.html" for c in clubs}
    player_page = {(line.player, line.club): line.page for line in standings}
    by_club: dict[str, list[_Game]] = {c: [] for c in clubs}
    by_player: dict[tuple[str, str], list[_Game]] = {}
    for g in games:
        for name, club in dict.fromkeys((g.info.attacker, g.info.defender)):
            if (name, club) not in player_page:  # a slug made once a player, not at each of their games
                player_page[name, club] = f"players/{slug(name + chr(0) + club, 'player')}.html"
            by_player.setdefault((name, club), []).append(g)
        for club in {g.info.attacker[1], g.info.defender[1]} - {""}:
            by_club[club].append(g)
    claims_of: dict[tuple[str, str], list[SiteClaim]] = {}
    for k in claims:
        for player in dict.fromkeys((k.first, k.second)):
            claims_of.setdefault(player, []).append(k)
    line_of: dict[tuple[str, str], SiteLine] = {}
    members: dict[str, list[SiteLine]] = {}
    for x in standings:
        line_of.setdefault((x.player, x.club), x)
        members.setdefault(x.club, []).append(x)
    common = {"league": row, "club_page": club_page, "player_page": player_page}
    site.page("index.html", "index.html", None, lines=standings, games=games, **common)
    events: dict[tuple[str, int], list[_Game]] = {}
    for g in games:
        events.setdefault((g.info.event, g.info.event_id), []).append(g)
    claimed: dict[str, list[SiteClaim]] = {}
    for k in claims:
        claimed.setdefault(k.event, []).append(k)
    site.page(
        "events.html",
        "events.html",
        None,
        events=sorted(events.items()),
        claimed=sorted(claimed.items()),
        **common,
    )
    shown: dict[str, str] = {}  # each game's values as the pages show them, hashed once for every page's key
    for g in games:
        (a_name, a_club), (b_name, b_club) = g.info.attacker, g.info.defender
        links = (
            player_page[a_name, a_club],
            player_page[b_name, b_club],
            club_page.get(a_club),
            club_page.get(b_club),
        )
        shown[g.info.id] = _digest(_k(g.info))
        site.page(g.info.page, "game.html", (row.name, shown[g.info.id], g.checked, links), game=g, **common)
        # Its file keyed by its kept text and by this release (a new one makes every file again, once).
        site.data(g.info.bundle, partial(_bundle_file, g.bundle), f"{g.said}:{_made_by()[:16]}")
    for club in clubs:
        mine, members_of = by_club[club], members.get(club, [])
        keyed = (row.name, club, [_k(x) for x in members_of], [shown[g.info.id] for g in mine])
        site.page(club_page[club], "club.html", keyed, club=club, games=mine, lines=members_of, **common)
    for (name, club), page in sorted(player_page.items()):
        mine, theirs = by_player.get((name, club), []), claims_of.get((name, club), [])
        line = line_of.get((name, club))
        said = (name, club, club_page.get(club), line and _k(line), [shown[g.info.id] for g in mine])
        site.page(
            page,
            "player.html",
            (row.name, said, [_k(k) for k in theirs]),
            name=name,
            club=club,
            games=mine,
            claims=theirs,
            line=line,
            **common,
        )
    index = SiteIndex(league=row.name, standings=standings, games=[g.info for g in games], claims=claims)
    site.data("index.json", (index.model_dump_json(indent=1) + "\n").encode())
    site.data("feed.atom", feed(row, games))
    for name in CSS:
        site.data(f"css/{name}", (shipped.frontend() / "static" / "css" / name).read_bytes())
    return site


_SIDE: dict[str, Literal["first", "second"]] = {"attacker": "first", "defender": "second"}  # a claim's winner


def _claims(counted: league_table.Counted) -> list[SiteClaim]:
    """Every claim, each player as the table names them (one player whether a file gave their club or not), a
    claim a signed game superseded saying so."""
    claimed = [
        SiteClaim(
            event=k.event,
            round=k.round,
            first=counted.players.get(k.a, k.a),
            second=counted.players.get(k.b, k.b),
            winner=_SIDE.get(k.winner or ""),
            points=(k.a_points, k.b_points),
            superseded=k.claim in counted.superseded,
            replaced=k.claim in counted.replaced,
        )
        for k in counted.claims
    ]
    return sorted(claimed, key=lambda k: (k.event, k.round, k.first, k.second))


def feed(row: League, games: list[_Game]) -> bytes:
    """The league's results as Atom 1.0, newest first: each entry's id the game's identity (the same game, the
    same id at every publishing) and its time the result's entry into the league. Written as ElementTree writes
    it indented (its bytes, each text escaped as it escapes one), an entry a line of text: a tree of the
    league's 10,000 entries built and serialised took a tenth of a re-publish's CPU."""
    newest = sorted(games, key=lambda g: (g.info.recorded, g.info.id), reverse=True)
    created = row.created_at.replace(microsecond=0, tzinfo=UTC)
    head = (
        f"<?xml version='1.0' encoding='utf-8'?>\n"
        f'<feed xmlns="{ATOM}">\n'
        f"  <id>urn:firestep:league:{row.pk}:{int(created.timestamp())}</id>\n"
        f"  {_text('title', f'{row.name}: results')}\n"
        f"  <updated>{_when(newest[0].info.recorded if newest else created)}</updated>\n"
        f"  <author>\n    {_text('name', row.name)}\n  </author>\n"
        '  <link rel="alternate" type="text/html" href="index.html" />\n'
        '  <link rel="self" type="application/atom+xml" href="feed.atom" />\n'
    )
    entries = [
        f"  <entry>\n"
        f"    <id>urn:firestep:result:{g.identity}</id>\n"
        f"    {_text('title', _headline(g.info))}\n"
        f"    <updated>{_when(g.info.recorded)}</updated>\n"
        f'    <link rel="alternate" type="text/html" href="{xml_escape(g.info.page, _QUOTE)}" />\n'
        f"    {_text('summary', _summary(g.info))}\n"
        f"  </entry>\n"
        for g in newest
    ]
    return (head + "".join(entries) + "</feed>\n").encode()


_QUOTE = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#09;"}  # an attribute's, as ElementTree's


def _text(tag: str, text: str) -> str:
    """An element of `text`, escaped as ElementTree escapes a text (an empty one closed at once, as it does)."""
    return f"<{tag}>{xml_escape(text)}</{tag}>" if text else f"<{tag} />"


def _summary(g: SiteGame) -> str:
    return f"{g.event}, round {g.round}, table {g.table}. Signed by {g.signed_by}."


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _headline(g: SiteGame) -> str:
    (a, _), (b, _) = g.attacker, g.defender
    outcome = "a draw" if g.winner is None else f"{a if g.winner == 'attacker' else b} won"
    return f"{a} v {b}: {g.points[0]}–{g.points[1]}, {outcome}"


def _claim_headline(k: SiteClaim) -> str:
    (a, _), (b, _) = k.first, k.second
    outcome = "a draw" if k.winner is None else f"{a if k.winner == 'first' else b} won"
    return f"{a} v {b}: {k.points[0]}–{k.points[1]}, {outcome}"


_env.globals["headline"] = _headline


def _claim_line(k: SiteClaim) -> Markup:
    """A claim's line in a list of claims, as Jinja's autoescape wrote it from its template: one call a claim
    (the events page lists the league's every claim, 10,000 at its limit)."""
    why = (
        "; superseded by the signed result of this game, not counted"
        if k.superseded
        else "; superseded by a later claim of this game, not counted"
        if k.replaced
        else ""
    )
    return Markup(
        f'<li>{escape(_claim_headline(k))} <span class="muted">{escape(k.event)}, round {k.round}</span> '
        f'<span class="lg-claimed">{escape(k.kept_as)}{why}</span></li>'
    )


_env.globals["claim_line"] = _claim_line


# -- writing it -------------------------------------------------------------------------------------------------
def publish(site: Site, out: Path) -> site_folder.Published:
    """The site written into `out`, a folder of its own (app.services.site_folder): only what changed, the files
    it wrote before and no longer has removed, another's folder refused."""
    return site_folder.publish(site.made, out, site.memo)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's collector of reference cycles paused: a publish makes a few hundred thousand objects (the league's
    rows, its pages' keys and their files) that live until it ends, and the collector walked them all again and
    again as they grew, a third of a re-publish's CPU (1 s of 3.4 at 10,000 games), freeing nothing (its peak
    memory the same, 330 MB for the whole league's first publish); what is left is collected once it ends."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def publish_league(league_id: int, out: str) -> list[str]:
    """`firestep league publish`: the league in the configured database published into `out`, in lines to print
    (each file written or removed, then the counts); a league not found is said in one sentence."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    from app.core.config import Settings
    from app.core.db import SchemaError, current_revision, make_engine, unknown_revision
    from rules.core.errors import NotFoundError

    url = Settings(secret_key="-").database_url  # publishing signs nothing: no secret key made for it
    parsed = make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    if (
        sqlite and not Path(parsed.database or "").is_file()
    ):  # SQLite would make an empty one and say "no league"
        raise SystemExit(NO_DATABASE)
    try:
        said = site_folder.memo(Path(out)).get("verified")  # each bundle's check, at the last publish
    except site_folder.NotWritten as e:  # another's folder: refused before the league is read
        raise SystemExit(str(e)) from None
    with _no_cycle_collection():  # the league's read, its pages made and written
        engine = make_engine(url)
        try:
            if newer := unknown_revision(current_revision(engine)):  # said as serve says it
                raise SchemaError(newer)
            with Session(engine) as session:
                checked = (
                    {k: v for k, v in said.items() if isinstance(v, bool)} if isinstance(said, dict) else None
                )
                site = build(session, league_id, checked)
        except NotFoundError:
            raise SystemExit(
                f"no league {league_id} in this database: firestep serve lists them at /leagues"
            ) from None
        except OperationalError:
            if not sqlite:  # a server not answering: said by the command line (app.cli_mistakes.said)
                raise
            raise SystemExit(NO_DATABASE) from None  # a file that is not firestep's database
        finally:
            engine.dispose()
        try:
            done = publish(site, Path(out))
        except site_folder.NotWritten as e:
            raise SystemExit(str(e)) from None
    lines = [f"written: {p}" for p in done.written] + [f"removed: {p}" for p in done.removed]
    return [
        *lines,
        f"{len(done.written)} written, {len(done.removed)} removed, {len(done.kept)} kept in {out}",
    ]
