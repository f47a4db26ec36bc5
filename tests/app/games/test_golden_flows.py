"""Issue 25's promise that the refactored core changes nothing a client sees: scripted in-game flows (the Mons
specimen game, a mid-war and a late-war game from the organisation tables) are played on the current code, on
SQLite and PostgreSQL, and every event payload (as the referee and as each side read it), every unit, the
board, the after-action report and the hands at the end must equal those recorded on commit a8a8514
(golden/flows.json, written by golden/record.py against that commit; never rewrite it from the code under
test)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.flanders_fields import FlandersFields
from rules.flanders_fields.book import sequence as S
from rules.flanders_fields.book.common import PeriodId
from rules.flanders_fields.errata.table_play import RANGE_MEASURED
from rules.flanders_fields.play.game_fire import LIMBERING, NEAREST_RULE
from rules.flanders_fields.play.game_orders import ACTIONS_WHY
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from tests.app.games.golden.record import GOLDEN, play_all

RANGE_SOURCE = FlandersFields().context("early").citation(RANGE_MEASURED)

pytestmark = pytest.mark.storage  # the golden flows on each backend

ABSENT = "<absent>"
ISSUE_37_STATE = ("ordered_turn", "action_under_way")
OVERRIDDEN = "<overridden by the referee>"


def _label(path: str, i: int, item: Any) -> str:
    """A list item named by what a reader looks for: an event by its id and kind, a unit by its ref."""
    if isinstance(item, dict) and "kind" in item and "id" in item and "payload" in item:
        return f"{path}[{i}: event {item['id']} {item['kind']}]"
    if isinstance(item, dict) and "ref" in item:
        return f"{path}[{i}: unit {item['ref']}]"
    return f"{path}[{i}]"


def differences(before: Any, after: Any, path: str = "$") -> Iterator[tuple[str, Any, Any]]:
    """Every place where `after` differs from `before`: its path, the value before and after."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys()):
            yield from differences(before.get(key, ABSENT), after.get(key, ABSENT), f"{path}.{key}")
    elif isinstance(before, list) and isinstance(after, list):
        for i in range(max(len(before), len(after))):
            b = before[i] if i < len(before) else ABSENT
            a = after[i] if i < len(after) else ABSENT
            yield from differences(b, a, _label(path, i, b if b is not ABSENT else a))
    elif type(before) is not type(after) or before != after:
        yield path, before, after


def report(found: list[tuple[str, Any, Any]]) -> str:
    path, before, after = found[0]
    shown = "\n".join(f"  {p}" for p, _, _ in found[1:20])
    return (
        f"{len(found)} difference(s) from the golden flows (commit a8a8514). First: {path}\n"
        f"  before: {json.dumps(before, sort_keys=True)[:2000]}\n"
        f"  after:  {json.dumps(after, sort_keys=True)[:2000]}\n"
        f"then:\n{shown}"
    )


def with_changes_made_on_purpose(golden: Any) -> Any:
    """The golden flows as the session meant them to change, each change named with its commit; every other
    difference fails. 9db5177: a planned deep suppression arriving records no change of the game's penalty
    when the penalty rolled is the one already in force (before == after), in the log and in the report.
    Issue 38 (what an answer does to the table): a roll lists each field it filled once (an order roll's
    `quality`); the range cites the weapon ranges' section and erratum range-measured; a unit that deep
    suppression never applies to (the order roll's note said so) is no longer given it (erratum
    deep-suppression-on-table, the playsheet's reading); an air attack won by 3 or more destroys its target
    (AIR_ATTACK_KILLS). Issue 37: three rolls made out of their step are the referee's override
    (`OUT_OF_STEP`); a unit acts only with an action of its order (ISSUE_37); the Mons MG's shot (event 18) is the
    referee's override, as its target is not the nearest troops (and, issue 38, as Mons starts its MGs on their
    packs); Mons batteries start limbered ("All artillery is limbered"). Issue 52: a roll claiming a count
    the table keeps is the referee's override, its field filled as set beside the table's (`ISSUE_52`); a
    value the players judge by eye given other than the map reads it is filled as given (`ISSUE_52_SEEN`)."""
    out = _named_changes(golden)
    for flow, flows in out.items():
        for event_id, unit_ref in AIR_ATTACK_KILLS.get(flow, ()):
            for view in flows.values():
                _air_attack_killed(view, event_id, unit_ref)
    out = {flow: _orders_changes(flows, ISSUE_37.get(flow, {})) for flow, flows in out.items()}
    out = {flow: _claims_kept(flows, ISSUE_52.get(flow, {})) for flow, flows in out.items()}
    return {flow: _claims_seen(flows, ISSUE_52_SEEN.get(flow, {})) for flow, flows in out.items()}


