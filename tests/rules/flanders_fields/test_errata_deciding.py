"""Which errata decide an answer (`rules.core.readings`), against the quoted errata: a raw firer's penalty
("-1 ... Raw Troops (in the list of DIRECT FIRE FACTORS)" on the playsheet; "DIRECT FIRE MODIFIERS lists no
modifier for raw troops." in the main text) decides a roll on the threshold, and not a natural 6."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import RulesError
from rules.core.readings import readings_deciding, source_for
from rules.flanders_fields import errata as E
from tests.rules.flanders_fields import FF

RAW_SHOT = {"period": "early", "firer": "infantry", "cover": "open", "range_cm": 10, "firer_raw": True}


def _deciding(dice: tuple[int, ...] | None, **body: Any) -> dict[str, tuple[str, list[str]]]:
    req = FF.resolvers["shooting"].Request.model_validate(body)
    return {
        u.erratum.id: (u.used.id, [r.id for r in u.others])
        for u in readings_deciding(FF, "shooting", req, dice)
    }


def test_the_raw_penalty_decides_a_roll_on_the_threshold_and_names_the_other_reading() -> None:
    erratum = FF.errata[E.RAW_FIRER_PENALTY]
    assert erratum.reading("playsheet").text == "-1 ... Raw Troops (in the list of DIRECT FIRE FACTORS)"
    assert erratum.reading("main-text").text == "DIRECT FIRE MODIFIERS lists no modifier for raw troops."
    # Early infantry in the open suppresses on 3: a raw 3 is a 2 by the playsheet, a 3 by the main text.
    assert _deciding((3,), **RAW_SHOT) == {E.RAW_FIRER_PENALTY: ("playsheet", ["main-text"])}
    assert _deciding((3,), **RAW_SHOT, variants={E.RAW_FIRER_PENALTY: "main-text"}) == {
        E.RAW_FIRER_PENALTY: ("main-text", ["playsheet"])
    }
    (used,) = readings_deciding(
        FF, "shooting", FF.resolvers["shooting"].Request.model_validate(RAW_SHOT), (3,)
    )
    assert used.line == "Reading: Raw troops shooting: Playsheet" and not used.variant


def test_a_reading_read_but_deciding_nothing_is_not_named() -> None:
    assert _deciding((6,), **RAW_SHOT) == {}  # a 6 kills by either reading
    assert _deciding((3,), **{**RAW_SHOT, "firer_raw": False}) == {}  # not raw: the erratum is not read


def test_without_dice_the_odds_are_the_answer() -> None:
    assert _deciding(None, **RAW_SHOT) == {E.RAW_FIRER_PENALTY: ("playsheet", ["main-text"])}


def test_an_unknown_reading_is_refused_as_resolving_it_would_be() -> None:
    with pytest.raises(RulesError) as e:
        _deciding((3,), **RAW_SHOT, variants={E.RAW_FIRER_PENALTY: "both"})
    assert e.value.field == f"variants.{E.RAW_FIRER_PENALTY}"


def test_a_reading_cites_its_own_periods_playsheet_and_the_others_apart() -> None:
    """Issue 69 at 390 px: the raw firer's reading cites the three periods' DIRECT FIRE FACTORS (six lines); an
    early shot's answer cites the early playsheet, the others kept apart (a disclosure), and a reading read from
    another period's table is cited whole."""
    req = FF.resolvers["shooting"].Request.model_validate(RAW_SHOT)
    (raw,) = readings_deciding(FF, "shooting", req, (3,))
    assert raw.here == "Flanders Fields playsheet, Western Front 1914 to mid 1915: DIRECT FIRE FACTORS"
    assert raw.elsewhere.count("DIRECT FIRE FACTORS") == 2 and "1914" not in raw.elsewhere
    assert raw.mark == "(default)"
    late_table = FF.errata[E.MID_FIRING_TABLE].reading("late-table").source
    assert source_for(FF, "mid", late_table) == (late_table, "")
