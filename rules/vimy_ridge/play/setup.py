"""A Vimy counter checked at the door as it is placed or set (19.0 German Deployments, 20.0 Allied
Deployments): its hex four ASCII digits as the map prints them, its printed strengths within the counter's two
digits (its depleted side no stronger than its full one), a German division one the book names, and in
set-up one unit per hex, on the side's own set-up hexes where the club's data names them (and never an Allied
one east of the Allied trench line where the club's data shows it: No Man's Land, the easternmost hexes).
A malformed value is a RulesError naming its field (422); a rule broken is a Refusal (409) citing its rule,
each one whole sentence of at most 120 characters."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.errors import Refusal, RulesError
from rules.core.records import Snapshot, UnitState
from rules.core.ruleset import Erratum, Reading
from rules.table.hexes import Lower, column_row
from rules.vimy_ridge.play.club import CLUB
from rules.vimy_ridge.play.hexmap import lower
from rules.vimy_ridge.ruleset import VimyRidge, cite

ALLIED, GERMAN = "attacker", "defender"  # 15.1 "The Allied player is the first player"
COUNTER = "counter"


def counters(snapshot: Snapshot, side: str | None = None) -> list[UnitState]:
    return [u for u in snapshot.units if u.level == COUNTER and (side is None or u.side == side)]


HEX = re.compile(r"[0-9]{4}", re.ASCII)  # str.isdigit would take superscript, Arabic-Indic, full-width digits
SRC_GERMAN_SET_UP = cite("19.1 German Set-up")
SRC_ALLIED_SET_UP = cite("20.2 Allied Set-up")
SRC_NO_MANS_LAND = cite("14.1 No Man's Land")
VIMY_GRID = "the hex-grid erratum (rows numbered north to south)"
# 19.1: "the 1st Bavarian Reserve Division ... the 79th Reserve Division ... the 16th Bavarian Division".
GERMAN_DIVISIONS = ("16th Bavarian", "79th Reserve", "1st Bavarian Reserve")
STRENGTHS = (("attack", "attack_depleted"), ("defence", "defence_depleted"))
MOST_STRENGTH = 99  # a counter's printed strength: at most two digits (the state fields' maximum)


def hex_checked(values: Mapping[str, Any]) -> None:
    """A hex is four ASCII digits as the map prints it (1534), or "" off the map (a RulesError naming it)."""
    where = values.get("hex")
    if where is None or where == "":
        return
    # Columns and rows are numbered from 01 (the hex-grid erratum): 0000, 0012 and 1200 are no hexes.
    if not isinstance(where, str) or not HEX.fullmatch(where) or "00" in (where[:2], where[2:]):
        raise RulesError("hex", "Enter a hex as the four digits printed on the map, such as 1534.")


def on_map_checked(snapshot: Snapshot, values: Mapping[str, Any]) -> None:
    """A hex on the map where the club has entered its extent (its last column and row, as its copy numbers
    them from 01 at the north-west, the hex-grid erratum): one beyond it a RulesError naming the hex."""
    where = values.get("hex")
    if not isinstance(where, str) or not HEX.fullmatch(where):
        return
    col, row = column_row(where)
    last_column, last_row = snapshot.board.get("last_column"), snapshot.board.get("last_row")
    east_of_it = isinstance(last_column, int) and col > last_column
    south_of_it = isinstance(last_row, int) and row > last_row
    if east_of_it or south_of_it:
        columns = f"columns run 01 to {last_column:02d}" if isinstance(last_column, int) else ""
        rows = f"rows run 01 to {last_row:02d}" if isinstance(last_row, int) else ""
        extent = " and its ".join(p for p in (columns, rows) if p)
        raise RulesError(
            "hex",
            f"Hex {where} is not on the map: its {extent} (the club's map).",
            source=f"{VIMY_GRID}; {CLUB}",
        )


def strengths_checked(values: Mapping[str, Any], now: Mapping[str, Any]) -> None:
    """A counter's printed strengths: whole numbers of at most two digits, its depleted side no stronger than
    its full one (17.5: a hit is "a one-step depletion")."""
    v = values.get("movement_allowance")
    if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MOST_STRENGTH):
        raise RulesError("movement_allowance", "Enter the counter's printed movement allowance: 0 to 99.")
    for full, reduced in STRENGTHS:
        for name in (full, reduced):
            v = values.get(name)
            if v is not None and (
                not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MOST_STRENGTH
            ):
                raise RulesError(name, f"Enter the counter's printed {name.replace('_', ' ')}: 0 to 99.")
        top, low = values.get(full, now.get(full)), values.get(reduced, now.get(reduced))
        if (
            isinstance(top, int)
            and isinstance(low, int)
            and low > top
            and (full in values or reduced in values)
        ):
            raise RulesError(
                reduced,
                f"A depleted {full} is the reduced side: at most the full {top} (17.5).",
                source=cite("17.5 Bombardment Resolution"),
            )


def _division(word: str) -> str:
    return re.sub(r"\s+division$", "", " ".join(word.split()), flags=re.IGNORECASE).lower()


@dataclass(frozen=True)
class SetUpHexes:
    """What the club's data names of set-up, read once from the board: each side's set-up hexes, and those an
    Allied unit never sets up in (No Man's Land, the easternmost hexes)."""

    own: Mapping[str, frozenset[str]]
    east_of_trench: frozenset[str]

    @classmethod
    def of(cls, board: Mapping[str, Any]) -> SetUpHexes:
        terrain = board.get("hex_terrain") or {}
        no_mans_land = {h for h, kinds in terrain.items() if "no-mans-land" in kinds}
        own = {key: frozenset(board.get(key) or ()) for key in ("allied_set_up", "german_set_up")}
        return cls(own, frozenset(no_mans_land | set(board.get("easternmost") or ())))


def _south(where: str, lower: Lower | None) -> int:
    """How far south a hex lies, in half hexes (the hex-grid erratum: rows numbered north to south): by its
    centre, a lowered column's half a hex down; by its row alone where `lower` is None (the division-order
    erratum's other reading)."""
    col, row = column_row(where)
    return 2 * row + (1 if lower is not None and (col % 2 == 0) == (lower == "even") else 0)


@dataclass
class GermanOrder:
    """The German units set up so far, as 19.1's order reads them: each division's northernmost and southernmost
    hex (how far south, in half hexes, and the hex), so a counter placed is judged against three divisions, not
    every counter before it."""

    lower: Lower | None  # None: by rows alone (the division-order erratum)
    ends: dict[int, tuple[tuple[int, str], tuple[int, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, snapshot: Snapshot) -> GermanOrder:
        """As the snapshot's readings have it: by hex centres on the hex-grid erratum's map, or by rows."""
        by_rows = VimyRidge().context(None, snapshot.variants).value("division-order") == "rows"
        return cls(None if by_rows else lower(snapshot))

    def add(self, where: str, division: str) -> None:
        i = _order(division)
        if i is None or not HEX.fullmatch(where):
            return
        at = (_south(where, self.lower), where)
        north, south = self.ends.get(i, (at, at))
        self.ends[i] = (min(north, at), max(south, at))

    def refused(self, division: str, where: str) -> tuple[Refusal, ...]:
        """19.1's order of the German divisions, north to south: the 16th Bavarian north of any unit of the 79th
        Reserve, the 79th Reserve north of any of the 1st Bavarian Reserve."""
        i = _order(division)
        if i is None or not HEX.fullmatch(where):
            return ()
        here = _south(where, self.lower)
        for j, (north, south) in sorted(self.ends.items()):
            # A division to the north: its southernmost unit north of this one; to the south, its northernmost.
            (there, at) = south if j < i else north
            if j == i or (there < here if j < i else there > here):
                continue
            way = "south" if i > j else "north"
            return (
                Refusal(
                    f"The {GERMAN_DIVISIONS[i]} sets up {way} of the {GERMAN_DIVISIONS[j]}: its {at} is not "
                    f"{'north' if way == 'south' else 'south'} of {where} (19.1).",
                    "the 16th Division to the north, the 79th Division in the middle, and the 1st Division to the "
                    "south",
                    SRC_GERMAN_SET_UP,
                ),
            )
        return ()


def _order(division: str) -> int | None:
    """A German division's place in 19.1's order, north to south (None: not one the book names)."""
    order = [d.lower() for d in GERMAN_DIVISIONS]
    mine = _division(division)
    return order.index(mine) if mine in order else None


def placed_refused(
    snapshot: Snapshot,
    side: str,
    unit_id: int | None,
    values: Mapping[str, Any],
    setting_up: bool,
    read: tuple[SetUpHexes, Mapping[str, str]] | None = None,
    german: GermanOrder | None = None,
    now: Mapping[str, Any] | None = None,
) -> tuple[Refusal, ...]:
    """What 19.0 and 20.0 forbid of a counter placed or set: a division the book does not name, and in set-up
    a second unit in one hex, a hex off the side's set-up hexes or a German division out of 19.1's order.
    `read`: the set-up hexes and the name of the unit in each hex held, and `german` the German divisions'
    ends, read once by a caller placing many counters (else from the snapshot); `now`: the
    counter's state before this edit (its division where the edit names only its hex)."""
    division = values.get("division")
    if side == GERMAN and division and _division(str(division)) not in {d.lower() for d in GERMAN_DIVISIONS}:
        return (
            Refusal(
                "A German unit is of the 16th Bavarian, 79th Reserve or 1st Bavarian Reserve Division (19.1).",
                "all German units of the 1st Bavarian Reserve Division ... the 79th Reserve Division ... the 16th "
                "Bavarian Division",
                SRC_GERMAN_SET_UP,
            ),
        )
    where = str(values.get("hex") or "")
    if not setting_up or not where:
        return ()
    source = SRC_ALLIED_SET_UP if side == ALLIED else SRC_GERMAN_SET_UP
    rule = "20.2" if side == ALLIED else "19.1"
    if read is None:
        on_map = {
            str(u.state.get("hex")): u.name
            for u in counters(snapshot)
            if u.id != unit_id and u.state.get("hex") and not u.state.get("eliminated")
        }
        read = (SetUpHexes.of(snapshot.board), on_map)
    hexes, held = read
    if where in held:
        return (
            Refusal(
                f"One unit per hex: {held[where]} is set up in hex {where} ({rule}).",
                "may set up all of his units in any hexes ..., one unit per hex",
                source,
            ),
        )
    own = hexes.own["allied_set_up" if side == ALLIED else "german_set_up"]
    if own and where not in own:
        return (
            Refusal(
                f"Hex {where} is not {'an Allied' if side == ALLIED else 'a German'} set-up hex on the club's map "
                f"({rule}).",
                "west of the Allied trench line (20.2); east of the Allied trench line (19.1); south of the river",
                f"{source}; {CLUB}",
            ),
        )
    if side == ALLIED and where in hexes.east_of_trench:
        return (
            Refusal(
                f"Hex {where} lies east of the Allied trench line: set up west of it (20.2).",
                "The Allied player may set up all of his units in any hexes west of the Allied trench line",
                f"{SRC_ALLIED_SET_UP}; {SRC_NO_MANS_LAND}; {CLUB}",
            ),
        )
    if side == GERMAN:
        if german is None:
            german = GermanOrder.of(snapshot)
            for u in counters(snapshot, GERMAN):
                if u.id != unit_id and u.state.get("hex") and not u.state.get("eliminated"):
                    german.add(str(u.state["hex"]), str(u.state.get("division") or ""))
        return german.refused(str(division or (now or {}).get("division") or ""), where)
    return ()


VimyRidge.add_errata(
    Erratum(
        "division-order",
        "When a hex lies north or south of another, for 19.1's order of the German divisions",
        (
            Reading(
                "hex-centres",
                "By the hexes' centres: a hex in a lowered column lies half a hex south of the same row's hex next "
                "to it; a unit level with another is neither north nor south of it (19.1 'north of any German "
                "units').",
                f"{SRC_GERMAN_SET_UP}; {VIMY_GRID}",
                "centres",
            ),
            Reading(
                "rows",
                "By the rows' numbers alone: a hex in a lower-numbered row lies north; the same row is neither.",
                f"{SRC_GERMAN_SET_UP}; {VIMY_GRID}",
                "rows",
            ),
        ),
        default="hex-centres",
        note="19.1 orders the divisions north to south; the exclusive rules print no map, so which hex lies north "
        "of another is read from the hex-grid erratum's numbering.",
    ),
)
