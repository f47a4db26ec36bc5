"""Vimy Ridge played as a game of counters on hexes (no table): the hook (rules.core.game.GameRules) with its
counters' state (a hex, a division, printed strengths, depleted, eliminated), its turn (the Allied player
first, beginning at Zero Hour; movement, bombardment, combat; night turns from the club's turn track), its
rolls (a bombardment, an attack on the integrated CRT) and what the rules of play forbid, each refusal one
sentence citing its rule. A combat's result is recorded; the players apply it to the counters as the standard
rules say (depleted, eliminated, retreated, advanced), each choice a unit edit in the log. The club's values
(rules.vimy_ridge.play.club) are read from the game's board; the victory tally (rules.vimy_ridge.play.victory)
is rewritten on the board after every act that changes it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from rules.core.acts import Act, AddUnit, EditUnit, Roll
from rules.core.errors import Refusal, RulesError
from rules.core.game import TURN_STARTED, Answer, Book, GameRules, Held, Position
from rules.core.kit import CounterBoard, CounterNotes, TableKit, TrackTurn
from rules.core.records import (
    Change,
    Claims,
    EditChoice,
    Filled,
    FillRequest,
    SetBoard,
    SetState,
    Snapshot,
    StandAct,
    StandEdit,
    StateField,
    UnitState,
)
from rules.core.resolution import Evaluation
from rules.core.rolls import Outcome, RollTerms
from rules.core.ruleset import Context, Erratum, Reading, Resolver
from rules.core.scenario import NewForces
from rules.core.turn import Notice, Step
from rules.registry import register_game
from rules.table.hexes import neighbours
from rules.vimy_ridge.data import (
    CRT_LINES,
    CRT_SOURCE,
    LAST_TURN,
    MAX_MARKERS_PER_UNIT,
    REPLACEMENTS_PER_NIGHT,
    TURNS,
    Terrain,
)
from rules.vimy_ridge.play import combat, hexmap
from rules.vimy_ridge.play.club import CLUB, ClubData, ClubDataEntry, checked
from rules.vimy_ridge.play.setup import (
    ALLIED,
    COUNTER,
    GERMAN,
    GERMAN_DIVISIONS,
    GermanOrder,
    SetUpHexes,
    counters,
    hex_checked,
    on_map_checked,
    placed_refused,
    strengths_checked,
)
from rules.vimy_ridge.play.sheet import VimySheet
from rules.vimy_ridge.play.victory import TALLY, place_notes, tally
from rules.vimy_ridge.resolvers import Combat, CombatRequest, allotment, is_night
from rules.vimy_ridge.ruleset import VimyRidge, cite

SIDE_WORD = {ALLIED: "allied", GERMAN: "german"}
SIDE_NAME = {
    ALLIED: "Canadian",
    GERMAN: "German",
}  # 12.1 "The Canadian player wins"; 12.2 "the German player"

SRC_NIGHT = cite("13.1 Night")
SRC_REPLACE = cite("11.3 Allied Replacements; 11.6 German Replacements")
SRC_BOMBARD = cite("17.2 Utilizing Bombardment Markers")
SRC_ALLOT = cite("17.1 Artillery Bombardment Limitations")
SRC_INTEGRITY = cite("18.3 Divisional Integrity")
SRC_TRENCH = cite("14.2 Trench Lines")
SRC_NML = cite("14.1 No Man's Land")
SRC_RED_BARON = cite("18.1 The Red Baron")
SRC_TURN = cite("15.0 Turn Sequence; 20.1 First Player")
SRC_RESULTS = combat.SRC_RESULTS

MOVE_ACT = "move-counter"  # a counter's hex set: a move, a retreat, an advance or a replacement entering
RESULT_ACT = "apply-results"  # depleted, eliminated, retreated, advanced: the players' choice
CHOICES = ("", "moved", "retreated", "advanced", "depleted", "eliminated", "replacement", "set-up")


# -- the counters' state ---------------------------------------------------------------------------------------
# A counter: the hex it stands in (four digits, "" off the map), its division (18.3's colour), its printed
# strengths (full and depleted sides), whether it is depleted or eliminated, and the turn it last moved.
STATE_FIELDS = (
    StateField("hex", "Hex", "", edit="word", on_turn=True),
    StateField("division", "Division", "", edit="word"),
    StateField("attack", "Attack", 0, maximum=99, edit="number"),
    StateField("defence", "Defence", 0, maximum=99, edit="number"),
    StateField("attack_depleted", "Attack (depleted)", 0, maximum=99, edit="number"),
    StateField("defence_depleted", "Defence (depleted)", 0, maximum=99, edit="number"),
    # Printed on the counter (the standard rules' movement allowance): a move is bounded by it (hexmap).
    StateField("movement_allowance", "Movement allowance", 0, maximum=99, edit="number"),
    StateField(
        "depleted",
        "Depleted",
        False,
        edit="flag",
        badge="DEPLETED",
        filter="Depleted",
        words=("is depleted", "is back at full strength"),
    ),
    StateField(
        "eliminated",
        "Eliminated",
        False,
        edit="flag",
        badge="ELIMINATED",
        filter="Eliminated",
        words=("is eliminated", "returns to the map"),
    ),
    StateField("applied_result", "Applied", "", edit="word", shown=False),
    StateField("moved_turn", "Moved on turn", 0, shown=False),
)


class VimyRidgeUnitState(BaseModel):
    """A Vimy Ridge counter's state, one field per STATE_FIELDS entry at its default."""

    model_config = ConfigDict(frozen=True)

    hex: str = ""
    division: str = ""
    attack: int = 0
    defence: int = 0
    attack_depleted: int = 0
    defence_depleted: int = 0
    movement_allowance: int = 0
    depleted: bool = False
    eliminated: bool = False
    applied_result: str = ""
    moved_turn: int = 0


# A hex set is a move in the movement phase, a retreat or an advance in combat, or a replacement entering:
# which one the edit's `applied_result` says, and `forbidden` judges (not the side's step alone).
EDIT_ACTS = {
    "hex": MOVE_ACT,
    "depleted": RESULT_ACT,
    "eliminated": RESULT_ACT,
    "applied_result": RESULT_ACT,
}


# A combat's result each player applies to his own counters (the Fire & Movement standard rules: the owning
# player applies a result to his units, choosing how to take a loss where it lets him; the attacker advances
# with his own): the standard rules' choices, applied only in the combat phase (`edit_refused`).
COMBAT_RESULTS = ("retreated", "advanced", "depleted", "eliminated")


def card_edits(snapshot: Snapshot, unit_id: int) -> tuple[StandEdit, ...]:
    """What a counter's card offers to apply: in the combat phase, a combat's result (a step lost, the counter
    eliminated) by its owner; else a step lost (a bombardment hit, as the players read it), or rebuilt as a
    replacement (an eliminated counter's return names its hex: `KIT`'s `returned`). Elimination is a combat's
    result or the referee's override, never offered outside one."""
    u = snapshot.unit(unit_id)
    if u.level != COUNTER:
        return ()
    if step_of(snapshot) == "combat":
        # Only what an attack rolled this phase gave the counter (combat.results_open), as the pipeline judges.
        open_now = () if u.state.get("eliminated") else combat.results_open(snapshot, u.id)
        lost = (
            ()
            if u.state.get("depleted") or "depleted" not in open_now
            else (EditChoice("depleted", "Step loss"),)
        )
        gone = (EditChoice("eliminated", "Eliminated"),) if "eliminated" in open_now else ()
        chosen = (*lost, *gone)
        return (StandEdit("Combat result", "applied_result", u.id, SRC_RESULTS, chosen),) if chosen else ()
    if u.state.get("eliminated"):
        return ()  # its return is a replacement entering a hex, typed on its card (KIT.counters.returned)
    out = []
    if not u.state.get("depleted"):
        out.append(StandEdit("Step loss", "depleted", u.id, SRC_RESULTS, (EditChoice(True, "Depleted"),)))
    else:
        rebuilt = EditChoice(False, "Rebuilt (a replacement)")
        out.append(StandEdit("Rebuild", "depleted", u.id, "11.3, 11.6: two replacements a night", (rebuilt,)))
    return tuple(out)


def choice_of(snapshot: Snapshot, unit: UnitState, values: Mapping[str, Any]) -> str:
    """The result an edit applies: the one it names, else in the combat phase what it does (a counter moved
    advances or retreats, the combat-phase-move erratum; a step lost; the counter eliminated); "" for none."""
    named = values.get("applied_result")
    if named is not None or step_of(snapshot) != "combat":
        return str(named or "")
    if unit.state.get("eliminated") or not unit.state.get("hex"):
        return ""  # a replacement entering the map (11.3, 11.6), judged as one
    if values.get("hex") and values["hex"] != unit.state.get("hex"):
        return "advanced" if unit.side == snapshot.side_to_move else "retreated"
    if values.get("eliminated") is True and not unit.state.get("eliminated"):
        return "eliminated"
    if values.get("depleted") is True and not unit.state.get("depleted"):
        return "depleted"
    return ""


