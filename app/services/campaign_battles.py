"""A Firestorm campaign's battle fought on the table (issue 17). From a battle waiting for its result the
organiser opens a Flanders Fields game whose forces, terrain and period come from the campaign's
`table_battle` (rules.core.campaign.Campaign); once the game is finished its referee (or the organiser) records
who holds the field, the losses are counted from the game's stands and the campaign's `offer_of_game` turns
them into a Great War score, which the organiser confirms (or overrides with their own) as the campaign's
resolve action, through app.services.campaign_store like any other action. The link is a `CampaignBattle` row; the
campaign log and the game log each name the other. Every step the campaign's devices see (opened, offered,
abandoned when its game is deleted, confirmed, overridden) is a campaign log entry on a new campaign version
(campaign_store.note / act), so a device acting on an older view gets 409.

Credentials: opening answers the game's referee token and join codes once, as creating a game does. A
campaign player never needs a code: `seat` gives the holder of a campaign side's token a new game device of
their own side of the game (the Firestorm attacker is the game's attacker), never the other side's.

Nothing here commits: the caller's unit of work (app.services.writing) commits a step's link change, game log
entry and campaign log entries (campaign_store.note and act) in one transaction, under the campaign's lock."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal, TypedDict

from sqlmodel import Session, col, select

from app.data.models import Campaign, CampaignBattle, CampaignEvent, Game, Unit, utcnow
from app.data.schemas_campaign import (
    BattleOffer,
    GameCampaignLink,
    OfferOut,
    ScoreOut,
    TableBattleOut,
    TableOutcomeOut,
)
from app.errors import Forbidden, RuleRefused
from app.services import campaign_store, games, seating, versioned
from app.services.events import record
from app.services.game_setup import create_game, require_room_for_units, units_in
from app.services.games import get_game, lock_game
from app.services.result import game_result
from app.services.seating import Viewer
from app.services.units import add_unit_tree
from rules.core.campaign import CampaignState, ResultOffer, TableBattle, TableOutcome
from rules.core.errors import NotFoundError, RulesError
from rules.registry import the_campaign

CAMPAIGN_RULES = the_campaign()  # the rule set's campaign (rules.core.campaign.Campaign)
AREA_NAMES = CAMPAIGN_RULES.map.area_names

FieldHeld = Literal["attacker", "defender", "neither"]
FIELD_HELD: tuple[FieldHeld, ...] = ("attacker", "defender", "neither")
OPEN = ("open", "offered")  # not yet settled: at most one per campaign battle (uq_campaign_battle_open)
APPLIED = ("confirmed", "overridden")
MAX_VP = 20  # the Great War score the campaign's resolve action takes: 0..20 a side
LOG_KIND = "table-battle"  # the campaign log's entries about table games
GAME_LOG_KIND = "campaign-battle"  # the game log's entry naming its campaign battle
# The campaign log's actor for a step taken from the game by its referee, who need not hold a campaign seat.
TABLE_REFEREE = "table referee"


def game_path(game_id: int) -> str:
    return f"/games/{game_id}/referee"


def campaign_path(campaign_id: int) -> str:
    return f"/campaigns/{campaign_id}"


# -- reading -------------------------------------------------------------------------------------------------
def battle_waiting(state: CampaignState) -> tuple[int, int] | None:
    """(turn, battle number from 1) of the battle waiting for its result, None when none is."""
    return (state.turn, state.battle + 1) if state.phase == "resolve" and state.current else None


def status_now(link: CampaignBattle, state: CampaignState) -> str:
    """A link not yet settled whose battle the campaign has moved past (resolved by hand), or whose game was
    deleted, is abandoned: its result can no longer be applied. A result applied and then undone by the
    organiser (the battle waits for its result again) is back to offered, to be confirmed again."""
    waiting = battle_waiting(state) == (link.turn, link.battle)
    if link.status in OPEN and (link.game_id is None or not waiting):
        return "abandoned"
    if link.status in APPLIED and waiting:
        return "offered" if link.offer_attacker_vp is not None else "open"
    return link.status


def links(session: Session, campaign_id: int) -> list[CampaignBattle]:
    q = select(CampaignBattle).where(CampaignBattle.campaign_id == campaign_id)
    return list(session.exec(q.order_by(col(CampaignBattle.id))))


def get_link(session: Session, campaign_id: int, link_id: int) -> CampaignBattle:
    link = session.get(CampaignBattle, link_id)
    if link is None or link.campaign_id != campaign_id:
        raise NotFoundError("table battle", str(link_id))
    return link


def link_dict(link: CampaignBattle, state: CampaignState, game: Game | None) -> TableBattleOut:
    """What every seat of the campaign may read of a table battle: never a credential."""
    defender = "bef" if link.attacker == "german" else "german"
    status = status_now(link, state)
    return TableBattleOut(
        id=link.pk,
        campaign_id=link.campaign_id,
        turn=link.turn,
        battle=link.battle,
        area=link.area,
        area_name=AREA_NAMES.get(link.area, ""),
        period=link.period,
        attacker=link.attacker,
        game_sides={link.attacker: "attacker", defender: "defender"},
        status=status,
        game_id=link.game_id,
        game_name=game.name if game else None,
        game_status=game.status if game else None,
        game_path=game_path(link.game_id) if link.game_id else None,
        field_held_by=link.field_held_by,
        offer=OfferOut(
            attacker_vp=link.offer_attacker_vp, defender_vp=link.offer_defender_vp, **dict(link.offer)
        )
        if link.offer_attacker_vp is not None
        and link.offer_defender_vp is not None
        and link.offer is not None
        else None,
        applied=ScoreOut(attacker_vp=link.applied_attacker_vp, defender_vp=link.applied_defender_vp)
        if status in APPLIED and link.applied_attacker_vp is not None and link.applied_defender_vp is not None
        else None,
        created_at=link.created_at,
        updated_at=link.updated_at,
    )


def view(session: Session, link: CampaignBattle, state: CampaignState) -> TableBattleOut:
    game = session.get(Game, link.game_id) if link.game_id is not None else None
    return link_dict(link, state, game)


class BoardView(TypedDict):
    """The campaign page's part of its table battles (`board_view`)."""

    table_battles: list[TableBattleOut]
    table_battle_now: TableBattleOut | None
    may_open_table_battle: bool


