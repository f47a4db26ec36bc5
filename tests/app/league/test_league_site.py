"""A league's static site (issue 70; app/services/league_site.py): what `firestep league publish OUT/` writes from
bundles imported as a club's organiser imports them (the league's API), byte-identical when the league is the same,
only what changed written again, the pages of a game no longer counted removed, its feed Atom 1.0 (read by feedparser, a
maintained feed reader: no bozo, RFC 4287's required elements)."""

from __future__ import annotations

import json
import os
import posixpath
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import feedparser
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from sqlmodel import Session
from typer.testing import CliRunner

from app.cli import app as cli
from app.club import signing
from app.core.config import get_settings
from app.core.db import make_engine
from app.services import league_site, site_folder
from tests.app.league.test_league import new_league, signed


@pytest.fixture
def session(sqlite_client: TestClient, tmp_path: Path) -> Iterator[Session]:
    engine = make_engine(f"sqlite:///{tmp_path / 'firestep.db'}")  # the sqlite_client's database
    with Session(engine) as s:
        yield s
    engine.dispose()


def seeded(c: TestClient) -> tuple[int, dict[str, str], Ed25519PrivateKey]:
    """A league trusting Ypres's key, two of its games imported, and one from a key it does not trust."""
    league_id, organiser = new_league(c, "Flanders <league> & co")
    ours = Ed25519PrivateKey.generate()
    url = f"/api/v1/leagues/{league_id}"
    key = {"public_key": signing.public_hex(ours), "club": "Ypres"}
    assert c.post(f"{url}/keys", headers=organiser, json=key).status_code == 201
    for bundle in (
        signed(ours),
        signed(ours, table=2, players={"attacker": ["Cléo <b>", "Ypres"], "defender": ["Dan", "Arras"]}),
        signed(
            Ed25519PrivateKey.generate(),
            table=3,
            players={"attacker": ["Zora", "Lens"], "defender": ["Fay", "Lens"]},
        ),
    ):
        r = c.post(f"{url}/results", headers=organiser, json={"bundle": bundle})
        assert r.status_code in (200, 201), r.text
    return league_id, organiser, ours


def test_the_site_shows_the_counted_games_with_their_bundles_and_checks(
    sqlite_client: TestClient, session: Session
) -> None:
    league_id, _, ours = seeded(sqlite_client)
    files = league_site.build(session, league_id).files
    index = league_site.SiteIndex.model_validate_json(files["index.json"])
    assert index.version == 1 and index.league == "Flanders <league> & co"
    assert [(g.table, g.signed_by, g.verified) for g in index.games] == [
        (1, "Ypres", True),
        (2, "Ypres", True),
    ]
    assert [(x.player, x.points) for x in index.standings][:2] == [("Ann", 3), ("Cléo <b>", 3)]
    assert not any(b"Zora" in p for p in files.values())  # waiting: the organiser's only
    game = index.games[0]
    bundle = json.loads(files[game.bundle])
    assert bundle["public_key"] == signing.public_hex(ours) and "record" not in bundle
    page = files[game.page].decode()
    assert "Verified" in page and game.fingerprint in page and f'href="../{game.bundle}"' in page
    home = files["index.html"].decode()
    assert "Flanders &lt;league&gt; &amp; co" in home and "Cléo &lt;b&gt;" in home and "<b>" not in home
    for path, data in files.items():  # every link relative, to a file of the site: it opens from a folder
        if path.endswith(".html"):
            for href in re.findall(r'href="([^"#][^"]*)"', data.decode()):
                assert posixpath.normpath(posixpath.join(posixpath.dirname(path), href)) in files, (
                    path,
                    href,
                )


def test_a_kept_bundle_changed_reads_not_verified(sqlite_client: TestClient, session: Session) -> None:
    from app.data.models import LeagueGame

    league_id, _, _ = seeded(sqlite_client)
    row = league_site.league.games(session, league_id)[0]
    assert league_site.verified(row)
    row.bundle = {**row.bundle, "table": 9}
    assert not league_site.verified(LeagueGame.model_validate(row))


