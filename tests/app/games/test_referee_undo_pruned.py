"""A player may undo back to the last die roll only (app/services/undo.py): the referee board's changes after a
new roll carry the deletion of every older entry's player Undo, out of band (issue 67: board-live.js pruned them
itself), sparing the entries from that roll on; changes with no new roll delete nothing, nor a referee's."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import advance_to
from tests.app.games.test_earth2mm_story import Demo


def test_a_new_roll_s_changes_delete_the_older_entries_player_undo(sqlite_client: TestClient) -> None:
    d = Demo(sqlite_client)
    g = d.g
    mg, kp = "gb/1-bn/mg-coy", "de/i-bn/1-kp"
    edit = d.edit("gb/1-bn", g.attacker, high_command="advance").json()["event_id"]
    advance_to(d.c, g, "execute-2")
    shot = d.roll("shoot", g.attacker, mg, kp, dice=[6, 6, 6]).json()["event_id"]
    # The referee's entries carry no player Undo: nothing to delete there (issue 89's newcomer pass: htmx logged
    # oobErrorNoTarget on the referee board for a delete that could match nothing).
    assert 'hx-swap-oob="delete:' not in d.page(f"referee/changes?after={edit}")
    # The attacker's device reads the board.
    d.c.cookies.clear()
    token = g.attacker["Authorization"].removeprefix("Bearer ")
    joined = d.c.post("/join", data=csrf.form(d.c, {"code": token}), follow_redirects=False)
    assert joined.status_code == 303, joined.text
    changes = d.page(f"referee/changes?after={edit}")
    deleted = re.findall(r'hx-swap-oob="delete:([^"]*)"', changes)
    assert deleted == [f"#log li:not(#event-{shot}) [data-player-undo]"], deleted
    # From before the edit: the edit's own entry is drawn with no Undo, and only the roll's is spared.
    assert re.findall(r'hx-swap-oob="delete:([^"]*)"', d.page(f"referee/changes?after={edit - 1}")) == deleted
    assert 'hx-swap-oob="delete:' not in d.page(f"referee/changes?after={shot}")
