"""2mm Earth 1418's bound, step by step (BOUNDS; PLANNING & EXECUTING): high commands to the strategic
formations, the sub-units' plans in the book's planning order, the executing steps (1)-(10) in the book's
order, melee, the end of the bound; both sides act in every step. Each step's printed words and what it
permits, and the refusal of an act no step now permits."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.errors import SENTENCE_MAX, Refusal
from rules.core.game import Position
from rules.core.turn import Permit, Step
from rules.earth2mm.data import BOUND, EXECUTING_ORDER, PLANNING_ORDER, SRC_ARTILLERY, SRC_ASSAULT, SRC_ORDER
from rules.earth2mm.play.fields import COMMAND_ACT, DIG_ACT, LEAVE_ACT, PLAN_ACT
from rules.earth2mm.ruleset import cite

SRC_BOUNDS = cite("BOUNDS")
SRC_CASUALTIES = cite("CASUALTIES & ENDING THE BOUND")
SIDES = ("attacker", "defender")

# The acts of the rules of play (the contract's names): the rolls are judged by `roll_refusal`.
MOVE_ACT = "move-stands"
FIRE_PLAN_ACT = "plan-fire"
SHOOT = "shoot"
RECOVERY = "recovery"
ALLOCATE = "allocate-hits"
BOMBARD = "bombard"

# The planning steps, with the planning class (units.PLANNING) each names.
PLANNING_STEPS: tuple[tuple[str, str], ...] = (
    ("plan-naval-railway", "naval-railway"),
    ("plan-artillery", "artillery"),
    ("plan-reserve", "reserve"),
    ("plan-line", "line"),
    ("plan-heavy-weapons", "heavy-weapons"),
    ("plan-elite", "elite"),
)
# The steps in which a side writes its bound's artillery plan (erratum bombardment-orders), and those whose
# sub-units plan on the map, anonymously ("Anon"), not marked on the table.
FIRE_PLAN_STEPS = ("high-commands", "plan-naval-railway", "plan-artillery")
SHOOTING_STEPS = ("execute-1", "execute-2", "execute-4", "execute-5", "execute-9")
MOVING_STEPS = ("execute-6", "execute-7", "execute-8")

_COMMANDS_QUOTE = "High commands given to Strategic Formations"
_BOMBARD_QUOTE = (
    "when the player gives Commands to Strategic Formations, the player must also order bombardments on a grid "
    "reference"
)


def _planning_step(i: int, step_id: str, planning: str) -> Step:
    printed = f"({i + 1}) {PLANNING_ORDER[i]}"
    permits = [Permit(PLAN_ACT, (planning,), printed, SRC_ORDER)]
    if planning not in ("naval-railway", "artillery"):
        # Digging in is a plan's choice (erratum digging-plan); artillery "can never dig in".
        permits.append(Permit(DIG_ACT, (planning,), printed, cite("DIGGING IN & COVER")))
    if step_id in FIRE_PLAN_STEPS:
        permits.append(Permit(FIRE_PLAN_ACT, (planning,), "Artillery plans are done on a map.", SRC_ORDER))
    does = f"the {planning.replace('-', ' ')} sub-units of both sides plan their moving and shooting"
    return Step(
        step_id, 2 + i, printed, PLANNING_ORDER[i], SRC_ORDER, does, tuple(permits), ("plans",), sides=SIDES
    )


# After a shot: its hits allocated by the aggressor, and a freshly injured base under a new shooter's fire
# rolling its recovery die (ARMING and RESILIENCE).
_AFTER_SHOTS = (
    Permit(
        ALLOCATE,
        ("aggressors",),
        "Hit allocation is up to the aggressor's choice, but (as above) they cannot allocate kills until all bases "
        "have injuries.",
        cite("ARMING and RESILIENCE"),
    ),
    Permit(
        RECOVERY,
        ("injured bases",),
        "If it remains under fire but from a different shooter, it rolls a recovery die.",
        cite("ARMING and RESILIENCE"),
    ),
)


def _executing_step(i: int) -> Step:
    n = i + 1
    printed = f"({n}) {EXECUTING_ORDER[i]}"
    step_id = f"execute-{n}"
    permits: list[Permit] = []
    resolvers: tuple[str, ...] = ()
    if n in (1, 2):
        quote = "On-table guns can be directly fire instead, firing like infantry but at the same time as bombardments."
        permits.append(Permit(BOMBARD, ("artillery",), quote, SRC_ARTILLERY))
    if step_id in SHOOTING_STEPS:
        permits += [Permit(SHOOT, (f"execute-{n}",), printed, SRC_ORDER), *_AFTER_SHOTS]
        resolvers = (SHOOT, ALLOCATE)
    elif step_id in MOVING_STEPS:
        permits.append(Permit(MOVE_ACT, (f"execute-{n}",), printed, SRC_ORDER))
        resolvers = ("move",)
    elif n == 3:
        permits.append(Permit(LEAVE_ACT, ("dug-in infantry",), printed, SRC_ORDER))
    else:
        permits += [Permit(BOMBARD, ("naval-railway",), printed, SRC_ORDER), *_AFTER_SHOTS]
        resolvers = (BOMBARD,)
    does = EXECUTING_ORDER[i][0].lower() + EXECUTING_ORDER[i][1:].rstrip(".")
    return Step(
        step_id,
        7 + n,
        printed,
        EXECUTING_ORDER[i].rstrip("."),
        SRC_ORDER,
        does,
        tuple(permits),
        resolvers,
        sides=SIDES,
    )


STEPS: tuple[Step, ...] = (
    Step(
        "high-commands",
        1,
        BOUND[0],
        "High commands",
        cite("HIGH COMMANDS"),
        "both sides give each strategic formation its high command and order their bombardments",
        (
            Permit(COMMAND_ACT, ("strategic formations",), _COMMANDS_QUOTE, SRC_BOUNDS),
            Permit(FIRE_PLAN_ACT, ("artillery",), _BOMBARD_QUOTE, SRC_ARTILLERY),
        ),
        sides=SIDES,
    ),
    *(_planning_step(i, sid, p) for i, (sid, p) in enumerate(PLANNING_STEPS)),
    *(_executing_step(i) for i in range(len(EXECUTING_ORDER))),
    Step(
        "melee",
        18,
        BOUND[3],
        "Melee",
        SRC_ASSAULT,
        "sub-units in base contact with an enemy that assaulted or was assaulted fight with the m side of Arming",
        (
            Permit(SHOOT, ("melee",), BOUND[3], SRC_BOUNDS),
            Permit(
                ALLOCATE,
                ("aggressors",),
                "Injuries and casualties are distributed by the aggressor.",
                SRC_ASSAULT,
            ),
            _AFTER_SHOTS[1],
        ),
        (SHOOT, ALLOCATE),
        sides=SIDES,
    ),
    Step(
        "end-of-bound",
        19,
        BOUND[4],
        "End of the bound",
        SRC_CASUALTIES,
        "casualties are all removed; an injury no longer under fire becomes old; the next bound starts",
        _AFTER_SHOTS,
        (ALLOCATE, RECOVERY),
        sides=SIDES,
    ),
)


STEP_INDEX = {s.id: i for i, s in enumerate(STEPS)}
PERMITTED: dict[str, tuple[str, ...]] = {}
for _s in STEPS:
    for _p in _s.permits:
        PERMITTED.setdefault(_p.action, ())
        PERMITTED[_p.action] += (_s.id,)
# The rolls the steps judge; every other resolver (plans, resilience, a move's distance, a line of sight, a
# template) is a question that changes nothing, asked in any step.
STEP_ROLLS = frozenset({SHOOT, ALLOCATE, RECOVERY, BOMBARD})


# What each act of the rules of play is called in a refusal's sentence.
ACT_WORDS = {
    COMMAND_ACT: "a high command",
    PLAN_ACT: "a sub-unit's plan",
    DIG_ACT: "digging in",
    LEAVE_ACT: "marking a dugout left",
    MOVE_ACT: "moving",
    FIRE_PLAN_ACT: "the artillery plan",
    SHOOT: "shooting",
    ALLOCATE: "allocating hits",
    RECOVERY: "a recovery die",
    BOMBARD: "a bombardment",
}


def printed_number(step: Step) -> str:
    """A planning or executing step's number as the book prints it: "(7)"."""
    return step.printed.split(" ", 1)[0]


