"""A combat phase's ledger of attacks (the Integrated Combat Results Table's results, applied by the players as
the Fire & Movement standard rules say): each attack rolled in this combat phase kept on the game's board with
its attackers, its defender, the result the die gave and the results already applied to each counter, so that a
result (retreated, advanced, depleted, eliminated) is applied only to a counter of an attack rolled this phase,
only as its result reads (the crt-codes erratum), once. Pure: it reads a snapshot and answers board changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, cast

from rules.core.game import Need
from rules.core.records import SetBoard, Snapshot
from rules.core.ruleset import Erratum, Reading
from rules.vimy_ridge.data import CRT_SOURCE
from rules.vimy_ridge.ruleset import VimyRidge, cite

ATTACKS = "attacks"  # the board key: {"phase": [turn, side, step], "attacks": [...]}
SRC_RESULTS = "Fire & Movement standard rules (not in the exclusive rules): each player applies a result to his own units"
ATTACKER, DEFENDER = "attacker", "defender"  # a counter's part in an attack (not a side)

# What each printed result lets the players apply, by a counter's part in the attack: the letter names the
# part it falls on ("A" the attackers, "D" the defender, "Ex" both), "e" eliminated; a number or "(A)" a
# retreat or steps lost, the players' choice under the standard rules (a counter out of steps eliminated);
# the attackers may advance once the result falls on the defender; in an exchange each side loses a step, and
# the attackers may advance only after their loss (AFTER_LOSS: an addition, never instead of the loss).
_LOSS = ("retreated", "depleted", "eliminated")
AFTER_LOSS = "attacker after its loss"
BY_LETTER: dict[str, dict[str, tuple[str, ...]]] = {
    "(A)": {ATTACKER: _LOSS},
    "A1": {ATTACKER: _LOSS},
    "A2": {ATTACKER: _LOSS},
    "A3": {ATTACKER: _LOSS},
    "Ae": {ATTACKER: ("eliminated",)},
    "Ex": {
        ATTACKER: ("depleted", "eliminated"),
        DEFENDER: ("depleted", "eliminated"),
        AFTER_LOSS: ("advanced",),
    },
    "D2": {DEFENDER: _LOSS, ATTACKER: ("advanced",)},
    "D3": {DEFENDER: _LOSS, ATTACKER: ("advanced",)},
    "De": {DEFENDER: ("eliminated",), ATTACKER: ("advanced",)},
    "no effect": {},
}


# The crt-codes erratum's reading: each result's codes by the part a counter played (and after an attacker's loss).
Codes = Mapping[str, Mapping[str, Sequence[str]]]


class VimyAttack(TypedDict):
    """An attack rolled this combat phase, as the board keeps it: its counters, the defender and its hex, the
    result, and what of it has been applied to each counter (by unit id)."""

    attackers: list[int]
    defender: int
    hex: str
    result: str
    applied: dict[str, list[str]]


def _phase(snapshot: Snapshot) -> list[Any]:
    return [snapshot.turn, snapshot.side_to_move, snapshot.step]


def this_phase(snapshot: Snapshot) -> list[VimyAttack]:
    """The attacks rolled in this combat phase (empty in any other phase: the ledger is the phase's)."""
    kept = snapshot.board.get(ATTACKS) or {}
    if list(kept.get("phase") or ()) != _phase(snapshot):
        return []
    return [cast(VimyAttack, dict(a)) for a in kept.get("attacks") or ()]  # as `recorded` wrote them


def _kept(snapshot: Snapshot, attacks: Sequence[VimyAttack], why: str) -> SetBoard:
    return SetBoard(why, SRC_RESULTS, ATTACKS, {"phase": _phase(snapshot), "attacks": list(attacks)})


def recorded(snapshot: Snapshot, attackers: Sequence[int], defender: int, result: str) -> SetBoard:
    """An attack rolled: its counters, the defender's hex (the one hex an advance enters) and its result kept
    for this phase."""
    at = next((str(u.state.get("hex") or "") for u in snapshot.units if u.id == defender), "")
    attack: VimyAttack = {
        "attackers": list(attackers),
        "defender": defender,
        "hex": at,
        "result": result,
        "applied": {},
    }
    return _kept(snapshot, [*this_phase(snapshot), attack], f"the attack's result {result} recorded")


def _part(attack: VimyAttack, unit_id: int) -> str | None:
    if unit_id in attack.get("attackers", ()):
        return ATTACKER
    return DEFENDER if attack.get("defender") == unit_id else None


def _done(attack: VimyAttack, unit_id: int) -> list[str]:
    return list(attack.get("applied", {}).get(str(unit_id)) or ())


def _open_in(snapshot: Snapshot, codes: Codes, attack: VimyAttack, unit_id: int) -> tuple[str, ...]:
    """What the attack's result still lets the players apply to the counter: its part's choices until one is
    applied; then, for an attacker whose loss is applied and still on the map, what its result allows after
    the loss (an exchange's advance), once."""
    part = _part(attack, unit_id)
    if part is None:
        return ()
    by = codes.get(attack["result"], {})
    done = _done(attack, unit_id)
    if not done:
        return tuple(by.get(part, ()))
    after = tuple(c for c in by.get(AFTER_LOSS, ()) if c not in done) if part == ATTACKER else ()
    gone = snapshot.by_id.get(unit_id) is None or snapshot.by_id[unit_id].state.get("eliminated")
    return () if gone or len(done) > 1 else after


def results_open(snapshot: Snapshot, unit_id: int) -> tuple[str, ...]:
    """The results the players may still apply to the counter: those its attacks this phase gave its part
    (the crt-codes erratum's reading), once per attack: a result applied to the counter (one choice of those
    it allows) closes that attack's result for it, but for what the result allows after it (an exchange's
    advance, after the attacker's loss)."""
    codes = VimyRidge().context(None, snapshot.variants).value("crt-codes")
    out: list[str] = []
    for attack in this_phase(snapshot):
        out += list(_open_in(snapshot, codes, attack, unit_id))
    return tuple(dict.fromkeys(out))


def giving(snapshot: Snapshot, unit_id: int, choice: str) -> VimyAttack | None:
    """The first attack of this phase whose result still lets the players apply `choice` to the counter."""
    codes = VimyRidge().context(None, snapshot.variants).value("crt-codes")
    for attack in this_phase(snapshot):
        if choice in _open_in(snapshot, codes, attack, unit_id):
            return attack
    return None


_WORDS = {"retreated": "retreat", "depleted": "step loss", "eliminated": "elimination"}


def waiting(snapshot: Snapshot) -> list[Need]:
    """The results still to apply this combat phase, counter by counter, each from its own card: a result the
    letter lays on the counter's part (by-letter: a retreat, a step or the counter; never an advance, which the
    attackers may forgo) and nothing yet applied to it for that attack, the counter still on the map."""
    out: list[Need] = []
    for attack in this_phase(snapshot):
        result = attack["result"]
        must = BY_LETTER.get(result, {})
        for unit_id in [*attack.get("attackers", ()), attack.get("defender")]:
            u = snapshot.by_id.get(unit_id) if isinstance(unit_id, int) else None
            part = _part(attack, unit_id) if u is not None else None
            choices = [c for c in must.get(part or "", ()) if c != "advanced"]
            if u is None or not choices or _done(attack, u.id) or u.state.get("eliminated"):
                continue
            said = " or ".join(_WORDS[c] for c in choices)
            out.append(Need(f"{u.name}: apply the {result} ({said})", u.id))
    return out


def attacked_already(
    snapshot: Snapshot, attackers: Sequence[int], defender: int | None, division: str = ""
) -> str:
    """Why the attack repeats one of this phase ("" when it does not), as the attack-once erratum reads it: a
    counter attacks once a combat phase; a defender is attacked again only by a separate attack of another
    division (`division`: the attackers', "" to refuse any second attack on it, the 'once' reading)."""
    divisions = {u.id: str(u.state.get("division") or "") for u in snapshot.units}
    for attack in this_phase(snapshot):
        if set(attackers) & set(attack.get("attackers", ())):
            return "attacker"
    for attack in this_phase(snapshot):
        if defender is None or attack.get("defender") != defender:
            continue
        before = {divisions.get(i, "") for i in attack.get("attackers", ())}
        if not division or division in before:
            return "defender"
    return ""


def in_attack(snapshot: Snapshot, unit_id: int) -> str:
    """The results of the counter's attacks this phase, as printed ("" when it is in none)."""
    return ", ".join(dict.fromkeys(a["result"] for a in this_phase(snapshot) if _part(a, unit_id)))


def applied(snapshot: Snapshot, unit_id: int, choice: str) -> tuple[SetBoard, ...]:
    """The result marked applied to the counter on the first of its attacks that gave it (none: nothing)."""
    attacks = this_phase(snapshot)
    first = giving(snapshot, unit_id, choice)
    for attack in attacks:
        if first is not None and attack == first:
            attack["applied"] = {**attack.get("applied", {}), str(unit_id): [*_done(attack, unit_id), choice]}
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
                "The letter names the counters it falls on: A the attackers, D the defender, Ex both, each "
                "losing a step (the attackers may advance only after their loss); 'e' eliminated; a number or "
                "(A) a retreat or steps lost, the players' choice; the attackers may advance once the result "
                "falls on the defender. Only counters of an attack rolled this phase.",
                f"{CRT_SOURCE}; {SRC_RESULTS}",
                BY_LETTER,
            ),
            Reading(
                "players-read",
                "Any result (retreat, advance, step lost, elimination) on any counter of an attack rolled this "
                "phase, as the players read the standard rules: one each, so an exchange's attacker may advance "
                "instead of losing a step.",
                SRC_RESULTS,
                {code: {ATTACKER: _ANY, DEFENDER: _ANY} for code in BY_LETTER if code != "no effect"},
            ),
        ),
        default="by-letter",
        note="The letter codes are explained by the Fire & Movement standard rules, which the library does not "
        "hold; the exclusive rules print the table only.",
    ),
    Erratum(
        "combat-move",
        "How far a retreat or an advance goes, and where (the CRT's numbers, A1 to D3, are not explained here)",
        (
            Reading(
                "one-hex",
                "A retreat is one hex, into a hex next to the counter and farther from each enemy counter of its "
                "attack; an advance only into the hex the defender left; neither onto an occupied hex.",
                f"{CRT_SOURCE}; {SRC_RESULTS}",
                "adjacent",
            ),
            Reading(
                "players-count",
                "The players count a retreat's and an advance's hexes as the standard rules say; the app keeps "
                "them off occupied hexes only.",
                SRC_RESULTS,
                "players",
            ),
        ),
        default="one-hex",
        note="Retreats and advances are the Fire & Movement standard rules', which the library does not hold: "
        "bounded to the adjacent hexes until the players read them otherwise.",
    ),
    Erratum(
        "attack-once",
        "How often a counter attacks, and is attacked, in one combat phase (18.3)",
        (
            Reading(
                "separate-attacks",
                "Each counter attacks at most once a combat phase; an enemy counter attacked may be attacked "
                "again by a separate attack of another division's units, not again by the same division's "
                "(18.3: 'this does not prohibit other units from different divisions conducting a separate "
                "attack upon the same enemy unit').",
                f"{cite('18.3 Divisional Integrity')}; {SRC_RESULTS}",
                "division",
            ),
            Reading(
                "once",
                "Each counter attacks at most once a combat phase, and each enemy counter is attacked at most "
                "once, whatever the division (18.3's 'the same attack upon the same enemy unit' read as one "
                "attack on it).",
                f"{cite('18.3 Divisional Integrity')}; {SRC_RESULTS}",
                "once",
            ),
        ),
        default="separate-attacks",
        note="18.3 allows another division's separate attack upon the same enemy unit in so many words; the "
        "standard Fire & Movement rules (one attack per unit a phase) are not in the library.",
    ),
)
