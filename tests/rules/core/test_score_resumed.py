"""The score's replay resumed from a kept state (rules.core.score `resumed`, issue 69): the kept replay of a log's
first events, gone on over the rest, scores as the whole log's replay, undone acts, calls and the end included;
the units it ends with are those `pieces_before` gives from the stands now (what app.services.score goes on
from a stored state with), and the kept replay is left as it was."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.score import Logged, Moved, Piece, pieces_before, replay_start, resumed, score_at, score_of
from tests.rules.core.test_score import BASES, objectives

PLACES = [
    (5.0, 5.0),
    (25.0, 45.0),
    (29.5, 45.0),
    (65.0, 45.0),
    (31.5, 45.0),
]  # off, in 1, on its edge, in 2, near
KINDS = ["each_turn", "game_end", "first_taken", "held_turns"]

act = st.tuples(
    st.sampled_from(["move", "move", "add", "call", "turn", "end"]),
    st.integers(0, 3),  # which stand
    st.sampled_from(PLACES),
    st.booleans(),  # undone (an act later undone, or an undoing)
)


@settings(max_examples=60, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=2),
    acts=st.lists(act, max_size=24),
    split=st.integers(0, 24),
)
def test_a_replay_resumed_from_a_kept_state_scores_as_the_whole_logs(
    kinds: list[str], acts: list[tuple[str, int, tuple[float, float], bool]], split: int
) -> None:
    # A held_turns objective is made from an each_turn one (the helper writes no `turns`): two in a row.
    objs = [
        replace(o, scored="held_turns", turns=2, consecutive=True) if how == "held_turns" else o
        for o, how in zip(
            objectives(*[k.replace("held_turns", "each_turn") for k in kinds]), kinds, strict=True
        )
    ]
    pieces = {i: Piece(i, ("attacker", "defender")[i % 2], "b", *PLACES[i]) for i in range(2)}
    log: list[Logged] = []
    turn = 1
    for n, (kind, which, place, undone) in enumerate(acts):
        extra: dict[str, Any] = {}
        if kind == "add" and which not in pieces:
            pieces[which] = Piece(which, ("attacker", "defender")[which % 2], "b", *place)
            extra["added"] = (which,)
        elif kind == "move" and which in pieces:
            p = pieces[which]
            extra["moved"] = (Moved(which, "x", p.x, place[0]), Moved(which, "y", p.y, place[1]))
            pieces[which] = Piece(p.id, p.side, p.base, *place)
        elif kind == "call":
            extra["call"] = (f"o{which % len(objs) + 1}", [None, "attacker", "defender"][which % 3])
        elif kind == "turn":
            turn += 1
        extra["ended"] = kind == "end"
        log.append(Logged(turn, id=n + 1, undone=undone, **extra))
        if kind == "end":  # nothing is played after the end (the replay stops there)
            break
    now = list(pieces.values())
    whole = score_of(objs, BASES, now, log)

    k = min(split, len(log))
    start, added_at = pieces_before(now, log)
    kept = resumed(replay_start(objs, BASES, start), log[:k], added_at[:k])
    kept_score = score_at(kept)
    back, later = pieces_before(now, log[k:])
    assert back == kept.pieces and later == added_at[k:]
    assert score_at(resumed(kept, log[k:], later)) == whole
    # The kept replay as it was: read again, and gone on from again (another read's), alike.
    assert score_at(kept) == kept_score and score_at(resumed(kept, log[k:], later)) == whole
