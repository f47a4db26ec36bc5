// A side's cards at the table (issue 41): the tool bar's "Draw a card" (or "Enter a card", where the game draws
// from the club's own pack) for the side that may draw; its card draws with one tap (POST .../resolve/{draw}),
// or takes the card drawn at the table by its suit, then its rank (POST .../cards/drawn). Either way it shows
// only the cards drawn and what becomes of them, as secret from the other side as the server keeps them.
(() => {
  const start = () => {
    const m = window.firestepMap;
    const tool = document.querySelector("[data-cards-tool]");
    const box = document.querySelector("[data-panel='cards']");
    if (!m || !tool || !box) return;
    const { h } = m;
    const shown = box.querySelector("[data-card-drawn]");
    let suit = null;

    // The side to move may draw: the tool is there for it alone.
    const turn = document.querySelector("[data-map-turn]");
    const offer = () => { tool.hidden = !(turn && turn.dataset.sideToMove === m.root.dataset.role); };
    if (turn) new MutationObserver(offer).observe(turn, { attributes: true, attributeFilter: ["data-side-to-move"] });
    offer();

    const pickSuit = (s) => {
      suit = s;
      box.querySelectorAll("[data-card-suit]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.cardSuit === s)));
      box.querySelectorAll("[data-card-rank]").forEach((b) => { b.disabled = false; });
    };
    const reset = () => {
      suit = null;
      box.querySelectorAll("[data-card-suit]").forEach((b) => b.setAttribute("aria-pressed", "false"));
      box.querySelectorAll("[data-card-rank]").forEach((b) => { b.disabled = true; });
    };
    // The cards drawn, each with its title and text, then what the rules do with them ("kept", "played at once").
    const render = (answer) => {
      const res = answer.resolution || {};
      const drawn = (res.outcome && res.outcome.drawn) || [];
      shown.replaceChildren(
        h("ul", { class: "ev-cards", "data-cards-drawn": String(answer.event_id) }, drawn.map((c) => h("li", { class: `ev-card kind-${c.kind}`, "data-card": c.card },
          h("strong", { class: "ev-card-title", text: `${c.card}: ${c.title || "no event"}` }),
          h("span", { class: "ev-card-text", text: c.text })))),
        ...(res.notes || []).map((t) => h("p", { class: "muted", text: t })));
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
      const s = e.target.closest("[data-card-suit]");
      if (s) { pickSuit(s.dataset.cardSuit); return; }
      const rank = e.target.closest("[data-card-rank]");
      if (rank && suit) {
        const card = rank.dataset.cardRank + suit;
        reset();
        send(`${m.api}/cards/drawn`, { cards: [card] }, rank);
        return;
      }
      const draw = e.target.closest("[data-card-draw]");
      if (draw) send(`${m.api}/resolve/${box.dataset.draw}`, {}, draw);
    });
    tool.addEventListener("click", () => { shown.replaceChildren(); reset(); });
  };
  if (window.firestepMap) start();
  else window.addEventListener("firestep:map-ready", start, { once: true });
})();
