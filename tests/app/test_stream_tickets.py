"""A stream ticket opens one stream: a second use of the same ticket (read from a log, a proxy's history or
a shared screen) is refused within its lifetime, while every honest (re)connect asks for a fresh one."""

from __future__ import annotations

import httpx

from tests.app.games.conftest import live_url, new_game  # noqa: F401 (live_url is a fixture)


def first_frame(http: httpx.Client, url: str) -> tuple[int, str]:
    with http.stream("GET", url) as r:
        if r.status_code != 200:
            r.read()
            return r.status_code, r.json()["why"]
        return r.status_code, next(r.iter_lines())


def test_a_ticket_opens_one_stream_only(live_url: str) -> None:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=30) as http:
        g = new_game(http)
        stream = f"/api/v1/games/{g.id}/stream"
        tickets = [http.get(f"{stream}-ticket", headers=g.attacker).json()["ticket"] for _ in range(2)]
        assert tickets[0] != tickets[1]  # asked for within the same second, still two tickets
        assert first_frame(http, f"{stream}?ticket={tickets[0]}")[0] == 200
        status, detail = first_frame(http, f"{stream}?ticket={tickets[0]}")
        assert status == 401 and "already been used" in detail
        # The next connect, with its own fresh ticket, opens.
        status, line = first_frame(http, f"{stream}?ticket={tickets[1]}")
        assert status == 200 and line.startswith("retry:")
