// A stand card's unit edits (a command, a plan and its target, a dig-in): the server's `_stand_edits.html`
// (via table-act.js's `firestep:stand-acts`) and its answer `_stand_edited.html`; here which piece shows, the
// target tapped on the map, and the PUT over the unit's version through the outbox.
(() => {
  const m = window.firestepMap;
  if (!m) return;
  const { section, api, model, notice, refusal, failed, send, root, panel } = m;
  const { read, draw } = window.firestepDom;
  let part = null; // the edits part the server drew for the stand shown (anew with an edit's answer)
  let shownFor = null; // the stand whose card the edits are of
  let doing = null; // { edit, choice, step } picking, { saving } while sent, { done, step } once saved

  const area = () => section("stand").querySelector("[data-edits]"); // its place in the card's head
  const busy = (on) => {
    panel.classList.toggle("editing", on);
    if (!on && doing && doing.choice) m.stopPicking(); // only a pick of its own (a roll may be picking)
  };
  const stop = () => { busy(false); doing = null; };
  const piece = (key) => part && part.querySelector(`[data-edits-state="${key}"]`);
  // One piece of the part at a time, a copy (the part is kept to show another).
  const render = () => {
    if (doing && doing.saving) return; // the prompt stays until its answer is read
    const key = doing && (doing.choice ? `pick-${doing.edit}-${doing.choice.dataset.editChoice}` : `edit-${doing.edit}`);
    const shown = doing ? doing.done || piece(key) : piece("list");
    if (area()) draw(area(), shown ? shown.cloneNode(true) : null);
  };

  // Its answer as the server draws it (the card's words, the target the rules stored).
  const answer = (eventId, c, targeted) => {
    const q = new URLSearchParams({ act: c.editWords, target: targeted ? c.editTarget : "" });
    const url = `/games/${root.dataset.game}/map/units/${shownFor}/edited/${eventId}?${q}`;
    return read(url);
  };
  const save = async (target) => {
    const c = doing.choice.dataset, step = doing.step;
    const got = await fetch(`${api}/units/${c.editUnit}`, { cache: "no-store" }).catch(() => null);
    const unit = got && got.ok ? await got.json() : null;
    if (!unit) { notice("The unit could not be read; check the connection."); return; }
    const body = { version: unit.version, [c.editField]: JSON.parse(c.editValue) };
    if (target !== null) body[c.editTarget] = target;
    const r = await send(`${api}/units/${c.editUnit}`, { method: "PUT", body });
    if (failed(r)) { notice(refusal(r, "The change was not saved; check the connection.")); return; }
    if (r.queued || !r.data) { stop(); render(); return; } // kept: the outbox tells the player
    busy(false);
    const mine = (doing = { saving: true, step });
    model.apply({ id: r.data.event_id, kind: "unit-update", payload: { changes: r.data.changes } });
    const done = await answer(r.data.event_id, c, target !== null);
    if (doing !== mine) return; // the card has gone on meanwhile
    if (!done) { notice("The change is saved; its answer shows when the stand is tapped again."); stop(); render(); return; }
    doing = { done, step }; part = done.parentNode.querySelector("[data-stand-edits-part]") || part;
    render();
  };
  const choose = (button) => {
    doing.choice = button;
    if (!button.dataset.editTarget) { save(null); return; }
    render();
    const own = model.units.get(shownFor);
    // The target is the other side's: a tap in base contact takes the enemy stand, not one's own.
    m.pickStand((id) => save(id), { accept: (t) => Boolean(own) && t.side !== own.side && !t.killed });
  };
  const undo = async (eventId) => {
    if (!(await m.undoEvent(eventId))) return;
    stop();
    m.showStand(m.selectedStand());
  };

  window.addEventListener("firestep:stand-shown", (e) => {
    // The card gives way: an edit saved ends when its stand is tapped again, anything begun at a new step.
    const over = doing && ((e.detail.tapped && doing.done) || doing.step !== model.turn.step);
    if (doing && shownFor === e.detail.id && !over) { render(); return; }
    if (shownFor !== e.detail.id || e.detail.moved) part = null;
    stop();
    shownFor = e.detail.id;
    render();
  });
  window.addEventListener("firestep:stand-acts", (e) => {
    if (e.detail.id !== shownFor || doing) return;
    // A refusal's remedy that is an edit (Unpack, Unlimber) comes first: the edits above the rolls.
    const el = area(), rolls = section("stand").querySelector("[data-play]");
    if (el && e.detail.first === "edits" && el.nextElementSibling !== rolls) rolls.before(el);
    else if (el && e.detail.first !== "edits" && rolls.nextElementSibling !== el) rolls.after(el);
    part = e.detail.edits;
    render(); // the buttons on screen stay where they are the same
  });
  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-edit], [data-edit-choice], [data-edit-untargeted], [data-edit-cancel], [data-edit-undo], [data-act], [data-act-die], [data-act-roll], [data-panel-close]");
    if (!el) return;
    if (el.matches("[data-act], [data-act-die], [data-act-roll], [data-panel-close]")) { stop(); return; }
    if (el.matches("[data-edit]")) {
      const values = piece(`edit-${el.dataset.edit}`)?.querySelectorAll("[data-edit-choice]") || [];
      if (!values.length) return;
      doing = { edit: el.dataset.edit, choice: null, step: model.turn.step };
      busy(true);
      if (values.length === 1) choose(values[0]); // one value: no choice to show
      else render();
    } else if (!doing) return;
    else if (el.matches("[data-edit-choice]")) choose(el);
    else if (el.matches("[data-edit-untargeted]")) save(null);
    else if (el.matches("[data-edit-undo]")) undo(Number(el.dataset.editUndo));
    else if (el.matches("[data-edit-cancel]")) { stop(); m.showStand(m.selectedStand()); }
  });
})();
