"""A game is played by the game rules of its own rule set (rules.registry.get_game_rules): a game whose rule
set has none (Vimy Ridge is a lookup and dice assistant) is refused with a 422 naming the rule set, before
anything is rolled or marked."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tests.app.games.conftest import new_game, start_game, units_by_ref


def test_a_game_of_a_rule_set_without_game_rules_is_refused(client: TestClient, migrated_url: str) -> None:
    g = new_game(client)
    start_game(client, g)
    stand = next(u for u in units_by_ref(client, g).values() if u["side"] == "attacker" and u["base"])
    engine = create_engine(migrated_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE game SET ruleset = 'firestorm-villers-bretonneux' WHERE id = :id"), {"id": g.id}
        )
    engine.dispose()

    rolled = client.post(
        f"/api/v1/games/{g.id}/resolve/combat", headers=g.referee, json={"fields": {}, "dice": [3]}
    )
    marked = client.post(
        f"/api/v1/games/{g.id}/units/{stand['id']}/markers",
        headers=g.referee,
        json={"delta": 1, "fire": "mg"},
    )
    for r in (rolled, marked):
        assert r.status_code == 422, r.text
        [err] = r.json()["errors"]
        assert err["loc"] == ["body", "ruleset"]
        assert "'firestorm-villers-bretonneux'" in err["msg"] and err["allowed"] == [
            "2mm-earth-1418",
            "flanders-fields",
            "vimy-ridge",
        ]
    # Nothing was marked: the stand is as it was (a game of no game rules answers no rule set's state).
    after = units_by_ref(client, g)[stand["ref"]]
    assert after["version"] == stand["version"] and "suppression" not in after