def step_of(snapshot: Snapshot) -> str:
    """The current step's id ("" before the game starts or after it ends)."""
    return STEPS[snapshot.step].id if snapshot.turn >= 1 and snapshot.step < len(STEPS) else ""


def strength(u: UnitState, kind: str) -> int:
    """A counter's attack or defence as it stands: its depleted side's when depleted."""
    return int(u.state.get(f"{kind}_depleted" if u.state.get("depleted") else kind, 0))


def board_value(snapshot: Snapshot, key: str) -> Any:
    return snapshot.board.get(key)


def night(snapshot: Snapshot, turn: int | None = None) -> tuple[bool, str]:
    """Whether a turn is a night turn, and whose reading says so: the club's turn track where entered, else the
    turn-track erratum's reading."""
    t = snapshot.turn if turn is None else turn
    track = board_value(snapshot, "turn_track")
    if track and 1 <= t <= len(track):
        return track[t - 1] == "Night", f"{SRC_NIGHT}; {CLUB}"
    ctx = VimyRidge().context(None, snapshot.variants)
    return (1 <= t <= LAST_TURN and is_night(ctx, t)), ctx.citation("turn-track")


def allotted(snapshot: Snapshot, side: str, turn: int | None = None) -> tuple[int, str]:
    """The side's bombardment markers this turn (or `turn`): the club's Artillery Track where entered, else the
    artillery-track erratum's reading."""
    track = board_value(snapshot, "artillery_track")
    t = snapshot.turn if turn is None else turn
    if track and 1 <= t <= len(track):
        return int(track[t - 1][0 if side == ALLIED else 1]), f"{SRC_ALLOT}; {CLUB}"
    ctx = VimyRidge().context(None, snapshot.variants)
    by = allotment(ctx, min(max(t, 1), LAST_TURN))
    return by[SIDE_WORD[side]], ctx.citation("artillery-track")


def this_turn(snapshot: Snapshot, key: str) -> dict[str, Any]:
    """A per-turn ledger on the board (markers spent, units bombarded, replacements): empty on a new turn."""
    kept = board_value(snapshot, key) or {}
    return dict(kept) if kept.get("turn") == snapshot.turn else {"turn": snapshot.turn}


# -- the turn ----------------------------------------------------------------------------------------------------
STEPS = (
    Step(
        "movement",
        1,
        "Movement",
        "Movement phase",
        SRC_TURN,
        "move counters (at night only replacements enter)",
    ),
    Step(
        "bombardment",
        2,
        "Bombardment",
        "Bombardment (end of the movement phase)",
        SRC_BOMBARD,
        "place bombardment markers on observed enemy units, at most two each, and roll one die per marker",
        resolvers=("bombardment",),
    ),
    Step(
        "combat",
        3,
        "Combat",
        "Combat phase",
        cite("Integrated Combat Results Table"),
        "attack with one division's units at a time; apply each result",
        resolvers=("attack",),
    ),
)
STEP_IDS = [s.id for s in STEPS]


class VimyTurn(GameRules):
    """The Allied player first (15.1, 20.1); the game begins at Zero Hour (15.2): the Allied movement phase of
    turn 1 moves nothing, his bombardment ends it (erratum zero-hour), then his combat phase; 11 turns."""

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return STEPS

    def allowed_now(self, status: str, period: str | None, now: Position) -> list[str]:
        if status != "playing" or now.step >= len(STEPS):
            return []
        return [STEPS[now.step].does]

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        setting_up = snapshot.turn < 1
        if isinstance(act, AddUnit):  # a counter placed with its state, checked at the door (19.0, 20.0)
            state = act.fields.get("state") or {}
            hex_checked(state)
            on_map_checked(snapshot, state)
            strengths_checked(state, {})
            if not setting_up:  # a new counter mid-game could stand on a key hex at once: the referee's call
                return (
                    _refused_now(
                        "Counters are set up before play; in play a unit returns only as a replacement (11.3).",
                        "both players set up all of their units before the game begins; eliminated units return "
                        "as replacements in night turns",
                        f"{cite('11.1 Set up Sequence')}; {SRC_REPLACE}",
                    ),
                )
            return placed_refused(snapshot, act.side, None, state, setting_up)
        if isinstance(act, EditUnit):
            unit = snapshot.unit(act.unit_id)
            hex_checked(act.values)
            on_map_checked(snapshot, act.values)
            strengths_checked(act.values, unit.state)
            if placed := placed_refused(snapshot, unit.side, unit.id, act.values, setting_up, now=unit.state):
                return placed
            if setting_up:  # a combat result follows an attack
                return result_out_of_phase(snapshot, act.values)
            if (
                act.values.get("hex") == ""
                and unit.state.get("hex")
                and act.values.get("eliminated") is not True
            ):
                # In play a counter leaves the map only as it is eliminated (edited() clears its hex then).
                raise RulesError(
                    "hex",
                    "A counter leaves the map only when eliminated by a combat result (standard rules).",
                    source=SRC_RESULTS,
                )
        if setting_up:
            return ()
        if snapshot.turn > LAST_TURN:
            return (
                Refusal(
                    "The game is over: it has 11 turns (20.1).",
                    "The game is divided into 11 turns (20.1)",
                    SRC_TURN,
                ),
            )
        if isinstance(act, EditUnit):
            return printed_refused(snapshot, act) or edit_refused(snapshot, act)
        if isinstance(act, Roll):
            return roll_refused(snapshot, act)
        return ()

    def between_turns(self, snapshot: Snapshot, moment: str) -> tuple[tuple[Notice, ...], tuple[Change, ...]]:
        if moment != TURN_STARTED:
            return (), ()
        # 18.1 "During each night game turn, the Allied player must eliminate (permanently) one of his aircraft
        # markers from the game": as the night turn begins (its first side's turn, the Allied one).
        is_night, _source = night(snapshot)
        if not is_night or snapshot.side_to_move != ALLIED:
            return (), ()
        left = int(board_value(snapshot, "aircraft") or 0)
        if left <= 0:
            return (Notice("red-baron", {"aircraft": 0, "lost": 0}, SRC_RED_BARON),), ()
        why = f"the Red Baron: the Allied player loses an aircraft marker this night turn ({left - 1} left)"
        return (
            (Notice("red-baron", {"aircraft": left - 1, "lost": 1}, SRC_RED_BARON),),
            (SetBoard(why, SRC_RED_BARON, "aircraft", left - 1),),
        )


def _refused_now(sentence: str, why: str, source: str) -> Refusal:
    assert len(sentence) <= 120, sentence
    return Refusal(sentence, why, source)


PRINTED = ("division", "attack", "defence", "attack_depleted", "defence_depleted", "movement_allowance")


def printed_refused(snapshot: Snapshot, act: EditUnit) -> tuple[Refusal, ...]:
    """A counter's printed values (its division, strengths and movement allowance) are set in set-up: in play
    a seat that could raise them would move or attack beyond what its counter prints."""
    unit = snapshot.unit(act.unit_id)
    if any(k in act.values and act.values[k] != unit.state.get(k) for k in PRINTED):
        return (
            _refused_now(
                "A counter's printed values are set in set-up, before play begins (11.1).",
                "the players set up their units before play; a counter's printed values do not change",
                cite("11.1 Set up Sequence"),
            ),
        )
    return ()


def move_refused(snapshot: Snapshot, unit: UnitState, to: str) -> tuple[Refusal, ...]:
    """A move at most the counter's movement allowance in hexes from where its move began this phase (the
    movement erratum), never into a hex another counter holds (19.1, 20.2: one unit per hex)."""
    one = VimyRidge().context(None, snapshot.variants).value("stacking") == "one"
    held = next(
        (
            u
            for u in counters(snapshot)
            if u.id != unit.id
            and u.state.get("hex") == to
            and not u.state.get("eliminated")
            and (one or u.side != unit.side)
        ),
        None,
    )
    if held is not None:
        return (
            _refused_now(
                f"One unit per hex: {held.name} holds hex {to} (19.1, 20.2).",
                "one unit per hex (19.1, 20.2; the stacking erratum)",
                VimyRidge().context(None, snapshot.variants).citation("stacking"),
            ),
        )
    if not hexmap.bounded(snapshot):
        return ()
    source = VimyRidge().context(None, snapshot.variants).citation("movement")
    allowance = int(unit.state.get("movement_allowance") or 0)
    if allowance <= 0:
        return (
            _refused_now(
                "Enter the counter's printed movement allowance in set-up to move it (standard rules).",
                "a move is bounded by the counter's printed movement allowance",
                source,
            ),
        )
    origin = hexmap.began(snapshot, unit)
    if not origin:  # off the map: it comes back only as a replacement (replacement_refused), never free
        return (_back_only_as_replacement(),)
    far = hexmap.apart(snapshot, origin, to)
    if far > allowance:
        return (
            _refused_now(
                f"Hex {to} is {far} hexes from hex {origin}: its movement allowance is {allowance} (standard rules).",
                "a move is at most the counter's movement allowance in hexes (the movement erratum)",
                source,
            ),
        )
    return ()


