"""Creating a game: its sides and credentials, its forces from a scenario document (shipped or imported) or
built from organisation-table entries and deployed by its rule set (the game hook, GameRules.new_forces), and
the first event of its log. Rule-set neutral: what a rule set knows comes through rules.registry."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict, Unpack

from sqlalchemy import insert
from sqlmodel import Session, col, func, select

from app.core import live
from app.core.db import SharedJson
from app.data.models import Event, Game, Unit, utcnow
from app.data.schemas_scenario import ObjectiveFeature
from app.services import clock as clock_service
from app.services import scenarios, secret_objectives
from app.services.events import event_row
from app.services.seats import Credentials, create_sides
from app.services.units import add_unit_trees, copy_units
from rules.core.clock import Limits
from rules.core.errors import RulesError
from rules.core.forces import build_force
from rules.core.game import GameRules
from rules.core.game import terrain as terrain_of
from rules.core.scenario import ForceNode, NewForces
from rules.core.scenario import units_in as units_in
from rules.core.vocabulary import SIDES
from rules.registry import all_game_rules, game_rules_or_none, get_game_rules, get_ruleset


# -- creating a game -------------------------------------------------------------------------------------------
def new_game_rules(ruleset_id: str | None = None) -> GameRules:
    """The rules a new game is played by: the rule set asked for (a scenario names its own), else the first
    the registry plays as a game. Once created, a game is played by the rules of its own `ruleset`."""
    return get_game_rules(ruleset_id) if ruleset_id is not None else all_game_rules()[0]


class GameChoices(TypedDict, total=False):
    """What a new game is made of as its creator chooses it, each keyword of create_game but its name (the
    parameters of _new_game, which works them out)."""

    scenario: str | None
    ruleset: str | None
    period: str | None
    attacker_nation: str
    defender_nation: str
    variants: dict[str, str] | None
    table_width_cm: float | None
    table_length_cm: float | None
    terrain: dict[str, Any] | None
    forces: Sequence[Mapping[str, Any]]
    table_objectives: Mapping[str, Any] | None
    clock: Mapping[str, Any] | None


def create_game(
    session: Session, secret_key: str, *, name: str | None = None, **choices: Unpack[GameChoices]
) -> tuple[Game, Credentials]:
    """A new game, by hand, from a scenario (shipped or imported), or with `forces` ({side, table_id,
    quality?, template?, name?}) built from the organisation tables and deployed; the request's values win
    over the scenario's (`table_objectives`: a campaign table's objectives, as a scenario writes them);
    `clock`: the game clock's limits and settings, kept in the first event, where the clock
    reads them (app.services.clock). Returns the credentials once."""
    new = _new_game(session, **choices)
    # A game by hand without a name is named after its rule set ("Vimy Ridge: Arras Diversion").
    named = name or new.doc.get("title") or get_ruleset(new.rules.book.ruleset_id).name
    return make_games(session, secret_key, new, [named])[0]


def create_games(
    session: Session,
    secret_key: str,
    names: Sequence[str],
    *,
    scenario: str,
    ruleset: str,
    period: str | None,
) -> list[tuple[Game, Credentials]]:
    """A game of one scenario for each name, as create_game makes each (a club event's round: a game per
    table). The scenario is read and its forces made once, and the games' rows written together, so a round
    of hundreds of tables costs a few statements of each kind of row (issue 63). Their credentials once."""
    return make_games(
        session, secret_key, new_games(session, scenario=scenario, ruleset=ruleset, period=period), names
    )


def new_games(session: Session, *, scenario: str, ruleset: str, period: str | None) -> NewGame:
    """What create_games makes each game of, worked out once: a round's commit makes its games from it in
    several short units of work (app.services.round_commit.RoundCommit), each with `make_games`."""
    new = _new_game(session, scenario=scenario, ruleset=ruleset, period=period)
    # Its JSON values encoded once for all the steps' games (64 of the largest terrain were half a commit)
    return replace(new, game={k: SharedJson(v) if isinstance(v, dict) else v for k, v in new.game.items()})


@dataclass(frozen=True)
class NewGame:
    """What a new game is made of, worked out once however many games are made of it."""

    doc: Mapping[str, Any]
    rules: GameRules
    game: dict[str, Any]  # the Game row's values but its name
    made: NewForces
    created: dict[str, Any]  # the first event's payload
    # Each side's secret objectives (issue 69), kept apart from the board every device reads.
    secret: dict[str, list[ObjectiveFeature]] = field(default_factory=dict)


def _new_game(
    session: Session,
    *,
    scenario: str | None = None,
    ruleset: str | None = None,
    period: str | None = None,
    attacker_nation: str = "",
    defender_nation: str = "",
    variants: dict[str, str] | None = None,
    table_width_cm: float | None = None,
    table_length_cm: float | None = None,
    terrain: dict[str, Any] | None = None,
    forces: Sequence[Mapping[str, Any]] = (),
    table_objectives: Mapping[str, Any] | None = None,
    clock: Mapping[str, Any] | None = None,
) -> NewGame:
    doc: dict[str, Any] = {}
    if scenario is not None:
        doc = scenarios.get_document(session, scenario)
        if forces:
            raise RulesError(
                "forces", "a scenario brings its own forces: give a scenario or forces, not both"
            )
    if ruleset is not None and doc.get("ruleset", ruleset) != ruleset:
        raise RulesError("ruleset", f"the scenario is a {doc['ruleset']} game", [doc["ruleset"]])
    rules = new_game_rules(ruleset or doc.get("ruleset"))
    ruleset_id = rules.book.ruleset_id
    rs = get_ruleset(ruleset_id)
    implied_period, implied_nations = rules.forces_setup(forces)
    period = period or doc.get("period") or implied_period
    variants = {**doc.get("variants", {}), **(variants or {})}
    ctx = rs.game_context(
        period, variants
    )  # refuses unknown periods and errata, and another period's, naming them
    if terrain is not None:
        terrain_of(rules, terrain, period=ctx.period)  # refuses bad features with a 422 naming them
    sides = doc.get("sides", {})
    nations = {
        side: given
        or sides.get(side, {}).get("nationality")
        or implied_nations.get(side, "")
        or rules.book.side_nations.get(side, "")
        for side, given in (("attacker", attacker_nation), ("defender", defender_nation))
    }
    game: dict[str, Any] = {
        "ruleset": ruleset_id,
        "period": ctx.period,
        "variants": dict(variants),
        "table_width_cm": table_width_cm or doc.get("table", {}).get("width_cm") or 120.0,
        "table_length_cm": table_length_cm or doc.get("table", {}).get("length_cm") or 180.0,
        "attacker_nation": nations["attacker"],
        "defender_nation": nations["defender"],
        "scenario": scenario,
        "terrain": terrain or doc.get("terrain") or {"type": "FeatureCollection", "features": []},
        "notes": "\n".join(doc.get("notes", ())),
        "board": {
            **scenario_board({**doc, **({"table_objectives": table_objectives} if table_objectives else {})}),
            **dict(doc.get("board", {})),
        },
    }
    public, written = secret_objectives.split(game["board"].get("table_objectives"))
    secret = {side: [ObjectiveFeature.model_validate(f) for f in fs] for side, fs in written.items()}
    if secret:  # the board, every device's, keeps the public ones alone
        game["board"] = {k: v for k, v in game["board"].items() if k != "table_objectives"}
        game["board"].update({"table_objectives": public} if public is not None else {})
    made = _forces(rules, ctx, Game(name="", **game), doc, forces)
    require_room_for_units(
        session, None, units_in(*(n for nodes in made.forces.values() for n in nodes)), rules=rules
    )
    created = {
        "scenario": scenario,
        "period": ctx.period,
        "source": doc.get("source", ""),
        "forces": [dict(f) for f in forces],
        **({"clock": clock_service.payload(_clock_limits(clock, rules.book.sides))} if clock else {}),
    }
    return NewGame(doc, rules, game, made, created, secret)


def make_games(
    session: Session,
    secret_key: str,
    new: NewGame,
    names: Sequence[str],
    *,
    hidden: bool = False,
    source: int | None = None,
    force: bool = True,
    codes_of: Callable[[int], Mapping[str, str]] | None = None,
) -> list[tuple[Game, Credentials]]:
    """A game of `new` for each name: its row, sides and credentials, forces and first event. The games share
    the values of `new` (its terrain, board and variants), which none changes in place: a write sets anew.
    `hidden` ones are made archived (out of the lobby) until their round's commit shows them (a round's games
    are made in several units of work: none is seen before the last). `source`: a game made of `new` before,
    whose units every game copies (none written anew: a step of a table or two would write the whole force
    each, 90 ms of the largest table's). `force` False: one game made without units (its force then written
    in pieces, `write_force`). `codes_of`: a game's join codes by side, given (a round's: its join cards'), not
    drawn."""
    # Many games share one terrain and board: each encoded once (SharedJson), however many rows are written.
    shared: dict[str, Any] = {
        k: SharedJson(v) if isinstance(v, dict) and not isinstance(v, SharedJson) and len(names) > 1 else v
        for k, v in new.game.items()
    }
    games = [Game(name=name, archived_at=utcnow() if hidden else None, **shared) for name in names]
    session.add_all(games)
    session.flush()
    creds = create_sides(session, secret_key, games, codes_of)
    secret_objectives.store(session, [game.pk for game in games], new.secret)
    # The first game's forces written, then copied by the database into every other (one scenario's); or
    # every game's copied from `source`'s.
    if not force:
        assert len(games) == 1 and source is None, "a force written in pieces is one game's"
    elif source is None:
        write_force(session, new, games[0].pk, fresh=True)
        copy_units(session, games[0].pk, [game.pk for game in games[1:]])
    else:
        copy_units(session, source, [game.pk for game in games])
    # The first events in one statement (the session keeps no object of them: none is asked for again here).
    session.execute(
        insert(Event.__table__),  # type: ignore[attr-defined]
        [event_row(game, "game-created", "referee", dict(new.created), step="setup") for game in games],
    )
    for game in games:
        live.mark(session, game.pk)
    session.flush()
    return list(zip(games, creds, strict=True))


def write_force(
    session: Session, new: NewGame, game_id: int, limit: int | None = None, *, fresh: bool = False
) -> int:
    """The forces of `new` written into game `game_id` after the units it holds (written before by this, in
    the same order; `fresh`: a game just made, which holds none), at most `limit` of them: a round's first
    game is written in pieces, each its own unit of work (issue 63: the largest Flanders Fields table's force
    in one held SQLite's write lock 90 ms, and another game's write waited 201 ms). Answers how many are left
    to write."""
    made = new.made
    trees = [(game_id, side, node) for side, nodes in made.forces.items() for node in nodes]
    held: Iterable[int | None] = (
        []
        if fresh
        else session.exec(select(col(Unit.id)).where(Unit.game_id == game_id).order_by(col(Unit.id)))
    )
    done = [i for i in held if i is not None]
    add_unit_trees(session, trees, made.placements, made.off_table, made.state, done=done, limit=limit)
    total = units_in(*(node for _, _, node in trees))
    return max(0, total - len(done) - (total if limit is None else limit))


def _clock_limits(clock: Mapping[str, Any], sides: Sequence[str]) -> Limits:
    """The clock's limits and settings chosen as the game is created (app.data.schemas_clock.ClockLimits)."""
    return clock_service.limits_of(clock, sides).checked(sides)


