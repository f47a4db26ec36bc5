"""The log read as a game record: "Defender · 1/2 Coy Plt 3 · +1 suppression (MG fire) · turn 2". Each
entry names the unit (by its unambiguous short name), what changed and the dice, and says whether this
viewer may undo it (the rules of app.services.undo)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.pages.stand_count import counted_more
from app.pages.templates import humanise
from app.services import clock as clock_service
from app.services.events import ROLL_KINDS
from app.services.seats import DICE_CHOSEN
from app.services.undo import UNDOABLE
from app.services.undo import refusal as undo_refusal
from app.services.unit_names import NamedUnit
from rules.core.consequences import counted
from rules.core.game import GameRules
from rules.core.records import claims_of
from rules.registry import get_ruleset

# What a suppression came from, in the words of the table ("mg" is how the shooting tables name MG fire).
FIRE_WORDS = {"mg": "MG fire", "hmg": "MG fire", "lmg": "LMG fire", "rifle": "rifle fire"}
# The flags every unit has in plain words, as they are turned on (and off); a rule set's own flags say theirs
# (StateField.words).
FLAG_WORDS = {
    "killed": ("killed", "back in the fight"),
    "off_table": ("off the table", "on the table"),
}
# Events about the game as a whole, in words (the rest are humanised from their kind).
GAME_WORDS = {
    "game-created": "Game created",
    "game-started": "Game started",
    "turn-started": "Turn begins",
    "end-of-turn": "End of turn",
    "game-finished": "Game over",
}


def _campaign_words(kind: str, p: Mapping[str, Any]) -> str:
    if kind == "campaign-battle":
        return f"Campaign battle: {p.get('campaign')}, turn {p.get('turn')} battle {p.get('battle')}"
    return (
        f"Result {p.get('status')} in the campaign {p.get('campaign')}: attacker {p.get('attacker_vp')}, "
        f"defender {p.get('defender_vp')} game points"
    )


@dataclass(frozen=True)
class Entry:
    who: str  # the side the entry is about (the unit's side, else whoever acted)
    unit: str  # the unit's short name, or ""
    what: str  # the change, in words
    roll: str  # the dice and their result, or ""
    turn: int
    by: str  # who acted, when it is not the side the entry is about ("by the referee"), else ""
    turn_word: str = "turn"  # the rules' word for a turn ("bound")

    @property
    def line(self) -> str:
        parts = [self.who, self.unit, self.roll, self.what, self.by, f"{self.turn_word} {self.turn}"]
        return " · ".join(p for p in parts if p)


# Whose dice a roll's line says (issue 89): every roll marked, firestep's or the players' own (entered).
_WHO = {True: "firestep rolled", False: "the players rolled"}


def _whose_dice(rolls: Sequence[Mapping[str, Any]]) -> str:
    """An arrived item's rolls as its line says them, each die marked as firestep's or the players' (a card's
    dice given at the table, the rest rolled by firestep): "the players rolled 4; firestep rolled 2, 6"."""
    by: dict[bool, list[str]] = {}
    for r in rolls:
        res = r.get("resolution") or {}
        by.setdefault(bool(res.get("rolled_by_server")), []).extend(str(d) for d in res.get("dice") or [])
    return "; ".join(f"{_WHO[who]} {', '.join(dice)}" for who, dice in sorted(by.items()) if dice)


def _signed(n: Any) -> str:
    return f"{n:+d}" if isinstance(n, int) else str(n)


def _fire(fire: Any) -> str:
    return FIRE_WORDS.get(str(fire), f"{humanise(str(fire)).lower()} fire") if fire else ""


class Record:
    """Words for the events of one game, with its units' short names."""

    def __init__(self, names: Mapping[int, str], units: Mapping[int, NamedUnit], rules: GameRules) -> None:
        self.names = names
        self.units = units
        self.flag_words = FLAG_WORDS | {
            f.name: f.words for f in rules.book.state_fields if f.words and f.kind != "count"
        }
        # The rules' own bookkeeping (neither on the card nor set by hand) is not worded: the turn a unit was
        # ordered in, a morale test's stage.
        self.unworded = {f.name for f in rules.book.state_fields if not f.shown and not f.edit}
        # A value in the words of its field ("plan stay put"), a unit it names by its name ("planned target
        # 1/2 Coy").
        self.labels = {f.name: f.label.lower() for f in rules.book.state_fields}
        self.unit_fields = {f.name for f in rules.book.state_fields if f.edit == "unit"}
        # A count the rules use up, said as what was spent and what is left (issue 64: "-1 actions left").
        self.spent = {f.name: f for f in rules.book.state_fields if f.spent and f.words}
        self.turn_word, self.stand_word = rules.book.turn_word, rules.book.stand_word
        self.ruleset_id = rules.book.ruleset_id  # a roll's rule set: its resolvers name the act a roll played

    def name(self, unit_id: Any) -> str:
        return self.names.get(unit_id, f"unit {unit_id}") if isinstance(unit_id, int) else ""

    def entry(self, ev: Mapping[str, Any]) -> Entry:
        payload: Mapping[str, Any] = ev.get("payload") or {}
        kind = str(ev.get("kind", ""))
        unit_id = payload.get("unit_id")
        unit = self.units.get(unit_id) if isinstance(unit_id, int) else None
        actor = str(ev.get("actor", ""))
        who = humanise(unit.side) if unit is not None else humanise(actor)
        by = f"by {actor}" if unit is not None and actor not in ("", unit.side, "system") else ""
        what, roll = self._what(kind, payload, unit_id)
        return Entry(
            who,
            self.name(unit_id) if unit is not None else "",
            what,
            roll,
            int(ev.get("turn", 0)),
            by,
            self.turn_word,
        )

    def changes(self, changes: Any, main: Any = None) -> str:
        """Unit changes in words: "+1 suppression", "killed", "moved 12 cm"; changes to other units than
        `main` are named ("1/2 Coy Plt 4 +1 suppression")."""
        if not isinstance(changes, list):
            return ""
        by_unit: dict[Any, list[Mapping[str, Any]]] = {}
        for c in changes:
            if isinstance(c, Mapping) and "unit" in c:
                by_unit.setdefault(c["unit"], []).append(c)
        parts: list[str] = []
        others: dict[str, list[Any]] = {}  # the same change to other stands (fire spread over a company)
        for uid, own in sorted(by_unit.items(), key=lambda kv: (kv[0] != main, str(kv[0]))):
            words = ", ".join(self._unit_changes(own))
            if words and uid == main:
                parts.append(words)
            elif words:
                others.setdefault(words, []).append(uid)
        for words, uids in others.items():
            # "more" than those said before it: a company moved as one says nothing of its own.
            if len(uids) > 2:
                parts.append(f"{len(uids)}{' more' if parts else ''} {self.stand_word}s {words}")
            else:
                parts += [f"{self.name(uid)} {words}" for uid in uids]
        return "; ".join(parts)

    def _unit_changes(self, own: list[Mapping[str, Any]]) -> list[str]:
        words: list[str] = []
        xy = {c["field"]: c for c in own if c.get("field") in ("x", "y")}
        if xy:
            dx = float(xy["x"]["after"] - xy["x"]["before"]) if "x" in xy and "before" in xy["x"] else 0.0
            dy = float(xy["y"]["after"] - xy["y"]["before"]) if "y" in xy and "before" in xy["y"] else 0.0
            words.append(f"moved {math.hypot(dx, dy):.0f} cm")
        for c in own:
            name = c.get("field")
            if name in ("x", "y", "facing_deg", "version") or name in self.unworded:
                continue
            spent = self.spent.get(str(name))
            if "delta" in c and spent is not None and c["delta"] < 0 and isinstance(c.get("after"), int):
                words.append(
                    f"{counted(-c['delta'], spent.words, spent.label)} {spent.spent}, {c['after']} left"
                )
            elif "delta" in c:
                noun = "suppression" if name == "suppression" else humanise(str(name)).lower()
                words.append(f"{_signed(c['delta'])} {noun}")
            elif name in self.flag_words:
                on, off = self.flag_words[name]
                words.append(on if c.get("after") else off)
            else:
                noun, after = self.labels.get(str(name)) or humanise(str(name)).lower(), c.get("after")
                if name in self.unit_fields and after is not None:
                    after = self.name(after)
                if isinstance(after, bool):  # a flag without words of its own: its label, or not
                    words.append(noun if after else f"not {noun}")
                else:
                    words.append(f"{noun} {after}" if after not in ("", None) else f"no {noun}")
        return words

    def _what(self, kind: str, payload: Mapping[str, Any], unit_id: Any) -> tuple[str, str]:
        changes = self.changes(payload.get("changes"), unit_id)
        if kind == "marker":
            fire = _fire(payload.get("fire"))
            return (f"{changes} ({fire})" if fire and changes else changes or "marker"), ""
        if kind == "move":
            return changes or "moved", ""
        if kind == "arrival-fire":  # an arrived fire-plan item applied: the item and what it did
            return str(payload.get("effect") or "arrived fire"), _whose_dice(payload.get("rolls") or [])
        if kind in ROLL_KINDS:
            request = payload.get("request")  # the act the player made where a resolver plays two (a melee)
            named = get_ruleset(self.ruleset_id).roll_name(
                str(payload.get("resolver")), request if isinstance(request, dict) else {}
            )
            resolver = named or humanise(str(payload.get("resolver") or kind))
            res = payload.get("resolution") or {}
            dice = res.get("dice") or []
            outcome = res.get("outcome_key") or (
                res.get("outcome") if isinstance(res.get("outcome"), str) else ""
            )
            rolled = ", ".join(str(d) for d in dice)
            if n := res.get("count"):  # entered as a count (issue 69): its dice only stand for it
                rolled = f"{n['reached']} of {n['dice']} dice reaching {n['reach']}+{counted_more(n)}"
            # Whose dice, either way (issues 69 and 89): firestep's, or the players' own, entered.
            who = _WHO[bool(res.get("rolled_by_server"))]
            roll = f"{resolver}: {who} {rolled}" if dice else resolver
            if outcome:
                roll += f" → {humanise(str(outcome)).lower()}"
            # A value given over the table's (a range by the tape) is read as the claim it is.
            roll += "".join(f" ({c})" for c in claims_of(payload.get("filled")))
            return changes, roll
        if kind == "undo":
            return f"undid #{payload.get('undoes')} ({humanise(str(payload.get('kind', '')))})", ""
        if kind == "step":
            return str(payload.get("title") or humanise(str(payload.get("to", "")))), ""
        if kind == "fire-plan-locked":
            return f"{humanise(str(payload.get('side', '')))} fire plan locked", ""
        if kind == "card-played":
            card = payload.get("card") or {}
            title = card.get("title") or card.get("name") if isinstance(card, Mapping) else None
            return f"card played{': ' + str(title) if title else ''}", ""
        if kind.startswith("template-"):
            template = payload.get("template") or {}
            what = template.get("kind") if isinstance(template, Mapping) else None
            verb = kind.removeprefix("template-")
            return f"{humanise(str(what or 'template'))} template {verb}", ""
        if kind == "objective-called":  # the referee's call on a contested objective (issue 55)
            side = payload.get("side")
            return f"{payload.get('name', 'objective')} called for {'nobody' if side is None else side}", ""
        if kind == DICE_CHOSEN:  # whose dice a side rolls from now on (issue 69, the hostile pass)
            dice = "its own dice at the table" if payload.get("dice") == "players" else "firestep's dice"
            return f"the {payload.get('side')} rolls {dice} from now on", ""
        if kind == "victory-played-on":  # the referee's choice on a victory condition met (issue 69)
            return f"played on after victory condition {payload.get('condition')}", ""
        if kind == "game-finished" and payload.get("reason") == "condition":  # the newcomer pass: "Game over"
            return f"Game over: ended on victory condition {payload.get('condition')}", ""
        if said := clock_service.told(kind, payload):  # the clock as set, paused, given (issue 64)
            return said.removesuffix("."), ""
        if kind == "game-updated" and payload.get("readings"):  # the referee's change of a reading (issue 69)
            return "now plays " + "; ".join(str(r) for r in payload["readings"]), ""
        if kind in ("campaign-battle", "campaign-result"):  # the game's campaign battle (issue 17)
            return _campaign_words(kind, payload), ""
        words = GAME_WORDS.get(kind, humanise(kind))
        return (f"{words}: {changes}" if changes else words), ""

    @staticmethod
    def may_undo(
        ev: Mapping[str, Any], role: str, undone: set[int], last_roll: int, game_status: str
    ) -> bool:
        """Whether this viewer's Undo would be accepted (the rules of app.services.undo.undo); a player's own
        roll while it is the game's latest event, which the API also takes back, is offered on the map's card
        that applied it, not on the board."""
        if ev.get("kind") not in UNDOABLE or ev.get("id") in undone or ev.get("reverses_id"):
            return False
        if role != "referee" and ev.get("kind") in ROLL_KINDS:
            return False  # offered on the map's card that applied it
        event_id = int(ev.get("id") or 0)
        refused = undo_refusal(
            str(ev.get("kind")),
            ev.get("actor"),
            event_id,
            role=role,
            finished=game_status == "finished",
            last_roll=last_roll,
            newest=event_id,
            started_on_it=game_status == "playing" and (ev.get("payload") or {}).get("for") == "start",
        )
        return refused is None
