"""Creating a game: its sides and credentials, its forces built from the organisation tables and deployed
at default positions on the table, and the first event of its log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlmodel import Session, func, select

from app.data.models import Game, Unit
from app.guard.auth import SIDES
from app.services.events import record
from app.services.seats import Credentials, create_sides
from app.services.units import add_unit_tree
from rules.core.errors import RulesError
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.book.organisation import (
    ORGANISATION_TABLES,
    build_force,
    build_template,
    max_units_per_game,
)
from rules.flanders_fields.book.organisation import Unit as OrgUnit
from rules.flanders_fields.planning.scenarios import DEPLOY_DEPTH
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import get_ruleset
from rules.table.bases import BASES

# -- creating a game -------------------------------------------------------------------------------------------
# New games are Flanders Fields games: their forces come from its organisation tables and scenarios. Once
# created, a game is played by the rules of its own `ruleset` (rules.registry.get_game_rules).
NEW_GAME_RULESET = FlandersFields.id


def create_game(
    session: Session,
    secret_key: str,
    *,
    scenario: str | None = None,
    name: str | None = None,
    period: str | None = None,
    attacker_nation: str = "",
    defender_nation: str = "",
    variants: dict[str, str] | None = None,
    table_width_cm: float | None = None,
    table_length_cm: float | None = None,
    terrain: dict[str, Any] | None = None,
    forces: Sequence[Mapping[str, Any]] = (),
) -> tuple[Game, Credentials]:
    """A new game, by hand, from a scenario, or with `forces` ({side, table, quality?, name?}) built from the
    organisation tables and deployed; forces are stored the way a scenario's are. Returns the credentials
    once."""
    rs = get_ruleset(NEW_GAME_RULESET)
    spec = None
    if scenario is not None:
        from rules.flanders_fields.planning.scenarios import build_scenario

        # Built with this game's readings: an erratum may change the forces.
        spec = build_scenario(scenario, variants)
        if forces:
            raise RulesError(
                "forces", "a scenario brings its own forces: give a scenario or forces, not both"
            )
    period = period or (spec.period if spec else _common_period(forces))
    rs.context(period, variants or {})  # refuses unknown periods and errata with a 422 naming them
    if terrain is not None:
        from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
        from rules.table.terrain import terrain_from_geojson

        # Refuses bad features with a 422 naming them.
        terrain_from_geojson(terrain, wire_belt_cm=WIRE_BELT_CM)
    game = Game(
        name=name or (spec.name if spec else "New game"),
        ruleset=NEW_GAME_RULESET,
        period=period,
        variants=dict(variants or {}),
        table_width_cm=table_width_cm or (spec.table_width_cm if spec else 120.0),
        table_length_cm=table_length_cm or (spec.table_length_cm if spec else 180.0),
        attacker_nation=attacker_nation
        or (spec.attacker_nation if spec else _table_nation(forces, "attacker")),
        defender_nation=defender_nation
        or (spec.defender_nation if spec else _table_nation(forces, "defender")),
        scenario=scenario,
        terrain=terrain or (dict(spec.terrain) if spec else {"type": "FeatureCollection", "features": []}),
        notes="\n".join(spec.notes) if spec else "",
    )
    built = _built_forces(game, forces)
    order_of_battle: Mapping[str, Sequence[OrgUnit]] = spec.forces if spec is not None else built
    require_room_for_units(session, None, units_in(*(n for nodes in order_of_battle.values() for n in nodes)))
    session.add(game)
    session.flush()
    assert game.id is not None
    creds = create_sides(session, secret_key, game)
    placements, off_table = (
        (spec.placements, list(_off_table(spec))) if spec is not None else _deploy(game, built)
    )
    for side, nodes in order_of_battle.items():
        for node in nodes:
            add_unit_tree(session, game.id, side, node, placements, off_table=off_table)
    record(
        session,
        game,
        "game-created",
        "referee",
        {
            "scenario": scenario,
            "period": period,
            "source": spec.source if spec else "",
            "forces": [dict(f) for f in forces],
        },
        step="setup",
    )
    session.flush()
    return game, creds


def units_in(*trees: OrgUnit) -> int:
    """How many units (formations and stands) these built forces add to a game."""
    return sum(1 for tree in trees for _ in tree.walk())


def require_room_for_units(session: Session, game_id: int | None, adding: int, field: str = "forces") -> None:
    """Every path that adds units asks first: past max_units_per_game() (two sides of the largest game the book
    describes) a 422 names the cap, what the game holds and what the request would add. `game_id` None: a
    game being created, which holds none yet."""
    cap = max_units_per_game()
    held = 0
    if game_id is not None:
        held = session.exec(select(func.count()).select_from(Unit).where(Unit.game_id == game_id)).one()
    if held + adding > cap:
        raise RulesError(
            field,
            f"a game holds at most {cap} units (a division a side, the largest game the book "
            f"describes, twice over); it holds {held} and this would add {adding}",
            [f"0..{max(0, cap - held)} units more"],
        )


def _off_table(spec: Any) -> Iterable[str]:
    return [uid for ids in spec.off_table.values() for uid in ids]


# -- forces from the organisation tables -----------------------------------------------------------------------
def _common_period(forces: Sequence[Mapping[str, Any]]) -> str:
    """The earliest period every named table covers (unknown tables are refused later); else early."""
    periods = [
        ORGANISATION_TABLES[f["table_id"]]["periods"] for f in forces if f["table_id"] in ORGANISATION_TABLES
    ]
    return next((p for p in PERIODS if all(p in ps for ps in periods)), "early")


def _table_nation(forces: Sequence[Mapping[str, Any]], side: str) -> str:
    tables = [f["table_id"] for f in forces if f["side"] == side and f["table_id"] in ORGANISATION_TABLES]
    return str(ORGANISATION_TABLES[tables[0]]["nation"]) if tables else ""


def tables_for(nation: str, period: str | None) -> list[str]:
    """Organisation tables of a nation (any when blank) drawn for a period (any when None)."""
    return [
        tid
        for tid, meta in ORGANISATION_TABLES.items()
        if (not nation or meta["nation"] == nation) and (period is None or period in meta["periods"])
    ]


def _built_forces(game: Game, forces: Sequence[Mapping[str, Any]]) -> dict[str, list[OrgUnit]]:
    out: dict[str, list[OrgUnit]] = {side: [] for side in SIDES}
    for i, force in enumerate(forces):
        out[force["side"]].append(table_force(game, force, f"forces.{i}", f"forces-{i}"))
    return out


def table_force(game: Game, force: Mapping[str, Any], field: str, id_prefix: str) -> OrgUnit:
    """Build a force ({side, table_id, quality?, template?, name?, counts?}) for a game with build_force, or
    only the table's named part `template` (e.g. one battalion) with build_template; `counts` keeps fewer of a
    kind of box than the chart draws (the builders' `counts`: services only, the API takes none). The table
    must exist, be of the side's nation and be drawn for the game's period: else a 422 on `<field>.table_id`
    naming the tables that would do (`<field>.quality` for a quality the table does not allow,
    `<field>.template` naming the table's parts for a part it does not print). Unit ids are
    `<id_prefix>/<table>/...`, so each force of a game needs its own prefix."""
    at = f"{field}." if field else ""
    side, table = force["side"], force["table_id"]
    nation = (game.attacker_nation if side == "attacker" else game.defender_nation).strip().lower()
    fitting = tables_for(nation, game.period)
    meta = ORGANISATION_TABLES.get(table)
    if meta is None:
        raise RulesError(f"{at}table_id", f"unknown organisation table {table!r}", fitting)
    if nation and meta["nation"] != nation:
        raise RulesError(f"{at}table_id", f"{meta['title']} is not a {nation} table", fitting)
    if game.period not in meta["periods"]:
        raise RulesError(
            f"{at}table_id", f"{meta['title']} is not drawn for the {game.period} period", fitting
        )
    template = force.get("template")
    try:
        if template is None:
            return build_force(
                table,
                quality=force.get("quality"),
                name=force.get("name"),
                variants=game.variants,
                id_prefix=f"{id_prefix}/{table}",
                counts=force.get("counts"),
            )
        templates = [t["id"] for t in meta["templates"]]
        if template not in templates:
            printed = "" if templates else ": it names no part to build alone (omit template)"
            raise RulesError("template", f"{meta['title']} has no part {template!r}{printed}", templates)
        return build_template(
            table,
            template,
            quality=force.get("quality"),
            name=force.get("name"),
            variants=game.variants,
            id_prefix=f"{id_prefix}/{table}/{template}",
            counts=force.get("counts"),
        )
    except RulesError as e:  # the builders name `quality`: point at this force in the request
        e.field = f"{at}{e.field}"
        raise


DEPLOY_GAP_CM = 1.0  # firestep's spacing between default positions, not a rule


def _deploy(game: Game, forces: Mapping[str, list[OrgUnit]]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Default positions for forces built from the tables. The rule book only says "Attacker and Defender
    deploy their forces a battalion at a time" (GAME SEQUENCE), so firestep lines each side up in the zone
    of the specimen game, "Both sides deploy 15cm onto the table" (SPECIMEN GAMES, Mons), at its own base
    edge: battalion by battalion, front rows first, every stand facing the enemy. A battalion (or a stand
    outside any) that no longer fits starts off the table, for the referee to bring on."""
    placements: dict[str, dict[str, Any]] = {}
    off_table: list[str] = []
    width = game.table_width_cm
    depth = min(DEPLOY_DEPTH, game.table_length_cm / 2)  # a small table: the zones meet in the middle
    for side, roots in forces.items():
        groups = [g for root in roots for g in _deploy_groups(root)]
        facing = 90.0 if side == "attacker" else 270.0
        toward_back = -1.0 if side == "attacker" else 1.0  # rows run away from the enemy
        front = depth if side == "attacker" else game.table_length_cm - depth
        x, row_start, row_depth = DEPLOY_GAP_CM, 0.0, 0.0  # row_start: distance of the row behind `front`
        for group in groups:
            saved = (x, row_start, row_depth)
            trial: dict[str, dict[str, Any]] = {}
            for stand in group.stands():
                base = BASES[stand.base or ""]
                if x + base.width_cm + DEPLOY_GAP_CM > width:
                    x, row_start, row_depth = DEPLOY_GAP_CM, row_start + row_depth + DEPLOY_GAP_CM, 0.0
                if x + base.width_cm + DEPLOY_GAP_CM > width or row_start + base.depth_cm > depth:
                    break
                depth_centre = row_start + base.depth_cm / 2
                trial[stand.id] = {
                    "center": [x + base.width_cm / 2, front + toward_back * depth_centre],
                    "facing_deg": facing,
                }
                x, row_depth = x + base.width_cm + DEPLOY_GAP_CM, max(row_depth, base.depth_cm)
            else:
                placements.update(trial)
                continue
            x, row_start, row_depth = saved
            off_table.append(group.id)
    return placements, off_table


def _deploy_groups(unit: OrgUnit) -> list[OrgUnit]:
    """What deploys as one: each battalion (artillery groups included), and each stand outside any."""
    if unit.level == "battalion" or unit.base is not None:
        return [unit]
    return [g for c in unit.children for g in _deploy_groups(c)]