def _back_only_as_replacement() -> Refusal:
    return _refused_now(
        "An eliminated or off-map counter returns only as a replacement, at night (11.3, 11.6, 13.1).",
        "eliminated units return as replacements in the movement phase of a night game turn",
        SRC_REPLACE,
    )


def edit_refused(snapshot: Snapshot, act: EditUnit) -> tuple[Refusal, ...]:
    """What the rules of play forbid of a counter's edit: an elimination but by a combat's result; an
    eliminated counter placed but as a replacement; a move at night (13.1) but a replacement entering; a
    replacement by day, beyond two a side a night, or rebuilding a counter that moved that night (11.3, 11.6)."""
    unit = snapshot.unit(act.unit_id)
    values = act.values
    gone = bool(unit.state.get("eliminated"))
    if values.get("eliminated") is True and not gone and choice_of(snapshot, unit, values) != "eliminated":
        return (
            _refused_now(
                "A counter is eliminated only by a combat result or the referee's override (standard rules).",
                "a unit is eliminated by a combat's or a bombardment's result, never by its owner's choice",
                SRC_RESULTS,
            ),
        )
    if gone and values.get("hex") and values.get("eliminated") is not False:
        return (_back_only_as_replacement(),)
    is_night, night_source = night(snapshot)
    restored = _steps_restored(snapshot, unit, values)
    if restored and not is_night:
        return (
            _refused_now(
                "Replacements arrive only in night game turns (11.3, 11.6).",
                "During each night game turn (moon symbol) each player receives two replacements (11.3, 11.6)",
                SRC_REPLACE,
            ),
        )
    if restored:
        ledger = this_turn(snapshot, "replacements")
        used = int(ledger.get(unit.side, 0))
        if used + restored > REPLACEMENTS_PER_NIGHT:
            return (
                _refused_now(
                    f"Two replacements a side each night turn, not saved: {used} used (11.3, 11.6).",
                    "Each night turn a player receives two replacements, which may not be accumulated (11.3)",
                    SRC_REPLACE,
                ),
            )
        if unit.state.get("moved_turn") == snapshot.turn and not unit.state.get("eliminated"):
            return (
                _refused_now(
                    "A counter that moved this night turn may not be rebuilt (11.3).",
                    "no unit that moved during that same night game turn may ever be rebuilt as a replacement",
                    SRC_REPLACE,
                ),
            )
    step = step_of(snapshot)
    if refused := result_out_of_phase(snapshot, values):
        return refused
    if step == "combat" and (refused := result_refused(snapshot, unit, choice_of(snapshot, unit, values))):
        return refused
    if step == "combat" and (refused := stayed_refused(snapshot, unit, values)):
        return refused
    if "hex" not in values or values["hex"] == unit.state.get("hex"):
        return ()
    if entering(snapshot, unit, values):
        return replacement_refused(snapshot, unit, str(values["hex"]), is_night)
    if is_night and unit.id in this_turn(snapshot, ENTERED).get("ids", ()) and step == "movement":
        # 11.3's note: "Only replacement units that are entering the map are ever eligible to move during a
        # night game turn": on from the hex it entered, within its allowance.
        return move_refused(snapshot, unit, str(values["hex"]))
    if is_night:
        return (
            _refused_now(
                "No movement at night: only a replacement entering the map moves (13.1, 11.3).",
                "no attack or movement, by either side, may occur during any night turn (13.1)",
                night_source,
            ),
        )
    if step == "combat":
        ctx = VimyRidge().context(None, snapshot.variants)
        if ctx.value("combat-phase-move") == "named" and values.get("applied_result") not in COMBAT_RESULTS:
            return (
                _refused_now(
                    "Name the result this move applies: retreated or advanced (standard rules).",
                    "in the combat phase a counter moves only as a combat result says",
                    ctx.citation("combat-phase-move"),
                ),
            )
        return combat_move_refused(snapshot, unit, str(values["hex"]), choice_of(snapshot, unit, values))
    if snapshot.turn == 1 and unit.side == ALLIED and step == "movement":
        return (
            _refused_now(
                "Zero Hour: the game begins with the Allied combat phase; no Allied move on turn 1 (15.2).",
                "The game begins with the Allied combat phase of the 9 April (Morning) game turn (15.2)",
                cite("15.2 Zero Hour"),
            ),
        )
    if unit.side != snapshot.side_to_move or step != "movement":
        name = SIDE_NAME.get(snapshot.side_to_move, snapshot.side_to_move)  # said to the referee too
        return (
            _refused_now(
                f"Each player moves his counters in his movement phase; now the {name} player's (15.0)."
                if unit.side != snapshot.side_to_move
                else "Counters move in their side's movement phase (15.0).",
                "each player moves his units in his own movement phase (15.0, Fire & Movement standard rules)",
                SRC_TURN,
            ),
        )
    return move_refused(snapshot, unit, str(values["hex"]))


ENTERED = "entered"  # the board key: the replacements that entered the map this night turn (11.3's note)


def entering(snapshot: Snapshot, unit: UnitState, values: Mapping[str, Any]) -> bool:
    """A replacement entering the map: back from elimination in this edit, or off the map (its hex empty)."""
    return (bool(unit.state.get("eliminated")) and values.get("eliminated") is False) or (
        not unit.state.get("eliminated") and not unit.state.get("hex") and snapshot.turn >= 1
    )


def result_out_of_phase(snapshot: Snapshot, values: Mapping[str, Any]) -> tuple[Refusal, ...]:
    """A combat's result only in the combat phase."""
    if values.get("applied_result") in COMBAT_RESULTS and step_of(snapshot) != "combat":
        return (
            _refused_now(
                "Apply a combat result in the combat phase, after its attack (15.0).",
                "a combat result (retreat, advance, step loss, elimination) follows an attack",
                SRC_RESULTS,
            ),
        )
    return ()


def result_refused(snapshot: Snapshot, unit: UnitState, choice: str) -> tuple[Refusal, ...]:
    """A combat result only on a counter of an attack rolled this phase, only as its result reads, once."""
    if choice not in COMBAT_RESULTS or choice in combat.results_open(snapshot, unit.id):
        return ()
    given = combat.in_attack(snapshot, unit.id)
    if not given:
        return (
            _refused_now(
                "This counter is in no attack rolled this combat phase: no result applies to it (standard rules).",
                "a combat result falls on the counters of the attack that rolled it",
                SRC_RESULTS,
            ),
        )
    left = combat.results_open(snapshot, unit.id)
    if not left:
        return (
            _refused_now(
                f"Its attack's result {given} is applied to this counter already (standard rules).",
                "each result is applied once to the counters of its attack",
                VimyRidge().context(None, snapshot.variants).citation("crt-codes"),
            ),
        )
    return (
        _refused_now(
            f"Its attack gave {given}: apply {' or '.join(left)} to this counter, not {choice} (standard rules).",
            "a result is applied as the Combat Results Table gave it, to the counters it falls on",
            VimyRidge().context(None, snapshot.variants).citation("crt-codes"),
        ),
    )


def stayed_refused(snapshot: Snapshot, unit: UnitState, values: Mapping[str, Any]) -> tuple[Refusal, ...]:
    """A retreat or an advance that leaves the counter in the hex it stands in (named with its own hex or none,
    or a combat-phase move to its own hex, read as the result it applies): no retreat, under either reading of
    the combat-move erratum, which counts a retreat's hexes (the hostile pass: one logged an act of no change)."""
    here = str(unit.state.get("hex") or "")
    if not here or unit.state.get("eliminated") or str(values.get("hex", here)) != here:
        return ()
    named = values.get("applied_result")
    if named not in ("retreated", "advanced") and not (named is None and set(values) == {"hex"}):
        return ()
    moves = {"retreated": "A retreat", "advanced": "An advance"}.get(str(named), "A retreat or an advance")
    return (
        _refused_now(
            f"{moves} leaves the counter's hex: it stands in hex {here} already (standard rules).",
            "a retreat or an advance moves the counter out of its hex (the combat-move erratum)",
            VimyRidge().context(None, snapshot.variants).citation("combat-move"),
        ),
    )


