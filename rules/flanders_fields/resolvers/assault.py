"""Close combat: each side rolls a D6 and adds its factors; higher wins, equal is a draw."""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import COVERS, Cover, FFRequest, Quality
from rules.flanders_fields.book.special_rules import SpecialRuleId, accept_special_rule
from rules.flanders_fields.ruleset import FlandersFields, cite

RESOLVER = "assault"
SRC_CLOSE = cite(
    "CLOSE COMBAT (ASSAULTING), Infantry & Cavalry Vs Infantry, Cavalry, Artillery and Support Units"
)
SRC_VS_ARMOUR = cite("CLOSE COMBAT (ASSAULTING), INFANTRY VS ARMOUR")
SRC_ARMOUR_VS = cite("CLOSE COMBAT (ASSAULTING), ARMOUR VS INFANTRY")
SRC_FORTIFIED = cite("CLOSE COMBAT (ASSAULTING), INFANTRY VS FORTIFIED POSITIONS")
SRC_DEEP_SHELTERS = cite("TROOPS IN DEEP SHELTERS")
SRC_CREWED = cite("TROOP QUALITY, EXPERIENCED")
SRC_SUPPRESSION = cite("SUPPRESSION")

Kind = Literal[
    "infantry",
    "cavalry",
    "heavy-tank",
    "light-tank",
    "command",
    "support-weapon",
    "artillery",
    "flamethrower",
]
KINDS: tuple[Kind, ...] = (
    "infantry",
    "cavalry",
    "heavy-tank",
    "light-tank",
    "command",
    "support-weapon",
    "artillery",
    "flamethrower",
)
ATTACKERS = ("infantry", "cavalry", "heavy-tank", "light-tank", "flamethrower")
TANKS = frozenset({"heavy-tank", "light-tank"})
CREWED = frozenset({"support-weapon", "artillery"})
SHELTERING = ("infantry", "command", "support-weapon", "flamethrower")
# "Cavalry may only assault troops in the Open or in Soft Cover and may not assault tanks."
CAVALRY_COVERS = ("open", "soft")
# "Only infantry or flamethrowers may launch an assault against a fortified position"
FORTIFIED_ATTACKERS = ("infantry", "flamethrower")
# "Flamethrower Vs Medium, Hard or Fortified +2"
FLAMETHROWER_COVERS = frozenset({"medium", "hard", "fortified"})


class Combatant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Kind = Field(description="What fights.")
    quality: Quality = Field(
        default="experienced", description="Troop quality (crewed weapons are experienced)."
    )
    suppressed: bool = Field(
        default=False, description="Suppressed troops fight at -1 (and may not assault)."
    )
    supported_from_rear: bool = Field(default=False, description="A supporting stand to the rear (+1).")
    in_deep_shelter: bool = Field(default=False, description="Defender winkled out of a deep shelter (-1).")


class AssaultRequest(FFRequest):
    attacker: Combatant = Field(description="The assaulting stand.")
    defender: Combatant = Field(description="The stand assaulted.")
    defender_cover: Cover = Field(default="open", description="The defender's cover.")
    special_rule: SpecialRuleId | None = Field(default=None, description="elan or storm-troops (attacker).")


def _factor(factor_id: str, side: str, value: int | None = None, source: str = T.SRC_ASSAULT) -> Modifier:
    f = T.ASSAULT_FACTORS[factor_id]
    return Modifier(f"{side}: {f.label}", f.value if value is None else value, source)


def _quality(c: Combatant, side: str) -> list[Modifier]:
    if c.quality in ("veteran", "storm"):
        return [_factor("veteran-or-storm", side)]
    if c.quality == "raw":
        return [_factor("raw", side)]
    return []


