"""What the orders and actions forbid of an act in a Flanders Fields game, and what an act spends: each unit
ordered once a turn on its own table, and a shot, a move, an assault or a recovery spending an action of the
unit the stand is ordered with (a refusal when it has none left).

"Actions are; REMOVE A SUPPRESSION LEVEL, MOVE or FIRE" (the playsheets): an action is the ordered unit's,
and a company moves or fires as one ("he decides to try and push a company through the German wire. The
troops move 10cm to the wire which counts as one action"; the Mad Minute lets "each rifle company ... fire
twice at a target instead of once for any single battalion order"). So the first of its stands to move (or
fire) spends the action and starts it; its other stands moving (or firing) join it for nothing, and a stand
that has already moved (or fired) in it, or an act of another kind, starts the next one. A unit ordered by
itself (an MG, a battery, a tank) spends one for each act.

"Troops require an order to move into contact with an enemy, movement is carried out platoon by platoon"
(CLOSE COMBAT (ASSAULTING)): an assault is its stand's move into contact, a MOVE action (erratum
assault-action). It joins its unit's move under way, whichever stands made it (the move that brought the
stand into contact is the same action: the wire example's move "may include an assault move"), and starts
one otherwise."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.core.acts import Act, EditUnit, MoveFormation, MoveStand, RecoverMarker, Roll
from rules.core.errors import Refusal
from rules.core.game import GameRules, leaves_under
from rules.core.records import Change, EditChoice, Snapshot, StandEdit, UnitState
from rules.flanders_fields.book import sequence as S
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.errata.assault import ASSAULT_ACTION, MOVE_INTO_CONTACT
from rules.flanders_fields.play.changes import ActionSpent, ActionUnderWay, CommandMoved, UnderWay
from rules.flanders_fields.play.game_fire import LIMBERING
from rules.flanders_fields.play.units import ARTILLERY, MG_KINDS, ORDER_UNIT, ordered_unit
from rules.flanders_fields.resolvers.orders import RESOLVER as ORDER_ROLL
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_ACTIONS = cite("ORDERS AND ACTIONS, ISSUING ORDERS")
SRC_ONCE_A_TURN = cite("ORDERS AND ACTIONS")
ACTIONS_WHY = (
    "Actions are; REMOVE A SUPPRESSION LEVEL, MOVE or FIRE: each spends one of the actions the order roll gave "
    "the unit, and a company's stands moving or firing together spend one"
)
ONCE_WHY = (
    "once a player has finished issuing orders to a particular unit he may not return to order the same unit "
    "later on in the turn; Failure to issue an order ... ends the turn for that unit"
)
# The acts that spend an action, by the kind of action ("fire" and "move" join one under way; an assault is a
# move into contact, joining the move under way).
FIRE, MOVE, RECOVER, LIMBER, INTO_CONTACT = "fire", "move", "recover", "limber", "assault"
INTO_CONTACT_WHY = (
    f"{MOVE_INTO_CONTACT}: an assault is its stand's move into contact, a MOVE action of the unit ordered "
    "(its company's platoons closing together for one)"
)
_ASSAULT_ACTION = FlandersFields().errata[ASSAULT_ACTION]
# "Machineguns, Light Mortars and Artillery require 1 order to limber or unlimber, pack or unpack" (MOVEMENT
# DISTANCES): one action of the unit's order, as a move or a shot is.
PACKING = ("limbered", "packed")
# Who packs and who limbers ("Machineguns, Light Mortars and Artillery"), and the card's words for each way.
PACKERS = {
    "packed": (frozenset({*MG_KINDS, "light-mortar"}), ("Unpack", "Pack")),
    "limbered": (frozenset(k for k, v in ORDER_UNIT.items() if v == ARTILLERY), ("Unlimber", "Limber")),
}
SHOOTING = "shooting"
ASSAULT = "assault"  # the assault resolver
# The ordered unit's action being carried out: {"act", "stands"}; a command stand's moves this turn (below).
UNDER_WAY = "action_under_way"


def orders_forbidden(snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
    """The refusals the orders and actions give `act` on the table as `snapshot` reads it (none: allowed)."""
    if snapshot.turn < 1:  # set-up: nobody is ordered yet
        return ()
    if isinstance(act, Roll) and act.resolver == ORDER_ROLL and act.apply and act.unit_id is not None:
        unit = snapshot.unit(act.unit_id)
        if unit.state.get("ordered_turn") == snapshot.turn:
            return (
                Refusal(
                    f"{unit.name} has had its order roll this turn: order another unit",
                    ONCE_WHY,
                    SRC_ONCE_A_TURN,
                ),
            )
        return ()
    kind, stands = acting(snapshot, act)
    return (
        *(
            _no_action_left(snapshot, unit, kind)
            for unit, _, new in spending(snapshot, kind, stands)
            if new and unit.actions_left < 1
        ),
        *(
            _moved_twice(snapshot, u)
            for u in command_moving(snapshot, act)
            if moves_made(snapshot, u) >= MOVES
        ),
    )


def _no_action_left(snapshot: Snapshot, unit: UnitState, kind: str) -> Refusal:
    why, source = (
        (INTO_CONTACT_WHY, _contact_source(snapshot)) if kind == INTO_CONTACT else (ACTIONS_WHY, SRC_ACTIONS)
    )
    if unit.state.get("ordered_turn") == snapshot.turn:
        return Refusal(f"{unit.name} has no action left this turn: its order is used up", why, source)
    return Refusal(f"{unit.name} has no action left: roll its order first", why, source, ORDER_ROLL)


def _contact_source(snapshot: Snapshot) -> str:
    """The reading in force of what an assault spends, with its printed line (erratum assault-action)."""
    return FlandersFields().context(snapshot.period, snapshot.variants).citation(ASSAULT_ACTION)


def assault_spends(variants: Mapping[str, str]) -> bool:
    """Whether an assault spends an action of its unit's order by the game's reading (erratum
    assault-action)."""
    return bool(_ASSAULT_ACTION.reading(variants.get(ASSAULT_ACTION, _ASSAULT_ACTION.default)).value)


def acting(snapshot: Snapshot, act: Act) -> tuple[str, tuple[int, ...]]:
    """The kind of action `act` is and the stands that carry it out (none: it spends no action)."""
    if (
        isinstance(act, Roll)
        and act.resolver in (SHOOTING, ASSAULT)
        and act.apply
        and act.unit_id is not None
    ):
        # The side not moving shoots back unordered: "the defenders may shoot as the attackers close".
        reaction = snapshot.unit(act.unit_id).side != snapshot.side_to_move
        if act.resolver == SHOOTING:
            return FIRE, () if reaction else (act.unit_id,)
        spends = assault_spends(snapshot.variants) and not reaction
        return INTO_CONTACT, (act.unit_id,) if spends else ()
    if isinstance(act, RecoverMarker) and act.spend_action:
        return RECOVER, (act.unit_id,)
    if isinstance(act, EditUnit):
        u = snapshot.unit(act.unit_id)
        turned = any(f in act.values and bool(act.values[f]) != bool(u.state.get(f)) for f in PACKING)
        return LIMBER, (u.id,) if turned and _on_table(u) else ()
    if isinstance(act, MoveStand):
        u = snapshot.unit(act.unit_id)
        moved = (u.x, u.y, u.facing_deg) != (act.x, act.y, act.facing_deg)
        # A stand placed from off the table (deployed, arriving) is not moved by an order.
        return MOVE, (u.id,) if moved and _on_table(u) else ()
    if isinstance(act, MoveFormation):
        formation = snapshot.unit(act.unit_id)
        return MOVE, tuple(u.id for u in leaves_under(formation, snapshot.units) if _on_table(u))
    return "", ()


def _on_table(u: UnitState) -> bool:
    return not u.killed and not u.off_table and u.x is not None


def spending(
    snapshot: Snapshot, kind: str, stand_ids: Sequence[int]
) -> list[tuple[UnitState, list[int], bool]]:
    """Who pays for `kind` carried out by the stands: each ordered unit, its stands in the act, and whether
    they start a new action (else they join the one under way)."""
    if snapshot.turn < 1 or not stand_ids:
        return []
    by_id = snapshot.by_id
    payers: dict[int, tuple[UnitState, list[int]]] = {}
    for sid in stand_ids:
        payer = ordered_unit(snapshot.unit(sid), by_id, snapshot.variants)
        if payer is not None:
            payers.setdefault(payer.id, (payer, []))[1].append(sid)
    out = []
    for payer, ids in payers.values():
        under: UnderWay = payer.state.get(UNDER_WAY) or UnderWay()
        if kind == INTO_CONTACT:  # the move that brought the stand into contact, or its company's
            joins = under.get("act") == MOVE
        else:
            joins = (
                kind not in (RECOVER, LIMBER)
                and under.get("act") == kind
                and not set(ids) & set(under.get("stands", ()))
            )
        out.append((payer, ids, not joins))
    return out


def actions_spent(
    snapshot: Snapshot, kind: str, stand_ids: Iterable[int], source: str = SRC_ACTIONS
) -> tuple[Change, ...]:
    """The changes `kind` carried out by the stands makes: an action spent by each ordered unit that starts
    one, and the action now under way (nothing of a unit with none left: the referee overrode the
    refusal, and its other stands do not join an action it never had)."""
    changes: list[Change] = []
    for payer, ids, new in spending(snapshot, kind, tuple(stand_ids)):
        under: UnderWay = payer.state.get(UNDER_WAY) or UnderWay()
        if new and payer.actions_left < 1:
            continue
        if new:
            changes.append(ActionSpent(f"an action of {payer.name}", source, payer.id))
        before = [] if new else list(under.get("stands", ()))
        stands = [*before, *(i for i in ids if i not in before)]
        now: UnderWay | None = (
            None
            if kind in (RECOVER, LIMBER)
            else {"act": MOVE if kind == INTO_CONTACT else kind, "stands": stands}
        )
        if now != (under or None):
            changes.append(ActionUnderWay(f"{payer.name} is carrying out an action", source, payer.id, now))
    return tuple(changes)


def act_spent(snapshot: Snapshot, act: Act) -> tuple[Change, ...]:
    """What `act` spends of its stands' actions (an assault by the close combat's line)."""
    kind, stands = acting(snapshot, act)
    return actions_spent(
        snapshot, kind, stands, _contact_source(snapshot) if kind == INTO_CONTACT else SRC_ACTIONS
    )


# -- command stands ----------------------------------------------------------------------------------------------
# "All command stands including any artillery liaison officers may move twice, at speed of their type" (each
# playsheet's MOVE COMMAND STANDS): a command stand is ordered by no roll, and moves at most twice a turn.
MOVES = S.COMMAND_MOVES
COMMAND_MOVE = "command-move"  # what a command stand is carrying out: {"act", "turn", "moves"} (UNDER_WAY)


def command_source(period: str | None) -> str:
    """The period playsheet's MOVE COMMAND STANDS step, where the line is printed."""
    steps = S.SEQUENCES[next((p for p in PERIODS if p == period), "early")].steps
    return next(s.source for s in steps if s.id == S.COMMAND_STEP)


