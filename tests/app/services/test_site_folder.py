"""A static site written into a folder of its own (issue 91; app/services/site_folder.py): a new folder made its
own, the manifest's files alone removed (another's folder refused: tests/app/league/test_league_site.py)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

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