def combat_move_refused(snapshot: Snapshot, unit: UnitState, to: str, choice: str) -> tuple[Refusal, ...]:
    """A counter moved in the combat phase retreats or advances as its attack's result lets it (the
    combat-move erratum): never onto an occupied hex; by default a retreat one hex away from the enemy counters
    of its attack, an advance only into the hex the defender left."""
    ctx = VimyRidge().context(None, snapshot.variants)
    source = ctx.citation("combat-move")
    if choice not in ("retreated", "advanced"):
        return (
            _refused_now(
                "In the combat phase a counter moves only to retreat or advance (standard rules).",
                "a counter moves in the combat phase only as its attack's result says",
                source,
            ),
        )
    if any(
        u.id != unit.id and u.state.get("hex") == to and not u.state.get("eliminated")
        for u in counters(snapshot)
    ):
        return (
            _refused_now(
                f"Hex {to} is occupied: a retreat or an advance ends in an empty hex (standard rules).",
                "a retreat or an advance never ends in an occupied hex (the combat-move erratum)",
                source,
            ),
        )
    attack = combat.giving(snapshot, unit.id, choice)
    if attack is None or ctx.value("combat-move") != "adjacent":
        return ()
    here = str(unit.state.get("hex") or "")
    if choice == "advanced":
        left = str(attack.get("hex") or "")
        if left and to != left:
            return (
                _refused_now(
                    f"An advance enters only hex {left}, the hex the defender left (standard rules).",
                    "the attackers may advance into the hex the defender vacated",
                    source,
                ),
            )
        return ()
    far = hexmap.apart(snapshot, here, to) if here else 0
    if far != 1:
        return (
            _refused_now(
                f"A retreat is one hex: hex {to} is {far} hexes from hex {here} (standard rules).",
                "a retreat is into a hex next to the counter (the combat-move erratum)",
                source,
            ),
        )
    ids = [attack["defender"]] if unit.id in attack.get("attackers", ()) else attack.get("attackers", ())
    for enemy in (snapshot.by_id[i] for i in ids if i in snapshot.by_id):
        there = str(enemy.state.get("hex") or "")
        standing = there and not enemy.state.get("eliminated")
        if standing and hexmap.apart(snapshot, to, there) <= hexmap.apart(snapshot, here, there):
            return (
                _refused_now(
                    f"A retreat moves away from the attack: hex {to} is no farther from hex {there} "
                    "(standard rules).",
                    "a retreat is away from the enemy counters of its attack (the combat-move erratum)",
                    source,
                ),
            )
    return ()


def replacement_refused(
    snapshot: Snapshot, unit: UnitState, where: str, is_night: bool
) -> tuple[Refusal, ...]:
    """Where and when a replacement enters the map: in a night turn, in its side's movement phase (11.3,
    11.6: "must arrive during the movement phase of that same night game turn"); an Allied one in a trench hex
    (11.3), a German one on an easternmost hex or by a trench hexside, unoccupied (11.6), each checked where
    the club's data names those hexes (which side's trench a hexside is, and the ZOC, are the players' call)."""
    if not is_night:
        return (
            _refused_now(
                "Replacements arrive only in night game turns (11.3, 11.6).",
                "During each night game turn (moon symbol) each player receives two replacements (11.3, 11.6)",
                SRC_REPLACE,
            ),
        )
    if step_of(snapshot) != "movement" or unit.side != snapshot.side_to_move:
        return (
            _refused_now(
                "A replacement arrives in its side's movement phase of the night turn (11.3, 11.6).",
                "A replacement that is brought onto the map must arrive during the movement phase of that same "
                "night game turn",
                SRC_REPLACE,
            ),
        )
    no_mans_land = {
        h for h, kinds in (board_value(snapshot, "hex_terrain") or {}).items() if "no-mans-land" in kinds
    }
    sides = board_value(snapshot, "trench_hexsides") or ()
    ctx = VimyRidge().context(None, snapshot.variants)
    zoc = ctx.value("zoc") == "adjacent" and hexmap.in_enemy_zoc(
        snapshot, where, unit.side, counters(snapshot)
    )
    if any(u.state.get("hex") == where and not u.state.get("eliminated") for u in counters(snapshot)):
        return (
            _refused_now(
                f"A replacement enters an unoccupied hex; hex {where} is held (11.3, 11.6).",
                "entering along any easternmost map edge hex ... or in any unoccupied hex adjacent to a trench "
                "hexside",
                SRC_REPLACE,
            ),
        )
    if unit.side == ALLIED:
        trench = {str(h) for pair in sides for h in pair} - no_mans_land
        if sides and where not in trench:
            return (
                _refused_now(
                    f"A replacement arrives in an Allied trench hex, not hex {where} (11.3).",
                    "arriving in any Allied trench hex (not within any enemy ZOC) of the Allied player's choice",
                    f"{SRC_REPLACE}; {CLUB}",
                ),
            )
        if zoc:
            return (
                _refused_now(
                    f"Hex {where} is within an enemy zone of control: a replacement arrives outside one (11.3).",
                    "arriving in any Allied trench hex (not within any enemy ZOC)",
                    f"{SRC_REPLACE}; {ctx.citation('zoc')}",
                ),
            )
        return ()
    # 11.6: "adjacent to a trench hexside that is not adjacent to 'No Man's Land'": neither of its hexes one.
    trench = {str(h) for pair in sides if not set(pair) & no_mans_land for h in pair}
    if zoc and not ctx.value("german-replacement-zoc"):
        return (
            _refused_now(
                f"Hex {where} is within an enemy zone of control: a German replacement enters outside one (11.6).",
                "entering ... in any unoccupied hex that is adjacent to a trench hexside ..., or within any enemy "
                "unit's ZOC (read as 'nor within')",
                f"{SRC_REPLACE}; {ctx.citation('german-replacement-zoc')}",
            ),
        )
    east = set(board_value(snapshot, "easternmost") or ())
    if zoc and ctx.value("german-replacement-zoc") and where not in east:
        return ()  # read literally: any hex within an enemy unit's ZOC is a place of entry too
    if east and sides and where not in east | trench:
        return (
            _refused_now(
                f"A German replacement enters on an easternmost hex or by a trench hexside, not {where} (11.6).",
                "entering along any easternmost map edge hex of the German player's choice, or in any unoccupied "
                "hex that is adjacent to a trench hexside that is not adjacent to No Man's Land",
                f"{SRC_REPLACE}; {CLUB}",
            ),
        )
    return ()


def _steps_restored(snapshot: Snapshot, unit: UnitState, values: Mapping[str, Any]) -> int:
    """How many replacements an edit spends (the replacement-steps erratum): by default each step a counter
    gets back (eliminated to depleted, depleted to full) is one; read otherwise, an eliminated unit brought
    back is one whatever its strength. A counter off the map but not eliminated (set up off it) comes on as a
    replacement too: one, unless it came back this night already (its return made in two edits)."""
    by_unit = VimyRidge().context(None, snapshot.variants).value("replacement-steps") == "unit"
    off_map = not unit.state.get("eliminated") and not unit.state.get("hex") and snapshot.turn >= 1
    if off_map and values.get("hex") and unit.id not in this_turn(snapshot, ENTERED).get("ids", ()):
        return 1
    before = 2 if unit.state.get("eliminated") else 1 if unit.state.get("depleted") else 0
    eliminated = values.get("eliminated", unit.state.get("eliminated"))
    depleted = values.get("depleted", unit.state.get("depleted"))
    if before == 2 and eliminated is False and "depleted" not in values and not by_unit:
        depleted = True  # back one step (edited() writes it)
    after = 2 if eliminated else 1 if depleted else 0
    if after >= before:
        return 0
    return 1 if by_unit and before == 2 else before - after


def roll_refused(snapshot: Snapshot, act: Roll) -> tuple[Refusal, ...]:
    step = STEPS[snapshot.step].id if snapshot.step < len(STEPS) else ""
    is_night, night_source = night(snapshot)
    if act.resolver == "attack":
        if is_night:
            return (
                _refused_now(
                    "No attack at night: night turns are for replacements and bombardment (13.1).",
                    "no attack or movement, by either side, may occur during any night turn (13.1)",
                    night_source,
                ),
            )
        if step != "combat":
            return (
                _refused_now(
                    "Attacks are made in the combat phase (15.0).",
                    "the combat phase follows the movement phase",
                    SRC_TURN,
                ),
            )
        return attack_refused(snapshot, act)
    if act.resolver == "bombardment":
        if step != "bombardment":
            return (
                _refused_now(
                    "Bombard at the end of a player's movement phase, before his combat phase (17.2).",
                    "Bombardment can only ever occur at the end of a player's movement phase, before his combat phase",
                    SRC_BOMBARD,
                ),
            )
        return bombard_refused(snapshot, act)
    return ()


