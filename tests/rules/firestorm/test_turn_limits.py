"""The battle resolver and the campaign engine keep the same turn rules, and what legal_actions offers applies.

"The German player is automatically the attacker in all four battles" (FIRST TURN); "The first attacks must
be made as follows: D-2 attacks C-3 / D-3 attacks C-4 / C-5 attacks B-4"; "At the end of turn 2 all tank
Firestorm Troops that remain in play from both sides are removed."; "AIF are automatically attackers in the
first two battles" (turn 3).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.errors import RulesError
from rules.firestorm import campaign
from rules.firestorm.battle import BattleRequest, automatic_attacker, fixed_attack, tanks_in_play
from rules.firestorm.data import FIXED_ATTACKS, TANK_KINDS, TROOP_BY_ID
from rules.registry import get_ruleset

RS = get_ruleset("firestorm-villers-bretonneux")


def battle(**body: Any) -> Any:
    return RS.resolve("battle", BattleRequest(**body))


def refused(**body: Any) -> RulesError:
    with pytest.raises(RulesError) as err:
        battle(**body)
    return err.value


def test_no_bef_attacker_on_turn_1() -> None:
    # "The German player is automatically the attacker in all four battles"
    err = refused(
        turn=1,
        attacker="bef",
        from_area="C-3",
        to_area="D-2",
        attacker_troops=["other-infantry"],
        dice=[3, 3],
    )
    assert err.field == "attacker" and err.allowed == ["german"]
    assert "turn 1" in err.message and "German" in err.message
    # The campaign engine reads the same rule: every turn 1 initiative is the German's, without dice.
    assert all(automatic_attacker(1, b) == "german" for b in range(4))
    after, events = campaign.apply(campaign.new_campaign(), {"type": "initiative"}, [])
    assert events[0] == {"event": "initiative", "attacker": "german", "automatic": True}
    assert after.current is not None and after.current.attacker == "german"


@pytest.mark.parametrize("turn", [3, 4])
@pytest.mark.parametrize("side", ["attacker_troops", "defender_troops"])
def test_no_tank_firestorm_troops_after_turn_2(turn: int, side: str) -> None:
    # "At the end of turn 2 all tank Firestorm Troops that remain in play from both sides are removed."
    for tank in TANK_KINDS:
        troops = {"attacker_troops": ["stoss"], "defender_troops": ["other-infantry"], side: ["stoss", tank]}
        err = refused(turn=turn, attacker="german", from_area="D-2", to_area="C-3", dice=[3, 3], **troops)
        assert err.field == f"{side}.1"
        assert tank not in (err.allowed or []) and "stoss" in (err.allowed or [])
        assert "tank" in err.message and "turn 2" in err.message
    assert not tanks_in_play(turn)
    # Turns 1 and 2 still have them.
    for early_turn in (1, 2):
        assert tanks_in_play(early_turn)
        assert battle(
            turn=early_turn,
            attacker="german",
            from_area="D-2",
            to_area="C-3",
            attacker_troops=["heavy-tank"],
            defender_troops=["whippet"],
            dice=[3, 3],
        ).evaluation.key


def test_the_battle_number_brings_the_fixed_attacks_and_the_aif_night_battles() -> None:
    # Turn 1, battle 1: "D-2 attacks C-3"; battle 4 is "one more attack into any area of his choosing".
    err = refused(
        turn=1, battle=1, attacker="german", from_area="D-3", to_area="C-4", attacker_troops=["stoss"]
    )
    assert err.field == "to_area" and "D-2 attacks C-3" in err.message
    assert [fixed_attack(1, b) for b in range(4)] == [*FIXED_ATTACKS, None]
    assert battle(
        turn=1, battle=4, attacker="german", from_area="D-3", to_area="C-4", attacker_troops=["stoss"]
    ).evaluation.key
    # Turn 3: "AIF are automatically attackers in the first two battles".
    err = refused(
        turn=3, battle=2, attacker="german", from_area="C-3", to_area="B-3", attacker_troops=["stoss"]
    )
    assert err.field == "attacker" and err.allowed == ["bef"]
    assert battle(
        turn=3, battle=3, attacker="german", from_area="C-3", to_area="B-3", attacker_troops=["stoss"]
    ).evaluation.key
    # Turn 4 has three battles.
    err = refused(turn=4, battle=4, attacker="bef", from_area="B-3", to_area="C-3", attacker_troops=["stoss"])
    assert err.field == "battle" and err.allowed == [1, 2, 3]


def test_a_campaign_state_with_tanks_on_turn_3_is_refused() -> None:
    state = campaign.new_campaign().model_copy(update={"turn": 3})
    with pytest.raises(RulesError) as err:
        campaign.legal_actions(state)
    assert err.value.field == "state.troops" and "turn 2" in err.value.message


def test_the_offered_pass_applies_with_its_side() -> None:
    # An initiative winner with no attack passes; legal_actions names the side, and apply takes it as given.
    state = campaign.new_campaign()
    german = {t.id: t.model_copy(update={"status": "destroyed", "area": None}) for t in state.troops}
    troops = tuple(german[t.id] if t.side == "german" else t for t in state.troops)
    state = state.model_copy(update={"troops": troops})
    state, _ = campaign.apply(state, {"type": "initiative"}, [])
    [offered] = campaign.legal_actions(state)
    assert offered == {"type": "pass", "side": "german", "dice": 0}
    action = {k: offered[k] for k in ("type", "side")}
    after, events = campaign.apply(state, action, [])
    assert events[0]["event"] == "battle forfeited" and after.battle == 1
    # The other side's pass names the rule.
    with pytest.raises(RulesError) as err:
        campaign.apply(state, {"type": "pass", "side": "bef"}, [])
    assert err.value.field == "action.side" and err.value.allowed == ["german"]


def choice(entry: dict[str, Any], state: campaign.CampaignState, draw: Any) -> dict[str, Any]:
    """The fields a player fills in from what the entry lists (nothing for an action without a choice)."""
    t = entry["type"]
    if t == "attack":
        o = draw(st.sampled_from(entry["options"]))
        troops = o["troops"]
        if state.turn == 3 and state.battle < 2:  # one AIF brigade attacks with both its troops
            brigade = TROOP_BY_ID[draw(st.sampled_from(troops))].brigade
            troops = [x for x in troops if TROOP_BY_ID[x].brigade == brigade]
        else:
            troops = draw(st.lists(st.sampled_from(troops), min_size=1, max_size=2, unique=True))
        return {"from_area": o["from_area"], "to_area": o["to_area"], "troops": troops}
    if t == "defend":
        troops = entry["troops"]
        return {"troops": draw(st.lists(st.sampled_from(troops), max_size=2, unique=True)) if troops else []}
    if t == "retreat":
        return {"moves": {x: draw(st.sampled_from(entry["areas"])) for x in entry["troops"]}}
    if t == "advance":
        first = entry["survivors_first"]
        order = first + [x for x in entry["candidates"] if x not in first]
        return {"troops": order[: draw(st.integers(0, min(3, len(order))))]}
    if t == "redeploy":
        return {
            "moves": {
                k: draw(st.sampled_from(v)) for k, v in entry["moves"].items() if v and draw(st.booleans())
            }
        }
    if t == "reinforce":
        areas = entry["areas"]
        if entry["side"] == "german":
            return {"areas": [draw(st.sampled_from(areas)), draw(st.sampled_from(areas))]}
        return {"areas": [draw(st.sampled_from(areas["13"])), draw(st.sampled_from(areas["15"]))]}
    return {}


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_every_offered_action_applies(data: st.DataObject) -> None:
    # Whatever legal_actions offers, its type and side as given, with a choice from what it lists and
    # exactly its number of dice, apply accepts; played to the end of the campaign.
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    state = campaign.new_campaign()
    for _ in range(400):
        offered = campaign.legal_actions(state)
        if not offered:
            break
        following = []
        for entry in offered:
            action = {k: entry[k] for k in ("type", "side") if k in entry}
            action |= choice(entry, state, data.draw)
            dice = [rng.randint(1, 6) for _ in range(entry["dice"])]
            following.append(campaign.apply(state, action, dice)[0])
        state = campaign.CampaignState.model_validate_json(following[0].model_dump_json())
    assert state.phase == "finished"
