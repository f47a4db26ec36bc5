"""A roll's result in words (rules.core.consequences), for both rule sets played at the table: every change the
golden play scripts make (every act the map offers, every resolver they roll) and every change any state
field can take reads as a sentence, never as a state diff ("false", "true", "0 → 1"), with its counts and
plurals right, a kill as "<name> destroyed."."""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import ExitStack
from fractions import Fraction

import pytest

from rules import registry
from rules.core.consequences import odds_words, outcome_words, said
from rules.core.records import AddToState, Change, SetState, StateField
from tests.rules.golden_play import TEST_RULESETS, load, play_act, scripts, start

PLAYED = ("flanders-fields", "2mm-earth-1418")


def _plain(sentences: Sequence[str]) -> None:
    for s in sentences:
        assert not re.search(r"\b(true|false|none)\b|→", s, re.I), s
        assert not re.search(r"(?<![\d.])1 (actions|hits|suppression markers|bounds)\b", s), s
        assert s.endswith(".") and (s[0].isupper() or s[0].isdigit()), s


@pytest.mark.parametrize("ruleset", PLAYED)
def test_every_change_of_the_golden_plays_reads_as_a_sentence(ruleset: str) -> None:
    played = [p for p in scripts() if load(p)["ruleset"] == ruleset]
    assert played
    with ExitStack() as stack:
        for cls in TEST_RULESETS:
            stack.enter_context(registry.registered(cls))
        for path in played:
            script = load(path)
            t = start(script)
            names = {u.id: f"{u.name} #{u.id}" for u in t.snap.units}
            for step in script["acts"]:
                seen: list[Change] = []
                play_act(t, step["act"], seen)
                words = said(seen, t.rules.book.state_fields, names)
                _plain(words)
                killed = [names[c.unit_id] for c in seen if isinstance(c, SetState) and c.field == "killed"]
                for name in killed:
                    assert any(name in s and s.endswith(" destroyed.") for s in words), (name, words)
                if len(killed) == 1:
                    assert f"{killed[0]} destroyed." in words


def _every_change(f: StateField) -> list[Change]:
    """Each kind of change the field can take: set and cleared, counts of none, one and more, up and down."""
    if f.kind == "count":
        return [SetState("", "", 1, f.name, n) for n in (0, 1, 2)] + [
            AddToState("", "", 1, f.name, d) for d in (-2, -1, 1, 2)
        ]
    return [
        SetState("", "", 1, f.name, v) for v in ((True, False) if f.kind == "flag" else ("hold", "", None))
    ]


@pytest.mark.parametrize("ruleset", PLAYED)
def test_every_change_of_every_field_reads_as_a_sentence(ruleset: str) -> None:
    fields = registry.get_game_rules(ruleset).book.state_fields
    names = {1: "1/1 Coy Plt 1", 2: "1/1 Coy Plt 2"}
    for f in fields:
        for c in _every_change(f):
            one = said([c], fields, names)
            assert bool(one) == f.shown, (f.name, one)  # the rules' bookkeeping is not said
            both = said([c, type(c)(**{**c.__dict__, "unit_id": 2})], fields, names)
            _plain(one + both)
            if one:
                assert one[0].startswith("1/1 Coy Plt 1 "), one
            if both:
                assert both[0].startswith("1/1 Coy Plt 1 and 1/1 Coy Plt 2 "), both


def test_counts_kills_and_flags_in_the_rule_sets_words() -> None:
    ff = registry.get_game_rules("flanders-fields").book.state_fields
    names = {1: "1/1 Coy Plt 1", 2: "1/1 Coy Plt 2", 3: "1/1 Coy Plt 3", 9: "1 Bn", 7: "1/1 Coy"}
    changes: list[Change] = [
        SetState("", "", 1, "killed", True),
        SetState("", "", 9, "morale_due", True),
        *(AddToState("", "", u, "suppression", 1) for u in (2, 3)),
        SetState("", "", 7, "actions_left", 1),
        SetState("", "", 7, "ordered_turn", 1),
    ]
    assert said(changes, ff, names) == [
        "1/1 Coy Plt 1 destroyed.",
        "1 Bn must test morale.",
        "1/1 Coy Plt 2 and 1/1 Coy Plt 3 gain 1 suppression marker each.",
        "1/1 Coy has 1 action.",
    ]
    assert said([AddToState("", "", 7, "actions_left", -1)], ff, names) == ["1/1 Coy loses 1 action."]
    assert said([SetState("", "", 7, "actions_left", 0)], ff, names) == ["1/1 Coy has no actions."]


def test_an_outcome_in_words_counts_right() -> None:
    assert outcome_words({"actions": 1}) == "1 action"
    assert outcome_words({"hits": 2, "injuries": 1, "kills": 0}) == "2 hits, 1 injury, no kills"
    assert outcome_words("attacker-wins") == "attacker wins"
    # 2mm's hits allocated: the bases each list names counted, the hits left waiting (issue 51: the card said
    # "Allocate hits: rolled , no hits waiting.").
    allocated = {"injured": [262, 263], "removed": [], "hits_waiting": 1}
    assert outcome_words(allocated) == "2 injured, none removed, 1 hit waiting"


def test_odds_in_words_as_the_card_says_them() -> None:
    """The one formatter of odds (the card, the story, the ledger): a possible outcome is never "(0%)"."""
    assert odds_words(Fraction(1, 216)) == "1 in 216"
    assert odds_words(Fraction(5, 12)) == "5 in 12"
    assert odds_words("1/36") == "1 in 36"
    assert (odds_words(Fraction(1)), odds_words(Fraction(0))) == ("certain", "never")