def _enemy_target(snapshot: Snapshot, act: Roll, doing: str) -> tuple[Refusal, ...]:
    """An attack or a bombardment takes an enemy counter on the map as its target (one not yet tapped is
    judged when it is: the counter's card offers the act before its target is picked)."""
    if act.target_id is None:
        return ()
    target = snapshot.by_id.get(act.target_id)
    if (
        target is None
        or target.level != COUNTER
        or target.side == snapshot.side_to_move
        or target.state.get("eliminated")
        or not target.state.get("hex")
    ):
        rule = "17.2" if doing == "Bombard" else "18.3"
        why = "markers on any enemy units (17.2); an attack upon the same enemy unit (18.3)"
        source = SRC_BOMBARD if doing == "Bombard" else SRC_INTEGRITY
        return (
            _refused_now(f"{doing} an enemy counter on the map: tap it as the target ({rule}).", why, source),
        )
    return ()


def attack_refused(snapshot: Snapshot, act: Roll) -> tuple[Refusal, ...]:
    attackers = _attackers(snapshot, act)
    if any(u.side != snapshot.side_to_move for u in attackers):  # said to whoever reads it: the referee too
        name = SIDE_NAME.get(snapshot.side_to_move, snapshot.side_to_move)
        return (
            _refused_now(
                f"It is the {name} player's combat phase: only {name} counters attack (15.0).",
                "each player attacks with his units in his own combat phase (15.0, Fire & Movement standard rules)",
                SRC_TURN,
            ),
        )
    if refused := _enemy_target(snapshot, act, "Attack"):
        return refused
    if not attackers or any(
        u.level != COUNTER or u.state.get("eliminated") or not u.state.get("hex") for u in attackers
    ):
        why = (
            "Only units of the same division may ever participate in the same attack upon the same enemy unit"
        )
        return (
            _refused_now("Attack with counters on the map, not eliminated ones (18.3).", why, SRC_INTEGRITY),
        )
    divisions = {str(u.state.get("division", "")) for u in attackers}
    if len(divisions) > 1:
        return (
            _refused_now(
                "Attack with one division's units: the others make a separate attack (18.3).",
                "Only units of the same division may ever participate in the same attack upon the same enemy unit",
                SRC_INTEGRITY,
            ),
        )
    target = snapshot.unit(act.target_id, "target_id") if act.target_id is not None else None
    if refused := not_adjacent(snapshot, attackers, target):
        return refused
    # 14.1: a unit attacked in No Man's Land "is never advantaged by a trench line": no trench line forced.
    ctx = VimyRidge().context(None, snapshot.variants)
    # 18.3: another division's separate attack upon the same enemy unit is allowed (the attack-once erratum).
    division = str(attackers[0].state.get("division") or "") if ctx.value("attack-once") == "division" else ""
    again = combat.attacked_already(snapshot, [u.id for u in attackers], act.target_id, division)
    if again:
        return (
            _refused_now(
                "Each counter attacks once a combat phase: one of these has attacked already (standard rules)."
                if again == "attacker"
                else "This counter was attacked by that division: another division's units attack it (18.3)."
                if division
                else "An enemy counter is attacked once a combat phase: this one has been (standard rules).",
                "one attack by each unit a phase; another division's separate attack upon the same enemy unit "
                "(18.3; the attack-once erratum)",
                ctx.citation("attack-once"),
            ),
        )
    crossing = (
        target is not None
        and _crosses_trench(snapshot, attackers, target)
        and not in_no_mans_land(snapshot, target)
    )
    if crossing and act.fields.get("terrain") not in (None, "trench"):
        return (
            _refused_now(
                "The attack crosses a trench hexside: resolve it on the trench line (14.2).",
                "When any attack is directed across an enemy trench hexside, the attack must be resolved via the "
                "trench terrain line",
                f"{SRC_TRENCH}; {CLUB}",
            ),
        )
    return ()


def not_adjacent(
    snapshot: Snapshot, attackers: Sequence[UnitState], target: UnitState | None
) -> tuple[Refusal, ...]:
    """An attack only on an enemy counter next to each attacker (the standard rules' ground attack, the hex-grid
    erratum's map); before its target is tapped, only from a counter with an enemy counter next to it."""
    lower = hexmap.lower(snapshot)
    source = VimyRidge().context(None, snapshot.variants).citation("hex-grid")
    for u in attackers:
        here = str(u.state["hex"])
        if target is None:
            near = neighbours(here, lower)
            if not any(
                e.side != u.side and not e.state.get("eliminated") and e.state.get("hex") in near
                for e in counters(snapshot)
            ):
                return (
                    _refused_now(
                        f"No enemy counter is next to hex {here}: attack from a hex next to one (standard rules).",
                        "a ground attack is made on an adjacent enemy unit",
                        source,
                    ),
                )
            continue
        there = str(target.state.get("hex") or "")
        far = hexmap.apart(snapshot, here, there)
        if far != 1:
            return (
                _refused_now(
                    f"Attack an adjacent enemy counter: hex {here} is {far} hexes from hex {there} (standard rules).",
                    "a ground attack is made on an adjacent enemy unit",
                    source,
                ),
            )
    return ()


def bombard_refused(snapshot: Snapshot, act: Roll) -> tuple[Refusal, ...]:
    side = snapshot.side_to_move
    if refused := _enemy_target(snapshot, act, "Bombard"):
        return refused
    markers = int(act.fields.get("markers", 1)) if isinstance(act.fields.get("markers", 1), int) else 1
    if act.target_id is not None:
        # 17.2's limit first: a third marker is refused with its own sentence, observed or not.
        on = int(this_turn(snapshot, "bombarded").get(str(act.target_id), 0))
        if on + max(markers, 1) > MAX_MARKERS_PER_UNIT:
            return (
                _refused_now(
                    f"No more than two bombardment markers per enemy unit: {on} on it this turn (17.2).",
                    "no more than two bombardment markers per enemy unit",
                    SRC_BOMBARD,
                ),
            )
    # 17.1's allotment before 17.3's observation: with no marker left, no target observed lifts it.
    have, source = allotted(snapshot, side)
    spent = int(this_turn(snapshot, "markers_spent").get(side, 0))
    if spent + max(markers, 1) > have:
        return (
            _refused_now(
                f"Only {max(have - spent, 0)} of {have} bombardment markers left this turn (17.1).",
                "Each side receives the bombardment markers printed for the turn on the Artillery Track",
                source,
            ),
        )
    if act.fields.get("observed") != "observed":
        # 17.3: observation is the players' call, made from their own map; the game records it as theirs.
        return (
            _refused_now(
                "Say the target is observed: only observed enemy units can be bombarded (17.3).",
                "An enemy unit is observed only if adjacent to a friendly unit or in its LOS; at night only if adjacent",
                cite("17.3 Observation"),
            ),
        )
    if act.fields.get("aircraft") and int(board_value(snapshot, "aircraft") or 0) <= 0:
        return (
            _refused_now(
                "No Allied aircraft marker is left (18.1).",
                "the Allied player must eliminate one of his aircraft markers each night",
                SRC_RED_BARON,
            ),
        )
    return ()


def attacker_ids(given: Any, unit_id: int | None) -> list[int]:
    """The attacking counters' ids as sent (`fields.attackers`; none: the card's own counter): a list of
    distinct ids naming the card's counter (a RulesError naming the field)."""
    if given is None or given == []:
        return [unit_id] if unit_id is not None else []
    if not isinstance(given, list | tuple) or any(
        not isinstance(i, int) or isinstance(i, bool) for i in given
    ):
        raise RulesError("fields.attackers", "List the attacking counters' ids (18.3).", source=SRC_INTEGRITY)
    if len(set(given)) != len(given):
        raise RulesError("fields.attackers", "Name each attacking counter once (18.3).", source=SRC_INTEGRITY)
    if unit_id is not None and unit_id not in given:
        raise RulesError(
            "fields.attackers", "The counter attacking is one of the attackers (18.3).", source=SRC_INTEGRITY
        )
    return list(given)


def _attackers(snapshot: Snapshot, act: Roll) -> list[UnitState]:
    return [
        snapshot.unit(i, "fields.attackers") for i in attacker_ids(act.fields.get("attackers"), act.unit_id)
    ]


def _crosses_trench(snapshot: Snapshot, attackers: Sequence[UnitState], target: UnitState) -> bool:
    sides = {frozenset(p) for p in board_value(snapshot, "trench_hexsides") or ()}
    there = str(target.state.get("hex", ""))
    across = [frozenset((str(u.state.get("hex", "")), there)) in sides for u in attackers]
    every = VimyRidge().context(None, snapshot.variants).value("trench-crossing") == "all"
    return bool(across) and (all(across) if every else any(across))


def in_no_mans_land(snapshot: Snapshot, u: UnitState) -> bool:
    """Whether the club's data names the counter's hex a No Man's Land hex (14.1)."""
    kinds = (board_value(snapshot, "hex_terrain") or {}).get(str(u.state.get("hex", ""))) or ()
    return "no-mans-land" in kinds


