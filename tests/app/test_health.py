from __future__ import annotations

import gc
from importlib.metadata import version
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.core.db import head_revision


@pytest.mark.storage
def test_healthz_reports_database_and_head_revision(client: TestClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    body = r.json()
    assert body == {
        "status": "ok",
        "database": True,
        "writable": True,
        "revision": head_revision(),
        "head": head_revision(),
        "drift": [],
    }


def test_docs_and_openapi_served(reading_client: TestClient) -> None:
    assert reading_client.get("/docs").status_code == 200
    schema = reading_client.get("/openapi.json").json()
    assert "/healthz" in schema["paths"]
    # The build's own version (setup.py: one a commit), which a generated client records.
    assert schema["info"]["version"] == version("firestep") != "0.1.0"


def test_unknown_path_is_json_404(reading_client: TestClient) -> None:
    r = reading_client.get("/api/v1/no-such-thing")
    assert r.status_code == 404
    said = "That is no longer there: it may have been removed on another device."
    assert r.json() == {
        "detail": "Nothing is at this address: check the link.",
        "said": said,
        "why": "Not Found",
        "said_why": "Not Found.",
    }


@pytest.mark.storage
def test_demo_game_is_loaded_once(client: TestClient) -> None:
    from sqlmodel import Session

    from app.services.demo import DEMO_NAME, ensure_demo

    with Session(client.app.state.engine) as s:  # type: ignore[attr-defined]
        assert ensure_demo(s) is not None
        assert ensure_demo(s) is None
    games = client.get("/api/v1/games").json()
    assert [g["name"] for g in games] == [DEMO_NAME]
    assert client.get(f"/api/v1/games/{games[0]['id']}").json()["period"] == "early"
    missing = client.get("/api/v1/games/999999")
    assert missing.status_code == 404 and "999999" in missing.json()["why"]


def test_what_is_loaded_at_startup_is_kept_out_of_the_collectors_full_passes(tmp_path: Path) -> None:
    """app/main.py's lifespan freezes what startup loaded (a full collection walked all of it, ~130 ms, and
    delayed a tap now and then) and collects the youngest generation after YOUNG_OBJECTS new objects, not 700
    (a live event to 300 devices ran four young collections, which filled the old generation until a full
    pass fell in one event of 25); shutting the app down sets both back."""
    from app.core.config import Settings
    from app.core.db import migrate
    from app.main import YOUNG_OBJECTS, create_app

    url = f"sqlite:///{tmp_path / 'gc.db'}"
    migrate(url)
    gc.unfreeze()
    before = gc.get_threshold()
    with TestClient(create_app(Settings(database_url=url, var_dir=tmp_path))) as c:
        assert c.get("/healthz").status_code == 200
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the rule books, tables and app
        assert gc.get_threshold() == (YOUNG_OBJECTS, *before[1:])
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
