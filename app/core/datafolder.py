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

import ipaddress
import os
import re
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import IO

from filelock import FileLock, Timeout
from sqlalchemy.engine import make_url

from app.core.platform import PrivateFolderError as PrivateFolderError  # raised by private_folder
from app.core.platform import create_owner_only, owner_only, private_folder, sync_folder


class ServedElsewhere(RuntimeError):
    """Another firestep server holds this database: the message is the one sentence saying what to do."""


def write_private(
    path: Path, data: bytes | IO[bytes] | Callable[[IO[bytes]], None], *, replace: bool = True
) -> None:
    """A file readable by its owner only, from its first byte (never briefly world-readable; on Windows the
    folder's access list sees to that, see private_folder), written whole or not at all: a temporary file
    beside it, flushed to the disk, then renamed to it, so a full disk leaves no empty or half-written file.
    With `replace` False a file already there is kept (FileExistsError): two first writers agree on one.
    `data` the bytes, or a file read to its end a piece at a time (a restored database: never whole in memory),
    or a function writing the file it is given (a backup's zip, its database zipped a piece at a time)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, bytes):
                f.write(data)
            elif callable(data):
                data(f)
            else:
                shutil.copyfileobj(data, f)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    sync_folder(path.parent)  # the rename itself on the disk too


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
    create_owner_only(path)
    for made in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if made.exists():
            owner_only(made)


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


# What a version file may hold (0.1.N, or "unknown" for a copy run uninstalled): anything else is not read as one.
_VERSION = re.compile(r"[0-9A-Za-z.+-]{1,40}")


def _said_in(path: Path, most: int) -> str | None:
    """What a data folder's small file of its own says: read only from a plain file (not a link, a pipe or a
    device, which could hang the start or read another file), its first `most` bytes as ASCII; None else."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with path.open("rb") as f:
            return f.read(most).decode("ascii", errors="replace").strip()
    except OSError:
        return None


def _version_in(path: Path) -> str | None:
    """The version a data folder's file names, or None where it names none: its first 64 bytes, and only a
    version's characters (nothing a terminal would act on is echoed)."""
    said = _said_in(path, 64)
    return said if said is not None and _VERSION.fullmatch(said) else None


def record_version(var: Path, now: str) -> str | None:
    """Mark the data folder as migrated by firestep `now`; the version that had marked it before, or None for a
    folder none had (a new one, or one kept by a firestep before the mark: 0.1.0, whose every build was)."""
    path = var / VERSION_FILE
    before = _version_in(path)
    if before != now:
        if not var.exists():
            private_folder(var)
        write_private(path, f"{now}\n".encode())
    return before


ADDRESS_FILE = "firestep-address"
# What an address file may hold: the address a server printed (http or https, a host name or an address, a port).
_ADDRESS = re.compile(r"https?://(\[[0-9A-Fa-f:.]{2,45}\]|[0-9A-Za-z.-]{1,253}):([0-9]{1,5})/")
_LABEL = r"[0-9A-Za-z](?:[0-9A-Za-z-]{0,61}[0-9A-Za-z])?"
_HOST = re.compile(rf"(?:{_LABEL}\.)*{_LABEL}")  # a name's labels (an IPv4 address is one too)


def _is_address(said: str) -> bool:
    """Whether `said` is an address a server could have printed: its host a name or an IPv6 address, its port
    1-65535 (the hostile pass of session 18: "http://-:1/" and port 99999 were taken)."""
    found = _ADDRESS.fullmatch(said)
    if found is None or not 1 <= int(found[2]) <= 65535:
        return False
    host = found[1]
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return True
    return _HOST.fullmatch(host) is not None


def record_address(var: Path, address: str) -> None:
    """The address this data folder's server serves at, for `firestep credentials` (another process, which
    printed the configured port, 8000, under a server started with --port 8080: the newcomer's pass of session
    17)."""
    if not var.exists():
        private_folder(var)
    write_private(var / ADDRESS_FILE, f"{address}\n".encode())


def served_address(var: Path) -> str | None:
    """The address the data folder's last server served at, None where none is recorded (read as a version
    file is: a plain file's first bytes, only an address's characters)."""
    said = _said_in(var / ADDRESS_FILE, 300)
    return said if said is not None and _is_address(said) else None


def unusable(error: OSError, var_dir: Path | None, database_url: str | None) -> str | None:
    """A folder or file of firestep's own the system would not make or write (the data folder, a SQLite
    database or its folder elsewhere: one under a file, in /proc, on a read-only disk, a folder where the file
    should be) in one sentence naming the setting to change; None for any other path. `firestep serve` says it
    of the error the system gave (app.cli_mistakes), `firestep doctor` of the one it foresees (app.doctor)."""
    path = Path(os.fsdecode(error.filename)).absolute()
    database = sqlite_file(database_url) if database_url else None
    if database is not None and path == database.absolute():  # the URL names what cannot be a database
        return (
            f"The database {path} cannot be opened ({error.strerror}): set FIRESTEP_DATABASE_URL to a file in a "
            "folder of your own and start again."
        )
    folders = {}
    if var_dir is not None:
        folders[var_dir.absolute()] = ("The data folder", "FIRESTEP_VAR_DIR to a folder")
    if database is not None:
        folders.setdefault(
            database.absolute().parent,
            ("The database's folder", "FIRESTEP_DATABASE_URL to a file in a folder"),
        )
    for folder, (what, setting) in sorted(folders.items(), key=lambda f: -len(f[0].parts)):  # nearest first
        made = path == folder or path in folder.parents  # it, or a folder above it, could not be made
        if made or folder in path.parents:
            return (
                f"{what} {folder} cannot be {'made' if made else 'written'} ({error.strerror} at {path}): set "
                f"{setting} of your own and start again."
            )
    return None
