"""A backup the organiser can trust (issue 93): `firestep backup`, `firestep restore` and the copies
`firestep serve --backup-every N --backup-to DIR` keeps on a second disk (a USB stick on the club laptop).

A backup is one zip file, owner-only like the data folder it copies (it holds what the data folder keeps
secret). What it carries is what a restored install needs to work as the old one did:
- `firestep.db`: the SQLite database, copied by SQLite's online backup (one read of the whole file in one
  transaction, so a server serving and writing it meanwhile is neither stopped nor copied half-written), the copy
  zipped a piece at a time (never whole in memory);
- `secret_key`: each device's token and each join code is kept as its hash keyed by it, so without it every
  device, the referee's too, would have to join again;
- `club/`: the club's certificate authority, which every tablet trusted once, and the key that signs the
  club's results, by which a league knows them;
- `firestep-version`: which firestep last migrated it, so a newer one restoring it says it updated it.
Not the kept sheets (printouts, made again when asked for), the address the last server served at (written
again as a server starts) nor the server's lock.

A restore writes into an empty data folder only (never over an install). It refuses a key file said to unzip past
1 MiB, a database said to unzip past the free space where it goes (a zip bomb's), and an entry encrypted or zipped by
a method but Deflate (whose reads zipfile bounds) or none, unread; it unzips the database to its place a piece at a
time (never whole in memory) and checks it with SQLite's `PRAGMA integrity_check` before it writes anything else,
and refuses one damaged, one a newer firestep migrated and a secret key that is no key; once migrated, a database
whose triggers and views are not this firestep's is refused too. What a refused restore wrote is taken away. On
PostgreSQL the database's own tool backs up (`pg_dump`): each refusal says so in one sentence.
"""

from __future__ import annotations

import logging
import re
import shlex
import shutil
import sqlite3
import tempfile
import threading
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO

from sqlalchemy.engine import URL, make_url

from app.core.datafolder import VERSION_FILE, private_folder, sqlite_file, write_private

log = logging.getLogger("firestep.backup")

