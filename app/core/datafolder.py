"""The data folder (FIRESTEP_VAR_DIR, app.core.config) keeps its secrets and has one server at a time.

It holds the SQLite database (both sides' plan items and salts before they land, aiming points, hands), the
secret key, the club's keys and the kept sheets: it is made this user's alone (mode 0700, or on Windows an access
list naming this user only, inherited by every file made in it), and the database files are 0600 from their
first byte. A `firestep serve` holds a lock on its SQLite database for the server's life (filelock: flock on
Linux and macOS, msvcrt on Windows, released by the system however the process ends), so a second server on the
same database, which would split the live updates between the two, stops at once with one sentence. PostgreSQL
shares live updates between servers (LISTEN/NOTIFY), so it takes no lock.
"""

from __future__ import annotations

import getpass
import os
import secrets
import subprocess
import sys
from pathlib import Path

from filelock import FileLock, Timeout
from sqlalchemy.engine import make_url


class PrivateFolderError(RuntimeError):
    """A folder could not be made this user's alone: nothing secret is written in it."""


class ServedElsewhere(RuntimeError):
    """Another firestep server holds this database: the message is the one sentence saying what to do."""


def private_folder(folder: Path) -> None:
    """The folder, made if need be, that only this user may open. Windows has no file modes (chmod sets only
    the read-only flag): the folder's access list is replaced by one entry, full control for this user,
    inherited by every file made in it, so a file written there is this user's alone from its first byte."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if sys.platform != "win32":
        folder.chmod(0o700)
        return
    user = os.environ.get("USERNAME") or getpass.getuser()
    domain = os.environ.get("USERDOMAIN")
    who = f"{domain}\\{user}" if domain else user
    command = ["icacls", str(folder), "/inheritance:r", "/grant:r", f"{who}:(OI)(CI)F"]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        said = (getattr(e, "stderr", None) or getattr(e, "stdout", None) or str(e)).strip()
        raise PrivateFolderError(
            f"could not make {folder} readable by {who} only ({said}): set FIRESTEP_VAR_DIR to a folder in "
            "your own user profile and start again"
        ) from None


def write_private(path: Path, data: bytes, *, replace: bool = True) -> None:
    """A file readable by its owner only, from its first byte (never briefly world-readable; on Windows the
    folder's access list sees to that, see private_folder), written whole or not at all: a temporary file
    beside it, flushed to the disk, then renamed to it, so a full disk leaves no empty or half-written file.
    With `replace` False a file already there is kept (FileExistsError): two first writers agree on one."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    if sys.platform != "win32":  # the rename itself on the disk too (Windows cannot open a folder to sync)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _link_new(tmp: Path, path: Path) -> None:
    """`tmp` as `path`, refusing a file already there (FileExistsError), where a rename would replace it: a
    hard link, or on a file system without them (FAT, some network shares) a rename if nothing is there yet."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:
        if path.exists():
            raise FileExistsError(path) from None
        os.replace(tmp, path)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL; None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def private_database(url: str) -> None:
    """A SQLite database's file made owner-only before SQLite opens it (SQLite gives its -wal and -shm files
    the database file's mode), and an older install's files made so. A folder firestep makes for it is private;
    one that exists is the user's own choice, left as it is. Nothing for PostgreSQL (the server's files)."""
    path = sqlite_file(url)
    if path is None:
        return
    if not path.parent.exists():
        private_folder(path.parent)
    if sys.platform == "win32":  # no modes: the data folder's access list covers the files made in it
        path.touch(exist_ok=True)
        return
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for made in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if made.exists():
            made.chmod(0o600)


def hold_database(url: str) -> FileLock | None:
    """This server's lock on its SQLite database, held until the process ends (keep the answer referenced):
    ServedElsewhere when another server holds it. None for PostgreSQL, which servers share."""
    path = sqlite_file(url)
    if path is None:
        return None
    private_database(url)
    lock = FileLock(path.with_name(path.name + ".lock"), timeout=0, mode=0o600)
    try:
        lock.acquire()
    except Timeout:
        raise ServedElsewhere(
            f"Another firestep server is already serving {path}: use that one, or stop it and start again."
        ) from None
    return lock


VERSION_FILE = "firestep-version"


def running_version() -> str:
    """This firestep's version (setup.py: 0.1.N, N its commits), or "unknown" for a copy run uninstalled."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("firestep")
    except PackageNotFoundError:
        return "unknown"


def record_version(var: Path, now: str) -> str | None:
    """Mark the data folder as migrated by firestep `now`; the version that had marked it before, or None for a
    folder none had (a new one, or one kept by a firestep before the mark: 0.1.0, whose every build was)."""
    path = var / VERSION_FILE
    try:
        before: str | None = path.read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        before = None
    if before != now:
        if not var.exists():
            private_folder(var)
        write_private(path, f"{now}\n".encode())
    return before