def command_moving(snapshot: Snapshot, act: Act) -> list[UnitState]:
    """The command stands on the table `act` moves or turns (a stand placed from off the table is deployed,
    not moved; nothing is counted in set-up)."""
    if snapshot.turn < 1:
        return []
    if isinstance(act, MoveStand):
        u = snapshot.unit(act.unit_id)
        moved = (u.x, u.y, u.facing_deg) != (act.x, act.y, act.facing_deg)
        return [u] if u.is_command and moved and _on_table(u) else []
    if isinstance(act, MoveFormation) and (act.dx or act.dy or act.turn_deg):
        formation = snapshot.unit(act.unit_id)
        return [u for u in leaves_under(formation, snapshot.units) if u.is_command and _on_table(u)]
    return []


def moves_made(snapshot: Snapshot, u: UnitState) -> int:
    """How many times the command stand has moved this turn."""
    made: UnderWay = u.state.get(UNDER_WAY) or UnderWay()
    return (
        int(made.get("moves", 0))
        if (made.get("act"), made.get("turn")) == (COMMAND_MOVE, snapshot.turn)
        else 0
    )


def _moved_twice(snapshot: Snapshot, u: UnitState) -> Refusal:
    return Refusal(
        f"{u.name} has moved twice this turn: a command stand may move twice",
        S.COMMAND_MOVE,
        command_source(snapshot.period),
    )


