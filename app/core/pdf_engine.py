"""Whether this laptop can make PDFs: WeasyPrint loads Pango, a system library pip does not install, when it is
imported. Where it does not load, one sentence names the runtime to install for this system; the browser's own
print of each sheet's print view works everywhere meanwhile."""

from __future__ import annotations

import contextlib
import io
import sys

# The runtime WeasyPrint's own installation notes name for each system (the README's install steps and
# .github/workflows/install.yml install the same). WeasyPrint looks in MSYS2's C:\msys64\ucrt64\bin on Windows
# by itself; a Mac's Homebrew libraries (/opt/homebrew/lib on Apple silicon) are outside the loader's own path.
REMEDIES = {
    "win32": "install MSYS2 (msys2.org) and, in its terminal, pacman -S mingw-w64-ucrt-x86_64-pango",
    "darwin": "brew install pango, and on Apple silicon export DYLD_FALLBACK_LIBRARY_PATH=/opt/homebrew/lib",
}
LINUX_REMEDY = "install Pango (sudo apt install libpango-1.0-0 libpangoft2-1.0-0, or your distribution's)"


def remedy(platform: str = sys.platform) -> str:
    return REMEDIES.get(platform, LINUX_REMEDY)


def pdf_engine_problem() -> str | None:
    """None when WeasyPrint loads; else one sentence: what fails and the platform's remedy."""
    try:  # WeasyPrint prints a banner of its own before it raises: the sentence below says it
        with contextlib.redirect_stdout(io.StringIO()):
            import weasyprint  # noqa: F401  (loads Pango through cffi: OSError where it is missing)
    except (ImportError, OSError):
        return (
            f"PDFs cannot be made here, WeasyPrint does not load: {remedy()}, then start firestep again "
            "(meanwhile each sheet's print view prints to PDF from the browser)."
        )
    return None
