"""The story of the game (issue 42) over a log written by hand (rolls at known odds, a marker placed by hand, a
roll undone, hits worked out without a die from the roll before them, arrivals): the decisive moments, an act's
effect times how unlikely its result was, exactly; each turn's losses, marks and arrivals."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.services import story
from rules.flanders_fields.ruleset import FlandersFields
from rules.registry import get_game_rules

RULES = get_game_rules(FlandersFields.id)


@dataclass(frozen=True)
class Unit:
    id: int
    parent_id: int | None
    side: str
    level: str = "stand"
    kind: str = "rifle-platoon"
    name: str = ""


# A company of four stands a side: 1 (2-5) the attacker's, 10 (11-14) the defender's; the defender's
# reinforcements 20 (21) off the table.
UNITS = {
    u.id: u
    for u in (
        Unit(1, None, "attacker", "company", "rifle-company"),
        *(Unit(i, 1, "attacker") for i in range(2, 6)),
        Unit(10, None, "defender", "company", "rifle-company"),
        *(Unit(i, 10, "defender") for i in range(11, 15)),
        Unit(20, None, "defender", "battalion", "infantry-battalion"),
        Unit(21, 20, "defender"),
    )
}
NAMES = {
    1: "A Coy",
    **{i: f"A Plt {i}" for i in range(2, 6)},
    10: "B Coy",
    **{i: f"B Plt {i}" for i in range(11, 15)},
    20: "C Bn",
    21: "C Plt",
}


def killed(*ids: int) -> list[dict[str, Any]]:
    return [{"unit": i, "field": "killed", "before": False, "after": True} for i in ids]


def suppressed(*ids: int) -> list[dict[str, Any]]:
    return [{"unit": i, "field": "suppression", "delta": 1, "after": 1} for i in ids]


def roll(
    event_id: int, unit: int, target: int, p: str | None, changes: list[dict[str, Any]], kind: str = "roll"
) -> dict[str, Any]:
    """A roll whose result had the chance `p` (None: worked out without a die)."""
    resolution: dict[str, Any] = {"dice": [], "outcome_key": "done", "probabilities_exact": {"done": "1/1"}}
    if p is not None:
        rest = str(1 - Fraction(p))
        resolution = {"dice": [3], "outcome_key": "hit", "probabilities_exact": {"hit": p, "miss": rest}}
    payload = {"resolver": "shooting", "unit_id": unit, "target_id": target, "resolution": resolution}
    return {
        "id": event_id,
        "turn": 1,
        "kind": kind,
        "actor": "attacker",
        "payload": {**payload, "changes": changes},
    }


LOG = [
    roll(1, 2, 11, "1/36", killed(11)),  # one stand at 1 in 36: 35/36
    roll(2, 11, 2, "1/6", suppressed(2, 3, 4, 5)),  # four stands at 1 in 6: 4 x 5/6
    roll(3, 3, 12, "1/2", suppressed(12, 13)),  # two at an even chance: 1
    {
        "id": 4,
        "turn": 1,
        "kind": "marker",
        "actor": "attacker",
        "payload": {"unit_id": 14, "changes": killed(14)},
    },
    roll(5, 4, 12, "1/2", []),  # a miss changes nothing: 0
    roll(6, 5, 13, "1/2", killed(12, 13)),  # two at an even chance, after roll 3: 1
    roll(7, 2, 14, "2/3", []),  # its hits, worked out without a die (8), take one: 1 x 1/3
    roll(8, 2, 14, None, killed(14)),
    roll(9, 3, 11, "1/100", killed(11)),  # undone
    # Turn 2: a planned barrage arrives; the reinforcements come on at 1 in 6 (the formation, not its stands).
    {
        "id": 10,
        "turn": 2,
        "kind": "fire-plan-arrival",
        "actor": "system",
        "payload": {"item": {"side": "attacker", "kind": "rolling-barrage"}},
    },
    {
        **roll(
            11,
            20,
            20,
            "1/6",
            [{"unit": u, "field": "off_table", "before": True, "after": False} for u in (20, 21)],
        ),
        "turn": 2,
    },
]


def test_decisiveness_is_the_effect_times_how_unlikely_the_result_was() -> None:
    acts = story.acts(LOG, UNITS, NAMES, {9}, RULES)
    assert {a.event_id: story.decisiveness(a) for a in acts} == {
        1: Fraction(35, 36),
        2: Fraction(10, 3),
        3: Fraction(1),
        4: Fraction(0),  # placed by hand: no odds, no luck
        5: Fraction(0),
        6: Fraction(1),
        7: Fraction(1, 3),
        10: Fraction(0),
        11: Fraction(5, 6),
    }


def test_the_story_opens_with_the_most_decisive_moments_and_tells_each_turn() -> None:
    told = story.story(LOG, UNITS, NAMES, {9}, RULES)
    assert [(m["event_id"], m["decisiveness"]) for m in told["decisive"]] == [
        (2, "10/3"),
        (3, "1/1"),
        (6, "1/1"),
    ]
    assert (
        told["decisive"][0]["words"]
        == "The defender's B Plt 11 shot at A Plt 2: hit. Suppressed: the attacker's A Coy (4 stands)."
    )
    # The turn: what each side lost (a stand suppressed and then lost is told as lost), what stayed suppressed.
    assert told["turns"] == [
        {
            "turn": 1,
            "sentences": [
                "The defender lost 4 stands (B Coy 4).",
                "Suppressed: the attacker's A Coy (4 stands).",
            ],
        },
        {
            "turn": 2,
            "sentences": [
                "No stand was lost.",
                "Arrived: the attacker's planned rolling barrage, the defender's C Bn.",
            ],
        },
    ]


def test_a_value_given_over_the_tables_is_told_as_the_players_claim() -> None:
    # Issue 52: the story tells a roll made on a range by the tape as the claim it was.
    taped = roll(1, 2, 11, "1/36", killed(11))
    why = "by the tape: 5 cm; the map measures 199 cm"
    taped["payload"]["filled"] = [
        {"field": "firer", "value": "mg", "why": "unit 2 is an mmg"},
        {"field": "range_cm", "value": 5, "why": why, "given": True, "table": 199.0},
    ]
    told = story.story([taped], UNITS, NAMES, set(), RULES)
    assert told["decisive"][0]["words"] == (
        f"The attacker's A Plt 2 shot at B Plt 11: hit ({why}). Lost: the defender's B Coy (1 stand)."
    )


def test_no_sentence_is_told_twice() -> None:
    """Issue 51: three tests of one battalion's morale with one result (the rule set tells them) and three
    shots of one stand at one target, each suppressing the same company again: each decisive moment says
    only what no moment before it said, and a turn says a sentence told again once, with how many times."""
    morale = {"dice": [2], "outcome_key": "retreat", "meaning": "Retreat 20cm.", "probabilities_exact": {}}
    log = []
    for i in range(3):
        base = roll(30 + i, 2, 11, "1/6", suppressed(11, 12, 13, 14))
        tested = {**base, "id": 40 + i, "payload": {"resolver": "morale", "unit_id": 10, "changes": []}}
        tested["payload"]["resolution"] = {**morale, "probabilities_exact": {"retreat": "1/6"}}
        log += [base, {**base, "id": 50 + i, "payload": {**base["payload"], "changes": []}}, tested]
        log.append(
            {**base, "id": 60 + i, "kind": "marker", "payload": {"changes": recovered(11, 12, 13, 14)}}
        )
    told = story.story(log, UNITS, NAMES, set(), RULES)
    sentences = [s for m in told["decisive"] for s in m["words"].split(". ")]
    assert len(sentences) == len(set(sentences)) and told["decisive"], told["decisive"]
    [turn] = told["turns"]
    assert "The defender's B Coy tested its morale: retreat 20cm (3 times)." in turn["sentences"], turn
    assert len(turn["sentences"]) == len(set(turn["sentences"]))


def recovered(*ids: int) -> list[dict[str, Any]]:
    return [{"unit": i, "field": "suppression", "delta": -1, "after": 0} for i in ids]


def test_the_referees_choice_to_play_on_after_a_victory_condition_is_told_in_its_turn() -> None:
    said = "Scenario victory condition 1: the defender took Bridge 1, in turn 2."
    played_on = {"kind": "victory-played-on", "turn": 2, "id": 9, "actor": "referee"}
    told = story.story([{**played_on, "payload": {"condition": 1, "words": said}}], {}, {}, set(), RULES)
    assert told["turns"][0]["sentences"][-1] == f"{said} The referee chose to play on."
