"""Vimy Ridge trench readings of issue 23 (items 11, 12): each reading changes an answer, checked against the
quoted text of 14.2 Trench Lines."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.registry import get_ruleset
from rules.vimy_ridge.observation import TrenchAttackRequest, ZocRequest
from rules.vimy_ridge.special import ReplacementRequest

RS = get_ruleset("vimy-ridge")


@pytest.mark.parametrize(
    ("eid", "readings", "lines"),
    [
        ("trench-zoc", {"occupied-hex", "any-hex"}, ("(line 111)", "(line 63)")),
        ("trench-nationality", {"any-trench", "enemy-trench-only"}, ("(line 107)", "(line 111)")),
    ],
)
def test_each_reading_quotes_its_line(eid: str, readings: set[str], lines: tuple[str, ...]) -> None:
    e = RS.errata[eid]
    assert {r.id for r in e.readings} == readings and e.default in readings and e.note
    sources = " ".join(r.source for r in e.readings)
    assert all(line in sources for line in lines)
    assert all(r.source.startswith("Vimy Ridge: Arras Diversion, exclusive rules: 1") for r in e.readings)


def zoc(across: bool, occupied: bool, reading: str = "occupied-hex") -> bool:
    req = ZocRequest(
        across_trench_hexside=across, hex_holds_opposing_unit=occupied, variants={"trench-zoc": reading}
    )
    return bool(RS.resolve("zone-of-control", req).evaluation.outcome["zone_of_control_extends"])


def test_trench_zoc_into_an_empty_hex() -> None:
    # "inhibiting any enemy Zone of Control across that trench hexside into a hex that is occupied by an
    # opposing unit": the words name an occupied hex; an empty one is shielded only under 'any-hex'.
    assert zoc(True, False) is True and zoc(True, False, "any-hex") is False
    for reading in ("occupied-hex", "any-hex"):
        assert zoc(True, True, reading) is False
        assert zoc(False, False, reading) is True and zoc(False, True, reading) is True


def test_the_trench_zoc_decides_where_allied_replacements_arrive() -> None:
    # "arriving in any Allied trench hex (not within any enemy ZOC)" (line 63): an empty Allied trench hex
    # whose only enemy ZOC comes across a trench hexside is closed under 'occupied-hex', open under 'any-hex'.
    arrival: dict[str, Any] = {
        "side": "allied",
        "turn": 3,
        "eliminated_units_returned": 1,
        "arrival": "allied-trench-hex",
        "arrival_in_enemy_zoc": True,
        "enemy_zoc_only_across_trench": True,
    }
    with pytest.raises(RulesError) as e:
        RS.resolve("replacement", ReplacementRequest(**arrival))
    assert e.value.field == "arrival_in_enemy_zoc"
    picked = ReplacementRequest(**arrival, variants={"trench-zoc": "any-hex"})
    assert RS.resolve("replacement", picked).evaluation.outcome["allowed"] is True
    # A ZOC that does not come across a trench closes the hex under both readings.
    direct = {**arrival, "enemy_zoc_only_across_trench": False, "variants": {"trench-zoc": "any-hex"}}
    with pytest.raises(RulesError):
        RS.resolve("replacement", ReplacementRequest(**direct))
    with pytest.raises(RulesError) as e:
        RS.resolve("replacement", ReplacementRequest(**{**arrival, "arrival_in_enemy_zoc": False}))
    assert e.value.field == "enemy_zoc_only_across_trench"


def line(trench_of: str, reading: str | None = None) -> str:
    req = TrenchAttackRequest(
        across_trench_hexside=True,
        hex_terrain="town",
        trench_of=trench_of,
        variants={"trench-nationality": reading} if reading else {},
    )
    return str(RS.resolve("trench-hexside", req).evaluation.outcome["crt_line"])


def test_an_attack_across_the_attackers_own_trench() -> None:
    # "regardless of the nationality of the trench line" (line 107): the trench line either way.
    assert line("attacker") == line("defender") == "Trench hexside, Woods"
    # "across an enemy trench hexside" (line 111): the attacker's own trench gives the hex's other terrain.
    assert line("attacker", "enemy-trench-only") == "Town, Hill, La Folie Farm"
    assert line("defender", "enemy-trench-only") == "Trench hexside, Woods"
