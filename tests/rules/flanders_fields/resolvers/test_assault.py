"""Assault: every factor of the main text's ASSAULT FACTORS, the outcome rules and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from tests.rules.flanders_fields import FF, resolve


def fight(
    attacker: dict[str, Any], defender: dict[str, Any], cover: str = "open", period: str = "mid", **kw: Any
) -> Any:
    return resolve(
        "assault",
        period=period,
        attacker=attacker,
        defender=defender,
        defender_cover=cover,
        dice=[3, 3],
        **kw,
    )


# (attacker, defender, cover, attacker total - 3, defender total - 3), from ASSAULT FACTORS:
# "Assaulting Infantry +1 | Suppressed Troops -1 / Assaulting Cavalry +3 Vs Infantry +1 Vs Cavalry | Support
# Weapons or Artillery -1 / Assaulting Tank +3 (Heavy) +2 (Light) | Enemy is in Medium Cover -1 / Veteran or
# Storm Troops +1 | Enemy is in Hard Cover -2 / Supporting platoon to rear +1 | Enemy is in Fortified Cover -3 /
# Command Stand +1 | Raw Troops -1 / Flamethrower Vs Medium, Hard or Fortified +2"
FACTORS = [
    ({"kind": "infantry"}, {"kind": "infantry"}, "open", 1, 0),
    ({"kind": "cavalry"}, {"kind": "infantry"}, "open", 3, 0),
    ({"kind": "cavalry"}, {"kind": "artillery"}, "soft", 3, -1),
    ({"kind": "cavalry"}, {"kind": "cavalry"}, "open", 1, 0),
    ({"kind": "heavy-tank"}, {"kind": "infantry"}, "open", 3, 0),
    ({"kind": "light-tank"}, {"kind": "infantry"}, "open", 2, 0),
    ({"kind": "infantry", "quality": "veteran"}, {"kind": "infantry", "quality": "storm"}, "open", 2, 1),
    ({"kind": "infantry", "supported_from_rear": True}, {"kind": "infantry"}, "open", 2, 0),
    ({"kind": "infantry"}, {"kind": "command"}, "open", 1, 1),
    ({"kind": "flamethrower"}, {"kind": "infantry"}, "medium", 1, 0),
    ({"kind": "flamethrower"}, {"kind": "infantry"}, "soft", 0, 0),
    ({"kind": "infantry"}, {"kind": "infantry", "suppressed": True}, "open", 1, -1),
    ({"kind": "infantry"}, {"kind": "support-weapon"}, "open", 1, -1),
    ({"kind": "infantry"}, {"kind": "infantry"}, "medium", 0, 0),
    ({"kind": "infantry"}, {"kind": "infantry"}, "hard", -1, 0),
    ({"kind": "infantry"}, {"kind": "infantry"}, "fortified", -2, 0),
    ({"kind": "infantry", "quality": "raw"}, {"kind": "infantry", "quality": "raw"}, "open", 0, -1),
    # TROOPS IN DEEP SHELTERS: "counting -1 on their combat die"
    ({"kind": "infantry"}, {"kind": "infantry", "in_deep_shelter": True}, "medium", 0, -1),
    # INFANTRY VS ARMOUR: "the tank does not count as assaulting"
    ({"kind": "infantry"}, {"kind": "heavy-tank"}, "open", 1, 0),
]


@pytest.mark.parametrize(("attacker", "defender", "cover", "a", "d"), FACTORS)
def test_every_assault_factor(
    attacker: dict[str, Any], defender: dict[str, Any], cover: str, a: int, d: int
) -> None:
    out = fight(attacker, defender, cover).as_dict()
    assert (out["attacker_total"], out["defender_total"]) == (3 + a, 3 + d)


def test_outcomes_and_consequences() -> None:
    # "The winner destroys/captures enemy"; "If combat is a draw attackers fall back 3cm and stay in Soft Cover"
    win = resolve(
        "assault", period="mid", attacker={"kind": "infantry"}, defender={"kind": "infantry"}, dice=[3, 3]
    )
    assert win.evaluation.key == "attacker-wins" and "destroys or captures" in win.as_dict()["consequence"]
    draw = resolve(
        "assault", period="mid", attacker={"kind": "infantry"}, defender={"kind": "infantry"}, dice=[3, 4]
    )
    assert draw.evaluation.key == "draw" and "fall back 3 cm" in draw.as_dict()["consequence"]
    lose = resolve(
        "assault", period="mid", attacker={"kind": "infantry"}, defender={"kind": "infantry"}, dice=[1, 6]
    )
    assert lose.evaluation.key == "defender-wins"
    # ARMOUR VS INFANTRY: "in the event of a draw the tank model falls back 3 cm"
    tank = resolve(
        "assault", period="late", attacker={"kind": "heavy-tank"}, defender={"kind": "infantry"}, dice=[1, 4]
    )
    assert tank.evaluation.key == "draw" and "tank falls back 3 cm" in tank.as_dict()["consequence"]
    assert any("morale roll to stand" in n for n in tank.as_dict()["notes"])
    # Infantry +1 against infantry: attacker wins 21 of 36, draws 5, loses 10.
    assert win.probabilities == {
        "attacker-wins": pytest.approx(21 / 36),
        "draw": pytest.approx(5 / 36),
        "defender-wins": pytest.approx(10 / 36),
    }


@pytest.mark.parametrize(
    ("attacker", "defender", "cover", "period", "field"),
    [
        ({"kind": "cavalry"}, {"kind": "heavy-tank"}, "open", "mid", "defender.kind"),
        ({"kind": "cavalry"}, {"kind": "infantry"}, "medium", "mid", "defender_cover"),
        ({"kind": "cavalry"}, {"kind": "infantry"}, "hard", "early", "defender_cover"),
        ({"kind": "command"}, {"kind": "infantry"}, "open", "mid", "attacker.kind"),
        ({"kind": "heavy-tank"}, {"kind": "infantry"}, "open", "early", "attacker.kind"),
        ({"kind": "infantry"}, {"kind": "light-tank"}, "open", "early", "defender.kind"),
        ({"kind": "infantry"}, {"kind": "infantry"}, "fortified", "early", "defender_cover"),
        ({"kind": "heavy-tank"}, {"kind": "infantry"}, "fortified", "late", "attacker.kind"),
        (
            {"kind": "infantry", "suppressed": True},
            {"kind": "infantry"},
            "open",
            "mid",
            "attacker.suppressed",
        ),
        (
            {"kind": "infantry"},
            {"kind": "artillery", "quality": "veteran"},
            "open",
            "mid",
            "defender.quality",
        ),
        (
            {"kind": "infantry"},
            {"kind": "infantry", "supported_from_rear": True},
            "open",
            "mid",
            "defender.supported_from_rear",
        ),
    ],
)
def test_refusals(
    attacker: dict[str, Any], defender: dict[str, Any], cover: str, period: str, field: str
) -> None:
    with pytest.raises(RulesError) as err:
        fight(attacker, defender, cover, period)
    assert err.value.field == field and err.value.allowed


def test_errata_variants_in_assault() -> None:
    # Defender's rear support only under the 'either-side' reading.
    out = fight(
        {"kind": "infantry"},
        {"kind": "infantry", "supported_from_rear": True},
        variants={"defender-rear-support": "either-side"},
    )
    assert out.as_dict()["defender_total"] == 4
    # Cavalry against a support weapon: +3 as infantry (default) or nothing.
    assert fight({"kind": "cavalry"}, {"kind": "support-weapon"}).as_dict()["attacker_total"] == 6
    assert (
        fight(
            {"kind": "cavalry"}, {"kind": "support-weapon"}, variants={"cavalry-vs-other-foot": "no-bonus"}
        ).as_dict()["attacker_total"]
        == 3
    )
    # Elan: no combat bonus by default; +1 under the variant.
    assert (
        fight({"kind": "infantry"}, {"kind": "infantry"}, period="early", special_rule="elan").as_dict()[
            "attacker_total"
        ]
        == 4
    )
    assert (
        fight(
            {"kind": "infantry"},
            {"kind": "infantry"},
            period="early",
            special_rule="elan",
            variants={"elan-in-assault": "assault-die"},
        ).as_dict()["attacker_total"]
        == 5
    )


def test_assault_factors_dataset() -> None:
    data = FF.data("assault-factors")
    values = {f["id"]: f["value"] for f in data["factors"]}
    assert (
        values["assaulting-infantry"] == 1
        and values["cavalry-vs-infantry"] == 3
        and values["enemy-fortified"] == -3
    )
    assert data["source"].endswith("ASSAULT FACTORS")
