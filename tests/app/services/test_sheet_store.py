"""The sheets kept on disk (app.services.sheet_store, issue 91): a version's own, whole or not at all, bounded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.services.sheet_store import Kept

SHEET = b"%PDF-1.7 a sheet %%EOF"


def test_a_version_change_renders_anew_and_drops_the_older_sheets(tmp_path: Path) -> None:
    Kept(tmp_path, "1").put(("html", "a"), SHEET)
    assert Kept(tmp_path, "1").get(("html", "a")) == SHEET
    newer = Kept(tmp_path, "2")
    assert newer.get(("html", "a")) is None  # not served: the caller renders it anew
    newer.put(("html", "a"), SHEET + b" anew")
    assert newer.get(("html", "a")) == SHEET + b" anew"
    assert [p.name for p in tmp_path.iterdir()] == ["2"]


def test_a_partial_or_corrupt_file_is_never_served(tmp_path: Path) -> None:
    kept = Kept(tmp_path, "1")
    kept.put("cut", SHEET)
    kept.put("flipped", SHEET)
    cut, flipped = kept.path("cut"), kept.path("flipped")
    cut.write_bytes(cut.read_bytes()[:-3])
    held = bytearray(flipped.read_bytes())
    held[-5] ^= 1
    flipped.write_bytes(bytes(held))
    assert kept.get("cut") is None and kept.get("flipped") is None
    assert not cut.exists() and not flipped.exists()  # removed: the next render writes it whole


def test_the_folder_is_bounded_the_least_recently_read_dropped(tmp_path: Path) -> None:
    kept = Kept(tmp_path, "1", most_files=3)
    for n in range(3):
        kept.put(n, SHEET)
        os.utime(kept.path(n), (1000 + n, 1000 + n))  # a second apart: a file system's times may be coarse
    assert kept.get(0) == SHEET  # read: now the most recent
    kept.put(3, SHEET)
    assert [n for n in range(4) if kept.path(n).exists()] == [0, 2, 3]
    small = Kept(tmp_path, "1", most_bytes=2 * (len(SHEET) + 32))
    small.put(4, SHEET)
    assert len(list((tmp_path / "1").glob("*.pdf"))) == 2


def test_a_link_or_a_folder_in_the_store_does_not_stop_its_bounds(tmp_path: Path) -> None:
    """The hostile pass: a dangling link or a folder named like a sheet made every trim stop, so the cap held no
    more (120 kB kept against 50 kB)."""
    kept = Kept(tmp_path, "1", most_bytes=50_000)
    kept.put("first", SHEET)
    (kept.here / "deadbeef.pdf").symlink_to(tmp_path / "nowhere")
    (kept.here / "folder.pdf").mkdir()
    for n in range(5):
        kept.put(n, b"x" * 20_000)
    held = sum(p.stat().st_size for p in kept.here.iterdir() if p.is_file() and not p.is_symlink())
    assert held <= 50_000


def test_a_write_the_disk_refuses_leaves_no_part_behind(tmp_path: Path) -> None:
    """A full disk (here the system's size limit, RLIMIT_FSIZE, in a child process): the part written so far
    is removed, not left to keep the disk full."""
    script = (
        "import resource, signal, sys; from pathlib import Path; from app.services.sheet_store import Kept;"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000));"
        f"Kept(Path({str(tmp_path)!r}), '1').put('big', b'x' * 50000)"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).parents[3])
    assert [p.name for p in (tmp_path / "1").iterdir()] == []