def scenario_board(doc: Mapping[str, Any]) -> dict[str, Any]:
    """What a game keeps of its scenario on its board: its objectives, its victory conditions and its last turn
    (docs/scenario-format.md)."""
    kept = {
        "table_objectives": doc.get("table_objectives"),
        "victory_conditions": doc.get("victory_conditions"),
        "last_turn": doc.get("turns"),
    }
    return {k: v for k, v in kept.items() if v is not None}


def _forces(
    rules: GameRules, ctx: Any, game: Game, doc: Mapping[str, Any], forces: Sequence[Mapping[str, Any]]
) -> NewForces:
    """The scenario's forces at the game's table and readings; or the request's organisation-table entries
    written as a scenario's (each entry's units under `forces-<i>/`), refused naming `forces.<i>`."""
    if doc:
        return rules.new_forces(ctx, doc)
    nations = {"attacker": game.attacker_nation, "defender": game.defender_nation}
    by_side: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    fields: dict[str, str] = {}
    for i, force in enumerate(forces):
        entries = by_side[force["side"]]
        fields[f"sides.{force['side']}.forces.{len(entries)}"] = f"forces.{i}"
        entries.append({**{k: v for k, v in force.items() if k != "side"}, "id": f"forces-{i}"})
    written = {
        "table": {"width_cm": game.table_width_cm, "length_cm": game.table_length_cm},
        "sides": {side: {"nationality": nations[side], "forces": by_side[side]} for side in SIDES},
    }
    try:
        return rules.new_forces(ctx, written)
    except RulesError as e:
        for written_at, asked_at in fields.items():
            if e.field.startswith(written_at + ".") or e.field == written_at:
                e.field = asked_at + e.field[len(written_at) :]
                break
        raise


