// The score on every page of a game: its chip, dashboard, the map's objective cards and the board's end
// list are the server's (app/pages/score_panel.py), swapped out of band from a live frame (`score_panel`) for
// this seat, or read as the page opens, on a resync or a write, and after a frame with no room for them.
(() => {
  const root = document.querySelector("[data-score-panel]");
  if (!root || !window.htmx) return;
  let last = null; // the panels as last swapped: a board's turn panel swapped anew takes its end list again
  const swap = (html) => { last = html; window.htmx.swap(root, html, { swapStyle: "none" }); };
  // At once: a read asked for while one is on its way waits for it, once (htmx's queue for one element keeps
  // the last), so a burst makes two reads at most.
  const read = () => window.htmx.ajax("GET", root.dataset.scorePanel, { source: root, swap: "none" });
  root.addEventListener("htmx:afterRequest", (e) => { if (e.detail.elt === root && e.detail.successful) last = e.detail.xhr.responseText; });
  document.addEventListener("firestep:event", (e) => {
    const ev = e.detail || {};
    if (typeof ev.score_panel === "string") swap(ev.score_panel);
    else if (ev.refetch || "score_panel" in ev) read(); // the frame had no room for them
  });
  ["firestep:resync", "firestep:refresh"].forEach((name) => document.addEventListener(name, read));
  // The board's pieces swapped (board-live.js), or its End the game opened: a turn panel anew has an empty
  // end list until it takes the panels (the newest, kept: the frames keep them up to date).
  const fill = () => { if (document.querySelector("[data-end-settle]:not([data-contested])")) (last ? swap(last) : read()); };
  document.addEventListener("firestep:board-updated", fill);
  document.addEventListener("toggle", (e) => { if (e.target.matches?.("[data-end-game]") && e.target.open) fill(); }, true);
  // "Yes, end the game" only once no objective is contested (app.services.result.end_refusal reads the same);
  // the map's open objective card shown anew from its new cards (table-objectives.js hears `firestep:score`).
  document.addEventListener("htmx:oobAfterSwap", (e) => {
    const target = e.detail.target;
    if (target?.matches?.("[data-objective-cards]")) document.dispatchEvent(new CustomEvent("firestep:score"));
    if (!target?.matches?.("[data-end-settle]")) return;
    document.querySelectorAll("[data-end-game]").forEach((box) => {
      const settle = box.querySelector("[data-end-settle][data-contested]");
      const yes = box.querySelector("[data-end-confirm]");
      if (settle && yes) yes.hidden = settle.dataset.contested !== "0";
    });
  });
  // A page without the map's tool panel: the chip opens and closes its dashboard in place.
  document.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-score-chip][aria-controls]");
    const box = chip && document.getElementById(chip.getAttribute("aria-controls"));
    if (!box) return;
    box.hidden = !box.hidden;
    chip.setAttribute("aria-expanded", String(!box.hidden));
  });
  read();
})();
