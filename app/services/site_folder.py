"""A static site written into a folder of its own (issue 91; `firestep league publish`, app.services.league_site).

The folder is the site's once firestep has published into it: a manifest, MANIFEST, names every file it wrote
with its bytes' sha256, its size and its key (what it was made from: the same key, the same bytes). A folder
that holds anything (a desktop's leftovers aside) but no manifest of firestep's is another's: refused in one
sentence, nothing in it touched. Into its own folder, a publish writes only what changed: a file whose key and
size are the manifest's is kept without being made again; one made again is written only when its bytes
differ; a file the manifest names that the site no longer has is removed, and nothing the manifest does not
name is.

Each file is written whole or not at all: into a temp file beside it, then `os.replace`d over the old one, so a
reader (a host serving the folder meanwhile, a publish interrupted) sees the old bytes or the new, never half.
Before any file is written, the manifest names every file about to be written with no hash (its bytes
unknown): a publish stopped half-way (a full disk) leaves a folder the next publish knows as its own and makes
again what it may not have finished. A full disk, a quota or a file over the system's size limit is said in one
sentence (`NotWritten`), the temp file removed.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import Any

from pydantic import JsonValue

MANIFEST = ".firestep-site.json"
DESKTOP_LEFTOVERS = frozenset(
    {".DS_Store", "Thumbs.db", "desktop.ini"}
)  # left by macOS's and Windows' desktops
FORMAT = "firestep-site/1"
Memo = dict[str, JsonValue]  # what the site's maker keeps in the manifest for its next publish (JSON)
Entry = tuple[str | None, int, str | None]  # the bytes' sha256 (None: unknown), their size, the file's key
_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


class NotWritten(Exception):
    """The folder is not firestep's, or the disk refused a file: said in one sentence, nothing half-written."""


@dataclass(frozen=True)
class File:
    """A file of the site: its key (None: made at every publish, then compared) and how its bytes are made."""

    key: str | None
    make: Callable[[], bytes]


@dataclass
class Published:
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    made: list[str] = field(default_factory=list)  # made again (rendered): their key was not the manifest's


def manifest(out: Path) -> dict[str, Entry] | None:
    """The files firestep wrote into `out` as its manifest names them; None for a folder of another's (it holds
    anything but no manifest of firestep's); {} for a folder that is missing or empty."""
    kept = _kept(out)
    return None if kept is None else kept[0]


def memo(out: Path) -> Memo:
    """What the site's maker kept in the manifest at the last publish into `out` ({}: none); another's folder
    refused (NotWritten), before any site is made for it."""
    kept = _kept(out)
    if kept is None:
        raise _foreign(out)
    return kept[1]


def _foreign(out: Path) -> NotWritten:
    return NotWritten(
        f"{_name(out)} is not a folder firestep published (no {MANIFEST}): give a new or empty one"
    )


def _kept(out: Path) -> tuple[dict[str, Entry], Memo] | None:
    try:
        entries = os.scandir(out)
    except FileNotFoundError:
        return {}, {}
    except NotADirectoryError:
        raise NotWritten(f"{_name(out)} is a file, not a folder: give a folder to publish into") from None
    with entries:
        # A folder holding only what a desktop leaves in every folder it shows (Finder's .DS_Store) is empty.
        if all(entry.name in DESKTOP_LEFTOVERS for entry in entries):
            return {}, {}
    try:
        kept = json.loads(_manifest_bytes(out / MANIFEST))
        if kept.get("format") == FORMAT:
            memo = kept.get("memo")
            files = {p: _entry(p, e) for p, e in kept["files"].items()}
            return files, memo if isinstance(memo, dict) else {}
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        pass
    return None


MANIFEST_BYTES = 64 * 1024 * 1024  # a league at its limit writes some 6 MB: a larger one is not firestep's
# A path as the site names its files: folders and names of letters, digits, dots, hyphens and underscores, none
# a dot or two alone (nothing outside the folder, nothing absolute).
_PATH = re.compile(r"(?!.*(?:^|/)\.{1,2}(?:/|$))[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)*")


