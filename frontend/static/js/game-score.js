// The score of a game (issue 55), in view on every page of the game: its chip ([data-score-chip]), its dashboard
// ([data-score-dashboard]), the map's objective cards and the board's end list ([data-end-settle]) are the
// server's (app/pages/score_panel.py, _score_panel.html), read by htmx from [data-score-panel] and swapped out
// of band into the page's own. This script only says when to read them: as the page opens, after a reconnect
// (`firestep:resync`) or a write (`firestep:refresh`), when a live frame says the score may have changed (the
// map's frames carry `score` when it may: app.services.score.touches_score; the board's every frame), and as the
// board's End the game opens. The referee's call is a form the server drew (hx-post); a refusal is said in its
// one sentence. Each side's time in the chip ticks with game-clock.js's face.
(() => {
  const root = document.querySelector("[data-score-panel]");
  if (!root || !window.htmx) return;
  const map = root.dataset.liveView === "map";
  // At once (the chip as soon as the frame comes): a read asked for while one is on its way waits for it, once
  // (htmx's queue for one element keeps the last), so the frames of one burst make two reads at most.
  const read = () => window.htmx.ajax("GET", root.dataset.scorePanel, { source: root, swap: "none" });
  document.addEventListener("firestep:event", (e) => { if (!map || (e.detail && e.detail.score)) read(); });
  ["firestep:resync", "firestep:refresh", "firestep:board-updated"].forEach((name) => document.addEventListener(name, read));
  document.addEventListener("toggle", (e) => { if (e.target.matches?.("[data-end-game]") && e.target.open) read(); }, true);
  // "Yes, end the game" only once no objective is contested (app.services.result.end_refusal reads the same); the
  // map's open objective card shown anew from its new cards (table-objectives.js hears `firestep:score`).
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
  // A call refused: net-status.js says its sentence; the panels as they now stand.
  document.addEventListener("htmx:responseError", (e) => { if (e.target.matches?.("[data-score-call-form]")) read(); });
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
