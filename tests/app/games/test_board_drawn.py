"""The map's model gets what the rule set draws of the board beside the board itself (issue 36): the state
read answers it; the map's live frames carry the same state (tests/frontend/test_map.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rules.core.kit import drawn
from rules.flanders_fields.play.kit import KIT
from rules.table.frame import Table
from tests.app.games.test_table_in_game import advance, mid_game


def test_the_state_read_answers_the_rule_sets_drawing_of_its_board(client: TestClient) -> None:
    g, _ = mid_game(client)
    advance(client, g)  # turn 1: the barrage and the gas arrive
    state = client.get(f"/api/v1/games/{g.id}/state", headers=g.defender).json()
    drawing = drawn(KIT, state["board"], Table(120, 180))
    assert [d["style"] for d in state["board_drawn"]] == ["board-barrage", "board-gas"]
    assert state["board_drawn"] == [d.model_dump(mode="json") for d in drawing]