def hex_line(snapshot: Snapshot, where: str) -> tuple[Terrain, str] | None:
    """The terrain line of a hex where the club's data names exactly one (a peak, a town, a woods hex), with
    why; None where it names none or several (the players pick it on the card)."""
    kinds = set((board_value(snapshot, "hex_terrain") or {}).get(where) or ())
    named: dict[Terrain, str] = {}
    if where in (board_value(snapshot, "peaks") or ()):
        named["peak"] = f"hex {where} is a peak on the club's map"
    town = {*(board_value(snapshot, "vimy_town") or ()), *(board_value(snapshot, "petit_vimy_town") or ())}
    if where in town or "town" in kinds:
        named["town"] = f"hex {where} is a town hex on the club's map"
    if where in (board_value(snapshot, "la_folie_woods") or ()) or "woods" in kinds:
        named["woods"] = f"hex {where} is a woods hex on the club's map"
    return next(iter(named.items())) if len(named) == 1 else None


# -- the attack: the CRT with the game's counters ----------------------------------------------------------------
# The CRT's five lines as the card offers them, a terrain of each (the "Trench hexside, Woods" line by its
# woods: a trench hexside crossed is the club's data's, or the players' pick of the same line).
LINE_CHOICES: dict[str, str] = {
    next(t for t in members if t != "trench"): line for line, members in CRT_LINES.items()
}


class AttackRequest(CombatRequest):
    terrain: Terrain = Field(
        default="clear",
        description="Terrain line of the defender's hex: filled from the club's data where it names it (a "
        "trench hexside crossed, a peak, a town, a woods hex), else the players' pick (the attack-line "
        "erratum: Clear until they pick another).",
        json_schema_extra={"x-choices": [[value, line] for value, line in LINE_CHOICES.items()]},
    )
    attackers: list[int] = Field(
        default_factory=list, max_length=12, description="The attacking counters' ids (one division's, 18.3)."
    )


