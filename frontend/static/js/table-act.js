// Playing a stand's turn from its card on the map: the rolls the rules offer the stand now
// (GET .../units/{id}/acts), a target tapped on the map or picked from a list (the stands it may not be are
// greyed, each with why: GET .../units/{id}/targets/{resolver}), what the table fills and the
// odds (POST .../ask/{resolver}, nothing written), the dice on the card, the answer with what it does to
// whom, then one Apply (POST .../resolve/{resolver}): one event naming the target, on every device by the
// stream. A roll with no target and one die (an order roll, a morale test) shows its dice on the card and is
// recorded as its die is tapped. The answer offers the stand's next acts under it; Undo takes the roll back
// while it is the game's latest event.
(() => {
  const start = () => {
    const m = window.firestepMap;
    if (!m || m.acting) return;
    m.acting = true;
    const { h, section, api, model, nameOf, notice, refusal, failed, send, humanise, root } = m;
    const panel = document.querySelector("[data-map-panel]");
    const ruleState = JSON.parse(document.getElementById("map-state").textContent);
    const labelOf = (field) => (ruleState.card.find((f) => f.name === field) || {}).label || humanise(field.replace(/_/g, "-"));
    const call = (url, body) => window.firestepOutbox.now(url, body); // answered now, never kept
    const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
    // Each other stand a shot attacks (its area, its beaten zone): its die, its modifiers, what it did.
    const alsoLines = (res) => (res.also || []).map((a) => `${a.name}: ${a.die}${a.modifiers.map((x) => ` ${x.value > 0 ? "+" : ""}${x.value} ${x.label.toLowerCase()}`).join(",")}, ${humanise(a.outcome)}`);
    // What a roll did, as the server says it from the rule set's words (the same before Apply and after it):
    // its outcome ("1 action") and a sentence for each change ("1/1 Coy Plt 1 destroyed.").
    const saidList = (answer) => h("ul", { class: "play-effects", "data-play-effects": "" },
      (answer.said && answer.said.length ? answer.said : ["Nothing changes on the table."]).map((l) => h("li", { text: l })));

    // play: { stand, act, target, dice, asked, given, event } for the stand whose card shows it.
    let play = null;
    let acts = [];
    let waiting = null; // why the rules of play offer this stand nothing now ({detail, why, source}), or null
    let greyed = []; // the stand's rolls and edits the pipeline would refuse now, each with its sentence
    let actsFor = null; // the stand whose acts `acts` are
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
    // The stands the act may not take as its target, each with why (GET .../units/{id}/targets/{resolver}):
    // greyed on the map and named in the list while the target is picked; a tap on one says why.
    const loadMarks = async (u) => {
      play.marks = new Map();
      const mine = play;
      const r = await call(`${api}/units/${u.id}/targets/${play.act.resolver}`);
      if (play !== mine || play.stand !== u.id || play.target !== null) return;
      play.marks = new Map((r.ok && Array.isArray(r.data) ? r.data : []).map((x) => [x.unit_id, x]));
      m.markTargets([...play.marks].map(([id, x]) => [id, x.mark]));
      renderPick(u);
    };
    // The play `mine` as its roll's answer comes (apply): the card's still; or put back, its step the game's now,
    // where a live frame ended it meanwhile (a new step drawn before the answer: the roll is still this card's)
    // and its stand is still the one shown; or null where the player has gone on to another stand or play.
    const back = (mine) => {
      if (play === mine) return mine;
      if (play || m.selectedStand() !== mine.stand) return null;
      mine.step = model.turn.step;
      play = mine;
      return mine;
    };
    const stop = () => { play = null; picking(false); panel.classList.remove("playing", "played"); delete root.dataset.playTarget; };

    // -- the card's states -------------------------------------------------------------------------------
    // A roll with nothing to choose but its die (no target, one die, no option: an order roll, a morale test)
    // shows its dice on the card: the die tapped records it, one tap where there were two (issue 64); its Undo
    // takes it back.
    const direct = (a) => !a.target && a.dice === 1 && !a.pool && !a.order && !a.joined && !(a.options || []).length;
    const actButtons = () => acts.map((a, i) => (direct(a)
      ? h("div", { class: "play-direct", role: "group", "aria-label": a.label, "data-act-direct": String(i) },
        h("p", { class: "play-direct-label", title: a.why || "", text: `${a.label}: tap the die rolled` }),
        h("div", { class: "play-dice" }, [1, 2, 3, 4, 5, 6].map((n) => h("button", {
          type: "button", "data-act-die": String(i), "data-face": String(n), text: String(n),
        }))),
        h("button", { type: "button", class: "button", "data-act-roll": String(i), text: "Let firestep roll" }),
        h("div", { "data-direct-odds": String(i), hidden: true }))
      : h("button", { type: "button", class: "button", "data-act": String(i), title: a.why || "", text: a.label })));
    // A direct roll's odds, asked of the table (nothing written) once its dice are on the card.
    const oddsWords = (asked) => Object.entries(asked.odds_words || {}).map(([k, v]) => `${humanise(k)} ${v}`).join(" · ");
    // A direct roll's odds and what the table filled in (the lookup's link to change it), asked of the table
    // (nothing written) once per event, as the card showed them before the die when its act took a tap.
    const oddsAsked = new Map(); // "unit:resolver:as of event" -> the table's answer
    const showOdds = () => acts.forEach(async (a, i) => {
      if (!direct(a)) return;
      const key = `${a.unit_id}:${a.resolver}:${model.asOf}`;
      if (!oddsAsked.has(key)) {
        const r = await call(`${api}/ask/${a.resolver}`, { unit_id: a.unit_id, target_id: null, fields: {} });
        if (r.ok && r.data && !r.data.refused) oddsAsked.set(key, r.data); // asked again if lost
      }
      const asked = oddsAsked.get(key);
      const el = area().querySelector(`[data-direct-odds="${i}"]`);
      if (!(el && acts[i] === a && asked)) return;
      const odds = oddsWords(asked);
      el.replaceChildren(odds ? h("p", { class: "muted", text: `Odds: ${odds}` }) : "", filledDetails(a, asked));
      el.hidden = false;
    });
    const renderActs = (u) => {
      const el = area();
      // Why the acts are offered, once each ("Plt 1 takes the order roll of Coy 1", "2 actions left (Coy 1)").
      const whys = [...new Set(acts.map((a) => a.why).filter(Boolean))];
      // What the rules refuse now, greyed, each with the pipeline's sentence (a tap on it says it); the sentences
      // that name a remedy on the card ("unpack it first") are said under the buttons, the waiting line once.
      const said = [...new Set(greyed.filter((g) => g.refused.remedy).map((g) => g.refused.detail))]
        .filter((d) => !waiting || d !== waiting.detail);
      const grey = greyed.map((g) => h("button", {
        type: "button", class: "button greyed", "aria-disabled": "true", "data-act-greyed": g.key,
        title: g.refused.detail, "aria-label": `${g.label}, not now: ${g.refused.detail}`, text: g.label,
      }));
      el.replaceChildren(acts.length || grey.length ? h("div", { class: "play-acts", role: "group", "aria-label": "Play this stand" },
        actButtons(), grey) : "",
      !acts.length && waiting ? h("p", { class: "play-waiting", "data-play-waiting": "", title: waiting.why || "", text: waiting.detail }) : "",
      said.length ? h("ul", { class: "play-greyed", "data-acts-greyed": "" }, said.map((d) => h("li", { text: d }))) : "",
      acts.length && whys.length ? h("p", { class: "muted", "data-acts-why": "", text: whys.join(" · ") }) : "");
      if (u.killed) el.replaceChildren();
      else showOdds();
    };
    // What the stand may do now, read anew (GET .../units/{id}/acts): its rolls and greyed acts drawn here, its
    // edits handed to table-edit.js (`first`: "edits" when a refusal's remedy is one, drawn above the rolls).
    const readActs = async (id, redraw) => {
      const r = await call(`${api}/units/${id}/acts`);
      if (!(r.ok && r.data && Array.isArray(r.data.acts) && m.selectedStand() === id)) return;
      const shown = (r.data.offers || []).filter((o) => o.refused && (o.kind === "roll" || o.kind === "edit"))
        .map((o) => ({ key: o.key, label: o.label, refused: o.refused }));
      const same = JSON.stringify([r.data.acts, r.data.refused, shown]) === JSON.stringify([acts, waiting, greyed]);
      // A roll's answer on the card stays (its acts drawn under it), even where the acts were read for a new step
      // before the answer came (apply: `back`).
      if (play && play.done && play.stand === id) {
        acts = r.data.acts;
        waiting = r.data.refused;
        greyed = shown;
        renderDone(play.done);
      } else if (redraw) {
        acts = r.data.acts;
        waiting = r.data.refused;
        greyed = shown;
        if (!same) renderActs(model.units.get(id));
      }
      cardOffers = r.data.offers || [];
      greyCard();
      // The edits come first where a refusal's remedy is one, and where the stand may make no roll now (its
      // greyed rolls or choices below them): on a phone what it may do stays in view.
      const first = r.data.first || (!r.data.acts.length && (r.data.edits || []).length ? "edits" : "");
      window.dispatchEvent(new CustomEvent("firestep:stand-acts", { detail: { id, edits: r.data.edits, first } }));
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
    const targets = (u) => {
      // The other side's living stands, grouped by company, nearest first where both are on the table.
      // The other side's stands on the table (one off it is no target: it has no range, and is not on the map).
      const enemy = [...model.units.values()].filter((t) => t.base && t.side !== u.side && !t.killed && t.x !== null && !t.off_table);
      const placed = u.x !== null && u.y !== null;
      const far = (t) => (placed && t.x !== null ? dist(t, u) : Infinity);
      const groups = new Map();
      for (const t of enemy.sort((a, b) => far(a) - far(b))) {
        const parent = model.units.get(t.parent_id);
        const key = parent ? nameOf(parent).full : "";
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(t);
      }
      return groups;
    };
    const renderPick = (u) => {
      const el = area();
      const marks = play.marks || new Map();
      const option = (t) => {
        const mark = marks.get(t.id);
        const far = t.x !== null && u.x !== null ? ` · ${dist(t, u).toFixed(0)} cm` : "";
        return h("option", { value: String(t.id), disabled: Boolean(mark), text: `${nameOf(t).short}${far}${mark ? ` · ${mark.mark}` : ""}` });
      };
      const list = h("select", { "data-target-list": "", "aria-label": "Or pick the target by name" },
        h("option", { value: "", text: "Or pick it by name…" }),
        [...targets(u).entries()].map(([group, ts]) => h("optgroup", { label: group || "Other stands" }, ts.map(option))));
      list.addEventListener("change", () => { if (list.value) chooseTarget(Number(list.value)); });
      const prompt = `${play.act.label}: tap the target on the map.${marks.size ? " Greyed stands may not be its target: tap one to see why." : ""}`;
      el.replaceChildren(
        h("p", { class: "play-answer", "data-play-prompt": "", text: prompt }),
        h("div", { class: "play-row" }, list, h("button", { type: "button", class: "button", "data-play-cancel": "", text: "Cancel" })),
      );
      picking(true);
      // The act's target is the other side's: a tap in base contact takes the enemy stand, not one's own.
      m.pickStand((id) => chooseTarget(id), { accept: (t) => t.side !== u.side && !t.killed });
      if (!play.marks) loadMarks(u);
    };
    // The dice a roll takes: the act's, or one more for each other stand its shot attacks (the table says).
    const diceCount = () => (play.asked && play.asked.resolution ? play.asked.resolution.dice.length : play.act.dice);
    const diceRow = (count) => {
      const rows = [];
      const also = (play.asked && play.asked.resolution && play.asked.resolution.also) || [];
      const first = count - also.length;
      for (let d = 0; d < count; d += 1) {
        const label = d >= first ? `The die for ${also[d - first].name}`
          : count === 1 ? "The die" : play.act.pool ? `Die ${d + 1} of the pool` : d === 0 ? "The attacker's die" : "The defender's die";
        rows.push(h("div", { class: "play-dice", role: "group", "aria-label": label },
          [1, 2, 3, 4, 5, 6].map((n) => h("button", {
            type: "button", "data-die": String(n), "data-die-row": String(d), text: String(n),
            "aria-pressed": String(play.dice[d] === n),
          }))));
      }
      return rows;
    };
    // What the table filled in, folded; every other input is the lookup's to change: the same roll, for the same
    // unit, field by field.
    const filledDetails = (act, asked) => {
      const edit = `/lookup/${root.dataset.ruleset}/${act.resolver}?game=${root.dataset.game}&unit=${act.unit_id}`;
      return h("details", { class: "play-why" }, h("summary", { text: "What the table filled in" }), filledList(asked),
        h("p", {}, h("a", { href: edit, "data-play-lookup": "", text: "Change any of it in the lookup" })));
    };
    const filledList = (asked) => h("ul", { class: "play-filled", "data-play-filled": "" },
      asked.filled.filter((f) => typeof f.value !== "boolean" || f.value).map((f) => h("li", {
        text: `${labelOf(f.field)}: ${typeof f.value === "object" ? Object.values(f.value).filter((v) => typeof v === "string").join(" ") : f.value}${f.field === "range_cm" ? " cm" : ""} (${f.why})`,
      })));
    const renderAsked = () => {
      const { act, asked } = play;
      const u = model.units.get(play.stand);
      const t = play.target ? model.units.get(play.target) : null;
      const res = asked.resolution;
      const odds = oddsWords(asked);
      const range = asked.filled.find((f) => f.field === "range_cm");
      const a = play.dice.length === diceCount() ? asked.dice_answer : null;
      const kids = [h("p", { class: "play-answer", text: `${act.label}: ${nameOf(u).short}${t ? ` at ${nameOf(t).short}` : ""}` })];
      if (asked.refused) {
        // A roll the rules would refuse now (a shot that is not possible) is offered no dice and no odds.
        const no = asked.refused;
        area().replaceChildren(...kids,
          h("p", { class: "play-answer", "data-play-refused": "", text: no.detail }),
          h("details", { class: "play-why" }, h("summary", { text: "Why?" }), h("p", { text: no.why || "" }), h("cite", { text: no.source || "" })),
          h("div", { class: "play-row" }, h("button", { type: "button", class: "button", "data-play-cancel": "", text: "Cancel" })));
        return;
      }
      if (a) {
        kids.push(h("p", { class: "play-answer", "data-play-outcome": a.resolution.outcome_key || "", text: `Rolled ${a.resolution.dice.join(" and ")}: ${a.outcome_words}.` }));
        if (a.resolution.also) kids.push(h("ul", { class: "play-effects", "data-play-also": "" }, alsoLines(a.resolution).map((l) => h("li", { text: l }))));
        kids.push(h("div", { class: "play-row" },
          h("button", { type: "button", class: "button primary", "data-play-apply": "", text: "Apply" }),
          h("button", { type: "button", class: "button", "data-play-cancel": "", text: "Cancel" })));
        kids.push(saidList(a));
      }
      if (act.pool && diceCount()) kids.push(h("p", { "data-play-pool": String(diceCount()), text: `Dice pool: ${diceCount()} ${diceCount() === 1 ? "die" : "dice"}` }));
      kids.push(...diceRow(diceCount()));
      if (act.order && !a) {
        const order = (play.given[act.order] || []).map((id) => (model.units.get(id) ? nameOf(model.units.get(id)).short : String(id)));
        kids.push(h("p", { "data-play-order": String(order.length), text: `In this order: ${order.join(", ")}. Tap the next, or Apply; or leave it to the book's order.` }));
        kids.push(h("div", { class: "play-row" }, h("button", { type: "button", class: "button", "data-play-book": "", text: "Book's order" })));
      }
      if (!a) {
        kids.push(h("div", { class: "play-row" },
          h("button", { type: "button", class: "button", "data-play-roll": "", text: diceCount() ? "Let firestep roll" : "Apply" }),
          h("button", { type: "button", class: "button", "data-play-cancel": "", text: "Cancel" })));
      }
      if (odds) kids.push(h("p", { class: "muted", "data-play-odds": "", text: `Odds: ${odds}` }));
      if (range || play.given.range_cm !== undefined) {
        kids.push(h("div", { class: "play-row" },
          h("label", { htmlFor: "play-range", text: "Range by the tape (cm)" }),
          h("input", { id: "play-range", type: "number", inputMode: "decimal", min: "0", max: "500", step: "0.5", value: String(play.given.range_cm ?? range.value), "data-play-range": "" })));
      }
      if (act.why) kids.push(h("p", { class: "muted", text: act.why }));
      kids.push(filledDetails(act, asked));
      area().replaceChildren(...kids);
    };
    const renderDone = (result) => {
      const res = result.resolution;
      area().replaceChildren(
        h("p", { class: "play-answer", "data-play-done": String(result.event_id), text: res.dice.length ? `${play.act.label}: rolled ${res.dice.join(" and ")}, ${result.outcome_words}.` : `${play.act.label}: ${result.outcome_words}.` }),
        h("ul", { class: "play-effects", "data-play-also": "" }, alsoLines(res).map((l) => h("li", { text: l }))),
        saidList(result),
        h("div", { class: "play-row" },
          h("button", { type: "button", class: "button", "data-play-undo": String(result.event_id), text: "Undo" }),
          h("button", { type: "button", class: "button", "data-play-cancel": "", text: "Done" })),
        // What the stand may do next, read after the roll (hits to allocate after a shot, a shot after an order
        // roll): a tap on it begins it, with no tap to open the card again (issue 64).
        acts.length ? h("div", { class: "play-acts", role: "group", "aria-label": "Next for this stand", "data-play-next": "" }, actButtons()) : "",
      );
      showOdds();
    };

    // -- the acts ------------------------------------------------------------------------------------------
    const ask = async (dice) => {
      const body = { unit_id: play.act.unit_id, target_id: play.target, fields: play.given };
      if (dice) body.dice = dice;
      const r = await call(`${api}/ask/${play.act.resolver}`, body);
      if (!r.ok) { notice(refusal(r, "The table could not be asked; check the connection.")); return null; }
      return r.data;
    };
    // A direct roll's die tapped (or firestep asked to roll it): recorded at once, as its die row would.
    const rollNow = async (i, dice) => {
      const u = model.units.get(m.selectedStand());
      const act = acts[i];
      if (!u || !act) return;
      const mine = { stand: u.id, act, target: null, dice: dice || [], asked: null, given: {}, step: model.turn.step };
      play = mine;
      await apply(dice);
      if (play === mine && !play.done) stop(); // refused or kept offline: the card's acts stay as they were
    };
    const begin = async (i) => {
      const u = model.units.get(m.selectedStand());
      const act = acts[i];
      if (!u || !act) return;
      play = { stand: u.id, act, target: null, dice: [], asked: null, given: {}, step: model.turn.step };
      panel.classList.remove("played"); // begun from the last roll's answer: this one's card
      panel.classList.add("playing");
      if (act.target) { renderPick(u); return; }
      const mine = play;
      const asked = await ask(null); // nothing written: a card ended meanwhile draws nothing of it
      if (play !== mine || !asked) return;
      play.asked = asked;
      renderAsked();
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
        const asked = await ask(null);
        if (play !== mine) return;
        if (!asked) { play.given = { ...play.given, [play.act.order]: order }; return; }
        play.asked = asked;
        if (play.stand !== m.selectedStand()) m.showStand(play.stand);
        renderAsked();
        return;
      }
      play.target = id;
      root.dataset.playTarget = String(id); // the card docks clear of the target's company too (table-dock.js)
      picking(false);
      m.showStand(play.stand);
      const mine = play;
      const asked = await ask(null);
      if (play !== mine || !asked) return;
      play.asked = asked;
      renderAsked();
    };
    const tapDie = async (row, n) => {
      play.dice[row] = n;
      if (play.dice.filter(Boolean).length < diceCount()) { renderAsked(); return; }
      if (!play.act.target) { await apply(play.dice); return; }
      const mine = play;
      const answer = await ask(play.dice);
      if (!answer || play !== mine) return;
      play.asked = { ...play.asked, dice_answer: answer };
      renderAsked();
    };
    const apply = async (dice) => {
      const mine = play;
      const body = { unit_id: mine.act.unit_id, target_id: mine.target, fields: mine.given, apply: true };
      if (dice) body.dice = dice;
      const r = await send(`${api}/resolve/${mine.act.resolver}`, { body });
      if (failed(r)) { notice(refusal(r, "The roll was not recorded; check the connection.")); return; }
      if (r.queued || !r.data) {
        notice("Kept on this device: it is recorded when the connection is back.");
        if (play === mine) stop();
        return;
      }
      // A live frame before the answer may have ended the card (a new step drawn): the answer is still the
      // card's while its stand is shown; the player gone on to another stand sees its changes and nothing else.
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
      delete root.dataset.standActs;
      renderDone(r.data);
      // Its acts and edits as they now stand, shown under the roll's answer (hits to allocate after a shot; an
      // MG ordered may now be unpacked).
      panel.classList.add("played");
      readActs(play.stand, false);
    };
    const undo = async (eventId) => {
      if (!(await m.undoEvent(eventId))) return;
      stop();
      m.showStand(m.selectedStand());
    };

    window.addEventListener("firestep:stand-shown", async (e) => {
      const id = e.detail.id;
      // The card gives way: a roll done (Undo and Done) ends when its stand is tapped again, and anything
      // begun ends when the game moves to another step (its acts are read anew).
      const over = play && ((e.detail.tapped && play.done) || play.step !== model.turn.step);
      if (play && play.stand === id && !over) {
        if (play.done) renderDone(play.done);
        else if (play.target === null && play.act.target) renderPick(model.units.get(id));
        else if (play.asked) renderAsked();
        return;
      }
      stop();
      const u = model.units.get(id);
      // The same stand shown again in the same step (a live frame changed it): its buttons stay while they are
      // read anew.
      if (actsFor !== id || e.detail.moved) { acts = []; waiting = null; greyed = []; cardOffers = []; delete root.dataset.standActs; }
      actsFor = id;
      renderActs(u);
      queueMicrotask(greyCard); // the card drawn again: its buttons greyed as last read, after every listener drew
      if (!play) await readActs(id, true);
    });
    document.addEventListener("click", (e) => {
      const off = e.target.closest("[data-act-greyed]");
      // The referee's greyed Move or marker asks to override instead (table-map.js).
      const overridden = m.role === "referee" && off?.matches("[data-stand-action]");
      if (off && !overridden) { (window.firestepNotice || notice)(off.title, false); return; }
      if (off) return;
      const el = e.target.closest("[data-act], [data-act-die], [data-act-roll], [data-die], [data-play-apply], [data-play-roll], [data-play-book], [data-play-cancel], [data-play-undo], [data-panel-close]");
      if (!el) return;
      if (el.matches("[data-panel-close]")) { stop(); return; }
      if (el.matches("[data-act]")) begin(Number(el.dataset.act));
      else if (el.matches("[data-act-die]")) rollNow(Number(el.dataset.actDie), [Number(el.dataset.face)]);
      else if (el.matches("[data-act-roll]")) rollNow(Number(el.dataset.actRoll), null);
      else if (!play) return;
      else if (el.matches("[data-die]")) tapDie(Number(el.dataset.dieRow), Number(el.dataset.die));
      else if (el.matches("[data-play-apply]")) apply(play.dice);
      else if (el.matches("[data-play-roll]")) apply(null);
      else if (el.matches("[data-play-book]")) { play.given = Object.fromEntries(Object.entries(play.given).filter(([k]) => k !== play.act.order)); apply(null); }
      else if (el.matches("[data-play-undo]")) undo(Number(el.dataset.playUndo));
      else if (el.matches("[data-play-cancel]")) { stop(); m.showStand(m.selectedStand()); }
    });
    document.addEventListener("change", (e) => {
      if (!play || !e.target.matches("[data-play-range]")) return;
      const cm = Number(e.target.value);
      if (!Number.isFinite(cm) || cm < 0 || cm > 500) { notice("Enter the range in cm, from 0 to 500."); return; }
      play.given = { ...play.given, range_cm: cm };
      play.dice = [];
      const mine = play;
      ask(null).then((asked) => { if (asked && play === mine) { play.asked = asked; renderAsked(); } });
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
  };
  if (window.firestepMap) start();
  window.addEventListener("firestep:map-ready", start);
})();
