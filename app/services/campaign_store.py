"""Campaigns persisted like games: create with an organiser token and a join code per side, join, act for one's
side, undo (organiser), change the map before play. The rules are the pure state machine the rule set declares
(rules.core.campaign.Campaign, read through rules.registry.the_campaign); this module only stores its states
and the log. The API routes
(app/routes/campaign_games.py) and the pages (app/pages/campaigns.py) both call these functions, so
both give the same answers and refusals. The seats (join codes, tokens, devices) are app.services.seating and
the row lock, version check and undone entries app.services.versioned, the same code as a game's; the tables
are the campaign's own. Nothing here commits: the route or page wraps each write in
`app.services.writing.unit_of_work`.

Roles: "referee" is the organiser (the campaign's referee, seating.REFEREE), "german" and "bef" the players.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select as sa_select
from sqlalchemy import update
from sqlmodel import Session, col, select

from app.data.models import Campaign, CampaignEvent, CampaignSide, CampaignToken, utcnow
from app.data.schemas_campaign import CampaignOut
from app.errors import Conflict, Forbidden
from app.services import seating, versioned
from app.services.seating import REFEREE, Viewer
from rules.core.campaign import CampaignState
from rules.core.dice import DiceSource, roll
from rules.core.errors import NotFoundError, RulesError
from rules.registry import the_campaign

CAMPAIGN_RULES = the_campaign()  # the rule set's campaign (rules.core.campaign.Campaign)
DEFAULT_NAME = CAMPAIGN_RULES.name


# -- reading -------------------------------------------------------------------------------------------------
def listing_of(row: Campaign) -> CampaignOut:
    """What the lobby shows of a campaign: never its state or map, only the turn and phase inside it."""
    state = state_of(row)
    return CampaignOut(
        id=row.pk,
        name=row.name,
        ruleset=row.ruleset,
        version=row.version,
        turn=state.turn,
        phase=state.phase,
        variants=row.variants,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def list_campaigns(session: Session) -> list[CampaignOut]:
    """The lobby: the database reads turn and phase out of each state, so no state is loaded."""
    state = col(Campaign.state)
    rows = session.execute(
        sa_select(
            col(Campaign.id),
            col(Campaign.name),
            col(Campaign.ruleset),
            col(Campaign.version),
            state["turn"].as_integer().label("turn"),
            state["phase"].as_string().label("phase"),
            col(Campaign.variants),
            col(Campaign.created_at),
            col(Campaign.updated_at),
        ).order_by(col(Campaign.id))
    )
    return [CampaignOut.model_validate(r, from_attributes=True) for r in rows]


def get(session: Session, campaign_id: int) -> Campaign:
    row = session.get(Campaign, campaign_id)
    if row is None:
        raise NotFoundError("campaign", str(campaign_id))
    return row


def state_of(row: Campaign) -> CampaignState:
    return CAMPAIGN_RULES.state.model_validate(row.state)


def snapshot(row: Campaign) -> dict[str, Any]:
    """What a client needs to act: the version, the state, what may be done next and the score."""
    state = state_of(row)
    return {
        "id": row.id,
        "name": row.name,
        "version": row.version,
        "state": state.model_dump(mode="json"),
        "legal_actions": CAMPAIGN_RULES.legal_actions(state),
        "result": CAMPAIGN_RULES.result(state),
    }


def acting_side(state: CampaignState, action_type: str) -> str | None:
    """The side whose decision an action is (attack, defend, retreat ...); None when both sides take part
    (initiative, the battle dice, destroy and capture rolls), so either player or the organiser may tap it."""
    for entry in CAMPAIGN_RULES.legal_actions(state):
        if entry["type"] == action_type:
            side = entry.get("side")
            return str(side) if side else None
    return None


def events(session: Session, campaign_id: int, after_id: int = 0, limit: int = 1000) -> list[CampaignEvent]:
    q = select(CampaignEvent).where(
        CampaignEvent.campaign_id == campaign_id, col(CampaignEvent.id) > after_id
    )
    return list(session.exec(q.order_by(col(CampaignEvent.id)).limit(limit)))


def reversed_ids(session: Session, campaign_id: int) -> set[int]:
    return versioned.reversed_ids(session, CampaignEvent, "campaign_id", campaign_id)


def event_dict(ev: CampaignEvent, undone: set[int]) -> dict[str, Any]:
    out = ev.model_dump(mode="json", exclude={"state_before", "campaign_id"})
    out["undone"] = ev.id in undone
    return out


# -- access --------------------------------------------------------------------------------------------------
def create(
    session: Session,
    secret_key: str,
    name: str | None = None,
    adjacency: Mapping[str, Sequence[str]] | None = None,
    variants: Mapping[str, str] | None = None,
) -> tuple[Campaign, seating.Credentials]:
    """A new campaign at the start of turn 1; returns it with the organiser's token and a join code per side
    (shown once: only their HMACs are kept)."""
    state = CAMPAIGN_RULES.new(adjacency, variants)
    row = Campaign(
        name=name or DEFAULT_NAME,
        variants=dict(variants or {}),
        adjacency={k: list(v) for k, v in state.adjacency.items()},
        state=state.model_dump(mode="json"),
    )
    session.add(row)
    session.flush()
    assert row.id is not None
    campaign_id = row.id

    def new_side(owner_id: int, side: str, join_code_hash: str) -> CampaignSide:
        return CampaignSide(campaign_id=owner_id, side=side, join_code_hash=join_code_hash)

    (creds,) = seating.seat_sides(
        session, seating.CAMPAIGN, secret_key, [campaign_id], CAMPAIGN_RULES.sides, new_side
    )
    session.add(CampaignEvent(campaign_id=campaign_id, kind="created", actor=REFEREE, version=row.version))
    session.flush()
    return row, creds


def reissue(session: Session, secret_key: str, campaign_id: int, who: Viewer) -> seating.Credentials:
    """New organiser token and join codes (organiser): every old token and code stops working."""
    who.require_referee("issue new join codes")
    lock(session, campaign_id)
    return seating.reissue(session, seating.CAMPAIGN, secret_key, campaign_id)


def devices(session: Session, campaign_id: int, who: Viewer) -> list[CampaignToken]:
    who.require_referee("see the campaign's devices")
    get(session, campaign_id)
    return seating.devices(session, seating.CAMPAIGN, campaign_id)


def revoke(session: Session, campaign_id: int, who: Viewer, device_id: int) -> CampaignToken:
    who.require_referee("revoke a device")
    lock(session, campaign_id)
    return seating.revoke_device(session, seating.CAMPAIGN, campaign_id, device_id)


def join(session: Session, secret_key: str, code: str) -> seating.Joined:
    """A player's token for the side whose join code this is."""
    return seating.join(session, seating.CAMPAIGN, secret_key, code)


