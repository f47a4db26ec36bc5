"""Printed sheets that depend only on their inputs (period, paper, variant readings) carry an entity tag: a
client that already holds the sheet gets 304 and no body, and other inputs get another tag."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core import worker
from app.services import sheets


def test_a_period_playsheet_is_tagged_and_answers_304_to_its_own_tag(sqlite_client: TestClient) -> None:
    first = sqlite_client.get("/playsheets/early.pdf", params={"paper": "a4"})
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    tag = first.headers["etag"]
    assert tag.startswith('"') and "no-cache" in first.headers["cache-control"]
    again = sqlite_client.get("/playsheets/early.pdf", params={"paper": "a4"}, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    listed = sqlite_client.get(
        "/playsheets/early.pdf", params={"paper": "a4"}, headers={"If-None-Match": f'"other", W/{tag}'}
    )
    assert listed.status_code == 304
    stale = sqlite_client.get(
        "/playsheets/early.pdf", params={"paper": "a4"}, headers={"If-None-Match": '"x"'}
    )
    assert stale.status_code == 200 and stale.content == first.content


@pytest.mark.long
def test_other_inputs_get_other_tags(sqlite_client: TestClient) -> None:
    # The early sheet: of the three periods' the quickest to lay out (~0.5 s of the worker's CPU to late's 2.5 s),
    # and its A4 one may be kept from the test above.
    tags = {
        sqlite_client.get("/playsheets/early.pdf", params=params).headers["etag"]
        for params in (
            {"paper": "a4"},
            {"paper": "letter"},
            {"paper": "a4", "variant": "raw-order-modifier:main-text"},
        )
    }
    assert len(tags) == 3
    html = sqlite_client.get("/playsheets/early", params={"paper": "a4"})
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert (
        sqlite_client.get("/playsheets/early", headers={"If-None-Match": html.headers["etag"]}).status_code
        == 304
    )


def test_a_repeat_request_does_not_render_again(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every render goes to the worker process (app.core.worker.timed); counted, not timed, so the machine's
    # speed decides nothing. The real worker still renders.
    renders: list[str] = []
    real = worker.timed

    def counted(fn: Any, *args: Any) -> Any:
        renders.append(getattr(fn, "__name__", str(fn)))
        return real(fn, *args)

    monkeypatch.setattr(worker, "timed", counted)
    sheets.forget()  # kept by an earlier test in this process, a sheet would not be rendered here at all
    # The early sheet: the quickest period's to render (~0.5 s of the worker's CPU; mid's ~1.2 s).
    for url in (
        "/playsheets/early.pdf",
        "/playsheets/template-kit.pdf",
        "/playsheets/fire-plan/attacker.pdf",
    ):
        first = sqlite_client.get(url)
        rendered = len(renders)
        r = sqlite_client.get(url)
        assert r.status_code == 200 and r.headers["etag"] and r.content == first.content
        assert len(renders) == rendered, url
    assert renders, "nothing was rendered through the worker: the count would prove nothing"


def test_a_games_playsheet_is_tagged_privately(sqlite_client: TestClient) -> None:
    r = sqlite_client.post("/api/v1/games", json={"scenario": "mons-1914"})
    body = r.json()
    auth = {"Authorization": f"Bearer {body['referee_token']}"}
    sheet = sqlite_client.get(f"/playsheets/games/{body['game']['id']}.pdf", headers=auth)
    assert sheet.status_code == 200 and sheet.headers["cache-control"].startswith("private")
    again = sqlite_client.get(
        f"/playsheets/games/{body['game']['id']}.pdf",
        headers={**auth, "If-None-Match": sheet.headers["etag"]},
    )
    assert again.status_code == 304
    assert sqlite_client.get(f"/playsheets/games/{body['game']['id']}.pdf").status_code == 401