@VimyRidge.resolver
class Attack(Resolver[AttackRequest]):
    id = "attack"
    summary = "A ground attack by counters in a game: the integrated CRT with their strengths"
    Request = AttackRequest
    examples = ({"terrain": "clear", "attack_strength": 9, "defense_strength": 4, "attackers": [1]},)

    def check(self, req: AttackRequest, ctx: Context) -> None:
        if ctx.value("attack-line") == "pick" and "terrain" not in req.model_fields_set:
            raise RulesError(
                "terrain",
                "pick the terrain line of the defender's hex (14.2, the Combat Results Table)",
                list(LINE_CHOICES),
            )
        Combat().check(req, ctx)

    def evaluate(self, req: AttackRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        return Combat().evaluate(req, ctx, dice)


# -- the rolls -------------------------------------------------------------------------------------------------
ROLL_TERMS = RollTerms(
    claims=Claims(
        kept=frozenset(
            {"attack_strength", "defense_strength", "bombarding_side", "turn", "night", "la_folie_woods"}
        ),
        seen=frozenset({"terrain", "no_mans_land"}),
    ),
)


def card_acts(snapshot: Snapshot, unit_id: int) -> tuple[StandAct, ...]:
    u = snapshot.unit(unit_id)
    if u.level != COUNTER or u.state.get("eliminated"):
        return ()
    return (
        StandAct(
            "Attack",
            "attack",
            u.id,
            f"{u.name} attacks an adjacent enemy counter",
            target=True,
            joined="attackers",
            options=("terrain", "no_mans_land"),
        ),
        StandAct(
            "Bombard",
            "bombardment",
            u.id,
            "bombard this counter if observed (17.2, 17.3)",
            on_enemy=True,
            options=("observed", "markers", "gas", "aircraft"),
        ),
    )


class VimyRolls(GameRules):
    """What the table fills in a bombardment's and an attack's request, and what a roll does."""

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        target = snapshot.by_id.get(request.target_id) if request.target_id is not None else None
        out: list[Filled] = []
        if resolver_id == "attack":
            ids = attacker_ids(request.given.get("attackers"), request.unit_id)
            attackers = [snapshot.by_id[i] for i in ids if i in snapshot.by_id]
            if attackers:
                total = sum(strength(u, "attack") for u in attackers)
                out.append(Filled("attack_strength", total, "the attacking counters' attack strengths", CLUB))
            if target is not None:
                out.append(
                    Filled(
                        "defense_strength",
                        strength(target, "defence"),
                        f"{target.name}'s defence strength",
                        CLUB,
                    )
                )
                where = str(target.state.get("hex", ""))
                if in_no_mans_land(snapshot, target):
                    # 14.1: its defence halved, never advantaged by a trench line (the hex's line stands).
                    why = f"hex {where} is in No Man's Land on the club's map"
                    out.append(Filled("no_mans_land", True, why, f"{SRC_NML}; {CLUB}"))
                elif attackers and _crosses_trench(snapshot, attackers, target):
                    out.append(
                        Filled(
                            "terrain",
                            "trench",
                            "the attack crosses a trench hexside",
                            f"{SRC_TRENCH}; {CLUB}",
                        )
                    )
                if all(f.field != "terrain" for f in out) and (line := hex_line(snapshot, where)):
                    out.append(Filled("terrain", line[0], line[1], f"{CRT_SOURCE}; {CLUB}"))
        if resolver_id == "bombardment":
            side = snapshot.side_to_move
            is_night, source = night(snapshot)
            out.append(
                Filled(
                    "bombarding_side", SIDE_WORD[side], f"the {SIDE_WORD[side]} player's turn", SRC_BOMBARD
                )
            )
            out.append(Filled("turn", min(max(snapshot.turn, 1), LAST_TURN), "the game turn", SRC_TURN))
            out.append(
                Filled(
                    "night", "night" if is_night else "day", "night turn" if is_night else "day turn", source
                )
            )
            if target is not None:
                where = str(target.state.get("hex", ""))
                woods = board_value(snapshot, "la_folie_woods")
                if woods is not None:
                    out.append(
                        Filled(
                            "la_folie_woods",
                            where in woods,
                            f"hex {where} on the club's La Folie Woods list",
                            CLUB,
                        )
                    )
                terrain = (board_value(snapshot, "hex_terrain") or {}).get(where)
                if terrain:
                    out.append(
                        Filled("terrain", list(terrain), f"hex {where}'s terrain on the club's map", CLUB)
                    )
        return tuple(f for f in out if f.field not in request.given and f.field in request.fields)

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        if resolver_id == "bombardment":
            return bombarded(snapshot, outcome)
        if resolver_id == "attack" and outcome.target_id is not None:
            # The attack's counters and result kept for this phase: the results applied only to them.
            ids = outcome.request.model_dump().get("attackers") or [outcome.unit_id]
            return (
                combat.recorded(
                    snapshot, [int(i) for i in ids], outcome.target_id, outcome.resolution["outcome_key"]
                ),
            )
        if resolver_id == "club-data":
            club = ClubData.model_validate(outcome.request.model_dump()["club"])
            return tuple(
                SetBoard(f"the club's {k.replace('_', ' ')} entered", CLUB, k, v)
                for k, v in club.model_dump(exclude_none=True).items()
            )
        return ()


def bombarded(snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
    """A bombardment's markers spent and the target marked; a hit depletes it, or eliminates it if already
    depleted (17.5: "immediately depleted (or eliminated if it was already depleted)"), never retreats."""
    side = snapshot.side_to_move
    markers = int(outcome.request.model_dump().get("markers", 1))
    spent = this_turn(snapshot, "markers_spent")
    spent[side] = int(spent.get(side, 0)) + markers
    out: list[Change] = [
        SetBoard(f"{markers} bombardment marker(s) placed", SRC_BOMBARD, "markers_spent", spent)
    ]
    if outcome.target_id is None:
        return tuple(out)
    target = snapshot.unit(outcome.target_id, "target_id")
    on = this_turn(snapshot, "bombarded")
    on[str(target.id)] = int(on.get(str(target.id), 0)) + markers
    out.append(SetBoard(f"{markers} marker(s) on {target.name}", SRC_BOMBARD, "bombarded", on))
    if outcome.resolution["outcome_key"] != "hit":
        return tuple(out)
    hit = cite("17.5 Bombardment Resolution")
    if target.state.get("depleted"):
        out += eliminated(target, f"{target.name} is hit and, already depleted, eliminated", hit)
    else:
        out.append(SetState(f"{target.name} is hit and depleted", hit, target.id, "depleted", True))
    return tuple(out)


def eliminated(u: UnitState, why: str, source: str) -> list[Change]:
    return [
        SetState(why, source, u.id, "eliminated", True),
        SetState(why, source, u.id, "killed", True),
        SetState(f"{u.name} leaves the map", source, u.id, "hex", ""),
    ]


# What a night turn (its box drawn dark) brings: the track's key and each night box's note.
NIGHT_MEANS = "no attack or movement by either side (13.1); two replacements a side (11.3, 11.6)"


def vimy_track(snapshot: Snapshot) -> tuple[TrackTurn, ...]:
    """The turn track as the club entered it (the labels its boxes print), each turn's night and allotment;
    before it is entered, the turn-track erratum's reading."""
    entered = board_value(snapshot, "turn_track")
    out = []
    for t in TURNS:
        dark, _source = night(snapshot, t.number)
        # 11.1 "the April 9 (Morning) box of the Turn Track"; each turn's date and part by the turn-track
        # erratum's reading (three a day, 10.3), its part as the club's copy prints it where entered.
        part = "Morning" if t.number == 1 else str(entered[t.number - 1]) if entered else t.part
        label = f"{t.date} ({part})"
        # Each side's bombardment markers (17.1): the club's Artillery Track, else the erratum's reading.
        (allied, _), (german, _) = allotted(snapshot, ALLIED, t.number), allotted(snapshot, GERMAN, t.number)
        markers = f"bombardment markers {allied}/{german} (Allied/German, 17.1)"
        if t.number == snapshot.turn:  # the turn played: the markers each side has left of its allotment
            spent = this_turn(snapshot, "markers_spent")
            left = {s: n - int(spent.get(s, 0)) for s, n in ((ALLIED, allied), (GERMAN, german))}
            markers += f"; left this turn: Allied {max(left[ALLIED], 0)} of {allied}, German {max(left[GERMAN], 0)} of {german}"
        note = f"Night: {NIGHT_MEANS}; {markers}" if dark else markers[0].upper() + markers[1:]
        out.append(TrackTurn(t.number, label, note, dark))
    return tuple(out)


# -- the report: the game in the rules' words ---------------------------------------------------------------------
class VimyReport(GameRules):
    """The referee board, the record and the story in Vimy's words: counters, no morale tests, what a
    bombardment and an attack did."""

    def roll_words(
        self, resolver: str, resolution: Mapping[str, Any], target: str, decisive: bool = False
    ) -> str:
        at = f" {target}" if target else ""
        key = str(resolution.get("outcome_key", ""))
        if resolver == "bombardment":
            return f"bombarded{at}: {'a hit' if key == 'hit' else 'no effect'}"
        if resolver == "attack":
            column = resolution.get("column") or ""
            return f"attacked{at} on the {resolution.get('line', '')} line, column {column}: {key}"
        return ""

    def board_notes(
        self, unit: Held, parent: Held | None, children: Sequence[Held], variants: Mapping[str, str]
    ) -> tuple[tuple[str, str], ...]:
        state = unit.state
        if unit.level != COUNTER:
            return ()
        where = str(state.get("hex") or "off the map")
        full = f"{state.get('attack', 0)}-{state.get('defence', 0)}"
        depleted = f"{state.get('attack_depleted', 0)}-{state.get('defence_depleted', 0)}"
        return (
            ("Hex", where),
            ("Division", str(state.get("division") or "")),
            ("Strength", f"{depleted} (depleted; full {full})" if state.get("depleted") else full),
        )


# -- set-up ------------------------------------------------------------------------------------------------------
class VimySetup(GameRules):
    """A Vimy game's counters, and the club's values a scenario file brings on its `board` (club.ClubData),
    checked as the club-data roll checks them."""

    def forces_setup(self, entries: Sequence[Mapping[str, Any]]) -> tuple[str | None, dict[str, str]]:
        # 15.1 "The Allied player is the first player": the attacker (moving first) is Allied, the defender German.
        return None, {ALLIED: "allied", GERMAN: "german"}

    def new_forces(self, ctx: Context, document: Mapping[str, Any]) -> NewForces:
        """The scenario's counters as written, once its `board` (the club's values) is checked, and each
        counter as its set-up places it (19.0, 20.0: its hex and values, one unit per hex, the side's set-up
        hexes, the divisions the book names), a RulesError naming the first counter refused."""
        board = document.get("board") or {}
        board_checked(board, "board")
        # Read once, each counter judged against them in turn: a scenario holds up to 2000 counters (<= 1 s).
        table = Snapshot(VimyRidge.id, None, (), 1, 1, board=board)
        hexes, held, german = SetUpHexes.of(board), dict[str, str](), GermanOrder.of(table)
        for side in (GERMAN, ALLIED):  # 11.1: the German player sets up first
            for i, unit in enumerate(((document.get("sides") or {}).get(side) or {}).get("forces") or ()):
                at, state = f"sides.{side}.forces.{i}", dict(unit.get("state") or {})
                try:
                    hex_checked(state)
                    strengths_checked(state, {})
                except RulesError as e:
                    raise RulesError(f"{at}.state.{e.field}", e.reason, e.allowed, e.source) from None
                if refused := placed_refused(table, side, None, state, True, (hexes, held), german):
                    raise RulesError(f"{at}.state.hex", str(refused[0]), source=refused[0].source)
                if state.get("hex") and not state.get("eliminated"):
                    held[str(state["hex"])] = str(unit.get("name") or "")
                    if side == GERMAN:
                        german.add(str(state["hex"]), str(state.get("division") or ""))
        return super().new_forces(ctx, document)


def board_checked(board: Mapping[str, Any], where: str) -> None:
    """The club's values a scenario file brings, checked as the club-data roll checks them (a RulesError
    naming the field)."""
    try:
        entered = ClubData.model_validate(board)
    except ValidationError as e:
        first = e.errors()[0]
        at = ".".join(str(p) for p in (where, *first["loc"]))
        raise RulesError(at, club_words(first), source=CLUB) from None
    checked(entered, where)


def club_words(error: ErrorDetails) -> str:
    """A club entry refused by its model, in the book's words: what the field is (its description, with its
    rule) and what is wrong, never the model's own terms (a pattern, a type), in one short sentence."""
    loc = [p for p in error.get("loc", ()) if isinstance(p, str)]
    field = ClubData.model_fields.get(loc[0]) if loc else None
    described = (field.description or "") if field is not None else ""
    rule = re.search(r"\(([0-9.,; ]+)\)", described)
    what = re.split(r" \(|;", described)[0].rstrip(".") or "The club's entry"
    kind, ctx = str(error.get("type", "")), error.get("ctx") or {}
    if kind == "string_pattern_mismatch":
        wrong = "enter each hex as four digits, such as 1534"
    elif kind == "too_long":
        wrong = f"enter at most {ctx.get('max_length')}"
    elif kind == "too_short":
        wrong = f"enter {ctx.get('min_length')}"
    elif kind == "extra_forbidden":
        return "The club's copy gives no such entry: leave it out."
    elif kind == "literal_error":
        wrong = f"enter {str(ctx.get('expected', '')).replace(chr(39), '')}"
    elif kind in ("less_than_equal", "greater_than_equal"):
        wrong = (
            f"enter {'at most' if kind == 'less_than_equal' else 'at least'} {ctx.get('le', ctx.get('ge'))}"
        )
    else:
        wrong = "enter it as the club's copy prints it"
    return f"{what}: {wrong}{f' ({rule.group(1)})' if rule else ''}."


KIT = TableKit(
    counters=CounterBoard(
        "hex",
        "hex",
        "",
        ("attack", "defence"),
        group_field="division",
        group_words={GERMAN: GERMAN_DIVISIONS},  # 19.1 names the German divisions; the Allied are the club's
        club=ClubData,
        club_check=board_checked,
        # The club's map and tracks are set before play (11.1's set-up sequence): a seat that could rewrite the
        # key hexes mid-game could list its own counter's hex as a Vimy town hex and win at once.
        club_source=f"{cite('11.1 Set up Sequence')}; {CLUB}",
        club_roll=ClubDataEntry.id,
        # The standard rules' retreat and advance after a combat, applied by the counter's owner.
        place_results=(("applied_result", "retreated", "Retreat"), ("applied_result", "advanced", "Advance")),
        # An eliminated counter back as a replacement, in the hex typed with it (11.3, 11.6: where it arrives).
        returned=("eliminated", False, "Enter as a replacement"),
        # A move judged on the card a hex at a time: Zero Hour's, the night's and the turn's refusals are the move's.
        near=lambda snapshot, where: neighbours(where, hexmap.lower(snapshot)),
        # A step lost: the counter is flipped to its depleted values (11.3 "depleted ... units").
        flipped=("depleted", ("attack_depleted", "defence_depleted")),
    )
)


# -- the game ----------------------------------------------------------------------------------------------------
BOOK = Book(
    ruleset_id=VimyRidge.id,
    turn_word="game turn",
    turn_source=SRC_TURN,
    end_source=SRC_TURN,
    state_fields=STATE_FIELDS,
    unit_state=VimyRidgeUnitState,
    edit_acts=EDIT_ACTS,
    # No shared edits: each player applies a result to his own counters (COMBAT_RESULTS' comment).
    roll_terms=ROLL_TERMS,
    kit=KIT,
    tests_losses=False,
    losses_counted="counters",
    stand_word="counter",
    told_fields=("depleted", "eliminated"),
    nations=("allied", "german"),  # 11.1 "The German player ... the Allied player"
    side_nations=SIDE_WORD,  # 15.1 "The Allied player is the first player": Allied attacker, German defender
    side_names=SIDE_NAME,
    unit_levels=(COUNTER,),
    victory_source=cite("12.1 Victory Points; 12.2 German Victory"),
    score_kept=TALLY,
)


class VimyGame(VimyTurn, VimyRolls, VimyReport, VimySetup, VimySheet):
    """Vimy Ridge's game: its turn, its rolls, its report and its new games, with a counter's edit worked out
    (a hex checked and the hex ledger kept, eliminated counters off the map, replacements counted) and the
    victory tally rewritten after every act."""

    book = BOOK

    def counter_notes(self, snapshot: Snapshot) -> CounterNotes:
        """The turn track as the club entered it (the labels its boxes print), each turn's night and allotment,
        before it is entered the turn-track erratum's reading; the key hexes the club entered, each with what it
        is and its rule (victory.place_notes); the bombardment markers placed on each counter this turn (17.2:
        at most two on one enemy unit)."""
        notes = place_notes(snapshot)
        on = this_turn(snapshot, "bombarded")
        return CounterNotes(
            track=vimy_track(snapshot),
            dark_means=f"a night turn, {NIGHT_MEANS}",
            places={h: notes[h] for h in sorted(notes)},
            marks={
                int(k): f"{n} bombardment marker{'s' if n != 1 else ''}"
                for k, n in on.items()
                if k != "turn" and isinstance(n, int) and n > 0
            },
        )

    def needs(self, snapshot: Snapshot, step_id: str) -> list[str]:
        """In the combat phase, each counter whose attack's result is still to apply, from its own card."""
        return list(combat.waiting(snapshot)) if step_id == "combat" else []

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        return (*card_acts(snapshot, unit_id), *card_edits(snapshot, unit_id))

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        if isinstance(act, Roll) and act.resolver == "attack" and act.target_id is None:
            raise RulesError("target_id", "Tap the enemy counter attacked (18.3).", source=SRC_INTEGRITY)
        answer = Answer(edited(snapshot, act)) if isinstance(act, EditUnit) else super().play(snapshot, act)
        return replace(answer, changes=(*answer.changes, *tallied(snapshot, answer.changes)))


def edited(snapshot: Snapshot, act: EditUnit) -> tuple[Change, ...]:
    unit = snapshot.unit(act.unit_id)
    values = dict(act.values)
    hex_checked(values)
    if "applied_result" in values and values["applied_result"] not in CHOICES:
        raise RulesError(
            "applied_result",
            "name the choice made: retreated, advanced, depleted, eliminated ...",
            list(CHOICES),
        )
    step = step_of(snapshot)
    moved = "hex" in values and values["hex"] and values["hex"] != unit.state.get("hex")
    if moved and step == "combat" and "applied_result" not in values:
        # A counter moved in the combat phase applies a result (the combat-phase-move erratum): the
        # attacker's advance, the defender's retreat.
        values["applied_result"] = choice_of(snapshot, unit, values)
    choice = choice_of(snapshot, unit, values)
    if choice == "depleted" and "depleted" not in values:
        values["depleted"] = True
    if choice == "eliminated" and "eliminated" not in values:
        values["eliminated"] = True
    to = f" to hex {values['hex']}" if values.get("hex") else ""
    why = f"{unit.name} {choice}{to}" if choice else ""
    source = SRC_RESULTS if choice in ("retreated", "advanced", "depleted", "eliminated") else ""
    out: list[Change] = [SetState(why, source, unit.id, k, v) for k, v in values.items()]
    if step == "combat" and choice in COMBAT_RESULTS:
        out += combat.applied(snapshot, unit.id, choice)
    restored = _steps_restored(snapshot, unit, values)
    if values.get("eliminated") is True and not unit.state.get("eliminated"):
        out += [
            c
            for c in eliminated(unit, why or f"{unit.name} eliminated", source)
            if not (isinstance(c, SetState) and c.field in values)
        ]
    if values.get("eliminated") is False and unit.state.get("eliminated"):
        out.append(SetState(f"{unit.name} returns as a replacement", SRC_REPLACE, unit.id, "killed", False))
        if (
            "depleted" not in values
            and VimyRidge().context(None, snapshot.variants).value("replacement-steps") == "step"
        ):
            # One replacement brings an eliminated unit back one step: depleted (erratum replacement-steps).
            out.append(SetState(f"{unit.name} returns depleted", SRC_REPLACE, unit.id, "depleted", True))
    if restored and snapshot.turn >= 1:
        ledger = this_turn(snapshot, "replacements")
        ledger[unit.side] = int(ledger.get(unit.side, 0)) + restored
        out.append(
            SetBoard(
                f"{restored} replacement(s) used by the {SIDE_WORD[unit.side]} side",
                SRC_REPLACE,
                "replacements",
                ledger,
            )
        )
    ids = this_turn(snapshot, ENTERED)
    if snapshot.turn >= 1 and entering(snapshot, unit, values) and unit.id not in ids.get("ids", ()):
        ids["ids"] = [*ids.get("ids", ()), unit.id]
        out.append(SetBoard(f"{unit.name} enters as a replacement", SRC_REPLACE, ENTERED, ids))
    if "hex" in values and values["hex"] != unit.state.get("hex") and values["hex"]:
        if snapshot.turn >= 1:
            out.append(SetState("", "", unit.id, "moved_turn", snapshot.turn))
            if step_of(snapshot) == "movement":
                out += hexmap.moved(snapshot, unit)
        out += held(snapshot, replace(unit, state={**unit.state, **values}), str(values["hex"]))
    return tuple(out)


def held(snapshot: Snapshot, unit: UnitState, where: str) -> list[Change]:
    """The hex ledger: the last side to occupy each key hex (12.1 "the last to have occupied"), and the moment
    an Allied unit enters a Vimy town hex (12.1's instant win, its proviso read by the erratum)."""
    from rules.vimy_ridge.play.victory import KEY_HEXES, entered_vimy

    keys = {h for k in KEY_HEXES for h in (board_value(snapshot, k) or ())} | {"1534"}
    out: list[Change] = []
    if where in keys:
        holders = dict(board_value(snapshot, "holders") or {})
        if holders.get(where) != unit.side:
            holders[where] = unit.side
            out.append(
                SetBoard(
                    f"hex {where} last occupied by the {SIDE_WORD[unit.side]} side",
                    cite("12.1 Victory Points"),
                    "holders",
                    holders,
                )
            )
    if snapshot.turn >= 1 and entered_vimy(snapshot, unit, where):  # in play: a set-up place wins nothing
        out.append(
            SetBoard(
                f"{unit.name} enters Vimy (hex {where})", cite("12.1 Victory Points"), "vimy_entered", where
            )
        )
    return out


def tallied(snapshot: Snapshot, changes: Sequence[Change]) -> tuple[Change, ...]:
    """The victory tally rewritten on the board when the act changed it."""
    after = snapshot.after(changes)
    now = tally(after)
    if now == board_value(snapshot, TALLY):
        return ()
    return (SetBoard("the victory tally", cite("12.1 Victory Points"), TALLY, now),)


VimyRidge.add_errata(
    Erratum(
        "attack-line",
        "The terrain line of an attack where the club's data does not name the defender's hex's terrain (14.2)",
        (
            Reading(
                "clear-until-picked",
                "The card offers the five lines with Clear chosen, the players' pick shown before the die: "
                "'Clear terrain hexes are defined as hexes with no other terrain feature'.",
                f"{CRT_SOURCE}; {cite('Artillery Bombardment Modifiers')}",
                "clear",
            ),
            Reading(
                "picked",
                "No line until the players pick one: an attack without a line is refused.",
                f"{SRC_TRENCH}; {CRT_SOURCE}",
                "pick",
            ),
        ),
        default="clear-until-picked",
        note="The exclusive rules print the lines, not the map; which line a hex reads is the players' map.",
    ),
    Erratum(
        "combat-phase-move",
        "A counter's hex set in the combat phase without naming the result it applies",
        (
            Reading(
                "a-result",
                "Read as the combat's result: the attacking side's counter advances, the other side's retreats "
                "(the standard rules' results, applied by the players).",
                SRC_RESULTS,
                "result",
            ),
            Reading(
                "named",
                "Refused until the players name the result (retreated or advanced): no other move is made in "
                "the combat phase.",
                f"{SRC_TURN}; {SRC_RESULTS}",
                "named",
            ),
        ),
        default="a-result",
        note="The exclusive rules leave retreats and advances to the Fire & Movement standard rules.",
    ),
)

VIMY_GAME: GameRules = register_game(VimyGame())

__all__ = ["ALLIED", "GERMAN", "VIMY_GAME", "checked"]
