"""Printed sheets kept on disk, in the data folder (issue 91): a sheet once rendered is a file read for every
process and start after, whoever asks. Each under its key's digest (app.services.sheets keys a sheet by what it
is made of) in a folder of its version (`release`: a new one's first write removes the older folders). A file
holds the body's SHA-256 and then the body: one whose digest does not match (cut short, corrupt) is never served,
but removed. Written whole or not at all (a temporary file in the same folder, then os.replace: another process
may read it meanwhile). Bounded: past `most_files` files or `most_bytes` bytes the least recently read go. A
disk that cannot take a sheet (full, read-only) only means the next process renders it again."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Hashable
from pathlib import Path

MOST_FILES = 1000
MOST_BYTES = 256 * 1024 * 1024  # a sheet is 50-500 kB
DIGEST = 32  # bytes of SHA-256 before the body
STALE_PART_SECONDS = 600  # a temporary file a write that died left behind


class Kept:
    """The sheets of one version kept in `folder`."""

    def __init__(
        self, folder: Path, version: str, most_files: int = MOST_FILES, most_bytes: int = MOST_BYTES
    ) -> None:
        self.folder = folder
        self.here = folder / version
        self.most_files = most_files
        self.most_bytes = most_bytes

    def path(self, key: Hashable) -> Path:
        return self.here / f"{hashlib.sha256(repr(key).encode()).hexdigest()[:32]}.pdf"

    def get(self, key: Hashable) -> bytes | None:
        """The sheet kept under `key`, whole, or None (never kept, dropped, or not whole: then removed)."""
        path = self.path(key)
        try:
            held = path.read_bytes()
        except OSError:
            return None
        body = held[DIGEST:]
        if len(held) <= DIGEST or hashlib.sha256(body).digest() != held[:DIGEST]:
            path.unlink(missing_ok=True)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # read last: dropped last
        return body

    def put(self, key: Hashable, made: bytes) -> None:
        try:
            if not self.here.exists():
                for old in self.folder.glob("*"):  # an earlier version's sheets
                    if old.is_dir():
                        shutil.rmtree(old, ignore_errors=True)
                self.here.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.here, suffix=".part", delete=False) as part:
                try:
                    part.write(hashlib.sha256(made).digest() + made)
                except OSError:  # a full disk: no part left to keep it full
                    Path(part.name).unlink(missing_ok=True)
                    raise
            os.replace(part.name, self.path(key))
        except OSError:
            return
        self._trim()

    def _trim(self) -> None:
        """Within the bounds: the least recently read removed first; a write's leftover part too."""
        files: list[tuple[float, int, Path]] = []
        now = time.time()
        try:
            entries = list(os.scandir(self.here))
        except OSError:
            return
        for entry in entries:
            try:  # an entry that is no file of ours (a link, a folder) or gone meanwhile: passed over, not a stop
                if not entry.is_file(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
                if entry.name.endswith(".part"):
                    if now - info.st_mtime > STALE_PART_SECONDS:
                        Path(entry.path).unlink(missing_ok=True)
                elif entry.name.endswith(".pdf"):
                    files.append((info.st_mtime, info.st_size, Path(entry.path)))
            except OSError:
                continue
        files.sort(key=lambda f: f[0])
        held = sum(size for _, size, _ in files)
        while files and (len(files) > self.most_files or held > self.most_bytes):
            _, size, path = files.pop(0)
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            held -= size
