"""A landed revision never changes, and a database migrated by any earlier main upgrades to today's schema.

Revision ids 0004 and 0005 once landed as empty placeholders and were then reused with new content, so a
database upgraded in between was stamped past them without their columns (issue 24, item 8). The manifest
(migrations/manifest.json) pins each file; git history gives every state that ever landed, and each one is
rebuilt with its own migration files, then upgraded by today's (the later mains' files are today's: only
0004 and 0005 ever changed, which the manifest test checks)."""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
import subprocess
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, insert, text
from sqlalchemy.engine import Engine

from app.core.db import (
    SchemaError,
    alembic_config,
    check_schema,
    current_revision,
    head_revision,
    make_engine,
    migrate,
    schema_drift,
)
from tests.conftest import make_client

pytestmark = pytest.mark.storage  # every revision upgrades on each backend

ROOT = Path(__file__).resolve().parents[3]
MIGRATIONS = ROOT / "migrations"
VERSIONS = "migrations/versions"
MANIFEST = "migrations/manifest.json"
# The only reuses there ever were; 0008 repairs databases upgraded through 0004 and 0005, 0011 through the first
# 0010. Never add one.
REPAIRED_REUSES = {"0004", "0005", "0010"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def git_bytes(commit: str, path: str) -> bytes:
    return subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, check=True
    ).stdout


def require_history() -> None:
    """A shallow clone has no landed states to rebuild: skipped there, even in CI (the history is a property
    of the checkout, not a service the machine lacks)."""
    if not has_history():
        pytest.skip("needs the repository's full git history (this clone is shallow)")


def has_history() -> bool:
    try:
        return git("rev-parse", "--is-shallow-repository").strip() == "false"
    except (OSError, subprocess.CalledProcessError):
        return False


@cache
def landed_commits(path: str) -> list[str]:
    """Every commit of main's own line (its first parents) that changed `path`, oldest first: a merged branch's
    commits in between never landed, only the merge did (needs the repository's history)."""
    require_history()
    return git("log", "--first-parent", "--reverse", "--format=%H", "--", path).split()


def landed_files(commit: str) -> dict[str, bytes]:
    """The migration files at `commit`, by file name: read in one `git cat-file --batch` (a `git show` a file
    was half a second of each test process's collection)."""
    names = [n for n in git("ls-tree", "--name-only", commit, f"{VERSIONS}/").split() if n.endswith(".py")]
    asked = "".join(f"{commit}:{n}\n" for n in names).encode()
    out = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=ROOT, input=asked, capture_output=True, check=True
    ).stdout
    files = {}
    for name in names:  # each answer: "<sha> blob <size>", the content, a newline
        header, _, out = out.partition(b"\n")
        size = int(header.split()[2])
        files[Path(name).name], out = out[:size], out[size + 1 :]
    return files


def revision_of(source: bytes) -> str:
    namespace: dict[str, Any] = {}
    line = next(ln for ln in source.decode().splitlines() if ln.startswith("revision:"))
    exec(line.replace("revision: str", "revision"), namespace)  # the one assignment line, a string literal
    return str(namespace["revision"])


def manifest() -> dict[str, Any]:
    return dict(json.loads((ROOT / MANIFEST).read_text()))