def test_a_bundle_changed_after_a_publish_reads_not_verified_at_the_next(
    sqlite_client: TestClient, session: Session, tmp_path: Path
) -> None:
    """Each bundle's check is kept in the folder's manifest by its key and bytes: bytes changed are checked anew."""
    league_id, _, _ = seeded(sqlite_client)
    out = tmp_path / "site"
    first = league_site.build(session, league_id)
    league_site.publish(first, out)
    assert list(site_folder.memo(out)["verified"].values()) == [True, True]
    row = league_site.league.games(session, league_id)[0]
    row.bundle = {**row.bundle, "table": 9}
    session.add(row)
    session.commit()
    said = site_folder.memo(out)["verified"]
    again = league_site.build(session, league_id, said)
    changed = next(
        g for g in league_site.SiteIndex.model_validate_json(again.files["index.json"]).games if g.table == 1
    )
    assert not changed.verified and "Not verified" in again.files[changed.page].decode()
    assert sorted(again.memo["verified"].values()) == [False, True]  # type: ignore[attr-defined]


def test_the_feed_is_atom_newest_first_with_stable_ids(sqlite_client: TestClient, session: Session) -> None:
    league_id, _, _ = seeded(sqlite_client)
    parsed = feedparser.parse(league_site.build(session, league_id).files["feed.atom"])
    # bozo: not well-formed, or not in its declared namespace or encoding, as a feed reader found it
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    for required in ("id", "title", "updated", "author"):  # RFC 4287 4.1.1 (author: 4.2.1, none per entry)
        assert parsed.feed.get(required), required
    entries = parsed.entries
    assert len(entries) == 2
    for e in entries:
        assert all(e.get(x) for x in ("id", "title", "updated", "link")), e
        assert e.id.startswith("urn:firestep:result:")
    times = [e.updated for e in entries]
    assert times == sorted(times, reverse=True) and parsed.feed.updated == times[0]


