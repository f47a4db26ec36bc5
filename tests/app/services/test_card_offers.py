"""A stand's card offers an act exactly when the act pipeline accepts it (issue 51): over the shipped scenarios
(Mons 1914, the Mons table in the late war, 2mm Earth 1418's demo battle), at every step of a turn or a bound,
for stands covering every act kind the card has there, for each seat and the referee, the card's offer
(app.services.card.stand_card: rolls, edits, a stand's move, its company's and battalion's, a marker
recovered or placed) is held to what `acts.play` does with the act, played for real on the game and
rolled back (a roll with a target: at a target the card does not grey). Dice aside: the server rolls them, and
what is offered never depends on them. As the game goes on, some of the order rolls, unit edits, shots and
assaults the cards offer are played, so the cards meet units ordered, unpacked, commanded, planned, shot at.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.db import make_engine
from app.data.models import Game
from app.errors import Forbidden, Refused, refusal_body
from app.services import acts, card, game_setup, resolve
from app.services.markers import table_read
from app.services.seating import Viewer
from app.services.units import list_units
from app.services.writing import game_write, unit_of_work
from rules.core.acts import Act, AdvanceTurn, EditUnit, PlaceMarker, RecoverMarker, Roll
from rules.core.errors import RulesError
from rules.core.vocabulary import SIDES
from tests.conftest import _sqlite_clone

VIEWERS = ("attacker", "defender", "referee")
# The shipped scenarios as games: (scenario, period), each played through a whole turn (Flanders Fields: both
# sides' turns) or bound.
GAMES = [("mons-1914", None), ("mons-1914", "late"), ("earth2mm-demo-ferme", None)]


@pytest.fixture
def engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(_sqlite_clone(sqlite_template, tmp_path))
    yield made
    made.dispose()


def _new_game(engine: Engine, scenario: str, period: str | None) -> int:
    with Session(engine) as s, unit_of_work(s):
        game, _ = game_setup.create_game(s, "test-secret", scenario=scenario, period=period)
        return game.id or 0


def _advance(engine: Engine, game_id: int) -> None:
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), AdvanceTurn(version=game.version))


def _played(engine: Engine, game_id: int, role: str, act: Act) -> dict[str, Any] | None:
    """What the pipeline does with `act` for `role`: None when it plays it, else its refusal as the API
    answers it. Nothing is kept: the session is rolled back."""
    refused = _refused(engine, game_id, role, act)
    return refusal_body(refused) if refused is not None else None


def _refused(engine: Engine, game_id: int, role: str, act: Act) -> Refused | RulesError | None:
    """What the pipeline refuses of `act` played for `role` (None: it plays it); nothing kept."""
    with Session(engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        try:
            acts.play(s, game, Viewer(game_id, role), act)
        except (Refused, RulesError) as refused:
            return refused
        finally:
            s.rollback()
    return None


def _keep(engine: Engine, game_id: int, act: Act) -> None:
    """An act played by the referee and kept (the game moves on: units ordered, unpacked, planned)."""
    with Session(engine) as s, game_write(s, game_id) as game:
        acts.play(s, game, Viewer(game_id, "referee"), act)


def _sampled(s: Session, game: Game, rng: random.Random) -> tuple[list[int], set[tuple[str, str]]]:
    """Few stands covering every act kind the cards have now (a roll by its resolver, an edit by its field, a
    move, a recovery): the stand covering most of those left, in turn, of either side (drawn among equals); and
    the act kinds they cover (every kind the cards have now)."""
    units = list_units(s, game.id or 0)
    read = table_read(s, game)
    kinds: dict[int, set[tuple[str, str]]] = {}
    for u in units:
        if not u.killed:
            kinds[u.id or 0] = {(o.kind, o.key) for o in card.offers(read, game, u.id or 0)}
    left = set().union(*kinds.values())
    every = set(left)
    out = []
    while left:
        best = max(len(k & left) for k in kinds.values())
        stand = rng.choice(sorted(i for i, k in kinds.items() if len(k & left) == best))
        out.append(stand)
        left -= kinds[stand]
    return sorted(out), every


def _target_tries(s: Session, game: Game, stand: int, resolver: str) -> list[int]:
    """The other side's stands on the table the card does not grey as the roll's target, nearest first."""
    units = list_units(s, game.id or 0)
    me = next(u for u in units if u.id == stand)
    marked = {
        m.unit_id for m in resolve.target_marks(s, game, Viewer(game.id or 0, "referee"), stand, resolver)
    }
    enemies = [
        u
        for u in units
        if u.side != me.side and not u.killed and u.x is not None and u.y is not None and u.id not in marked
    ]
    enemies.sort(key=lambda u: ((u.x or 0) - (me.x or 0)) ** 2 + ((u.y or 0) - (me.y or 0)) ** 2)
    return [u.id or 0 for u in enemies[:1]]


def _check_stand(engine: Engine, game_id: int, stand: int, where: str) -> list[Act]:
    """Every act of the stand's card, for each viewer: offered exactly when the pipeline plays it. The acts
    the referee's card offers (to be played on)."""
    keep: list[Act] = []
    tries: dict[str, list[int]] = {}
    # Every act of the card, read once for the three seats: each act is played in a session rolled back, so the
    # game the seats' cards are read from is the same.
    with Session(engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        units = list_units(s, game_id)
        every = card.offers(table_read(s, game), game, stand)
        side = next(u.side for u in units if u.id == stand)
    for role in VIEWERS:
        with Session(engine) as s:
            game = s.get(Game, game_id)
            assert game is not None
            shown = card.stand_card(s, game, Viewer(game_id, role), stand)
        if role not in ("referee", side):
            # The other side's seat: its card offers only a marker placed (its shots place them), exactly when
            # the pipeline plays it; the pipeline refuses any other act of the stand before any rule of play
            # (the seat acts for its own side).
            assert shown["acts"] == [] and shown["edits"] == [], where
            assert {o["kind"] for o in shown["offers"]} <= {"mark"}, where
            rest = [o for o in every if o.kind != "mark"]
            assert not rest or _played(engine, game_id, role, rest[0].act) is not None, where
            marked = {o["key"]: o["refused"] for o in shown["offers"]}
            for o in (o for o in every if o.kind == "mark"):
                answer = _played(engine, game_id, role, o.act)
                assert (marked[o.key] is None) == (answer is None), (
                    where,
                    stand,
                    role,
                    marked[o.key],
                    answer,
                )
            continue
        judged = {(o["kind"], o["key"], o["label"]): o["refused"] for o in shown["offers"]}
        for o in every:
            what = f"{where}: stand {stand}, {o.kind} {o.key} ({o.label}) for the {role}"
            offered = (o.kind, o.key, o.label) in judged and judged[(o.kind, o.key, o.label)] is None
            if not o.complete and isinstance(o.act, Roll):
                if o.key not in tries:
                    with Session(engine) as s:
                        game = s.get(Game, game_id)
                        assert game is not None
                        tries[o.key] = _target_tries(s, game, stand, o.key)
                aimed = [_at(o.act, t, o.roll.order if o.roll else "") for t in tries[o.key]]
                answers = [_played(engine, game_id, role, a) for a in aimed]
                if role == "referee":  # a shot, an assault, hits allocated: the game goes on with them
                    keep += [a for a, answer in zip(aimed, answers, strict=True) if answer is None]
                if offered:
                    # Some target it may take, or only targets the rules refuse as targets (a 422 naming one).
                    assert (
                        not tries[o.key]
                        or any(a is None for a in answers)
                        or all(
                            "target" in str(a.get("field", "")) or a.get("field", "").startswith("fields.")
                            for a in answers
                            if a is not None
                        )
                    ), (what, answers)
                elif judged.get((o.kind, o.key, o.label)) is not None and tries[o.key]:
                    assert answers[0] is not None, what
                    assert answers[0]["detail"] == judged[(o.kind, o.key, o.label)]["detail"], what
                continue
            if not o.complete and isinstance(o.act, EditUnit) and o.edit is not None:
                # A value that needs an enemy formation tapped (a plan's target): played at each formation's
                # first stand on the table, offered exactly when one of them is accepted.
                field = o.edit.choices[o.choice].target
                with Session(engine) as s:
                    game = s.get(Game, game_id)
                    assert game is not None
                    formations: dict[int | None, int] = {}
                    for u in list_units(s, game_id):
                        if u.side != side and not u.killed and u.x is not None and not u.off_table:
                            formations.setdefault(u.parent_id, u.id or 0)
                aimed = [
                    EditUnit(unit_id=o.act.unit_id, version=o.act.version, values={**o.act.values, field: t})
                    for t in formations.values()
                ]
                answers = [_played(engine, game_id, role, a) for a in aimed]
                assert offered == any(a is None for a in answers), (what, answers)
                continue
            answer = _played(engine, game_id, role, o.act)
            if (o.kind, o.key, o.label) not in judged:
                assert answer is not None, f"{what}: not on the card, yet played"
                continue
            assert offered == (answer is None), (what, judged[(o.kind, o.key, o.label)], answer)
            if answer is not None:
                assert judged[(o.kind, o.key, o.label)]["detail"] == answer["detail"], what
            elif role == "referee" and (isinstance(o.act, EditUnit) or o.key == "order-roll"):
                keep.append(o.act)
    return keep


def _at(roll: Act, target: int, order: str) -> Act:
    assert isinstance(roll, Roll)
    fields = {order: [target]} if order else {}
    return Roll(resolver=roll.resolver, unit_id=roll.unit_id, target_id=target, fields=fields)


@pytest.mark.long
@pytest.mark.parametrize(("scenario", "period"), GAMES, ids=[f"{s}:{p or 'own'}" for s, p in GAMES])
def test_the_card_offers_an_act_exactly_when_the_pipeline_plays_it(
    engine: Engine, scenario: str, period: str | None
) -> None:
    rng = random.Random(51)
    game_id = _new_game(engine, scenario, period)
    _advance(engine, game_id)  # the game starts
    with Session(engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        start = (game.turn, game.side_to_move)
    seen_kinds: set[tuple[str, str]] = set()
    steps = 0
    while True:
        with Session(engine) as s:
            game = s.get(Game, game_id)
            assert game is not None
            if game.turn != start[0]:
                break
            where = f"{scenario} turn {game.turn} {game.side_to_move} step {game.step}"
            stands, kinds_now = _sampled(s, game, rng)
            seen_kinds |= kinds_now
        steps += 1
        kept: list[Act] = []
        for stand in stands:
            kept += _check_stand(engine, game_id, stand, where)
        for act in kept[:6]:  # the game moves on: a few of what the cards offered, played and kept
            with contextlib.suppress(Refused, RulesError):  # a unit ordered or edited by an act kept before
                _keep(engine, game_id, act)
        _advance(engine, game_id)
        assert steps < 60
    kinds = {k for k, _ in seen_kinds}
    assert {"roll", "edit", "move"} <= kinds, seen_kinds
    if scenario == "mons-1914":
        keys = {k for _, k in seen_kinds}
        assert {
            "order-roll",
            "shooting",
            "assault",
            "packed",
            "limbered",
            "move-stands",
            "recover-markers",
            "place-markers",
        } <= keys
        assert {"formation", "mark"} <= kinds, seen_kinds


def test_a_stand_s_marker_buttons_are_offered_exactly_when_the_pipeline_plays_them(engine: Engine) -> None:
    # The head of a stand's card on the map draws its marker buttons from card.marker_offers, whatever the game's
    # status: for each seat and each side's stand, in set-up and in play (a marker on each to recover), an act
    # the pipeline plays is offered, one it refuses for now is greyed with its sentence, and one the seat may
    # never play (the other side's markers recovered: a 403) is not drawn.
    game_id = _new_game(engine, "mons-1914", None)
    for started in (False, True):
        with Session(engine) as s:
            game = s.get(Game, game_id)
            assert game is not None
            units = list_units(s, game_id)
            stands = [
                next(u.pk for u in units if u.side == side and u.kind == "rifle-platoon") for side in SIDES
            ]
            for stand in stands:
                for role in VIEWERS:
                    read = table_read(s, game)
                    offered = {
                        o.kind: o for o in card.marker_offers(s, game, Viewer(game_id, role), stand, read)
                    }
                    for kind, act in (
                        ("mark", PlaceMarker(unit_id=stand)),
                        ("recover", RecoverMarker(unit_id=stand)),
                    ):
                        refused_by = _refused(engine, game_id, role, act)
                        played = refusal_body(refused_by) if refused_by is not None else None
                        said = (started, role, stand, kind, played)
                        assert (kind not in offered) is isinstance(refused_by, Forbidden), said
                        if kind in offered:
                            refused = offered[kind].refused
                            assert (refused is None) is (played is None), said
                            assert refused is None or played is None or refused == played["detail"], said
        if not started:
            _advance(engine, game_id)
            for stand in stands:
                _keep(engine, game_id, PlaceMarker(unit_id=stand, override=True))
