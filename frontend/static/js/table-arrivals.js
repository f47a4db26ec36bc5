// Arrived fire-plan fire as cards: the server's (app/pages/arrival_cards.py), read anew on the live stream. The
// shots laid are the read's query, the cards' own: each tap carries the one it reads next (data-read, the card's
// data-clear), its apply the body it sends. This keeps the taps, the map's pick, the apply and Undo (outbox).
(() => {
  const m = window.firestepMap;
  const tool = document.querySelector("[data-arrivals-tool]");
  const list = document.querySelector("[data-arrival-cards]");
  if (!m || !tool || !list) return;
  const url = `/games/${m.root.dataset.game}/map/arrivals`;
  let seq = 0, timer = null, last = "", query = "", tapped = Promise.resolve();
  const load = async (next = query) => {
    const mine = ++seq;
    const part = await window.firestepDom.read(`${url}?${(query = next)}`);
    // The same card again is left as it is: the dice typed and a Why? opened stay.
    if (!part || mine !== seq || ((query = part.dataset.query), part.outerHTML === last)) return;
    last = part.outerHTML;
    tool.hidden = part.dataset.count === "0";
    tool.textContent = part.dataset.label;
    list.replaceChildren(part);
  };
  const schedule = () => { clearTimeout(timer); timer = setTimeout(load, 150); };

  // A shot on a stand under the laying card's circle; the card says why where one more is refused.
  const shotOn = (id) => list.querySelector(`[data-arrival-laying] [data-arrival-shot][data-unit="${id}"]`);
  // A tap made while a read is on its way is made on the card it brings (found again by its stand).
  const layShot = (b) => { tapped = tapped.then(() => {
    const now = list.querySelector(`[data-arrival-shot="${b.dataset.arrivalShot}"][data-item="${b.dataset.item}"]`);
    return now && (now.dataset.refused ? m.notice(now.dataset.refused) : load(now.dataset.read));
  }).catch(() => null); };
  // While the arrivals are shown, a stand under the circle tapped on the map takes the laying card's next
  // shot, until its fire is applied or the player taps another stand or tool.
  const pickShots = () => {
    if (!list.querySelector("[data-arrival-laying]")) return;
    m.pickStand((id) => { const b = shotOn(id); if (b) layShot(b); }, { accept: (u) => Boolean(shotOn(u.id)), panel: "arrival" });
  };

  const apply = async (button, item, body) => {
    button.disabled = true;
    const result = await m.send(`${m.api}/arrivals/${item}/apply`, { body });
    button.disabled = false;
    if (m.failed(result)) { m.notice(m.refusal(result, "The fire was not applied; check the connection.")); return; }
    await load(button.closest("[data-arrival]").dataset.clear);
    // Its fire is applied: the map's taps open cards again (or lay the next card's shots).
    m.stopPicking();
    if (!list.closest("[data-panel]").hidden) pickShots();
  };
  // The dice entered, by roll; from the first empty one on, firestep rolls.
  const diceOf = (box) => {
    const dice = {};
    for (const input of box.querySelectorAll("[data-die]")) {
      const given = (dice[input.dataset.die] = dice[input.dataset.die] || { gap: false, faces: [] });
      if (input.value === "") given.gap = true;
      else if (!given.gap) given.faces.push(Number(input.value));
    }
    return Object.fromEntries(Object.entries(dice).filter(([, d]) => d.faces.length).map(([k, d]) => [k, d.faces]));
  };

  document.addEventListener("click", async (event) => {
    const t = event.target;
    if (t.closest("[data-tool='arrival']") && !list.closest("[data-panel]").hidden) { pickShots(); return; }
    const shot = t.closest("[data-arrival-shot]");
    if (shot) { layShot(shot); return; }
    const clear = t.closest("[data-arrival-clear]");
    if (clear) { load(clear.closest("[data-arrival]").dataset.clear); return; }
    const rolled = t.closest("[data-arrival-apply]");
    if (rolled) { await apply(rolled, Number(rolled.dataset.arrivalApply), JSON.parse(rolled.dataset.body)); return; }
    const given = t.closest("[data-arrival-dice]");
    if (given) { await apply(given, Number(given.dataset.arrivalDice), { dice: diceOf(given.closest("details")) }); return; }
    const undo = t.closest("[data-arrival-undo]");
    if (undo) {
      undo.disabled = true;
      await m.undoEvent(Number(undo.dataset.arrivalUndo));
      undo.disabled = false;
      load();
    }
  });
  document.addEventListener("firestep:event", schedule);
  document.addEventListener("firestep:resync", schedule);
  load();
})();
