"""Errata of the campaign appendixes: casualty rounding and the random-events pack (when it runs out, and whose
it is)."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

CASUALTY_ROUNDING = "casualty-rounding"
EVENTS_PACK_EXHAUSTED = "events-pack-exhausted"
EVENTS_PACK = "events-pack"

SRC_CASUALTIES = cite("CASUALTIES AND THEIR EFFECT IN A CAMPAIGN")
SRC_EVENTS = cite("RANDOM EVENTS")

FlandersFields.add_errata(
    Erratum(
        CASUALTY_ROUNDING,
        "Casualties: sixths of an odd number of bases are half men",
        (
            Reading(
                "badly-wounded-up",
                "The text is silent on rounding. Thirds are always whole (15 men a base); when the sixths "
                "are half a man the badly wounded are rounded up and the crippled down, so the four "
                "parts still add up to 15 a base.",
                f"{SRC_CASUALTIES} (silent; referee's reading)",
                "badly-wounded",
            ),
            Reading(
                "crippled-up",
                "The crippled are rounded up and the badly wounded down.",
                f"{SRC_CASUALTIES} (silent; alternative reading)",
                "crippled",
            ),
        ),
        default="badly-wounded-up",
        section="campaign",
    ),
    Erratum(
        EVENTS_PACK_EXHAUSTED,
        "Random events: the pack runs out",
        (
            Reading(
                "reshuffle",
                "The text is silent. When the pack holds fewer cards than are to be drawn, every card not "
                "held in a hand is shuffled into a new pack before drawing.",
                f"{SRC_EVENTS} (silent; referee's reading)",
                "reshuffle",
            ),
            Reading(
                "no-more-events",
                "No more cards are drawn once the pack is empty; a draw larger than the pack takes what "
                "is left.",
                f"{SRC_EVENTS} (silent; alternative reading)",
                "no-more-events",
            ),
        ),
        default="reshuffle",
        section="campaign",
    ),
    Erratum(
        EVENTS_PACK,
        "Random events: whose pack of cards",
        (
            Reading(
                "game",
                "firestep keeps the pack and deals each draw; nobody sees the cards left in it.",
                f"{SRC_EVENTS} (\u201ca normal pack of 52 cards\u201d: firestep's)",
                "game",
            ),
            Reading(
                "club",
                "The club's own pack of 52 is drawn from at the table; the side that draws enters the card by "
                "its suit and rank, and firestep keeps it as secret as a card it dealt.",
                f"{SRC_EVENTS} (\u201ca normal pack of 52 cards\u201d: the club's own)",
                "club",
            ),
        ),
        default="game",
        section="campaign",
    ),
)
