"""The period's ORDER SEQUENCE as data: each step carries the line its playsheet prints, and what it lets
the players do is read from those lines. The quotes below are copied from the three period playsheets."""

from __future__ import annotations

import re

import pytest

from rules.flanders_fields.book.sequence import (
    ANY_UNIT,
    SEQUENCES,
    SET_UP,
    Act,
    permits_now,
    refusal,
    step_at,
    unit_classes,
)


def squash(text: str) -> str:
    """Compare words, not the extraction's spacing, dashes or curly quotes."""
    text = text.replace("–", "-").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip()


# Each step's heading as the playsheet prints it (002, the three playsheets after the appendices).
PRINTED = {
    "early": [
        "1 SUPPORT ORDERS – DIVISION/REGIMENT/BRIGADE – Roll D6 for each unit, sequence is :~",
        "2 BATTALION ORDERS – Order each Battalion using the sequence:~",
        "3 MOVE COMMAND STANDS.",
    ],
    "mid": [
        "1 ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR 1-2 = No DS ~3-4 = -1 DS ~ 5 = -2 DS ~ 6 = -1 & 1 battery lost",
        "2 ROLLING BARRAGES – ADVANCE AND ROLL EFFECTS 1-2 No Effect ~ 3-5 Suppressed ~ 6 = Killed",
        "3 GAS – DEPLOY AND ROLL FOR WIND STRENGTH EACH TURN AFTER GAS IS DEPLOYED ROLL FOR WIND CHANGE PAGE 28",
        "4 BARRAGES AND BOMBARDMENTS DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS - ROLL EFFECTS",
        "5 SUPPORT ORDERS – DIVISION/REGIMENT/BRIGADE – Roll D6 for each unit, sequence is :~",
        "6 BATTALION ORDERS – Order each Battalion using the sequence:~",
        "7 MOVE COMMAND STANDS.",
    ],
    "late": [
        "1 ATTACKERS ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR 1-2 = No DS ~3-4 = -1 DS ~ 5 = -2 DS ~ 6 = -1 & 1 "
        "battery lost",
        "2 ATTACKERS ROLLING BARRAGES – ADVANCE AND ROLL EFFECTS",
        "3 GAS – DEPLOY AND/OR ROLL FOR WIND STRENGTH EACH TURN AFTER GAS IS DEPLOYED ROLL FOR WIND CHANGE PAGE 28",
        "4 BARRAGES AND BOMBARDMENTS DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS - ROLL EFFECTS",
        "5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS – Roll D6 for each unit, sequence is :~",
        "6 BATTALION ORDERS – Order each Battalion using the sequence:~",
        "7 MOVE COMMAND STANDS.",
    ],
}

# Every words a step's permits quote, as printed in that period's playsheet (or the rule book for gas).
QUOTED = {
    "early": {
        # "II. Individual Regimental/Brigade MGs ... “Actions” are; REMOVE A SUPPRESSION LEVEL, MOVE or FIRE."
        '"Actions" are; REMOVE A SUPPRESSION LEVEL, MOVE or FIRE',
        # "III. Individual Regimental/Brigade Artillery ... REDIRECT A BATTERY AIMING POINT, FIRE A BATTERY OR MOVE."
        '"Actions" are: REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE A BATTERY OR MOVE',
        # "ii. Battalion Rifle Companies; ... “Action” are; REMOVE A SUPPRESSION LEVEL, FIRE or MOVE."
        '"Action" are; REMOVE A SUPPRESSION LEVEL, FIRE or MOVE',
        "Remove suppression from Battalion commanders",
        "All command stands including any artillery liaison officers may move twice, at speed of their type",
    },
}
ROLLING_MID = "ROLLING BARRAGES - ADVANCE AND ROLL EFFECTS 1-2 No Effect ~ 3-5 Suppressed ~ 6 = Killed"
QUOTED["mid"] = QUOTED["early"] | {
    # "III. Individual Battalion Mortars; ... REDIRECT A BATTERY AIMING POINT, FIRE or MOVE"
    '"Actions" are; REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE or MOVE',
    ROLLING_MID,
    # The rule book's GAS: the cloud's attacks are rolled as it moves in the gas step.
    "As the gas sweeps over the table it will attack all the troops it passes over",
    "DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS - ROLL EFFECTS",
}
# The late sheet prints the barrage's effects on the line below its heading.
QUOTED["late"] = (QUOTED["mid"] - {ROLLING_MID}) | {
    "Med Cover (Trenches) 1-2 No Effect ~ 3-5 Suppressed ~ 6 = Dead"
}


@pytest.mark.parametrize("period", ["early", "mid", "late"])
def test_each_step_is_the_line_its_playsheet_prints(period: str) -> None:
    seq = SEQUENCES[period]
    assert [squash(s.printed) for s in seq.steps] == [squash(p) for p in PRINTED[period]]
    assert [s.number for s in seq.steps] == list(range(1, len(PRINTED[period]) + 1))
    assert seq.source.endswith(": ORDER SEQUENCE NOTES")
    for step in seq.steps:
        # The citation names the period's playsheet and the printed heading.
        assert "ORDER SEQUENCE NOTES" in step.source and f", {step.number} " in step.source


@pytest.mark.parametrize("period", ["early", "mid", "late"])
def test_every_permit_quotes_its_playsheet(period: str) -> None:
    quotes = {squash(p.quote) for s in SEQUENCES[period].steps for p in s.permits}
    assert quotes == {squash(q) for q in QUOTED[period]}


