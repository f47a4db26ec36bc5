"""The Firestorm: Villers-Bretonneux campaign as a pure state machine (the General's Wargame procedure,
with Great War game results accepted in place of the battle dice).

new_campaign() sets up the map; legal_actions(state) lists what may be done next and how many dice it
takes; apply(state, action, dice) returns the next state and what happened; result(state) scores it.
States are frozen pydantic models and round-trip through JSON; nothing here stores anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, Required

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic reads a TypedDict of typing_extensions on Python 3.11

from rules.core.errors import RulesError
from rules.core.ruleset import Context
from rules.firestorm.battle import (
    TANKS_LAST_TURN,
    BattleSetup,
    aif_night_battle,
    automatic_attacker,
    battle_result,
    campaign_outcome,
    campaign_points,
    destroy_target,
    destroy_target_by_vp,
    fixed_attack,
    great_war_attacker_won,
    initiative_winner,
    other,
    tanks_in_play,
)
from rules.firestorm.data import (
    BATTLES,
    BRIGADE_HOME,
    FIXED_ATTACKS,
    INITIAL_CONTROL,
    LAST_TURN,
    MAX_ADVANCE,
    MAX_COMMITTED,
    SUPPLY,
    TANK_KINDS,
    TROOP_BY_ID,
    TROOPS,
    AreaId,
    Side,
    load_adjacency,
    validate_adjacency,
)
from rules.firestorm.ruleset import Firestorm

Phase = Literal[
    "initiative", "attack", "defend", "resolve", "destroy", "capture", "retreat", "advance",
    "redeploy", "reinforce", "finished",
]  # fmt: skip
Status = Literal["active", "destroyed", "captured", "withdrawn", "reserve"]
Frozen = ConfigDict(frozen=True, extra="forbid")


class Troop(BaseModel):
    model_config = Frozen

    id: str
    side: Side
    area: str | None = None
    status: Status = "active"
    fixed: bool = Field(default=False, description="Placed AIF reinforcements 'may not be moved'.")


class Roll(BaseModel):
    model_config = Frozen

    troop: str
    needed: int


class BattleState(BaseModel):
    model_config = Frozen

    attacker: Side
    from_area: str | None = None
    to_area: str | None = None
    attacker_troops: tuple[str, ...] = ()
    defender_troops: tuple[str, ...] = ()
    attacker_in_supply: bool = True
    defender_in_supply: bool = True
    winner: Side | None = None
    difference: int | None = None
    pending_destroy: tuple[Roll, ...] = ()
    pending_capture: tuple[Roll, ...] = ()


class CampaignState(BaseModel):
    model_config = Frozen

    turn: int = Field(ge=1, le=LAST_TURN)
    battle: int = Field(ge=0, le=5, description="Battles completed this turn.")
    phase: Phase
    last_winner: Side | None = None
    control: dict[str, Side]
    troops: tuple[Troop, ...]
    current: BattleState | None = None
    redeployed: tuple[Side, ...] = ()
    reinforced: tuple[Side, ...] = ()
    aif_attacked: tuple[str, ...] = ()
    adjacency: dict[str, tuple[str, ...]]
    variants: dict[str, str] = Field(default_factory=dict)


# -- what the machine answers ---------------------------------------------------------------------------
class AttackOption(TypedDict):
    """One attack the attacker may choose: from and to which area, and the troops it may commit."""

    from_area: str
    to_area: str
    troops: list[str]


class RollNeeded(TypedDict):
    """A die a troop rolls (Roll as JSON): the troop and the score it needs."""

    troop: str
    needed: int


# What may be done next (legal_actions): the action's `type` and `side` as the action takes them, the dice it
# takes, and the choices of its kind the player fills the rest of the action from ("or": what replaces the
# dice of a battle). Functional form: "or" is a Python keyword.
LegalAction = TypedDict(
    "LegalAction",
    {
        "type": Required[str],
        "dice": Required[int],
        "side": Side,
        "options": list[AttackOption],
        "max_troops": int,
        "troops": list[str],
        "dice_order": list[str],
        "or": str,
        "rolls": list[RollNeeded],
        "areas": list[str] | dict[str, list[str]],
        "survivors_first": list[str],
        "candidates": dict[str, str],
        "moves": dict[str, list[str]],
    },
    total=False,
)

EventKind = Literal[
    "initiative", "battle arrow", "battle forfeited", "great war result", "battle", "survives", "captured",
    "destroyed", "retreat", "advance", "redeploy", "reinforcement", "area captured", "withdrawn", "turn",
    "lines tidied",
]  # fmt: skip

# What happened (apply's events): the event's kind and the fields that kind names. Functional form: "from" is
# a Python keyword.
CampaignEvent = TypedDict(
    "CampaignEvent",
    {
        "event": Required[EventKind],
        "attacker": Side,
        "automatic": bool,
        "german_total": int,
        "bef_total": int,
        "from": str | None,
        "to": str | None,
        "troops": list[str],
        "side": Side,
        "source": str,
        "attacker_vp": int,
        "defender_vp": int,
        "attacker_won": bool,
        "attacker_total": int,
        "defender_total": int,
        "troop": str,
        "roll": int,
        "needed": int,
        "why": str,
        "area": str | None,
        "by": Side,
        "turn": int,
        "areas": list[str],
        "troops_captured": list[str],
    },
    total=False,
)


class TroopUpdate(TypedDict, total=False):
    """What an action changes of a troop (a Troop's fields)."""

    area: str | None
    status: Status
    fixed: bool


class CampaignResult(TypedDict):
    """The campaign's score (result): each side's campaign points and troops captured, and the outcome."""

    final: bool
    turn: int
    points: dict[Side, int]
    captured_troops: dict[Side, int]
    outcome_key: str
    outcome: str
    margin: int


Events = list[CampaignEvent]


# -- actions ---------------------------------------------------------------------------------------------
class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid")


class InitiativeAction(_Action):
    type: Literal["initiative"]


class AttackAction(_Action):
    type: Literal["attack"]
    side: Side | None = Field(
        default=None, description="Whose decision it is, as legal-actions lists it (checked when given)."
    )
    from_area: AreaId
    to_area: AreaId
    troops: list[str] = Field(min_length=1, max_length=MAX_COMMITTED)


class PassAction(_Action):
    type: Literal["pass"]
    side: Side | None = Field(
        default=None, description="Whose decision it is, as legal-actions lists it (checked when given)."
    )


class DefendAction(_Action):
    type: Literal["defend"]
    side: Side | None = Field(
        default=None, description="Whose decision it is, as legal-actions lists it (checked when given)."
    )
    troops: list[str] = Field(default_factory=list, max_length=MAX_COMMITTED)


class GreatWarResult(_Action):
    attacker_vp: int = Field(ge=0, le=20)
    defender_vp: int = Field(ge=0, le=20)


class ResolveAction(_Action):
    type: Literal["resolve"]
    great_war: GreatWarResult | None = Field(
        default=None, description="Score of a Great War game instead of dice."
    )


class DestroyAction(_Action):
    type: Literal["destroy"]


class CaptureAction(_Action):
    type: Literal["capture"]


class RetreatAction(_Action):
    type: Literal["retreat"]
    side: Side | None = Field(
        default=None, description="Whose decision it is, as legal-actions lists it (checked when given)."
    )
    moves: dict[str, str] = Field(default_factory=dict)


class AdvanceAction(_Action):
    type: Literal["advance"]
    side: Side | None = Field(
        default=None, description="Whose decision it is, as legal-actions lists it (checked when given)."
    )
    troops: list[str] = Field(default_factory=list, max_length=MAX_ADVANCE)


class RedeployAction(_Action):
    type: Literal["redeploy"]
    side: Side
    moves: dict[str, str] = Field(default_factory=dict)


class ReinforceAction(_Action):
    type: Literal["reinforce"]
    side: Side
    areas: list[str] = Field(
        min_length=2, max_length=2, description="German: the two HMGs; BEF: 13th then 15th Bde AIF."
    )


Action = Annotated[
    InitiativeAction
    | AttackAction
    | PassAction
    | DefendAction
    | ResolveAction
    | DestroyAction
    | CaptureAction
    | RetreatAction
    | AdvanceAction
    | RedeployAction
    | ReinforceAction,
    Field(discriminator="type"),
]
_ACTION = TypeAdapter(Action)


def parse_action(action: Mapping[str, Any]) -> Any:
    try:
        return _ACTION.validate_python(dict(action))
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(
            str(p) for p in ("action", *err["loc"]) if not str(p).endswith("Action") and p not in _TAGS
        )
        raise RulesError(loc, err["msg"]) from None


_TAGS = {
    "initiative",
    "attack",
    "pass",
    "defend",
    "resolve",
    "destroy",
    "capture",
    "retreat",
    "advance",
    "redeploy",
    "reinforce",
}


# -- setting up ------------------------------------------------------------------------------------------
def new_campaign(
    adjacency: Mapping[str, Sequence[str]] | None = None, variants: Mapping[str, str] | None = None
) -> CampaignState:
    """The campaign at the start of turn 1: the initial deployment on the (possibly corrected) map."""
    try:
        adj = (
            load_adjacency()
            if adjacency is None
            else validate_adjacency({k: list(v) for k, v in adjacency.items()})
        )
    except ValueError as e:
        raise RulesError("adjacency", str(e)) from None
    Firestorm().context(None, variants)  # validates the variants
    for a, b in FIXED_ATTACKS:
        if b not in adj[a]:
            raise RulesError(f"adjacency.{a}", f"the fixed turn 1 attack {a} -> {b} needs them adjacent", [b])
    troops = tuple(
        Troop(id=t.id, side=t.side, area=t.area, status="active" if t.area else "reserve") for t in TROOPS
    )
    return CampaignState(
        turn=1,
        battle=0,
        phase="initiative",
        control=dict(INITIAL_CONTROL),
        troops=troops,
        adjacency=adj,
        variants=dict(variants or {}),
    )


def _ctx(state: CampaignState) -> Context:
    return Firestorm().context(None, state.variants)


def check_state(state: CampaignState) -> None:
    """Refuse a state that could not have come from new_campaign/apply (hand-edited or corrupted)."""
    try:
        validate_adjacency({k: list(v) for k, v in state.adjacency.items()})
    except ValueError as e:
        raise RulesError("state.adjacency", str(e)) from None
    if any(t.area is not None and t.area not in INITIAL_CONTROL for t in state.troops):
        raise RulesError("state.troops", "a troop stands in an unknown area", sorted(INITIAL_CONTROL))
    if set(state.control) != set(INITIAL_CONTROL):
        raise RulesError("state.control", "must give the controller of every area", sorted(INITIAL_CONTROL))
    if sorted(t.id for t in state.troops) != sorted(TROOP_BY_ID):
        raise RulesError("state.troops", "must list each Firestorm Troop once", sorted(TROOP_BY_ID))
    for i, t in enumerate(state.troops):
        if t.side != TROOP_BY_ID[t.id].side or (t.status == "active") != (t.area is not None):
            raise RulesError(f"state.troops.{i}", "side or area inconsistent with status")
    if not tanks_in_play(state.turn) and any(
        t.status == "active" and TROOP_BY_ID[t.id].kind in TANK_KINDS for t in state.troops
    ):
        raise RulesError(
            "state.troops",
            f"tank Firestorm Troops are removed at the end of turn {TANKS_LAST_TURN}: none is active on "
            f"turn {state.turn}",
        )
    if state.battle > BATTLES[state.turn]:
        raise RulesError(
            "state.battle",
            f"turn {state.turn} has {BATTLES[state.turn]} battles",
            range(BATTLES[state.turn] + 1),
        )
    needs_battle = state.phase in ("attack", "defend", "resolve", "destroy", "capture", "retreat", "advance")
    if needs_battle != (state.current is not None):
        raise RulesError("state.current", f"phase {state.phase} and current battle disagree")
    c = state.current
    if c is not None:
        if state.phase != "attack" and (c.from_area is None or c.to_area is None):
            raise RulesError("state.current", "the battle has no areas")
        known = {t.id for t in state.troops}
        if any(r.troop not in known for r in (*c.pending_destroy, *c.pending_capture)):
            raise RulesError("state.current", "rolls name unknown troops")
        if any(x not in known for x in (*c.attacker_troops, *c.defender_troops)):
            raise RulesError("state.current", "unknown committed troops")
        if state.phase in ("destroy", "capture", "retreat", "advance") and c.winner is None:
            raise RulesError("state.current", "the battle has no winner yet")
    Firestorm().context(None, state.variants)


# -- queries -------------------------------------------------------------------------------------------------
def troop(state: CampaignState, tid: str) -> Troop:
    for t in state.troops:
        if t.id == tid:
            return t
    raise RulesError("troop", f"unknown Firestorm Troop {tid!r}", sorted(TROOP_BY_ID))


def troops_in(state: CampaignState, area: str, side: Side | None = None) -> list[Troop]:
    return [
        t
        for t in state.troops
        if t.status == "active" and t.area == area and (side is None or t.side == side)
    ]


def in_supply(state: CampaignState, area: str, side: Side) -> bool:
    """'An area is considered in supply if it can trace an uninterrupted line through friendly areas to a
    supply area.'"""
    if state.control[area] != side:
        return False
    seen = {area}
    frontier = [area]
    while frontier:
        a = frontier.pop()
        if a in SUPPLY[side]:
            return True
        for n in state.adjacency[a]:
            if n not in seen and state.control[n] == side:
                seen.add(n)
                frontier.append(n)
    return False


def attacker_of(state: CampaignState) -> Side:
    assert state.current is not None
    return state.current.attacker


def possible_attacks(state: CampaignState, side: Side) -> list[AttackOption]:
    """Every (from, to) the attacker may choose now, with the troops it may commit."""
    out: list[AttackOption] = []
    fixed = fixed_attack(state.turn, state.battle)
    pairs = [fixed] if fixed else [(a, n) for a in state.adjacency for n in state.adjacency[a]]
    for a, n in pairs:
        if state.control[a] != side or state.control[n] == side:
            continue
        here = [t.id for t in troops_in(state, a, side)]
        if aif_night_battle(state.turn, state.battle):
            here = [
                t for t in here if TROOP_BY_ID[t].brigade and TROOP_BY_ID[t].brigade not in state.aif_attacked
            ]
        if here:
            out.append({"from_area": a, "to_area": n, "troops": here})
    return out


def dice_needed(state: CampaignState, action: Mapping[str, Any]) -> int:
    kind = action.get("type")
    if kind == "initiative":
        return 0 if automatic_attacker(state.turn, state.battle) else 2
    if kind == "resolve":
        return 0 if action.get("great_war") else 2
    if kind == "destroy" and state.current:
        return len(state.current.pending_destroy)
    if kind == "capture" and state.current:
        return len(state.current.pending_capture)
    return 0


def legal_actions(state: CampaignState) -> list[LegalAction]:
    """What may be done next, each with the number of dice it takes ("dice"). An entry's `type` and `side`
    are fields of the action itself, which apply accepts as given (and checks); the other keys list the
    choices the player fills the rest of the action from."""
    check_state(state)
    p = state.phase
    c = state.current
    if p == "initiative":
        return [{"type": "initiative", "dice": dice_needed(state, {"type": "initiative"})}]
    if p == "attack":
        side = attacker_of(state)
        options = possible_attacks(state, side)
        if options:
            return [
                {"type": "attack", "side": side, "options": options, "max_troops": MAX_COMMITTED, "dice": 0}
            ]
        return [{"type": "pass", "side": side, "dice": 0}]
    assert c is not None or p in ("redeploy", "reinforce", "finished")
    if p == "defend" and c:
        return [
            {
                "type": "defend",
                "side": other(c.attacker),
                "troops": [t.id for t in troops_in(state, c.to_area or "", other(c.attacker))],
                "max_troops": MAX_COMMITTED,
                "dice": 0,
            }
        ]
    if p == "resolve":
        return [
            {
                "type": "resolve",
                "dice": 2,
                "dice_order": ["attacker", "defender"],
                "or": "great_war: {attacker_vp, defender_vp}",
            }
        ]
    if p == "destroy" and c:
        return [
            {
                "type": "destroy",
                "dice": len(c.pending_destroy),
                "rolls": [RollNeeded(troop=r.troop, needed=r.needed) for r in c.pending_destroy],
            }
        ]
    if p == "capture" and c:
        return [
            {
                "type": "capture",
                "dice": len(c.pending_capture),
                "rolls": [RollNeeded(troop=r.troop, needed=r.needed) for r in c.pending_capture],
            }
        ]
    if p == "retreat" and c:
        defender = other(c.attacker)
        return [
            {
                "type": "retreat",
                "side": defender,
                "troops": [t.id for t in troops_in(state, c.to_area or "", defender)],
                "areas": retreat_areas(state),
                "dice": 0,
            }
        ]
    if p == "advance" and c:
        return [
            {
                "type": "advance",
                "side": c.attacker,
                "max_troops": MAX_ADVANCE,
                "survivors_first": survivors(state),
                "candidates": advance_candidates(state),
                "dice": 0,
            }
        ]
    if p == "redeploy":
        side = "german" if "german" not in state.redeployed else "bef"
        return [{"type": "redeploy", "side": side, "moves": redeploy_options(state, side), "dice": 0}]
    if p == "reinforce":
        side = "german" if "german" not in state.reinforced else "bef"
        return [{"type": "reinforce", "side": side, "areas": reinforce_options(state, side), "dice": 0}]
    return []


def retreat_areas(state: CampaignState) -> list[str]:
    c = state.current
    assert c is not None and c.to_area
    defender = other(c.attacker)
    return [n for n in state.adjacency[c.to_area] if state.control[n] == defender]


def survivors(state: CampaignState) -> list[str]:
    c = state.current
    assert c is not None
    return [tid for tid in c.attacker_troops if troop(state, tid).status == "active"]


def advance_candidates(state: CampaignState) -> dict[str, str]:
    c = state.current
    assert c is not None and c.to_area
    out = {}
    for n in state.adjacency[c.to_area]:
        if state.control[n] == c.attacker:
            for t in troops_in(state, n, c.attacker):
                out[t.id] = n
    return out


def redeploy_options(state: CampaignState, side: Side) -> dict[str, list[str]]:
    return {
        t.id: [n for n in state.adjacency[t.area] if state.control[n] == side]  # type: ignore[index]
        for t in state.troops
        if t.side == side and t.status == "active" and not t.fixed
    }


def reinforce_options(state: CampaignState, side: Side) -> list[str] | dict[str, list[str]]:
    if side == "german":
        return sorted(a for a, s in state.control.items() if s == "german")
    return {b: brigade_areas(state, b) for b in BRIGADE_HOME}


def brigade_areas(state: CampaignState, brigade: str) -> list[str]:
    home = BRIGADE_HOME[brigade]
    cands = [home, *state.adjacency[home]]
    near = [a for a in cands if state.control[a] == "bef"]
    if near:
        return near
    # The text is silent when Cachy/Fouilloy and all their neighbours are lost (erratum aif-placement).
    return [a for a in SUPPLY["bef"] if state.control[a] == "bef"]


# -- applying an action -------------------------------------------------------------------------------------
# Whose decision each action is, as legal_actions lists it in `side`.
SIDE_RULES = {
    "attack": "the side that won the initiative attacks",
    "pass": "the side that won the initiative and has no attack it may make forfeits the battle",
    "defend": "the side whose area is attacked commits its defenders",
    "retreat": "the defeated defender retreats",
    "advance": "the winning attacker advances",
    "redeploy": "the Germans redeploy first, then the BEF",
    "reinforce": "the Germans place their reinforcements first",
}


def apply(
    state: CampaignState, action: Mapping[str, Any], dice: Sequence[int] | None = None
) -> tuple[CampaignState, Events]:
    """The next state and the events of one action. Raises RulesError for anything the rules refuse."""
    check_state(state)
    act = parse_action(action)
    offered = {a["type"]: a for a in legal_actions(state)}
    if act.type not in offered:
        raise RulesError("action.type", f"not allowed in phase {state.phase}", sorted(offered))
    side = getattr(act, "side", None)
    if side is not None and side != offered[act.type].get("side"):
        raise RulesError("action.side", SIDE_RULES[act.type], [offered[act.type]["side"]])
    need = dice_needed(state, action)
    rolled = list(dice or [])
    if len(rolled) != need:
        raise RulesError("dice", f"this action takes {need} dice, got {len(rolled)}", [need])
    for i, d in enumerate(rolled):
        if not 1 <= d <= 6:
            raise RulesError(f"dice.{i}", f"a D6 shows 1 to 6, got {d}", range(1, 7))
    handler = _HANDLERS[act.type]
    events: Events = []
    new = handler(state, act, rolled, events)
    return _settle(new, events), events


def _set_troops(state: CampaignState, changes: Mapping[str, TroopUpdate]) -> CampaignState:
    troops = tuple(t.model_copy(update=changes[t.id]) if t.id in changes else t for t in state.troops)
    return state.model_copy(update={"troops": troops})


def _initiative(
    state: CampaignState, act: InitiativeAction, dice: list[int], events: Events
) -> CampaignState:
    auto = automatic_attacker(state.turn, state.battle)
    if auto:
        attacker = auto
        events.append({"event": "initiative", "attacker": auto, "automatic": True})
    else:
        attacker, g, b = initiative_winner(state.turn, state.last_winner, dice[0], dice[1])
        events.append({"event": "initiative", "attacker": attacker, "german_total": g, "bef_total": b})
    return state.model_copy(update={"phase": "attack", "current": BattleState(attacker=attacker)})


def _attack(state: CampaignState, act: AttackAction, dice: list[int], events: Events) -> CampaignState:
    side = attacker_of(state)
    options = possible_attacks(state, side)
    match = [o for o in options if o["from_area"] == act.from_area and o["to_area"] == act.to_area]
    if not match:
        raise RulesError(
            "action.to_area",
            f"{side} may not attack {act.from_area} -> {act.to_area}",
            [f"{o['from_area']}->{o['to_area']}" for o in options],
        )
    allowed = match[0]["troops"]
    if len(set(act.troops)) != len(act.troops) or any(t not in allowed for t in act.troops):
        raise RulesError(
            "action.troops", "commit one or two of your troops in the area attacked from", allowed
        )
    aif = set()
    if aif_night_battle(state.turn, state.battle):
        # "must make one attack each ... using both AIF Firestorm troops"
        brigades = {TROOP_BY_ID[t].brigade for t in act.troops}
        both = [t for t in allowed if TROOP_BY_ID[t].brigade in brigades]
        if len(brigades) != 1 or sorted(both) != sorted(act.troops):
            raise RulesError(
                "action.troops", "one AIF brigade attacks with both its Firestorm Troops", allowed
            )
        aif = brigades
    c = BattleState(
        attacker=side,
        from_area=act.from_area,
        to_area=act.to_area,
        attacker_troops=tuple(act.troops),
        attacker_in_supply=in_supply(state, act.from_area, side),
    )
    events.append(
        {
            "event": "battle arrow",
            "attacker": side,
            "from": act.from_area,
            "to": act.to_area,
            "troops": act.troops,
        }
    )
    return state.model_copy(
        update={"phase": "defend", "current": c, "aif_attacked": (*state.aif_attacked, *sorted(aif))}
    )


def _pass(state: CampaignState, act: PassAction, dice: list[int], events: Events) -> CampaignState:
    events.append(
        {
            "event": "battle forfeited",
            "side": attacker_of(state),
            "source": _ctx(state).citation("no-legal-attack"),
        }
    )
    return _end_battle(state.model_copy(update={"current": None}), None)


def _defend(state: CampaignState, act: DefendAction, dice: list[int], events: Events) -> CampaignState:
    c = state.current
    assert c is not None and c.to_area
    defender = other(c.attacker)
    allowed = [t.id for t in troops_in(state, c.to_area, defender)]
    if len(set(act.troops)) != len(act.troops) or any(t not in allowed for t in act.troops):
        raise RulesError("action.troops", "commit up to two of your troops in the area attacked", allowed)
    c = c.model_copy(
        update={
            "defender_troops": tuple(act.troops),
            "defender_in_supply": in_supply(state, c.to_area, defender),
        }
    )
    return state.model_copy(update={"phase": "resolve", "current": c})


def _resolve(state: CampaignState, act: ResolveAction, dice: list[int], events: Events) -> CampaignState:
    c = state.current
    assert c is not None and c.from_area and c.to_area
    ctx = _ctx(state)
    kinds = lambda ids: tuple(TROOP_BY_ID[t].kind for t in ids)  # noqa: E731
    if act.great_war:
        won = great_war_attacker_won(ctx, act.great_war.attacker_vp, act.great_war.defender_vp)
        vp = {c.attacker: act.great_war.attacker_vp, other(c.attacker): act.great_war.defender_vp}
        difference = abs(act.great_war.attacker_vp - act.great_war.defender_vp)
        target = {side: destroy_target_by_vp(vp[other(side)]) for side in vp}
        events.append(
            {
                "event": "great war result",
                "attacker_vp": act.great_war.attacker_vp,
                "defender_vp": act.great_war.defender_vp,
                "attacker_won": won,
            }
        )
    else:
        setup = BattleSetup(
            state.turn,
            c.attacker,
            c.from_area,
            c.to_area,
            kinds(c.attacker_troops),
            kinds(c.defender_troops),
            c.attacker_in_supply,
            c.defender_in_supply,
        )
        r = battle_result(ctx, setup, dice[0], dice[1])
        won, difference = r.attacker_won, r.difference
        loser = other(r.winner)
        target = {
            loser: destroy_target(ctx, difference, True),
            r.winner: destroy_target(ctx, difference, False),
        }
        events.append(
            {
                "event": "battle",
                "attacker_total": r.attacker_total,
                "defender_total": r.defender_total,
                "attacker_won": won,
            }
        )
    winner = c.attacker if won else other(c.attacker)
    rolls = tuple(
        Roll(troop=tid, needed=n)
        for tid in (*c.attacker_troops, *c.defender_troops)
        if (n := target[TROOP_BY_ID[tid].side]) is not None
    )
    c = c.model_copy(update={"winner": winner, "difference": difference, "pending_destroy": rolls})
    return state.model_copy(update={"phase": "destroy", "current": c})


def _destroy(state: CampaignState, act: DestroyAction, dice: list[int], events: Events) -> CampaignState:
    c = state.current
    assert c is not None and c.winner
    loser = other(c.winner)
    changes: dict[str, TroopUpdate] = {}
    capture: list[Roll] = []
    for roll, d in zip(c.pending_destroy, dice, strict=True):
        if d < roll.needed:
            events.append({"event": "survives", "troop": roll.troop, "roll": d, "needed": roll.needed})
            continue
        side = TROOP_BY_ID[roll.troop].side
        supplied = c.attacker_in_supply if side == c.attacker else c.defender_in_supply
        if side == loser and not supplied:
            # "Any Firestorm Troop that is destroyed while Out of Supply is considered to be captured"
            changes[roll.troop] = {"status": "captured", "area": None}
            events.append({"event": "captured", "troop": roll.troop, "roll": d, "why": "out of supply"})
        else:
            changes[roll.troop] = {"status": "destroyed", "area": None}
            events.append({"event": "destroyed", "troop": roll.troop, "roll": d, "needed": roll.needed})
            if side == loser:
                capture.append(roll)
    state = _set_troops(state, changes)
    return state.model_copy(
        update={
            "phase": "capture",
            "current": c.model_copy(update={"pending_destroy": (), "pending_capture": tuple(capture)}),
        }
    )


def _capture(state: CampaignState, act: CaptureAction, dice: list[int], events: Events) -> CampaignState:
    c = state.current
    assert c is not None
    changes: dict[str, TroopUpdate] = {}
    for roll, d in zip(c.pending_capture, dice, strict=True):
        if d >= roll.needed:
            changes[roll.troop] = {"status": "captured"}
            events.append({"event": "captured", "troop": roll.troop, "roll": d})
    state = _set_troops(state, changes)
    return state.model_copy(
        update={"phase": "retreat", "current": c.model_copy(update={"pending_capture": ()})}
    )


def _retreat(state: CampaignState, act: RetreatAction, dice: list[int], events: Events) -> CampaignState:
    c = state.current
    assert c is not None and c.to_area
    defender = other(c.attacker)
    staying = {t.id for t in troops_in(state, c.to_area, defender)}
    areas = retreat_areas(state)
    if set(act.moves) != staying:
        raise RulesError(
            "action.moves", "every remaining troop of the defeated area must retreat", sorted(staying)
        )
    for tid, area in act.moves.items():
        if area not in areas:
            raise RulesError(f"action.moves.{tid}", "retreat into an adjacent friendly area", areas)
    events.extend({"event": "retreat", "troop": t, "to": a} for t, a in act.moves.items())
    state = _set_troops(state, {t: TroopUpdate(area=a) for t, a in act.moves.items()})
    return state.model_copy(update={"phase": "advance"})


def _advance(state: CampaignState, act: AdvanceAction, dice: list[int], events: Events) -> CampaignState:
    c = state.current
    assert c is not None and c.to_area
    cands = advance_candidates(state)
    first = survivors(state)
    if len(set(act.troops)) != len(act.troops) or any(t not in cands for t in act.troops):
        raise RulesError(
            "action.troops", "advance up to three troops from adjacent friendly areas", sorted(cands)
        )
    # "The first troops to move into the newly-acquired area must be any surviving Firestorm Troops that you used"
    if (
        len(act.troops)
        and set(first[: len(act.troops)]) - set(act.troops)
        and not set(first) <= set(act.troops)
    ):
        raise RulesError("action.troops", "the surviving troops of the battle advance first", first)
    events.extend({"event": "advance", "troop": t, "to": c.to_area} for t in act.troops)
    state = _set_troops(state, {t: TroopUpdate(area=c.to_area) for t in act.troops})
    return _end_battle(state, c.winner)


def _redeploy(state: CampaignState, act: RedeployAction, dice: list[int], events: Events) -> CampaignState:
    expected: Side = "german" if "german" not in state.redeployed else "bef"
    if act.side != expected:
        raise RulesError("action.side", "the Germans redeploy first, then the BEF", [expected])
    options = redeploy_options(state, act.side)
    for tid, area in act.moves.items():
        if tid not in options:
            raise RulesError(f"action.moves.{tid}", "not a movable troop of this side", sorted(options))
        if area not in options[tid]:
            raise RulesError(
                f"action.moves.{tid}", "move at most one area, into a friendly area", options[tid]
            )
    events.extend({"event": "redeploy", "troop": t, "to": a} for t, a in act.moves.items())
    state = _set_troops(state, {t: TroopUpdate(area=a) for t, a in act.moves.items()})
    return state.model_copy(update={"redeployed": (*state.redeployed, act.side)})


def _reinforce(state: CampaignState, act: ReinforceAction, dice: list[int], events: Events) -> CampaignState:
    expected: Side = "german" if "german" not in state.reinforced else "bef"
    if act.side != expected:
        raise RulesError("action.side", "the Germans place their reinforcements first", [expected])
    changes: dict[str, TroopUpdate] = {}
    if act.side == "german":
        allowed = [a for a, s in state.control.items() if s == "german"]
        for i, a in enumerate(act.areas):
            if a not in allowed:
                raise RulesError(f"action.areas.{i}", "place it in a German-controlled area", sorted(allowed))
        for tid, a in zip(("mg-abt-4g", "mg-abt-228"), act.areas, strict=True):
            changes[tid] = {"area": a, "status": "active"}
    else:
        for i, (brigade, a) in enumerate(zip(("13", "15"), act.areas, strict=True)):
            allowed = brigade_areas(state, brigade)
            if a not in allowed:
                raise RulesError(
                    f"action.areas.{i}",
                    f"{brigade}th Bde AIF goes to {BRIGADE_HOME[brigade]} or a friendly adjacent area",
                    allowed,
                )
            for tid in (f"{brigade}-bde-aif-a", f"{brigade}-bde-aif-b"):
                changes[tid] = {"area": a, "status": "active", "fixed": True}
    events.extend({"event": "reinforcement", "troop": t, "area": c["area"]} for t, c in changes.items())
    state = _set_troops(state, changes)
    return state.model_copy(update={"reinforced": (*state.reinforced, act.side)})


# Each action's handler by its type (each takes its own kind of action, parsed by parse_action).
_HANDLERS: dict[str, Callable[[CampaignState, Any, list[int], Events], CampaignState]] = {
    "initiative": _initiative,
    "attack": _attack,
    "pass": _pass,
    "defend": _defend,
    "resolve": _resolve,
    "destroy": _destroy,
    "capture": _capture,
    "retreat": _retreat,
    "advance": _advance,
    "redeploy": _redeploy,
    "reinforce": _reinforce,
}


def _end_battle(state: CampaignState, winner: Side | None) -> CampaignState:
    state = state.model_copy(update={"battle": state.battle + 1, "current": None, "phase": "initiative"})
    if winner is not None:
        state = state.model_copy(update={"last_winner": winner})
    if state.battle >= BATTLES[state.turn]:
        state = state.model_copy(update={"phase": "redeploy" if state.turn < LAST_TURN else "finished"})
    return state


def _settle(state: CampaignState, events: Events) -> CampaignState:
    """Step through phases that need no one's decision."""
    while True:
        c = state.current
        if state.phase == "destroy" and c and not c.pending_destroy:
            state = state.model_copy(update={"phase": "capture"})
        elif state.phase == "capture" and c and not c.pending_capture:
            state = state.model_copy(update={"phase": "retreat"})
        elif state.phase == "retreat" and c and c.to_area:
            defender = other(c.attacker)
            if c.winner == defender:
                # "If the attacker is defeated he retreats into the area he attacked from": it never left.
                state = _end_battle(state, defender)
                continue
            here = troops_in(state, c.to_area, defender)
            if not retreat_areas(state):
                # "If there are no adjacent friendly-controlled areas ... all of the Firestorm Troops in the
                # area, including any that were destroyed, are captured"
                lost = [t.id for t in here] + [
                    t for t in c.defender_troops if troop(state, t).status == "destroyed"
                ]
                state = _set_troops(state, {t: TroopUpdate(status="captured", area=None) for t in lost})
                events.extend({"event": "captured", "troop": t, "why": "no retreat"} for t in lost)
                here = []
            if here:
                return state
            state = state.model_copy(update={"phase": "advance"})
        elif (
            state.phase == "advance"
            and c
            and c.to_area
            and c.winner == c.attacker
            and state.control[c.to_area] != c.attacker
        ):
            control = {**state.control, c.to_area: c.attacker}
            events.append({"event": "area captured", "area": c.to_area, "by": c.attacker})
            state = state.model_copy(update={"control": control})
            if not advance_candidates(state):
                state = _end_battle(state, c.winner)
                continue
            return state
        elif state.phase == "attack" and c and not possible_attacks(state, c.attacker):
            return state  # the attacker must pass
        elif state.phase == "redeploy" and len(state.redeployed) == 2:
            state = state.model_copy(
                update={"phase": "reinforce" if state.turn == 2 else "initiative", "redeployed": ()}
            )
            if tanks_in_play(state.turn) and not tanks_in_play(state.turn + 1):
                # "At the end of turn 2 all tank Firestorm Troops that remain in play from both sides are removed."
                tanks = [
                    t.id
                    for t in state.troops
                    if TROOP_BY_ID[t.id].kind in TANK_KINDS and t.status == "active"
                ]
                state = _set_troops(state, {t: TroopUpdate(status="withdrawn", area=None) for t in tanks})
                events.extend({"event": "withdrawn", "troop": t} for t in tanks)
            if state.turn != 2:
                state = _next_turn(state, events)
        elif state.phase == "reinforce" and len(state.reinforced) == 2:
            state = _next_turn(state.model_copy(update={"reinforced": ()}), events)
        elif (
            state.phase == "finished"
            and not any(e.get("event") == "lines tidied" for e in events)
            and state.current is None
            and _untidy(state)
        ):
            state = _tidy(state, events)
        else:
            return state


def _next_turn(state: CampaignState, events: Events) -> CampaignState:
    events.append({"event": "turn", "turn": state.turn + 1})
    return state.model_copy(
        update={"turn": state.turn + 1, "battle": 0, "last_winner": None, "phase": "initiative"}
    )


def _untidy(state: CampaignState) -> list[str]:
    return [a for a, s in state.control.items() if not in_supply(state, a, s)]


def _tidy(state: CampaignState, events: Events) -> CampaignState:
    """'At the end of the Forth turn any area that is cut off and out of supply is captured by the side that
    has them cut off. All Firestorm Troops in these areas are captured.'"""
    cut = _untidy(state)
    control = {**state.control, **{a: other(state.control[a]) for a in cut}}
    lost = [t.id for t in state.troops if t.status == "active" and t.area in cut]
    events.append({"event": "lines tidied", "areas": cut, "troops_captured": lost})
    state = _set_troops(state, {t: TroopUpdate(status="captured", area=None) for t in lost})
    return state.model_copy(update={"control": control})


# -- score ------------------------------------------------------------------------------------------------
def result(state: CampaignState) -> CampaignResult:
    """Campaign victory points of each side and the outcome (final once the phase is 'finished')."""
    check_state(state)
    captured_by: dict[Side, int] = {"german": 0, "bef": 0}
    for t in state.troops:
        if t.status == "captured":
            captured_by[other(t.side)] += 1
    pts = campaign_points(dict(state.control), captured_by)
    key, text = campaign_outcome(_ctx(state), pts["german"], pts["bef"])
    return {
        "final": state.phase == "finished",
        "turn": state.turn,
        "points": pts,
        "captured_troops": captured_by,
        "outcome_key": key,
        "outcome": text,
        "margin": abs(pts["bef"] - pts["german"]),
    }
