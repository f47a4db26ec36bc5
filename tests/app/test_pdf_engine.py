"""Issue 58: no PDF dead end. Without the PDF engine (WeasyPrint failing to load Pango, as on Windows without
MSYS2's Pango or a Mac without Homebrew's), the server starts with one sentence naming the remedy, the Print
menu offers each sheet's print view on A4 and Letter, every `.pdf` answers 503 in the refusal shape naming the
remedy and the print view, and `firestep playsheet` stops with the sentence, no traceback.

The engine is hidden as a laptop without Pango hides it: cffi's dlopen finds no library, so the real `import
weasyprint` fails with the OSError it raises there."""

from __future__ import annotations

import html
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import app as cli
from app.core import pdf_engine
from app.errors import is_one_sentence
from tests import csrf
from tests.app.games.conftest import new_game, start_game
from tests.conftest import _sqlite_clone, make_client
from tests.frontend.test_print_menu_http import print_links

WEASYPRINT = "weasyprint"


def _weasyprint_modules() -> dict[str, ModuleType]:
    return {k: m for k, m in sys.modules.items() if k == WEASYPRINT or k.startswith(WEASYPRINT + ".")}


@pytest.fixture
def no_pdf_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """WeasyPrint as it loads without Pango: every library cffi is asked to open is missing. Yields the loading
    error. The modules loaded before are put back after, and the check is made anew."""
    import cffi

    def dlopen(self: object, name: str, flags: int = 0) -> object:
        raise OSError(f"cannot load library {name!r}: {name}: cannot open shared object file: No such file")

    loaded = _weasyprint_modules()
    for name in loaded:
        del sys.modules[name]
    monkeypatch.setattr(cffi.FFI, "dlopen", dlopen)
    pdf_engine.forget()
    try:
        yield pdf_engine.problem_sentence()
    finally:
        for name in _weasyprint_modules():
            del sys.modules[name]
        sys.modules.update(loaded)
        pdf_engine.forget()


def test_the_engine_loads_here_and_each_systems_remedy_is_one_sentence() -> None:
    assert pdf_engine.pdf_engine_problem() is None and pdf_engine.pdf_engine_error() is None
    for platform, remedy in [
        ("win32", "pacman -S mingw-w64-ucrt-x86_64-pango"),
        ("darwin", "brew install pango"),
        ("linux", "apt install libpangoft2-1.0-0"),
    ]:
        said = pdf_engine.problem_sentence(platform)
        assert is_one_sentence(said) and remedy in said, (platform, len(said), said)


