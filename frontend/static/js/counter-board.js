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
  const labelOf = (field) => (ruleState.card.find((f) => f.name === field) || {}).label || humanise(field);
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
  const call = (url, body) => window.firestepOutbox.now(url, body); // answered now, never kept
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
  // Its values as the face now up shows them: a counter flipped (a step lost) shows its other face's values.
  const faceOf = (u) => {
    const [flag, other] = board.flipped || ["", []];
    return flag && u[flag] && other.every((f) => u[f] !== undefined && u[f] !== null && u[f] !== "") ? other : board.values;
  };
  const printed = (u) => faceOf(u).map((f) => u[f]).filter((v) => v !== undefined && v !== null && v !== "").join("-");
  // Its state in words, each with its kind: the marker's count, then the rule set's fields shown on its card.
  const stateOf = (u) => [
    ...(ruleState.marker && u[ruleState.marker.name] ? [{ kind: "count", marker: true, text: `${ruleState.marker.label} ${u[ruleState.marker.name]}` }] : []),
    ...ruleState.card.filter((f) => !board.values.includes(f.name) && f.name !== board.place_field && u[f.name])
      .map((f) => ({ kind: f.kind, text: f.kind === "count" ? `${f.label} ${u[f.name]}` : f.kind === "flag" ? f.label : `${f.label}: ${u[f.name]}` })),
  ];
  const states = (u) => [...stateOf(u).map((x) => x.text), ...(board.marks && board.marks[u.id] ? [board.marks[u.id]] : [])];

  let groupBy = "place";
  let selected = null; // the counter whose card is open
  let play = null; // { act, target, joined, asked, dice, done } while the card plays a roll
  const roleIn = (id) => {
    if (!play) return id === selected ? "selected" : "";
    if (id === play.target) return "target";
    if (id === selected || play.joined.includes(id)) return "attacking";
    return "";
  };
  // On the counter itself: its flags and its markers (depleted, bombarded), the rest on its card.
  const marks = (u) => [...stateOf(u).filter((x) => x.kind === "flag" || x.marker).map((x) => x.text), ...(board.marks && board.marks[u.id] ? [board.marks[u.id]] : [])];
  const counterButton = (u, withPlace) => {
    const said = marks(u);
    const where = withPlace && placeOf(u) ? `${humanise(board.place_word)} ${placeOf(u)}` : "";
    const tapped = roleIn(u.id);
    return h("button", {
      type: "button", class: `counter side-${u.side}${u.killed ? " killed" : ""}${tapped ? ` ${tapped}` : ""}`,
      "data-counter": String(u.id), "aria-pressed": String(Boolean(tapped)),
    },
    h("span", { class: "counter-name", text: nameOf(u).short }),
    h("span", { class: "sr-only", text: `, ${sideName(u.side)}${u.killed ? ", out of play" : ""}` }),
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
      // By the formation above each counter, or by the group its counter names (a word on it).
      const groups = new Map();
      for (const u of all.filter((c) => !c.killed)) {
        const g = board.group_field ? null : groupOf(u);
        const word = board.group_field ? String(u[board.group_field] || "") : "";
        const k = board.group_field ? `${u.side}:${word}` : g ? String(g.id) : "";
        const title = board.group_field ? word || "Others" : g ? nameOf(g).short : "Others";
        if (!groups.has(k)) groups.set(k, { title, side: u.side, units: [] });
        groups.get(k).units.push(u);
      }
      const order = [...groups.entries()].sort(([, a], [, b]) => bySide(a.units[0], b.units[0]) || a.title.localeCompare(b.title, undefined, { numeric: true }));
      for (const [k, { title, side, units }] of order) out.push(group(title, sideName(side), units, true, `group-${k}`));
    }
    const gone = all.filter((c) => c.killed);
    if (gone.length) out.push(group("Out of play", "", gone, true, "out"));
    if (!all.length) out.push(h("p", { class: "muted", text: "No counters yet: the referee enters them." }));
    const next = h("div", {}, ...out);
    if (next.innerHTML !== list.innerHTML) list.replaceChildren(...next.childNodes); // as the card: only when it reads differently
    list.setAttribute("aria-busy", "false");
    root.dataset.loaded = String(all.length);
  };
  const drawTurn = () => {
    const t = model.turn;
    const now = root.querySelector("[data-turn-now]");
    const turn = board.track.find((x) => x.number === t.turn);
    // The turn, its date as the track prints it, and whose step it is by the book's name ("Canadian: Combat phase").
    const step = t.step === null || t.step === "" ? "" : (board.steps || [])[Number(t.step)];
    now.textContent = t.status === "setup" ? "Setting up" : t.status === "finished" ? "Game over"
      : `${turnWord} ${t.turn}${turn && turn.label ? `: ${turn.label}` : ""} · ${sideName(t.side_to_move)}${step ? `: ${step}` : " to move"}${board.badges.length ? ` · ${board.badges.join(" · ")}` : ""}`;
    root.dataset.turn = String(t.turn);
    const entry = root.querySelector("[data-counter-entry]");
    if (entry) entry.hidden = t.status === "finished"; // no counter added to a game over
    root.querySelectorAll("[data-track-turn]").forEach((li) => {
      const on = Number(li.dataset.trackTurn) === t.turn && t.status === "playing";
      li.classList.toggle("now", on);
      if (on) { li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest", inline: "center" }); } else li.removeAttribute("aria-current");
    });
    root.querySelector("[data-track-note]").textContent = turn && turn.note ? turn.note : "";
  };

  // -- the turn sequence stepped on ------------------------------------------------------------------------------
  // As on the referee board: the referee starts the game from set-up; in play the referee or the side to move
  // taps Next step, over the version the turn was read at (a second tap on a step already taken is refused as
  // stale, never a second step), its next step named.
  const stepTools = root.querySelector("[data-step-tools]");
  let turnRead = null; // GET .../turn: its version, status, side to move and next step
  const needsBox = root.querySelector("[data-step-needs]");
  const drawNeeds = () => {
    // needs[0] is the step's own words; the rest each name a counter (needs_cards) whose card settles it. Held
    // while the card plays a roll: the list appearing above would move the card's Undo and Done under the finger
    // (drawn as the play ends: showCard).
    if (play) return;
    const t = turnRead;
    const still = t && t.status === "playing" ? (t.needs || []).slice(1) : [];
    const cards = t ? (t.needs_cards || []).slice(1) : [];
    needsBox.hidden = !still.length;
    needsBox.querySelector("[data-step-needs-list]").replaceChildren(...still.map((n, i) => h("li", {},
      cards[i] !== null && cards[i] !== undefined && model.units.has(cards[i])
        ? h("button", { type: "button", class: "button small", "data-need-card": String(cards[i]), text: n, onclick: () => select(cards[i]) })
        : n)));
  };
  const drawStep = () => {
    if (needsBox) drawNeeds();
    if (!stepTools) return;
    const t = turnRead;
    const mine = t && t.status !== "finished" && (role === "referee" || (t.status === "playing" && role === t.side_to_move));
    stepTools.hidden = !mine;
    stepTools.dataset.version = t ? String(t.version) : "";
    if (!mine) return;
    const n = t.next || {};
    const button = stepTools.querySelector("[data-next-step]");
    button.textContent = t.status === "setup" ? "Start the game" : "Next step";
    button.disabled = false;
    const then = n.then ? `${sideName(n.then.side_to_move)}${n.then.turn !== t.turn ? `, ${turnWord.toLowerCase()} ${n.then.turn}` : ""}` : "";
    stepTools.querySelector("[data-next-title]").textContent = t.status === "setup" ? "" : n.title ? `Next: ${n.title}` : then ? `Next: ${then}` : "";
  };
  const readTurn = async () => {
    if (!stepTools) return;
    const r = await call(`${api}/turn`);
    if (r.ok && r.data) { turnRead = r.data; drawStep(); }
  };
  // The step this page shows is the one stepped from: the game's version read at the tap (an act of this
  // seat's a moment before, a counter placed, moves it on: refused as stale, it read "Someone changed this game
  // meanwhile"), the step compared with the one shown, so a step another device took first is not taken twice.
  const at = (t) => [t.status, t.turn, t.side_to_move, t.step ? t.step.index : null].join(":");
  if (stepTools) stepTools.querySelector("[data-next-step]").addEventListener("click", async (e) => {
    if (!turnRead) return;
    const button = e.currentTarget;
    button.disabled = true;
    const shown = turnRead;
    const fresh = await call(`${api}/turn`);
    if (!fresh.ok || !fresh.data) notice(refusal(fresh, "The turn did not move on; check the connection."));
    else if (at(fresh.data) !== at(shown)) {
      turnRead = fresh.data;
      notice("The turn moved on meanwhile: it is shown as it now stands.");
      load();
    } else {
      const r = await call(`${api}/turn/advance`, { version: fresh.data.version });
      if (!r.ok) notice(refusal(r, "The turn did not move on; check the connection."));
      else if (r.data && r.data.turn) { turnRead = r.data.turn; load(); }
    }
    button.disabled = false;
    drawStep();
  });

  // -- a counter's card --------------------------------------------------------------------------------------
  let offered = null; // the /acts answer for the selected counter
  const showCard = () => {
    if (needsBox && !play) drawNeeds();
    const u = selected !== null ? model.units.get(selected) : null;
    if (!u) { card.hidden = true; root.dataset.card = ""; return; }
    card.hidden = false;
    card.classList.toggle("picking", Boolean(play && play.act.target && play.target === null));
    card.classList.toggle("playing", Boolean(play));
    const same = root.dataset.card === String(u.id);
    root.dataset.card = String(u.id);
    const head = [
      h("div", { class: "card-head" },
        h("h2", { "data-card-name": "", text: nameOf(u).short }),
        h("button", { type: "button", class: "button card-close", "data-card-close": "", "aria-label": "Close the card", text: "×" })),
      h("p", { class: `card-side side-${u.side}`, text: [sideName(u.side), nameOf(u).full !== nameOf(u).short ? nameOf(u).full : "", placeOf(u) ? `${humanise(board.place_word)} ${placeOf(u)}` : ""].filter(Boolean).join(" · ") }),
      h("p", { class: "card-values", text: [printed(u), u.killed ? "Out of play" : "", ...states(u)].filter(Boolean).join(" · ") || "Nothing to note" }),
    ];
    // Drawn anew only when it reads differently: a live frame that changes nothing on the card leaves its
    // buttons (and what is typed in it) where they are.
    const next = h("div", {}, ...head, h("div", { class: "card-play", "data-card-play": "" }, play ? playArea(u) : actsArea(u)));
    if (next.innerHTML === card.innerHTML) return;
    // A place typed for this counter is kept through a redraw (its acts read anew by a live frame).
    const typed = same ? card.querySelector("[data-place-input]") : null;
    const kept = typed ? typed.value : "";
    const focused = typed !== null && document.activeElement === typed;
    card.replaceChildren(...next.childNodes);
    const again = card.querySelector("[data-place-input]");
    if (again && kept) again.value = kept;
    if (again && focused) again.focus();
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
    // Its moves the pipeline accepts now, one place typed: a plain move (its own side's), and a move applying a
    // result (a combat's retreat or advance, `values`), which either seat may make.
    const moves = (offered.offers || []).filter((o) => o.kind === "place" && !o.refused);
    if (moves.length) {
      const numeric = counters().every((c) => !placeOf(c) || /^\d+$/.test(placeOf(c)));
      const plain = moves.find((o) => !Object.keys(o.values || {}).length);
      kids.push(h("form", { class: "play-row", "data-place-form": "" },
        h("label", { htmlFor: "counter-place", text: plain ? plain.label : placeOf(u) ? `To another ${board.place_word}` : `The ${board.place_word} it enters` }),
        h("input", { id: "counter-place", name: "place", type: "text", inputMode: numeric ? "numeric" : "text", maxLength: 64, required: true, autocomplete: "off", value: "", "data-place-input": "" }),
        moves.map((o) => h("button", { type: "submit", class: "button", "data-place-values": JSON.stringify(o.values || {}), text: o === plain ? "Move" : o.label }))));
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
    // The units making the roll, the roller first, where others may join it.
    const fields = { ...play.given, ...(play.act.joined ? { [play.act.joined]: [play.act.unit_id, ...play.joined] } : {}) };
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
      kids.push(h("ul", { class: "play-effects", "data-play-effects": "" }, (done.said && done.said.length ? done.said : ["Nothing changed by itself: apply the result to the counters it names (tap each one)."]).map((l) => h("li", { text: l }))));
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
      // Refused as it stands: its options may lift the refusal ("say the target is observed").
      kids.push(h("p", { class: "play-answer", "data-play-refused": "", text: asked.refused.detail }),
        ...optionsRow(act),
        h("details", { class: "play-why" }, h("summary", { text: "Why?" }), h("p", { text: asked.refused.why || "" }), h("cite", { text: asked.refused.source || "" })),
        h("div", { class: "play-row" }, cancel));
      return kids;
    }
    const odds = Object.entries(asked.odds_words || {}).map(([k, v]) => `${humanise(k)} ${v}`);
    // What the board filled in (the strengths, the terrain), then each result's exact chance.
    const valueOf = (v) => (Array.isArray(v) ? v.join(", ") : typeof v === "boolean" ? (v ? "yes" : "no") : v && typeof v === "object" ? JSON.stringify(v) : String(v));
    const detail = (asked.filled || []).filter((f) => typeof f.value !== "object" || Array.isArray(f.value))
      .map((f) => `${labelOf(f.field)} ${valueOf(f.value)}`).join(" · ");
    kids.push(h("div", { class: "play-odds", "data-play-odds": "" },
      detail ? h("p", { class: "odds-line", text: detail }) : null,
      odds.length ? h("ul", { class: "odds" }, odds.map((o) => h("li", { text: o }))) : null));
    if (act.joined) kids.push(h("p", { class: "muted", text: "Tap more of your counters to join, or one to leave." }));
    kids.push(...optionsRow(act));
    for (let d = 0; d < diceCount(); d += 1) {
      kids.push(h("div", { class: "play-dice", role: "group", "aria-label": diceCount() === 1 ? "The die: tap what it shows" : `Die ${d + 1}` },
        [1, 2, 3, 4, 5, 6].map((n) => h("button", { type: "button", class: "die", "data-die": String(n), "data-die-row": String(d), "aria-pressed": String(play.dice[d] === n), text: String(n) }))));
    }
    kids.push(h("div", { class: "play-row" }, h("button", { type: "button", class: "button", "data-play-roll": "", text: "Let firestep roll" }), cancel));
    const lookup = `/lookup/${root.dataset.ruleset}/${act.resolver}?game=${root.dataset.game}${act.on_enemy ? "" : `&unit=${act.unit_id}`}`;
    kids.push(h("details", { class: "play-why" }, h("summary", { text: "What the board filled in" }),
      h("ul", {}, (asked.filled || []).map((f) => h("li", { text: `${labelOf(f.field)}: ${valueOf(f.value)} (${f.why})` }))),
      h("p", {}, h("a", { href: lookup, "data-play-lookup": "", text: "Change any of it in the lookup" }))));
    return kids;
  };
  // The roll's options (StandAct.options), as its request declares them: one of a few words or numbers a row
  // (a word by its label where the request names one), the yes-or-no ones together in one row; one the board
  // filled from the game's own data is not offered unless the player already chose it (it reads in the odds).
  const optionsRow = (act) => {
    const specs = (board.options || {})[act.resolver] || {};
    const filled = new Set(((play.asked && play.asked.filled) || []).filter((f) => !f.given).map((f) => f.field));
    const named = (act.options || []).filter((name) => specs[name] && (!filled.has(name) || name in play.given));
    const now = (name) => play.given[name] ?? specs[name].default;
    const wordOf = (name, v) => (specs[name].labels && specs[name].labels[v]) || humanise(v);
    const button = (name, value, text, pressed) => h("button", {
      type: "button", class: "button option", "data-option": name, "data-option-value": String(value), "aria-pressed": String(pressed), text,
    });
    const rows = named.filter((name) => specs[name].kind !== "flag").map((name) => h("div", { class: "play-acts", role: "group", "aria-label": specs[name].title },
      h("span", { class: "edit-label", text: specs[name].title }),
      specs[name].values.map((v) => button(name, v, specs[name].kind === "word" ? wordOf(name, v) : String(v), now(name) === v))));
    const flags = named.filter((name) => specs[name].kind === "flag");
    if (flags.length) rows.push(h("div", { class: "play-acts", role: "group", "aria-label": "Choices" },
      flags.map((name) => button(name, !now(name), specs[name].title, Boolean(now(name))))));
    return rows;
  };
  const choose = (name, raw) => {
    const spec = ((board.options || {})[play.act.resolver] || {})[name];
    if (!spec) return;
    play.given = { ...play.given, [name]: spec.kind === "flag" ? raw === "true" : spec.kind === "word" ? raw : Number(raw) };
    play.dice = [];
    play.asked = null;
    showCard();
    ask();
  };
  const ask = async () => {
    const r = await call(`${api}/ask/${play.act.resolver}`, body(null));
    if (!play) return;
    if (!r.ok) {
      // Refused as asked (a counter that may not join, a field out of range): said on the card, the play kept.
      const said = refusal(r, "The odds could not be worked out; check the connection.");
      play.asked = { refused: { detail: said, why: r.data && r.data.why, source: r.data && r.data.source } };
      showCard();
      return;
    }
    play.asked = r.data;
    root.dataset.asked = String(Date.now());
    showCard();
  };
  const begin = (i) => {
    const act = offered && offered.acts[i];
    if (!act) return;
    play = { act, target: act.on_enemy ? act.unit_id : null, joined: [], given: {}, asked: null, dice: [], done: null };
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
  // One counter's edit over the version it was read at, through the act pipeline (the card's, set-up's): the
  // answer, its refusal said; the counter as the server keeps it.
  const putUnit = async (u, values, fallback) => {
    const r = await send(`${api}/units/${u.id}`, { version: u.version, ...values }, "PUT");
    if (failed(r)) notice(refusal(r, fallback));
    else if (r.ok && r.data && r.data.unit) model.setUnit({ ...model.units.get(u.id), ...r.data.unit }, r.data.event_id);
    return r;
  };
  const edited = async (values) => {
    await putUnit(model.units.get(selected), values, "Not recorded; check the connection.");
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
    const el = e.target.closest("[data-act-greyed], [data-act], [data-edit], [data-marker], [data-option], [data-die], [data-play-roll], [data-play-cancel], [data-play-undo], [data-card-close]");
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
    else if (el.matches("[data-option]")) choose(el.dataset.option, el.dataset.optionValue);
    else if (el.matches("[data-die]")) tapDie(Number(el.dataset.dieRow), Number(el.dataset.die));
    else if (el.matches("[data-play-roll]")) record(null);
    else if (el.matches("[data-play-undo]")) undo(Number(el.dataset.playUndo));
    else if (el.matches("[data-play-cancel]")) { play = null; drawList(); readActs(); showCard(); }
  });
  // The referee enters a counter from the club's own set: added with its place, group and values in one act
  // (checked at the door: a counter refused leaves nothing behind, and what was typed stays in the form). Once the
  // game is played a counter is added only by the referee's override (a player's is refused: it could stand on a
  // key hex at once), logged as such.
  const entered = async (form) => {
    const data = new FormData(form);
    const state = {};
    for (const input of form.querySelectorAll("[data-entry-field]")) {
      if (input.value.trim() === "") continue;
      state[input.name] = input.dataset.entryField === "number" ? Number(input.value) : input.value.trim();
    }
    const made = await send(`${api}/units`, { side: data.get("side"), name: String(data.get("name")).trim(), level: form.dataset.level, state, override: model.turn.status === "playing" });
    if (failed(made)) { notice(refusal(made, "The counter was not added; check the connection.")); return; }
    if (!made.ok || !made.data) { notice("Kept on this device: it is added when the connection is back."); return; }
    notice(`${made.data.unit.name} added.`, true);
    form.querySelector("[name=name]").value = "";
    form.querySelectorAll("[data-entry-field]").forEach((input) => { if (input.name !== board.group_field) input.value = ""; });
    load();
  };
  document.addEventListener("submit", (e) => {
    if (e.target.matches("[data-entry-form]")) { e.preventDefault(); entered(e.target); return; }
    if (!e.target.matches("[data-place-form]")) return;
    e.preventDefault();
    const to = e.target.querySelector("[data-place-input]").value.trim();
    const by = e.submitter && e.submitter.dataset.placeValues ? e.submitter : e.target.querySelector("[data-place-values]");
    if (to) edited({ [board.place_field]: to, ...JSON.parse(by.dataset.placeValues || "{}") });
  });

  // -- set-up: the order of battle placed ---------------------------------------------------------------------
  // Each counter not yet on the map that this seat sets up, by side and group: its place typed, then Place (two
  // taps: the field and the button), or Place all of a group's typed places at once. Kept as typed while the
  // list changes around it (a counter placed leaves it; the rest keep what was typed).
  const setupBox = root.querySelector("[data-setup]");
  const drawSetup = () => {
    if (!setupBox) return;
    const tools = root.querySelector(".counter-setup-tools");
    if (tools) tools.hidden = model.turn.status !== "setup"; // the club's data is set once the game starts
    const waiting = model.turn.status === "setup"
      ? counters().filter((u) => !u.killed && !placeOf(u) && mayActFor(u.side)).sort(bySide) : [];
    setupBox.hidden = !waiting.length;
    const key = waiting.map((u) => u.id).join(",");
    if (setupBox.dataset.drawn === key) return;
    const typed = new Map([...setupBox.querySelectorAll("[data-setup-place]")].map((i) => [i.dataset.setupPlace, i.value]));
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.setupPlace : undefined;
    const groups = new Map();
    for (const u of waiting) {
      const word = board.group_field ? String(u[board.group_field] || "") : "";
      const k = `${u.side}:${word}`;
      if (!groups.has(k)) groups.set(k, { title: word || sideName(u.side), side: u.side, units: [] });
      groups.get(k).units.push(u);
    }
    const place = humanise(board.place_word);
    const row = (u) => h("form", { class: "setup-row", "data-setup-form": String(u.id) },
      h("label", { htmlFor: `setup-${u.id}` }, h("span", { class: "setup-name", text: nameOf(u).short }),
        h("span", { class: "sr-only", text: `: its ${board.place_word}` }),
        printed(u) ? h("span", { class: "counter-values", text: printed(u) }) : null),
      h("input", { id: `setup-${u.id}`, type: "text", inputMode: "numeric", autocomplete: "off", maxLength: 64, placeholder: place, "data-setup-place": String(u.id), value: typed.get(String(u.id)) || "" }),
      h("button", { type: "submit", class: "button", "aria-label": `Place ${nameOf(u).short}`, text: "Place" }));
    const out = [...groups.entries()].map(([k, g]) => h("section", { class: "setup-group", "data-setup-group": k },
      h("div", { class: "setup-head" }, h("h3", {}, h("span", { text: g.title }), h("span", { class: "muted group-note", text: ` ${sideName(g.side)} · ${g.units.length}` })),
        h("button", { type: "button", class: "button", "data-setup-all": k, text: `Place all of ${g.title}` })),
      g.units.map(row)));
    setupBox.querySelector("[data-setup-groups]").replaceChildren(...out);
    setupBox.dataset.drawn = key;
    if (focused) { const again = setupBox.querySelector(`[data-setup-place="${focused}"]`); if (again) again.focus(); }
  };
  // One counter placed: its place set through the act pipeline (its refusal said, nothing else kept).
  const placeCounter = async (id, to) => {
    const u = model.units.get(id);
    if (!u) return false;
    if (!to) { notice(`${nameOf(u).short}: type its ${board.place_word} first.`); return false; } // the rest is the rules'
    const r = await putUnit(u, { [board.place_field]: to }, `${nameOf(u).short} was not placed; check the connection.`);
    if (r && r.queued) notice("Kept on this device: it is placed when the connection is back.");
    return !failed(r);
  };
  if (setupBox) {
    setupBox.addEventListener("submit", async (e) => {
      const f = e.target.closest("[data-setup-form]");
      if (!f) return;
      e.preventDefault();
      await placeCounter(Number(f.dataset.setupForm), f.querySelector("[data-setup-place]").value.trim());
    });
    setupBox.addEventListener("click", async (e) => {
      const all = e.target.closest("[data-setup-all]");
      if (!all) return;
      const g = setupBox.querySelector(`[data-setup-group="${CSS.escape(all.dataset.setupAll)}"]`);
      const rows = [...g.querySelectorAll("[data-setup-form]")].map((f) => [Number(f.dataset.setupForm), f.querySelector("[data-setup-place]").value.trim()]).filter(([, to]) => to);
      if (!rows.length) { notice(`Type the ${board.place_word} of each counter to place first.`); return; }
      for (const [id, to] of rows) if (!(await placeCounter(id, to))) return; // the first refusal stops the rest
    });
  }

  // -- loading and following the stream ----------------------------------------------------------------------
  const getJson = (url) => fetch(url, { credentials: "same-origin", cache: "no-store" }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
  const load = async () => {
    try {
      const state = await getJson(`${api}/state`);
      const units = await getJson(`${api}/units`);
      board = { ...board, ...(await getJson(`${api}/counters`).catch(() => ({}))) };
      model.setState(state, units);
    } catch (status) {
      notice(status === 401 || status === 403 ? "Join this game to see its counters." : "The counters could not be loaded; check the connection.");
    }
  };
  model.listen((what) => {
    if (what.units || what.all) drawList();
    if (what.turn || what.all) { drawTurn(); readTurn(); }
    if (what.units || what.turn || what.all) drawSetup();
    if (selected !== null && !play) readActs();
    else if (selected !== null) showCard();
  });
  let pending = null;
  // The board's own reading (what lies on the counters, the values set) changes with any act: read anew.
  let boardPending = null;
  const readBoard = async () => {
    board = { ...board, ...(await getJson(`${api}/counters`).catch(() => ({}))) };
    drawList();
    drawTurn();
    readTurn(); // any act moves the game's version on: the next step is asked over the newest
    if (selected !== null) showCard();
  };
  document.addEventListener("firestep:event", (e) => {
    const need = model.apply(e.detail);
    clearTimeout(boardPending);
    boardPending = setTimeout(readBoard, 40);
    if (!need.length) return;
    clearTimeout(pending);
    pending = setTimeout(load, 40); // a burst of frames (a new turn) read back once
  });
  document.addEventListener("firestep:resync", load);
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) load(); });
  // A need's "Open its card" on the referee board links here as #stand-<id>: that counter's card, opened once.
  const asked = /^#stand-(\d+)$/.exec(location.hash);
  load().then(() => { if (asked && model.units.has(Number(asked[1]))) select(Number(asked[1])); });
})();
