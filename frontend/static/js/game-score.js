// The score's panels, the server's (app/pages/score_panel.py): swapped out of band from a live frame
// (`score_panel`) for this seat, or read as the page opens, on a resync, a write or a frame too big for them.
(() => {
  const root = document.querySelector("[data-score-panel]");
  if (!root || !window.htmx) return;
  let last = null; // the panels as last swapped: a board's turn panel swapped anew takes its end list again
  // Each part put where it names (hx-swap-oob) as htmx.swap would, without its work per node (10-20 ms).
  const swap = (html) => {
    for (const part of [...document.createRange().createContextualFragment((last = html)).children]) {
      const [how, where] = part.getAttribute("hx-swap-oob").split(/:(.*)/s);
      const at = document.querySelector(where), now = how === "innerHTML" ? at : part;
      if (!at) continue;
      if (now === at) at.replaceChildren(...part.childNodes); else at.replaceWith(part);
      now.removeAttribute("hx-swap-oob");
      window.htmx.process(now); // its own hx- buttons (a seal's check)
      const told = { bubbles: true, detail: { target: now } };
      for (const n of ["oobAfterSwap", "afterSettle"]) now.dispatchEvent(new CustomEvent(`htmx:${n}`, told));
    }
  };
  const read = () => window.htmx.ajax("GET", root.dataset.scorePanel, { source: root, swap: "none" });
  root.addEventListener("htmx:afterRequest", (e) => { if (e.detail.elt === root && e.detail.successful) last = e.detail.xhr.responseText; });
  document.addEventListener("firestep:event", ({ detail: ev }) => {
    if (typeof ev?.score_panel === "string") swap(ev.score_panel);
    else if (ev?.refetch || (ev && "score_panel" in ev)) read(); // the frame had no room for them
  });
  ["firestep:resync", "firestep:refresh"].forEach((name) => document.addEventListener(name, read));
  // The board's pieces swapped (board-live.js) or End the game opened: a turn panel anew takes the panels.
  const fill = () => document.querySelector("[data-end-settle]:not([data-contested])") && (last ? swap(last) : read());
  document.addEventListener("firestep:board-updated", fill);
  document.addEventListener("toggle", (e) => e.target.matches("[data-end-game][open]") && fill(), true);
  // "Yes, end the game" once none is contested (result.end_refusal); the map's objectives drawn anew once the
  // panels are painted (the chip's words first, then the map's work: a call reached the other page later).
  document.addEventListener("htmx:oobAfterSwap", ({ detail: { target } }) => {
    if (target?.matches?.("[data-objective-cards]")) requestAnimationFrame(() => document.dispatchEvent(new Event("firestep:score")));
    if (!target?.matches?.("[data-end-settle]")) return;
    for (const y of document.querySelectorAll("[data-end-game] [data-end-confirm]")) {
      const s = y.closest("[data-end-game]").querySelector("[data-end-settle][data-contested]");
      if (s) y.hidden = s.dataset.contested !== "0";
    }
  });
  // A page without the map's tool panel: the chip opens and closes its dashboard in place.
  document.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-score-chip][aria-controls]");
    const box = chip && document.getElementById(chip.getAttribute("aria-controls"));
    if (box) chip.setAttribute("aria-expanded", String(!(box.hidden = !box.hidden)));
  });
  read();
})();