def seat(session: Session, secret_key: str, campaign_id: int, side: str) -> seating.Joined:
    """A player's token for a side `seating.side_of_code` found (the join page, which asks first)."""
    return seating.seat(session, seating.CAMPAIGN, secret_key, campaign_id, side)


# -- writing -------------------------------------------------------------------------------------------------
def lock(session: Session, campaign_id: int) -> Campaign:
    """Take the campaign row before a write, so writes to one campaign run one at a time (as a game's)."""
    return versioned.lock_row(session, Campaign, campaign_id, "campaign")


def _check_version(row: Campaign, expected: int) -> None:
    versioned.check_version("campaign", row.version, expected, lambda: snapshot(row))


def _write(session: Session, row: Campaign, state: CampaignState, ev: CampaignEvent) -> None:
    """Store the next state on the version the caller checked, and its log entry, in the caller's unit of
    work. The UPDATE only lands on that version, so two writers can never both move on from the same state."""
    assert row.id is not None
    seen = row.version
    result = session.execute(
        update(Campaign)
        .where(col(Campaign.id) == row.id, col(Campaign.version) == seen)
        .values(state=state.model_dump(mode="json"), version=seen + 1, updated_at=utcnow())
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise Conflict("the campaign changed meanwhile", current=snapshot(get(session, row.id)))
    ev.version = seen + 1
    session.add(ev)
    session.flush()
    session.refresh(row)
    session.refresh(ev)


def note(session: Session, row: Campaign, ev: CampaignEvent) -> CampaignEvent:
    """A log entry that leaves the state as it is (a table battle opened, its result offered, its game
    deleted) on the next version, as an action is: a device holding the version before gets 409. Written with
    the caller's changes; the caller holds the row's lock (lock())."""
    _write(session, row, state_of(row), ev)
    return ev


def act(
    session: Session,
    campaign_id: int,
    who: Viewer,
    action: Mapping[str, Any],
    dice: Sequence[int] | None,
    version: int,
    source: DiceSource | None = None,
) -> tuple[Campaign, CampaignEvent]:
    """Apply one action on the version the client saw. Dice omitted: the server rolls as many as it takes."""
    row = lock(session, campaign_id)
    _check_version(row, version)
    state = state_of(row)
    side = acting_side(state, str(action.get("type", "")))
    if side is not None and not who.may_act_for(side):
        raise Forbidden(f"the {who.role} player may not {action.get('type')}: it is the {side}'s decision")
    by_server = dice is None
    rolled = (
        list(roll([6] * CAMPAIGN_RULES.dice_needed(state, action), source or random.SystemRandom()))
        if dice is None
        else list(dice)
    )
    new, happened = CAMPAIGN_RULES.apply(state, action, rolled)
    ev = CampaignEvent(
        campaign_id=campaign_id,
        kind="action",
        actor=who.role,
        turn=state.turn,
        phase=state.phase,
        action=dict(action),
        dice=rolled,
        rolled_by_server=by_server,
        events=happened,
        state_before=row.state,
    )
    _write(session, row, new, ev)
    return row, ev


def undo(session: Session, campaign_id: int, who: Viewer, version: int) -> tuple[Campaign, CampaignEvent]:
    """The organiser takes back the latest action not yet taken back: a new event restores the state before
    it; nothing is deleted."""
    who.require_referee("undo an action")
    row = lock(session, campaign_id)
    _check_version(row, version)
    target = _last_action(session, campaign_id)
    if target is None or target.state_before is None:
        raise RulesError("version", "there is no action left to undo")
    restored: CampaignState = CAMPAIGN_RULES.state.model_validate(target.state_before)
    ev = CampaignEvent(
        campaign_id=campaign_id,
        kind="undo",
        actor=who.role,
        turn=restored.turn,
        phase=restored.phase,
        action=target.action,
        dice=target.dice,
        state_before=row.state,
        reverses_id=target.id,
    )
    _write(session, row, restored, ev)
    return row, ev


def _last_action(session: Session, campaign_id: int) -> CampaignEvent | None:
    undone = reversed_ids(session, campaign_id)
    actions = session.exec(
        select(CampaignEvent)
        .where(CampaignEvent.campaign_id == campaign_id, CampaignEvent.kind == "action")
        .order_by(col(CampaignEvent.id).desc())
    )
    return next((a for a in actions if a.id not in undone), None)


def set_map(
    session: Session,
    campaign_id: int,
    who: Viewer,
    adjacency: Mapping[str, Sequence[str]] | None,
    version: int,
) -> tuple[Campaign, CampaignEvent]:
    """The organiser's corrected map (None: back to map.json), only while no action stands."""
    who.require_referee("change the map")
    row = lock(session, campaign_id)
    _check_version(row, version)
    if _last_action(session, campaign_id) is not None:
        raise Forbidden("the map can only be changed before the first action (undo every action first)")
    state = CAMPAIGN_RULES.new(adjacency, row.variants)
    row.adjacency = {k: list(v) for k, v in state.adjacency.items()}
    session.add(row)
    ev = CampaignEvent(
        campaign_id=campaign_id,
        kind="map",
        actor=who.role,
        action={"adjacency": row.adjacency},
        state_before=row.state,
    )
    _write(session, row, state, ev)
    return row, ev