def test_without_the_engine_the_server_warns_offers_print_views_and_refuses_pdfs(
    no_pdf_engine: str, sqlite_template: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert pdf_engine.pdf_engine_problem() == no_pdf_engine
    assert "cannot load library" in (pdf_engine.pdf_engine_error() or "")
    caplog.set_level(logging.WARNING, logger="firestep")
    with make_client(_sqlite_clone(sqlite_template, tmp_path), tmp_path) as c:
        # The start: the one sentence, once, and the server serves.
        assert [r.getMessage() for r in caplog.records if r.name == "firestep"] == [no_pdf_engine]
        assert c.get("/healthz").status_code == 200
        _print_views_and_refusals(c, no_pdf_engine)


def _print_views_and_refusals(c: TestClient, sentence: str) -> None:
    g = new_game(c)
    start_game(c, g)
    c.cookies.set("firestep_token", g.referee["Authorization"].removeprefix("Bearer "))
    menu = c.get(f"/games/{g.id}/referee")
    assert sentence in html.unescape(menu.text)  # the menu says why, and what to do
    lookups = ("/lookup/flanders-fields/order-roll", "/lookup?ruleset=2mm-earth-1418")
    links = print_links(menu.text).union(*(print_links(c.get(u).text) for u in lookups))
    assert links and not [h for h in links if ".pdf" in h], sorted(links)
    # Every sheet the menu offers with a PDF, on both papers; the join cards as their page.
    for base in [
        f"/playsheets/games/{g.id}",
        f"/playsheets/games/{g.id}/fire-plan/attacker",
        f"/playsheets/games/{g.id}/fire-plan/defender",
        f"/playsheets/games/{g.id}/aiming-points",
        "/api/v1/scenarios/mons-1914/sheet",
        "/playsheets/early",
        "/playsheets/mid",
        "/playsheets/late",
        "/playsheets/aiming-points",
        "/playsheets/fire-plan/attacker",
        "/playsheets/fire-plan/defender",
        "/playsheets/template-kit",
        "/playsheets/rulesets/2mm-earth-1418",
    ]:
        for paper in ("a4", "letter"):
            assert f"{base}?paper={paper}" in links, (base, paper)
            view = c.get(f"{base}?paper={paper}")
            assert view.status_code == 200 and view.headers["content-type"].startswith("text/html"), base
        refused = c.get(f"{base}.pdf?paper=letter")
        assert refused.status_code == 503, (base, refused.status_code)
        body = refused.json()
        assert body["detail"] == sentence and is_one_sentence(body["detail"]), body
        assert body["print_view"] == f"{base}?paper=letter" and "cannot load library" in body["why"], body
    # A browser that opens a `.pdf` address itself gets a page: the sentence, and the print view one tap away.
    opened = c.get("/playsheets/late.pdf?paper=a4", headers={"Accept": "text/html,application/xhtml+xml"})
    assert opened.status_code == 503 and opened.headers["content-type"].startswith("text/html"), opened.text
    assert sentence in html.unescape(opened.text) and 'href="/playsheets/late?paper=a4"' in opened.text
    # The API's own .pdf (a scenario's sheet, which the scenario editor opens in a tab) answers its JSON refusal.
    api_pdf = c.get(
        "/api/v1/scenarios/mons-1914/sheet.pdf", headers={"Accept": "text/html", "Sec-Fetch-Mode": "navigate"}
    )
    assert api_pdf.status_code == 503 and api_pdf.json()["print_view"] == "/api/v1/scenarios/mons-1914/sheet"
    assert f"/games/{g.id}/join-cards" in links
    assert c.get(f"/games/{g.id}/join-cards").status_code == 200
    # The join cards' PDF: refused before any new code is made.
    before = c.get(f"/games/{g.id}/join-cards").text
    cards = c.post(f"/games/{g.id}/join-cards.pdf", data=csrf.form(c))
    assert cards.status_code == 503 and cards.json()["detail"] == sentence
    assert cards.json()["print_view"] == f"/games/{g.id}/join-cards"
    assert c.get(f"/games/{g.id}/join-cards").text == before
    # The scenario editor's "Print the sheet" opens the print view.
    assert 'data-print-sheet="view"' in c.get("/scenarios/new?ruleset=flanders-fields").text


@pytest.mark.parametrize("command", [["playsheet", "--period", "mid"], ["template-kit"]])
def test_without_the_engine_the_pdf_commands_stop_naming_the_remedy(
    no_pdf_engine: str, tmp_path: Path, command: list[str]
) -> None:
    out = tmp_path / "sheet.pdf"
    result = CliRunner().invoke(cli, [*command, "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert result.output.strip() == no_pdf_engine
    assert "Traceback" not in result.output and not out.exists()


def _warmed_here() -> tuple[bool, int, bool]:
    """In the worker: WeasyPrint imported, how many times the warm ran there, and what it found."""
    from app.services import sheets

    return WEASYPRINT in sys.modules, sheets.warm.cache_info().currsize, sheets.warm()


def test_the_servers_start_warms_the_pdf_engine_in_its_worker() -> None:
    """Issue 68: the first PDF after a start took 5-11 s. The server's start (app.cli._start_worker, which
    `serve` and `serve --club` call before uvicorn starts) has the worker load WeasyPrint and lay out a page in
    the sheets' faces as its first job, without waiting for it: the next job finds the engine loaded."""
    from app.cli import _start_worker
    from app.core import worker

    worker.stop_worker()  # a worker of this process's other tests may hold the engine already
    _start_worker()
    try:
        assert worker.submit(_warmed_here) == (True, 1, True)
    finally:
        worker.stop_worker()


def test_without_the_engine_the_warm_does_nothing_and_fails_nothing(no_pdf_engine: str) -> None:
    from app.services import sheets

    sheets.warm.cache_clear()
    try:
        assert sheets.warm() is False
        assert pdf_engine.pdf_engine_problem() == no_pdf_engine
    finally:
        sheets.warm.cache_clear()
