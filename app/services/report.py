"""The after-action report of a game, as a viewer may read it: the story of the game, the log by turn, the
losses and casualties, and the luck ledger."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.data.models import Game
from app.data.schemas_answers import LoggedEvent
from app.services import ledger, story
from app.services.events import event_dict, list_events, reversed_ids, roles_of
from app.services.games import game_state
from app.services.markers import kept_of, rules_of
from app.services.result import game_result, result_answer
from app.services.score import game_score
from app.services.seating import Viewer
from app.services.units import leaves_under
from rules.core.game import Casualties
from rules.core.vocabulary import SIDES


# -- after-action report ------------------------------------------------------------------------------------
def casualty_estimate(game: Game, bases: int) -> Casualties:
    """The men `bases` lost stand for, by the game's rule set and readings."""
    return rules_of(game).casualties(game.period, game.variants, bases)


def report(session: Session, game: Game, viewer: Viewer) -> dict[str, Any]:
    rules = rules_of(game)
    # The game's units as the worker keeps them for its version, named there once (app.services.kept_units):
    # the report of a game of 1,400 stands loaded, decoded and named every unit again.
    kept = kept_of(session, game)
    units = kept.units
    events = list_events(session, game.pk, roles_of(viewer), limit=100_000)
    read = [event_dict(ev, roles_of(viewer)) for ev in events]
    names, undone = kept.short_names, reversed_ids(session, game.pk)
    by_turn: dict[int, list[LoggedEvent]] = {}
    for ev in read:
        by_turn.setdefault(ev["turn"], []).append(ev)
    battalions = []
    for bn in (u for u in units if u.level == "battalion"):
        stands = leaves_under(bn, units)
        start, gone = rules.losses(bn, units)
        lost = sum(1 for u in stands if u.killed)
        battalions.append(
            {
                "unit_id": bn.id,
                "name": bn.name,
                "side": bn.side,
                "rifle_platoons": start,
                "rifle_platoons_lost": gone,
                "bases_lost": lost,
                "casualties": casualty_estimate(game, lost),
            }
        )
    sides_out = {}
    formations = {u.parent_id for u in units}  # a killed unit with none under it is a base lost
    for side in SIDES:
        lost = sum(1 for u in units if u.side == side and u.killed and u.id not in formations)
        sides_out[side] = casualty_estimate(game, lost)
    score = game_score(session, game)  # the objectives' changes of hands the story tells, and the result's
    told = story.story(read, kept.by_id, names, undone, rules, score.taken)
    ended = game_result(session, game.pk, score)
    # The story's last line: the result in words, once the game is over.
    told["ending"] = ended.words if ended is not None else None
    return {
        "game": game_state(game),
        "result": result_answer(game, ended).model_dump(mode="json") if ended is not None else None,
        "turns": [{"turn": t, "events": evs} for t, evs in sorted(by_turn.items())],
        "losses_by_battalion": battalions,
        "casualties_by_side": sides_out,
        # The story of the game and the luck ledger, from the same events this viewer reads.
        "story": told,
        "ledger": ledger.ledger(read, {u.id: u.side for u in units}, names, undone),
    }
