// The unit edits a stand's card offers now besides its rolls (a formation's command, a plan and its target, a
// dig-in): read with the rolls (GET .../units/{id}/acts, its `edits`, which table-act.js hands over as
// `firestep:stand-acts`), each value the rules allow a button, the target a stand tapped on the map, written
// in one PUT .../units/{unit} over the unit's version; its event is on every device by the stream, and Undo
// takes it back while it is the game's latest.
(() => {
  const start = () => {
    const m = window.firestepMap;
    if (!m || m.editing) return;
    m.editing = true;
    const { h, section, api, model, nameOf, notice, refusal, failed, send } = m;
    const panel = document.querySelector("[data-map-panel]");
    let edits = [];
    let shownFor = null; // the stand whose card the edits are of
    let doing = null; // { edit, choice } while a value or its target is picked, { done } once saved

    const area = () => {
      const box = section("stand");
      let el = box.querySelector("[data-edits]");
      if (!el) {
        el = h("div", { "data-edits": "" });
        // After the card's rolls (table-act.js puts them just below the stand's path).
        const after = box.querySelector("[data-play]") || box.querySelector("[data-stand-path]");
        if (after) after.after(el); else box.append(el);
      }
      return el;
    };
    const busy = (on) => {
      panel.classList.toggle("editing", on);
      if (!on && doing && doing.choice) m.stopPicking(); // only a pick of its own (a roll may be picking)
    };
    const stop = () => { busy(false); doing = null; };
    const unitName = (id) => { const u = model.units.get(id); return u ? nameOf(u).short : ""; };

    const render = () => {
      const el = area();
      if (!doing) {
        el.replaceChildren(edits.length ? h("div", { class: "play-acts", role: "group", "aria-label": "Plan this stand's part" },
          edits.map((e, i) => h("button", { type: "button", class: "button", "data-edit": String(i), title: e.why, text: e.label }))) : "");
        return;
      }
      if (doing.done) {
        el.replaceChildren(
          h("p", { class: "play-answer", "data-edit-done": String(doing.done.event_id), text: doing.done.text }),
          h("div", { class: "play-row" },
            h("button", { type: "button", class: "button", "data-edit-undo": String(doing.done.event_id), text: "Undo" }),
            h("button", { type: "button", class: "button", "data-edit-cancel": "", text: "Done" })));
        return;
      }
      const { edit, choice } = doing;
      const cancel = h("button", { type: "button", class: "button", "data-edit-cancel": "", text: "Cancel" });
      if (!choice) {
        el.replaceChildren(
          h("p", { class: "play-answer", text: `${edit.label}: ${edit.why}` }),
          h("div", { class: "play-acts", role: "group", "aria-label": edit.label },
            edit.choices.map((c, i) => h("button", { type: "button", class: "button", "data-edit-choice": String(i), text: c.label }))),
          h("div", { class: "play-row" }, cancel));
        return;
      }
      el.replaceChildren(
        h("p", { class: "play-answer", "data-edit-prompt": "", text: `${edit.label}: ${choice.label}. Tap its target on the map.` }),
        h("div", { class: "play-row" },
          choice.needs_target ? null : h("button", { type: "button", class: "button", "data-edit-untargeted": "", text: "No target" }),
          cancel));
    };

    const save = async (target) => {
      const { edit, choice } = doing;
      const read = await fetch(`${api}/units/${edit.unit_id}`, { credentials: "same-origin", cache: "no-store" }).catch(() => null);
      const unit = read && read.ok ? await read.json() : null;
      if (!unit) { notice("The unit could not be read; check the connection."); return; }
      const body = { version: unit.version, [edit.field]: choice.value };
      if (target !== null) body[choice.target] = target;
      const r = await send(`${api}/units/${edit.unit_id}`, { method: "PUT", body });
      if (failed(r)) { notice(refusal(r, "The change was not saved; check the connection.")); return; }
      if (r.queued || !r.data) { notice("Kept on this device: it is saved when the connection is back."); stop(); render(); return; }
      busy(false);
      model.apply({ id: r.data.event_id, kind: "unit-update", payload: { changes: r.data.changes } });
      // The unit the rules stored as the target (a base tapped names its sub-unit).
      const stored = target !== null ? (r.data.changes || []).find((c) => c.field === choice.target) : null;
      const at = target !== null ? ` at ${unitName(stored ? stored.after : target)}` : "";
      doing = { done: { event_id: r.data.event_id, text: `${edit.label}: ${choice.label}${at}.` }, step: doing.step };
      render();
    };
    const choose = (i) => {
      doing.choice = doing.edit.choices[i];
      if (!doing.choice.target) { save(null); return; }
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
      // The card gives way: an edit saved (Undo and Done) ends when its stand is tapped again, and anything
      // begun ends when the game moves to another step.
      const over = doing && ((e.detail.tapped && doing.done) || doing.step !== model.turn.step);
      if (doing && shownFor === e.detail.id && !over) { render(); return; }
      if (shownFor !== e.detail.id || e.detail.moved) edits = [];
      stop();
      shownFor = e.detail.id;
      render();
    });
    window.addEventListener("firestep:stand-acts", (e) => {
      if (e.detail.id !== shownFor || doing) return;
      // A refusal's remedy that is an edit (Unpack, Unlimber) comes first: the edits above the rolls.
      const el = area();
      const rolls = section("stand").querySelector("[data-play]");
      if (rolls && e.detail.first === "edits" && el.nextElementSibling !== rolls) rolls.before(el);
      else if (rolls && e.detail.first !== "edits" && rolls.nextElementSibling !== el) rolls.after(el);
      const same = JSON.stringify(e.detail.edits || []) === JSON.stringify(edits);
      edits = e.detail.edits || [];
      if (!same) render(); // the buttons on screen stay while they are read anew
    });
    document.addEventListener("click", (e) => {
      const el = e.target.closest("[data-edit], [data-edit-choice], [data-edit-untargeted], [data-edit-cancel], [data-edit-undo], [data-act], [data-act-die], [data-act-roll], [data-panel-close]");
      if (!el) return;
      if (el.matches("[data-act], [data-act-die], [data-act-roll], [data-panel-close]")) { stop(); return; }
      if (el.matches("[data-edit]")) {
        const edit = edits[Number(el.dataset.edit)];
        if (!edit) return;
        doing = { edit, choice: null, step: model.turn.step };
        busy(true);
        if (edit.choices.length === 1) choose(0);
        else render();
      } else if (!doing) return;
      else if (el.matches("[data-edit-choice]")) choose(Number(el.dataset.editChoice));
      else if (el.matches("[data-edit-untargeted]")) save(null);
      else if (el.matches("[data-edit-undo]")) undo(Number(el.dataset.editUndo));
      else if (el.matches("[data-edit-cancel]")) { stop(); m.showStand(m.selectedStand()); }
    });
  };
  if (window.firestepMap) start();
  window.addEventListener("firestep:map-ready", start);
})();
