"""Flanders Fields random events: a normal pack of cards, drawn one or two a turn.

Dummies are 2-9 of every suit; red 10-A are beneficial and kept (at most three cards in hand); black 10-A
are detrimental and played at once. The deck and hands are passed in and returned so a game keeps them;
the dice are the drawn cards' positions in the remaining pack (sides = cards left), so odds are exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypedDict

from pydantic import Field

from rules.core.cards import PACK, RANK_NAMES, SUIT_NAMES
from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import CardShown, Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.errata import EVENTS_PACK_EXHAUSTED, SRC_EVENTS
from rules.flanders_fields.ruleset import FlandersFields

# "A player may only hold up to three cards at any point of the game and must play the number of cards he
# holds in excess of three."
HAND_LIMIT = 3
CARD_PATTERN = r"^(10|[2-9JQKA])[HDCS]$"

Card = Annotated[str, Field(pattern=CARD_PATTERN, description="Rank then suit: 2H ... 10S, JC, QD, KH, AS.")]


@dataclass(frozen=True)
class EventCard:
    card: str
    title: str
    text: str
    to_opponent: bool = False

    @property
    def kind(self) -> str:
        return "beneficial" if self.card[-1] in "HD" else "detrimental"

    def as_dict(self) -> CardShown:
        rank, suit = self.card[:-1], self.card[-1]
        return {
            "card": self.card,
            "name": f"{SUIT_NAMES[suit]} - {RANK_NAMES[rank]}",
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "to_opponent": self.to_opponent,
        }


# The twenty cards, as printed under RANDOM EVENTS.
EVENT_CARDS: dict[str, EventCard] = {
    c.card: c
    for c in (
        EventCard(
            "AH",
            "Big Bangs!",
            "Player gains control of Super Heavy Artillery for 3 turns. Attach to "
            "Highest level of command present on table, normal Order sequence applies.",
        ),
        EventCard(
            "KH",
            "Sniper!",
            "Player may remove 1 opposing Command stand or support weapon which is not in "
            "a fortified position.",
        ),
        EventCard(
            "QH",
            "Rally",
            "One Battalion which has lost two or more platoons will RALLY survivors. D3 "
            "rifle platoons are replaced.",
        ),
        EventCard(
            "JH",
            "Good day to be a hero",
            "gain +1 on heroic action roll - must be played BEFORE rolling for the Heroic Action.",
        ),
        EventCard(
            "10H",
            "Good discipline",
            "Gain +1 on any order or morale roll - must be played BEFORE rolling for morale.",
        ),
        EventCard(
            "AC",
            "Death from above",
            "Random shell kills 2 platoons or support weapons which must be "
            "within 5cm of each other. Enemy player chooses.",
        ),
        EventCard("KC", "Lines are Down", "No contact with any supporting artillery this turn"),
        EventCard(
            "QC",
            "Stubborn Defenders",
            "Enemy gain +1 on next morale roll, hand over card to enemy who may "
            "keep it until needed however the card will count towards the maximum of 3 which may be "
            "held.",
            to_opponent=True,
        ),
        EventCard(
            "JC",
            "Death from the flank",
            "Burst of machine gun fire removes most extreme right hand rifle platoon.",
        ),
        EventCard(
            "10C",
            "Command Error",
            "-1 on one Regimental or Battalion order this round - must be played "
            "BEFORE rolling for the order is rolled for.",
        ),
        EventCard("AD", "Superb Shooting", "+2 on one company's or machine gun shooting rolls this turn."),
        EventCard(
            "KD",
            "Wiring Party",
            "Defenders may add an extra 2cm depth of wire to one Company's front, "
            "Attackers may remove 2cm depth of wire to one company's front when they reach it.",
        ),
        EventCard("QD", "Good Shooting", "+1 on one company's or machine gun shooting rolls this turn."),
        EventCard(
            "JD",
            "Inspirational Leader",
            "All orders from one Regiment or Battalion commander issued at +1 for one turn.",
        ),
        EventCard("10D", "Concise Order", "+1 on one order roll, may be played AFTER die is rolled."),
        EventCard("AS", "Counter Battery Fire", "1 Support battery destroyed by enemy counter battery fire."),
        EventCard(
            "KS",
            "Gas Boys, Gas",
            "Extra, offensive, enemy gas attack arrives where enemy player wishes, "
            "subject to normal wind rules.",
        ),
        EventCard(
            "QS",
            "Random Shell",
            "Heavy artillery shell lands where enemy wishes, enemy decides position and rolls for effect.",
        ),
        EventCard(
            "JS",
            "Wind Change",
            "Wind changes direction and blows gas directly towards attackers trenches "
            "at 10 + 2D6cm speed. If gas not yet deployed the gas fireplan MUST still be adhered to but "
            "this card will determine the wind speed and direction. If no gas attack planned treat as if "
            "card was 10 of Spades",
        ),
        EventCard(
            "10S",
            "Hard Day",
            "-1 on morale roll, hand card to opponent who may play it when desired.",
            to_opponent=True,
        ),
    )
}


def card_kind(card: str) -> str:
    return EVENT_CARDS[card].kind if card in EVENT_CARDS else "dummy"


class RandomEventRequest(FFRequest):
    deck: list[Card] | None = Field(
        default=None,
        max_length=52,
        description="Cards still in the pack, in the game's order (dice index it, 1 = first). Omit for a "
        "fresh pack: all 52 cards less those held in hand and opponent_hand.",
    )
    hand: list[Card] = Field(
        default_factory=list, max_length=HAND_LIMIT, description="Cards this player holds."
    )
    opponent_hand: list[Card] = Field(
        default_factory=list, max_length=HAND_LIMIT + 2, description="Cards the opponent holds."
    )
    draw: Literal[1, 2] = Field(default=1, description="Cards drawn this turn: at least one, at most two.")


@dataclass(frozen=True)
class Pack:
    cards: tuple[str, ...]
    draws: int
    reshuffled: bool


def pack_for(req: RandomEventRequest, ctx: Context) -> Pack:
    held = set(req.hand) | set(req.opponent_hand)
    fresh = tuple(c for c in PACK if c not in held)
    if req.deck is None:
        return Pack(fresh, req.draw, False)
    cards = tuple(req.deck)
    if len(cards) >= req.draw:
        return Pack(cards, req.draw, False)
    if ctx.value(EVENTS_PACK_EXHAUSTED) == "reshuffle":
        return Pack(fresh, req.draw, True)
    return Pack(cards, len(cards), False)


@FlandersFields.resolver
class RandomEvent(Resolver[RandomEventRequest]):
    id = "random-event"
    summary = "Random events: draw 1 or 2 cards; red 10-A kept (hand of 3), black 10-A played at once"
    Request = RandomEventRequest
    examples = (
        {"period": "mid", "draw": 1, "dice": [39]},
        {"period": "late", "deck": ["AH", "2C", "KS", "10D"], "hand": ["QD"], "draw": 2, "dice": [1, 2]},
    )

    def check(self, req: RandomEventRequest, ctx: Context) -> None:
        """A card named twice among the deck and the hands is refused: a pack has one of each."""
        seen: dict[str, str] = {}
        for field in ("deck", "hand", "opponent_hand"):
            for i, card in enumerate(getattr(req, field) or ()):
                if card in seen:
                    raise RulesError(
                        f"{field}.{i}", f"card {card} is already in {seen[card]}: a pack has one of each"
                    )
                seen[card] = field

    def dice(self, req: RandomEventRequest, ctx: Context) -> tuple[int, ...]:
        pack = pack_for(req, ctx)
        return tuple(len(pack.cards) - i for i in range(pack.draws))

    def pack(self, req: RandomEventRequest, ctx: Context) -> tuple[str, ...]:
        return pack_for(req, ctx).cards

    @staticmethod
    def card(code: str) -> CardShown:
        if code in EVENT_CARDS:
            return EVENT_CARDS[code].as_dict()
        return {
            "card": code,
            "kind": "dummy",
            "title": None,
            "text": "Dummy: no event.",
            "to_opponent": False,
        }

    def cards_shown(self, outcome: Any) -> list[tuple[str, list[CardShown], bool]]:
        # The drawn cards and the drawer's own hand: never the pack left nor the opponent's hand.
        return [
            ("Drawn", list(outcome["drawn"]), False),
            ("Your hand", [self.card(c) for c in outcome["hand"]], True),
        ]

    def drawn(
        self, req: RandomEventRequest, ctx: Context, dice: tuple[int, ...]
    ) -> tuple[Pack, list[str], list[str]]:
        pack = pack_for(req, ctx)
        remaining = list(pack.cards)
        drawn = [remaining.pop(i - 1) for i in dice]
        return pack, drawn, remaining

    def evaluate(self, req: RandomEventRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        pack, drawn, remaining = self.drawn(req, ctx, dice)
        kinds = [card_kind(c) for c in drawn]
        hand = list(req.hand) + [c for c in drawn if card_kind(c) == "beneficial"]
        handed = [c for c in drawn if c in EVENT_CARDS and EVENT_CARDS[c].to_opponent]
        play_now = [c for c in drawn if card_kind(c) == "detrimental" and c not in handed]
        opponent_hand = list(req.opponent_hand) + handed
        notes = []
        if pack.reshuffled:
            notes.append("The pack ran out: every card not held was shuffled into a new pack.")
        if not drawn:
            notes.append("The pack is empty: no more random events.")
        for c in drawn:
            kind = card_kind(c)
            if kind == "beneficial":
                notes.append(f"{c}: beneficial, kept; it may be played whenever the player wishes.")
            elif c in handed:
                notes.append(f"{c}: handed to the opponent, who keeps it (it counts towards their three).")
            elif kind == "detrimental":
                notes.append(f"{c}: detrimental, played at once.")
        outcome = {
            "drawn": [self.card(c) for c in drawn],
            "play_now": play_now,
            "hand": hand,
            "must_play_from_hand": max(0, len(hand) - HAND_LIMIT),
            "opponent_hand": opponent_hand,
            "opponent_must_play_from_hand": max(0, len(opponent_hand) - HAND_LIMIT),
            "deck": remaining,
            "reshuffled": pack.reshuffled,
        }
        sources = [SRC_EVENTS]
        if pack.reshuffled or pack.draws < req.draw:
            sources.append(ctx.citation(EVENTS_PACK_EXHAUSTED))
        return Evaluation(
            key="+".join(sorted(kinds)) or "no-card",
            outcome=outcome,
            sources=tuple(sources),
            details={"notes": notes},
        )


class RandomEventsTable(TypedDict):
    """RANDOM EVENTS: the pack, the dummies, what a beneficial and a detrimental card do, the draws and the hand
    limit, and the twenty cards."""

    source: str
    pack: str
    dummies: str
    beneficial: str
    detrimental: str
    draw_per_turn: list[int]
    hand_limit: int
    cards: list[CardShown]


def random_events_table() -> RandomEventsTable:
    return {
        "source": SRC_EVENTS,
        "pack": "a normal pack of 52 cards",
        "dummies": "all suits, two to nine",
        "beneficial": "red cards ten to ace: MAY be played whenever a player wishes",
        "detrimental": "black cards ten to ace: MUST be played when they are drawn",
        "draw_per_turn": [1, 2],
        "hand_limit": HAND_LIMIT,
        "cards": [EVENT_CARDS[c].as_dict() for c in PACK if c in EVENT_CARDS],
    }


FlandersFields.dataset("random-events", "Random events: the card deck and the twenty event cards")(
    lambda _period: random_events_table()
)
