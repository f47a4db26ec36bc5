// The page of counters of a game played on the players' own board (no table): the counters by place or by
// group (this seat's side first), the turn track, and a counter's card offering exactly what the act pipeline
// would accept now (GET .../units/{id}/acts, the stand card's answer). A roll: its counter, its act, its
// target tapped in the list (more of one's own counters tapped join it, where the act takes them), the odds
// (POST .../ask/{resolver}, nothing written), then a die tapped records it (POST .../resolve/{resolver}) and
// Undo takes it back. Live: the game's stream (live.js) feeds the same model as the map (table-model.js).
(() => {
  const root = document.querySelector("[data-counters-page]");
  if (!root || !window.firestepTableModel) return;
  const api = `/api/v1/games/${root.dataset.game}`;
  const role = root.dataset.role;
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  let board = read("counter-board");
  const names = read("map-names");
  const ruleState = read("map-state");
  const model = window.firestepTableModel.create();
  const list = root.querySelector("[data-counter-list]");
  const card = root.querySelector("[data-counter-card]");
  const turnWord = ruleState.turn_word.charAt(0).toUpperCase() + ruleState.turn_word.slice(1);

  const h = (tag, attrs = {}, ...kids) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("data-") || k.startsWith("aria-") || k === "type" || k === "class") node.setAttribute(k, v);
      else node[k] = v;
    }
    kids.flat().forEach((kid) => kid && node.append(kid));
    return node;
  };
  const humanise = (s) => String(s || "").replace(/[-_]/g, " ").replace(/^./, (c) => c.toUpperCase());
  const notice = (text, ok = false) => (window.firestepNotice ? window.firestepNotice(text, ok) : null);
  const sideName = (s) => root.dataset[s] || humanise(s);
  const mayActFor = (side) => role === "referee" || role === side;
  const nameOf = (u) => {
    const n = names[u.id] || {};
    return { short: n.plain || u.short_name || n.short || u.name, full: u.full_name || n.full || u.name };
  };
  const placeOf = (u) => String(u[board.place_field] || "");
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content || "";
  const call = async (url, body) => {
    try {
      const r = await fetch(url, {
        method: body === undefined ? "GET" : "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { ok: r.ok, status: r.status, data: await r.json().catch(() => null), queued: false };
    } catch (err) {
      return { ok: false, status: 0, data: null, queued: false };
    }
  };
  // Writes go through the outbox (CSRF, an idempotency key, kept and resent offline).
  const send = (url, body, method = "POST") => (window.firestepOutbox
    ? window.firestepOutbox.send(url, { method, body: JSON.stringify(body) }) : call(url, body));
  const failed = (r) => !r || (!r.ok && !r.queued);
  const refusal = (r, fallback) => {
    if (r && r.status && window.firestepExplain) return window.firestepExplain(r.status, r.data, r.retryAfter);
    return (r && r.data && typeof r.data.detail === "string" && r.data.detail) || fallback;
  };

  // -- the counters ------------------------------------------------------------------------------------------
  // A counter is a unit with no unit under it; the group is its formation at the board's group level.
  const counters = () => {
    const parents = new Set([...model.units.values()].map((u) => u.parent_id));
    return [...model.units.values()].filter((u) => !parents.has(u.id));
  };
  const groupOf = (u) => {
    let a = model.units.get(u.parent_id);
    while (a && a.level !== board.group_level) a = model.units.get(a.parent_id);
    return a || null;
  };
  // This seat's side first (the referee: the side to move's), then by name.
  const firstSide = () => (role === "attacker" || role === "defender" ? role : model.turn.side_to_move || "attacker");
  const bySide = (a, b) => (a.side === firstSide() ? 0 : 1) - (b.side === firstSide() ? 0 : 1) || nameOf(a).short.localeCompare(nameOf(b).short, undefined, { numeric: true });
  const printed = (u) => board.values.map((f) => u[f]).filter((v) => v !== undefined && v !== null && v !== "").join("-");
  const states = (u) => [
    ruleState.marker && u[ruleState.marker.name] ? `${ruleState.marker.label} ${u[ruleState.marker.name]}` : "",
    ...ruleState.card.filter((f) => !board.values.includes(f.name) && f.name !== board.place_field && u[f.name])
      .map((f) => (f.kind === "count" ? `${f.label} ${u[f.name]}` : f.kind === "flag" ? f.label : `${f.label}: ${u[f.name]}`)),
  ].filter(Boolean);

  let groupBy = "place";
  let selected = null; // the counter whose card is open
  let play = null; // { act, target, joined, asked, dice, done } while the card plays a roll
  const roleIn = (id) => {
    if (!play) return id === selected ? "selected" : "";
    if (id === play.target) return "target";
    if (id === selected || play.joined.includes(id)) return "attacking";
    return "";
  };
  const counterButton = (u, withPlace) => {
    const said = states(u);
    const where = withPlace && placeOf(u) ? `${humanise(board.place_word)} ${placeOf(u)}` : "";
    const label = [nameOf(u).short, sideName(u.side), printed(u), where, u.killed ? "out of play" : "", ...said].filter(Boolean).join(", ");
    const tapped = roleIn(u.id);
    return h("button", {
      type: "button", class: `counter side-${u.side}${u.killed ? " killed" : ""}${tapped ? ` ${tapped}` : ""}`,
      "data-counter": String(u.id), "aria-pressed": String(Boolean(tapped)), "aria-label": label,
    },
    h("span", { class: "counter-name", text: nameOf(u).short }),
    printed(u) ? h("span", { class: "counter-values", text: printed(u) }) : null,
    where ? h("span", { class: "counter-place", text: where }) : null,
    said.length ? h("span", { class: "counter-states", text: said.join(" · ") }) : null);
  };
  const group = (title, note, units, withPlace, key) => h("section", { class: "counter-group", "data-counter-group": key },
    h("h3", {}, h("span", { text: title }), note ? h("span", { class: "muted group-note", text: ` ${note}` }) : null),
    h("div", { class: "counters" }, units.sort(bySide).map((u) => counterButton(u, withPlace))));
  const drawList = () => {
    const all = counters();
    const out = [];
    if (groupBy === "place") {
      const places = new Map();
      for (const u of all.filter((c) => !c.killed && placeOf(c))) {
        if (!places.has(placeOf(u))) places.set(placeOf(u), []);
        places.get(placeOf(u)).push(u);
      }
      const keys = [...places.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
      for (const k of keys) out.push(group(`${humanise(board.place_word)} ${k}`, board.places[k] || "", places.get(k), false, `place-${k}`));
      const off = all.filter((c) => !c.killed && !placeOf(c));
      if (off.length) out.push(group(`Not on a ${board.place_word}`, "", off, false, "off"));
    } else {
      const groups = new Map();
      for (const u of all.filter((c) => !c.killed)) {
        const g = groupOf(u);
        const k = g ? g.id : 0;
        if (!groups.has(k)) groups.set(k, { g, units: [] });
        groups.get(k).units.push(u);
      }
      const order = [...groups.values()].sort((a, b) => bySide(a.units[0], b.units[0]));
      for (const { g, units } of order) out.push(group(g ? nameOf(g).short : "Others", g ? sideName(g.side) : "", units, true, `group-${g ? g.id : 0}`));
    }
    const gone = all.filter((c) => c.killed);
    if (gone.length) out.push(group("Out of play", "", gone, true, "out-of-play"));
    if (!all.length) out.push(h("p", { class: "muted", text: "No counters yet: the referee enters them." }));
    list.replaceChildren(...out);
    list.setAttribute("aria-busy", "false");
    root.dataset.loaded = String(all.length);
  };
  const drawTurn = () => {
    const t = model.turn;
    const now = root.querySelector("[data-turn-now]");
    const turn = board.track.find((x) => x.number === t.turn);
    now.textContent = t.status === "setup" ? "Setting up" : t.status === "finished" ? "Game over"
      : `${turnWord} ${t.turn}${turn ? `: ${turn.label}` : ""} · ${sideName(t.side_to_move)} to move${board.badges.length ? ` · ${board.badges.join(" · ")}` : ""}`;
    root.dataset.turn = String(t.turn);
    root.querySelectorAll("[data-track-turn]").forEach((li) => {
      const on = Number(li.dataset.trackTurn) === t.turn && t.status === "playing";
      li.classList.toggle("now", on);
      if (on) { li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest", inline: "center" }); } else li.removeAttribute("aria-current");
    });
    root.querySelector("[data-track-note]").textContent = turn && turn.note ? turn.note : "";
  };

  // -- a counter's card --------------------------------------------------------------------------------------
  let offered = null; // the /acts answer for the selected counter
  const showCard = () => {
    const u = selected !== null ? model.units.get(selected) : null;
    if (!u) { card.hidden = true; root.dataset.card = ""; return; }
    card.hidden = false;
    root.dataset.card = String(u.id);
    const head = [
      h("div", { class: "card-head" },
        h("h2", { "data-card-name": "", text: nameOf(u).short }),
        h("button", { type: "button", class: "button card-close", "data-card-close": "", "aria-label": "Close the card", text: "×" })),
      h("p", { class: `card-side side-${u.side}`, text: [sideName(u.side), nameOf(u).full !== nameOf(u).short ? nameOf(u).full : "", placeOf(u) ? `${humanise(board.place_word)} ${placeOf(u)}` : ""].filter(Boolean).join(" · ") }),
      h("p", { class: "card-values", text: [printed(u), u.killed ? "Out of play" : "", ...states(u)].filter(Boolean).join(" · ") || "Nothing to note" }),
    ];
    card.replaceChildren(...head, h("div", { class: "card-play", "data-card-play": "" }, play ? playArea(u) : actsArea(u)));
  };
  const actsArea = (u) => {
    if (!offered) return h("p", { class: "muted", text: "Reading what it may do…" });
    const kids = [];
    const acts = offered.acts || [];
    if (acts.length) kids.push(h("div", { class: "play-acts", role: "group", "aria-label": "Its acts" },
      acts.map((a, i) => h("button", { type: "button", class: "button primary", "data-act": String(i), title: a.why || "", text: a.label }))));
    for (const [i, e] of (offered.edits || []).entries()) {
      const choices = e.choices.filter((c) => !c.needs_target);
      if (!choices.length) continue;
      kids.push(h("div", { class: "play-acts", role: "group", "aria-label": e.label },
        h("span", { class: "edit-label", text: e.label }),
        choices.map((c) => h("button", { type: "button", class: "button", "data-edit": String(i), "data-choice": String(e.choices.indexOf(c)), text: c.label }))));
    }
    const offer = (kind) => (offered.offers || []).find((o) => o.kind === kind);
    const place = offer("place");
    if (place && !place.refused) {
      const numeric = counters().every((c) => !placeOf(c) || /^\d+$/.test(placeOf(c)));
      kids.push(h("form", { class: "play-row", "data-place-form": "" },
        h("label", { htmlFor: "counter-place", text: place.label }),
        h("input", { id: "counter-place", name: "place", type: "text", inputMode: numeric ? "numeric" : "text", maxLength: 64, required: true, autocomplete: "off", value: "", "data-place-input": "" }),
        h("button", { type: "submit", class: "button", text: "Move" })));
    }
    const marks = ["mark", "recover"].map(offer).filter((o) => o && !o.refused);
    if (marks.length) kids.push(h("div", { class: "play-acts", role: "group", "aria-label": "Markers" },
      marks.map((o) => h("button", { type: "button", class: "button", "data-marker": o.kind, text: o.label }))));
    const greyed = (offered.offers || []).filter((o) => o.refused && (o.kind === "roll" || o.kind === "edit"));
    if (greyed.length) kids.push(h("div", { class: "play-acts", role: "group", "aria-label": "Not now" },
      greyed.map((o) => h("button", { type: "button", class: "button greyed", "aria-disabled": "true", "data-act-greyed": "", title: o.refused.detail, "aria-label": `${o.label}, not now: ${o.refused.detail}`, text: o.label }))));
    if (offered.refused && !acts.length) kids.push(h("p", { class: "play-waiting", "data-play-waiting": "", title: offered.refused.why || "", text: offered.refused.detail }));
    if (!kids.length) kids.push(h("p", { class: "muted", text: mayActFor(u.side) ? "Nothing to do with it now." : "The other side's counter: nothing to do with it now." }));
    return kids;
  };
  const readActs = async () => {
    const id = selected;
    if (id === null) return;
    const r = await call(`${api}/units/${id}/acts`);
    if (selected !== id) return;
    offered = r.ok && r.data ? r.data : { acts: [], edits: [], offers: [], refused: null };
    root.dataset.acts = String(id);
    if (!play) showCard();
  };
  const select = (id) => {
    play = null;
    selected = id;
    offered = null;
    delete root.dataset.acts;
    showCard();
    drawList();
    if (id !== null) {
      readActs();
      if (window.matchMedia("(max-width: 899px)").matches) card.scrollIntoView({ block: "nearest" });
    }
  };

  // -- a roll from the card ----------------------------------------------------------------------------------
  const body = (dice) => {
    const fields = play.act.joined ? { [play.act.joined]: play.joined } : {};
    const out = { unit_id: play.act.on_enemy ? null : play.act.unit_id, target_id: play.target, fields };
    if (dice) out.dice = dice;
    return out;
  };
  const diceCount = () => (play.asked && play.asked.resolution && play.asked.resolution.dice ? play.asked.resolution.dice.length : play.act.dice || 1);
  const playArea = (u) => {
    const { act, asked, done } = play;
    const t = play.target !== null ? model.units.get(play.target) : null;
    const joined = play.joined.map((id) => model.units.get(id)).filter(Boolean).map((x) => nameOf(x).short);
    const who = act.on_enemy ? `${act.label}: ${t ? nameOf(t).short : ""}` : `${act.label}: ${[nameOf(u).short, ...joined].join(" + ")}${t ? ` at ${nameOf(t).short}` : ""}`;
    const kids = [h("p", { class: "play-answer", "data-play-title": "", text: who })];
    const cancel = h("button", { type: "button", class: "button", "data-play-cancel": "", text: done ? "Done" : "Cancel" });
    if (done) {
      const res = done.resolution;
      kids.push(h("p", { class: "play-answer play-result", "data-play-done": String(done.event_id), "data-play-outcome": res.outcome_key || "", text: `Rolled ${res.dice.join(" and ")}: ${done.outcome_words}.` }));
      kids.push(h("ul", { class: "play-effects", "data-play-effects": "" }, (done.said && done.said.length ? done.said : ["Nothing changes on the board."]).map((l) => h("li", { text: l }))));
      kids.push(h("div", { class: "play-row" }, h("button", { type: "button", class: "button", "data-play-undo": String(done.event_id), text: "Undo" }), cancel));
      return kids;
    }
    if (act.target && play.target === null) {
      kids.push(h("p", { class: "play-prompt", "data-play-prompt": "", text: `Tap the ${sideName(u.side === "attacker" ? "defender" : "attacker")} counter it ${act.label.toLowerCase()}s${act.joined ? "; tap more of your counters to join" : ""}.` }));
      kids.push(h("div", { class: "play-row" }, cancel));
      return kids;
    }
    if (!asked) { kids.push(h("p", { class: "muted", text: "Working out the odds…" }), h("div", { class: "play-row" }, cancel)); return kids; }
    if (asked.refused) {
      kids.push(h("p", { class: "play-answer", "data-play-refused": "", text: asked.refused.detail }),
        h("details", { class: "play-why" }, h("summary", { text: "Why?" }), h("p", { text: asked.refused.why || "" }), h("cite", { text: asked.refused.source || "" })),
        h("div", { class: "play-row" }, cancel));
      return kids;
    }
    const odds = Object.entries(asked.odds_words || {}).map(([k, v]) => `${humanise(k)} ${v}`);
    const detail = asked.resolution && asked.resolution.details ? Object.entries(asked.resolution.details).map(([k, v]) => `${humanise(k)} ${v}`).join(" · ") : "";
    kids.push(h("div", { class: "play-odds", "data-play-odds": "" },
      detail ? h("p", { class: "odds-line", text: detail }) : null,
      odds.length ? h("ul", { class: "odds" }, odds.map((o) => h("li", { text: o }))) : null));
    if (act.joined) kids.push(h("p", { class: "muted", text: "Tap more of your counters to join, or one to leave." }));
    for (let d = 0; d < diceCount(); d += 1) {
      kids.push(h("div", { class: "play-dice", role: "group", "aria-label": diceCount() === 1 ? "The die: tap what it shows" : `Die ${d + 1}` },
        [1, 2, 3, 4, 5, 6].map((n) => h("button", { type: "button", class: "die", "data-die": String(n), "data-die-row": String(d), "aria-pressed": String(play.dice[d] === n), text: String(n) }))));
    }
    kids.push(h("div", { class: "play-row" }, h("button", { type: "button", class: "button", "data-play-roll": "", text: "Let firestep roll" }), cancel));
    kids.push(h("details", { class: "play-why" }, h("summary", { text: "What the board filled in" }),
      h("ul", {}, (asked.filled || []).map((f) => h("li", { text: `${humanise(f.field)}: ${typeof f.value === "object" ? JSON.stringify(f.value) : f.value} (${f.why})` })))));
    return kids;
  };
  const ask = async () => {
    const r = await call(`${api}/ask/${play.act.resolver}`, body(null));
    if (!play) return;
    if (!r.ok) { notice(refusal(r, "The odds could not be worked out; check the connection.")); return; }
    play.asked = r.data;
    root.dataset.asked = String(Date.now());
    showCard();
  };
  const begin = (i) => {
    const act = offered && offered.acts[i];
    if (!act) return;
    play = { act, target: act.on_enemy ? act.unit_id : null, joined: [], asked: null, dice: [], done: null };
    showCard();
    drawList();
    if (!act.target || play.target !== null) ask();
  };
  const tapInPlay = (u) => {
    const roller = model.units.get(selected);
    if (play.done || play.act.on_enemy) return false;
    if (u.side !== roller.side && !u.killed && play.act.target) {
      play.target = u.id;
      play.dice = [];
      play.asked = null;
    } else if (u.side === roller.side && u.id !== roller.id && play.act.joined && !u.killed) {
      play.joined = play.joined.includes(u.id) ? play.joined.filter((x) => x !== u.id) : [...play.joined, u.id];
      play.asked = null;
    } else {
      return false;
    }
    showCard();
    drawList();
    if (play.target !== null) ask();
    return true;
  };
  const record = async (dice) => {
    const r = await send(`${api}/resolve/${play.act.resolver}`, { ...body(dice), apply: true });
    if (failed(r)) { notice(refusal(r, "The roll was not recorded; check the connection.")); return; }
    if (r.queued || !r.data) { notice("Kept on this device: it is recorded when the connection is back."); play = null; showCard(); return; }
    model.apply({ id: r.data.event_id, kind: "roll", payload: { changes: r.data.changes } });
    if (play) { play.done = r.data; root.dataset.lastApplied = String(r.data.event_id); showCard(); }
  };
  const tapDie = (row, n) => {
    play.dice[row] = n;
    if (play.dice.filter(Boolean).length < diceCount()) { showCard(); return; }
    record(play.dice);
  };
  const undo = async (eventId) => {
    const r = await send(`${api}/events/${eventId}/undo`, {});
    if (failed(r)) { notice(refusal(r, "The undo was not saved; check the connection.")); return; }
    if (r.ok && r.data) model.apply(r.data);
    notice("Taken back.", true);
    play = null;
    readActs();
    showCard();
  };
  const edited = async (values) => {
    const u = model.units.get(selected);
    const r = await send(`${api}/units/${u.id}`, { version: u.version, ...values }, "PUT");
    if (failed(r)) { notice(refusal(r, "Not recorded; check the connection.")); return; }
    if (r.ok && r.data && r.data.unit) model.setUnit({ ...model.units.get(u.id), ...r.data.unit }, r.data.event_id);
    readActs();
  };

  // -- taps --------------------------------------------------------------------------------------------------
  document.addEventListener("click", (e) => {
    const c = e.target.closest("[data-counter]");
    if (c) {
      const u = model.units.get(Number(c.dataset.counter));
      if (!u) return;
      if (play && tapInPlay(u)) return;
      select(selected === u.id && !play ? null : u.id);
      return;
    }
    const g = e.target.closest("[data-group-by]");
    if (g) {
      groupBy = g.dataset.groupBy;
      root.querySelectorAll("[data-group-by]").forEach((b) => b.setAttribute("aria-pressed", String(b === g)));
      drawList();
      return;
    }
    const el = e.target.closest("[data-act-greyed], [data-act], [data-edit], [data-marker], [data-die], [data-play-roll], [data-play-cancel], [data-play-undo], [data-card-close]");
    if (!el || !card.contains(el)) return;
    if (el.matches("[data-act-greyed]")) notice(el.title);
    else if (el.matches("[data-card-close]")) select(null);
    else if (el.matches("[data-act]")) begin(Number(el.dataset.act));
    else if (el.matches("[data-edit]")) {
      const e2 = offered.edits[Number(el.dataset.edit)];
      edited({ [e2.field]: e2.choices[Number(el.dataset.choice)].value });
    } else if (el.matches("[data-marker]")) {
      const u = model.units.get(selected);
      send(`${api}/units/${u.id}/markers`, { delta: el.dataset.marker === "mark" ? 1 : -1 }).then((r) => {
        if (failed(r)) notice(refusal(r, "Not recorded; check the connection."));
        else if (r.ok && r.data && r.data.unit) model.setUnit({ ...model.units.get(u.id), ...r.data.unit }, r.data.event_id);
        readActs();
      });
    } else if (!play) return;
    else if (el.matches("[data-die]")) tapDie(Number(el.dataset.dieRow), Number(el.dataset.die));
    else if (el.matches("[data-play-roll]")) record(null);
    else if (el.matches("[data-play-undo]")) undo(Number(el.dataset.playUndo));
    else if (el.matches("[data-play-cancel]")) { play = null; drawList(); readActs(); showCard(); }
  });
  document.addEventListener("submit", (e) => {
    if (!e.target.matches("[data-place-form]")) return;
    e.preventDefault();
    const to = e.target.querySelector("[data-place-input]").value.trim();
    if (to) edited({ [board.place_field]: to });
  });

  // -- loading and following the stream ----------------------------------------------------------------------
  const getJson = (url) => fetch(url, { credentials: "same-origin", cache: "no-store" }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
  const load = async () => {
    try {
      const state = await getJson(`${api}/state`);
      const units = await getJson(`${api}/units`);
      board = await getJson(`${api}/counters`).catch(() => board);
      model.setState(state, units);
    } catch (status) {
      notice(status === 401 || status === 403 ? "Join this game to see its counters." : "The counters could not be loaded; check the connection.");
    }
  };
  model.listen((what) => {
    if (what.units || what.all) drawList();
    if (what.turn || what.all) drawTurn();
    if (selected !== null && !play) readActs();
    else if (selected !== null) showCard();
  });
  let pending = null;
  document.addEventListener("firestep:event", (e) => {
    const need = model.apply(e.detail);
    if (!need.length) return;
    clearTimeout(pending);
    pending = setTimeout(load, 40); // a burst of frames (a new turn) read back once
  });
  document.addEventListener("firestep:resync", load);
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) load(); });
  load();
})();