def command_moved(snapshot: Snapshot, act: Act) -> tuple[Change, ...]:
    """Each command stand `act` moves has made one more of its moves this turn."""
    source = command_source(snapshot.period)
    out: list[Change] = []
    for u in command_moving(snapshot, act):
        n = moves_made(snapshot, u) + 1
        times = {1: "once", 2: "twice"}.get(n, f"{n} times")
        out.append(CommandMoved(f"{u.name} has moved {times} this turn", source, u.id, snapshot.turn, n))
    return tuple(out)


class FlandersFieldsPacking(GameRules):
    """The stand card's packing edits (the game's fields, `FlandersFieldsFields`, are made of it)."""

    def stand_edits(self, snapshot: Snapshot, unit_id: int) -> tuple[StandEdit, ...]:
        """The stand card's pack or unpack, limber or unlimber of a machine gun, a light mortar or a battery on
        the table (or of any stand carrying the flag): a unit edit of the flag, an action of its order."""
        u = snapshot.unit(unit_id)
        if not _on_table(u):
            return ()
        out = []
        for name, (kinds, (off, on)) in PACKERS.items():
            now = bool(u.state.get(name))
            if u.kind in kinds or now:
                label = off if now else on
                out.append(StandEdit(label, name, u.id, LIMBERING, (EditChoice(not now, label),)))
        return tuple(out)