# Issue 52 (what the table keeps is the table's), by flow: the rolls whose fields claimed a count the table keeps,
# now the referee's overrides (event id -> the kept field's (name, the table's value, the value claimed, why)).
ISSUE_52: dict[str, dict[int, tuple[str, Any, Any, str]]] = {
    "mid_war": {142: ("lost_platoons", 2, 8, "rifle platoons of Infantry Battalion destroyed")},
}


# Issue 52 (what the players judge by eye is marked as theirs), by flow: the rolls giving a value the table reads
# otherwise, now filled as given beside the map's reading (event id -> (field, the map's reading, the value given)).
ISSUE_52_SEEN: dict[str, dict[int, tuple[str, Any, Any]]] = {
    "late_war": {155: ("cover", "soft", "hard")},  # the firewaltz's "cover": "hard" (golden/record.py)
}


def _claims_seen(golden: Any, claims: Mapping[int, tuple[str, Any, Any]]) -> Any:
    """Issue 52: a roll giving a value the players judge by eye (cover) fills it first, marked as given."""
    if isinstance(golden, list):
        return [_claims_seen(v, claims) for v in golden]
    if not isinstance(golden, dict):
        return golden
    out = {k: _claims_seen(v, claims) for k, v in golden.items()}
    p = out.get("payload")
    if out.get("kind") == "roll" and out.get("id") in claims and isinstance(p, dict):
        name, table, given = claims[out["id"]]
        said = f"seen by the player: {given}; the map reads {table}"
        p["filled"].insert(0, {"field": name, "value": given, "why": said, "given": True, "table": table})
    return out


def _claims_kept(golden: Any, claims: Mapping[int, tuple[str, Any, Any, str]]) -> Any:
    """Issue 52: a roll giving a count the table keeps is the referee's override, recorded, and its field is
    filled as the referee set it, beside the table's."""
    if isinstance(golden, list):
        return [_claims_kept(v, claims) for v in golden]
    if not isinstance(golden, dict):
        return golden
    out = {k: _claims_kept(v, claims) for k, v in golden.items()}
    p = out.get("payload")
    if out.get("kind") == "roll" and out.get("id") in claims and isinstance(p, dict):
        name, table, given, why = claims[out["id"]]
        out["actor"] = "referee"
        p["override"] = {
            "by": "referee",
            "refused": f"The table keeps {name}: {table} here, not {given} ({why}).",
        }
        said = f"set by the referee: {given}; the table keeps {table}"
        at = next(i for i, f in enumerate(p["filled"]) if f["field"] == "starting_platoons") + 1
        p["filled"].insert(at, {"field": name, "value": given, "why": said, "given": True, "table": table})
    return out


