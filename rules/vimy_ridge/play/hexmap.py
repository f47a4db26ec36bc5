"""Vimy Ridge's map as hexes (rules.table.hexes): how its four-digit hex numbers lie (the hex-grid erratum: the
exclusive rules print numbers, 1534, but not the grid), how far a move goes (the movement erratum: the standard
rules' terrain costs are not in the exclusive rules, so a move is bounded by the counter's printed movement
allowance counted in hexes) and the hexes an enemy counter's zone of control covers (the zoc erratum, with
14.2's trench exception). Pure: it reads a snapshot."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core.records import SetBoard, Snapshot, UnitState
from rules.core.ruleset import Erratum, Reading
from rules.table.hexes import Lower, distance, neighbours
from rules.vimy_ridge.ruleset import VimyRidge, cite

SRC_STANDARD = "Fire & Movement standard rules (not in the exclusive rules)"
SRC_SCALE = cite("10.3 Game Scale")
MOVES = "moves"  # the board key: {"phase": [turn, side, step], "from": {unit id: the hex its move began in}}


def _value(snapshot: Snapshot, erratum: str) -> Any:
    return VimyRidge().context(None, snapshot.variants).value(erratum)


def lower(snapshot: Snapshot) -> Lower:
    """Which columns of the map sit half a hex lower (the hex-grid erratum)."""
    return "odd" if _value(snapshot, "hex-grid") == "odd" else "even"


def apart(snapshot: Snapshot, a: str, b: str) -> int:
    """How many hexes apart two hexes of the map are."""
    return distance(a, b, lower(snapshot))


def bounded(snapshot: Snapshot) -> bool:
    """Whether the app bounds a move by the counter's allowance in hexes (the movement erratum's default)."""
    return bool(_value(snapshot, "movement") == "hexes")


def _phase(snapshot: Snapshot) -> list[Any]:
    return [snapshot.turn, snapshot.side_to_move, snapshot.step]


def began(snapshot: Snapshot, unit: UnitState) -> str:
    """The hex the counter's move began in this phase: where it stood before its first move of the phase."""
    kept = snapshot.board.get(MOVES) or {}
    origin = (
        (kept.get("from") or {}).get(str(unit.id))
        if list(kept.get("phase") or ()) == _phase(snapshot)
        else None
    )
    return str(origin or unit.state.get("hex") or "")


def moved(snapshot: Snapshot, unit: UnitState) -> tuple[SetBoard, ...]:
    """The counter's first move of the phase keeps the hex it began in (later moves are counted from it)."""
    kept = snapshot.board.get(MOVES) or {}
    origins = dict(kept.get("from") or {}) if list(kept.get("phase") or ()) == _phase(snapshot) else {}
    if str(unit.id) in origins or not unit.state.get("hex"):
        return ()
    origins[str(unit.id)] = str(unit.state["hex"])
    why = f"{unit.name}'s move begins in hex {unit.state['hex']}"
    return (SetBoard(why, SRC_STANDARD, MOVES, {"phase": _phase(snapshot), "from": origins}),)


def in_enemy_zoc(snapshot: Snapshot, where: str, side: str, enemies: Iterable[UnitState]) -> bool:
    """Whether an enemy counter's zone of control covers `where` for a counter of `side` (the zoc erratum: the
    hexes next to it), but across a trench hexside into a hex a counter of `side` occupies (14.2: a trench line
    inhibits 'any enemy Zone of Control across that trench hexside into a hex that is occupied by an opposing
    unit')."""
    near = neighbours(where, lower(snapshot))
    trench = {frozenset(p) for p in snapshot.board.get("trench_hexsides") or ()}
    held_by_side = any(
        u.side == side and u.state.get("hex") == where and not u.state.get("eliminated")
        for u in snapshot.units
    )
    for e in enemies:
        at = str(e.state.get("hex") or "")
        if e.side == side or e.state.get("eliminated") or at not in near:
            continue
        if held_by_side and frozenset((at, where)) in trench:
            continue
        return True
    return False


VimyRidge.add_errata(
    Erratum(
        "hex-grid",
        "How the map's hexes are numbered and which columns are shifted (hexes four digits, column-row 'xxyy')",
        (
            Reading(
                "even-columns-lower",
                "Hexes in vertical columns numbered west to east, rows north to south; each even-numbered column "
                "half a hex lower than its odd neighbours (0101 in the north-west corner, 0201 just below it).",
                f"{cite('12.1 Victory Points')} ('the German supply hex in Petit Vimy (1534)'); {SRC_STANDARD}",
                "even",
            ),
            Reading(
                "odd-columns-lower",
                "The same numbering with each odd-numbered column half a hex lower than its even neighbours.",
                cite("12.1 Victory Points"),
                "odd",
            ),
        ),
        default="even-columns-lower",
        note="The exclusive rules print hex numbers (1534) but neither the grid nor its numbering; the map does.",
    ),
    Erratum(
        "movement",
        "How far a counter moves in its movement phase",
        (
            Reading(
                "hexes",
                "At most its printed movement allowance in hexes from where its move began, counted the shortest "
                "way: the terrain costs are the standard rules' and the map's, which the app does not hold "
                "(14.3: 'A trench line hexside itself has no additional effect upon movement').",
                f"{cite('14.3 Trench Line Movement Effects')}; {SRC_STANDARD}",
                "hexes",
            ),
            Reading(
                "players-count",
                "The players count each move's terrain costs on their map; the app takes any move.",
                SRC_STANDARD,
                "players",
            ),
        ),
        default="hexes",
        note="10.3: 'Each hex represents ~175 yards'; the movement allowance is printed on each counter.",
    ),
    Erratum(
        "zoc",
        "Which hexes an enemy unit's zone of control covers (11.3 'not within any enemy ZOC'; 11.6)",
        (
            Reading(
                "adjacent-hexes",
                "The six hexes next to the enemy unit, but across a trench hexside into a hex occupied by an "
                "opposing unit (14.2).",
                f"{cite('14.2 Trench Lines')}; {SRC_STANDARD}",
                "adjacent",
            ),
            Reading(
                "players-call",
                "The players judge zones of control from the standard rules; the app does not check them.",
                SRC_STANDARD,
                "players",
            ),
        ),
        default="adjacent-hexes",
        note="Zones of control are defined by the standard rules; the exclusive rules use them in 11.3, 11.6, 14.2.",
    ),
    Erratum(
        "stacking",
        "How many units a hex holds in play (19.1, 20.2 'one ... unit per hex' at set-up)",
        (
            Reading(
                "one-unit-per-hex",
                "One unit per hex throughout: the set-up's 'one German unit per hex' and 'one Allied unit per hex' "
                "kept in play; a move never ends in a hex another counter holds.",
                f"{cite('19.1 German Set-up')}; {cite('20.2 Allied Set-up')}",
                "one",
            ),
            Reading(
                "set-up-only",
                "One unit per hex at set-up only; in play the standard rules' stacking, the players' call: a move "
                "never ends in a hex an enemy counter holds.",
                f"{cite('20.2 Allied Set-up')}; {SRC_STANDARD}",
                "set-up",
            ),
        ),
        default="one-unit-per-hex",
        note="The exclusive rules say 'one unit per hex' of set-up only; stacking in play is the standard rules'.",
    ),
)
