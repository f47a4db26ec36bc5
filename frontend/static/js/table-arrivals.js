// Arrived fire-plan fire as cards: the server's (app/pages/arrival_cards.py), read anew on the live stream.
// This keeps the taps: the shots laid on a card that leaves them to its side (a stand tapped on the map or
// its button, carried in the read as `shot`), the apply through the outbox, and Undo.
(() => {
  const start = () => {
    const m = window.firestepMap;
    const tool = document.querySelector("[data-arrivals-tool]");
    const list = document.querySelector("[data-arrival-cards]");
    if (!m || !tool || !list) return;
    const url = `/games/${m.root.dataset.game}/map/arrivals`;
    const laid = new Map(); // item id -> roll keys, a shot each, until its fire is applied
    let seq = 0;
    let timer = null;
    let last = "";

    const load = async () => {
      const mine = ++seq;
      const query = new URLSearchParams();
      for (const [item, keys] of laid) keys.forEach((k) => query.append("shot", `${item}:${k}`));
      const part = await window.firestepDom.read(`${url}?${query}`);
      // The same card again is left as it is: the dice typed and a Why? opened stay.
      if (!part || mine !== seq || part.outerHTML === last) return;
      last = part.outerHTML;
      tool.hidden = part.dataset.count === "0";
      tool.textContent = part.dataset.label;
      list.replaceChildren(part);
    };
    const schedule = () => { clearTimeout(timer); timer = setTimeout(load, 150); };

    // A shot on a stand under the laying card's circle; the card says why where one more is refused.
    const shotOn = (id) => list.querySelector(`[data-arrival-laying] [data-arrival-shot][data-unit="${id}"]`);
    const layShot = (button) => {
      if (button.dataset.refused) { m.notice(button.dataset.refused); return; }
      const item = Number(button.dataset.item);
      laid.set(item, [...(laid.get(item) || []), button.dataset.arrivalShot]);
      load();
    };
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
      laid.delete(item);
      await load();
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
      if (clear) { laid.delete(Number(clear.dataset.arrivalClear)); load(); return; }
      const rolled = t.closest("[data-arrival-apply]");
      if (rolled) {
        const item = Number(rolled.dataset.arrivalApply);
        const shots = {};
        (laid.get(item) || []).forEach((k) => { shots[k] = (shots[k] || 0) + 1; });
        await apply(rolled, item, laid.has(item) ? { shots } : {});
        return;
      }
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
  };
  if (window.firestepMap) start();
  else window.addEventListener("firestep:map-ready", start, { once: true });
})();