# Issue 37 (orders and actions), by flow: the acts the flows made without an action, now the referee's
# overrides (event id -> the override's mark; an undo of one: its actor); what a move spends of its unit's
# actions (event id -> the changes as logged now); and the units written more often (ref -> version).
SPENT_MG = {"unit": 22, "field": "actions_left", "delta": -1, "after": 0}  # the Mons MG's move
SPENT_CO1 = {"unit": 5, "field": "actions_left", "delta": -1, "after": 1}  # a Mons platoon's slip
ISSUE_37: dict[str, dict[str, Any]] = {
    "mons": {
        "overridden": {9: True, 10: False, 11: True},  # 18: _named_changes
        "changes": {
            17: lambda cs: [*cs, SPENT_MG],
            25: lambda cs: [*cs, SPENT_CO1],
            26: lambda cs: [{**SPENT_CO1, "delta": 1, "after": 2}, *cs],
            28: lambda cs: [
                c for c in cs if c != {"after": 0, "before": 1, "field": "actions_left", "unit": 22}
            ],
        },
        "versions": {
            "mons-1914/de/infantry-regiment-1/infantry-battalion-1/rifle-company-1": 8,
            "mons-1914/de/infantry-regiment-1/infantry-battalion-1/rifle-company-2": 5,
            "mons-1914/de/infantry-regiment-1/infantry-battalion-1/mmg-company-1/mmg-1": 6,
            "mons-1914/gb/infantry-brigade-1/infantry-battalion-1/rifle-company-3": 5,
        },
    },
    "mid_war": {"versions": {"forces-1/gb-1915/battalion/rifle-company-1": 6}},
    "late_war": {"overridden": {157: True}},
}


def _orders_changes(golden: Any, issue_37: Mapping[str, Any]) -> Any:
    """Issue 37, orders and actions: a flow's events and units as ISSUE_37 says they change."""
    if isinstance(golden, list):
        return [_orders_changes(v, issue_37) for v in golden]
    if not isinstance(golden, dict):
        return golden
    out = {k: _orders_changes(v, issue_37) for k, v in golden.items()}
    p = out.get("payload")
    if issue_37 and isinstance(p, dict) and "kind" in out:
        if out.get("id") in issue_37.get("overridden", {}):
            out["actor"] = "referee"
            if issue_37["overridden"][out["id"]]:
                p["override"] = OVERRIDDEN
        if out.get("id") in issue_37.get("changes", {}):
            p["changes"] = issue_37["changes"][out["id"]](p["changes"])
    if issue_37 and out.get("ref") in issue_37.get("versions", {}):
        out["version"] = issue_37["versions"][out["ref"]]
    return out


# The air attacks of the flows won by 3 or more: (event id, the target's ref) per flow.
AIR_ATTACK_KILLS = {"late_war": ((156, "forces-1/gb-1917/battalion/rifle-company-1/rifle-platoon-3"),)}
OLD_RANGE = re.compile(r"Flanders Fields rule book: MEASURING \(closest distance between the bases\): (.*)")
NOT_DEEP_SUPPRESSED = "Deep Suppression is applied to Regimental/Brigade artillery and mortar rolls."


def _named_changes(golden: Any) -> Any:
    if isinstance(golden, list):
        return [_named_changes(v) for v in golden]
    if not isinstance(golden, dict):
        return golden
    out = {k: _named_changes(v) for k, v in golden.items()}
    p = out.get("payload")
    if out.get("kind") == "arrival-roll" and isinstance(p, dict) and p.get("resolver") == "deep-suppression":
        p["changes"] = [c for c in p["changes"] if c["before"] != c["after"]]
    if (
        out.get("kind") == "roll"
        and isinstance(p, dict)
        and p.get("resolver") == "shooting"
        and out["id"] == 18
    ):
        # Issue 37 (wt37c): the Mons MG's shot is not at its nearest troops, so the referee overrides.
        out["actor"] = "referee"
        # Its one action was spent by its move (issue 37's orders and actions), and Mons starts its MGs on their
        # packs (issue 38): the override passes those refusals too.
        p["override"] = {"by": "referee", "refused": f"{ACTIONS_WHY} {LIMBERING} {NEAREST_RULE}"}
    if str(out.get("ref", "")).startswith("mons-1914/") and out.get("kind") in (
        "field-battery",
        "howitzer-battery",
    ):
        out["limbered"] = True  # issue 38: "All artillery is limbered"
    if isinstance(p, dict) and isinstance(p.get("filled"), list):
        seen: set[str] = set()
        p["filled"] = [f for f in p["filled"] if not (f["field"] in seen or seen.add(f["field"]))]
        for f in p["filled"]:
            old = OLD_RANGE.fullmatch(str(f.get("why", ""))) if f["field"] == "range_cm" else None
            if old:
                f["why"] = f"{old[1]}, closest distance between the bases ({RANGE_SOURCE})"
        notes = p.get("resolution", {}).get("notes", [])
        if p.get("resolver") == "order-roll" and NOT_DEEP_SUPPRESSED in notes:
            notes.remove(NOT_DEEP_SUPPRESSED)
            p["filled"] = [f for f in p["filled"] if f["field"] != "deep_suppression"]
            p["request"]["deep_suppression"] = 0
    if out.get("kind") == "roll" and out.get("id") in OUT_OF_STEP and isinstance(p, dict):
        out["actor"] = "referee"
        p["override"] = {"by": "referee", "refused": OUT_OF_STEP[out["id"]]}
    return out


