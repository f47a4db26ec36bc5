"""A switch is drawn by its track: app.css hides a `.toggle` label's checkbox (it is the track a finger sees and
taps), so a `.toggle` label with no `.toggle-track` after its checkbox shows only its words, on or off alike, and
a tap on a sentence switches something unseen (session 20's newcomer: "Starts off the table" took a company off)."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "frontend" / "templates"
TOGGLE = re.compile(r'<label class="toggle\b.*?</label>', re.S)
CHECKBOX_THEN_TRACK = re.compile(r'<input type="checkbox"[^>]*>\s*<span class="toggle-track"', re.S)


def test_every_switch_label_draws_its_track_after_its_checkbox() -> None:
    labels = [(p.name, m.group(0)) for p in TEMPLATES.glob("*.html") for m in TOGGLE.finditer(p.read_text())]
    assert len(labels) >= 4
    untracked = [name for name, label in labels if not CHECKBOX_THEN_TRACK.search(label)]
    assert untracked == []
