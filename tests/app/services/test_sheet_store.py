"""The sheets kept on disk (app.services.sheet_store, issue 91): a version's own, whole or not at all, bounded."""

from __future__ import annotations

import os
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