def _air_attack_killed(view: dict[str, Any], event_id: int, ref: str) -> None:
    """The target destroyed: the roll's change and filled target, the unit, and one more base lost in the
    report."""
    unit = next(u for u in view["units"] if u["ref"] == ref)
    events = [e for e in view["events"] if e["id"] == event_id]
    events += [e for t in view["report"]["turns"] for e in t["events"] if e["id"] == event_id]
    for e in events:
        p = e["payload"]
        p["changes"].append({"unit": unit["id"], "field": "killed", "before": False, "after": True})
        why = f"{unit['name']} is a {unit['kind']}"
        p["filled"].insert(1, {"field": "target", "value": "infantry", "why": why})
    unit["killed"], unit["version"] = True, unit["version"] + 1
    report = view["report"]
    side = unit["side"]
    report["casualties_by_side"][side] = _one_more_base(report["casualties_by_side"][side], report)
    for bn in report["losses_by_battalion"]:
        if bn["side"] == side and bn["unit_id"] == _battalion_of(view, unit):
            bn["bases_lost"] += 1
            bn["rifle_platoons_lost"] += 1
            bn["casualties"] = _one_more_base(bn["casualties"], report)


def _one_more_base(lost: dict[str, Any], report: dict[str, Any]) -> dict[str, Any]:
    return {**lost, **FlandersFieldsReport().casualties("late", {}, lost["bases"] + 1)}


def _battalion_of(view: dict[str, Any], unit: dict[str, Any]) -> int:
    by_id = {u["id"]: u for u in view["units"]}
    u = unit
    while u["level"] != "battalion":
        u = by_id[u["parent_id"]]
    return int(u["id"])


def _out_of_step(period: PeriodId, step: str, roll: S.RollAsked) -> str:
    index = next(i for i, s in enumerate(S.SEQUENCES[period].steps) if s.id == step)
    refused = S.roll_refusal("playing", period, index, "attacker", roll, "German")
    assert refused is not None
    return refused.why


# Issue 37: the rolls the flows made out of their step (events 47, 78, 156) are the referee's, by its override,
# as the rules of play now bind the step and the side: the Mons battery's deviation in the battalion orders (it
# belongs to the support orders), the British order roll in the German turn, the air attack in the barrages step
# (it belongs to the support orders).
OUT_OF_STEP = {
    47: _out_of_step("early", "battalion-orders", S.RollAsked("deviation", "attacker")),
    78: _out_of_step("mid", "battalion-orders", S.RollAsked("order-roll", "defender")),
    156: _out_of_step("late", "barrages-and-bombardments", S.RollAsked("air-attack", "attacker")),
}


