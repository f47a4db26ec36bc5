"""What the club's own copy of Vimy Ridge gives and the book does not print: the key hexes of its map, the
turn track's sequence, the Artillery Track and the aircraft markers, entered once per game before play (a
scenario file's `board`, or the game's own in set-up; the `club-data` roll enters them at the rules tier) and
kept on the game's board. Each value is checked against what the book
does print about it (13 peaks, 12 Vimy town hexes, four-digit hex numbers, 8/5 on turn 2, 13 markers in all)
and is named as the club's wherever it is used (`CLUB`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Erratum, Reading, Resolver
from rules.vimy_ridge.data import LAST_TURN, PEAK_HEXES, TOTAL_MARKERS, VIMY_TOWN_HEXES, HexFeature
from rules.vimy_ridge.ruleset import VimyRequest, VimyRidge, cite

# Every value below that the book does not print is the club's, read from its own copy: cited as such.
CLUB = "the club's own copy of the game (map, counters and tracks), as entered for this game"
SUPPLY_HEX = "1534"  # 12.1 "the German supply hex in Petit Vimy (1534)": printed, never entered
TURN_TWO_ALLOTMENT = (
    8,
    5,
)  # 17.1 'on the second game turn, the Artillery Track is printed with the listing "8/5"'
PETIT_VIMY_TOWN_HEXES = 2  # 12.1 "provided that neither town hex of Petit Vimy": two town hexes
SEVEN_HEXES = 7  # 18.2 "any woods hex within seven hexes of Petit Vimy"

Hex = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
# 10.3 names Morning, Day and Evening turns; 13.1 "Turns that are printed with a moon symbol" are night turns.
TrackPart = Literal["Morning", "Day", "Evening", "Night"]
Allotment = Annotated[list[Annotated[int, Field(ge=0, le=TOTAL_MARKERS)]], Field(min_length=2, max_length=2)]


class ClubData(BaseModel):
    """The club's entries; every field optional, so a club enters what it has (a field left out keeps what
    the game holds)."""

    model_config = ConfigDict(extra="forbid")

    peaks: list[Hex] | None = Field(
        default=None,
        max_length=PEAK_HEXES,  # the printed count (12.1): a longer list is refused unread
        description=f"The {PEAK_HEXES} peak hexes printed on the map (12.1).",
    )
    vimy_town: list[Hex] | None = Field(
        default=None,
        max_length=VIMY_TOWN_HEXES,  # the printed count (12.1): a longer list is refused unread
        description=f"The {VIMY_TOWN_HEXES} Vimy town hexes (12.1).",
    )
    petit_vimy_town: list[Hex] | None = Field(
        default=None,
        max_length=PETIT_VIMY_TOWN_HEXES,  # the printed count (12.1): a longer list is refused unread
        description="The two town hexes of Petit Vimy (12.1).",
    )
    la_folie_woods: list[Hex] | None = Field(
        default=None,
        max_length=200,
        description="The La Folie Woods hexes: woods within seven hexes of Petit Vimy (18.2).",
    )
    easternmost: list[Hex] | None = Field(
        default=None, max_length=200, description="The easternmost map hexes (12.1, 11.6)."
    )
    trench_hexsides: list[Annotated[list[Hex], Field(min_length=2, max_length=2)]] | None = Field(
        default=None,
        max_length=500,
        description="Trench hexsides, each the two hexes it lies between (14.2).",
    )
    allied_set_up: list[Hex] | None = Field(
        default=None,
        max_length=2000,
        description="The hexes the Allied player may set up in: west of the Allied trench line, south of the "
        "river (20.2).",
    )
    german_set_up: list[Hex] | None = Field(
        default=None,
        max_length=2000,
        description="The hexes the German player may set up in: east of the Allied trench line, south of the "
        "river (19.1).",
    )
    hex_terrain: dict[Hex, Annotated[list[HexFeature], Field(min_length=1, max_length=5)]] | None = Field(
        default=None,
        max_length=2000,
        description="Bombardment terrain of hexes (the modifiers chart's kinds).",
        # The chart's own words for its kinds ("+1 = No Man's Land hex"), as the scenario editor names them.
        json_schema_extra={
            "labels": {
                "clear": "Clear terrain",
                "no-mans-land": "No Man's Land",
                "town": "Town",
                "woods": "Woods",
                "trench": "Trench",
            }
        },
    )
    turn_track: list[TrackPart] | None = Field(
        default=None,
        min_length=LAST_TURN,
        max_length=LAST_TURN,
        description=f"The {LAST_TURN} boxes of the Turn Track in order; 'Night' for a box with the moon (13.1).",
    )
    artillery_track: list[Allotment] | None = Field(
        default=None,
        min_length=LAST_TURN,
        max_length=LAST_TURN,
        description="Bombardment markers per turn, [Allied, German], as printed on the Artillery Track (17.1).",
        json_schema_extra={"columns": ["Allied", "German"]},
    )
    aircraft: int | None = Field(
        default=None, ge=0, le=20, description="Allied aircraft markers in the counter mix (11.1, 18.1)."
    )
    # The book prints no map size (12.1 names hex 1534 and "any easternmost map hex"): the club's copy does.
    last_column: int | None = Field(
        default=None,
        ge=1,
        le=99,
        description="The map's easternmost column as printed: the first two digits of its east edge hexes.",
    )
    last_row: int | None = Field(
        default=None,
        ge=1,
        le=99,
        description="The map's southernmost row as printed: the last two digits of its south edge hexes.",
    )


# What each counted list is, in the book's words (12.1), and the rule that counts it.
COUNTED = (
    ("peaks", PEAK_HEXES, "peak hexes printed on the map", "12.1 Victory Points"),
    ("vimy_town", VIMY_TOWN_HEXES, "Vimy town hexes", "12.1 Victory Points"),
    ("petit_vimy_town", PETIT_VIMY_TOWN_HEXES, "town hexes of Petit Vimy", "12.1 Victory Points"),
)
NUMBER_WORDS = {2: "two"}


def checked(club: ClubData, at: str = "club") -> None:
    """Refuse an entry that contradicts what the book prints of it: a RulesError naming the field, its sentence
    in the book's words with its rule (no list of values: the sentence says what the book prints)."""
    for name, n, what, rule in COUNTED:
        hexes = getattr(club, name)
        if hexes is not None and len(set(hexes)) != n:
            count = NUMBER_WORDS.get(n, str(n))
            raise RulesError(
                f"{at}.{name}",
                f"Enter the {count} different {what}: {len(set(hexes))} given (12.1).",
                source=cite(rule),
            )
    if club.artillery_track is not None:
        if tuple(club.artillery_track[1]) != TURN_TWO_ALLOTMENT:
            allied, german = TURN_TWO_ALLOTMENT
            raise RulesError(
                f"{at}.artillery_track.1",
                f"The Artillery Track prints 8/5 on the second game turn: {allied} Allied, {german} German (17.1).",
                source=cite("17.1 Artillery Bombardment Limitations"),
            )
        for i, (allied, german) in enumerate(club.artillery_track):
            if allied + german > TOTAL_MARKERS:
                raise RulesError(
                    f"{at}.artillery_track.{i}",
                    f"Game turn {i + 1} gives {allied + german} markers: both sides share the "
                    f"{TOTAL_MARKERS} bombardment markers (11.1).",
                    source=cite("11.1 Set up Sequence"),
                )


