"""The PDF engine: WeasyPrint, which loads the Pango library (and GLib, HarfBuzz, Fontconfig) through cffi
when it is imported. A Windows laptop without MSYS2's Pango (or the GTK3 runtime) or a Mac without Homebrew's
has none, and `import weasyprint` raises OSError from cffi's dlopen; the server still serves every page and
every sheet's print view (the browser's own Print, "Save as PDF"), but no PDF.

`pdf_engine_problem()` is the one check (the server's start, the `.pdf` answers, the Print menu, `firestep
playsheet` and `firestep doctor` read it): None when the engine loads, else one sentence with this system's
remedy, as WeasyPrint's installation steps give it. The answer is kept for the process's life: a library
installed meanwhile is loaded by a restart, as the sentence says."""

from __future__ import annotations

import contextlib
import functools
import io

from app.core.platform import system
from app.errors import Unavailable

# What to install, per system (WeasyPrint's "First steps": on Windows MSYS2's UCRT64 Pango, which WeasyPrint
# looks for in C:\msys64\ucrt64\bin, or the GTK3 runtime installer; on macOS Homebrew's pango; on Linux the
# distribution's package, Debian and Ubuntu naming the libraries WeasyPrint loads).
REMEDIES = {
    "win32": "install MSYS2 and run pacman -S mingw-w64-ucrt-x86_64-pango in it",
    "darwin": "run brew install pango",
}
LINUX_REMEDY = "install your system's pango package (apt install libpangoft2-1.0-0)"
PRINT_VIEW = (
    "Meanwhile print each sheet from the browser: its print view (the same address without .pdf), Print."
)


def remedy(platform: str | None = None) -> str:
    """What to install for PDFs on `platform` ("linux", "darwin", "win32"; this system's by default)."""
    return REMEDIES.get(platform or system(), LINUX_REMEDY)


def problem_sentence(platform: str | None = None) -> str:
    """The one sentence (at most 120 characters) saying that PDFs need Pango and how to install it here."""
    return f"PDFs need the Pango library: {remedy(platform)}, then restart firestep."


@functools.cache
def _load_error() -> str | None:
    """Why the engine did not load (cffi's or Python's message), or None when it did. WeasyPrint prints its
    own banner to standard output as it fails: kept out of the terminal, the sentence says what to do."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import weasyprint  # noqa: F401
            from weasyprint.text import ffi  # the Pango binding: gobject, pango, harfbuzz, fontconfig
    except (OSError, ImportError) as e:
        return f"{type(e).__name__}: {e}"
    return None if ffi.pango is not None else "Pango was not loaded"


def pdf_engine_problem() -> str | None:
    """None when the PDF engine loads; else one sentence naming this system's remedy (for `firestep doctor`,
    the start's warning and the refusals). Checked once per process."""
    return None if _load_error() is None else problem_sentence()


def pdf_engine_error() -> str | None:
    """The engine's own load error (for a log or `why`), or None when it loads."""
    return _load_error()


def forget() -> None:
    """Check again at the next call (a test that hides or restores the engine)."""
    _load_error.cache_clear()


def require_pdf_engine() -> None:
    """Refuse a PDF (503, the refusal naming the remedy) when the engine does not load."""
    problem = pdf_engine_problem()
    if problem is not None:
        raise Unavailable(problem, why=f"{problem} {PRINT_VIEW} ({pdf_engine_error()})")