def actions(period: str, step: str, classes: tuple[str, ...] = ANY_UNIT) -> set[str]:
    st = next(s for s in SEQUENCES[period].steps if s.id == step)
    return {p.action for p in st.permits if set(p.units) & set(classes)}


def test_what_each_step_lets_the_players_do() -> None:
    rifles = unit_classes(is_command=False, under_battalion=True, commands_battalion=False)
    support = unit_classes(is_command=False, under_battalion=False, commands_battalion=False)
    bn_hq = unit_classes(is_command=True, under_battalion=True, commands_battalion=True)
    for period in ("early", "mid", "late"):
        # "Regiment/Brigade commanders may only issue orders to any of its own or attached assets": their
        # MGs and guns move, fire, recover and redirect aiming points in the support orders; rifles do not.
        assert actions(period, "support-orders", support) == {
            "move-stands",
            "place-markers",
            "recover-markers",
            "redirect-aiming-points",
        }
        assert actions(period, "support-orders", rifles) == {"place-markers"}
        # "Battalion Rifle Companies ... REMOVE A SUPPRESSION LEVEL, FIRE or MOVE".
        assert {"move-stands", "place-markers", "recover-markers"} <= actions(
            period, "battalion-orders", rifles
        )
        # "iii./V. Remove suppression from Battalion commanders" - but they move only in the last step.
        assert actions(period, "battalion-orders", bn_hq) == {"place-markers", "recover-markers"}
        assert actions(period, "move-command-stands", bn_hq) == {"move-stands"}
        assert actions(period, "move-command-stands", rifles) == set()
    # Mortars redirect aiming points from mid 1915; the 1914 battalion has none.
    assert "redirect-aiming-points" not in actions("early", "battalion-orders")
    assert "redirect-aiming-points" in actions("mid", "battalion-orders", rifles)
    # Barrages, gas and bombardments "ROLL EFFECTS": markers, no moves; deep suppression is a roll only.
    for period in ("mid", "late"):
        for step in ("rolling-barrages", "gas", "barrages-and-bombardments"):
            assert actions(period, step) == {"place-markers"}
        assert actions(period, "deep-suppression") == set()


def test_set_up_is_deployment_and_force_building_without_markers() -> None:
    # "Attacker and Defender deploy their forces a battalion at a time with the Defender starting."
    assert {p.action for p in SET_UP} == {
        "build-forces",
        "move-stands",
        "record-state",
        "redirect-aiming-points",
    }
    assert "Defender starting" in SET_UP[0].quote
    assert {p.action for p in permits_now("setup", "early", 0)} == {p.action for p in SET_UP}
    assert permits_now("finished", "late", 3) == ()


def act(action: str, side: str | None = "attacker", classes: tuple[str, ...] = ANY_UNIT) -> Act:
    return Act(action, side, classes)  # type: ignore[arg-type]


def test_refusals_name_the_step_and_what_is_allowed_now() -> None:
    rifles = unit_classes(is_command=False, under_battalion=True, commands_battalion=False)
    # Set-up: no markers.
    msg = refusal("setup", "early", 0, "attacker", act("place-markers", "defender"))
    assert msg is not None and "start" in msg and "not started" in msg.why and "deploy" in msg.why.lower()
    assert refusal("setup", "early", 0, "attacker", act("move-stands", "defender", rifles)) is None
    # After the game nothing.
    for action in ("place-markers", "move-stands", "build-forces", "record-state", "recover-markers"):
        msg = refusal("finished", "mid", 0, "attacker", act(action, "attacker", rifles))
        assert msg is not None and "over" in msg
    # Playing: the step decides, and the message says which step and what is allowed instead.
    msg = refusal("playing", "early", 2, "attacker", act("place-markers", "defender", rifles))
    assert msg is not None and "3. Move command stands" in msg.why and "Allowed now" in msg.why
    step = step_at("early", 2)
    assert "move command stands" in msg.why.lower() and "step 3" in msg and step and msg.source == step.source
    assert refusal("playing", "early", 1, "attacker", act("place-markers", "defender", rifles)) is None
    msg = refusal("playing", "early", 0, "attacker", act("move-stands", "attacker", rifles))
    assert msg is not None and "1. Support orders" in msg.why and "regimental/brigade MGs" in msg.why
    assert "step 1" in msg and len(msg) <= 120
    assert refusal("playing", "early", 1, "attacker", act("move-stands", "attacker", rifles)) is None
    # "one side moving and firing before the other side takes a turn": not the defender's stands now.
    msg = refusal("playing", "early", 1, "attacker", act("move-stands", "defender", rifles))
    assert msg is not None and "attacker's turn" in msg.why and "defender's turn" in msg
    # In one plain sentence (issue 64: "its stands may not move stands in the attacker's").
    assert msg == "Wait for the defender's turn: the defender may not move stands in the attacker's turn."
    # New units are force building: set-up only.
    msg = refusal("playing", "mid", 5, "attacker", act("build-forces", "attacker"))
    assert msg is not None and "set-up" in msg and "set-up" in msg.why
    # What happened to a stand (wire, gas, shelter, promotions) is recorded in any step, by either side.
    assert refusal("playing", "mid", 0, "attacker", act("record-state", "defender")) is None
