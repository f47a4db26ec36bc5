// Playing a stand's turn from its card on the map. The card in each state is the server's
// (app/pages/stand_acts.py, stand_play.py), each roll's button carrying what it plays (its resolver, roller,
// target, order: _stand_macros.html); this keeps what needs the browser: the play's state, the target tapped
// on the map (table-map.js's pickStand and markTargets) and the writes through the outbox.
(() => {
  const start = () => {
    const m = window.firestepMap;
    if (!m || m.acting) return;
    m.acting = true;
    const { section, api, model, nameOf, notice, refusal, failed, send, humanise, root } = m;
    const panel = document.querySelector("[data-map-panel]");
    const ruleState = JSON.parse(document.getElementById("map-state").textContent);
    const labelOf = (field) => (ruleState.card.find((f) => f.name === field) || {}).label || humanise(field.replace(/_/g, "-"));

    // play: { stand, act, target, dice, asked, given, event } for the stand whose card shows it.
    let play = null;
    let actsHtml = ""; // the acts part of the card as the server rendered it for the stand `actsFor`
    let actsFor = null;
    const picking = (on) => {
      panel.classList.toggle("picking", on);
      root.dataset.picking = on ? "target" : "";
      if (!on) { m.stopPicking(); m.markTargets(null); }
      if (m.placeCard) m.placeCard();
    };
    // The play `mine` as its roll's answer comes, of the game's step now: still the card's, or put back where
    // a live frame ended it meanwhile and its stand is still shown; null where the player has gone on.
    const back = (mine) => {
      if (play !== mine && (play || m.selectedStand() !== mine.stand)) return null;
      mine.step = model.turn.step;
      play = mine;
      return mine;
    };
    const stop = () => { play = null; picking(false); panel.classList.remove("playing", "played"); delete root.dataset.playTarget; };

    const { partOf, read } = window.firestepDom;
    const area = () => section("stand").querySelector("[data-play]"); // its place in the card's head
    const draw = (part) => area() && window.firestepDom.draw(area(), part);
    const renderActs = (u) => draw(actsHtml && !u.killed ? partOf(actsHtml) : null);
    // What the stand may do now, read anew (app/pages/stand_acts.py): its edits part handed to table-edit.js
    // (`first`: "edits" drawn above the rolls). `done`: the roll just recorded, its answer over the next.
    const readActs = async (id, redraw, done) => {
      const mine = play, g = root.dataset.game;
      const part = await read(done ? `/games/${g}/map/units/${id}/done/${done}?${new URLSearchParams({ act: mine.act.label })}` : `/games/${g}/map/units/${id}/acts`);
      if (!part && done && play === mine) {
        // The roll is recorded but its answer could not be read: read again once the connection is back.
        notice("The roll is recorded; its answer shows when the connection is back.");
        document.addEventListener("firestep:resync", () => { if (play === mine) readActs(id, redraw, done); }, { once: true });
        return;
      }
      if (!(part && part.dataset.cardStep && m.selectedStand() === id)) return;
      const html = part.outerHTML;
      if (done && !(play === mine && mine.done)) return; // the player has gone on
      // A roll's answer on the card stays, even where acts of a new step were read before it came (`back`).
      const answer = play && play.done && play.stand === id, same = html === actsHtml;
      if (done) { actsHtml = ""; mine.doneHtml = html; renderDone(); }
      else if (answer) return;
      else if (redraw) actsHtml = html;
      if (!done && redraw && !same) renderActs(model.units.get(id));
      const edits = part.parentNode.querySelector("[data-stand-edits-part]");
      window.dispatchEvent(new CustomEvent("firestep:stand-acts", { detail: { id, edits, first: part.dataset.cardFirst } }));
      root.dataset.standActs = String(id); // the card has read what this stand may do: its rows stop moving
    };
    // The card while the act's target is picked: stands it may not take greyed with why, on the map too; read
    // anew each time the card is drawn (a stand moved), the last read shown meanwhile.
    const renderPick = async (u) => {
      const mine = play;
      if (mine.pick) draw(partOf(mine.pick));
      picking(true);
      // The act's target is the other side's: a tap in base contact takes the enemy stand, not one's own.
      m.pickStand((id) => chooseTarget(id), { accept: (t) => t.side !== u.side && !t.killed });
      const part = await read(`/games/${root.dataset.game}/map/units/${u.id}/targets/${mine.act.resolver}`);
      if (!part || play !== mine || mine.stand !== u.id || mine.target !== null) return;
      mine.pick = part.outerHTML;
      mine.marks = new Map(JSON.parse(part.dataset.targetMarks || "[]").map((x) => [x.unit_id, x]));
      m.markTargets([...mine.marks].map(([id, x]) => [id, x.mark]));
      draw(part);
    };
    // The card playing the roll for the play's state (nothing written). Only the play's latest ask is drawn;
    // false where it could not be read (its sentence said), null where stale.
    const askCard = async (dice) => {
      const p = play, n = (p.asks = (p.asks || 0) + 1);
      const q = new URLSearchParams({ act: p.act.label });
      if (p.target !== null) q.set("target", String(p.target));
      for (const id of (p.act.order && p.given[p.act.order]) || []) q.append("order", String(id));
      if (p.given.range_cm !== undefined) q.set("range_cm", String(p.given.range_cm));
      for (const d of dice || []) q.append("die", String(d || 0));
      if (p.reached !== undefined) q.set("reached", String(p.reached)); // a counted roll's
      let error = ""; // a refusal's sentence, as the error page's lead says it
      const part = await read(`/games/${root.dataset.game}/map/units/${p.stand}/play/${p.act.resolver}?${q}`, (_, text) => {
        error = (text && partOf(`<div>${text}</div>`).querySelector(".lead")?.textContent) || "";
      });
      if (play !== p || p.asks !== n) return null;
      if (!part) { notice(error || "The table could not be asked; check the connection."); return false; }
      p.count = Number(part.dataset.diceCount || 0);
      if (part.dataset.countCertain) p.reached = Number(part.dataset.countCertain); // no die can miss it
      p.asked = part.outerHTML;
      return p.asked;
    };
    const renderAsked = () => draw(partOf(play.asked));
    const reAsk = async (dice) => { const mine = play, asked = await askCard(dice); if (asked && play === mine) renderAsked(); return asked; };
    const renderDone = () => { if (play.doneHtml) draw(partOf(play.doneHtml)); };

    // The roll a button of the card begins, as the server's part says it, and the game's step it is of.
    const playOf = (el, u, dice) => {
      const d = el.closest("[data-act-resolver]").dataset, step = Number(d.actStep);
      const act = { label: d.actLabel, resolver: d.actResolver, unit_id: Number(d.actUnit), target: Boolean(d.actTarget), order: d.actOrder };
      return { stand: u.id, act, target: null, dice: dice || [], asked: null, given: {}, step, seen: model.turn.step };
    };
    // A direct roll's die tapped (or firestep asked to roll it): recorded at once.
    const rollNow = async (el, dice) => {
      const u = model.units.get(m.selectedStand());
      if (!u) return;
      const mine = (play = playOf(el, u, dice));
      await apply(dice);
      if (play === mine && !play.done) stop(); // refused or kept offline: the card's acts stay as they were
    };
    const begin = async (el) => {
      const u = model.units.get(m.selectedStand());
      if (!u) return;
      const act = (play = playOf(el, u)).act;
      panel.classList.remove("played");
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
        // Each stand tapped takes the next hit, the first naming the target; the pick lasts until Apply.
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
      root.dataset.playTarget = String(id); // table-dock.js keeps the target's company clear too
      picking(false);
      m.showStand(play.stand);
      await reAsk(null);
    };
    // A die tapped: the card read anew with it; a roll with no target is recorded as its last die is tapped.
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
      if (r.queued || !r.data) { if (play === mine) stop(); return; } // kept: the outbox tells the player
      // A live frame before the answer may have ended the card (a new step): the answer is still the card's
      // while its stand is shown; a player gone on to another stand sees only its changes.
      const drawn = back(mine);
      if (drawn) {
        play.done = r.data;
        picking(false);
        panel.classList.add("playing");
      }
      model.apply({ id: r.data.event_id, kind: "roll", payload: { changes: r.data.changes } });
      root.dataset.lastApplied = String(r.data.event_id);
      if (!drawn) return;
      actsHtml = ""; // the acts before the roll are not what it leaves
      delete root.dataset.standActs;
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
      // The card gives way: a roll done ends when its stand is tapped again, anything begun when the game
      // moves to another step (`seen`: the step this device knew as the play began, its acts of a newer one).
      const over = play && ((e.detail.tapped && play.done) || ![play.step, play.seen].includes(model.turn.step));
      if (play && play.stand === id && !over) {
        if (play.done) renderDone();
        else if (play.target === null && play.act.target) renderPick(model.units.get(id));
        else if (play.asked) renderAsked();
        return;
      }
      stop();
      const u = model.units.get(id);
      // The same stand in the same step (a live frame changed it) keeps its buttons while they are read anew.
      if (actsFor !== id || e.detail.moved) actsHtml = "";
      delete root.dataset.standActs;
      actsFor = id;
      renderActs(u);
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
      if (el.matches("[data-act]")) begin(el);
      else if (el.matches("[data-act-die]")) rollNow(el, [Number(el.dataset.face)]);
      else if (el.matches("[data-act-roll]")) rollNow(el, null);
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
    // Another seat's roll with a value given over the table's (a range by tape): told as the claim it is.
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
    // A write from the card (api-action.js: the referee changed the game's reading): the answer asked again.
    document.addEventListener("firestep:refresh", () => { if (play && play.asked && !play.done) reAsk(play.dice.map((d) => d || 0)); });
  };
  if (window.firestepMap) start();
  window.addEventListener("firestep:map-ready", start);
})();
