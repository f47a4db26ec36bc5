// The organiser's board live: [data-event-board] names the event's stream (?view=html), whose `board` frames
// carry the server's cells of each table that changed, the disputes waiting and the round's end
// (app/pages/event_rows.py), swapped out of band by htmx. game-clock.js runs their clocks on.
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
