// A side's cards at the table: the tool bar's "Draw a card" (or "Enter a card" from the club's own pack) for
// the side that may draw; one tap draws (POST .../resolve/{draw}) or takes the card drawn at the table (POST
// .../cards/drawn), then shows the server's reading of the draw for this seat (app/pages/drawn_cards.py).
(() => {
  const start = () => {
    const m = window.firestepMap;
    const tool = document.querySelector("[data-cards-tool]");
    const box = document.querySelector("[data-panel='cards']");
    if (!m || !tool || !box) return;
    const shown = box.querySelector("[data-card-drawn]");

    // The side to move as the server's turn chip says, read anew by htmx (table-map.js).
    const offer = () => { tool.hidden = document.querySelector("[data-map-turn]")?.dataset.sideToMove !== m.root.dataset.role; };
    document.addEventListener("htmx:afterSettle", offer);
    offer();

    const render = async (answer) => {
      const part = await window.firestepDom.read(`/games/${m.root.dataset.game}/map/cards/${answer.event_id}`);
      if (!part) {
        m.notice("The card is recorded; it shows when the connection is back.");
        document.addEventListener("firestep:resync", () => render(answer), { once: true });
        return;
      }
      shown.replaceChildren(part.parentNode); // the cards' list and the notes after it
    };
    const send = async (url, body, button) => {
      button.disabled = true;
      const r = await m.send(url, { body });
      button.disabled = false;
      if (m.failed(r)) { m.notice(m.refusal(r, "The card was not recorded; check the connection.")); return; }
      if (r.queued || !r.data) return; // kept: the outbox tells the player
      render(r.data);
    };

    box.addEventListener("click", (e) => {
      // Rank and suit apart: the pack's card ids appear only where a card is drawn (the secrets walk).
      const entered = e.target.closest("[data-card-rank]");
      if (entered) { send(`${m.api}/cards/drawn`, { cards: [entered.dataset.cardRank + entered.dataset.cardSuit] }, entered); return; }
      const draw = e.target.closest("[data-card-draw]");
      if (draw) send(`${m.api}/resolve/${box.dataset.draw}`, {}, draw);
    });
    tool.addEventListener("click", () => shown.replaceChildren());
  };
  if (window.firestepMap) start();
  else window.addEventListener("firestep:map-ready", start, { once: true });
})();
