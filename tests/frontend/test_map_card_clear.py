"""The card never hides what is acted on (issue 41): its test is test_map_play.py's, on the attacker's game at the
portrait tablet and the phone (the line and the target's company clear of the card, the next stand tapped with
the card open, the tool bar one row, no label across a stand). Here the label check the map's other tests share."""

from __future__ import annotations

from typing import Any


def labels_over_stands(page: Any, labels: str = ".stand-label span") -> list[str]:
    """The shown labels (a stand's, or `labels` as the board's) whose box meets a drawn stand's."""
    found: list[str] = page.evaluate(
        """(labels) => { const stands = [...document.querySelectorAll('[data-stand]')].map((s) => s.getBoundingClientRect());
             return [...document.querySelectorAll(labels)].filter((l) => getComputedStyle(l).visibility !== 'hidden')
               .map((l) => [l.textContent, l.getBoundingClientRect()])
               .filter(([, r]) => stands.some((s) => r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top))
               .map(([t]) => t); }""",
        labels,
    )
    return found
