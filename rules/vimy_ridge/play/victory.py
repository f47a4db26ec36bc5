"""Vimy Ridge's victory (12.0) from the hex ledger a game keeps on its board: each objective with its holder
(the last side to occupy it, from the counters' moves), the Canadian points, the instant wins and the result,
in the score's shape (the sides' points, the objectives with their holders). Pure: it reads a snapshot."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from rules.core.records import Snapshot, UnitState
from rules.vimy_ridge.data import EAST_EDGE_UNITS, LAST_TURN, VP_TO_WIN
from rules.vimy_ridge.play.club import CLUB, SUPPLY_HEX
from rules.vimy_ridge.ruleset import VimyRidge, cite

TALLY = "tally"  # the board key the tally is kept under
KEY_HEXES = ("peaks", "vimy_town", "petit_vimy_town")
SRC_VP = cite("12.1 Victory Points")
SRC_GERMAN = cite("12.2 German Victory")
ALLIED, GERMAN = "attacker", "defender"


def _on_map(snapshot: Snapshot, side: str) -> list[UnitState]:
    return [
        u
        for u in snapshot.units
        if u.level == "counter" and u.side == side and not u.state.get("eliminated") and u.state.get("hex")
    ]


def proviso_holds(snapshot: Snapshot) -> bool:
    """12.1's proviso "provided that neither town hex of Petit Vimy is not presently occupied by any German
    unit", as the petit-vimy-proviso erratum reads it: by default no German unit in either; literally, both
    occupied by German units."""
    town = set(snapshot.board.get("petit_vimy_town") or ())
    germans = sum(1 for u in _on_map(snapshot, GERMAN) if u.state.get("hex") in town)
    literal = VimyRidge().context(None, snapshot.variants).value("petit-vimy-proviso")
    return germans == len(town) if literal else germans == 0


def entered_vimy(snapshot: Snapshot, unit: UnitState, where: str) -> bool:
    """An Allied unit entering one of the 12 Vimy town hexes while the proviso holds: the instant win (12.1),
    "even if only temporarily"."""
    town = snapshot.board.get("vimy_town") or ()
    gone = unit.state.get("eliminated")  # an eliminated counter is off the map: it enters nothing
    return unit.side == ALLIED and not gone and where in town and proviso_holds(snapshot)


def _holder(holders: dict[str, str], hexes: list[str]) -> str | None:
    """Who last occupied every one of `hexes` (None when no one side did)."""
    sides = {holders.get(h) for h in hexes}
    return next(iter(sides)) if len(sides) == 1 and None not in sides else None


class VimyObjective(TypedDict):
    """An objective as the tally shows it (the score's shape, rules.core.score.ObjectiveScore): its worth,
    when it scores, who holds it, the rule, and whether the club entered its hexes."""

    id: str
    name: str
    vp: int
    scored: str
    holder: str | None
    source: str
    entered: bool


class VimyOutcome(TypedDict):
    """Who wins (None: play on), why, and the rule."""

    winner: str | None
    reason: str
    source: str


class VimyTally(TypedDict):
    """The running tally (the score's shape, rules.core.score.Score and Outcome): points, losses and the points
    needed by side, the objectives, an instant win, the result, and the result should the game end now."""

    points: dict[str, int]
    losses: dict[str, int]
    needed: dict[str, int]
    objectives: list[VimyObjective]
    instant_win: str | None
    outcome: VimyOutcome
    at_end: VimyOutcome


def tally(snapshot: Snapshot) -> VimyTally:
    """The running tally: the objectives with their holders and points, each side's points, the instant wins
    and the result (the Canadian side needs 2 VP before the end of the last turn; else the German side wins)."""
    board = snapshot.board
    # The last side to occupy each hex: the ledger of moves, over the counters where they were set up.
    set_up = {str(u.state["hex"]): u.side for side in (ALLIED, GERMAN) for u in _on_map(snapshot, side)}
    holders = {**set_up, **dict(board.get("holders") or {})}
    peaks = list(board.get("peaks") or ())
    vimy = list(board.get("vimy_town") or ())
    petit = list(board.get("petit_vimy_town") or ())
    east = set(board.get("easternmost") or ())
    by_division = Counter(
        str(u.state.get("division", ""))
        for u in _on_map(snapshot, ALLIED)
        if u.state.get("hex") in east and int(u.state.get("moved_turn") or 0) > 0
    )
    most = max(by_division.values(), default=0)
    # The score's shape (rules.core.score.ObjectiveScore): id, name, vp, when it scores, holder.
    objectives: list[VimyObjective] = [
        {
            "id": "peaks",
            "name": "Every peak hex (13 in all)",
            "vp": 1,
            "scored": "last to occupy",
            "holder": _holder(holders, peaks) if peaks else None,
            "source": f"{SRC_VP}; {CLUB}" if peaks else SRC_VP,
            "entered": bool(peaks),
        },
        {
            "id": "supply-1534",
            "name": f"German supply hex in Petit Vimy ({SUPPLY_HEX})",
            "vp": 1,
            "scored": "last to occupy",
            "holder": holders.get(SUPPLY_HEX),
            "source": SRC_VP,
            "entered": True,
        },
        {
            "id": "easternmost",
            "name": f"{EAST_EDGE_UNITS} Canadian units of one division on easternmost hexes",
            "vp": 1,
            "scored": "occupied now",
            "holder": ALLIED if most >= EAST_EDGE_UNITS else None,
            "source": f"{SRC_VP}; {CLUB}" if east else SRC_VP,
            "entered": bool(east),
        },
        {
            "id": "vimy-town",
            "name": "Vimy town hexes (12): an Allied unit entering wins at once",
            "vp": 0,
            "scored": "instant win",
            "holder": ALLIED if board.get("vimy_entered") else _holder(holders, vimy) if vimy else None,
            "source": f"{SRC_VP}; {CLUB}" if vimy else SRC_VP,
            "entered": bool(vimy),
        },
        {
            "id": "petit-vimy-town",
            "name": "Petit Vimy town hexes (2): no German unit there for the instant win",
            "vp": 0,
            "scored": "proviso",
            "holder": _holder(holders, petit) if petit else None,
            "source": f"{SRC_VP}; {CLUB}" if petit else SRC_VP,
            "entered": bool(petit),
        },
    ]
    points = sum(int(o["vp"]) for o in objectives if o["holder"] == ALLIED)
    germans = [u for u in snapshot.units if u.level == "counter" and u.side == GERMAN]
    instant = None
    if germans and all(u.state.get("eliminated") for u in germans):
        instant = "every German unit eliminated"
    elif board.get("vimy_entered"):
        instant = f"an Allied unit entered Vimy (hex {board['vimy_entered']})"
    if instant is not None:
        result: VimyOutcome = {"winner": ALLIED, "reason": f"instant win: {instant}", "source": SRC_VP}
    elif points >= VP_TO_WIN and (snapshot.turn > LAST_TURN or by_vp_any_moment(snapshot)):
        result = {"winner": ALLIED, "reason": f"{points} VP of {VP_TO_WIN}", "source": SRC_VP}
    elif snapshot.turn > LAST_TURN:
        result = {
            "winner": GERMAN,
            "reason": f"the Canadians hold {points} VP of {VP_TO_WIN}",
            "source": SRC_GERMAN,
        }
    else:
        result = {"winner": None, "reason": f"play on: {points} VP of {VP_TO_WIN}", "source": SRC_VP}
    # The score's shape (rules.core.score.Score and Outcome): points by side, the objectives, the outcome.
    losses = Counter(u.side for u in snapshot.units if u.level == "counter" and u.state.get("eliminated"))
    return {
        "points": {ALLIED: points, GERMAN: 0},
        "losses": {ALLIED: losses[ALLIED], GERMAN: losses[GERMAN]},
        "needed": {ALLIED: VP_TO_WIN},
        "objectives": objectives,
        "instant_win": instant,
        "outcome": result,
        # Should the game end now (12.2): the German side's unless the Canadian side has won.
        "at_end": result
        if result["winner"]
        else {
            "winner": GERMAN,
            "reason": f"the Canadians hold {points} VP of {VP_TO_WIN}",
            "source": SRC_GERMAN,
        },
    }


def by_vp_any_moment(snapshot: Snapshot) -> bool:
    """Whether 2 VP win as soon as they are held (the vp-moment erratum's default) or only at the end."""
    return bool(VimyRidge().context(None, snapshot.variants).value("vp-moment") == "any")


def place_notes(snapshot: Snapshot) -> dict[str, str]:
    """What each key hex the club entered is, with its rule (the page of counters shows it by the hex)."""
    board = snapshot.board
    notes: dict[str, str] = {SUPPLY_HEX: "German supply hex in Petit Vimy: 1 VP (12.1)"}
    for key, words in (
        ("peaks", "peak: all 13 together 1 VP (12.1)"),
        ("vimy_town", "Vimy town: an Allied unit entering wins at once (12.1)"),
        ("petit_vimy_town", "Petit Vimy town hex (12.1)"),
        ("la_folie_woods", "La Folie Woods: no Allied bombardment (18.2)"),
        ("easternmost", "easternmost hex: 3 units of one division 1 VP (12.1)"),
    ):
        for h in board.get(key) or ():
            notes[str(h)] = f"{notes[str(h)]}; {words}" if str(h) in notes else words
    return notes
