"""The service worker drops every seat's offline copies on every request that may seat the device elsewhere,
whatever its path (the campaign battle's Play button has no "join" in it, and left the referee's pages and
/units, the other side's aiming points included, in the cache of a device now seated as a player). The worker
is run in Node with the Cache Storage it uses stubbed, and sent each route that sets a seat cookie."""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app.main import app

SW = Path(__file__).parents[2] / "frontend" / "static" / "sw.js"
# The API writes that seat a script's device or hand it a seat's token.
SEATING_API = [
    "/api/v1/join",
    "/api/v1/campaigns/join",
    "/api/v1/campaigns/1/table-battles/2/seat",
]
# Writes of a seated device that keep its seat: its copies stay.
KEEPING = [
    "/games/1/fire-plan/attacker",
    "/api/v1/games/1/units/2/markers",
    "/campaigns/1/act",
    "/lookup/x/y",
]

HARNESS = """
const fs = require("fs");
const store = new Map([["firestep-seat:1-referee-abc", []], ["firestep-v6", []]]);
globalThis.caches = {
  keys: async () => [...store.keys()],
  delete: async (name) => store.delete(name),
  open: async (name) => { if (!store.has(name)) store.set(name, []); return { put: async () => {}, match: async () => null, keys: async () => [], delete: async () => true }; },
};
const listeners = {};
globalThis.self = {
  addEventListener: (type, f) => { listeners[type] = f; },
  location: { origin: "https://club.local" },
  clients: { claim: async () => {}, get: async () => null },
  skipWaiting: async () => {},
};
(0, eval)(fs.readFileSync(process.argv[2], "utf8"));
(async () => {
  const out = {};
  for (const path of JSON.parse(process.argv[3])) {
    store.set("firestep-seat:1-referee-abc", []);
    const waits = [];
    listeners.fetch({
      request: { url: "https://club.local" + path, method: "POST", mode: "navigate" },
      clientId: "c",
      waitUntil: (p) => waits.push(p),
      respondWith: (p) => waits.push(p),
    });
    await Promise.all(waits);
    out[path] = store.has("firestep-seat:1-referee-abc");
  }
  console.log(JSON.stringify(out));
})();
"""


def seating_pages() -> list[str]:
    """Every page's form post that sets a seat cookie (app.pages.seats' remember_*), as a sample path."""
    seating = re.compile(r"(?<![\w.])remember_(game|campaign|seat)\(")
    found, routes = [], list(app.routes)
    while routes:
        route = routes.pop()
        routes += getattr(getattr(route, "original_router", None), "routes", [])
        endpoint = getattr(route, "endpoint", None)
        if endpoint is None or "POST" not in getattr(route, "methods", ()):
            continue
        if seating.search(inspect.getsource(endpoint)):
            found.append(re.sub(r"\{[^}]+\}", "1", route.path))
    return sorted(found)


def kept_after(paths: list[str], tmp_path: Path) -> dict[str, bool]:
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    run = subprocess.run(
        ["node", str(harness), str(SW), json.dumps(paths)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return dict(json.loads(run.stdout))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node runs the service worker here")
def test_every_request_that_may_seat_the_device_drops_every_seats_copies(tmp_path: Path) -> None:
    pages = seating_pages()
    assert "/campaigns/1/table-battles/1/play" in pages and "/games/1/join/1" in pages and "/join" in pages
    kept = kept_after([*pages, *SEATING_API, *KEEPING], tmp_path)
    assert [p for p in [*pages, *SEATING_API] if kept[p]] == []
    # A write that keeps the device's seat keeps its copies for offline use.
    assert [p for p in KEEPING if not kept[p]] == []
