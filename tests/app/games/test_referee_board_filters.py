"""The referee board's filters read each stand's state from the page, by the page's CSS (referee.html writes a
rule per filter the rule set has; board-filters.js keeps the choice): a destroyed stand is only "killed" to them,
so "Suppressed" never lists one, whatever markers it died with."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import new_game, start_game, units_by_ref


def test_suppressed_lists_no_destroyed_stand(client: TestClient) -> None:
    game = new_game(client)
    start_game(client, game)
    stands = [u for u in units_by_ref(client, game).values() if u["side"] == "defender" and u["base"]]
    dead, hit = stands[0], stands[1]
    api = f"/api/v1/games/{game.id}/units"
    for _ in range(3):  # the third marker kills
        r = client.post(
            f"{api}/{dead['id']}/markers", headers=game.referee, json={"delta": 1, "override": True}
        )
        assert r.status_code == 200, r.text
    r = client.post(f"{api}/{hit['id']}/markers", headers=game.referee, json={"delta": 1, "override": True})
    assert r.status_code == 200, r.text
    after = {u["id"]: u for u in client.get(api, headers=game.referee).json()}
    assert after[dead["id"]]["killed"] and after[dead["id"]]["suppression"] > 0

    client.cookies.clear()
    token = game.referee["Authorization"].removeprefix("Bearer ")
    joined = client.post("/join", data=csrf.form(client, {"code": token}), follow_redirects=False)
    assert joined.status_code == 303
    board = client.get(f"/games/{game.id}/referee").text
    tiles = dict(re.findall(r'<li class="stand[^"]*" id="unit-(\d+)"([^>]*)>', board))
    assert "data-killed" in tiles[str(dead["id"])] and "data-sup" not in tiles[str(dead["id"])]
    assert 'data-sup="1"' in tiles[str(hit["id"])]
    suppressed = [i for i, attrs in tiles.items() if "data-sup" in attrs]
    assert all("data-killed" not in tiles[i] for i in suppressed)
    # Each chip's filter has its rule, reading the attribute the tiles carry.
    rules = board[board.index("<style>") : board.index("</style>")]
    chips = re.findall(r'data-filter="([\w-]+)"', board)
    assert chips and all(f'[data-filters~="{chip}"] :is(li.stand[' in rules for chip in chips)
    assert '"marked"] :is(li.stand[data-sup]' in rules and '"killed"] :is(li.stand[data-killed]' in rules
