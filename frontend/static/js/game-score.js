// The score of a game (issue 55), in view on every page of the game at every size: a chip ([data-score-chip]:
// each side's points and its clock, one tap to the dashboard) and the dashboard ([data-score-dashboard]: the
// turn or bound and its step, each side's points, losses and clock, each objective with its holder). Read from
// GET /api/v1/games/{id}/score (GameScore) when the page opens and after a reconnect (live.js:
// `firestep:resync`), then from the game's stream (`firestep:event`), so it follows the table with no reload.
// The referee calls a contested objective in two taps: the objective (its label on the map, or its line on the
// dashboard), then the side that holds it or nobody (POST .../score/calls); a refusal is said in one sentence.
// The map's live frames carry the score (and the clocks) whenever an event may change it; on the other pages a
// frame has it read again.
// Bound to [data-score-root] (data-score-url, data-role); other scripts hear `firestep:score` (detail: the
// GameScore) and may read window.firestepScore.
(() => {
  const { h, humanise } = window.firestepDom;
  const root = document.querySelector("[data-score-root]");
  if (!root || !window.fetch) return;
  const url = root.dataset.scoreUrl;
  const role = root.dataset.role || "";
  let turnWord = root.dataset.turnWord || "turn";
  const cap = (s) => String(s || "").replace(/^./, (c) => c.toUpperCase());
  // What the book calls each side where it names them (Book.side_names: "Canadian"), else attacker and defender.
  const sideName = (s) => (s === "attacker" ? root.dataset.sideAttacker || "Attacker" : s === "defender" ? root.dataset.sideDefender || "Defender" : humanise(s));
  const notice = (text, ok = false) => (window.firestepNotice ? window.firestepNotice(text, ok, { key: "score" }) : null);
  // When an objective scores, in words (the scenario's `scored`).
  const WHEN = { each_turn: () => `each ${turnWord}`, game_end: () => "at the end of the game", first_taken: () => "the first time it is taken" };
  const when = (o) => (WHEN[o.scored] ? WHEN[o.scored]() : humanise(o.scored));

  // -- the clock: a side's time as m:ss (or h:mm:ss), read from the score's clocks ------------------------------
  // Whole seconds cut, not rounded, as game-clock.js's face shows them: the chip and the face agree.
  const mmss = (seconds) => {
    const over = Number(seconds) < 0;
    const s = Math.floor(Math.abs(Number(seconds) || 0));
    const hh = Math.floor(s / 3600);
    const mm = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, "0");
    return `${over ? "−" : ""}${hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`}`;
  };
  // A side's clock as the score carries it (GameScore.clocks, each a GameClock side: used_seconds,
  // remaining_seconds when the game has a limit, running), or as a frame's `clock` (a GameClock) sets it.
  const clockOf = (score, side) => {
    const clocks = score && score.clocks;
    const list = Array.isArray(clocks) ? clocks : Array.isArray(clocks?.sides) ? clocks.sides : [];
    const c = list.find((x) => x && x.side === side);
    if (!c) return null;
    // As game-clock.js shows it: the tighter of the time left in the game and in the turn, else the time used.
    const lefts = [c.remaining_seconds, c.turn_remaining_seconds].filter((v) => v !== null && v !== undefined);
    const left = lefts.length ? Math.min(...lefts) : null;
    const used = c.used_seconds === undefined ? null : c.used_seconds - (c.given_seconds || 0);
    return { left, used, running: Boolean(c.running), paused: Boolean(c.paused) };
  };
  // Read at `at` (ms), counting on from the answer while the side's clock runs: the time shown, or "".
  let readAt = 0;
  const clockText = (score, side, at = Date.now()) => {
    const c = clockOf(score, side);
    if (!c) return "";
    const ran = c.running && !c.paused ? (at - readAt) / 1000 : 0;
    if (c.left !== null && c.left !== undefined) return mmss(c.left - ran);
    if (c.used !== null && c.used !== undefined) return mmss(c.used + ran);
    return "";
  };

  // -- drawing ---------------------------------------------------------------------------------------------------
  let score = null;
  const sidesOf = (s) => (s && Array.isArray(s.sides) ? s.sides : []);
  // A side in a sentence: the book's name for it where it names one ("the Canadian"), else the side ("the attacker").
  const sideWord = (s) => (s === "attacker" ? root.dataset.sideAttacker : s === "defender" ? root.dataset.sideDefender : "") || s;
  const lapsedWords = (o) => (o.lapsed_call ? `; the referee's call for ${o.lapsed_call === "nobody" ? "nobody" : `the ${sideWord(o.lapsed_call)}`} lapsed as the stands moved` : "");
  const holderWords = (o) => {
    if (o.contested) return o.called_by_referee ? `Contested; the referee called it: ${o.holder ? `the ${sideWord(o.holder)}'s` : "nobody's"}` : `Contested: the referee's call${lapsedWords(o)}`;
    if (!o.holder) return `Held by nobody${lapsedWords(o)}`;
    const n = Array.isArray(o.stands) ? o.stands.length : 0;
    return `Held by the ${sideWord(o.holder)}${n ? ` (${n} stand${n > 1 ? "s" : ""})` : ""}${o.called_by_referee ? ", as the referee called it" : ""}${lapsedWords(o)}`;
  };
  // The calls are the referee's while the game is played (app.services.acts refuses one before or after).
  const playing = () => Boolean(score) && score.status === "playing";
  // A contested objective's call (or, `always`, any objective's: one whose call lapsed, as the game ends): one
  // button per side and one for nobody (the referee's alone).
  const callButtons = (o, always = false) => (role === "referee" && playing() && (o.contested || always)
    ? h("div", { class: "score-call", role: "group", "aria-label": `Whose is ${o.name}? Your call is recorded in the log.` },
      ...["attacker", "defender", ""].map((side) => h("button", {
        type: "button", class: "button", "data-score-call": String(o.id), "data-holder": side,
        "aria-pressed": String(Boolean(o.called_by_referee) && (o.holder || "") === side),
        text: side ? `${sideName(side)}'s` : "Nobody's",
      })))
    : null);
  const objectiveItem = (o, always = false) => h("li", {
    class: `score-objective holder-${o.contested ? "contested" : o.holder || "none"}`, "data-objective": String(o.id),
    "data-holder": o.holder || "", "data-contested": o.contested ? "true" : "false",
  },
  h("span", { class: "objective-mark", "aria-hidden": "true" }),
  h("strong", { text: o.name }), ` · ${o.vp} VP ${when(o)}. `,
  h("span", { class: "objective-holder", text: `${holderWords(o)}.` }),
  callButtons(o, always));

  // "End the game" on the referee's board (_referee_parts.html): what is still to settle, each objective
  // contested with no call or whose call lapsed, with its call in one tap; "Yes" only once none is contested
  // (the server refuses it so: app.services.result.end_refusal reads the same `settled`).
  const drawEnd = () => {
    document.querySelectorAll("[data-end-game]").forEach((box) => {
      const list = box.querySelector("[data-end-settle]");
      const yes = box.querySelector("[data-end-confirm]");
      if (!list || !score) return;
      const unsettled = (score.objectives || []).filter((o) => o.settled === "contested" || o.lapsed_call);
      const contested = unsettled.filter((o) => o.settled === "contested");
      list.replaceChildren(...(unsettled.length ? [
        h("p", {}, h("strong", { text: contested.length ? "Call each contested objective first:" : "A call lapsed: call it again, or leave it as the stands hold it:" })),
        h("ul", { class: "score-objectives" }, ...unsettled.map((o) => objectiveItem(o, true))),
      ] : []));
      if (yes) yes.hidden = contested.length > 0;
      box.dataset.contested = String(contested.length);
    });
  };

  const drawChip = () => {
    document.querySelectorAll("[data-score-chip]").forEach((chip) => {
      const box = chip.querySelector("[data-score-points]");
      if (!box) return;
      const sides = sidesOf(score);
      box.replaceChildren(...sides.map((s, i) => h("span", { class: `score-side side-${s.side}`, "data-side-points": s.side },
        i ? h("span", { class: "sep", "aria-hidden": "true", text: "\u00a0·\u00a0" }) : null,
        h("span", { class: "side-full", text: `${sideName(s.side)} ` }),
        h("span", { class: "side-short", text: `${sideName(s.side).slice(0, 3)} ` }),
        h("b", { text: String(s.points) }),
        clockText(score, s.side) ? h("span", { class: "score-clock", "data-side-clock": s.side, text: ` ${clockText(score, s.side)}` }) : null)));
      const contested = (score?.objectives || []).filter((o) => o.contested && !o.called_by_referee).length;
      chip.dataset.contested = String(contested);
      const flag = chip.querySelector("[data-score-flag]");
      if (flag) { flag.hidden = !contested; flag.textContent = contested ? `${contested} contested` : ""; }
    });
  };
  const drawDashboard = () => {
    document.querySelectorAll("[data-score-dashboard]").forEach((box) => {
      if (!score) { box.replaceChildren(h("p", { class: "muted", text: "The score is not known yet." })); return; }
      const step = score.step ? `: ${humanise(score.step)}` : "";
      const turnN = score.turn;
      const over = score.status === "finished";
      const of = score.last_turn ? ` of ${score.last_turn}` : "";
      box.replaceChildren(
        h("p", { class: "score-turn", "data-score-turn": String(turnN ?? "") }, over ? "The game is over." : score.status === "setup" ? "Setting up." : `${cap(turnWord)} ${turnN}${of}${step}; ${sideName(score.side_to_move)} to move.`),
        h("table", { class: "score-table" },
          h("caption", { class: "sr-only", text: "Each side's points and losses" }),
          h("thead", {}, h("tr", {}, ...["Side", "Points", "Losses"].map((t) => h("th", { scope: "col", text: t })))),
          h("tbody", {}, ...sidesOf(score).map((s) => h("tr", { "data-score-side": s.side },
            h("th", { scope: "row", class: `side-${s.side}`, text: sideName(s.side) }),
            h("td", { "data-points": "", text: s.needed ? `${s.points} (${s.needed} VP to win)` : String(s.points) }),
            h("td", { text: String(s.losses ?? 0) }))))),
        h("h3", { class: "score-objectives-part", text: "Objectives" }),
        (score.objectives || []).length
          ? h("ul", { class: "score-objectives score-objectives-part" }, ...score.objectives.map((o) => objectiveItem(o)))
          : h("p", { class: "muted score-objectives-part", text: "This scenario has no objectives on the table." }),
      );
    });
  };
  const draw = () => {
    if (score && score.turn_word) turnWord = score.turn_word;
    drawChip();
    drawDashboard();
    drawEnd();
    document.dispatchEvent(new CustomEvent("firestep:score", { detail: score }));
  };
  // The clocks count on between answers (once a second, only while one runs).
  setInterval(() => {
    if (!score || !sidesOf(score).some((s) => { const c = clockOf(score, s.side); return c && c.running && !c.paused; })) return;
    document.querySelectorAll("[data-side-clock]").forEach((el) => {
      const t = clockText(score, el.dataset.sideClock);
      if (t) el.textContent = el.closest("[data-score-chip]") ? ` ${t}` : t;
    });
  }, 1000);

  // -- reading -----------------------------------------------------------------------------------------------------
  let reading = null;
  let again = false;
  const read = async () => {
    if (reading) { again = true; return; }
    reading = (async () => {
      try {
        const r = await fetch(url, { credentials: "same-origin", cache: "no-store" });
        if (!r.ok) return;
        const next = await r.json();
        readAt = Date.now();
        score = next;
        root.dataset.scoreAsOf = String(next.last_event_id ?? next.as_of ?? "");
        root.dataset.scoreRead = String(Number(root.dataset.scoreRead || 0) + 1);
        draw();
      } catch (err) {
        // offline: the last score stays, and `firestep:resync` reads it again when the stream is back
      } finally {
        reading = null;
        if (again) { again = false; read(); }
      }
    })();
  };
  // A frame that carries the score (the stream's score view) sets it; any other frame reads it anew, once for
  // the frames of one burst.
  let timer = null;
  document.addEventListener("firestep:event", (e) => {
    const ev = e.detail || {};
    // A frame of the clock (a GameClock): the sides' clocks anew, the rest as it was.
    if (ev.clock && Array.isArray(ev.clock.sides) && score) { score = { ...score, clocks: ev.clock.sides }; readAt = Date.now(); }
    if (ev.score && Array.isArray(ev.score.sides)) { score = ev.clock ? { ...ev.score, clocks: ev.clock.sides } : ev.score; readAt = Date.now(); draw(); return; }
    if (ev.clock && score) { draw(); return; }
    // The map's frames carry the score whenever an event may change it (app.services.score.touches_score):
    // one without it changed nothing the score shows. Another page's frames do not carry it: read it anew.
    if (root.dataset.liveView === "map") return;
    clearTimeout(timer);
    timer = setTimeout(read, 60);
  });
  document.addEventListener("firestep:resync", read);
  document.addEventListener("firestep:refresh", read);
  // The board's turn panel is swapped by its live frames (board-live.js): its end's list is drawn as it opens.
  document.addEventListener("toggle", (e) => { if (e.target.matches?.("[data-end-game]") && e.target.open) drawEnd(); }, true);

  // -- the referee's call --------------------------------------------------------------------------------------
  const call = async (button) => {
    const objective = button.dataset.scoreCall;
    const holder = button.dataset.holder || null;
    const body = { objective_id: objective, side: holder };
    button.disabled = true;
    let result;
    try {
      result = await window.firestepOutbox.send(`${url}/calls`, { method: "POST", body: JSON.stringify(body) }); // base.html's
    } finally {
      button.disabled = false;
    }
    if (result.queued) return;
    if (!result.ok) {
      notice(window.firestepExplain ? window.firestepExplain(result.status, result.data, result.retryAfter) : String(result.data?.detail || "The call was not saved."));
      return;
    }
    const o = (score?.objectives || []).find((x) => String(x.id) === String(objective));
    notice(`${o ? o.name : "The objective"}: ${holder ? `the ${holder}'s` : "nobody's"}, as called.`, true);
    if (result.data && result.data.score) { score = result.data.score; readAt = Date.now(); draw(); } else read();
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-score-call]");
    if (button) { call(button); return; }
    // A page without the map's tool panel: the chip opens and closes its dashboard in place.
    const chip = event.target.closest("[data-score-chip][aria-controls]");
    if (chip) {
      const box = document.getElementById(chip.getAttribute("aria-controls"));
      if (!box) return;
      box.hidden = !box.hidden;
      chip.setAttribute("aria-expanded", String(!box.hidden));
    }
  });

  window.firestepScore = {
    get score() { return score; },
    read,
    holderWords,
    sideName,
    when,
    callButtons,
    objectiveItem,
  };
  read();
})();
