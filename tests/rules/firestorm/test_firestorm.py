"""Firestorm: Villers-Bretonneux tables against the text, battle odds, and the campaign state machine."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.core.dice import exact_distribution
from rules.core.errors import RulesError
from rules.firestorm import campaign
from rules.firestorm.battle import BattleRequest, DestroyRequest, InitiativeRequest, OutcomeRequest
from rules.firestorm.data import (
    ADJACENCY,
    AREAS,
    BATTLES,
    DESTROY_BY_VP,
    DESTROY_LOSER,
    FIXED_ATTACKS,
    SUPPLY,
    TERRAIN,
    TROOP_BY_ID,
    VALUES,
    VP_AREAS,
)
from rules.registry import get_ruleset

RS = get_ruleset("firestorm-villers-bretonneux")


def test_map_areas_terrain_and_points() -> None:
    # "It is divided into 20 areas ... ranging from A-1 to E-3"
    assert len(AREAS) == 20 and AREAS[0] == "A-1" and AREAS[-1] == "E-3"
    # "B-4, B-5, C-1, C-3, C-4, C-5, D-1, D-2 and D-3 are trenches"; "A-2 (D'Arquenne) and D-4 (Lancer) are woods"
    assert sorted(a for a in AREAS if TERRAIN[a] == "trench") == [
        "B-4",
        "B-5",
        "C-1",
        "C-3",
        "C-4",
        "C-5",
        "D-1",
        "D-2",
        "D-3",
    ]
    assert sorted(a for a in AREAS if TERRAIN[a] == "wood") == ["A-2", "D-4"]
    assert [a for a in AREAS if TERRAIN[a] == "city"] == ["B-2"]
    # CAMPAIGN VICTORY POINT TABLE
    assert VP_AREAS == {"A-2": 80, "B-1": 80, "B-2": 60, "A-3": 60, "B-3": 20, "C-2": 20, "C-4": 20}
    assert SUPPLY == {
        "bef": ("A-1", "A-2", "A-3", "B-1", "B-5", "C-1"),
        "german": ("C-5", "D-1", "D-4", "E-1", "E-2", "E-3"),
    }


def test_reconstructed_map_is_symmetric_and_fits_the_fixed_attacks() -> None:
    for a, ns in ADJACENCY.items():
        assert all(a in ADJACENCY[n] for n in ns)
    # "D-2 attacks C-3 / D-3 attacks C-4 / C-5 attacks B-4"
    assert all(b in ADJACENCY[a] for a, b in FIXED_ATTACKS)


@pytest.mark.parametrize(
    ("kind", "row"),
    [
        ("stoss", "Stoss Platoon 2 3 4 3"),
        ("veteran-british", "Veteran British 2 3 3 3"),
        ("other-infantry", "Other infantry 1 2 2 2"),
        ("hmg", "HMG platoon 3 2 3 2"),
        ("heavy-tank", "AV7/Mark IV 4 2 3 2"),
        ("whippet", "Whippet 3 1 2 1"),
    ],
)
def test_troop_values(kind: str, row: str) -> None:
    # "UNIT OPEN WOOD TRENCH CITY"
    numbers = [int(x) for x in row.split()[-4:]]
    assert [VALUES[kind][t] for t in ("open", "wood", "trench", "city")] == numbers  # type: ignore[index]


def test_deployment_and_turns() -> None:
    # "478 RIR ... at D-1", "14 Bde AIF ... at C-1", "58 Bn MGC ... at B-4"
    assert TROOP_BY_ID["478-rir"].area == "D-1" and TROOP_BY_ID["14-bde-aif"].area == "C-1"
    assert TROOP_BY_ID["58-bn-mgc"].area == "B-4" and TROOP_BY_ID["58-bn-mgc"].kind == "hmg"
    # "First turn has 4, second has 5, third has 5 and the fourth has 3" ("a total of 17")
    assert BATTLES == {1: 4, 2: 5, 3: 5, 4: 3} and sum(BATTLES.values()) == 17


def test_destroy_tables() -> None:
    # "0 (Draw) 6 6 / 1 or 2 6 6 / 3 or 4 5+ / 5 4+"; "8+ 4+ / 7 5+ / 3 or 6 6 / 2 or less No roll"
    assert DESTROY_LOSER == {0: 6, 1: 6, 2: 6, 3: 5, 4: 5, 5: 4}
    assert (
        DESTROY_BY_VP[8] == 4 and DESTROY_BY_VP[7] == 5 and DESTROY_BY_VP[3] == 6 and DESTROY_BY_VP[2] is None
    )


def test_destroy_example_of_the_text() -> None:
    # "Since they lost 7-2 the Firestorm Troop is destroyed on 5+ and the German player rolls 5 ... He rolls a 6
    # and the Infantry is captured."
    res = RS.resolve(
        "roll-to-destroy", DestroyRequest(mode="great-war", opponent_vp=7, lost=True, dice=[5, 6])
    )
    assert res.evaluation.key == "captured"
    # P(captured) = (2/6)^2; P(destroyed only) = 2/6 * 4/6.
    assert res.probabilities == {
        "captured": Fraction(4, 36),
        "destroyed": Fraction(8, 36),
        "survives": Fraction(24, 36),
    }


def test_gas_and_trench_modifiers() -> None:
    # Turn 1, D-2 into the BEF trench C-3 from a German trench: defender +2; German gas +2.
    req = BattleRequest(
        turn=1,
        attacker="german",
        from_area="D-2",
        to_area="C-3",
        attacker_troops=["stoss"],
        defender_troops=["other-infantry"],
        dice=[3, 3],
    )
    res = RS.resolve("battle", req)
    labels = {m.label: m.value for m in res.evaluation.modifiers}
    assert labels["attacker: German gas attack"] == 2
    assert labels["defender: trench attacked from enemy trench"] == 2
    assert labels["attacker: Stoss Platoon in trench"] == 4
    # 3 + 4 + 2 = 9 vs 3 + 2 + 2 = 7
    assert res.evaluation.key == "attacker wins" and res.evaluation.details["attacker_total"] == 9


def test_tie_is_an_attacker_defeat() -> None:
    req = BattleRequest(
        turn=2,
        attacker="bef",
        from_area="B-3",
        to_area="C-3",
        attacker_troops=["other-infantry"],
        defender_troops=["other-infantry"],
        dice=[4, 4],
    )
    # C-3 is a BEF trench: a German defender gets no bonus there ("no bonus for ... trenches you have captured").
    res = RS.resolve("battle", req)
    assert res.evaluation.key == "defender wins"


@settings(max_examples=50)
@given(
    st.integers(1, 4),
    st.sampled_from(["german", "bef"]),
    st.lists(st.sampled_from(list(VALUES)), min_size=1, max_size=2),
    st.lists(st.sampled_from(list(VALUES)), max_size=2),
    st.booleans(),
)
def test_battle_odds_are_exact(
    turn: int, attacker: str, att: list[str], dfn: list[str], supplied: bool
) -> None:
    # Turn 1 is all German attacks; tank Firestorm Troops are gone after turn 2 (test_turn_limits.py).
    assume(turn != 1 or attacker == "german")
    assume(turn <= 2 or not {*att, *dfn} & {"heavy-tank", "whippet"})
    req = BattleRequest(
        turn=turn,
        attacker=attacker,
        from_area="D-3",
        to_area="C-4",  # type: ignore[arg-type]
        attacker_troops=att,
        defender_troops=dfn,
        attacker_in_supply=supplied,  # type: ignore[arg-type]
    )
    res = RS.resolve("battle", req)
    resolver = RS.resolvers["battle"]()
    ctx = RS.context(None)
    assert res.probabilities == exact_distribution((6, 6), lambda d: resolver.evaluate(req, ctx, d).key)
    assert sum(res.probabilities.values()) == 1


def test_initiative() -> None:
    # Turn 2: "Germans receive a +1 on initiative and win on ties"; winner of the last battle +1.
    res = RS.resolve("initiative", InitiativeRequest(turn=2, battle=2, last_winner="bef", dice=[3, 3]))
    assert res.evaluation.key == "german"  # 4 vs 4: tie to the Germans
    assert RS.resolve("initiative", InitiativeRequest(turn=1)).evaluation.key == "german"
    assert RS.resolve("initiative", InitiativeRequest(turn=3, battle=2)).evaluation.key == "bef"
    p = RS.resolve("initiative", InitiativeRequest(turn=4, battle=3)).probabilities
    # BEF +1, wins ties: BEF wins when bef + 1 >= german: 1 - P(g > b + 1) = 1 - 10/36.
    assert p["bef"] == Fraction(26, 36)


def test_outcome_levels() -> None:
    # "WIN BY 150 CAMPAIGN POINTS" strategic, 100 operational, 50 tactical.
    assert (
        RS.resolve("campaign-outcome", OutcomeRequest(german_points=0, bef_points=150)).evaluation.key
        == "bef strategic"
    )
    assert (
        RS.resolve("campaign-outcome", OutcomeRequest(german_points=200, bef_points=100)).evaluation.key
        == "german operational"
    )
    assert (
        RS.resolve("campaign-outcome", OutcomeRequest(german_points=100, bef_points=120)).evaluation.key
        == "bef victory"
    )
    v = OutcomeRequest(german_points=100, bef_points=120, variants={"campaign-margin": "draw"})
    assert RS.resolve("campaign-outcome", v).evaluation.key == "draw"


# -- the state machine ---------------------------------------------------------------------------------------
def pick(state: campaign.CampaignState, rng: random.Random) -> tuple[dict[str, Any], list[int]]:
    """A legal action chosen at random from legal_actions, with seeded dice."""
    a = campaign.legal_actions(state)[0]
    t = a["type"]
    act: dict[str, Any] = {"type": t}
    if t == "attack":
        o = rng.choice(a["options"])
        troops = o["troops"]
        if state.turn == 3 and state.battle < 2:
            b = TROOP_BY_ID[troops[0]].brigade
            troops = [x for x in troops if TROOP_BY_ID[x].brigade == b]
        act |= {"from_area": o["from_area"], "to_area": o["to_area"], "troops": troops[:2]}
    elif t == "defend":
        act["troops"] = a["troops"][: rng.randint(0, 2)]
    elif t == "retreat":
        act["moves"] = {x: rng.choice(a["areas"]) for x in a["troops"]}
    elif t == "advance":
        first = a["survivors_first"]
        act["troops"] = (first + [x for x in a["candidates"] if x not in first])[: rng.randint(0, 3)]
    elif t == "redeploy":
        act |= {
            "side": a["side"],
            "moves": {k: rng.choice(v) for k, v in a["moves"].items() if v and rng.random() < 0.3},
        }
    elif t == "reinforce":
        ar = a["areas"]
        act |= {"side": a["side"], "areas": ar[:2] if a["side"] == "german" else [ar["13"][0], ar["15"][0]]}
    return act, [rng.randint(1, 6) for _ in range(a["dice"])]


@settings(max_examples=25)
@given(st.integers(0, 10**6))
def test_any_legal_play_reaches_a_result(seed: int) -> None:
    rng = random.Random(seed)
    state = campaign.new_campaign()
    battles = 0
    for _ in range(400):
        if state.phase == "finished":
            break
        act, dice = pick(state, rng)
        state, events = campaign.apply(state, act, dice)
        battles += sum(1 for e in events if e["event"] in ("battle", "battle forfeited"))
        state = campaign.CampaignState.model_validate_json(state.model_dump_json())
    assert state.phase == "finished" and battles == 17
    r = campaign.result(state)
    assert r["final"] and sum(VP_AREAS.values()) + 10 * sum(r["captured_troops"].values()) == sum(
        r["points"].values()
    )
    # tanks left the campaign at the end of turn 2
    assert all(
        t.status != "active" for t in state.troops if TROOP_BY_ID[t.id].kind in ("heavy-tank", "whippet")
    )


def test_first_turn_is_fixed_and_gassed() -> None:
    s = campaign.new_campaign()
    s, ev = campaign.apply(s, {"type": "initiative"}, [])
    assert ev[0]["attacker"] == "german"
    with pytest.raises(RulesError) as err:
        campaign.apply(s, {"type": "attack", "from_area": "D-3", "to_area": "C-4", "troops": ["g-gr-5"]})
    assert err.value.field == "action.to_area"
    s, _ = campaign.apply(
        s, {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": ["group-i", "48-rir"]}
    )
    s, _ = campaign.apply(s, {"type": "defend", "troops": ["25-bde"]})
    # German 6 + tank in trench 3 + other inf 2 + gas 2 = 13; BEF 1 + 2 + trench from enemy trench 2 = 5: diff 8.
    s, ev = campaign.apply(s, {"type": "resolve"}, [6, 1])
    assert ev[0] == {"event": "battle", "attacker_total": 13, "defender_total": 5, "attacker_won": True}
    assert [r.model_dump() for r in s.current.pending_destroy] == [  # type: ignore[union-attr]
        {"troop": "25-bde", "needed": 4}  # loser on 4+ (difference 5+); the winner rolls nothing
    ]
    s, _ = campaign.apply(s, {"type": "destroy"}, [2])
    assert s.phase == "retreat"
    with pytest.raises(RulesError) as err:
        campaign.apply(s, {"type": "retreat", "moves": {"25-bde": "D-3"}})
    assert err.value.field == "action.moves.25-bde"
    s, _ = campaign.apply(s, {"type": "retreat", "moves": {"25-bde": "B-3"}})
    assert s.control["C-3"] == "german" and s.phase == "advance"
    with pytest.raises(RulesError):
        campaign.apply(s, {"type": "advance", "troops": ["207-rir"]})  # survivors of the battle go first
    s, _ = campaign.apply(s, {"type": "advance", "troops": ["group-i", "48-rir", "207-rir"]})
    assert s.battle == 1 and s.phase == "initiative" and s.last_winner == "german"


@pytest.mark.parametrize(
    ("action", "dice", "field"),
    [
        ({"type": "initiative"}, [3, 4], "dice"),
        ({"type": "attack"}, [], "action.from_area"),
        ({"type": "nope"}, [], "action"),
        ({"type": "resolve"}, [], "action.type"),
    ],
)
def test_bad_actions_name_the_field(action: dict[str, Any], dice: list[int], field: str) -> None:
    with pytest.raises(RulesError) as err:
        campaign.apply(campaign.new_campaign(), action, dice)
    assert err.value.field == field


def test_a_corrected_map_is_checked() -> None:
    adj = {a: list(v) for a, v in ADJACENCY.items()}
    adj["A-1"] = [*adj["A-1"], "E-3"]  # not symmetric
    with pytest.raises(RulesError) as err:
        campaign.new_campaign(adj)
    assert err.value.field == "adjacency"
