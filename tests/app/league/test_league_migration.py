"""0017: the results imported before leagues (one server-wide list) move into a league of their own, each
waiting (no key trusted there), a row whose players are not [name, club] pairs (the defect issue 63 names) left
out, since the table could not read it; the downgrade moves every game back."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import MetaData, insert, text

from app.core.db import downgrade, make_engine, migrate

pytestmark = pytest.mark.storage


def test_the_results_imported_before_leagues_move_into_a_league_and_back(database_url: str) -> None:
    migrate(database_url)
    downgrade(database_url, "0016")
    engine = make_engine(database_url)
    meta = MetaData()
    meta.reflect(engine, only=["league_result"])
    good = {
        "event": "Club night",
        "table": 2,
        "players": {"attacker": ["Ann", "Ypres"], "defender": ["Bob", "Arras"]},
        "result": {"winner": None, "points": {"attacker": 3, "defender": 3}},
        "settled": "confirmed",
    }
    broken = {**good, "players": {"attacker": 1, "defender": 2}}
    with engine.begin() as conn:
        for n, bundle in enumerate((good, broken)):
            row = {"digest": f"{n:064x}", "club_key": "AB" * 32, "club": "Ypres", "bundle": bundle}
            conn.execute(insert(meta.tables["league_result"]).values(**row, imported_at=datetime.now(UTC)))
    migrate(database_url)
    with engine.connect() as conn:
        league = conn.execute(text("SELECT id, name, token_hash FROM league")).one()
        games = conn.execute(
            text("SELECT league_id, club_key, a_name, b_club, winner, a_points FROM league_game")
        ).all()
    assert league[1:] == ("Results imported before leagues", None)
    assert [tuple(g) for g in games] == [(league[0], "ab" * 32, "Ann", "Arras", None, 3)]
    downgrade(database_url, "0016")
    with engine.connect() as conn:
        back = conn.execute(text("SELECT digest, bundle FROM league_result")).all()
    assert [(d, b if isinstance(b, dict) else json.loads(b)) for d, b in back] == [(f"{0:064x}", good)]
    migrate(database_url)
    engine.dispose()