# The board keys the club's entries are kept under (the field names), and what the game derives.
CLUB_KEYS: tuple[str, ...] = tuple(ClubData.model_fields)


class ClubDataRequest(VimyRequest):
    """The club's entries as a dice-less roll the game logs (undoable like any act)."""

    club: ClubData = Field(description="What the club's own copy gives; fields left out are kept.")


@VimyRidge.resolver
class ClubDataEntry(Resolver[ClubDataRequest]):
    id = "club-data"
    summary = "Enter what the club's own copy gives: key hexes, turn track, artillery track, aircraft"
    Request = ClubDataRequest
    examples = ({"club": {"peaks": [f"{1000 + i}" for i in range(PEAK_HEXES)]}},)

    def dice(self, req: ClubDataRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: ClubDataRequest, ctx: Context) -> None:
        checked(req.club)

    def evaluate(self, req: ClubDataRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        entered = req.club.model_dump(exclude_none=True)
        return Evaluation(
            key="entered",
            outcome={"entered": sorted(entered), "the_club_s": sorted(entered)},
            sources=(CLUB,),
            details={
                "notes": [
                    f"{k} is the club's value, not printed in the exclusive rules" for k in sorted(entered)
                ]
            },
        )


def club_value(board: Any, key: str) -> Any:
    """A club entry on the game's board, or None where the club has not entered it."""
    return board.get(key) if hasattr(board, "get") else None


VimyRidge.add_errata(
    Erratum(
        "replacement-steps",
        "What one replacement brings back (11.3, 11.6)",
        (
            Reading(
                "one-step-each",
                "Each replacement gives a counter back one step: an eliminated unit returns depleted for one, "
                "full for two; a depleted one is rebuilt for one ('two depleted ... units onto the map, or to "
                "rebuild any two depleted ... units').",
                cite("11.3 Allied Replacements"),
                "step",
            ),
            Reading(
                "whole-unit",
                "One replacement brings 'any eliminated unit onto the map' at the strength the players choose; "
                "a rebuild of a depleted unit is one more.",
                cite("11.3 Allied Replacements"),
                "unit",
            ),
        ),
        default="one-step-each",
        note="11.3 lists 'any eliminated unit', 'two depleted units' and 'any two depleted units' as uses of "
        "the two replacements without saying what one costs.",
    ),
    Erratum(
        "trench-crossing",
        "An attack by several units of which only some attack across a trench hexside (14.2)",
        (
            Reading(
                "any-crossing",
                "The trench line is used when the attack occurs from across a trench hexside for any attacker "
                "('if the attack occurs from across the trench line hexside symbol').",
                cite("14.2 Trench Lines"),
                "any",
            ),
            Reading(
                "all-crossing",
                "The trench line is used only when every attacker attacks across a trench hexside; otherwise the "
                "hex's other terrain ('If a unit is attacked from another direction').",
                cite("14.2 Trench Lines"),
                "all",
            ),
        ),
        default="any-crossing",
    ),
    Erratum(
        "vp-moment",
        "When the Canadian side's 2 VP win (12.1 'accumulates no less than two (2) VP before the end of the "
        "last game turn')",
        (
            Reading(
                "game-end",
                "At the end of the last game turn: each VP is the side's that 'was the last to have occupied' "
                "its hexes, or units that 'currently occupy' the easternmost hexes, which settles only when no "
                "turn is left; only the Vimy and elimination wins are 'instantly' (12.1, 12.2).",
                f"{cite('12.1 Victory Points')}; {cite('12.2 German Victory')}",
                "end",
            ),
            Reading(
                "any-moment",
                "As soon as the tally reaches 2 VP, before the last turn ends ('accumulates ... before the end "
                "of the last game turn').",
                cite("12.1 Victory Points"),
                "any",
            ),
        ),
        default="game-end",
        note="The text does not forbid the any-moment reading, but its 'instantly' for the Vimy win alone, "
        "'the last to have occupied' and 'currently occupy' are the book's own words for a count at the end.",
    ),
)
