// The game clock (issue 55): each side's time, chess-clock style, shown live on every device. Bound to each
// [data-game-clock] element (its value: the clock's URL, GET /api/v1/games/{id}/clock, answering a GameClock,
// app/data/schemas_clock.py). It reads the clock once, then takes it from the live frames that carry it
// (live.js's "firestep:event": a clock-changing event's frame has `clock`; one without it, or a resync, has it
// read again) and runs the running sides' time on locally once a second between frames: no request per second.
//   data-clock-referee  the referee's device: a Pause / Resume button (written through api-action.js).
//   data-clock-give     with data-clock-referee: a "+1 min" button per side (time given back, logged).
// A player's device offers "Stop the clock: dispute" where the clock's settings let a player stop it for a
// dispute (issue 64: only the referee restarts it).
// A side whose time has run out is flagged to everyone ("out of time"), once as a notice; the clock keeps
// counting and the referee decides what follows (rules/core/clock.py).
(() => {
  const roots = [...document.querySelectorAll("[data-game-clock]")];
  if (!roots.length) return;
  // The events whose frames change the clock (app.services.clock.KINDS).
  const KINDS = new Set([
    "game-created", "game-started", "step", "turn-started", "game-finished",
    "clock-paused", "clock-resumed", "clock-time-given", "clock-limits-set",
  ]);

  const face = (seconds) => {
    const over = seconds < 0;
    const s = Math.floor(Math.abs(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const mm = h ? String(m).padStart(2, "0") : String(m);
    const ss = String(s % 60).padStart(2, "0");
    return `${over ? "−" : ""}${h ? `${h}:` : ""}${mm}:${ss}`;
  };

  // One side's clock as of `elapsed` seconds after the clock was read: its time runs on only while it runs.
  const runOn = (side, elapsed) => {
    const run = side.running ? elapsed : 0;
    const less = (v) => (v === null ? null : v - run);
    return {
      ...side,
      used_seconds: side.used_seconds + run,
      remaining_seconds: less(side.remaining_seconds),
      turn_remaining_seconds: less(side.turn_remaining_seconds),
    };
  };
  // What its face shows: the tighter of the time left in the game and in the turn, else the time it used.
  // `what`: which time the face shows, said on it (issue 64: "Attacker 10:00" did not say the turn's or the game's).
  const shown = (side) => {
    const [game, turn] = [side.remaining_seconds, side.turn_remaining_seconds];
    if (game === null && turn === null) return { seconds: side.used_seconds - side.given_seconds, left: false, what: "used" };
    if (game === null || (turn !== null && turn <= game)) return { seconds: turn, left: true, what: "left this turn" };
    return { seconds: game, left: true, what: "left in the game" };
  };
  const outOf = (side) => [side.remaining_seconds, side.turn_remaining_seconds].some((v) => v !== null && v <= 0);

  const bind = (root) => {
    const url = root.dataset.gameClock;
    // What the book calls each side where it names them (Book.side_names: "Canadian"), else its own word.
    const word = (side) => (side === "attacker" ? root.dataset.sideAttacker : side === "defender" ? root.dataset.sideDefender : "") || side.charAt(0).toUpperCase() + side.slice(1);
    let clock = null;
    let readAt = 0; // performance.now() when `clock` came
    const flagged = new Set(); // the sides already told out of time

    const button = (label, api, body) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button clock-button";
      b.dataset.api = api;
      if (body) b.dataset.body = JSON.stringify(body);
      b.textContent = label;
      return b;
    };

    const render = () => {
      if (!clock) return;
      const elapsed = Math.max(0, (performance.now() - readAt) / 1000);
      const sides = clock.sides.map((s) => runOn(s, elapsed));
      const parts = [];
      for (const side of sides) {
        const { seconds, what } = shown(side);
        const out = outOf(side);
        const el = document.createElement("span");
        el.className = "clock-side";
        el.dataset.clockSide = side.side;
        if (side.running) el.dataset.running = "";
        if (out) el.dataset.outOfTime = "";
        const name = document.createElement("span");
        name.className = "clock-name";
        name.textContent = word(side.side);
        const time = document.createElement("span");
        time.className = "clock-time";
        time.textContent = face(seconds);
        const which = Object.assign(document.createElement("span"), { className: "clock-what", textContent: what });
        el.append(name, " ", time, " ", which);
        if (out) el.append(" ", Object.assign(document.createElement("strong"), { textContent: "out of time" }));
        el.setAttribute(
          "aria-label",
          `${word(side.side)}: ${face(seconds)} ${what}${side.running ? ", running" : ""}${out ? ", out of time" : ""}`,
        );
        parts.push(el);
        // The score chip's time for the side (_score_panel.html) reads as this face does.
        document.querySelectorAll(`[data-side-clock="${side.side}"]`).forEach((chip) => { chip.textContent = ` ${face(seconds)}`; });
        if (out && !flagged.has(side.side)) {
          flagged.add(side.side);
          window.firestepNotice?.(`The ${side.side} is out of time: the referee decides what follows.`, false, {
            key: "clock",
            tone: "info",
          });
        } else if (!out) flagged.delete(side.side);
      }
      if (clock.paused) parts.push(Object.assign(document.createElement("span"), { className: "clock-paused", textContent: clock.dispute ? "Paused for a dispute" : "Paused" }));
      const base = url.replace(/\/?$/, "");
      const playing = clock.started && !clock.ended;
      if (!("clockReferee" in root.dataset) && playing && !clock.paused && clock.limits.dispute_pause) {
        parts.push(button("Stop the clock: dispute", `${base}/dispute`));
      }
      if ("clockReferee" in root.dataset && playing) {
        parts.push(clock.paused ? button("Resume clock", `${base}/resume`) : button("Pause clock", `${base}/pause`));
        if ("clockGive" in root.dataset) {
          for (const side of clock.sides) parts.push(button(`+1 min ${side.side}`, `${base}/give`, { side: side.side, seconds: 60 }));
        }
      }
      // Only the faces change once a second: the buttons are kept while a finger may be on one.
      const same = root.childElementCount === parts.length && parts.every((p, i) => root.children[i].tagName === p.tagName && root.children[i].className === p.className && (p.tagName !== "BUTTON" || root.children[i].dataset.api === p.dataset.api));
      if (same) {
        parts.forEach((p, i) => {
          if (p.tagName !== "BUTTON") root.children[i].replaceWith(p);
        });
      } else root.replaceChildren(...parts);
      root.dataset.clockState = clock.ended ? "ended" : clock.paused ? "paused" : clock.running.length ? "running" : "stopped";
    };

    const take = (c) => {
      clock = c;
      readAt = performance.now();
      render();
    };
    const read = async () => {
      try {
        const r = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (r.ok) take(await r.json());
      } catch (err) {
        // Offline: the clock runs on from what it last read; the next frame or resync brings it back.
      }
    };

    document.addEventListener("firestep:event", (e) => {
      const ev = e.detail || {};
      if (ev.clock) take(ev.clock);
      else if (KINDS.has(ev.kind)) read();
    });
    document.addEventListener("firestep:resync", read);
    document.addEventListener("firestep:refresh", read);
    setInterval(() => {
      if (clock && clock.running.length && !document.hidden) render();
    }, 1000);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) render(); });
    read();
  };
  roots.forEach(bind);
})();
