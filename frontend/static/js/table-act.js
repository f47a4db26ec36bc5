// Playing a stand's turn from its card on the map. The card in each state is the server's
// (app/pages/stand_acts.py, stand_play.py); this script keeps what needs the browser: the play's state, the
// target tapped on the map (table-map.js's pickStand and markTargets), and the writes through the outbox
// (kept offline; a direct roll recorded as its die is tapped; Undo while it is the game's latest event).
(() => {
  const start = () => {
    const m = window.firestepMap;
    if (!m || m.acting) return;
    m.acting = true;
    const { h, section, api, model, nameOf, notice, refusal, failed, send, humanise, root } = m;
    const panel = document.querySelector("[data-map-panel]");
    const ruleState = JSON.parse(document.getElementById("map-state").textContent);
    const labelOf = (field) => (ruleState.card.find((f) => f.name === field) || {}).label || humanise(field.replace(/_/g, "-"));

    // play: { stand, act, target, dice, asked, given, event } for the stand whose card shows it.
    let play = null;
    let acts = []; // the rolls offered, as the card's data says them (a button's data-act is its index)
    let actsHtml = ""; // the acts part of the card as the server rendered it for the stand `actsFor`
    let actsFor = null; // the stand whose acts `acts` are
    let actsStep = null; // the game's step they were read in: a play begun from them is of it (stand_acts.py)
    const area = () => {
      const box = section("stand");
      let el = box.querySelector("[data-play]");
      if (!el) {
        el = h("div", { "data-play": "" });
        const after = box.querySelector("[data-stand-path]");
        if (after) after.after(el); else box.prepend(el);
      }
      return el;
    };
    const picking = (on) => {
      panel.classList.toggle("picking", on);
      root.dataset.picking = on ? "target" : "";
      if (!on) { m.stopPicking(); m.markTargets(null); }
      if (m.placeCard) m.placeCard();
    };
    // The play `mine` as its roll's answer comes (apply), its step the game's now: the card's still (a new
    // step's card, its head read first, may be drawn after the answer), or put back where a live frame ended
    // it meanwhile and its stand is still the one shown; or null where the player has gone on to another
    // stand or play.
    const back = (mine) => {
      if (play !== mine && (play || m.selectedStand() !== mine.stand)) return null;
      mine.step = model.turn.step;
      play = mine;
      return mine;
    };
    const stop = () => { play = null; picking(false); panel.classList.remove("playing", "played"); delete root.dataset.playTarget; };

    // -- the card's states -------------------------------------------------------------------------------
    // The card's acts as the server drew them (a roll with nothing to choose but its die shows its dice: the die
    // tapped records it, one tap where there were two, issue 64), as nodes to put in the card.
    const { partOf } = window.firestepDom;
    // A part of the card read from the server (its HTML, and its element), or ["", null] where it could not
    // be. (`error`: a refusal's sentence, as the error page's lead says it).
    const read = async (url) => {
      const r = await fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" }).catch(() => null);
      const text = r ? await r.text().catch(() => "") : "";
      if (!(r && r.ok && text)) return ["", null, (text && partOf(`<div>${text}</div>`).querySelector(".lead")?.textContent) || ""];
      return [text, partOf(text), ""];
    };
    // The card drawn anew from a part the server drew, its unchanged pieces kept (dom.js).
    const draw = (part) => window.firestepDom.draw(area(), part);
    const renderActs = (u) => draw(actsHtml && !u.killed ? partOf(actsHtml) : null);
    // What the stand may do now, read anew (app/pages/stand_acts.py): its edits part handed to table-edit.js
    // (`first`: "edits" drawn above the rolls). `done`: the roll just recorded, its answer over the next acts.
    const readActs = async (id, redraw, done) => {
      const mine = play, g = root.dataset.game;
      const [html, part] = await read(done ? `/games/${g}/map/units/${id}/done/${done}?${new URLSearchParams({ act: mine.act.label })}` : `/games/${g}/map/units/${id}/acts`);
      if (!part && done && play === mine) {
        // The roll is recorded (its answer came) but the card's reading of it did not: read again once back.
        notice("The roll is recorded; its answer shows when the connection is back.");
        document.addEventListener("firestep:resync", () => { if (play === mine) readActs(id, redraw, done); }, { once: true });
        return;
      }
      if (!(part && part.dataset.standActsData && m.selectedStand() === id)) return;
      const data = JSON.parse(part.dataset.standActsData);
      if (done && !(play === mine && mine.done)) return; // the player has gone on
      // A roll's answer on the card stays (its acts drawn under it by its own read), even where the acts were
      // read for a new step before the answer came (apply: `back`).
      const answer = play && play.done && play.stand === id, same = html === actsHtml;
      if (done) { acts = data.acts; actsStep = data.step; actsHtml = ""; mine.doneHtml = html; renderDone(); }
      else if (answer) return;
      else if (redraw) { acts = data.acts; actsStep = data.step; actsHtml = html; }
      if (!done && redraw && !same) renderActs(model.units.get(id));
      cardOffers = data.offers || [];
      greyCard();
      const edits = part.parentNode.querySelector("[data-stand-edits-part]");
      window.dispatchEvent(new CustomEvent("firestep:stand-acts", { detail: { id, edits, first: data.first } }));
      root.dataset.standActs = String(id); // the card has read what this stand may do: its rows stop moving
    };
    // The map's own buttons of the card (Move, Move its company, Recover a marker, +1 marker) read the same
    // answer: each greyed with the pipeline's sentence while it would refuse it (a tap on one says why).
    let cardOffers = [];
    const greyCard = () => {
      const box = section("stand");
      // A stand action's offer is of its kind ("add-marker": a marker placed); Measure is no act.
      const kindOf = (action) => (action === "add-marker" ? "mark" : action);
      const judged = [
        ...[...box.querySelectorAll("[data-stand-action]")].map((b) => [b, (o) => o.kind === kindOf(b.dataset.standAction)]),
        ...[...box.querySelectorAll("[data-move-formation]")].map((b) => [b, (o) => o.kind === "formation" && o.unit_id === Number(b.dataset.moveFormation)]),
      ];
      for (const [b, of] of judged) {
        const o = b && cardOffers.find(of);
        if (!o) continue;
        const no = o.refused;
        b.classList.toggle("greyed", Boolean(no));
        b.toggleAttribute("data-act-greyed", Boolean(no));
        // The referee's greyed Move or marker stays a button: its tap asks to override (table-map.js).
        const overridable = m.role === "referee" && b.matches("[data-stand-action]");
        if (no && overridable) { b.removeAttribute("aria-disabled"); b.title = no.detail; b.setAttribute("aria-label", `${o.label}, refused now, the referee may override: ${no.detail}`); }
        else if (no) { b.setAttribute("aria-disabled", "true"); b.title = no.detail; b.setAttribute("aria-label", `${o.label}, not now: ${no.detail}`); }
        else { b.removeAttribute("aria-disabled"); b.removeAttribute("title"); b.removeAttribute("aria-label"); }
      }
    };
    // The card while the act's target is picked (app/pages/stand_acts.py): stands it may not take greyed with
    // why, on the map too. Read anew each time the card is drawn (a stand moved), the last read shown meanwhile.
    const renderPick = async (u) => {
      const mine = play;
      if (mine.pick) draw(partOf(mine.pick));
      picking(true);
      // The act's target is the other side's: a tap in base contact takes the enemy stand, not one's own.
      m.pickStand((id) => chooseTarget(id), { accept: (t) => t.side !== u.side && !t.killed });
      const [html, part] = await read(`/games/${root.dataset.game}/map/units/${u.id}/targets/${mine.act.resolver}`);
      if (!part || play !== mine || mine.stand !== u.id || mine.target !== null) return;
      mine.pick = html;
      mine.marks = new Map(JSON.parse(part.dataset.targetMarks || "[]").map((x) => [x.unit_id, x]));
      m.markTargets([...mine.marks].map(([id, x]) => [id, x.mark]));
      draw(part);
    };
    // The card playing the roll, as the server draws it for the play's state (app/pages/stand_play.py; the
    // table asked, nothing written). Only the play's latest ask is drawn; false where it could not be read (its
    // sentence said), null where stale.
    const askCard = async (dice) => {
      const p = play, n = (p.asks = (p.asks || 0) + 1);
      const q = new URLSearchParams({ act: p.act.label });
      if (p.target !== null) q.set("target", String(p.target));
      for (const id of (p.act.order && p.given[p.act.order]) || []) q.append("order", String(id));
      if (p.given.range_cm !== undefined) q.set("range_cm", String(p.given.range_cm));
      for (const d of dice || []) q.append("die", String(d || 0));
      if (p.reached !== undefined) q.set("reached", String(p.reached)); // a counted roll: how many reached its number
      const [html, part, error] = await read(`/games/${root.dataset.game}/map/units/${p.stand}/play/${p.act.resolver}?${q}`);
      if (play !== p || p.asks !== n) return null;
      if (!part) { notice(error || "The table could not be asked; check the connection."); return false; }
      p.count = Number(part.dataset.diceCount || 0);
      if (part.dataset.countCertain) p.reached = Number(part.dataset.countCertain); // a count no die can miss: Apply sends it
      p.asked = html;
      return html;
    };
    const renderAsked = () => draw(partOf(play.asked));
    // The card asked anew and drawn, unless the player has gone on meanwhile; its ask's answer as askCard's.
    const reAsk = async (dice) => { const mine = play, asked = await askCard(dice); if (asked && play === mine) renderAsked(); return asked; };
    const renderDone = () => { if (play.doneHtml) draw(partOf(play.doneHtml)); };

    // -- the acts ------------------------------------------------------------------------------------------
    // A direct roll's die tapped (or firestep asked to roll it): recorded at once, as its die row would.
    const rollNow = async (i, dice) => {
      const u = model.units.get(m.selectedStand()), act = acts[i];
      if (!u || !act) return;
      const mine = (play = { stand: u.id, act, target: null, dice: dice || [], asked: null, given: {}, step: actsStep ?? model.turn.step, seen: model.turn.step });
      await apply(dice);
      if (play === mine && !play.done) stop(); // refused or kept offline: the card's acts stay as they were
    };
    const begin = async (i) => {
      const u = model.units.get(m.selectedStand()), act = acts[i];
      if (!u || !act) return;
      play = { stand: u.id, act, target: null, dice: [], asked: null, given: {}, step: actsStep ?? model.turn.step, seen: model.turn.step };
      panel.classList.remove("played"); // begun from the last roll's answer: this one's card
      panel.classList.add("playing");
      if (act.target) { renderPick(u); return; }
      await reAsk(null); // nothing written: a card ended meanwhile draws nothing of it
    };
    const chooseTarget = async (id) => {
      const t = model.units.get(id);
      const u = play && model.units.get(play.stand);
      if (!t || !u) return;
      if (t.side === u.side || t.killed) { notice("Pick one of the other side's stands."); return; }
      const mark = play.marks && play.marks.get(id);
      if (mark) { (window.firestepNotice || notice)(mark.refused, false, { why: mark.why, source: mark.source }); return; }
      if (play.act.order) {
        // Each stand tapped takes the next hit (the shooter's order), the first naming the target; the map
        // stays in picking until Apply.
        const order = play.given[play.act.order] || [];
        play.target = play.target ?? id;
        play.given = { ...play.given, [play.act.order]: [...order, id] };
        const mine = play;
        const asked = await askCard(null);
        if (play !== mine || asked === null) return;
        if (!asked) { play.given = { ...play.given, [play.act.order]: order }; return; }
        if (play.stand !== m.selectedStand()) m.showStand(play.stand);
        renderAsked();
        return;
      }
      play.target = id;
      root.dataset.playTarget = String(id); // the card docks clear of the target's company too (table-dock.js)
      picking(false);
      m.showStand(play.stand);
      await reAsk(null);
    };
    // A die tapped: the card read anew with it (the roll's answer once every die is tapped); a roll with no
    // target is recorded as its last die is tapped.
    const tapDie = async (row, n) => {
      play.dice[row] = n;
      // Pressed at once, as the card read anew will draw it: that row is then the same and stays.
      area().querySelectorAll(`[data-die-row="${row}"]`).forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.die) === n)));
      const all = play.dice.filter(Boolean).length >= play.count;
      if (all && !play.act.target) { await apply(play.dice); return; }
      await reAsk([...play.dice].map((d) => d || 0));
    };
    const apply = async (dice) => {
      const mine = play;
      if (mine.done || mine.sending) return; // recorded, or on its way: a second tap records nothing
      const body = { unit_id: mine.act.unit_id, target_id: mine.target, fields: mine.given, apply: true };
      if (dice && mine.reached !== undefined) body.count = { dice: mine.count, reached: mine.reached }; else if (dice) body.dice = dice;
      mine.sending = true;
      const r = await send(`${api}/resolve/${mine.act.resolver}`, { body });
      mine.sending = false;
      if (failed(r)) { notice(refusal(r, "The roll was not recorded; check the connection.")); return; }
      if (r.queued || !r.data) {
        notice("Kept on this device: it is recorded when the connection is back.");
        if (play === mine) stop();
        return;
      }
      // A live frame before the answer may have ended the card (a new step drawn): the answer is still the
      // card's while its stand is shown; the player gone on to another stand sees its changes and nothing
      // else.
      const drawn = back(mine);
      if (drawn) {
        play.done = r.data;
        picking(false);
        panel.classList.add("playing");
      }
      model.apply({ id: r.data.event_id, kind: "roll", payload: { changes: r.data.changes } });
      root.dataset.lastApplied = String(r.data.event_id);
      if (!drawn) return;
      acts = []; // the acts before the roll are not what it leaves: the next are read anew
      actsHtml = "";
      delete root.dataset.standActs;
      // The answer read as the roll's event says it, with the stand's acts and edits as they now stand under
      // it (hits to allocate after a shot; an MG ordered may now be unpacked).
      panel.classList.add("played");
      readActs(play.stand, false, r.data.event_id);
    };
    const undo = async (eventId) => {
      if (!(await m.undoEvent(eventId))) return;
      stop();
      m.showStand(m.selectedStand());
    };

    window.addEventListener("firestep:stand-shown", async (e) => {
      const id = e.detail.id;
      // The card gives way: a roll done (Undo and Done) ends when its stand is tapped again, and anything
      // begun ends when the game moves to another step (its acts are read anew). (`seen`: the step this
      // device had heard of as the play began, where its acts were read in a newer one.)
      const over = play && ((e.detail.tapped && play.done) || ![play.step, play.seen].includes(model.turn.step));
      if (play && play.stand === id && !over) {
        if (play.done) renderDone();
        else if (play.target === null && play.act.target) renderPick(model.units.get(id));
        else if (play.asked) renderAsked();
        return;
      }
      stop();
      const u = model.units.get(id);
      // The same stand in the same step (a live frame changed it) keeps its buttons while they are read anew,
      // unread.
      if (actsFor !== id || e.detail.moved) { acts = []; actsHtml = ""; cardOffers = []; }
      delete root.dataset.standActs;
      actsFor = id;
      renderActs(u);
      queueMicrotask(greyCard); // the card drawn again: its buttons greyed as last read, after every listener drew
      await readActs(id, true);
    });
    document.addEventListener("click", (e) => {
      const off = e.target.closest("[data-act-greyed]");
      // The referee's greyed Move or marker asks to override instead (table-map.js).
      const overridden = m.role === "referee" && off?.matches("[data-stand-action]");
      if (off && !overridden) { (window.firestepNotice || notice)(off.title, false); return; }
      if (off) return;
      const el = e.target.closest("[data-act], [data-act-die], [data-act-roll], [data-die], [data-count-reached], [data-play-apply], [data-play-roll], [data-play-book], [data-play-cancel], [data-play-undo], [data-panel-close]");
      if (!el) return;
      if (el.matches("[data-panel-close]")) { stop(); return; }
      if (el.matches("[data-act]")) begin(Number(el.dataset.act));
      else if (el.matches("[data-act-die]")) rollNow(Number(el.dataset.actDie), [Number(el.dataset.face)]);
      else if (el.matches("[data-act-roll]")) rollNow(Number(el.dataset.actRoll), null);
      else if (!play || (play.done && el.matches("[data-die], [data-play-apply], [data-play-roll], [data-play-book]"))) return;
      else if (el.matches("[data-die]")) tapDie(Number(el.dataset.dieRow), Number(el.dataset.die));
      else if (el.matches("[data-count-reached]")) { play.reached = Number(el.dataset.countReached); if (play.act.target) reAsk(null); else apply([]); }
      else if (el.matches("[data-play-apply]")) apply(play.dice);
      else if (el.matches("[data-play-roll]")) apply(null);
      else if (el.matches("[data-play-book]")) { play.given = Object.fromEntries(Object.entries(play.given).filter(([k]) => k !== play.act.order)); apply(null); }
      else if (el.matches("[data-play-undo]")) undo(Number(el.dataset.playUndo));
      else if (el.matches("[data-play-cancel]")) { stop(); m.showStand(m.selectedStand()); }
    });
    document.addEventListener("change", (e) => {
      if (play && e.target.matches("[data-target-list]") && e.target.value) { chooseTarget(Number(e.target.value)); return; }
      if (!play || !e.target.matches("[data-play-range]")) return;
      const cm = Number(e.target.value);
      if (!Number.isFinite(cm) || cm < 0 || cm > 500) { notice("Enter the range in cm, from 0 to 500."); return; }
      play.given = { ...play.given, range_cm: cm };
      play.dice = [];
      reAsk(null);
    });
    // A roll another device recorded with a value given over the table's (a range by the tape, a referee's
    // override) is shown to everyone else as the claim it is, as the log keeps it.
    const claimShown = (e) => {
      const ev = e.detail || {};
      const p = ev.payload || {};
      const claims = ev.kind === "roll" && Array.isArray(p.filled) ? p.filled.filter((f) => f.given === true) : [];
      if (!claims.length || ev.actor === root.dataset.role) return;
      const u = model.units.get(p.unit_id);
      const t = model.units.get(p.target_id);
      const who = `${u ? nameOf(u).short : humanise(ev.actor || "")}'s ${humanise(String(p.resolver || "roll")).toLowerCase()}${t ? ` at ${nameOf(t).short}` : ""}`;
      (window.firestepNotice || notice)(`${who}: ${claims.map((f) => `${labelOf(f.field.replace(/_cm$/, ""))} ${f.why}`).join("; ")}.`, false, { key: `claim-${ev.id}` });
      root.dataset.claimShown = String(ev.id);
    };
    document.addEventListener("firestep:event", claimShown);
    // A write from the card (the referee's change of the game's reading under an answer: api-action.js): the
    // answer asked again with the same dice, by the game as it now is.
    document.addEventListener("firestep:refresh", () => { if (play && play.asked && !play.done) reAsk(play.dice.map((d) => d || 0)); });
  };
  if (window.firestepMap) start();
  window.addEventListener("firestep:map-ready", start);
})();
