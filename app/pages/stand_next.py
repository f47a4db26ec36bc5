"""What each control of a stand's card asks next, worked out by the server (issue 67): the card's state while a
roll is played (its act, target, the order its hits fall in, a range by the tape, the dice tapped or their count)
is the query of the part drawn, and each control carries the part it leads to (data-ask: the card read for the
state it makes) or the roll it records (data-apply: the JSON its POST sends to the part's data-apply-to, through
the outbox; its answer read from data-done). frontend/static/js/table-act.js only follows them: it keeps no state
of the play but the part shown. Built by `app.pages.stand_acts` (an act begun, a direct roll's dice) and
`app.pages.stand_play` (a target tapped, a die, a count, Apply, the book's order, a range)."""

from __future__ import annotations

import json
from typing import Annotated
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from app.data.bounded import INT32_MAX

__all__ = ["CardQuery", "PlayState", "Tap", "act_ask", "direct_bodies"]

# What a control does: ("ask", the part's URL) or ("apply", the roll's JSON body).
Tap = tuple[str, str]
StandId = Annotated[int, Field(ge=1, le=INT32_MAX)]


class CardQuery(BaseModel):
    """A stand card's query while a roll is played, read by FastAPI (`Annotated[CardQuery, Query()]`: the roll's
    card, its target's pick and its answer; a value out of range a 422 naming its field) and written back by
    `PlayState.url`: the act (`act`, the card's words for it), its target, the order its hits fall in, a range by
    the tape, the dice tapped (`die`, 0 one not tapped yet) or, where the rule counts them, how many `reached` its
    number (`lifted`: whether a bonus lifted a die short of it; `again`: how many reached it rolled again); `pick`
    a stand tapped on the map (its target, or its next hit)."""

    model_config = ConfigDict(frozen=True, validate_by_name=True)

    label: str = Field("", alias="act", max_length=120)
    target: StandId | None = None
    order: tuple[int, ...] = Field((), max_length=64)  # a stand not, or a die not 0-6: the card refuses it
    range_cm: float | None = Field(None, ge=0, le=500, allow_inf_nan=False)
    dice: tuple[int, ...] = Field((), alias="die", max_length=16)
    reached: int | None = Field(None, ge=0, le=64)
    lifted: bool | None = None
    again: int | None = Field(None, ge=0, le=64)
    pick: StandId | None = None

    @field_serializer("range_cm")
    def _range(self, range_cm: float | None) -> str | None:
        return None if range_cm is None else f"{range_cm:g}"

    @field_serializer("lifted")
    def _lifted(self, lifted: bool | None) -> int | None:
        return None if lifted is None else int(lifted)


class PlayState(CardQuery):
    """A roll played from stand `stand`'s card in game `game_id`: the act (its resolver, its words on the card,
    the unit that rolls, the field its hits' order fills) and what the player gave so far (its query)."""

    game_id: int = Field(exclude=True)
    stand: int = Field(exclude=True)
    resolver: str = Field(exclude=True)
    unit_id: int = Field(exclude=True)
    order_field: str = Field("", exclude=True)

    def url(self) -> str:
        """The card's part for this state (GET .../play/{resolver}, nothing written)."""
        q = urlencode(self.model_dump(by_alias=True, exclude_none=True, exclude={"pick"}), doseq=True)
        return f"/games/{self.game_id}/map/units/{self.stand}/play/{self.resolver}?{q}"

    def ask(self, **changed: object) -> Tap:
        """The control leading to the card for this state with `changed`."""
        return ("ask", self.model_copy(update=changed).url())

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
    def pick_ask(self) -> str:
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
            "pick": self.pick_ask if self.order_field else "",
            "roll": self.body(),
            "book": self.body(book=True),
            "range_ask": f"{self.model_copy(update={'range_cm': None, 'dice': ()}).url()}&range_cm=",
        }


def act_ask(game_id: int, stand: int, resolver: str, label: str, target: bool) -> str:
    """The part an act's button begins: the target's pick (GET .../targets/{resolver}) or the roll's card."""
    if target:
        return f"/games/{game_id}/map/units/{stand}/targets/{resolver}?{urlencode({'act': label})}"
    return PlayState(game_id=game_id, stand=stand, resolver=resolver, label=label, unit_id=0).url()


def direct_bodies(state: PlayState) -> tuple[tuple[str, ...], str]:
    """A direct roll's POSTs: one per face tapped, and the server's roll."""
    return tuple(state.body((n,)) for n in range(1, 7)), state.body()
