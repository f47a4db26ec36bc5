"""The page events: the DOM events (`firestep:*`) the game pages' scripts dispatch and listen for, named once
here with who sends each and what it says (issue 67: fifteen of them had no single list). A script that sends or
hears a new one adds it here; tests/test_page_events.py holds every name in frontend/ to this list, and the list
to the names in use."""

from __future__ import annotations

PAGE_EVENTS: dict[str, str] = {
    # The game's stream (live.js), on document.
    "firestep:event": "live.js: an event of the game's stream, with its view's parts (map, board, counters)",
    "firestep:aside": "live.js: a frame that is no event (an event table's round timer), when it changes",
    "firestep:resync": "live.js: reconnected, back online or shown again: each view reads what it shows anew",
    "firestep:refresh": "outbox.js, api-action.js, a page's HX-Trigger: a write went through; read anew if not live",
    # The referee board, the score and the event's table page.
    "firestep:board-updated": "board-live.js: the referee board's pieces swapped or read anew",
    "firestep:board": "event-board.js: the organiser's board's cells swapped in (their clocks and timer drawn)",
    "firestep:turn-read": "table-map.js: the game's turn changed: htmx reads the map's turn chip (its hx-trigger)",
    "firestep:clock-read": "game-clock.js: a frame too big to carry the clock's panel: htmx reads it (its hx-trigger)",
    "firestep:score": "game-score.js: the score's panels swapped anew (the map's objective cards among them)",
    # The table map (window).
    "firestep:map-changed": "table-map.js, table-formation.js: a stand, template or marker changed on the map",
    "firestep:map-redraw": "table-map.js: the whole map drawn again",
    "firestep:stand-shown": "table-map.js: a stand's card shown (detail: id, tapped, moved)",
    "firestep:stand-acts": "table-act.js: a stand card's acts read (detail: id, edits, first)",
    "firestep:template-selected": "table-map.js: a template selected (detail: id)",
    # The sentences said at the foot of a page (document).
    "firestep:notice-gone": "net-status.js: a sentence removed or replaced (detail: key, said): a map's Move ends",
    # The scenario editor.
    "firestep:period": "scenario-editor.js: the period picked: the terrain kind's card read anew (its hx-trigger)",
}
