"""The turn sequence of each war period as data: the numbered ORDER SEQUENCE of its playsheet, each step with
the line the playsheet prints and what that step lets the players do at the table.

The game follows it step by step (which step comes next, what it needs, whether a move or a marker is
allowed now) and the printed playsheet prints it, so the referee screen and the paper cannot drift apart.
Every permit quotes the printed words that grant it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from rules.core.errors import SENTENCE_MAX, Refusal
from rules.core.game import over
from rules.flanders_fields.book.common import PERIODS, PeriodId
from rules.flanders_fields.ruleset import cite

# What a player does to the game's table, as the game checks it against the step.
Action = Literal[
    "build-forces",  # add units or forces, rename them, set their quality
    "move-stands",
    "place-markers",
    "recover-markers",
    "redirect-aiming-points",
    "record-state",  # what happened to a stand: on the wire, in gas, sheltering, limbered, promoted ...
    "lay-templates",  # place, move or remove a side's template (artillery, mortar, gas, barrage) on the table
]
# Who a step's orders reach ("Regiment/Brigade commanders may only issue orders to any of its own or attached
# assets"; "Battalion commanders may issue orders to their battalion assets, attached assets and rifle
# companies"), and the command stands that move in the last step.
UnitClass = Literal["support-asset", "battalion-asset", "battalion-commander", "command-stand"]
ANY_UNIT: tuple[UnitClass, ...] = get_args(UnitClass)
GameStatus = Literal["setup", "playing", "finished"]

# What each action is called in a message to the players.
DOING: Mapping[Action, str] = {
    "build-forces": "add units or change a force's make-up",
    "move-stands": "move stands",
    "place-markers": "place suppression markers",
    "recover-markers": "recover suppression markers",
    "redirect-aiming-points": "redirect battery aiming points",
    "record-state": "record what happened to a stand",
    "lay-templates": "place, move or remove templates",
}
WHO: Mapping[UnitClass, str] = {
    "support-asset": "regimental/brigade MGs, artillery and mortars",
    "battalion-asset": "battalion MGs, mortars, tanks and rifle companies",
    "battalion-commander": "battalion commanders",
    "command-stand": "command stands",
}


@dataclass(frozen=True)
class Permit:
    """One thing a step (or the set-up) allows, with the printed words that allow it."""

    action: Action
    quote: str
    source: str
    units: tuple[UnitClass, ...] = ANY_UNIT  # whose stands; markers land wherever fire lands


@dataclass(frozen=True)
class Step:
    """One numbered step of a playsheet's order sequence. `printed` is the step's heading as the playsheet
    prints it; `title`, `parts` and `note` are what firestep's playsheet and referee screen show of it;
    `resolvers` are the calls the step usually needs."""

    id: str
    number: int
    printed: str
    title: str
    source: str
    does: str
    permits: tuple[Permit, ...] = ()
    parts: tuple[str, ...] = ()
    note: str = ""
    resolvers: tuple[str, ...] = ()
    attacker_only: bool = False

    def allows(self, action: Action, classes: tuple[UnitClass, ...] = ANY_UNIT) -> Permit | None:
        return next((p for p in self.permits if p.action == action and set(p.units) & set(classes)), None)


@dataclass(frozen=True)
class OrderSequence:
    period: PeriodId
    source: str
    steps: tuple[Step, ...]


SEQ = "ORDER SEQUENCE NOTES"
# "Both sides follow the same turn sequence with the attackers starting the game." (TURN SEQUENCE)
TURN_SOURCE = cite("TURN SEQUENCE")
# "with one side moving and firing before the other side takes a turn" (TURN SEQUENCE)
ONE_SIDE_AT_A_TIME = "one side moving and firing before the other side takes a turn"
GAME_SEQUENCE = cite("GAME SEQUENCE")
SET_UP_QUOTE = "Attacker and Defender deploy their forces a battalion at a time with the Defender starting."
# GAME SEQUENCE: "Set up terrain then add trench lines ... Write down artillery fire plans if applicable.
# Attacker and Defender deploy their forces a battalion at a time with the Defender starting."
SET_UP: tuple[Permit, ...] = tuple(
    Permit(a, SET_UP_QUOTE, GAME_SEQUENCE)
    for a in ("build-forces", "move-stands", "redirect-aiming-points", "record-state")
)
# While the game is played, what befell a stand is recorded when it happens, whatever the step (barrages,
# gas, fire and wire all change a stand's state); by its own side, as every other change of a stand.
RECORDING = Permit("record-state", "Table top game begins.", GAME_SEQUENCE)

_MG_ACTIONS = "“Actions” are; REMOVE A SUPPRESSION LEVEL, MOVE or FIRE"
_GUN_ACTIONS = (
    "“Actions” are: REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE A BATTERY OR MOVE"
)
_RIFLE_ACTIONS = "“Action” are; REMOVE A SUPPRESSION LEVEL, FIRE or MOVE"
_MORTAR_ACTIONS = "“Actions” are; REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE or MOVE"
_BN_COMMANDERS = "Remove suppression from Battalion commanders"
# Each playsheet's MOVE COMMAND STANDS (1914 to mid 1915 step 3, later sheets step 7) prints the same line.
COMMAND_MOVE = (
    "All command stands including any artillery liaison officers may move twice, at speed of their type"
)
COMMAND_MOVES = 2  # "may move twice"
COMMAND_STEP = "move-command-stands"
_GAS_ATTACK = "As the gas sweeps over the table it will attack all the troops it passes over"
_BARRAGE_EFFECTS = {
    "mid": "ROLLING BARRAGES – ADVANCE AND ROLL EFFECTS 1-2 No Effect ~ 3-5 Suppressed ~ 6 = Killed",
    "late": "Med Cover (Trenches) 1-2 No Effect ~ 3-5 Suppressed ~ 6 = Dead",
}
_BOMBARDMENT_EFFECTS = "DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS - ROLL EFFECTS"
_ORDERS = ("order-roll", "artillery-action", "shooting", "assault", "wire-crossing", "movement")


def _sequence(period: PeriodId) -> OrderSequence:
    early = period == "early"
    n = 0 if early else 4  # the 1914 sheet numbers support orders 1; later sheets 5

    def src(number: int, heading: str) -> str:
        return cite(f"{SEQ}, {number} {heading}", period)

    support_heading = "DIVISIONAL/REGIMENTAL/BRIGADE ORDERS" if period == "late" else "SUPPORT ORDERS"
    support_src = src(n + 1, support_heading)
    support_parts = {
        "early": (
            "I. Allocate Staff Re-Roll Markers",
            "II. Individual Regimental/Brigade MGs",
            "III. Individual Regimental/Brigade Artillery",
        ),
        "mid": (
            "I. Allocate Staff Re-Roll markers",
            "II. Individual Regimental/Brigade MGs, including Block Houses",
            "III. Individual Regimental/Brigade Artillery and Mortars (Deep Suppression modifiers apply to off "
            "table artillery support)",
        ),
        "late": (
            "I. Allocate Staff reroll markers",
            "II. Individual Regimental/Brigade MGs, including Block Houses",
            "III. Individual Regimental/Brigade Artillery and Mortars (Deep Suppression modifiers apply to off "
            "table artillery support)",
            "IV. Direct Air Support mission",
        ),
    }[period]
    support_does = {
        "early": "staff re-roll markers; regimental/brigade MGs; regimental/brigade artillery",
        "mid": "staff re-roll markers; regimental/brigade MGs and block houses; artillery and mortars",
        "late": "staff re-roll markers; regimental/brigade MGs and block houses; artillery and mortars; "
        "direct air support missions",
    }[period]
    support_assets: tuple[UnitClass, ...] = ("support-asset",)
    support = Step(
        "support-orders",
        n + 1,
        f"{n + 1} {support_heading} – "
        + ("DIVISION/REGIMENT/BRIGADE – " if period != "late" else "")
        + "Roll D6 for each unit, sequence is :~",
        "Divisional/Regimental/Brigade orders. Roll D6 for each unit"
        if period == "late"
        else "Support orders: Division/Regiment/Brigade. Roll D6 for each unit",
        support_src,
        f"Roll a D6 for each unit in turn: {support_does}.",
        (
            Permit("move-stands", _MG_ACTIONS, support_src, support_assets),
            Permit("place-markers", _MG_ACTIONS, support_src),
            Permit("recover-markers", _MG_ACTIONS, support_src, support_assets),
            Permit("redirect-aiming-points", _GUN_ACTIONS, support_src, support_assets),
        ),
        parts=support_parts,
        resolvers=_ORDERS + (("air-attack",) if period == "late" else ()),
    )
    battalion_src = src(n + 2, "BATTALION ORDERS")
    battalion_assets: tuple[UnitClass, ...] = ("battalion-asset",)
    battalion = Step(
        "battalion-orders",
        n + 2,
        f"{n + 2} BATTALION ORDERS – Order each Battalion using the sequence:~",
        "Battalion orders: order each battalion in sequence",
        battalion_src,
        "Order each battalion in turn: "
        + (
            "battalion MGs; rifle companies; remove suppression from battalion commanders."
            if early
            else "attached tanks; battalion MGs; battalion mortars; rifle companies; "
            "remove suppression from battalion commanders."
        ),
        (
            Permit("move-stands", _RIFLE_ACTIONS, battalion_src, battalion_assets),
            Permit("place-markers", _RIFLE_ACTIONS, battalion_src),
            Permit("recover-markers", _RIFLE_ACTIONS, battalion_src, battalion_assets),
            Permit("recover-markers", _BN_COMMANDERS, battalion_src, ("battalion-commander",)),
            # Battalion mortars arrive with the mid-war sheet.
            *(
                ()
                if early
                else (Permit("redirect-aiming-points", _MORTAR_ACTIONS, battalion_src, battalion_assets),)
            ),
        ),
        parts=(
            ("i. Individual Battalion MGs", "ii. Battalion Rifle Companies", f"iii. {_BN_COMMANDERS}")
            if early
            else (
                "I. Tanks etc. attached to the battalions",
                "II. Individual Battalion MGs",
                "III. Individual Battalion Mortars",
                "IV. Battalion Rifle Companies",
                f"V. {_BN_COMMANDERS}",
            )
        ),
        resolvers=(*_ORDERS, "morale"),
    )
    command_src = src(n + 3, "MOVE COMMAND STANDS")
    command = Step(
        COMMAND_STEP,
        n + 3,
        f"{n + 3} MOVE COMMAND STANDS.",
        "Move command stands",
        command_src,
        "All command stands, artillery liaison officers included, may move twice at the speed of their type.",
        (Permit("move-stands", COMMAND_MOVE, command_src, ("command-stand",)),),
        note=f"{COMMAND_MOVE} i.e. {'infantry' if early else 'Infantry'} or Cavalry",
        resolvers=("movement",),
    )
    tail = (support, battalion, command)
    if early:
        return OrderSequence(period, cite(SEQ, period), tail)
    late = period == "late"
    attackers = "ATTACKERS " if late else ""
    barrage_src = src(2, "ROLLING BARRAGES - ADVANCE AND ROLL EFFECTS")
    gas_src = src(3, "GAS - DEPLOY AND ROLL FOR WIND STRENGTH")
    bombard_src = src(4, "BARRAGES AND BOMBARDMENTS")
    head = (
        Step(
            "deep-suppression",
            1,
            f"1 {attackers}ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR 1-2 = No DS ~3-4 = -1 DS ~ 5 = -2 DS ~ 6 = -1 "
            "& 1 battery lost",
            f"{'Attackers roll' if late else 'Roll'} D6 for deep suppression (DS) factor",
            src(1, "ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR"),
            "The attacker rolls a D6 for deep suppression when his fire plan has it this turn "
            "(1-2 none, 3-4 -1, 5 -2, 6 -1 and a battery lost); firestep rolls it at the start of the turn.",
            resolvers=("deep-suppression",),
            attacker_only=True,
        ),
        Step(
            "rolling-barrages",
            2,
            f"2 {attackers}ROLLING BARRAGES – ADVANCE AND ROLL EFFECTS"
            + ("" if late else " 1-2 No Effect ~ 3-5 Suppressed ~ 6 = Killed"),
            f"{'Attackers rolling' if late else 'Rolling'} barrages: advance and roll effects",
            barrage_src,
            "The barrage advances its own width (20 cm) at the start of the turn; roll for each platoon under it.",
            (Permit("place-markers", _BARRAGE_EFFECTS[period], barrage_src),),
            resolvers=("rolling-barrage", "barrage-danger"),
        ),
        Step(
            "gas",
            3,
            f"3 GAS – DEPLOY {'AND/OR ' if late else 'AND '}ROLL FOR WIND STRENGTH EACH TURN AFTER GAS IS DEPLOYED "
            "ROLL FOR WIND CHANGE PAGE 28",
            f"Gas: deploy {'and/or' if late else 'and'} roll for wind strength; each turn after gas is deployed "
            "roll for wind change",
            gas_src,
            "Planned gas arrives; roll for wind strength, and each turn after deployment for wind change.",
            (Permit("place-markers", _GAS_ATTACK, cite("GAS")),),
            resolvers=("gas-wind",),
        ),
        Step(
            "barrages-and-bombardments",
            4,
            f"4 BARRAGES AND BOMBARDMENTS {_BOMBARDMENT_EFFECTS}",
            "Barrages and bombardments: deploy pre-planned barrages and bombardments, roll effects",
            bombard_src,
            "Deploy pre-planned barrages and bombardments and roll their effects.",
            (Permit("place-markers", _BOMBARDMENT_EFFECTS, bombard_src),),
            # The hurricane bombardment (Firewaltz) is planned and arrives here, late war only.
            resolvers=("shooting", "deviation", *(("firewaltz",) if late else ())),
        ),
    )
    return OrderSequence(period, cite(SEQ, period), head + tail)


SEQUENCES: Mapping[PeriodId, OrderSequence] = {p: _sequence(p) for p in PERIODS}


def unit_classes(
    *, is_command: bool, under_battalion: bool, commands_battalion: bool
) -> tuple[UnitClass, ...]:
    """Which step's orders reach a stand: a battalion's command stand is a battalion commander; other
    command stands are only command stands; the rest belong to a battalion or support it from above."""
    if is_command:
        return ("command-stand", "battalion-commander") if commands_battalion else ("command-stand",)
    return ("battalion-asset",) if under_battalion else ("support-asset",)


@dataclass(frozen=True)
class Act:
    """What a player asks to do: the action, the side whose stand it touches and which orders reach it."""

    action: Action
    side: str | None = None
    classes: tuple[UnitClass, ...] = ANY_UNIT


def permits_now(status: str, period: str, step_index: int) -> tuple[Permit, ...]:
    if status == "setup":
        return SET_UP
    if status != "playing":
        return ()
    steps = SEQUENCES[_period(period)].steps
    step = steps[step_index] if 0 <= step_index < len(steps) else None
    return (*(step.permits if step else ()), RECORDING)


def allowed_now(status: str, period: str, step_index: int, side_to_move: str) -> list[str]:
    """What the players may do now, in words (one line each)."""
    out: list[str] = []
    for p in permits_now(status, period, step_index):
        whose = f"the {side_to_move}'s " if status == "playing" and _own_turn_only(p.action) else ""
        who = "" if p.units == ANY_UNIT else " and ".join(WHO[u] for u in p.units)
        line = DOING[p.action] + (f" ({whose}{who or 'stands'})" if whose or who else "")
        if line not in out:
            out.append(line)
    return out


MAX_SENTENCE = SENTENCE_MAX  # a refusal's one sentence (issue 26)


def _quoted(text: str) -> str:
    return text if text.startswith("“") else f"“{text}”"


def _own_turn_only(action: Action) -> bool:
    # Markers land wherever the fire lands (an own barrage's danger zone, gas blown back); the states of a
    # stand are recorded as they happen; everything else is the side to move's.
    return action not in ("place-markers", "record-state")


def _period(period: str) -> PeriodId:
    return next((p for p in PERIODS if p == period), "early")


def step_at(period: str, step_index: int) -> Step | None:
    steps = SEQUENCES[_period(period)].steps
    return steps[step_index] if 0 <= step_index < len(steps) else None


def refusal(status: str, period: str, step_index: int, side_to_move: str, act: Act) -> Refusal | None:
    """None when the game's status and the current step allow the act, else a refusal for the players: one
    sentence saying what to do, and in full (`why`) the rule or step and what is allowed now."""
    doing = DOING[act.action]
    if (ended := over(status, doing)) is not None:
        return ended
    allowed = "; ".join(allowed_now(status, period, step_index, side_to_move))
    if status == "setup":
        # Templates are the players' aids to show fire on the table, laid out freely until the game starts.
        if act.action == "lay-templates" or any(p.action == act.action for p in SET_UP):
            return None
        return Refusal(
            f"Wait for the game to start: players may not {doing} in set-up.",
            f"The game has not started: players may not {doing} in set-up. {GAME_SEQUENCE}: "
            f"“{SET_UP_QUOTE}” Allowed now: {allowed}.",
            GAME_SEQUENCE,
        )
    step = step_at(period, step_index)
    if step is None:
        said = f"The game is not being played: players may not {doing}."
        return Refusal(said, f"{said[:-1]} (the game is {status}).")
    if act.action == "build-forces":
        return Refusal(
            f"Build forces in set-up: during play players may not {doing}.",
            f"Forces are built and deployed in set-up ({GAME_SEQUENCE}: “{SET_UP_QUOTE}”); during play "
            f"players may not {doing}. Allowed now: {allowed}.",
            GAME_SEQUENCE,
        )
    if act.action == "record-state":
        return None
    where = f"step {step.number}. {step.title} of the {side_to_move}'s turn ({step.source})"
    if _own_turn_only(act.action) and act.side is not None and act.side != side_to_move:
        return Refusal(
            f"Wait for the {act.side}'s turn: the {act.side} may not {doing} in the {side_to_move}'s turn.",
            f"It is the {side_to_move}'s turn ({TURN_SOURCE}: “{ONE_SIDE_AT_A_TIME}”): the {act.side}'s "
            f"stands may not {doing} now. Allowed now: {allowed}.",
            TURN_SOURCE,
        )
    if act.action == "lay-templates":
        return None  # in any step of the side's own turn: its fire lands in several steps
    if step.allows(act.action, act.classes):
        return None
    reached = [p for p in step.permits if p.action == act.action]
    if reached:
        whose = " and ".join(sorted({WHO[u] for p in reached for u in p.units}))
        said = f"Pick another stand: in step {step.number} only {whose} may {doing}."
        if len(said) > MAX_SENTENCE:
            said = f"Pick another stand: step {step.number} lets only some stands {doing}."
        why = f"In {where} only {whose} may {doing} ({_quoted(reached[0].quote)}). Allowed now: {allowed}."
        return Refusal(said, why, step.source)
    return Refusal(
        f"Wait for a step that allows it: players may not {doing} in step {step.number}.",
        f"In {where} players may not {doing}. Allowed now: {allowed}.",
        step.source,
    )


# -- the rolls of the rules of play ---------------------------------------------------------------------------
# A roll belongs to the steps that list its resolver (Step.resolvers), for the side to move (TURN SEQUENCE: "one
# side moving and firing before the other side takes a turn"). The book places these besides, each with its
# printed words: `either_side` (the side not moving rolls it too) and `steps` (the step ids it belongs to as well;
# none: any step of the turn; `first_step`: the turn's first step only).
@dataclass(frozen=True)
class RollPermit:
    quote: str
    source: str
    either_side: bool = False
    steps: tuple[str, ...] = ()
    first_step: bool = False


ROLL_PERMITS: Mapping[str, RollPermit] = {
    # A battalion tests when its losses reach 50%, whoever's fire caused them, and carries the result out at once.
    "morale": RollPermit(
        "If a battalion's rifle platoons are reduced to 50% of its starting strength the battalion as a whole "
        "must roll morale",
        cite("MORALE"),
        either_side=True,
    ),
    "deep-shelter": RollPermit(
        "When troops in deep shelters are required to return to their fighting trenches Roll a D6 for each "
        "platoon.",
        cite("TROOPS IN DEEP SHELTERS"),
        either_side=True,
    ),
    "heroic-action": RollPermit(
        "Once per game each player may elect to attempt a “Heroic Action”.", cite("HEROIC ACTIONS")
    ),
    "random-event": RollPermit(
        "At the start of each turn a player must draw at least one card from the pack, but may draw two.",
        cite("RANDOM EVENTS"),
        first_step=True,
    ),
    "sos": RollPermit(
        "When an SOS artillery request is ordered roll a die", cite("SOS TARGETS"), steps=("support-orders",)
    ),
    "deviation": RollPermit(
        "When unobserved off table artillery or ANY artillery delivered gas attack arrives roll a deviation dice",
        cite("ARTILLERY AIMING POINT - DEVIATION"),
        steps=("support-orders", "gas"),
    ),
    "barrage-duration": RollPermit(
        "It advances its own width at the start of the attacking side's turn.",
        cite("ROLLING BARRAGE"),
        steps=("rolling-barrages",),
    ),
}
# Questions of the book that change nothing on the table: either side asks them at any time.
QUESTIONS = frozenset({"suppression", "visibility", "casualties"})
# The side not moving shoots in the side to move's turn only as the book's events call for it: "the defenders may
# shoot as the attackers close" (CLOSE COMBAT), "The tank may defend itself by shooting at its attackers" (INFANTRY
# VS ARMOUR), troops moving through a fire zone "will be automatically attacked by the targeting unit" (MOVING
# THROUGH ARTILLERY AND INDIRECT MACHINEGUN FIRE ZONES). Whether the target is closing on the firer is the
# table's to see, not the game's: the referee allows such a shot with an override, which the log records.
REACTION = "shooting"
REACTION_QUOTE = "If assaulting non suppressed troops ... the defenders may shoot as the attackers close"
REACTION_SOURCE = (
    cite("CLOSE COMBAT (ASSAULTING)")
    + "; "
    + cite("MOVING THROUGH ARTILLERY AND INDIRECT MACHINEGUN FIRE ZONES")
)
# The rolls a step's orders give to the units they reach (ORDERS AND ACTIONS: an order moves, redirects or fires
# a unit; "Regiment/Brigade commanders may only issue orders to any of its own or attached assets").
ORDERED_ROLLS = frozenset(_ORDERS)


@dataclass(frozen=True)
class RollAsked:
    """A roll asked in the game: its resolver, the side it is for (its unit's, else the roller's), and which
    orders reach its unit (None: no unit)."""

    resolver: str
    side: str
    classes: tuple[UnitClass, ...] | None = None


def _step_words(step_id: str) -> str:
    """A step by the words of its printed heading ("battalion orders"), not its id."""
    return step_id.replace("-", " ")


def _roll_words(resolver: str) -> str:
    """A roll by the words of its heading, as the thing a side makes: "the morale roll", "the order roll" (its
    id in a sentence saying to roll it had said "roll order roll")."""
    words = resolver.replace("-", " ")
    return f"the {words}" if words.endswith(" roll") else f"the {words} roll"


def roll_refusal(
    status: str, period: str, step_index: int, side_to_move: str, roll: RollAsked, mover: str = ""
) -> Refusal | None:
    """None when the current step lets `roll.side` roll `roll.resolver` now, else a refusal naming the step
    (`mover`: the side to move as the players call it, "German"): one sentence saying what to do, the rule in full
    (`why`) and its printed line."""
    step = step_at(period, step_index)
    if status != "playing" or step is None or roll.resolver in QUESTIONS:
        return None  # a roll outside play is refused by the game itself; a question changes nothing
    who = mover or f"{side_to_move}'s"
    words = _roll_words(roll.resolver)  # a roll and a step in words, as the playsheet heads them
    now = f"the {who} {_step_words(step.id)} step"
    listed = [s.id for s in SEQUENCES[_period(period)].steps if roll.resolver in s.resolvers]
    permit = ROLL_PERMITS.get(roll.resolver)
    if roll.side != side_to_move:
        if permit is not None and permit.either_side:
            return None
        said = f"It is {now}: wait for your turn."
        why = (
            f"It is step {step.number}. {step.title} of the {side_to_move}'s turn ({TURN_SOURCE}: "
            f"“{ONE_SIDE_AT_A_TIME}”): the {roll.side} may not make {words} now"
            + (
                f"; out of its turn it shoots only as the {side_to_move}'s troops close on it or cross its fire zone "
                f"(“{REACTION_QUOTE}”, {REACTION_SOURCE}), allowed by the referee's override"
                if roll.resolver == REACTION
                else ""
            )
            + "."
        )
        return Refusal(said, why, TURN_SOURCE)
    if step.attacker_only and side_to_move != "attacker" and roll.resolver in step.resolvers:
        said = f"It is {now}: only the attacker makes {words}."
        why = f"Step {step.number}. {step.title} ({step.source}) is the attacker's: “{step.printed}”."
        return Refusal(said, why, step.source)
    if permit is not None and (
        (permit.first_step and step_index == 0)
        or (not permit.first_step and (not permit.steps or step.id in permit.steps))
    ):
        return None
    if step.id not in listed and (permit is None or step.id not in permit.steps):
        steps = [*listed, *(permit.steps if permit else ())]
        where = (
            "the first step of the turn"
            if permit is not None and permit.first_step
            else " or ".join(f"the {_step_words(s)} step" for s in dict.fromkeys(steps))
            or "no step of this period"
        )
        said = f"It is {now}: make {words} in {where}."
        if len(said) > MAX_SENTENCE:
            said = f"It is {now}: {words} is made in another step."
        printed = f" (“{permit.quote}”, {permit.source})" if permit is not None else ""
        why = (
            f"In step {step.number}. {step.title} of the {side_to_move}'s turn ({step.source}) {words} is not "
            f"made: it belongs to {where}{printed}."
        )
        return Refusal(said, why, step.source)
    reached = next((p for p in step.permits if p.action == "move-stands"), None)
    ordered = roll.resolver in ORDERED_ROLLS and roll.classes is not None and reached is not None
    if ordered and reached is not None and not step.allows("move-stands", roll.classes or ()):
        whose = " and ".join(WHO[u] for u in reached.units)
        said = f"It is {now}: its orders reach only {whose}."
        if len(said) > MAX_SENTENCE:
            said = f"It is {now}: this step's orders do not reach that stand."
        why = (
            f"In step {step.number}. {step.title} of the {side_to_move}'s turn ({step.source}) orders reach "
            f"only {whose} ({_quoted(reached.quote)}): that stand is ordered in another step."
        )
        return Refusal(said, why, step.source)
    return None