def test_publishing_again_writes_only_what_changed(
    sqlite_client: TestClient, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    league_id, organiser, ours = seeded(sqlite_client)
    out = tmp_path / "site"
    first = league_site.publish(league_site.build(session, league_id), out)
    assert "index.html" in first.written and not first.removed and not first.kept
    snapshot = {p: (out / p).read_bytes() for p in first.written}
    (out / "CNAME").write_text("league.example\n")  # the host's own files, beside the site's: left alone
    (out / "games" / "archive.html").write_text("last season")
    again = league_site.publish(league_site.build(session, league_id), out)
    assert not again.written and not again.removed and sorted(again.kept) == sorted(snapshot)
    # No page rendered again but the whole league's (standings, events), which any change changes.
    assert [p for p in again.made if p.endswith(".html")] == ["events.html", "index.html"], again.made
    # A third game counted: its pages and what lists it are written, the other games' pages kept, not made again.
    url = f"/api/v1/leagues/{league_id}/results"
    third = signed(ours, table=4, players={"attacker": ["Ann", "Ypres"], "defender": ["Dan", "Arras"]})
    assert sqlite_client.post(url, headers=organiser, json={"bundle": third}).status_code in (200, 201)
    session.expire_all()
    later = league_site.publish(league_site.build(session, league_id), out)
    assert {"index.html", "index.json", "feed.atom", "events.html"} <= set(later.written)
    assert not later.removed and len([p for p in later.written if p.startswith("games/")]) == 2
    assert not [
        p for p in later.made if p.endswith(".html") and p.startswith("games/") and p not in later.written
    ]
    assert "clubs/lens" not in " ".join(later.written) and (out / "CNAME").exists()
    assert (out / "games" / "archive.html").read_text() == "last season"
    # Its key no longer trusted (through the CLI as an organiser runs it): every game's page removed.
    keys = sqlite_client.get(f"/api/v1/leagues/{league_id}/keys", headers=organiser).json()
    kid = keys[0]["id"]
    assert (
        sqlite_client.delete(f"/api/v1/leagues/{league_id}/keys/{kid}", headers=organiser).status_code < 300
    )
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", f"sqlite:///{tmp_path / 'firestep.db'}")
    monkeypatch.setenv("FIRESTEP_SECRET_KEY", "x" * 32)
    get_settings.cache_clear()
    try:
        run = CliRunner().invoke(cli, ["league", "publish", str(out), "--league", str(league_id)])
        missing = CliRunner().invoke(cli, ["league", "publish", str(out), "--league", "999"])
    finally:
        get_settings.cache_clear()
    assert run.exit_code == 0, run.output
    assert missing.exit_code == 1 and "no league 999 in this database" in missing.output
    assert [p.name for p in (out / "games").iterdir()] == ["archive.html"] and not list(
        (out / "players").iterdir()
    )
    # the standings, events, index and feed written; 3 games (page and bundle) and 6 players' and clubs' pages
    # removed; the three stylesheets (the app's, its night palette, the events') kept
    assert run.output.splitlines()[-1] == f"4 written, 12 removed, 3 kept in {out}"


def test_publish_refuses_a_folder_it_did_not_make_and_leaves_it_untouched(
    sqlite_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Publishing into a host's folder deleted its files under games/, clubs/, players/, css/ and overwrote its
    index.html, without asking."""
    league_id, _, _ = seeded(sqlite_client)
    host = tmp_path / "www"
    for path, text in {
        "index.html": "<h1>Our club</h1>",
        "games/1914.html": "a page of ours",
        "css/app.css": "body {}",
        "players/me.html": "me",
        "CNAME": "club.example",
    }.items():
        (host / path).parent.mkdir(parents=True, exist_ok=True)
        (host / path).write_text(text)
    before = {p.relative_to(host).as_posix(): p.read_bytes() for p in host.rglob("*") if p.is_file()}
    monkeypatch.setenv("FIRESTEP_DATABASE_URL", f"sqlite:///{tmp_path / 'firestep.db'}")
    get_settings.cache_clear()
    try:
        run = CliRunner().invoke(cli, ["league", "publish", str(host), "--league", str(league_id)])
    finally:
        get_settings.cache_clear()
    [said] = run.output.splitlines()
    assert run.exit_code == 1 and said.endswith("(no .firestep-site.json): give a new or empty one"), said
    assert len(said) <= 120
    assert {p.relative_to(host).as_posix(): p.read_bytes() for p in host.rglob("*") if p.is_file()} == before


# The command line with the file size limit set (RLIMIT_FSIZE): the kernel refuses a write past it with EFBIG,
# as a full disk refuses one with ENOSPC, partway through a file (Python ignores the SIGXFSZ that comes with it).
LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (16_000, 16_000))
sys.argv = ["firestep", "league", "publish", *sys.argv[1:]]
from app.cli import main
main()
"""


def test_a_publish_the_disk_stops_leaves_no_half_written_file_and_says_so(
    sqlite_client: TestClient, session: Session, tmp_path: Path
) -> None:
    """A full disk ended publish in a traceback, the file it was writing left half-written (the site's CSS, 24 KB:
    its first 16,000 bytes)."""
    league_id, _, _ = seeded(sqlite_client)
    site = league_site.build(session, league_id).files
    out = tmp_path / "site"
    env = {**os.environ, "FIRESTEP_DATABASE_URL": f"sqlite:///{tmp_path / 'firestep.db'}"}
    env |= {"FIRESTEP_SECRET_KEY": "x" * 32}
    args = [sys.executable, "-c", LIMITED, str(out), "--league", str(league_id)]
    run = subprocess.run(args, cwd=Path(__file__).parents[3], env=env, capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    [said] = run.stderr.splitlines()  # one sentence, naming the file it could not write
    assert "css/app.css is over the size the system lets a file be" in said, said
    assert len(said) <= 120
    left = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert "css/app.css" not in left and not [p for p in left if p.endswith(".tmp")]
    assert all(data == site[p] for p, data in left.items() if p != ".firestep-site.json")  # each whole
    # The folder is the site's still: published again with room, it is made whole.
    done = league_site.publish(league_site.build(session, league_id), out)
    assert (out / "css/app.css").read_bytes() == site["css/app.css"] and "css/app.css" in done.written
    assert {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} == {
        *site,
        ".firestep-site.json",
    }


def with_claims(c: TestClient) -> tuple[int, dict[str, str], Ed25519PrivateKey]:
    """The seeded league and two games its organiser imported from another tool's file, Hal of no club."""
    league_id, organiser, ours = seeded(c)
    columns = {"round": "Round", "a_name": "P1", "a_points": "S1", "b_name": "P2", "b_points": "S2"}
    columns |= {"a_club": "C1", "b_club": "C2"}
    text = "Round,P1,C1,S1,P2,C2,S2\r\n1,Hal,,9,Ann,Ypres,4\r\n2,Ivy,Mons,5,Hal,,5\r\n"
    body = {"event": "Spring Open", "csv": text, "columns": columns}
    assert c.post(f"/api/v1/leagues/{league_id}/claims", headers=organiser, json=body).status_code == 201
    return league_id, organiser, ours


def test_claims_are_listed_marked_and_a_player_of_no_club_has_no_club_link(
    sqlite_client: TestClient, session: Session
) -> None:
    """The newcomer pass: a player of no club had a link with no name (axe link-name) to a "No club" page, and
    the organiser's claims showed only in the standings."""
    league_id, _, _ = with_claims(sqlite_client)
    files = league_site.build(session, league_id).files
    assert not [p for p in files if p.startswith("clubs/club-")]  # the slug of "": no page
    for path, data in files.items():
        if path.endswith(".html"):
            assert not re.search(r"<a [^>]*>\s*</a>", data.decode()), path
            assert "No club</h1>" not in data.decode()
    index = league_site.SiteIndex.model_validate_json(files["index.json"])
    assert [(k.event, k.round, k.first, k.second, k.winner, k.kept_as) for k in index.claims] == [
        ("Spring Open", 1, ("Hal", ""), ("Ann", "Ypres"), "first", "the organiser's claim, not signed"),
        ("Spring Open", 2, ("Ivy", "Mons"), ("Hal", ""), None, "the organiser's claim, not signed"),
    ]
    events = files["events.html"].decode()
    assert 'Spring Open <span class="muted">(the organiser\'s claim, not signed)</span>' in events
    assert "Hal v Ann: 9–4, Hal won" in events and "Ivy v Hal: 5–5, a draw" in events
    hal = next(line.page for line in index.standings if line.player == "Hal")
    page = files[hal].decode()
    assert "Of no club." in page and "Hal v Ann: 9–4, Hal won" in page and "Ivy v Hal: 5–5, a draw" in page
    assert page.count("the organiser&#39;s claim, not signed</span>") == 2
    assert b"Hal" not in files["feed.atom"]  # signed results only, as the site says
    assert "The results feed (Atom) carries signed results only" in files["index.html"].decode()


def test_publishing_with_no_database_says_so_and_makes_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newcomer pass: run in a folder with no database, publish made an empty firestep.db and said there was
    no league 1 in it."""
    here = tmp_path / "data"
    here.mkdir()
    monkeypatch.delenv("FIRESTEP_DATABASE_URL", raising=False)
    monkeypatch.setenv("FIRESTEP_VAR_DIR", str(here))
    run = CliRunner().invoke(cli, ["league", "publish", str(tmp_path / "site"), "--league", "1"])
    assert run.exit_code == 1 and run.output.strip() == league_site.NO_DATABASE
    assert len(league_site.NO_DATABASE) <= 120 and list(here.iterdir()) == []
    (here / "firestep.db").write_bytes(b"")  # a file, not firestep's database: the same sentence
    again = CliRunner().invoke(cli, ["league", "publish", str(tmp_path / "site"), "--league", "1"])
    assert again.exit_code == 1 and again.output.strip() == league_site.NO_DATABASE


def test_the_organisers_league_page_says_how_to_publish_its_site(sqlite_client: TestClient) -> None:
    """The newcomer pass found the site only by reading app/cli.py: the page names the command, with the number."""
    from tests.csrf import form

    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "Site league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    said = f'<p class="lg-fp"><code data-publish>firestep league publish OUT/ --league {league_id}</code>'
    assert said in c.get(f"/leagues/{league_id}").text
    c.cookies.clear()
    assert "data-publish" not in c.get(f"/leagues/{league_id}").text  # the organiser's, as imports are


def test_a_re_publish_makes_again_only_the_bundle_files_whose_kept_text_changed(
    sqlite_client: TestClient, session: Session, tmp_path: Path
) -> None:
    """A bundle's file is keyed by its text as the database keeps it: the league's every bundle is not decoded and
    encoded again at each publish (a fifth of a re-publish of 10,000 games), and one changed is written anew."""
    league_id, _, _ = seeded(sqlite_client)
    out = tmp_path / "site"
    league_site.publish(league_site.build(session, league_id), out)
    again = league_site.publish(league_site.build(session, league_id), out)
    assert not [p for p in again.made if p.startswith("games/")] and not again.written
    row = league_site.league.games(session, league_id)[0]
    row.bundle = {**row.bundle, "table": 9}
    session.add(row)
    session.commit()
    later = league_site.publish(league_site.build(session, league_id), out)
    changed = f"games/{row.identity[:16]}.json"
    assert [p for p in later.made if p.endswith(".json") and p.startswith("games/")] == [changed]
    assert changed in later.written and json.loads((out / changed).read_bytes())["table"] == 9


def test_publishing_imports_only_what_a_leagues_read_needs() -> None:
    """`firestep league publish` starts by importing its code: not the log's, the live streams', the rule sets' nor
    alembic's (2.2 s of CPU of a re-publish's 5.6 were the command's start)."""
    code = (
        "import sys, app.cli, app.core.db, app.services.league_site; "
        "print(sorted(m for m in ('alembic', 'app.core.live', 'app.services.events', 'rules.registry', "
        "'app.services.tournaments') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout
