// A side's cards at the table: the tool bar's "Draw a card" (or "Enter a card" from the club's own pack) offered
// to the side to move as the server's turn chip says (read anew by htmx: table-map.js). Its buttons are the
// page's writes (map.html: data-api, data-done), the server's reading of the draw shown (app/pages/drawn_cards.py).
(() => {
  const start = () => {
    const m = window.firestepMap;
    const tool = document.querySelector("[data-cards-tool]");
    const shown = document.querySelector("[data-panel='cards'] [data-card-drawn]");
    if (!m || !tool || !shown) return;
    const offer = () => { tool.hidden = document.querySelector("[data-map-turn]")?.dataset.sideToMove !== m.root.dataset.role; };
    document.addEventListener("htmx:afterSettle", offer);
    offer();
    tool.addEventListener("click", () => shown.replaceChildren());
  };
  if (window.firestepMap) start();
  else window.addEventListener("firestep:map-ready", start, { once: true });
})();
