// The organiser's board live: [data-event-board] names the event's stream (?view=html), whose `board` frames
// carry the server's cells of each table that changed, the round at a glance, the disputes waiting and the
// round's end (app/pages/event_rows.py), swapped out of band by htmx. The board shows a page of the round's
// tables (issue 93: 400 tables drawn whole took a tablet 7-12 s to load): a frame's cells of the tables on
// no page shown are dropped before the swap, so that a result coming in swaps its own row's cells, if shown,
// never 400 rows. game-clock.js runs their clocks on.
(() => {
  const root = document.querySelector("[data-event-board]");
  if (!root || !window.EventSource || !window.htmx) return;
  const note = root.querySelector("[data-live-note]");
  const source = new EventSource(root.dataset.eventBoard);
  const shown = (html) => {
    const frame = document.createElement("template");
    frame.innerHTML = html;
    const parts = [frame.content, ...[...frame.content.querySelectorAll("template")].map((t) => t.content)];
    for (const part of parts) {
      for (const piece of part.querySelectorAll("[hx-swap-oob][id]")) {
        if (!document.getElementById(piece.id)) piece.remove();
      }
    }
    return frame.innerHTML;
  };
  source.onopen = () => { if (note) note.textContent = "live"; };
  source.onerror = () => { if (note) note.textContent = "reconnecting…"; };
  source.addEventListener("board", (ev) => {
    window.htmx.swap(root, shown(JSON.parse(ev.data)), { swapStyle: "none" });
    root.dispatchEvent(new CustomEvent("firestep:board", { bubbles: true }));
  });
})();