DATABASE = "firestep.db"
SECRET_KEY = "secret_key"
CLUB = "club"
# The copies `serve --backup-every` keeps: the newest may be one taken just after a mistake noticed a while
# later (a result confirmed wrongly, a unit edited away), so the four before it are kept too (at every 10
# minutes, the last 50); five copies of a club's database, a few MB each, fit any USB stick.
KEEP = 5
EVERY_NAME = "firestep-auto-backup-{:%Y-%m-%d-%H%M%S}.zip"
_EVERY = re.compile(r"firestep-auto-backup-\d{4}-\d{2}-\d{2}-\d{6}\.zip")
_CLUB_FILE = re.compile(r"club/[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_KEY = re.compile(rb"[!-~]{32,}")  # firestep writes 64 (secrets.token_urlsafe(48))
# The most a file of the backup's but its database unzips to: the secret key, the version mark, each of the
# club's keys and certificates are a few KB each.
_KEY_BYTES = 2**20
# What SQLite leaves beside a database (its write-ahead log, a rollback journal), read into the next of its name.
_LEFT = ("-wal", "-journal")


class BackupRefused(RuntimeError):
    """What a backup or a restore cannot do, as one sentence (no full stop) saying what to do instead."""


def backup_name(now: datetime, suffix: str = ".zip") -> str:
    """The dated name `firestep backup FOLDER` gives its file in the folder (on PostgreSQL, pg_dump's)."""
    return f"firestep-backup-{now:%Y-%m-%d-%H%M%S}{suffix}"


def postgresql(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


def _libpq(url: str) -> str:
    """The URL as PostgreSQL's own tools read it: libpq's scheme, no password (they ask for it, or read
    PGPASSWORD or ~/.pgpass), quoted for a shell."""
    parsed = make_url(url)
    plain = URL.create(
        "postgresql", parsed.username, None, parsed.host, parsed.port, parsed.database, parsed.query
    )
    return shlex.quote(plain.render_as_string(hide_password=False))


def pg_dump_refusal(url: str, path: Path) -> str:
    """On PostgreSQL, what to run instead of `firestep backup DEST` (the command as it runs, into the new file
    `path`), naming pg_dump where it is not on PATH."""
    command = f"pg_dump -Fc -f {shlex.quote(str(path))} -d {_libpq(url)}"
    if shutil.which("pg_dump") is None:
        return (
            f"On PostgreSQL back up with pg_dump ({command}), which is not on this PATH: install PostgreSQL's "
            "client tools (postgresql-client)"
        )
    return f"On PostgreSQL back up with pg_dump ({command}), not with firestep backup"


def pg_restore_refusal(url: str, src: Path) -> str:
    return (
        f"On PostgreSQL restore with pg_restore into an empty database (pg_restore -d {_libpq(url)} "
        f"{shlex.quote(str(src))}), not with firestep restore"
    )


def _database(url: str) -> Path:
    file = sqlite_file(url)
    assert file is not None, "a SQLite file's URL (app.core.database_url refuses the rest)"
    return file


def target(dest: Path, now: datetime, suffix: str = ".zip") -> Path:
    """The file `firestep backup DEST` writes: DEST, or in a folder DEST a dated name; refused where a file
    is there already (a backup never replaces one) or its folder is missing."""
    path = dest / backup_name(now, suffix) if dest.is_dir() else dest
    if path.exists():
        raise BackupRefused(
            f"{path} already exists and a backup never overwrites a file: name a new file, or a folder"
        )
    if not path.parent.is_dir():
        raise BackupRefused(f"The folder {path.parent} does not exist: make it, or name a folder that does")
    return path


def _copied(database: Path, folder: Path) -> Path:
    """The database as one read transaction of SQLite's online backup finds it (the server's writes before
    it, none of those after), as a file of its own in `folder`: a rollback journal's (a WAL file's header would
    have every reader look for a log beside it), which the server turns to WAL again as it opens it."""
    copy = folder / DATABASE
    try:
        with (
            closing(sqlite3.connect(database, timeout=30)) as source,
            closing(sqlite3.connect(copy)) as into,
        ):
            source.backup(into)  # every page in one step: one read transaction, a consistent copy
            into.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as e:  # a damaged file, a full disk: said, and serve's next round tries again
        raise BackupRefused(f"SQLite cannot copy the database {database}: {e}") from None
    return copy


def _zip_into(into: IO[bytes], copy: Path, files: dict[str, bytes]) -> None:
    """The backup's zip written into `into`: the database's copy a piece at a time (read whole, it and its zip
    were each held in memory, a club's database of a few hundred MB twice that and more: the closing note),
    marked owner-only as writestr marks the small files after it."""
    with zipfile.ZipFile(into, "w", zipfile.ZIP_DEFLATED) as archive:
        entry = zipfile.ZipInfo(DATABASE, time.localtime()[:6])
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = 0o600 << 16
        entry.file_size = copy.stat().st_size  # so zipfile writes Zip64 sizes for a database past 2 GiB
        with copy.open("rb") as database, archive.open(entry, "w") as zipped:
            shutil.copyfileobj(database, zipped)
        for name, data in files.items():
            archive.writestr(name, data)


@dataclass(frozen=True)
class Carried:
    """What a backup holds, by its files' names in it."""

    names: tuple[str, ...]

    @property
    def key(self) -> bool:
        """The data folder's secret key (without it, FIRESTEP_SECRET_KEY keyed the tokens where it was taken)."""
        return SECRET_KEY in self.names

    def __str__(self) -> str:
        parts = ["the database", "the secret key" if self.key else ""]
        parts.append("the club's keys" if any(n.startswith(f"{CLUB}/") for n in self.names) else "")
        said = [p for p in parts if p]
        return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


@dataclass(frozen=True)
class Taken:
    path: Path
    carried: Carried


def take(url: str, var_dir: Path, path: Path) -> Taken:
    """Back up the SQLite database of `url` and what of the data folder a restore needs into the new file
    `path`, written whole or not at all (FileExistsError: a file there is kept)."""
    database = _database(url)
    if not database.is_file():
        raise BackupRefused(f"There is no database at {database} yet: nothing to back up")
    files: dict[str, bytes] = {}  # the small files beside the database, a few KB each
    for name in (SECRET_KEY, VERSION_FILE):
        if (var_dir / name).is_file():
            files[name] = (var_dir / name).read_bytes()
    club = var_dir / CLUB
    for file in sorted(club.iterdir()) if club.is_dir() else []:
        if file.is_file() and _CLUB_FILE.fullmatch(f"{CLUB}/{file.name}"):
            files[f"{CLUB}/{file.name}"] = file.read_bytes()
    with tempfile.TemporaryDirectory(prefix="firestep-backup-") as folder:  # this user's alone (0700)
        copy = _copied(database, Path(folder))
        write_private(path, lambda into: _zip_into(into, copy, files), replace=False)
    return Taken(path, Carried((DATABASE, *files)))


@dataclass(frozen=True)
class Restored:
    database: Path
    carried: Carried
    made: bool = False  # the data folder, which the restore made (so taken away with what it wrote)


@dataclass(frozen=True)
class Backup:
    """A backup as a restore reads it before writing: its files but the database (each at most 1 MiB), and
    how large its database unzips to, as the zip's header says (zipfile reads no further)."""

    files: dict[str, bytes]
    database_bytes: int

    @property
    def carried(self) -> Carried:
        return Carried((DATABASE, *self.files))


def _read_backup(src: Path) -> Backup:
    if not src.is_file():
        raise BackupRefused(f"There is no file {src}: name a backup firestep backup wrote")
    try:
        with zipfile.ZipFile(src) as archive:
            names = [n for n in archive.namelist() if n in (SECRET_KEY, VERSION_FILE)]
            names += [n for n in archive.namelist() if _CLUB_FILE.fullmatch(n)]
            for name in names:  # read as large as its header says (zipfile stops there): a bomb's key, unread
                if (size := archive.getinfo(name).file_size) > _KEY_BYTES:
                    raise BackupRefused(
                        f"{name} in {src} unzips to {size} bytes, more than any key (1 MiB): restore another backup"
                    )
            for name in (*names, DATABASE):
                _readable(src, archive, name)
            files = {name: _unzip(src, archive, name) for name in names}
            database_bytes = archive.getinfo(DATABASE).file_size
    except (zipfile.BadZipFile, OSError, EOFError, KeyError):  # KeyError: no database in it
        raise BackupRefused(
            f"{src} is not a backup firestep backup wrote (a zip file holding {DATABASE})"
        ) from None
    if SECRET_KEY in files and not _KEY.fullmatch(files[SECRET_KEY].strip()):
        # Read as the server reads it (config._stored_secret, stripped): an empty key would key every token's
        # hash and every card's MAC with "", bytes not text would stop every start.
        raise BackupRefused(
            f"The secret key in {src} is not one firestep keeps (32 or more printable characters): restore "
            "another backup"
        )
    return Backup(files, database_bytes)


def _room(src: Path, backup: Backup, database: Path) -> None:
    """Refuse a database that would unzip past the free space where it goes (the nearest folder there is)."""
    folder = next(p for p in database.parents if p.exists())
    free = shutil.disk_usage(folder).free
    if backup.database_bytes > free:
        raise BackupRefused(
            f"The database in {src} unzips to {backup.database_bytes} bytes, more than the {free} free in "
            f"{folder}: free some space, or restore another backup"
        )


# What zipfile raises for an entry it cannot unzip, beside its own BadZipFile: zlib's error (a damaged stream).
_UNZIPPING = (zipfile.BadZipFile, EOFError, zlib.error)
# The methods a restore unzips: firestep backup deflates, and Python's zipfile bounds what one read of Deflate
# unzips to; bzip2's and LZMA's reads it does not bound (a bomb's whole database held in memory at once: the
# hostile pass), and other methods (Deflate64, Windows' own zipping of large files) it lacks.
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_NAMED = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma", 9: "Deflate64"}  # as a refusal names them


def _what(name: str) -> str:
    return "The database" if name == DATABASE else name


def _readable(src: Path, archive: zipfile.ZipFile, name: str) -> None:
    """Refuse, unread, an entry encrypted or zipped by a method a restore does not unzip (`_METHODS`)."""
    entry = archive.getinfo(name)
    if entry.flag_bits & 0x1:
        raise BackupRefused(
            f"{_what(name)} in {src} is encrypted, as no backup firestep wrote is: restore another backup"
        )
    if entry.compress_type not in _METHODS:
        method = _NAMED.get(entry.compress_type, f"method {entry.compress_type}")
        raise BackupRefused(
            f"{_what(name)} in {src} is zipped by {method}, which firestep backup never uses: restore another backup"
        )


def _cannot_unzip(src: Path, name: str, error: BaseException) -> BackupRefused:
    return BackupRefused(f"{_what(name)} in {src} cannot be unzipped ({error}): restore another backup")


def _unzip(src: Path, archive: zipfile.ZipFile, name: str) -> bytes:
    """A small file of the backup (a key), unzipped; one that cannot be is refused in one sentence."""
    try:
        return archive.read(name)
    except _UNZIPPING as e:
        raise _cannot_unzip(src, name, e) from None


def _unzipped(src: Path, database: Path) -> None:
    """The backup's database written to `database` a piece at a time, read no further than the zip's header
    says it unzips to; a damaged entry (its checksum, its compressed data) refused."""
    try:
        with zipfile.ZipFile(src) as archive, archive.open(DATABASE) as unzipped:
            write_private(database, unzipped, replace=False)
    except _UNZIPPING as e:
        raise _cannot_unzip(src, DATABASE, e) from None


def _checked(src: Path, database: Path) -> None:
    """Refuse a database SQLite's integrity check finds damaged, or that a newer firestep migrated (read only:
    the check writes nothing beside it)."""
    from app.core.db import unknown_revision

    with closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as conn:
        try:
            found = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as e:
            found = [str(e)]
        if found != ["ok"]:
            raise BackupRefused(
                f"The database in {src} fails SQLite's integrity check ({found[0][:80]}): restore another backup"
            )
        try:
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError:
            revision = None
    if revision is None:
        raise BackupRefused(
            f"The database in {src} holds no firestep schema: restore a backup firestep backup wrote"
        )
    if (newer := unknown_revision(str(revision[0]))) is not None:
        raise BackupRefused(newer.rstrip("."))


def _empty(var_dir: Path, database: Path) -> None:
    taken = var_dir.exists() and (not var_dir.is_dir() or any(var_dir.iterdir()))
    kept = [p for p in (database, *(database.with_name(f"{database.name}{e}") for e in _LEFT)) if p.exists()]
    if taken or kept:
        where = var_dir if taken else kept[0]
        raise BackupRefused(
            f"{where} is not empty: restore only into a new data folder (set FIRESTEP_VAR_DIR to an empty one)"
        )


def restore(src: Path, url: str, var_dir: Path) -> Restored:
    """The backup `src` written into the data folder `var_dir` and the database of `url`, both empty (a
    restore never writes over an install): its database first, checked before anything else is written, and
    taken away with all the restore made if it fails."""
    database = _database(url)
    backup = _read_backup(src)
    _empty(var_dir, database)
    _room(src, backup, database)
    made = not var_dir.exists()
    with whole_or_none(var_dir, database, made):
        private_folder(var_dir)
        if not database.parent.exists():
            private_folder(database.parent)
        _unzipped(src, database)
        _checked(src, database)
        for name, data in backup.files.items():
            if name.startswith(f"{CLUB}/"):
                private_folder(var_dir / CLUB)
            write_private(var_dir / name, data, replace=False)
    return Restored(database, backup.carried, made)


@contextmanager
def whole_or_none(var_dir: Path, database: Path, made: bool) -> Iterator[None]:
    """A restore's writing, and its migrating after, whole or not at all: where anything in the block fails (a
    full disk, a database the migration refuses) what it made is taken away again, the data folder left empty
    and the database file not there, as a restore found them (only so is the next restore not refused as an
    install; the folder too where the restore `made` it). Entered only once restore found them so: nothing in
    the folder is anyone else's."""
    try:
        yield
    except BaseException:
        for path in (
            database,
            *(database.with_name(f"{database.name}{end}") for end in ("-wal", "-shm", "-journal")),
        ):
            path.unlink(missing_ok=True)
        for path in var_dir.iterdir() if var_dir.is_dir() else []:
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        if made and var_dir.is_dir():
            var_dir.rmdir()
        raise


def unmigrated(src: Path, error: Exception) -> BackupRefused:
    """A restored database the migration to this firestep's schema refused, in one sentence."""
    reason = next(iter(str(error).strip().splitlines()), "") or type(error).__name__
    return BackupRefused(
        f"The database in {src} cannot be brought to this firestep's schema ({reason[:120]}): nothing is "
        "restored, restore another backup"
    )


def _programs(database: Path) -> set[tuple[str, str, str]]:
    """A database's triggers and views: each its kind, its name and its SQL (its spaces as one)."""
    with closing(sqlite3.connect(database)) as conn:
        found = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view')")
        return {(kind, name, " ".join(str(sql).split())) for kind, name, sql in found}


def foreign_programs(database: Path) -> None:
    """Refuse a restored database, migrated, whose triggers and views are not those a database this firestep
    migrates has (the schema's check names its tables, columns and indexes alone): one of firestep's missing
    (the count of a game's unit writes the kept units are checked by), or one of its own, run at every write."""
    from app.core.db import migrate

    with tempfile.TemporaryDirectory(prefix="firestep-restore-") as folder:  # this user's alone (0700)
        fresh = Path(folder) / DATABASE
        migrate(f"sqlite:///{fresh}", "head")
        own = _programs(fresh)
    differ = sorted({f"{kind} {name}" for kind, name, _ in own ^ _programs(database)})
    if differ:
        raise BackupRefused(f"its triggers and views are not this firestep's: {', '.join(differ)}")


def integrity(database: Path) -> str:
    """SQLite's own check of the database file: "ok", or the first thing it found."""
    with closing(sqlite3.connect(database)) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


@dataclass(frozen=True)
class GamesHeld:
    """A restored database's games as the pages list them (app.pages.games: the start page lists no event's game
    and no archived one): each counted once, an event's whether or not archived."""

    listed: int  # on the start page
    at_events: int  # at an event's tables: each on its event's page
    archived: int  # on neither

    def __str__(self) -> str:
        """'2 games on the start page', or each count named: '4 games: 2 on the start page, 2 at an event's
        tables' (where the game count said 4, and the start page listed 2: the newcomer pass)."""
        total = self.listed + self.at_events + self.archived
        on_start = f"{self.listed} on the start page"
        if total == self.listed:
            return f"{total} game{'s' * (total != 1)} on the start page"
        others = ((self.at_events, "at an event's tables"), (self.archived, "archived"))
        return f"{total} games: " + ", ".join([on_start, *(f"{n} {where}" for n, where in others if n)])


def games_held(database: Path) -> GamesHeld:
    with closing(sqlite3.connect(database)) as conn:
        listed, at_events, archived = conn.execute(
            "SELECT coalesce(sum(NOT at_event AND archived_at IS NULL), 0), coalesce(sum(at_event), 0),"
            " coalesce(sum(NOT at_event AND archived_at IS NOT NULL), 0)"
            " FROM (SELECT archived_at, EXISTS (SELECT 1 FROM tournament_table t WHERE t.game_id = game.id)"
            " AS at_event FROM game)"
        ).fetchone()
    return GamesHeld(int(listed), int(at_events), int(archived))


def backup_round(url: str, var_dir: Path, folder: Path, now: datetime, keep: int = KEEP) -> Path | None:
    """One round of `serve --backup-every`: a backup into `folder` under a dated name, then the copies before
    it past the newest `keep` written removed (only this command's own, known by their name). A folder that cannot be
    written (the stick pulled out, full) is logged in one sentence and the answer is None: serving goes on,
    and the next round tries again."""
    try:
        path = take(url, var_dir, folder / EVERY_NAME.format(now)).path
        # In the order written, not by name: a name is the local time, which goes back an hour in autumn.
        own = [p for p in folder.iterdir() if _EVERY.fullmatch(p.name)]
        kept = sorted(own, key=lambda p: (p.stat().st_mtime_ns, p.name))
        for old in kept[:-keep]:
            old.unlink(missing_ok=True)
    except (OSError, BackupRefused) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        log.warning(
            "The backup into %s could not be written (%s): serving goes on, and the next backup tries again.",
            folder,
            reason,
        )
        return None
    return path


@contextmanager
def every(
    url: str, var_dir: Path, folder: Path, minutes: int, said: Callable[[str], None]
) -> Iterator[threading.Thread]:
    """A thread of the serving process that runs a round now and then every `minutes` until the block ends,
    saying each backup written (`said`)."""
    stop = threading.Event()

    def run() -> None:
        while True:
            if (path := backup_round(url, var_dir, folder, datetime.now().astimezone())) is not None:
                said(f"Backup written: {path} (the newest {KEEP} kept).")
            if stop.wait(minutes * 60):
                return

    thread = threading.Thread(target=run, name="firestep-backup-every", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
