// A side's cards at the table: the tool bar's "Draw a card" (or "Enter a card", where the game draws from the
// club's own pack) for the side that may draw; its card draws with one tap (POST .../resolve/{draw}), or
// takes the card drawn at the table with one tap of it (POST .../cards/drawn): two taps from the map. Either
// way it shows only the cards drawn and what becomes of them, as secret from the other side as the server
// keeps them.
(() => {
  const start = () => {
    const m = window.firestepMap;
    const tool = document.querySelector("[data-cards-tool]");
    const box = document.querySelector("[data-panel='cards']");
    if (!m || !tool || !box) return;
    const shown = box.querySelector("[data-card-drawn]");

    // The side to move may draw: the tool is there for it alone.
    const turn = document.querySelector("[data-map-turn]");
    const offer = () => { tool.hidden = !(turn && turn.dataset.sideToMove === m.root.dataset.role); };
    if (turn) new MutationObserver(offer).observe(turn, { attributes: true, attributeFilter: ["data-side-to-move"] });
    offer();

    // The cards drawn, each with its title and text, then what the rules do with them ("kept", "played at
    // once"), as the server reads the draw's event for this seat (GET /games/{id}/map/cards/{event},
    // app/pages/drawn_cards.py).
    const render = async (answer) => {
      const r = await fetch(`/games/${m.root.dataset.game}/map/cards/${answer.event_id}`, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" }).catch(() => null);
      if (!(r && r.ok)) {
        m.notice("The card is recorded; it shows when the connection is back.");
        document.addEventListener("firestep:resync", () => render(answer), { once: true });
        return;
      }
      shown.replaceChildren(document.createRange().createContextualFragment(await r.text()));
    };
    const send = async (url, body, button) => {
      button.disabled = true;
      const r = await m.send(url, { body });
      button.disabled = false;
      if (m.failed(r)) { m.notice(m.refusal(r, "The card was not recorded; check the connection.")); return; }
      if (r.queued || !r.data) { m.notice("Kept on this device: it is recorded when the connection is back."); return; }
      render(r.data);
    };

    box.addEventListener("click", (e) => {
      // Rank and suit apart in the page: the pack's card ids appear only where a card is drawn (the secrets
      // walk).
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
