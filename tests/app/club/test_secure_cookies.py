"""Over the club's HTTPS every cookie the server sets is Secure (a seat's token, the CSRF token, the remembered
lookup), so none goes back over the plain-http port; over plain http (a laptop on its own) they cannot be."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.conftest import make_client


def set_cookies(client: TestClient, url: str) -> list[str]:
    r = client.get(url)
    assert r.status_code == 200, r.text
    return r.headers.get_list("set-cookie")


def test_cookies_are_secure_over_https_only(migrated_url: str, tmp_path: Path) -> None:
    with make_client(migrated_url, tmp_path) as plain:
        cookies = set_cookies(plain, "/lookup/flanders-fields/shooting?period=mid")
        assert len(cookies) >= 2  # the CSRF token and the remembered lookup
        assert not any("secure" in c.lower() for c in cookies)
    with make_client(migrated_url, tmp_path) as https:
        https.base_url = https.base_url.copy_with(scheme="https")
        cookies = set_cookies(https, "/lookup/flanders-fields/shooting?period=mid")
        assert len(cookies) >= 2 and all(
            c.rstrip().endswith("; Secure") or "; secure" in c.lower() for c in cookies
        )
        created = https.post("/api/v1/games", json={"name": "Club night"})
        assert created.status_code == 201, created.text
        joined = https.post("/api/v1/join", json={"code": created.json()["join_codes"]["attacker"]})
        seat = [c for c in joined.headers.get_list("set-cookie") if c.startswith("firestep_")]
        assert seat and all("; secure" in c.lower() for c in seat)
