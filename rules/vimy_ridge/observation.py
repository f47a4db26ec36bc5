"""Vimy Ridge: who can observe (and so bombard) whom (17.3), and what a trench hexside does to zones of
control and to the combat results table line (14.1, 14.2)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Erratum, Reading, Resolver
from rules.vimy_ridge.data import LAST_TURN, TERRAINS, Terrain, line_of
from rules.vimy_ridge.resolvers import Side, is_night
from rules.vimy_ridge.ruleset import VimyRequest, VimyRidge, cite

OBSERVATION = cite("17.3 Observation")
TRENCH_LINES = cite("14.2 Trench Lines")
NO_MANS_LAND = cite("14.1 No Man's Land")
# The errata quote the extracted text's lines.
TRENCH_BENEFIT_LINE = cite("14.2 Trench Lines (line 107)")
TRENCH_ZOC_LINE = cite("14.2 Trench Lines (line 111)")
ALLIED_REPLACEMENTS_LINE = cite("11.3 Allied Replacements (line 63)")
MAX_LOS_HEXES = 10  # "a direction of one to 10 hexes (maximum)"

VimyRidge.add_errata(
    Erratum(
        "los-no-mans-land",
        "Whether an intervening No Man's Land hex blocks line of sight",
        (
            Reading(
                "blocks",
                "LOS is blocked by 'any non-clear intervening terrain type (except rivers and trench lines)' "
                "and the modifiers chart says 'A No Man's Land hex is not considered a clear terrain hex'.",
                f"{OBSERVATION}; {cite('Artillery Bombardment Modifiers')}",
                True,
            ),
            Reading(
                "does-not-block",
                "The clear-terrain note belongs to the bombardment modifiers; No Man's Land is open, "
                "pockmarked ground (14.1) and does not block LOS.",
                f"{OBSERVATION}; {NO_MANS_LAND}",
                False,
            ),
        ),
        default="blocks",
        note="17.3 lists only rivers and trench lines as non-clear terrain that does not block.",
    ),
    Erratum(
        "trench-zoc",
        "Which hexes a trench hexside shields from an enemy zone of control",
        (
            Reading(
                "occupied-hex",
                "'A trench line has the effect of inhibiting any enemy Zone of Control across that trench "
                "hexside into a hex that is occupied by an opposing unit': only an occupied hex is shielded; "
                "into an empty hex the zone of control extends across the trench.",
                TRENCH_ZOC_LINE,
                True,
            ),
            Reading(
                "any-hex",
                "The trench hexside inhibits any enemy zone of control across it, the hex occupied or empty "
                "(the 'opposing unit' read as the side holding the trench). An empty Allied trench hex across "
                "the trench from a German unit is then not in its ZOC, and Allied replacements may arrive "
                "there ('arriving in any Allied trench hex (not within any enemy ZOC)').",
                f"{TRENCH_ZOC_LINE}; {ALLIED_REPLACEMENTS_LINE}",
                False,
            ),
        ),
        default="occupied-hex",
        note="The default follows the words, which name an occupied hex. The reading decides where Allied "
        "replacements may arrive (11.3): under it an empty Allied trench hex facing a German unit across the "
        "trench is within that unit's ZOC, and closed to them (the replacement lookup's "
        "enemy_zoc_only_across_trench).",
    ),
    Erratum(
        "trench-nationality",
        "Whose trench line gives the trench line of the CRT: 'across an enemy trench hexside'",
        (
            Reading(
                "any-trench",
                "'regardless of which side of the trench line hexside the attack is from, and regardless of the "
                "nationality of the trench line, and regardless of which side originally occupied that same "
                "hex': any trench hexside the attack crosses gives the trench line.",
                TRENCH_BENEFIT_LINE,
                ("defender", "attacker"),
            ),
            Reading(
                "enemy-trench-only",
                "'When any attack is directed across an enemy trench hexside, the attack must be resolved via "
                "the trench terrain line': only a trench of the defender's side (an enemy trench to the "
                "attacker) does; across the attacker's own trench line the hex's other terrain is used.",
                TRENCH_ZOC_LINE,
                ("defender",),
            ),
        ),
        default="any-trench",
        note="14.2 says three times that the side does not matter; 'enemy' in the combat sentence is read as "
        "the usual case (the trench faces the attacker), not as a condition.",
    ),
)


class Intervening(BaseModel):
    """Terrain in the hexes between the observer's hex and the target's (the observer's own is disregarded)."""

    model_config = ConfigDict(extra="forbid")

    peak: bool = Field(default=False, description="A peak hex lies between.")
    hill: bool = Field(default=False, description="A hill hex (not a peak) lies between.")
    woods: bool = Field(default=False, description="A woods hex lies between.")
    town: bool = Field(default=False, description="A town hex lies between.")
    la_folie_farm: bool = Field(default=False, description="La Folie Farm lies between.")
    no_mans_land: bool = Field(
        default=False, title="No Man's Land", description="A No Man's Land hex lies between."
    )
    river: bool = Field(default=False, description="A river lies between (never blocks).")
    trench_line: bool = Field(default=False, description="A trench line lies between (never blocks).")


class ObservationRequest(VimyRequest):
    observing_side: Side = Field(description="The side that wants to observe (and bombard) the enemy unit.")
    distance_hexes: int = Field(
        ge=1, le=40, description="Hexes from the nearest observing unit to the enemy unit (1: adjacent)."
    )
    observer_on: Literal["peak", "hill", "other"] = Field(
        default="other", description="The observing unit's hex: a peak, a hill that is not a peak, or other."
    )
    intervening: Intervening = Field(default_factory=Intervening)
    turn: int | None = Field(
        default=None, ge=1, le=LAST_TURN, description="Game turn; at night LOS reaches adjacent hexes only."
    )
    aircraft_over_or_adjacent: bool = Field(
        default=False,
        description="An Allied aircraft marker is in the enemy unit's hex or an adjacent hex.",
    )


@VimyRidge.resolver
class Observation(Resolver[ObservationRequest]):
    id = "observation"
    summary = "Is an enemy unit observed (and so open to bombardment)? Adjacency, line of sight, aircraft"
    Request = ObservationRequest
    examples = (
        {"observing_side": "allied", "distance_hexes": 6, "intervening": {"woods": True}},
        {
            "observing_side": "german",
            "distance_hexes": 8,
            "observer_on": "peak",
            "intervening": {"town": True},
        },
    )

    def dice(self, req: ObservationRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: ObservationRequest, ctx: Context) -> None:
        if req.aircraft_over_or_adjacent and req.observing_side != "allied":
            raise RulesError(
                "aircraft_over_or_adjacent",
                "only the Allied player has aircraft markers (11.1, 17.3)",
                [False],
            )

    def blockers(self, req: ObservationRequest, ctx: Context) -> list[str]:
        """Intervening terrain that blocks this observer's LOS."""
        iv = req.intervening
        present = {
            "peak": iv.peak,
            "hill": iv.hill,
            "woods": iv.woods,
            "town": iv.town,
            "La Folie Farm": iv.la_folie_farm,
            "No Man's Land": iv.no_mans_land and bool(ctx.value("los-no-mans-land")),
        }
        if req.observer_on == "peak":
            # "an observing unit that occupies a peak ... ignores all intervening terrain, except another peak"
            return ["peak"] if iv.peak else []
        return [name for name, there in present.items() if there]

    def evaluate(self, req: ObservationRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        sources = [OBSERVATION]
        night = req.turn is not None and is_night(ctx, req.turn)
        if night:
            sources.append(ctx.citation("turn-track"))
        if req.intervening.no_mans_land and req.observer_on != "peak":
            sources.append(ctx.citation("los-no-mans-land"))
        reasons: list[str] = []
        if req.distance_hexes == 1:
            reasons.append("adjacent to an observing unit")
        if req.aircraft_over_or_adjacent:
            reasons.append(
                "an Allied aircraft marker observes its hex and the adjacent hexes, regardless of terrain"
            )
        blocked = self.blockers(req, ctx)
        why_no_los = ""
        if night and req.distance_hexes > 1:
            why_no_los = "no LOS beyond an adjacent hex during a night turn"
        elif req.distance_hexes > MAX_LOS_HEXES:
            why_no_los = f"LOS reaches {MAX_LOS_HEXES} hexes at most"
        elif blocked:
            why_no_los = "LOS blocked by intervening " + ", ".join(blocked)
        elif req.distance_hexes > 1:
            reasons.append(f"line of sight over {req.distance_hexes} hexes")
        observed = bool(reasons)
        return Evaluation(
            key="observed" if observed else "not observed",
            outcome={
                "observed": observed,
                "may_be_bombarded": observed,
                "because": reasons,
                "no_line_of_sight_because": why_no_los or None,
            },
            sources=tuple(sources),
            details={
                "notes": [
                    "Only observed enemy units can be bombarded (17.1 note, 17.2).",
                    "Rivers and trench lines never block LOS; the observer's own hex is disregarded.",
                ]
            },
        )


# -- zones of control and the trench hexside ------------------------------------------------------------
def zoc_crosses_trench_into(ctx: Context, occupied: bool) -> bool:
    """Whether an enemy ZOC extends across a trench hexside into a hex, occupied by a unit opposing it or
    empty (erratum trench-zoc)."""
    return not occupied and bool(ctx.value("trench-zoc"))


class ZocRequest(VimyRequest):
    across_trench_hexside: bool = Field(
        description="The zone of control would extend across a trench line hexside."
    )
    hex_holds_opposing_unit: bool = Field(
        description="The hex it would extend into is occupied by a unit opposing the unit exerting it."
    )


@VimyRidge.resolver
class ZoneOfControl(Resolver[ZocRequest]):
    id = "zone-of-control"
    summary = "Does a zone of control extend into a hex across a trench hexside?"
    Request = ZocRequest
    examples = ({"across_trench_hexside": True, "hex_holds_opposing_unit": True},)

    def dice(self, req: ZocRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: ZocRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        # "A trench line has the effect of inhibiting any enemy Zone of Control across that trench hexside
        # into a hex that is occupied by an opposing unit."
        inhibited = req.across_trench_hexside and not zoc_crosses_trench_into(
            ctx, req.hex_holds_opposing_unit
        )
        return Evaluation(
            key="inhibited" if inhibited else "extends",
            outcome={
                "zone_of_control_extends": not inhibited,
                "why": "inhibited by the trench hexside"
                if inhibited
                else "the trench rule does not inhibit it; zones of control otherwise follow the standard rules",
            },
            sources=(TRENCH_LINES, cite("10.2 Special Rules"), ctx.citation("trench-zoc")),
            details={
                "notes": [
                    "A trench hexside has no effect on movement (14.3).",
                    "Allied replacements may not arrive in a trench hex within an enemy ZOC (11.3).",
                ]
            },
        )


class TrenchAttackRequest(VimyRequest):
    across_trench_hexside: bool = Field(description="The attack comes across a trench line hexside symbol.")
    hex_terrain: Terrain = Field(
        default="clear", description="Other terrain in the defender's hex (used when not across the trench)."
    )
    defender_in_no_mans_land: bool = Field(
        default=False, title="Defender in No Man's Land", description="The defender is in No Man's Land."
    )
    trench_of: Literal["defender", "attacker"] = Field(
        default="defender",
        description="Whose side's trench line the hexside is: the defender's (an enemy trench to the "
        "attacker), or the attacker's own (e.g. a German trench the Canadians took, attacked by Germans).",
    )


@VimyRidge.resolver
class TrenchAttack(Resolver[TrenchAttackRequest]):
    id = "trench-hexside"
    summary = "Which combat results table line a ground attack uses, across a trench hexside or not"
    Request = TrenchAttackRequest
    examples = ({"across_trench_hexside": True, "hex_terrain": "town"},)

    def dice(self, req: TrenchAttackRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: TrenchAttackRequest, ctx: Context) -> None:
        if req.hex_terrain == "trench":
            raise RulesError(
                "hex_terrain",
                "a trench is a hexside, not the terrain of a hex: say whether the attack crosses it",
                [t for t in TERRAINS if t != "trench"],
            )
        if req.defender_in_no_mans_land and req.across_trench_hexside:
            raise RulesError(
                "across_trench_hexside",
                "a unit attacked in No Man's Land is never advantaged by a trench line (14.1)",
                [False],
            )

    def evaluate(self, req: TrenchAttackRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        trench = req.across_trench_hexside and req.trench_of in ctx.value("trench-nationality")
        terrain: Terrain = "trench" if trench else req.hex_terrain
        sources = [TRENCH_LINES, cite("Integrated Combat Results Table")]
        if req.across_trench_hexside:
            sources.append(ctx.citation("trench-nationality"))
        if req.defender_in_no_mans_land:
            sources.append(NO_MANS_LAND)
        return Evaluation(
            key=line_of(terrain),
            outcome={"crt_line": line_of(terrain), "combat_terrain": terrain},
            sources=tuple(sources),
            details={
                "notes": [
                    "The trench's benefit applies whichever side of it the attack comes from and whoever "
                    "built or first held it (14.2)"
                    if ctx.reading("trench-nationality") == "any-trench"
                    else "Read as 'an enemy trench hexside': only the defender's side's trench line counts.",
                    "A trench line hexside can never be breached by a bombardment.",
                ]
                + (
                    ["The defence factor is halved, fractions rounded down (14.1)."]
                    if req.defender_in_no_mans_land
                    else []
                )
            },
        )