def require_room_for_units(
    session: Session, game_id: int | None, adding: int, field: str = "forces", rules: GameRules | None = None
) -> None:
    """Every path that adds units asks first: past the rule set's cap (GameRules.unit_cap) a 422 names the
    cap, what the game holds and what the request would add. `game_id` None: a game being created (of
    `rules`), which holds none yet."""
    held = 0
    if game_id is not None:
        held = session.exec(select(func.count()).select_from(Unit).where(Unit.game_id == game_id)).one()
        game = session.get(Game, game_id)
        rules = game_rules_or_none(game.ruleset) if game is not None else rules
    cap = (rules or new_game_rules()).unit_cap()
    if cap is not None and held + adding > cap[0]:
        raise RulesError(
            field,
            f"{cap[1]}; it holds {held} and this would add {adding}",
            [f"0..{max(0, cap[0] - held)} units more"],
        )


def table_force(game: Game, force: Mapping[str, Any], field: str, id_prefix: str) -> ForceNode:
    """A force ({side, table_id, quality?, template?, name?, counts?}) built for a game by its rule set
    (GameRules.force_from_table): of the side's nation, for the game's period and readings; a 422 names
    `<field>.table_id` and the tables that would do. Unit ids are `<id_prefix>/<table>/...`. A formation of
    the rule set's chart ({side, sub_units, quality?, name?}) is built by its chart (Book.force_chart)."""
    setup = get_game_rules(game.ruleset)
    if "sub_units" in force:  # a formation of the rule set's chart of troops (rules.core.forces)
        if setup.book.force_chart is None:
            at = f"{field}." if field else ""
            raise RulesError(f"{at}sub_units", "these games build no forces from a chart of troops", [])
        return build_force(setup.book.force_chart, force, field, id_prefix)
    nation = game.attacker_nation if force["side"] == "attacker" else game.defender_nation
    return setup.force_from_table(game.period, game.variants, nation, force, field, id_prefix)