def mons_reinforcements_due(golden: Any) -> Any:
    """Issue 38: the Mons flow ends at the start of the German turn 3, when its two reinforcement battalions,
    not diced for on turn 2, are due their roll (a 5 or more), which the turn panel lists."""
    for seen in golden["mons"].values():
        needs = seen["turn"]["needs"]
        needs[1:1] = [
            f"roll reinforcements for {n}. Regiment, Battalion 3: they arrive on a 5 or more" for n in (1, 2)
        ]
    return golden


def without_later_additions(played: Any) -> Any:
    """The flows as played, less what was added since on purpose, each named with its commit. 6a651e3: the
    report's luck ledger, read from the same events (tests/app/games/test_luck_ledger.py checks it). Issue
    26's arrival cards: an arrived fire item on the board keeps its turn, and a battery's where it lands and
    its deviation roll (tests/app/games/test_arrivals_api.py checks them). Issue 37: a unit's `packed` state
    (an MG or light mortar on its packs; tests/rules/flanders_fields/play/test_game_fire.py); the game turn a
    unit was ordered in and the action it is carrying out (tests/rules/flanders_fields/play/test_game_orders.py
    checks them); the referee's override of an act the orders and actions now refuse, as its mark. Issue 38: a
    shooting request's `target_in_deep_shelter`; a unit's reinforcement turns
    (tests/rules/flanders_fields/play/test_mons_start.py). Issue 42: the report's story of the game
    (tests/app/services/test_story.py, tests/app/games/test_mons_two_turns.py). Issue 55: the scenario's
    objectives and last turn kept on the board, and the report's result
    (tests/app/games/test_play_to_a_result.py). Issue 64: the turn's `needs_cards`, the stand whose card settles
    each need (tests/app/games/test_earth2mm_bound.py). Issue 67: a listed unit's `plain_name`, the map's names
    from the units list (tests/app/test_unit_names.py)."""
    if isinstance(played, list):
        return [without_later_additions(v) for v in played]
    if not isinstance(played, dict):
        return played
    fire_item = "item_id" in played and "kind" in played
    unit = "ref" in played and "suppression" in played
    later = ("packed", "reinforcement_turn", "reinforcement_diced")  # issues 37 and 38
    added = {
        "ledger",
        "story",
        *ISSUE_37_STATE,
        *(("turn", "lands", "deviation") if fire_item else ()),
        *(later if unit else ()),
        *(("plain_name",) if unit else ()),  # issue 67
        "table_objectives",  # issue 55
        "last_turn",
        "needs_cards",  # issue 64
        *(("result",) if "ledger" in played else ()),
    }
    if isinstance(played.get("target_in_deep_shelter"), bool):  # issue 38: a shooting request's new field
        added.add("target_in_deep_shelter")
    out = {k: without_later_additions(v) for k, v in played.items() if k not in added}
    if isinstance(out.get("changes"), list):
        out["changes"] = [
            c for c in out["changes"] if not (isinstance(c, dict) and c.get("field") in ISSUE_37_STATE)
        ]
    override = out.get("override")
    if isinstance(override, dict) and override.get("refused") == ACTIONS_WHY:
        out["override"] = OVERRIDDEN  # issue 37's refusal (test_game_orders.py checks it)
    return out


@pytest.mark.long
def test_flows_read_as_on_the_starting_commit(client: TestClient) -> None:
    golden = mons_reinforcements_due(with_changes_made_on_purpose(json.loads(GOLDEN.read_text())))
    played = without_later_additions(json.loads(json.dumps(play_all(client))))
    found = list(differences(golden, played))
    assert not found, report(found)


def test_the_comparison_finds_a_changed_payload() -> None:
    """The comparison itself can fail: one changed field deep in an event is found and named."""
    golden = json.loads(GOLDEN.read_text())
    changed = json.loads(GOLDEN.read_text())
    event = changed["mons"]["referee"]["events"][5]
    event["payload"]["source"] = "changed"
    found = list(differences(golden, changed))
    assert [(p.endswith(".payload.source"), a) for p, _, a in found] == [(True, "changed")]
    assert f"event {event['id']} {event['kind']}" in found[0][0]
