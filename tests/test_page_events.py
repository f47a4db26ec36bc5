"""The page events (`firestep:*`) are named once, in app/pages/page_events.py: every name a script or a template
sends or hears is listed there, and every name listed is in use (a localStorage key that starts the same way, as
table-map.js's `firestep:view-turned:<game>:<role>`, is no event)."""

from __future__ import annotations

import re
from pathlib import Path

from app.pages.page_events import PAGE_EVENTS

ROOT = Path(__file__).resolve().parents[1]
USED = re.compile(r"""["'`](firestep:[a-z-]+)["'`]""")  # a whole quoted name, not a key's prefix


def names_in_use() -> set[str]:
    files = [*(ROOT / "frontend/static/js").glob("*.js"), *(ROOT / "frontend/templates").glob("*.html")]
    return {m for f in files for m in USED.findall(f.read_text(encoding="utf-8"))}


def test_every_page_event_is_named_once_in_its_list() -> None:
    used = names_in_use()
    assert {"firestep:event", "firestep:resync", "firestep:map-changed"} <= used  # the walk is not blind
    assert used == set(PAGE_EVENTS)
