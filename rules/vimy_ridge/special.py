"""Vimy Ridge: set-up zones (11.2, 11.5, 19.1, 20.2), divisional integrity (18.3), the random support-fire
draw (16.0, 8.1) with the La Folie Woods ban (18.2), and where replacements arrive (11.3, 11.6)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction
from math import comb
from typing import Literal

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Erratum, Reading, Resolver
from rules.vimy_ridge.data import REPLACEMENTS_PER_NIGHT, TURNS
from rules.vimy_ridge.observation import zoc_crosses_trench_into
from rules.vimy_ridge.resolvers import Side, TurnNumber, is_night
from rules.vimy_ridge.ruleset import VimyRequest, VimyRidge, cite

LA_FOLIE = cite("18.2 La Folie Woods")
SUPPORT_DRAW = cite("16.0 Standard Rules Modifications, 8.1 Allotted Support Fire Markers")

VimyRidge.add_errata(
    Erratum(
        "la-folie-woods-bombardment",
        "Whose bombardment La Folie Woods hexes are safe from",
        (
            Reading(
                "allied-only",
                "18.2: 'no Allied bombardment or support fire is ever permitted in any La Folie Woods hex'; the "
                "woods were 'protected from Allied guns' by the reverse slope. German bombardment is allowed.",
                LA_FOLIE,
                "allied",
            ),
            Reading(
                "all-bombardment",
                "17.2: 'No bombardment is ever possible in any \"La Folie Woods\" hex (see 18.2)': neither "
                "side may bombard there.",
                cite("17.2 Utilizing Bombardment Markers"),
                "all",
            ),
        ),
        default="allied-only",
        note="17.2 points to 18.2, which gives the reason (the ridge shields the woods from Allied guns only).",
    ),
    Erratum(
        "zero-hour",
        "Whether the Allies bombard (and use gas) on turn 1, when the game begins with their combat phase",
        (
            Reading(
                "bombard-at-zero-hour",
                "Bombardment happens 'at the end of a player's movement phase, before his combat phase' (17.2), "
                "so at zero hour the Allied turn-1 bombardment (with gas, 17.6) is made just before the combat "
                "phase that begins the game; otherwise the first-turn gas rule could never apply.",
                f"{cite('15.2 Zero Hour')}; {cite('17.6 Gas')}",
                True,
            ),
            Reading(
                "no-turn-1-bombardment",
                "The game begins with the Allied combat phase (15.2), after the Allied movement phase and its "
                "bombardment: no Allied bombardment, and so no gas, on turn 1.",
                cite("15.2 Zero Hour"),
                False,
            ),
        ),
        default="bombard-at-zero-hour",
    ),
    Erratum(
        "german-replacement-zoc",
        "German replacements and enemy zones of control: '..., or within any enemy unit's ZOC'",
        (
            Reading(
                "not-in-enemy-zoc",
                "Read as the Allied rule (11.3, 'not within any enemy ZOC'): a German replacement may not "
                "arrive within an enemy zone of control.",
                f"{cite('11.6 German Replacements')}; {cite('11.3 Allied Replacements')}",
                False,
            ),
            Reading(
                "literal",
                "Read literally: a hex within an enemy unit's ZOC is one more place a German replacement may "
                "arrive.",
                cite("11.6 German Replacements"),
                True,
            ),
        ),
        default="not-in-enemy-zoc",
        note="The clause reads like a dropped 'nor'; the Allied rule forbids arriving in an enemy ZOC.",
    ),
)


# -- set-up ------------------------------------------------------------------------------------------------
GermanDivision = Literal["16th Bavarian", "79th Reserve", "1st Bavarian Reserve"]
# 19.1 "the 16th Division to the north, the 79th Division in the middle, and the 1st Division to the south"
NORTH_TO_SOUTH: tuple[GermanDivision, ...] = ("16th Bavarian", "79th Reserve", "1st Bavarian Reserve")
_DIVISION_FIELD = {
    "16th Bavarian": "16th_bavarian",
    "79th Reserve": "79th_reserve",
    "1st Bavarian Reserve": "1st_bavarian_reserve",
}


class SetUpRequest(VimyRequest):
    side: Side
    north_of_river_line: bool = Field(default=False, description="The hex is north of the river hex line.")
    trench_line_side: Literal["west", "east"] = Field(
        description="Which side of the Allied trench line the hex lies on."
    )
    hex_occupied: bool = Field(default=False, description="A unit of the same side is already set up there.")
    german_still_setting_up: bool = Field(
        default=False, description="The German player has not finished setting up (the Allies set up second)."
    )
    german_division: GermanDivision | None = Field(
        default=None, description="For a German unit: its division."
    )
    units_north_16th_bavarian: bool = Field(
        default=False, description="German 16th Bavarian units are already set up north of this hex."
    )
    units_north_79th_reserve: bool = Field(
        default=False, description="German 79th Reserve units are already set up north of this hex."
    )
    units_north_1st_bavarian_reserve: bool = Field(
        default=False, description="German 1st Bavarian Reserve units are already set up north of this hex."
    )
    units_south_16th_bavarian: bool = Field(
        default=False, description="German 16th Bavarian units are already set up south of this hex."
    )
    units_south_79th_reserve: bool = Field(
        default=False, description="German 79th Reserve units are already set up south of this hex."
    )
    units_south_1st_bavarian_reserve: bool = Field(
        default=False, description="German 1st Bavarian Reserve units are already set up south of this hex."
    )


@VimyRidge.resolver
class SetUp(Resolver[SetUpRequest]):
    id = "set-up"
    summary = "May this unit be set up in this hex? Set-up zones, one unit per hex, German division order"
    Request = SetUpRequest
    examples = (
        {"side": "allied", "trench_line_side": "west"},
        {
            "side": "german",
            "trench_line_side": "east",
            "german_division": "79th Reserve",
            "units_north_16th_bavarian": True,
        },
    )

    def dice(self, req: SetUpRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: SetUpRequest, ctx: Context) -> None:
        if req.north_of_river_line:
            raise RulesError(
                "north_of_river_line",
                "no unit of either side may be set up north of the river hex line",
                [False],
            )
        if req.hex_occupied:
            raise RulesError("hex_occupied", "one unit per hex at set-up (19.1, 20.2)", [False])
        if req.side == "allied":
            if req.trench_line_side != "west":
                raise RulesError(
                    "trench_line_side", "Allied units set up west of the Allied trench line", ["west"]
                )
            if req.german_still_setting_up:
                raise RulesError(
                    "german_still_setting_up", "the German player sets up all his units first", [False]
                )
            if req.german_division is not None:
                raise RulesError("german_division", "an Allied unit has no German division", [None])
            return
        if req.trench_line_side == "west":
            raise RulesError(
                "trench_line_side",
                "no German unit is set up west of the Allied trench hexside line",
                ["east"],
            )
        if req.german_division is None:
            raise RulesError("german_division", "name the German unit's division", NORTH_TO_SOUTH)
        rank = NORTH_TO_SOUTH.index(req.german_division)
        for other_rank, other in enumerate(NORTH_TO_SOUTH):
            name = _DIVISION_FIELD[other]
            # A division further south may not already stand north of this unit, nor one further north south of it.
            if other_rank > rank and getattr(req, f"units_north_{name}"):
                raise RulesError(
                    f"units_north_{name}",
                    f"the {req.german_division} Division sets up north of every unit of the {other} Division",
                    [False],
                )
            if other_rank < rank and getattr(req, f"units_south_{name}"):
                raise RulesError(
                    f"units_south_{name}",
                    f"the {req.german_division} Division sets up south of every unit of the {other} Division",
                    [False],
                )

    def evaluate(self, req: SetUpRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        if req.side == "allied":
            sources = (cite("11.2 Allied Initial Deployment"), cite("20.2 Allied Set-up"))
            zone = "south of the river hex line, west of the Allied trench line"
        else:
            sources = (cite("11.5 German Initial Deployment"), cite("19.1 German Set-up"))
            zone = (
                "south of the river hex line, east of the Allied trench line; 16th Bavarian to the north, "
                "79th Reserve in the middle, 1st Bavarian Reserve to the south"
            )
        return Evaluation(
            key="allowed",
            outcome={"allowed": True, "zone": zone},
            sources=sources,
            details={"notes": ["The German player sets up all his units first (11.1)."]},
        )


# -- divisional integrity ------------------------------------------------------------------------------
class AttackersRequest(VimyRequest):
    attacking_units: int = Field(ge=1, le=12, description="Units taking part in this one attack.")
    divisions_among_attackers: int = Field(
        default=1, ge=1, le=12, description="Different divisions (counter colours) among those units."
    )


@VimyRidge.resolver
class DivisionalIntegrity(Resolver[AttackersRequest]):
    id = "divisional-integrity"
    summary = "May these units attack the same enemy unit together? Only units of one division may"
    Request = AttackersRequest
    examples = ({"attacking_units": 3, "divisions_among_attackers": 1},)

    def dice(self, req: AttackersRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: AttackersRequest, ctx: Context) -> None:
        if req.divisions_among_attackers > req.attacking_units:
            raise RulesError(
                "divisions_among_attackers",
                "more divisions than attacking units",
                range(1, req.attacking_units + 1),
            )
        if req.divisions_among_attackers > 1:
            raise RulesError(
                "divisions_among_attackers",
                "attack with one division's units: others make a separate attack on the same enemy (18.3)",
                [1],
                why="only units of the same division may take part in the same attack (18.3); units of other "
                "divisions may make a separate attack on the same enemy unit",
            )

    def evaluate(self, req: AttackersRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        return Evaluation(
            key="allowed",
            outcome={"allowed": True, "attacking_units": req.attacking_units},
            sources=(cite("18.3 Divisional Integrity"),),
        )


# -- support fire: the random draw and La Folie Woods -----------------------------------------------------
MAX_MIX = 16
MIX_PATTERN = r"^\s*\d{1,2}(\s*,\s*\d{1,2}){0,15}\s*$"


def parse_mix(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.split(r"\s*,\s*", text.strip()))


def drawn(mix: tuple[int, ...], dice: tuple[int, ...]) -> tuple[int, ...]:
    """The markers the dice pick: each die (D of the markers left) takes that one, counting along the row."""
    left = list(mix)
    out = []
    for d in dice:
        out.append(left.pop(d - 1))
    return tuple(sorted(out))


def draw_key(strengths: tuple[int, ...]) -> str:
    return "+".join(str(s) for s in sorted(strengths))


class SupportFireRequest(VimyRequest):
    side: Side
    allotted: int = Field(ge=0, le=MAX_MIX, description="Support fire markers the side is allotted.")
    allotment_is_maximum: bool = Field(
        default=False, description="The allotment is the maximum (then markers are not drawn at random)."
    )
    mix: str = Field(
        default="1,2,3",
        max_length=80,
        pattern=MIX_PATTERN,
        description="Printed strengths of the side's support fire markers in the counter mix, in a row, "
        "comma separated (e.g. 1,1,2,3).",
    )
    target_in_la_folie_woods: bool = Field(
        default=False,
        description="The fire would land in a La Folie Woods hex (woods within 7 hexes of Petit Vimy).",
    )


@VimyRidge.resolver
class SupportFireDraw(Resolver[SupportFireRequest]):
    id = "support-fire-draw"
    summary = "Draw the allotted support fire markers at random (and never Allied fire into La Folie Woods)"
    Request = SupportFireRequest
    examples = (
        {"side": "allied", "allotted": 2, "mix": "1,2,2,3,4"},
        {"side": "german", "allotted": 1, "mix": "1,2,3", "dice": [3]},
    )

    def check(self, req: SupportFireRequest, ctx: Context) -> None:
        if req.target_in_la_folie_woods and req.side == "allied":
            raise RulesError(
                "target_in_la_folie_woods",
                "no Allied bombardment or support fire is ever permitted in a La Folie Woods hex (18.2)",
                [False],
            )
        n = len(parse_mix(req.mix))
        if req.allotted > n:
            raise RulesError("allotted", f"only {n} markers in the mix", range(0, n + 1))

    def drawing(self, req: SupportFireRequest) -> bool:
        return not req.allotment_is_maximum and 0 < req.allotted < len(parse_mix(req.mix))

    def dice(self, req: SupportFireRequest, ctx: Context) -> tuple[int, ...]:
        if not self.drawing(req):
            return ()
        n = len(parse_mix(req.mix))
        return tuple(n - i for i in range(req.allotted))

    def evaluate(self, req: SupportFireRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mix = parse_mix(req.mix)
        sources = [SUPPORT_DRAW]
        if req.target_in_la_folie_woods:
            sources.append(LA_FOLIE)
        if not self.drawing(req):
            taken = mix if req.allotted == len(mix) else ()
            note = (
                "the whole mix is allotted: take every marker"
                if req.allotted == len(mix)
                else "the allotment is maximum: no random draw; the standard rule 8.1 applies"
                if req.allotment_is_maximum
                else "nothing is allotted"
            )
            return Evaluation(
                key="no draw",
                outcome={"drawn": list(sorted(taken)), "note": note},
                sources=tuple(sources),
            )
        got = drawn(mix, dice)
        return Evaluation(
            key=draw_key(got),
            outcome={"drawn": list(got), "total_strength": sum(got)},
            total=sum(got),
            sources=tuple(sources),
            details={
                "how_to_roll": "Lay the markers face down in the order listed; each die picks one of those "
                "still in the row, counting from the left (the first die has as many sides as markers)."
            },
        )

    def probabilities(self, req: SupportFireRequest, ctx: Context) -> dict[str, Fraction]:
        if not self.drawing(req):
            return {"no draw": Fraction(1)}
        # Every set of `allotted` markers is equally likely: count the sets, not the ordered draws.
        mix = parse_mix(req.mix)
        counts = Counter(
            draw_key(tuple(mix[i] for i in idx))
            for idx in itertools.combinations(range(len(mix)), req.allotted)
        )
        total = comb(len(mix), req.allotted)
        return {k: Fraction(v, total) for k, v in counts.items()}


# -- replacements ------------------------------------------------------------------------------------------
def in_enemy_zoc(ctx: Context, req: ReplacementRequest) -> bool:
    """Whether the (empty) arrival hex is within an enemy ZOC, once a trench hexside has had its say."""
    across_only = req.enemy_zoc_only_across_trench
    return req.arrival_in_enemy_zoc and (not across_only or zoc_crosses_trench_into(ctx, occupied=False))


Arrival = Literal["allied-trench-hex", "east-edge", "next-to-trench-hexside", "other"]


class ReplacementRequest(VimyRequest):
    side: Side
    turn: int = TurnNumber
    eliminated_units_returned: int = Field(
        default=0,
        ge=0,
        le=2,
        description="Eliminated units brought back at full strength (two replacements each).",
    )
    depleted_units_returned: int = Field(
        default=0, ge=0, le=2, description="Eliminated units brought back depleted (one replacement each)."
    )
    units_rebuilt: int = Field(
        default=0, ge=0, le=2, description="Depleted units on the map rebuilt (one replacement each)."
    )
    rebuilt_unit_moved_this_turn: bool = Field(
        default=False, description="A unit to be rebuilt moved during this night turn."
    )
    arrival: Arrival = Field(
        default="other",
        description="Where returning units arrive: an Allied trench hex; an easternmost map edge hex; an "
        "unoccupied hex next to a trench hexside not adjacent to No Man's Land; or elsewhere.",
    )
    arrival_in_enemy_zoc: bool = Field(default=False, description="The arrival hex is within an enemy ZOC.")
    enemy_zoc_only_across_trench: bool = Field(
        default=False,
        description="Every enemy ZOC on the arrival hex reaches it across a trench hexside (whether that ZOC "
        "reaches an empty hex is erratum trench-zoc's).",
    )


@VimyRidge.resolver
class Replacement(Resolver[ReplacementRequest]):
    id = "replacement"
    summary = "Night replacements: what two replacements buy, and where returning units may arrive"
    Request = ReplacementRequest
    examples = (
        {"side": "allied", "turn": 3, "eliminated_units_returned": 1, "arrival": "allied-trench-hex"},
        {
            "side": "german",
            "turn": 3,
            "depleted_units_returned": 1,
            "units_rebuilt": 1,
            "arrival": "east-edge",
        },
    )

    def dice(self, req: ReplacementRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def used(self, req: ReplacementRequest) -> int:
        return 2 * req.eliminated_units_returned + req.depleted_units_returned + req.units_rebuilt

    def allowed_arrivals(self, req: ReplacementRequest) -> list[str]:
        if req.side == "allied":
            return ["allied-trench-hex"]
        return ["east-edge", "next-to-trench-hexside"]

    def check(self, req: ReplacementRequest, ctx: Context) -> None:
        if not is_night(ctx, req.turn):
            raise RulesError(
                "turn",
                "replacements come only on night turns (11.3, 11.6)",
                [t.number for t in TURNS if is_night(ctx, t.number)],
            )
        if self.used(req) > REPLACEMENTS_PER_NIGHT:
            raise RulesError(
                "eliminated_units_returned" if req.eliminated_units_returned else "depleted_units_returned",
                f"{REPLACEMENTS_PER_NIGHT} replacements a night: one eliminated unit, or two depleted units "
                "brought back or rebuilt",
                range(0, REPLACEMENTS_PER_NIGHT + 1),
            )
        if req.units_rebuilt and req.rebuilt_unit_moved_this_turn:
            raise RulesError(
                "rebuilt_unit_moved_this_turn",
                "no unit that moved during that same night turn may be rebuilt",
                [False],
            )
        if req.enemy_zoc_only_across_trench and not req.arrival_in_enemy_zoc:
            raise RulesError(
                "enemy_zoc_only_across_trench", "only an arrival hex within an enemy ZOC has one", [False]
            )
        if req.eliminated_units_returned + req.depleted_units_returned == 0:
            return
        in_zoc = in_enemy_zoc(ctx, req)
        if req.side == "german" and in_zoc and ctx.value("german-replacement-zoc"):
            return  # read literally, any hex within an enemy ZOC is a German arrival hex
        if req.arrival not in self.allowed_arrivals(req):
            raise RulesError(
                "arrival", f"{req.side} replacements may not arrive there", self.allowed_arrivals(req)
            )
        if in_zoc:
            raise RulesError(
                "arrival_in_enemy_zoc", "a replacement may not arrive within an enemy ZOC", [False]
            )

    def evaluate(self, req: ReplacementRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        src = cite("11.3 Allied Replacements") if req.side == "allied" else cite("11.6 German Replacements")
        sources = [src, cite("13.1 Night")]
        if req.side == "german":
            sources.append(ctx.citation("german-replacement-zoc"))
        if req.enemy_zoc_only_across_trench:
            sources.append(ctx.citation("trench-zoc"))
        unused = REPLACEMENTS_PER_NIGHT - self.used(req)
        return Evaluation(
            key="allowed",
            outcome={"allowed": True, "replacements_used": self.used(req), "replacements_lost": unused},
            sources=tuple(sources),
            details={
                "notes": [
                    "Replacements cannot be saved for a later turn; an unused one is lost.",
                    "Returning units arrive in the movement phase of this night turn and are the only units "
                    "that may move at night.",
                    "A depleted unit on the map may be rebuilt even within an enemy ZOC.",
                ]
            },
        )
