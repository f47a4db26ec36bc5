"""A combat phase's ledger of attacks (the Integrated Combat Results Table's results, applied by the players as
the Fire & Movement standard rules say): each attack rolled in this combat phase kept on the game's board with
its attackers, its defender, the result the die gave and the results already applied to each counter, so that a
result (retreated, advanced, depleted, eliminated) is applied only to a counter of an attack rolled this phase,
only as its result reads (the crt-codes erratum), once. Pure: it reads a snapshot and answers board changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.records import SetBoard, Snapshot
from rules.core.ruleset import Erratum, Reading
from rules.vimy_ridge.data import CRT_SOURCE
from rules.vimy_ridge.ruleset import VimyRidge

ATTACKS = "attacks"  # the board key: {"phase": [turn, side, step], "attacks": [...]}
SRC_RESULTS = "Fire & Movement standard rules (not in the exclusive rules): the players apply each result"
ATTACKER, DEFENDER = "attacker", "defender"  # a counter's part in an attack (not a side)

# What each printed result lets the players apply, by a counter's part in the attack: the letter names the
# part it falls on ("A" the attackers, "D" the defender, "Ex" both), "e" eliminated; a number or "(A)" a
# retreat or steps lost, the players' choice under the standard rules (a counter out of steps eliminated);
# the attackers may advance once the result falls on the defender.
_LOSS = ("retreated", "depleted", "eliminated")
BY_LETTER: dict[str, dict[str, tuple[str, ...]]] = {
    "(A)": {ATTACKER: _LOSS},
    "A1": {ATTACKER: _LOSS},
    "A2": {ATTACKER: _LOSS},
    "A3": {ATTACKER: _LOSS},
    "Ae": {ATTACKER: ("eliminated",)},
    "Ex": {ATTACKER: ("depleted", "eliminated", "advanced"), DEFENDER: ("depleted", "eliminated")},
    "D2": {DEFENDER: _LOSS, ATTACKER: ("advanced",)},
    "D3": {DEFENDER: _LOSS, ATTACKER: ("advanced",)},
    "De": {DEFENDER: ("eliminated",), ATTACKER: ("advanced",)},
    "no effect": {},
}


def _phase(snapshot: Snapshot) -> list[Any]:
    return [snapshot.turn, snapshot.side_to_move, snapshot.step]


def this_phase(snapshot: Snapshot) -> list[dict[str, Any]]:
    """The attacks rolled in this combat phase (empty in any other phase: the ledger is the phase's)."""
    kept = snapshot.board.get(ATTACKS) or {}
    if list(kept.get("phase") or ()) != _phase(snapshot):
        return []
    return [dict(a) for a in kept.get("attacks") or ()]


def _kept(snapshot: Snapshot, attacks: Sequence[Mapping[str, Any]], why: str) -> SetBoard:
    return SetBoard(why, SRC_RESULTS, ATTACKS, {"phase": _phase(snapshot), "attacks": list(attacks)})


def recorded(snapshot: Snapshot, attackers: Sequence[int], defender: int, result: str) -> SetBoard:
    """An attack rolled: its counters and its result kept for this phase."""
    attack = {"attackers": list(attackers), "defender": defender, "result": result, "applied": {}}
    return _kept(snapshot, [*this_phase(snapshot), attack], f"the attack's result {result} recorded")


def _part(attack: Mapping[str, Any], unit_id: int) -> str | None:
    if unit_id in attack.get("attackers", ()):
        return ATTACKER
    return DEFENDER if attack.get("defender") == unit_id else None


def results_open(snapshot: Snapshot, unit_id: int) -> tuple[str, ...]:
    """The results the players may still apply to the counter: those its attacks this phase gave its part
    (the crt-codes erratum's reading), less those applied already."""
    codes = VimyRidge().context(None, snapshot.variants).value("crt-codes")
    out: list[str] = []
    for attack in this_phase(snapshot):
        part = _part(attack, unit_id)
        if part is None:
            continue
        done = attack.get("applied", {}).get(str(unit_id), ())
        out += [c for c in codes.get(attack["result"], {}).get(part, ()) if c not in done]
    return tuple(dict.fromkeys(out))


def in_attack(snapshot: Snapshot, unit_id: int) -> str:
    """The results of the counter's attacks this phase, as printed ("" when it is in none)."""
    return ", ".join(dict.fromkeys(a["result"] for a in this_phase(snapshot) if _part(a, unit_id)))


def applied(snapshot: Snapshot, unit_id: int, choice: str) -> tuple[SetBoard, ...]:
    """The result marked applied to the counter on the first of its attacks that gave it (none: nothing)."""
    codes = VimyRidge().context(None, snapshot.variants).value("crt-codes")
    attacks = this_phase(snapshot)
    for attack in attacks:
        part = _part(attack, unit_id)
        done = list(attack.get("applied", {}).get(str(unit_id), ()))
        if part and choice in codes.get(attack["result"], {}).get(part, ()) and choice not in done:
            attack["applied"] = {**attack.get("applied", {}), str(unit_id): [*done, choice]}
            return (_kept(snapshot, attacks, f"{choice} applied for the attack's {attack['result']}"),)
    return ()


_ANY = ("retreated", "advanced", "depleted", "eliminated")
VimyRidge.add_errata(
    Erratum(
        "crt-codes",
        "What each result of the Combat Results Table lets the players apply, and to which counters",
        (
            Reading(
                "by-letter",
                "The letter names the counters it falls on: A the attackers, D the defender, Ex both; 'e' "
                "eliminated; a number or (A) a retreat or steps lost, the players' choice; the attackers may "
                "advance once the result falls on the defender. Only counters of an attack rolled this phase.",
                f"{CRT_SOURCE}; {SRC_RESULTS}",
                BY_LETTER,
            ),
            Reading(
                "players-read",
                "Any result (retreat, advance, step lost, elimination) on any counter of an attack rolled this "
                "phase, as the players read the standard rules.",
                SRC_RESULTS,
                {code: {ATTACKER: _ANY, DEFENDER: _ANY} for code in BY_LETTER if code != "no effect"},
            ),
        ),
        default="by-letter",
        note="The letter codes are explained by the Fire & Movement standard rules, which the library does not "
        "hold; the exclusive rules print the table only.",
    ),
)
