"""A device found by its token (app.services.seating.find_device, read by the door for every request a token
authorises): each token its own device, by one statement built once for every lookup (issue 88: a statement built
anew per request cost more than its query)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlmodel import Session

from app.services import seating
from app.services.game_setup import create_game
from app.services.writing import unit_of_work


def test_each_token_finds_its_own_device_by_the_same_statement(session: Session) -> None:
    with unit_of_work(session):
        game, credentials = create_game(session, "secret", name="Lookup")
        player = seating.issue(session, seating.GAME, "secret", game.pk, "attacker")
    statements: list[Any] = []
    event.listen(session, "do_orm_execute", lambda state: statements.append(state.statement))
    referee = seating.find_device(session, seating.GAME, "secret", credentials.referee_token)
    attacker = seating.find_device(session, seating.GAME, "secret", player)
    assert referee is not None and referee.role == seating.REFEREE
    assert attacker is not None and attacker.role == "attacker"
    assert seating.find_device(session, seating.GAME, "secret", "not-a-token") is None
    assert len(statements) == 3 and all(s is statements[0] for s in statements)