def _manifest_bytes(at: Path) -> bytes:
    """The manifest's bytes: a regular file of at most MANIFEST_BYTES, not followed through a link (a link to
    /dev/zero or a pipe would never end)."""
    fd = os.open(at, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > MANIFEST_BYTES:
            raise ValueError("not a manifest of firestep's")
        return f.read(MANIFEST_BYTES + 1)


def _entry(path: str, e: Any) -> Entry:
    """A manifest's entry as firestep writes it: its path the site's own shape (a forged one naming a file
    outside the folder would have a publish remove it), its hash and key texts, its size a file's."""
    if not _PATH.fullmatch(path) or path == MANIFEST:
        raise ValueError(f"not a path of the site's: {path!r}")
    digest, size, key = e
    if not (digest is None or isinstance(digest, str)) or not (key is None or isinstance(key, str)):
        raise TypeError("an entry's hash and key are texts")
    if not isinstance(size, int) or isinstance(size, bool) or not -1 <= size < 2**40:
        raise TypeError("an entry's size is a file's")
    return digest, size, key


def publish(files: dict[str, File], out: Path, memo: Memo | None = None) -> Published:
    """`files` written into `out`, a folder of firestep's or a new one (the module's docstring); `memo` kept in
    its manifest for the next publish (`memo`)."""
    kept = _kept(out)
    if kept is None:
        raise _foreign(out)
    before, memo_before = kept
    memo = {} if memo is None else memo
    done = Published()
    after: dict[str, Entry] = {}
    changed: dict[str, bytes] = {}
    # Each file's size read by its path as text: a Path made for each of 23,000 files was a tenth of a kept publish.
    root = os.fspath(out)
    for path, file in sorted(files.items()):
        old = before.get(path)
        size = _size(os.path.join(root, path))
        if old is not None and old[2] is not None and old[2] == file.key and old[1] == size:
            after[path] = old
            done.kept.append(path)
            continue
        data = file.make()
        done.made.append(path)
        digest = sha256(data).hexdigest()
        if old is not None and old[0] == digest and size == len(data):
            after[path] = (digest, len(data), file.key)
            done.kept.append(path)
            continue
        changed[path] = data
        after[path] = (digest, len(data), file.key)
    gone = sorted(set(before) - set(files))
    if not changed and not gone and after == before and memo == memo_before:
        return done
    at = out / MANIFEST
    try:
        out.mkdir(parents=True, exist_ok=True)
        inside = _inside(out)
        # Every file about to change named first with no hash: a publish stopped now is known as ours.
        _write(at, _manifest({**before, **{p: (None, -1, None) for p in changed}}, memo_before))
        for path, data in changed.items():
            at = out / path
            at.parent.mkdir(parents=True, exist_ok=True)
            inside(at)
            _write(at, data)
            done.written.append(path)
        for path in gone:
            at = out / path
            inside(at)
            if not at.is_dir() or at.is_symlink():  # a folder is never the site's file: left, and forgotten
                at.unlink(missing_ok=True)
            done.removed.append(path)
        at = out / MANIFEST
        _write(at, _manifest(after, memo))
    except OSError as e:
        raise NotWritten(_refused(e, at)) from None
    return done


def _size(target: str) -> int:
    try:
        return os.stat(target).st_size
    except OSError:
        return -1


def _manifest(files: dict[str, Entry], memo: Memo) -> bytes:
    kept = {"format": FORMAT, "files": files, "memo": memo}
    return json.dumps(kept, separators=(",", ":"), sort_keys=True).encode()


def _inside(out: Path) -> Callable[[Path], None]:
    """A check that a file's folder is `out` or a folder in it, links resolved: a link planted in the folder
    (games -> elsewhere) is not written through nor removed through (`out` itself may be a link)."""
    root = out.resolve()
    checked: set[Path] = set()  # the folders found inside: a whole league's 23,000 files are in a few

    def inside(at: Path) -> None:
        if at.parent in checked:
            return
        folder = at.parent.resolve()
        if folder != root and root not in folder.parents:
            raise OSError(errno.EXDEV, "A link leads out of the folder", str(at))
        checked.add(at.parent)

    return inside


def _write(target: Path, data: bytes) -> None:
    """`data` into `target` whole or not at all: a temp file of its own beside it (made new, never a file or
    link already there), then replaced over it."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temp, 0o644)  # a site's file, read by the host that serves it (mkstemp makes it 0600)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _name(out: Path) -> str:
    text = str(out)
    return text if len(text) <= 30 else "…" + text[-29:]


def _refused(e: OSError, at: Path) -> str:
    """What the disk refused writing `at`, in one sentence of at most 120 characters."""
    where = _name(at)
    if e.errno in _FULL:
        return f"The disk is full: {where} was not written (no file half-written); free space, publish again."
    if e.errno == errno.EXDEV:
        return f"{where} is reached by a link leading out of the folder: remove the link, then publish again."
    if e.errno == errno.EFBIG:
        return f"{where} is over the size the system lets a file be (ulimit -f): not written; publish again."
    return f"{e.strerror or 'Refused'}: {where}; nothing half-written, publish again once it is writable."