def board_view(session: Session, campaign_id: int, state: CampaignState, who: Viewer) -> BoardView:
    """The campaign page's part: every table battle (newest first), the one of the battle waiting now, and
    whether this seat may open one."""
    shown = [view(session, link, state) for link in reversed(links(session, campaign_id))]
    waiting = battle_waiting(state)
    now = next(
        (v for v in shown if (v.turn, v.battle) == waiting and v.status in OPEN),
        None,
    )
    return {
        "table_battles": shown,
        "table_battle_now": now,
        "may_open_table_battle": who.is_referee and waiting is not None and now is None,
    }


def game_link(session: Session, game_id: int) -> GameCampaignLink | None:
    """The campaign battle a game was opened for (the newest link naming it), for the game's pages and API."""
    q = (
        select(CampaignBattle)
        .where(CampaignBattle.game_id == game_id)
        .order_by(col(CampaignBattle.id).desc())
    )
    link = session.exec(q).first()
    if link is None:
        return None
    row = campaign_store.get(session, link.campaign_id)
    # The table battle as the campaign shows it, less the game's own fields, with the campaign's name and page.
    shown = link_dict(link, campaign_store.state_of(row), None)
    return GameCampaignLink(
        **shown.model_dump(include=set(GameCampaignLink.model_fields)),
        campaign_name=row.name,
        table_battle_id=link.pk,
        campaign_path=campaign_path(link.campaign_id),
    )


