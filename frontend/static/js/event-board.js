// The organiser's board live: [data-event-board] names the event's stream (?view=html and the tables shown),
// whose `board` frames carry the page's pieces that changed (app/pages/event_rows.py: the tables' cells, the
// round at a glance, its disputes and end), swapped out of band by htmx. game-clock.js runs their clocks on.
(() => {
  const root = document.querySelector("[data-event-board]");
  if (!root || !window.EventSource || !window.htmx) return;
  const note = root.querySelector("[data-live-note]");
  const source = new EventSource(root.dataset.eventBoard);
  source.onopen = () => { if (note) note.textContent = "live"; };
  source.onerror = () => { if (note) note.textContent = "reconnecting…"; };
  source.addEventListener("board", (ev) => {
    window.htmx.swap(root, JSON.parse(ev.data), { swapStyle: "none" });
    root.dispatchEvent(new CustomEvent("firestep:board", { bubbles: true }));
  });
})();
