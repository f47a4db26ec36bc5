"""2mm Earth 1418: the Arming value of a mixed artillery formation (its mean), the transport bonus lost with
the command bases, and an injured platoon's movement under the "same shooter" rule; with the errata for
dug-in artillery and for whose rolls against vehicles are re-rolled."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Erratum, Reading, Resolver
from rules.earth2mm.data import (
    SPEEDS_CM,
    SRC_ARMING,
    SRC_ARTILLERY,
    SRC_COVER,
    SRC_ORDER,
    SRC_TRANSPORT,
    SRC_UNITS,
    SRC_VEHICLES,
    TRANSPORT_MAX_CM,
    TRANSPORT_PERCENT,
    UNITS,
)
from rules.earth2mm.resolvers import RecoveryRequest, UnitId, recovers, recovery_resilience
from rules.earth2mm.ruleset import Earth2mm, EarthRequest, cite

SRC_CASUALTIES = cite("CASUALTIES & ENDING THE BOUND")
SRC_TRANSPORT_VEHICLES = cite("SPECIAL TROOP TYPES: Transport Vehicles")

Earth2mm.add_errata(
    Erratum(
        "dug-in-artillery",
        "Whether artillery can be dug in",
        (
            Reading(
                "never",
                "'all artillery has to spend one bound packing or unpacking to move/fire, and can never dig in'",
                SRC_ARTILLERY,
                False,
            ),
            Reading(
                "order-chart",
                "The executing order's first step, 'All dug in (for 1 bound or longer) Artillery and Heavy "
                "Weapons, now shoot', lets artillery be dug in like heavy weapons.",
                SRC_ORDER,
                True,
            ),
        ),
        default="never",
        note="The artillery rule forbids it in so many words; the order chart names artillery and heavy "
        "weapons together, and only heavy weapons can be dug in under the default.",
    ),
    Erratum(
        "reroll-shooters",
        "Whose rolls against vehicles are re-rolled: cavalry's and tanks' as well?",
        (
            Reading(
                "all-but-artillery",
                "'all infantry and heavy weapon rolls against them must be re-rolled (field guns and artillery "
                "don't)': artillery is the only exception, so cavalry and tanks (which 'work as normal "
                "infantry') re-roll too.",
                SRC_VEHICLES,
                ("infantry", "heavy-weapon", "command", "cavalry", "vehicle"),
            ),
            Reading(
                "infantry-and-heavy-weapons",
                "Only the troops named, infantry and heavy weapons (command bases are heavy weapons), "
                "re-roll; cavalry and vehicles do not.",
                SRC_VEHICLES,
                ("infantry", "heavy-weapon", "command"),
            ),
        ),
        default="all-but-artillery",
    ),
    Erratum(
        "mixed-artillery-mean",
        "The mean Arming value of a mixed artillery formation",
        (
            Reading(
                "per-base",
                "The mean of the formation's bases' Arming dice (and of their + bonuses), so each base counts; "
                "shots = mean x bases firing, and a bonus that is not whole, rounded down.",
                SRC_ARTILLERY,
                "bases",
            ),
            Reading(
                "per-type",
                "The mean over the kinds of gun in the formation, each kind counted once; shots = mean x bases "
                "firing, rounded down, and the bonus likewise.",
                SRC_ARTILLERY,
                "types",
            ),
        ),
        default="per-base",
        note="'use the mean value if it is a mixed unit' says neither what is averaged nor how fractions go; "
        "the text rounds nothing up anywhere.",
    ),
)


# -- mixed artillery ---------------------------------------------------------------------------------------
GUNS: tuple[tuple[str, str], ...] = (
    ("field_guns", "field-guns"),
    ("light_howitzers", "light-howitzers"),
    ("howitzers_120", "howitzers-120"),
    ("very_heavy_guns", "very-heavy-guns"),
)


class MixedArtilleryRequest(EarthRequest):
    field_guns: int = Field(default=0, ge=0, le=30, description="75/77 field gun bases in the formation.")
    light_howitzers: int = Field(default=0, ge=0, le=30, description="105 light howitzer bases.")
    howitzers_120: int = Field(default=0, ge=0, le=30, description="120 howitzer bases.")
    very_heavy_guns: int = Field(default=0, ge=0, le=30, description="Very heavy gun bases.")
    bases_firing: int = Field(ge=1, le=120, description="Bases of the formation firing this bombardment.")


def mean_arming(ctx: Context, req: MixedArtilleryRequest) -> tuple[Fraction, Fraction]:
    """(mean Arming dice, mean bonus) of the formation, by the reading in force."""
    counts = {uid: getattr(req, name) for name, uid in GUNS if getattr(req, name)}
    weights = counts if ctx.value("mixed-artillery-mean") == "bases" else {uid: 1 for uid in counts}
    total = sum(weights.values())
    dice = Fraction(sum(UNITS[u].ranged.dice * w for u, w in weights.items()), total)
    bonus = Fraction(sum(UNITS[u].ranged.bonus * w for u, w in weights.items()), total)
    return dice, bonus


@Earth2mm.resolver
class MixedArtillery(Resolver[MixedArtilleryRequest]):
    id = "mixed-artillery"
    summary = "Shots of a mixed artillery formation: the mean Arming value x bases firing"
    Request = MixedArtilleryRequest
    examples = ({"field_guns": 2, "very_heavy_guns": 1, "bases_firing": 3},)

    def dice(self, req: MixedArtilleryRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: MixedArtilleryRequest, ctx: Context) -> None:
        bases = sum(getattr(req, name) for name, _ in GUNS)
        if bases == 0:
            raise RulesError("field_guns", "the formation has no artillery bases", range(1, 31))
        if req.bases_firing > bases:
            raise RulesError("bases_firing", f"the formation has {bases} bases", range(1, bases + 1))

    def evaluate(self, req: MixedArtilleryRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mean, bonus = mean_arming(ctx, req)
        shots = math.floor(mean * req.bases_firing)
        return Evaluation(
            key="shots",
            outcome={
                "mean_arming": str(mean),
                "max_shots": shots,
                "bonus": math.floor(bonus),
                "at_most_on_one_target": shots // 2,
            },
            total=shots,
            sources=(SRC_ARTILLERY, ctx.citation("mixed-artillery-mean"), SRC_UNITS),
            details={"mean_bonus": str(bonus)},
        )


# -- transport ------------------------------------------------------------------------------------------
class TransportRequest(EarthRequest):
    unit: UnitId
    transport: Literal["horse-drawn", "motorised"] = Field(
        default="motorised", description="Horse-drawn, or motorised/mechanised (cars or half-tracks)."
    )
    command_bases_left: int = Field(
        default=1, ge=0, le=10, description="The Strategic Formation's command bases still on the table."
    )
    company_destroyed: bool = Field(default=False, description="The company has been destroyed.")


@Earth2mm.resolver
class TransportBonus(Resolver[TransportRequest]):
    id = "transport-bonus"
    summary = "A transported sub-unit's rate: +50% motorised (12cm at most), lost with the SF's command bases"
    Request = TransportRequest
    examples = ({"unit": "line-inf", "command_bases_left": 0}, {"unit": "machineguns"})

    def dice(self, req: TransportRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def check(self, req: TransportRequest, ctx: Context) -> None:
        if UNITS[req.unit].kind not in ("infantry", "heavy-weapon", "command"):
            raise RulesError(
                "unit",
                "only infantry formations (with their heavy weapons) are transported",
                [u for u, t in UNITS.items() if t.kind in ("infantry", "heavy-weapon", "command")],
            )

    def evaluate(self, req: TransportRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        speed = SPEEDS_CM[UNITS[req.unit].speed]
        lost = req.company_destroyed or req.command_bases_left == 0
        mods = [Modifier(f"{UNITS[req.unit].speed} speed (cm)", speed, SRC_COVER)]
        rate = Fraction(speed)
        if req.transport == "motorised" and not lost:
            rate = min(Fraction(TRANSPORT_MAX_CM), rate * (100 + TRANSPORT_PERCENT) / 100)
            mods.append(Modifier("motorised transport (%)", TRANSPORT_PERCENT, SRC_TRANSPORT))
        why = (
            "the company is destroyed: its transport goes with it"
            if req.company_destroyed
            else "the SF command bases are destroyed: the whole battalion loses its movement bonus"
            if req.command_bases_left == 0
            else "horse-drawn transport gives no bonus"
            if req.transport == "horse-drawn"
            else "motorised: +50%, at most 12cm"
        )
        return Evaluation(
            key="bonus lost" if lost else "standard rate" if req.transport == "horse-drawn" else "bonus",
            outcome={"rate_cm": float(rate), "exact_cm": str(rate), "why": why},
            modifiers=tuple(mods),
            sources=(SRC_TRANSPORT_VEHICLES, SRC_TRANSPORT),
            details={"notes": ["Transport cannot be handed to another company or formation."]},
        )


# -- the "same shooter" rule ------------------------------------------------------------------------------
class InjuryRequest(RecoveryRequest):
    under_fire_from: Literal["same-shooter", "different-shooter", "no-one"] = Field(
        description="Who has the injured platoon under fire now: the shooter that injured it, another, or no one."
    )


@Earth2mm.resolver
class InjuryMovement(Resolver[InjuryRequest]):
    id = "injury-movement"
    summary = "An injured platoon's movement: halved under the same shooter, a recovery die under another"
    Request = InjuryRequest
    examples = (
        {"under_fire_from": "same-shooter", "resilience": 4},
        {"under_fire_from": "different-shooter", "resilience": 4, "dice": [3]},
    )

    def dice(self, req: InjuryRequest, ctx: Context) -> tuple[int, ...]:
        return (6,) if req.under_fire_from == "different-shooter" else ()

    def check(self, req: InjuryRequest, ctx: Context) -> None:
        if req.under_fire_from == "different-shooter":
            recovery_resilience(ctx, req)

    def evaluate(self, req: InjuryRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        if req.under_fire_from == "same-shooter":
            # "This reduction stays for as long as the target platoon is under fire from the SAME shooter."
            return Evaluation("halved", "movement stays halved", sources=(SRC_ARMING,))
        if req.under_fire_from == "no-one":
            # "old injuries are those that can move normally again but one more hit will finish them off"
            return Evaluation(
                "restored",
                "movement restored (an old injury: one more hit removes the base)",
                sources=(SRC_ARMING, SRC_CASUALTIES),
            )
        # "If it remains under fire but from a different shooter, it rolls a recovery die."
        r, mods = recovery_resilience(ctx, req)
        ok = recovers(dice[0], r)
        return Evaluation(
            "restored" if ok else "halved",
            "movement restored even under fire" if ok else "movement stays halved",
            modifiers=tuple(mods),
            total=dice[0],
            sources=(SRC_ARMING, ctx.citation("recovery-resilience")),
            details={"recovery_needs": f"1 to {min(r, 5)}" if r >= 1 else "nothing"},
        )