def step_name(step: Step) -> str:
    """A step by its printed name, in a sentence: "high commands", "planning step (4)", "executing step (7)",
    "melee", "the end of the bound"."""
    if step.id.startswith("plan-"):
        return f"planning step {printed_number(step)}"
    if step.id.startswith("execute-"):
        return f"executing step {printed_number(step)}"
    return step.title.lower() if step.id != "end-of-bound" else f"the {step.title.lower()}"


def _runs(ids: Sequence[str]) -> str:
    """Steps by their printed names, consecutive ones of a kind as runs: "executing steps (1)-(2), (4)-(5),
    (9) or melee"."""
    runs: list[list[Step]] = []
    for i in sorted(STEP_INDEX[s] for s in ids):
        step = STEPS[i]
        if runs and STEP_INDEX[runs[-1][-1].id] + 1 == i and step.id[:4] == runs[-1][-1].id[:4]:
            runs[-1].append(step)
        else:
            runs.append([step])
    said: list[str] = []  # the planning steps' runs, then the executing steps', then each other step
    for kind, word in (("plan", "planning"), ("exec", "executing")):
        numbers = [
            "-".join(dict.fromkeys(printed_number(s) for s in (r[0], r[-1])))
            for r in runs
            if r[0].id.startswith(kind)
        ]
        if numbers:
            steps = "steps" if len(numbers) > 1 or "-" in numbers[0] else "step"
            said += [f"{word} {steps} {numbers[0]}", *numbers[1:]]
    said += [step_name(r[0]) for r in runs if not r[0].id.startswith(("plan", "exec"))]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


def step_refusal(now: Position, action: str) -> Refusal | None:
    """None when the current step permits `action`, else the refusal naming the steps that do."""
    step = STEPS[now.step] if now.step < len(STEPS) else None
    allowed = PERMITTED.get(action, ())
    if step is None or step.id in allowed or not allowed:
        return None
    where = [STEPS[STEP_INDEX[i]] for i in allowed]
    what = ACT_WORDS.get(action, action.replace("-", " "))
    permits = [(s, p) for s in where for p in s.permits if p.action == action]
    quotes = "; ".join(f"step {s.number}: “{p.quote}”" for s, p in permits)
    source = permits[0][1].source
    said = f"Not in {step_name(step)}: {what} waits for {_runs(allowed)}"
    if len(said) >= SENTENCE_MAX:  # its full stop to come: the step is in the rule beside it
        said = f"{what[0].upper()}{what[1:]} waits for {_runs(allowed)}"
    return Refusal(
        said,
        f"It is step {step.number} of the bound, “{step.printed}”; {what} is done only in {quotes} ({source})",
        source,
    )
