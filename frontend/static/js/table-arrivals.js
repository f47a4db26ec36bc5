// Arrived fire-plan fire as cards (issue 26): when the turn has arrived batteries or mortars firing, the tool bar
// shows "1 arrival"; its card says what arrived, where it lands (table-board.js draws it there), which stands
// are under it fully, partly or too close to call, what is rolled with the odds, and applies it in one tap
// ("Roll and apply": the server rolls) or with the dice entered; a card whose side lays its shots (`shots`) has
// them laid first, a tap of a stand under it on the map or of its button on the card each; then what it did in
// words, an Undo, and the dice folded. Read from GET /api/v1/games/{id}/arrivals, written by
// POST .../arrivals/{item}/apply, refreshed by the live stream.
(() => {
  const start = () => {
    const m = window.firestepMap;
    const tool = document.querySelector("[data-arrivals-tool]");
    const list = document.querySelector("[data-arrival-cards]");
    if (!m || !tool || !list) return;
    const { h } = m;
    let cards = [];
    let timer = null;
    let seq = 0;
    // A card that leaves its shots to its side (`shots`): the shots laid on each roll so far, by item id
    // (roll key -> shots), each a tap of the stand on the map or of its button on the card.
    const laid = new Map();
    const rollsOf = (c) => ["full", "partial", "close"].flatMap((u) => c.stands[u]);
    const laidOn = (c) => laid.get(c.item_id) || {};
    const layShot = (c, roll) => {
      const now = laidOn(c);
      const total = Object.values(now).reduce((a, b) => a + b, 0);
      if ((now[roll.key] || 0) >= roll.times) { m.notice(`${nameOf(roll)} takes at most ${roll.times} shots.`); return; }
      if (total >= c.shots) { m.notice(`All ${c.shots} shots are laid: Roll and apply, or Clear.`); return; }
      laid.set(c.item_id, { ...now, [roll.key]: (now[roll.key] || 0) + 1 });
      render();
    };
    const layingCard = () => cards.find((c) => c.shots && !c.applied && m.mayActFor(c.side));
    // While the arrivals are shown, a stand under the circle tapped on the map takes the next shot of the card
    // laying them; the picking ends when its fire is applied, or when the player taps another stand (its card
    // opens) or another tool.
    const rollOn = (id) => { const c = layingCard(); return c ? rollsOf(c).find((r) => r.unit_id === id) : null; };
    const pickShots = () => {
      if (!layingCard()) return;
      m.pickStand((id) => { const roll = rollOn(id); if (roll) layShot(layingCard(), roll); },
        { accept: (u) => Boolean(rollOn(u.id)), panel: "arrival" });
    };

    const words = (key) => String(key).replace(/-/g, " ");
    // Each outcome's chance as the server words it (odds_words: the card, the story and the ledger alike).
    const oddsLine = (said) => Object.entries(said).map(([k, p]) => `${words(k)} ${p}`).join(", ");
    const nameOf = (s) => {
      const u = m.model.units.get(s.unit_id);
      return u ? m.nameOf(u).short : s.name;
    };

    const standLine = (under, text, stands) => {
      const names = stands.map((s) => (s.measured ? `${nameOf(s)} (as placed: ${s.measured})` : nameOf(s)));
      return h("p", { "data-arrival-under": under, "data-count": String(stands.length), text: `${text} (${stands.length}): ${names.length ? names.join(", ") : "none"}` });
    };

    const diceEntry = (c) => {
      const rolls = [c.first, ...["full", "partial", "close"].flatMap((u) => c.stands[u])].filter(Boolean);
      const rows = rolls.map((r) => {
        const who = r.unit_id ? nameOf(r) : "Artillery action";
        const inputs = [];
        for (let n = 0; n < r.times * r.dice.length; n += 1) {
          const label = r.times > 1 ? `${who}, turn of fire ${n + 1}` : who;
          inputs.push(h("input", { type: "number", inputMode: "numeric", min: "1", max: String(r.dice[0]), "aria-label": `${label}: D${r.dice[0]}`, "data-die": r.key, "data-index": String(n) }));
        }
        return h("div", { class: "play-row" }, h("span", { text: who }), ...inputs);
      });
      const apply = h("button", { type: "button", class: "button", "data-arrival-dice": String(c.item_id), text: "Apply these dice" });
      return h("details", { class: "play-why" }, h("summary", { text: "Enter the dice rolled at the table" }),
        h("p", { class: "muted", text: "A die left empty is rolled by firestep; a second turn of fire counts only on 2 actions." }),
        ...rows, apply);
    };

    const shotControls = (c) => {
      const now = laidOn(c);
      const total = Object.values(now).reduce((a, b) => a + b, 0);
      return [
        h("p", { "data-arrival-shots": String(total), text: `Shots laid: ${total} of ${c.shots}. Tap a stand under the circle, on the map or here, for each.` }),
        h("div", { class: "play-acts", role: "group", "aria-label": "Lay the shots" }, rollsOf(c).map((r) => h("button", {
          type: "button", class: "button", "data-arrival-shot": r.key, "data-item": String(c.item_id),
          text: `${nameOf(r)}: ${now[r.key] || 0}/${r.times}`,
        }))),
        h("div", { class: "play-acts" },
          h("button", { type: "button", class: "button", "data-arrival-apply": String(c.item_id), disabled: !total, text: `Roll ${total} shot${total === 1 ? "" : "s"} and apply` }),
          h("button", { type: "button", class: "button", "data-arrival-clear": String(c.item_id), disabled: !total, text: "Clear" })),
      ];
    };

    // The card: what arrived and where it lands, then what to tap ("Roll and apply", or the dice entered) or,
    // once applied, what it did in words; what is under it and each die's odds follow, folded once applied.
    const cardBlock = (c) => {
      const box = h("div", { class: "coverage-block", "data-arrival": String(c.item_id) });
      box.append(h("h3", { text: c.what }));
      const dev = c.deviation || {};
      const where = dev.deviates
        ? `Lands ${dev.distance_cm} cm towards ${dev.clock} o'clock of its aiming point (deviation rolled as it arrived).`
        : dev.dice ? "Lands on its aiming point (no deviation: a 5 or 6)." : "Lands on its aiming point.";
      const under = [
        standLine("full", "Fully under", c.stands.full),
        standLine("partial", "Partly under, at -2", c.stands.partial),
        standLine("close", "Too close to call, measure on the table", c.stands.close),
      ];
      const roll = [];
      if (c.first) roll.push(`First the battery's artillery action D6: ${oddsLine(c.first.odds_words)}.`);
      const one = [...c.stands.full, ...c.stands.partial, ...c.stands.close][0];
      if (one) roll.push(`Then a D6 for each stand under it per turn of fire${one.request.firer ? `, on the ${words(one.request.firer)} row` : ""}.`);
      const why = h("details", { class: "play-why" }, h("summary", { text: "Each stand's roll and odds" }));
      for (const s of [...c.stands.full, ...c.stands.partial, ...c.stands.close]) {
        why.append(h("p", { text: `${nameOf(s)}: ${oddsLine(s.odds_words)} (${s.filled.map((f) => f.why).join("; ")})` }));
      }
      const rest = [...under, ...roll.map((t) => h("p", { text: t })), why, ...c.notes.map((t) => h("p", { class: "muted", text: t }))];
      if (c.applied) {
        const done = c.applied;
        box.append(h("p", { class: "play-answer", "data-arrival-effect": String(done.event_id), text: done.said.length ? done.said.join(" ") : "Nothing changes on the table." }));
        if (m.mayActFor(c.side)) box.append(h("div", { class: "play-acts" }, h("button", { type: "button", class: "button", "data-arrival-undo": String(done.event_id), text: "Undo" })));
        box.append(h("details", { class: "play-why", "data-arrival-dice-record": "" },
          h("summary", { text: `The dice (${done.dice.length})` }),
          h("p", { text: done.effect }), h("p", { class: "muted", text: `Rolled ${done.dice.join(", ") || "none"}.` }),
          h("p", { text: where }), ...rest));
        return box;
      }
      box.append(h("p", { text: where }));
      if (m.mayActFor(c.side) && c.shots) {
        // Shots the side lays: the controls first, in reach without scrolling; what is under it follows.
        box.append(...shotControls(c), diceEntry(c));
      } else if (m.mayActFor(c.side)) {
        box.append(h("div", { class: "play-acts" }, h("button", { type: "button", class: "button", "data-arrival-apply": String(c.item_id), text: "Roll and apply" })));
        box.append(diceEntry(c));
      } else {
        box.append(h("p", { class: "muted", text: `The ${c.side} rolls it.` }));
      }
      box.append(...rest);
      return box;
    };

    const render = () => {
      tool.hidden = !cards.length;
      tool.textContent = `${cards.length} arrival${cards.length === 1 ? "" : "s"}`;
      list.replaceChildren(...(cards.length ? cards.map(cardBlock) : [h("p", { class: "muted", text: "No planned fire arrives now." })]));
      m.root.dataset.arrivals = String(cards.length);
    };

    const load = async () => {
      const mine = ++seq;
      const response = await fetch(`${m.api}/arrivals`, { credentials: "same-origin" }).catch(() => null);
      if (!response || !response.ok || mine !== seq) return;
      cards = (await response.json()).cards;
      render();
    };
    const schedule = () => { clearTimeout(timer); timer = setTimeout(load, 150); };

    const apply = async (button, body) => {
      button.disabled = true;
      const result = await m.send(`${m.api}/arrivals/${button.dataset.arrivalApply || button.dataset.arrivalDice}/apply`, { body });
      if (m.failed(result)) m.notice(m.refusal(result, "The fire was not applied; check the connection."));
      else {
        laid.delete(Number(button.dataset.arrivalApply || button.dataset.arrivalDice));
        if (result.data && result.data.cards) { cards = result.data.cards; render(); }
        // Its fire is applied: the map's taps open cards again (or lay the next card's shots).
        m.stopPicking();
        if (!list.closest("[data-panel]").hidden) pickShots();
      }
      button.disabled = false;
      schedule();
    };

    document.addEventListener("click", async (event) => {
      if (event.target.closest("[data-tool='arrival']") && !list.closest("[data-panel]").hidden) { pickShots(); return; }
      const shot = event.target.closest("[data-arrival-shot]");
      if (shot) {
        const c = cards.find((x) => String(x.item_id) === shot.dataset.item);
        const roll = c && rollsOf(c).find((r) => r.key === shot.dataset.arrivalShot);
        if (roll) layShot(c, roll);
        return;
      }
      const clear = event.target.closest("[data-arrival-clear]");
      if (clear) { laid.delete(Number(clear.dataset.arrivalClear)); render(); return; }
      const rolled = event.target.closest("[data-arrival-apply]");
      if (rolled) {
        const c = cards.find((x) => String(x.item_id) === rolled.dataset.arrivalApply);
        await apply(rolled, c && c.shots ? { shots: laidOn(c) } : {});
        return;
      }
      const given = event.target.closest("[data-arrival-dice]");
      if (given) {
        const dice = {};
        for (const input of given.closest("details").querySelectorAll("[data-die]")) {
          if (input.value === "") continue;
          (dice[input.dataset.die] = dice[input.dataset.die] || [])[Number(input.dataset.index)] = Number(input.value);
        }
        // Only the dice given in order count: the first empty one and those after it are rolled by firestep.
        for (const key of Object.keys(dice)) {
          const firstGap = dice[key].findIndex((d) => d === undefined);
          if (firstGap >= 0) dice[key] = dice[key].slice(0, firstGap);
        }
        await apply(given, { dice });
        return;
      }
      const undo = event.target.closest("[data-arrival-undo]");
      if (undo) {
        undo.disabled = true;
        const result = await m.send(`${m.api}/events/${undo.dataset.arrivalUndo}/undo`);
        if (m.failed(result)) m.notice(m.refusal(result, "The undo was not saved; check the connection."));
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
