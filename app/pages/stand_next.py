"""What each control of a stand's card asks next, worked out by the server (issue 67): the card's state while a
roll is played (its act, target, the order its hits fall in, a range by the tape, the dice tapped or their count)
is the query of the part drawn, and each control carries the part it leads to (data-ask: the card read for the
state it makes) or the roll it records (data-apply: the JSON its POST sends to the part's data-apply-to, through
the outbox; its answer read from data-done). frontend/static/js/table-act.js only follows them: it keeps no state
of the play but the part shown. Built by `app.pages.stand_acts` (an act begun, a direct roll's dice) and
`app.pages.stand_play` (a target tapped, a die, a count, Apply, the book's order, a range)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from urllib.parse import urlencode

__all__ = ["PlayState", "Tap", "act_ask", "direct_bodies"]

# What a control does: ("ask", the part's URL) or ("apply", the roll's JSON body).
Tap = tuple[str, str]


@dataclass(frozen=True)
class PlayState:
    """A roll played from stand `stand`'s card in game `game_id`: the act (its resolver, its words on the card,
    the unit that rolls, the field its hits' order fills) and what the player gave so far; 0 a die not tapped."""

    game_id: int
    stand: int
    resolver: str
    label: str
    unit_id: int
    target: int | None = None
    order_field: str = ""
    order: tuple[int, ...] = ()
    range_cm: float | None = None
    dice: tuple[int, ...] = ()
    reached: int | None = None
    lifted: bool | None = None  # where a bonus lifts a die short of the count's number: whether it lifted one
    again: int | None = None  # where the dice reaching it are rolled again: how many reached it again

    def url(self) -> str:
        """The card's part for this state (GET .../play/{resolver}, nothing written)."""
        q: list[tuple[str, object]] = [("act", self.label)]
        if self.target is not None:
            q.append(("target", self.target))
        q += [("order", i) for i in self.order]
        if self.range_cm is not None:
            q.append(("range_cm", f"{self.range_cm:g}"))
        q += [("die", d) for d in self.dice]
        if self.reached is not None:
            q.append(("reached", self.reached))
        if self.lifted is not None:
            q.append(("lifted", int(self.lifted)))
        if self.again is not None:
            q.append(("again", self.again))
        return f"/games/{self.game_id}/map/units/{self.stand}/play/{self.resolver}?{urlencode(q)}"

    def ask(self, **changed: object) -> Tap:
        """The control leading to the card for this state with `changed`."""
        return ("ask", replace(self, **changed).url())  # type: ignore[arg-type]

    def fields(self, book: bool = False) -> dict[str, object]:
        """What the player gave over the table's (`book`: the hits left in the book's order)."""
        out: dict[str, object] = {}
        if self.order_field and self.order and not book:
            out[self.order_field] = list(self.order)
        if self.range_cm is not None:
            out["range_cm"] = self.range_cm
        return out

    def body(self, dice: tuple[int, ...] | None = None, count: int | None = None, book: bool = False) -> str:
        """The roll's POST as the card records it: the dice tapped, or the count of its dice reaching the
        number (`count`: the dice; a die lifted by a bonus with it), or neither (the server rolls them)."""
        body: dict[str, object] = {
            "unit_id": self.unit_id,
            "target_id": self.target,
            "fields": self.fields(book),
            "apply": True,
        }
        if count is not None and self.reached is not None:
            more: dict[str, object] = {"lifted": True} if self.lifted else {}
            more |= {"again": self.again} if self.again is not None else {}
            body["count"] = {"dice": count, "reached": self.reached, **more}
        elif dice is not None:
            body["dice"] = list(dice)
        return json.dumps(body)

    @property
    def apply_to(self) -> str:
        return f"/api/v1/games/{self.game_id}/resolve/{self.resolver}"

    @property
    def done(self) -> str:
        """The card once the roll is recorded, its event's id left as `{event}` for the answer to fill."""
        q = urlencode({"act": self.label})
        return f"/games/{self.game_id}/map/units/{self.stand}/done/{{event}}?{q}"

    @property
    def pick(self) -> str:
        """The card for a stand tapped on the map (or picked from the list): its target, or its next hit."""
        return f"{self.url()}&pick="

    def links(self) -> dict[str, object]:
        """What the play part carries for every control: its own URL (read again after a change of the
        game's reading), the POST's and the answer's, its target (the map keeps its company clear), the
        taps of the map while its hits' order is given, Roll, the book's order and the range by the tape."""
        return {
            "url": self.url(),
            "apply_to": self.apply_to,
            "done": self.done,
            "play_target": self.target if self.target is not None and not self.order_field else None,
            "pick": self.pick if self.order_field else "",
            "roll": self.body(),
            "book": self.body(book=True),
            "range_ask": f"{replace(self, range_cm=None, dice=()).url()}&range_cm=",
        }


def act_ask(game_id: int, stand: int, resolver: str, label: str, target: bool) -> str:
    """The part an act's button begins: the target's pick (GET .../targets/{resolver}) or the roll's card."""
    if target:
        return f"/games/{game_id}/map/units/{stand}/targets/{resolver}?{urlencode({'act': label})}"
    return PlayState(game_id, stand, resolver, label, 0).url()


def direct_bodies(state: PlayState) -> tuple[tuple[str, ...], str]:
    """A direct roll's POSTs: one per face tapped, and the server's roll."""
    return tuple(state.body((n,)) for n in range(1, 7)), state.body()