# -- the manifest -----------------------------------------------------------------------------------------
def test_every_revision_file_is_the_one_in_the_manifest() -> None:
    """Changing a landed migration (or adding one without its entry) fails here: write a new revision."""
    scripts = {s.revision: Path(s.path) for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
    entries = manifest()["revisions"]
    assert set(scripts) == set(entries), "each revision has one manifest entry (id -> file, sha256)"
    for revision, path in scripts.items():
        assert path.name == entries[revision]["file"], revision
        assert sha256(path.read_bytes()) == entries[revision]["sha256"], (
            f"revision {revision} ({path.name}) differs from what landed: never edit a landed migration, "
            "add a new revision instead"
        )


def test_no_manifest_entry_ever_changes() -> None:
    """Each landed version of the manifest agrees with today's on every id it had."""
    today = manifest()["revisions"]
    commits = landed_commits(MANIFEST)
    for commit in commits:
        for revision, entry in json.loads(git_bytes(commit, MANIFEST))["revisions"].items():
            assert today.get(revision) == entry, f"manifest entry {revision} changed since {commit[:7]}"


def test_every_landed_revision_file_is_todays_but_the_repaired_reuses() -> None:
    today = {r: e["sha256"] for r, e in manifest()["revisions"].items()}
    reused = manifest()["reused"]
    assert set(reused) == REPAIRED_REUSES
    seen_reuses = set()
    for commit in landed_commits(VERSIONS):
        for name, source in landed_files(commit).items():
            revision, digest = revision_of(source), sha256(source)
            if digest != today.get(revision):
                assert digest in reused.get(revision, []), (
                    f"{name} at {commit[:7]} reuses revision id {revision} with other content"
                )
                seen_reuses.add(digest)
    assert seen_reuses == {d for ds in reused.values() for d in ds}, "each listed reuse really landed"


# -- upgrading from every landed state --------------------------------------------------------------------
def landed_states() -> list[str]:
    """Each commit that left the migrations other than they are now, oldest first; [None] without history
    (the test then skips)."""
    if not has_history():
        return [None]  # type: ignore[list-item]
    today = {p.name: p.read_bytes() for p in (MIGRATIONS / "versions").glob("*.py")}
    return [c for c in landed_commits(VERSIONS) if landed_files(c) != today]


def upgrade_with_files_of(commit: str, url: str, workdir: Path) -> None:
    """`alembic upgrade head` as the main of `commit` ran it: its migration files, today's env.py."""
    location = workdir / commit[:12]
    if not location.exists():
        (location / "versions").mkdir(parents=True)
        for name in ("env.py", "script.py.mako"):
            shutil.copy(MIGRATIONS / name, location / name)
        for name, source in landed_files(commit).items():
            (location / "versions" / name).write_bytes(source)
    cfg = alembic_config(url)
    cfg.set_main_option("script_location", str(location))
    command.upgrade(cfg, "head")


def seed_plan_and_hand(engine: Engine) -> tuple[int, bool] | None:
    """A game with two fire-plan items and an event logging a side's hand in its public part, in whatever
    columns the tables have at this state; whether the hand predates side-private parts (then 0005 or 0008
    must move it out of sight, and give the items public ids)."""
    meta = MetaData()
    meta.reflect(engine, only=lambda name, _: name in {"game", "fire_plan_item", "event"})
    if {"game", "fire_plan_item", "event"} - set(meta.tables):
        return None
    # A plain value for each column a row must fill, by the type's SQL name (reflection gives no Python type
    # for JSON on SQLite).
    # Integers count up, so that a unique public id (once it exists) is unique.
    numbers = itertools.count(1)
    plain = {"INT": numbers, "CHAR": "x", "BOOL": False, "FLOAT": 0.0, "DOUBLE": 0.0, "JSON": {}}

    def row(table: str, **given: Any) -> dict[str, Any]:
        values = dict(given)
        for c in meta.tables[table].columns:
            if c.name in values or c.nullable or c.server_default is not None or c.primary_key:
                continue
            sql = str(c.type).upper()
            stamp = "DATE" in sql or "TIME" in sql
            value = datetime.now(UTC) if stamp else next(v for k, v in plain.items() if k in sql)
            values[c.name] = next(value) if value is numbers else value
        return values

    with engine.begin() as conn:
        game_key = conn.execute(insert(meta.tables["game"]).values(row("game"))).inserted_primary_key
        assert game_key is not None
        game_id = game_key[0]
        for _ in range(2):
            conn.execute(insert(meta.tables["fire_plan_item"]).values(row("fire_plan_item", game_id=game_id)))
        hand = {"changes": [{"side": "attacker", "hand": ["secret-card"]}]}
        conn.execute(insert(meta.tables["event"]).values(row("event", game_id=game_id, payload=hand)))
    return int(game_id), "private" not in meta.tables["event"].columns


def check_seeded_and_remove(engine: Engine, game_id: int, hand_was_public: bool) -> None:
    with engine.begin() as conn:
        public = conn.execute(text("SELECT public_id FROM fire_plan_item WHERE game_id = :g"), {"g": game_id})
        ids = [p for (p,) in public]
        assert len(ids) == 2 and None not in ids and len(set(ids)) == 2
        event = conn.execute(
            text("SELECT payload, private FROM event WHERE game_id = :g"), {"g": game_id}
        ).one()
        payload, private = (v if isinstance(v, dict) else json.loads(v) for v in event)
        if hand_was_public:
            assert payload["changes"] == []  # the hand left the public part...
            assert private["attacker"]["changes"][0]["hand"] == ["secret-card"]  # ...for its side's own
        for table in ("event", "fire_plan_item"):
            conn.execute(text(f"DELETE FROM {table} WHERE game_id = :g"), {"g": game_id})
        conn.execute(text("DELETE FROM game WHERE id = :g"), {"g": game_id})


def smoke(url: str, var_dir: Path) -> None:
    """The API and the game pages work: create a game, join, place a unit, read the game's pages."""
    with make_client(url, var_dir) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        created = http.post("/api/v1/games", json={"name": "After the upgrade", "period": "early"})
        assert created.status_code == 201, created.text
        game = created.json()
        game_id = game["game"]["id"]
        joined = http.post("/api/v1/join", json={"code": game["join_codes"]["attacker"]})
        assert joined.status_code == 200, joined.text
        unit = {
            "side": "attacker",
            "name": "1 Platoon",
            "level": "platoon",
            "kind": "infantry",
            "x": 60,
            "y": 120,
        }
        placed = http.post(
            f"/api/v1/games/{game_id}/units",
            json=unit,
            headers={"Authorization": f"Bearer {joined.json()['token']}"},
        )
        assert placed.status_code == 201, placed.text
        for page in ("/", f"/games/{game_id}/map"):
            assert http.get(page).status_code == 200, page


STATES = landed_states()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("landed-migrations")


@pytest.mark.parametrize("start", range(len(STATES)), ids=lambda i: str(STATES[i])[:7])
def test_a_database_from_each_landed_state_upgrades_to_a_working_head(
    start: int, database_url: str, workdir: Path, tmp_path: Path
) -> None:
    require_history()
    upgrade_with_files_of(STATES[start], database_url, workdir)
    engine = make_engine(database_url)
    seeded = seed_plan_and_hand(engine)
    migrate(database_url)  # today's: refuses (SchemaError) if anything is still missing
    assert current_revision(engine) == head_revision()
    with engine.connect() as conn:
        assert schema_drift(conn) == []
    if seeded is not None:
        check_seeded_and_remove(engine, *seeded)
    engine.dispose()
    smoke(database_url, tmp_path)


def test_the_half_applied_upgrade_of_the_issue_is_seen_refused_and_repaired(
    database_url: str, workdir: Path
) -> None:
    """Migrated while 0004 and 0005 were placeholders, then by the main before the repair: stamped 0007 with
    the access and secrets columns missing. The app refuses it, naming what to run; today's migrate repairs."""
    reused = manifest()["reused"]["0004"]
    placeholders = next(
        c for c in landed_commits(VERSIONS) if sha256(landed_files(c).get("0004_access.py", b"")) in reused
    )
    before_repair = next(c for c in landed_commits(VERSIONS) if "0007_campaign_battles.py" in landed_files(c))
    upgrade_with_files_of(placeholders, database_url, workdir)
    upgrade_with_files_of(before_repair, database_url, workdir)
    engine = make_engine(database_url)
    assert current_revision(engine) == "0007"
    with engine.connect() as conn:
        drift = schema_drift(conn)
    assert {"column game.archived_at", "column event.private", "table fire_plan_edit"} <= set(drift)
    with pytest.raises(SchemaError, match=r"revision 0007 .* run `firestep migrate`"):
        check_schema(engine)
    migrate(database_url)
    with engine.connect() as conn:
        assert schema_drift(conn) == []
    check_schema(engine)
    engine.dispose()