def log_entries_now(
    session: Session, campaign_id: int, entries: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The campaign log's entries with each table-battle entry's game as it is now (id and path; None once
    the game is deleted): the id an entry kept may since belong to another game (SQLite reuses ids)."""
    games_now = log_games(session, campaign_id)
    out = []
    for e in entries:
        action = e.get("action") or {}
        if e.get("kind") == LOG_KIND and "table_battle_id" in action:
            game_now = games_now.get(action["table_battle_id"])
            e = {
                **e,
                "action": {**action, "game_id": game_now, "path": game_path(game_now) if game_now else None},
            }
        out.append(e)
    return out


def log_games(session: Session, campaign_id: int) -> dict[int, int | None]:
    """table battle id -> its game's id now (None once the game is deleted), for the campaign log's links:
    a log entry keeps the game id of its day, which a database may since have given to another game."""
    return {link.id: link.game_id for link in links(session, campaign_id) if link.id is not None}


# -- opening -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Opened:
    link: CampaignBattle
    game: Game
    credentials: seating.Credentials | None  # the game's referee token and join codes, only when just opened


def _organiser(who: Viewer, what: str) -> None:
    if not who.is_referee:
        raise Forbidden(f"only the campaign's organiser may {what}")


def _settle(session: Session, campaign_id: int, state: CampaignState) -> None:
    """Store each link's status as it is now (abandoned, or offered again after an undo), so that the
    battle's one open link (unique while open) is the one the campaign page shows."""
    for link in links(session, campaign_id):
        now = status_now(link, state)
        if now != link.status:
            link.status, link.updated_at = now, utcnow()
            session.add(link)
    session.flush()


def _waiting_or_refuse(state: CampaignState, what: str) -> tuple[int, int]:
    waiting = battle_waiting(state)
    if waiting is None:
        where = "the campaign is over" if state.phase == "finished" else f"it is at the {state.phase} step"
        raise RuleRefused(
            f"No campaign battle is waiting for its result: {what} once both sides commit troops",
            why=f"no campaign battle is waiting for its result ({where}): {what} once both sides have committed "
            "their troops to a battle",
        )
    return waiting


def _forces(tb: TableBattle) -> list[dict[str, Any]]:
    out = []
    for f in tb.forces:
        force: dict[str, Any] = {"side": f.side, "table_id": f.table, "name": f.name}
        if f.quality is not None:
            force["quality"] = f.quality
        if f.template is not None:  # one battalion-scale part of the table (erratum firestorm-troop-to-force)
            force["template"] = f.template
        if f.counts:  # fewer companies or platoons than the chart draws (erratum gassed-bef-force)
            force["counts"] = dict(f.counts)
        out.append(force)
    return out


def _add_nests(session: Session, game_id: int, tb: TableBattle) -> None:
    """The defender's trench HMG nests, each a stand placed in its front trench (off the table when the table
    has no trench yet), besides the forces create_game deployed."""
    require_room_for_units(session, game_id, units_in(*(nest.unit for nest in tb.nests)), "nests")
    for nest in tb.nests:
        placed = (
            {}
            if nest.center is None
            else {nest.unit.id: {"center": list(nest.center), "facing_deg": nest.facing_deg}}
        )
        off = () if nest.center is not None else (nest.unit.id,)
        add_unit_tree(session, game_id, "defender", nest.unit, placed, off_table=off)


def open_table_battle(
    session: Session, secret_key: str, campaign_id: int, who: Viewer, layout_seed: int | None = None
) -> Opened:
    """Open a Flanders Fields game for the battle waiting for its result (organiser). Opening it again while
    its game is open answers that game, without credentials (they were shown once)."""
    _organiser(who, "fight a campaign battle on the table")
    row = campaign_store.lock(session, campaign_id)
    state = campaign_store.state_of(row)
    turn, battle = _waiting_or_refuse(state, "open a table game")
    _settle(session, campaign_id, state)
    for link in links(session, campaign_id):
        if (link.turn, link.battle) == (turn, battle) and link.status in OPEN and link.game_id is not None:
            return Opened(link, get_game(session, link.game_id), None)
    seed = secrets.randbelow(2**31) if layout_seed is None else layout_seed
    tb = CAMPAIGN_RULES.table_battle(state, seed)
    place = tb.area if tb.area_name in ("", tb.area) else f"{tb.area_name} ({tb.area})"
    name = f"{place}, campaign turn {turn} battle {battle}"
    game, creds = create_game(
        session,
        secret_key,
        name=name[:200],
        period=tb.period,
        attacker_nation=tb.attacker_nation,
        defender_nation=tb.defender_nation,
        table_width_cm=tb.table_width_cm,
        table_length_cm=tb.table_length_cm,
        terrain=dict(tb.terrain),
        forces=_forces(tb),
        table_objectives=tb.objectives,
    )
    assert game.id is not None
    _add_nests(session, game.id, tb)
    game.notes = "\n".join(tb.notes)[:4000]  # the mission and what supply means on the table, for the referee
    link = CampaignBattle(
        campaign_id=campaign_id,
        turn=turn,
        battle=battle,
        game_id=game.id,
        area=tb.area,
        period=tb.period,
        attacker=tb.attacker,
        layout_seed=seed,
    )
    session.add(link)
    session.flush()
    record(
        session,
        game,
        GAME_LOG_KIND,
        "referee",
        {
            "campaign_id": campaign_id,
            "campaign": row.name,
            "turn": turn,
            "battle": battle,
            "area": tb.area,
            "area_name": tb.area_name,
            "terrain_kind": tb.terrain_kind,
            "date": tb.date,
            "period": tb.period,
            "attacker": tb.attacker,
            "path": campaign_path(campaign_id),
            "sources": list(tb.sources),
            "errata": list(tb.errata),
            "trench_hmg_nests": [n.unit.name for n in tb.nests],
        },
        step="setup",
    )
    _note(session, row, state, who.role, "opened", link, {"game_name": game.name, "date": tb.date})
    return Opened(link, game, creds)


def _note(
    session: Session,
    row: Campaign,
    state: CampaignState,
    actor: str,
    step: str,
    link: CampaignBattle,
    extra: Mapping[str, Any],
    game_id: int | None = None,
) -> CampaignEvent:
    """A campaign log entry about a table game on the next campaign version, naming the game (its id then
    and its path; the page links it through the link's row, see log_games), through campaign_store.note."""
    gid = link.game_id if game_id is None else game_id
    ev = CampaignEvent(
        campaign_id=link.campaign_id,
        kind=LOG_KIND,
        actor=actor,
        turn=state.turn,
        phase=state.phase,
        action={
            "type": LOG_KIND,
            "step": step,
            "table_battle_id": link.id,
            "game_id": gid,
            "path": game_path(link.game_id) if link.game_id else None,  # none for a deleted game
            "turn": link.turn,
            "battle": link.battle,
            "area": link.area,
            **extra,
        },
    )
    return campaign_store.note(session, row, ev)


# -- a seat at the game --------------------------------------------------------------------------------------
def seat(session: Session, secret_key: str, campaign_id: int, link_id: int, who: Viewer) -> seating.Joined:
    """A new game device for this campaign seat: the organiser referees, a campaign side plays its own side
    of the game (never the other's)."""
    campaign_store.get(session, campaign_id)
    link = get_link(session, campaign_id, link_id)
    if link.game_id is None:
        raise RuleRefused("this table game has been deleted")
    game = lock_game(session, link.game_id)
    assert game.id is not None
    if who.is_referee:
        role = seating.REFEREE
    elif who.role == link.attacker:
        role = "attacker"
    else:
        role = "defender"
    return seating.Joined(game.id, role, seating.issue(session, seating.GAME, secret_key, game.id, role))


# -- the result ----------------------------------------------------------------------------------------------
def outcome_of(session: Session, game: Game, field_held_by: FieldHeld) -> TableOutcome:
    """The stands (leaf units) each side started with and lost, counted as the after-action report counts
    them, and who holds the field as the referee recorded it."""
    units = list(session.exec(select(Unit).where(Unit.game_id == game.id)))
    parents = {u.parent_id for u in units if u.parent_id is not None}
    stands = [u for u in units if u.id not in parents]

    started = {side: sum(1 for u in stands if u.side == side) for side in ("attacker", "defender")}
    lost = {side: sum(1 for u in stands if u.side == side and u.killed) for side in ("attacker", "defender")}
    held: Literal["attacker", "defender"] | None = None if field_held_by == "neither" else field_held_by
    return CAMPAIGN_RULES.outcome(
        attacker_bases=started["attacker"],
        defender_bases=started["defender"],
        attacker_lost=lost["attacker"],
        defender_lost=lost["defender"],
        field_held_by=held,
    )


def _field(value: str) -> FieldHeld:
    for f in FIELD_HELD:
        if value == f:
            return f
    raise RulesError("field_held_by", "who holds the field at the end of the game", FIELD_HELD)


def make_offer(
    session: Session, campaign_id: int, link_id: int, who: Viewer, field_held_by: str
) -> CampaignBattle:
    """The finished game's result offered to the campaign by its organiser (see _offer)."""
    _organiser(who, "offer a table game's result to the campaign")
    held = _field(field_held_by)
    row = campaign_store.lock(session, campaign_id)
    return _offer(session, row, get_link(session, campaign_id, link_id), held, who.role)


def offer_from_game(session: Session, game_id: int, who: Viewer, field_held_by: str) -> CampaignBattle:
    """The finished game's result offered to its campaign by the game's referee (a game token: who runs the
    table need not hold the organiser's), the same offer as the organiser's (see _offer)."""
    if not who.is_referee:
        raise Forbidden("only the game's referee may offer its result to the campaign")
    held = _field(field_held_by)
    newest = game_link(session, game_id)
    if newest is None:
        raise NotFoundError("campaign battle of game", str(game_id))
    row = campaign_store.lock(session, newest.campaign_id)
    link = get_link(session, newest.campaign_id, newest.table_battle_id)
    return _offer(session, row, link, held, TABLE_REFEREE)


def _offer(
    session: Session, row: Campaign, link: CampaignBattle, held: FieldHeld, actor: str
) -> CampaignBattle:
    """Who holds the field (required), the losses from the game's stands, the Great War score from
    offer_of_game; on a new campaign version. Offering again replaces the offer until it is applied."""
    state = campaign_store.state_of(row)
    _must_be_unsettled(link, state)
    assert link.game_id is not None  # else abandoned
    game = get_game(session, link.game_id)
    if game.status != "finished":
        raise RuleRefused(
            f"the table game is not over yet (it is in {game.status}): the referee ends it first, then its "
            "result can be offered"
        )
    outcome = outcome_of(session, game, held)
    scored = game_result(session, game.pk)
    points = (scored.points["attacker"], scored.points["defender"]) if scored is not None else None
    # The losses and the field, or the points the table game scored, as the campaign reads them.
    offer: ResultOffer = CAMPAIGN_RULES.offer_of_game(
        outcome, points, CAMPAIGN_RULES.table_battle(state, link.layout_seed)
    )
    link.field_held_by = held
    link.offer_attacker_vp, link.offer_defender_vp = offer.attacker_vp, offer.defender_vp
    table = TableOutcomeOut.model_validate({**asdict(outcome), "field_held_by": held})
    link.offer = BattleOffer(winner=offer.winner, reasons=offer.reasons, sources=offer.sources, outcome=table)
    link.status, link.updated_at = "offered", utcnow()
    session.add(link)
    scores = {"attacker_vp": offer.attacker_vp, "defender_vp": offer.defender_vp, "field_held_by": held}
    _note(session, row, state, actor, "offered", link, scores)
    return link


def _must_be_unsettled(link: CampaignBattle, state: CampaignState) -> None:
    now = status_now(link, state)
    if now == "abandoned":
        what = "its game was deleted" if link.game_id is None else "the campaign has moved past this battle"
        raise RuleRefused(
            f"turn {link.turn} battle {link.battle} can no longer take this table game's result: {what} "
            "(resolved without it)"
        )
    if now not in OPEN:
        raise RuleRefused(f"this table game's result has already been applied to the campaign ({now})")


def confirm(session: Session, campaign_id: int, link_id: int, who: Viewer, version: int) -> CampaignBattle:
    """Apply the offered score as the battle's result (organiser), on the campaign version the client saw."""
    row, state, link = _before_applying(session, campaign_id, link_id, who, version, "confirm")
    if (
        link.offer_attacker_vp is None
        or link.offer_defender_vp is None
        or status_now(link, state) != "offered"
    ):
        raise RuleRefused(
            "no result has been offered yet: end the table game, record who holds the field, then confirm"
        )
    return _apply(session, row, state, link, who, link.offer_attacker_vp, link.offer_defender_vp, "confirmed")


def override(
    session: Session,
    campaign_id: int,
    link_id: int,
    who: Viewer,
    version: int,
    attacker_vp: int,
    defender_vp: int,
) -> CampaignBattle:
    """Apply the organiser's own score instead of the offer (or without one)."""
    for name, value in (("attacker_vp", attacker_vp), ("defender_vp", defender_vp)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VP:
            raise RulesError(name, f"a whole number of game points from 0 to {MAX_VP}")
    row, state, link = _before_applying(session, campaign_id, link_id, who, version, "override")
    return _apply(session, row, state, link, who, attacker_vp, defender_vp, "overridden")


def _before_applying(
    session: Session, campaign_id: int, link_id: int, who: Viewer, version: int, what: str
) -> tuple[Any, CampaignState, CampaignBattle]:
    _organiser(who, f"{what} a table game's result")
    row = campaign_store.lock(session, campaign_id)
    versioned.check_version("campaign", row.version, version, lambda: campaign_store.snapshot(row))
    state = campaign_store.state_of(row)
    link = get_link(session, campaign_id, link_id)
    _must_be_unsettled(link, state)
    return row, state, link


def _apply(
    session: Session,
    row: Any,
    state: CampaignState,
    link: CampaignBattle,
    who: Viewer,
    attacker_vp: int,
    defender_vp: int,
    status: str,
) -> CampaignBattle:
    """The campaign's resolve action with the Great War score, through campaign_store.act (version checked
    again under the lock), with the link's new status and the game log's entry; then the campaign log's
    entry naming the game, on the version after (one version per entry). One transaction: the caller's."""
    link.status, link.updated_at = status, utcnow()
    link.applied_attacker_vp, link.applied_defender_vp = attacker_vp, defender_vp
    session.add(link)
    scores = {"attacker_vp": attacker_vp, "defender_vp": defender_vp}
    if link.game_id is not None:
        game = lock_game(session, link.game_id)
        payload = {"campaign_id": link.campaign_id, "campaign": row.name, "status": status, **scores}
        record(session, game, "campaign-result", "referee", {**payload, "path": campaign_path(row.id)})
    action = {"type": "resolve", "great_war": scores}
    campaign_store.act(session, link.campaign_id, who, action, [], row.version)
    row = campaign_store.lock(session, link.campaign_id)  # the row as the action left it (still locked)
    _note(session, row, state, who.role, status, link, scores)
    session.refresh(link)
    return link


def delete_game(session: Session, game_id: int) -> None:
    """Delete a game (games.delete_game); a campaign battle still waiting for its result is abandoned: a
    campaign log entry on a new campaign version, committed with the deletion. Its link stays as the
    record, its game_id set null (ON DELETE SET NULL), so no link points at a later game given the same id."""
    q = select(CampaignBattle).where(CampaignBattle.game_id == game_id)
    waiting = [link for link in session.exec(q) if link.status in OPEN]
    # The campaigns first, then the game: the order every write here takes them in (no deadlock).
    rows = {cid: campaign_store.lock(session, cid) for cid in sorted({link.campaign_id for link in waiting})}
    games.delete_game(session, game_id)
    if not rows:
        return
    for link in waiting:
        session.refresh(link)
        link.status, link.updated_at = "abandoned", utcnow()
        session.add(link)
        row = campaign_store.lock(session, link.campaign_id)
        _note(session, row, campaign_store.state_of(row), TABLE_REFEREE, "abandoned", link, {}, game_id)
