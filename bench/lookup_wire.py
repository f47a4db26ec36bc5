"""Bytes on the wire of the lookup, as a browser asks for them (Accept-Encoding: gzip, br): a panel swap after a
die tap (the htmx fragment) and a full lookup page, for the resolvers used most at the table, in every period.

Targets (issue 15): a panel swap at most 12 KB and a full page at most 20 KB, compressed. Prints each figure
and exits non-zero when the largest passes its target. Run: `.venv/bin/python bench/lookup_wire.py`.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SWAP_LIMIT = 12 * 1024
PAGE_LIMIT = 20 * 1024
BROWSER = {"Accept-Encoding": "gzip, br"}
# Each resolver with the fields a player taps before the die, so the swap carries a whole answer.
TAPS: dict[str, dict[str, str]] = {
    "order-roll": {"quality": "veteran"},
    "shooting": {"firer": "infantry", "cover": "soft", "range_cm": "30"},
    "morale": {"quality": "raw", "starting_platoons": "12", "lost_platoons": "6"},
    "assault": {"defender_cover": "medium"},
}
PERIODS = ("early", "mid", "late")


@contextmanager
def client() -> Iterator[Any]:
    with tempfile.TemporaryDirectory() as var:
        os.environ["FIRESTEP_DATABASE_URL"] = f"sqlite:///{var}/bench.db"
        os.environ["FIRESTEP_VAR_DIR"] = var
        from fastapi.testclient import TestClient

        from app.core.config import get_settings
        from app.core.db import migrate
        from app.main import create_app

        get_settings.cache_clear()
        migrate(os.environ["FIRESTEP_DATABASE_URL"])
        with TestClient(create_app()) as c:
            yield c


def wire_bytes(response: Any) -> int:
    """The body as sent: httpx has already decoded it, so count the raw stream it read."""
    encoding = response.headers.get("content-encoding", "identity")
    assert encoding in ("br", "gzip"), f"{response.request.url} sent {encoding}"
    return int(response.num_bytes_downloaded)


def main() -> int:
    rows: list[tuple[str, str, int, int]] = []
    with client() as c:
        for resolver, fields in TAPS.items():
            for period in PERIODS:
                page = c.get(f"/lookup/flanders-fields/{resolver}?period={period}", headers=BROWSER)
                assert page.status_code == 200, page.text
                token = page.cookies.get("firestep_csrf") or c.cookies.get("firestep_csrf")
                dice = {"dice.0": "4", "dice.1": "3"}  # a resolver takes the dice it needs
                data = {"period": period, "csrftoken": token or "", **dice, **fields}
                swap = c.post(
                    f"/lookup/flanders-fields/{resolver}",
                    data=data,
                    headers={**BROWSER, "HX-Request": "true", "x-csrftoken": token or ""},
                )
                assert swap.status_code == 200, swap.text
                assert 'id="answer"' in swap.text, f"{resolver} {period}: no answer in the swap"
                rows.append((resolver, period, wire_bytes(swap), wire_bytes(page)))
    print(
        f"{'resolver':<12} {'period':<6} {'swap (B)':>9} {'page (B)':>9}   compressed, Accept-Encoding: gzip, br"
    )
    for resolver, period, swap_b, page_b in rows:
        print(f"{resolver:<12} {period:<6} {swap_b:>9} {page_b:>9}")
    worst_swap = max(r[2] for r in rows)
    worst_page = max(r[3] for r in rows)
    print(f"largest panel swap: {worst_swap} B (target <= {SWAP_LIMIT} B)")
    print(f"largest full page:  {worst_page} B (target <= {PAGE_LIMIT} B)")
    return 0 if worst_swap <= SWAP_LIMIT and worst_page <= PAGE_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