@FlandersFields.resolver
class Assault(Resolver[AssaultRequest]):
    id = RESOLVER
    summary = "Assault (close combat): attacker and defender each roll a D6 plus factors"
    Request = AssaultRequest
    examples = (
        {
            "period": "mid",
            "attacker": {"kind": "infantry", "quality": "veteran", "supported_from_rear": True},
            "defender": {"kind": "infantry"},
            "defender_cover": "medium",
            "dice": [4, 3],
        },
        {
            "period": "early",
            "attacker": {"kind": "cavalry"},
            "defender": {"kind": "artillery"},
            "dice": [2, 5],
        },
        {
            "period": "late",
            "attacker": {"kind": "flamethrower"},
            "defender": {"kind": "infantry"},
            "defender_cover": "fortified",
        },
    )

    def dice(self, req: AssaultRequest, ctx: Context) -> tuple[int, ...]:
        return (6, 6)

    def check(self, req: AssaultRequest, ctx: Context) -> None:
        a, d, cover = req.attacker, req.defender, req.defender_cover
        early = ctx.period == "early"
        if a.kind not in ATTACKERS:
            raise RulesError(
                "attacker.kind", f"{a.kind} may not instigate an assault", self._attackers(early)
            )
        for side, c in (("attacker", a), ("defender", d)):
            if early and c.kind in TANKS:
                allowed = (
                    self._attackers(early) if side == "attacker" else [k for k in KINDS if k not in TANKS]
                )
                raise RulesError(f"{side}.kind", "there are no tanks before mid 1915", allowed)
            if c.kind in CREWED and c.quality != "experienced":
                raise RulesError(
                    f"{side}.quality", "crewed weapons are always classed as Experienced", ["experienced"]
                )
        if early and cover == "fortified":
            raise RulesError("defender_cover", "there are no fortifications before mid 1915", COVERS[:4])
        if a.suppressed:
            raise RulesError(
                "attacker.suppressed", "a suppressed unit may not move or fire, so it cannot assault", [False]
            )
        if a.in_deep_shelter:
            raise RulesError(
                "attacker.in_deep_shelter", "only defenders can be winkled out of deep shelters", [False]
            )
        if d.in_deep_shelter and d.kind not in SHELTERING:
            raise RulesError("defender.in_deep_shelter", f"{d.kind} cannot shelter in a dugout", [False])
        if d.supported_from_rear and not ctx.value(E.DEFENDER_REAR_SUPPORT):
            raise RulesError(
                "defender.supported_from_rear",
                f"only the attacker's die gets the supporting stand (variant {E.DEFENDER_REAR_SUPPORT}=either-side)",
                [False],
            )
        if a.kind == "cavalry":
            if d.kind in TANKS:
                raise RulesError(
                    "defender.kind", "cavalry may not assault tanks", [k for k in KINDS if k not in TANKS]
                )
            if cover not in CAVALRY_COVERS:
                raise RulesError(
                    "defender_cover",
                    "cavalry may only assault troops in the open or in soft cover",
                    CAVALRY_COVERS,
                )
        if a.kind in TANKS and d.kind in TANKS:
            raise RulesError(
                "defender.kind",
                "the rules give no assault of armour by armour",
                [k for k in KINDS if k not in TANKS],
            )
        if cover == "fortified" and a.kind not in FORTIFIED_ATTACKERS:
            raise RulesError(
                "attacker.kind",
                "only infantry or flamethrowers may assault a fortified position",
                FORTIFIED_ATTACKERS,
            )
        rule = accept_special_rule(req.special_rule, ctx.period, RESOLVER)
        if rule is not None and rule.id == "storm-troops" and a.quality != "storm":
            raise RulesError(
                "attacker.quality",
                "a Storm Troop battalion is always classed as Veteran (quality storm)",
                ["storm"],
            )
        if rule is not None and rule.id == "elan" and a.kind != "infantry":
            raise RulesError("attacker.kind", "Elan is for French infantry advancing", ["infantry"])

    @staticmethod
    def _attackers(early: bool) -> list[str]:
        return [k for k in ATTACKERS if not (early and k in TANKS)]

    def factors(self, req: AssaultRequest, ctx: Context) -> tuple[list[Modifier], list[Modifier], list[str]]:
        a, d, cover = req.attacker, req.defender, req.defender_cover
        att: list[Modifier] = []
        dfd: list[Modifier] = []
        notes: list[str] = []
        A, D = "Attacker", "Defender"
        if a.kind == "infantry":
            att.append(_factor("assaulting-infantry", A))
        elif a.kind == "cavalry":
            if d.kind == "cavalry":
                att.append(_factor("cavalry-vs-cavalry", A))
            elif d.kind in ("infantry", "artillery"):
                att.append(_factor("cavalry-vs-infantry", A))
            else:
                bonus = ctx.value(E.CAVALRY_VS_OTHER_FOOT)
                if bonus:
                    att.append(
                        _factor("cavalry-vs-infantry", A, bonus, ctx.citation(E.CAVALRY_VS_OTHER_FOOT))
                    )
        elif a.kind in TANKS:
            att.append(_factor(a.kind, A))
            if d.kind not in TANKS:
                notes.append(
                    "Armour vs infantry: the infantry must make a morale roll to stand before the combat."
                )
        elif a.kind == "flamethrower" and cover in FLAMETHROWER_COVERS:
            att.append(_factor("flamethrower-vs-cover", A))
        att += _quality(a, A)
        if a.supported_from_rear:
            att.append(_factor("supporting-platoon", A))
        if cover in T.ENEMY_COVER_FACTOR:
            att.append(_factor(T.ENEMY_COVER_FACTOR[cover], A))
        rule = accept_special_rule(req.special_rule, ctx.period, RESOLVER)
        if rule is not None and rule.id == "elan":
            bonus = ctx.value(E.ELAN_IN_ASSAULT)
            if bonus:
                att.append(Modifier(f"{A}: Elan", bonus, ctx.citation(E.ELAN_IN_ASSAULT)))
            else:
                notes.append("Elan adds +1 to the order roll to advance, not to the combat die.")
        if d.kind == "command":
            dfd.append(_factor("command-stand", D))
        if d.kind in CREWED:
            dfd.append(_factor("support-weapon", D))
        if d.suppressed:
            dfd.append(_factor("suppressed", D))
        dfd += _quality(d, D)
        if d.supported_from_rear:
            dfd.append(_factor("supporting-platoon", D, source=ctx.citation(E.DEFENDER_REAR_SUPPORT)))
        if d.in_deep_shelter:
            dfd.append(_factor("deep-shelter", D, source=SRC_DEEP_SHELTERS))
            notes.append("Troops in deep shelters cannot shoot as the attackers close.")
        if d.kind in TANKS:
            notes.append(
                "Infantry vs armour: the tank may first shoot at its attackers at -1; it does not count as assaulting."
            )
        elif not d.suppressed and d.kind not in CREWED and not d.in_deep_shelter:
            notes.append(
                "Unsuppressed defenders may shoot as the attackers close (short range bonus to their front)."
            )
        if cover == "fortified":
            notes.append("A bunker may shoot from its front and either side at the same time.")
        return att, dfd, notes

    def evaluate(self, req: AssaultRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        att, dfd, notes = self.factors(req, ctx)
        a_total = dice[0] + sum(m.value for m in att)
        d_total = dice[1] + sum(m.value for m in dfd)
        tank_attacker = req.attacker.kind in TANKS
        if a_total > d_total:
            key = "attacker-wins"
            consequence = "The attacker destroys or captures the defender; it may follow up against a new opponent as a new assault."
        elif a_total < d_total:
            key = "defender-wins"
            consequence = "The defender destroys or captures the attacker."
        elif tank_attacker:
            key = "draw"
            consequence = (
                f"Draw: the tank falls back {T.DRAW_FALL_BACK_CM} cm; the defenders remain in position."
            )
        else:
            key = "draw"
            consequence = (
                f"Draw: the attackers fall back {T.DRAW_FALL_BACK_CM} cm and stay in soft cover (in the open if "
                "pushed back into barbed wire); the defenders remain in position."
            )
        sources = [SRC_CLOSE, T.SRC_ASSAULT]
        if tank_attacker:
            sources.append(SRC_ARMOUR_VS)
        if req.defender.kind in TANKS:
            sources.append(SRC_VS_ARMOUR)
        if req.defender_cover == "fortified":
            sources.append(SRC_FORTIFIED)
        details: AssaultDetails = {
            "attacker_total": a_total,
            "defender_total": d_total,
            "margin": a_total - d_total,
            "consequence": consequence,
            "notes": notes,
        }
        return Evaluation(key, key, tuple(att + dfd), None, tuple(sources), details)


class AssaultDetails(TypedDict):
    """What an assault answer says besides its result: each side's total, the margin, what follows, notes."""

    attacker_total: int
    defender_total: int
    margin: int
    consequence: str
    notes: list[str]


class AssaultFactorRow(TypedDict):
    id: str
    label: str
    value: int
    side: Literal["attacker", "defender", "either"]


class AssaultFactors(TypedDict):
    source: str
    factors: list[AssaultFactorRow]
    rules: list[str]
    errata: list[str]


def assault_factors_dataset(_period: str | None) -> AssaultFactors:
    return {
        "source": T.SRC_ASSAULT,
        "factors": [
            {"id": f.id, "label": f.label, "value": f.value, "side": f.side}
            for f in T.ASSAULT_FACTORS.values()
        ],
        "rules": [
            "Each side rolls D6, adds factors and compares the result; the winner destroys/captures the enemy.",
            "Only one stand may fight at a time but may be supported by one stand to the rear (+1 to the attacker).",
            f"Draw: attackers fall back {T.DRAW_FALL_BACK_CM}cm and stay in Soft Cover, defenders remain in position.",
            "Cavalry may only assault troops in the Open or in Soft Cover and may not assault tanks.",
            "Only infantry or flamethrowers may launch an assault against a fortified position.",
            "Armour vs infantry: the infantry must make a morale roll to stand; on a draw the tank falls back 3cm.",
            "Infantry vs armour: the tank may shoot at its attackers at -1 and does not count as assaulting.",
        ],
        "errata": [E.DEFENDER_REAR_SUPPORT, E.CAVALRY_VS_OTHER_FOOT, E.ELAN_IN_ASSAULT],
    }


FlandersFields.dataset("assault-factors", "Assault (close combat) factors")(assault_factors_dataset)
