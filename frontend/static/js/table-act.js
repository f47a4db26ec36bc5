// Playing a stand's turn from its card on the map: each control of the server's parts carries what it asks
// next (app/pages/stand_next.py): data-ask the part it leads to, data-apply the roll it records (posted to
// data-apply-to through the outbox, its answer read from data-done), data-pick the part a stand tapped on the
// map leads to (its id appended). This keeps the part shown, the map's pick (pickStand, markTargets), the writes.
(() => {
  const m = window.firestepMap;
  if (!m) return;
  const { section, model, notice, refusal, failed, send, root, panel } = m;
  const { partOf, read } = window.firestepDom;
  // play: { stand, step, seen, part (the last drawn, as HTML), marks, asks, done, doneHtml, sending }.
  let play = null, actsHtml = "", actsFor = null; // the acts part as the server last drew it for `actsFor`
  const area = () => section("stand").querySelector("[data-play]"); // its place in the card's head
  // A part drawn under the focus (a roll's answer in place of its die) leaves it on the card's name.
  const draw = (html) => {
    const had = area()?.contains(document.activeElement);
    if (area()) window.firestepDom.draw(area(), html ? partOf(html) : null);
    if (had && !area().contains(document.activeElement)) section("stand").querySelector("[data-stand-name]")?.focus();
  };
  const data = () => partOf(play.part).dataset; // the play part's own (its children are drawn, not it)
  const picking = (on) => {
    panel.classList.toggle("picking", on);
    root.dataset.picking = on ? "target" : "";
    if (!on) { m.stopPicking(); m.markTargets(null); }
    m.placeCard?.();
  };
  const stop = () => { play = null; picking(false); panel.classList.remove("playing", "played"); delete root.dataset.playTarget; };
  // What the stand may do now (its edits part handed to table-edit.js, `first`: drawn above the rolls), or
  // the roll just recorded (`done`: its answer's URL), drawn over its next acts.
  const readActs = async (id, redraw, done) => {
    const mine = play, part = await read(done || `/games/${root.dataset.game}/map/units/${id}/acts`);
    if (!part && done && play === mine) { // read again once the connection is back
      notice("The roll is recorded; its answer shows when the connection is back.");
      return document.addEventListener("firestep:resync", () => play === mine && readActs(id, redraw, done), { once: true });
    }
    if (!part?.dataset.cardStep || m.selectedStand() !== id || (done && !(play === mine && mine.done))) return;
    const html = part.outerHTML, same = html === actsHtml;
    if (done) { actsHtml = ""; draw((mine.doneHtml = html)); }
    else if (play?.done && play.stand === id) return; // a roll's answer stays over acts read before it
    else if (redraw) actsHtml = html;
    if (!done && redraw && !same) draw(!model.units.get(id)?.killed && actsHtml);
    const edits = part.parentNode.querySelector("[data-stand-edits-part]");
    window.dispatchEvent(new CustomEvent("firestep:stand-acts", { detail: { id, edits, first: part.dataset.cardFirst } }));
    root.dataset.standActs = String(id); // the card has read what this stand may do: its rows stop moving
  };
  // While a target is picked the map picks the other side's stands (a tap in base contact takes the enemy's).
  const pickOn = (p) => {
    picking(true);
    m.pickStand(chooseTarget, { accept: (t) => t.side !== model.units.get(p.stand)?.side && !t.killed });
  };
  // The play's part drawn; while its target is picked, the stands it may not take greyed on the map.
  const show = (d = data(), p = play) => {
    draw(p.part);
    if (d.targetMarks) {
      pickOn(p);
      p.marks = new Map(JSON.parse(d.targetMarks).map((x) => [x.unit_id, x]));
      m.markTargets([...p.marks].map(([id, x]) => [id, x.mark]));
    } else if (!d.pick && root.dataset.picking) picking(false);
    if (d.playTarget) root.dataset.playTarget = d.playTarget; // table-dock.js keeps its company clear
  };
  // The part `url` leads to, drawn while it is the play's latest ask; false where it was not (said why).
  const ask = async (url) => {
    const p = play, n = (p.asks = (p.asks || 0) + 1);
    let error = ""; // a refusal's sentence, as the error page's lead says it
    const part = await read(url, (_, text) => { error = (text && partOf(`<div>${text}</div>`).querySelector(".lead")?.textContent) || ""; });
    if (play !== p || p.asks !== n) return false;
    if (!part) { notice(error || "The table could not be asked; check the connection."); return false; }
    p.part = part.outerHTML;
    show();
    return true;
  };
  // A tap that builds on the card's last answer (a die beside another, the next hit) waits for it: `then`
  // runs once the asks before it are drawn, while the play is the same.
  let queue = Promise.resolve();
  const then = (fn) => { const mine = play; queue = queue.then(() => play === mine && fn()).catch(() => {}); };
  const chooseTarget = (id) => {
    const t = model.units.get(id), u = play && model.units.get(play.stand), mark = play?.marks?.get(id);
    if (!t || !u) return;
    if (t.side === u.side || t.killed) notice("Pick one of the other side's stands.");
    else if (mark) notice(mark.refused, false, { why: mark.why, source: mark.source });
    else then(async () => { if (play.part && data().pick && (await ask(data().pick + id)) && (!root.dataset.picking || play.stand !== m.selectedStand())) m.showStand(play.stand); });
  };
  const begun = (el) => ({ stand: m.selectedStand(), step: Number(el.closest("[data-act-step]").dataset.actStep), seen: model.turn.step });
  // A roll recorded as its control carries it, through the outbox; its answer read over the card.
  const apply = async (el) => {
    const mine = play, to = (el.closest("[data-apply-to]") || partOf(mine.part)).dataset;
    if (mine.done || mine.sending) return; // recorded, or on its way: a second tap records nothing
    mine.sending = true;
    const r = await send(to.applyTo, { body: JSON.parse(el.dataset.apply) }).finally(() => { mine.sending = false; });
    if (failed(r)) return notice(refusal(r, "The roll was not recorded; check the connection."));
    if (r.queued || !r.data) { if (play === mine) stop(); return; } // kept: the outbox tells the player
    // Still the card's, or put back where a live frame ended it meanwhile and its stand is still shown.
    const drawn = play === mine || (!play && m.selectedStand() === mine.stand);
    if (drawn) { play = Object.assign(mine, { step: model.turn.step, done: r.data }); picking(false); panel.classList.add("playing"); }
    model.apply({ id: r.data.event_id, kind: "roll", payload: { changes: r.data.changes } });
    if (!drawn) return;
    actsHtml = ""; // the acts before the roll are not what it leaves
    delete root.dataset.standActs;
    panel.classList.add("played");
    readActs(mine.stand, false, to.done.replace("{event}", r.data.event_id));
  };
  window.addEventListener("firestep:stand-shown", async (e) => {
    const id = e.detail.id;
    // The card gives way: a roll done ends when its stand is tapped again, anything begun when the game
    // moves to another step (`seen`: the step this device knew as the play began, its acts of a newer one).
    const over = play && ((e.detail.tapped && play.done) || ![play.step, play.seen].includes(model.turn.step));
    if (play && play.stand === id && !over) {
      if (play.done) draw(play.doneHtml);
      else if (play.part) { show(); if (data().targetMarks) ask(data().playUrl); } // its targets read anew
      return;
    }
    stop();
    if (actsFor !== id || e.detail.moved) actsHtml = ""; // the same stand in the same step keeps its buttons
    delete root.dataset.standActs;
    actsFor = id;
    draw(!model.units.get(id)?.killed && actsHtml);
    await readActs(id, true);
  });
  document.addEventListener("click", (e) => {
    const off = e.target.closest("[data-act-greyed]");
    // The referee's greyed Move asks to override (table-map.js), a marker once refused (api-action.js).
    if (off && !(m.role === "referee" && off.matches("[data-stand-action], [data-api]"))) notice(off.title, false);
    const el = !off && e.target.closest("[data-act], [data-act-die], [data-act-roll], [data-ask], [data-apply], [data-play-cancel], [data-play-undo], [data-panel-close]");
    if (!el || (!play && !el.matches("[data-act], [data-act-die], [data-act-roll], [data-play-undo], [data-panel-close]"))) return;
    if (el.matches("[data-panel-close]")) stop();
    else if (el.matches("[data-act]")) {
      play = begun(el);
      panel.classList.remove("played");
      panel.classList.add("playing");
      if (el.dataset.actTarget) pickOn(play); // a stand tapped before its pick is read waits for it (`then`)
      then(() => ask(el.dataset.ask));
    }
    else if (el.matches("[data-act-die], [data-act-roll]")) { const mine = (play = begun(el)); apply(el).then(() => { if (play === mine && !mine.done) stop(); }); }
    else if (el.matches("[data-play-undo]")) m.undoEvent(Number(el.dataset.playUndo)).then((ok) => { if (ok) { stop(); m.showStand(m.selectedStand()); } });
    else if (el.matches("[data-play-cancel]")) { stop(); m.showStand(m.selectedStand()); }
    else if (play.done) return;
    else if (el.matches("[data-die]")) {
      el.parentNode.querySelectorAll("[data-die]").forEach((b) => b.setAttribute("aria-pressed", String(b === el)));
      const at = `[data-die-row="${el.dataset.dieRow}"][data-die="${el.dataset.die}"]`; // in the card answered last
      then(() => { const b = area()?.querySelector(at); return b && (b.dataset.apply ? apply(b) : ask(b.dataset.ask)); });
    } else if (el.matches("[data-apply]")) apply(el);
    else ask(el.dataset.ask);
  });
  document.addEventListener("change", (e) => {
    if (play && e.target.matches("[data-target-list]") && e.target.value) chooseTarget(Number(e.target.value));
    if (!play || !e.target.matches("[data-play-range]")) return;
    const cm = Number(e.target.value);
    if (Number.isFinite(cm) && cm >= 0 && cm <= 500) ask(e.target.dataset.rangeAsk + cm);
    else notice("Enter the range in cm, from 0 to 500.");
  });
  // The open answer asked again by the reading now played, after a write from the card (api-action.js: the
  // referee changed the game's reading) or as any seat hears that change (a frame's `notice`); another seat's
  // roll with a value given over the table's (a range by tape): its claim, as the frame says it.
  const again = () => { if (play && !play.done && play.part && !data().targetMarks) ask(data().playUrl); };
  document.addEventListener("firestep:refresh", again);
  document.addEventListener("firestep:event", ({ detail: ev }) => { if (ev?.notice) again(); if (ev?.claim) notice(ev.claim, false, { key: `claim-${ev.id}` }); });
})();
