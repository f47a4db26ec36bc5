"""A static site written into a folder of its own (issue 91; app/services/site_folder.py): a new folder made its
own, the manifest's files alone removed (another's folder refused: tests/app/league/test_league_site.py)."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

import pytest

from app.services import site_folder


def files(**pages: bytes) -> dict[str, site_folder.File]:
    """Each page named as a keyword: `games__a_html` is games/a.html."""
    named = {path.replace("__", "/").replace("_", "."): data for path, data in pages.items()}
    return {path: site_folder.File(None, partial(bytes, data)) for path, data in named.items()}


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_its_own_folder_again_only_its_files_removed_and_a_new_folder_is_its_own(tmp_path: Path) -> None:
    out = tmp_path / "new" / "site"  # missing: made
    first = site_folder.publish(files(index_html=b"v1", games__a_html=b"a", games__b_html=b"b"), out)
    assert sorted(first.written) == ["games/a.html", "games/b.html", "index.html"]
    (out / "games" / "hosts.html").write_text("the host's")  # added beside the site's files: not the site's
    again = site_folder.publish(files(index_html=b"v2", games__a_html=b"a"), out)
    assert (again.written, again.removed, again.kept) == (["index.html"], ["games/b.html"], ["games/a.html"])
    assert tree(out) == {
        ".firestep-site.json": (out / ".firestep-site.json").read_bytes(),
        "games/a.html": b"a",
        "games/hosts.html": b"the host's",
        "index.html": b"v2",
    }
    (tmp_path / "empty").mkdir()
    assert site_folder.publish(files(index_html=b"x"), tmp_path / "empty").written == ["index.html"]


def _forge(out: Path, **files: list[object]) -> None:
    """Entries written into the folder's manifest by someone who can write the folder (a shared web folder)."""
    at = out / site_folder.MANIFEST
    kept = json.loads(at.read_bytes())
    kept["files"].update(files)
    at.write_text(json.dumps(kept))


def test_a_manifest_naming_a_file_outside_the_folder_is_not_firestep_s_and_nothing_outside_is_touched(
    tmp_path: Path,
) -> None:
    """The hostile pass: a manifest forged to name ../victim or an absolute path had publish remove those files."""
    out, victim = tmp_path / "site", tmp_path / "victim"
    site_folder.publish(files(index_html=b"v1"), out)
    victim.write_text("not the site's")
    for forged in ("../victim", str(victim)):
        _forge(out, **{forged: ["x", 14, "k"]})
        with pytest.raises(site_folder.NotWritten, match="not a folder firestep published"):
            site_folder.publish(files(index_html=b"v2"), out)
        assert victim.read_text() == "not the site's"
        site_folder_manifest = json.loads((out / site_folder.MANIFEST).read_bytes())
        del site_folder_manifest["files"][forged]
        (out / site_folder.MANIFEST).write_text(json.dumps(site_folder_manifest))


@pytest.mark.parametrize(
    "written",
    [
        '{"format":"firestep-site/1","files":{"index.html":[1,1e400,2]}}',  # an overflowing size
        "[" * 200_000,  # nested past the parser's depth
    ],
)
def test_a_malformed_manifest_is_a_folder_not_firestep_s_in_one_sentence(
    tmp_path: Path, written: str
) -> None:
    out = tmp_path / "site"
    site_folder.publish(files(index_html=b"v1"), out)
    (out / site_folder.MANIFEST).write_text(written)
    with pytest.raises(site_folder.NotWritten, match="not a folder firestep published"):
        site_folder.publish(files(index_html=b"v2"), out)


def test_a_manifest_that_is_a_link_or_a_pipe_is_not_read_through(tmp_path: Path) -> None:
    """A link to /dev/zero read for ever, a named pipe waited for ever (the hostile pass)."""
    for made in ("link", "pipe"):
        out = tmp_path / made
        site_folder.publish(files(index_html=b"v1"), out)
        (out / site_folder.MANIFEST).unlink()
        if made == "link":
            (out / site_folder.MANIFEST).symlink_to("/dev/zero")
        else:
            os.mkfifo(out / site_folder.MANIFEST)
        with pytest.raises(site_folder.NotWritten, match="not a folder firestep published"):
            site_folder.publish(files(index_html=b"v2"), out)


def test_a_link_planted_in_the_folder_is_not_written_through(tmp_path: Path) -> None:
    """The hostile pass: links at a file's temp names overwrote the file they led to; a folder linked out of
    the site (games -> elsewhere) had the site's games written there."""
    out, victim, elsewhere = tmp_path / "site", tmp_path / "victim", tmp_path / "elsewhere"
    site_folder.publish(files(index_html=b"v1", games__a_html=b"a"), out)
    victim.write_text("not the site's")
    for pid in range(os.getpid() - 50, os.getpid() + 50):
        (out / f".index.html.{pid}.tmp").symlink_to(victim)
    site_folder.publish(files(index_html=b"v2", games__a_html=b"a"), out)
    assert victim.read_text() == "not the site's" and (out / "index.html").read_bytes() == b"v2"
    assert not (out / "index.html").is_symlink()
    elsewhere.mkdir()
    for kept in (out / "games").iterdir():
        kept.unlink()
    (out / "games").rmdir()
    (out / "games").symlink_to(elsewhere)
    with pytest.raises(site_folder.NotWritten, match="a link leading out of the folder"):
        site_folder.publish(files(index_html=b"v3", games__b_html=b"b"), out)
    assert list(elsewhere.iterdir()) == []


def test_a_folder_holding_only_a_desktop_s_leftovers_is_empty(tmp_path: Path) -> None:
    """The newcomer pass: a new folder a Mac's Finder had opened (.DS_Store in it) was refused as another's."""
    out = tmp_path / "site"
    out.mkdir()
    (out / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    assert site_folder.publish(files(index_html=b"v1"), out).written == ["index.html"]
    assert (out / ".DS_Store").read_bytes() == b"\x00\x00\x00\x01Bud1"  # left as it was
    (tmp_path / "hosts").mkdir()
    (tmp_path / "hosts" / ".DS_Store").write_bytes(b"x")
    (tmp_path / "hosts" / "index.html").write_text("the host's")
    with pytest.raises(site_folder.NotWritten, match="not a folder firestep published"):
        site_folder.publish(files(index_html=b"v1"), tmp_path / "hosts")
