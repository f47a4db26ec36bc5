// The game clock: each side's time, chess-clock style, shown live on every device. The server draws the
// clock's panel for this seat (app/pages/clock_panel.py, _clock_panel.html: each face's seconds as the clock
// was read, which time it shows, the seat's buttons, written by api-action.js); a live frame of an event the
// clock reads carries it (`clock_panel`), and it is read again (the root's data-game-clock, GET
// /games/{id}/clock/panel) after a frame without it, a resync or a write of this device's. Here only what
// passes between frames: the running faces run on once a second, a side whose time runs out meanwhile is
// flagged to everyone ("out of time"), once as a notice; the clock keeps counting and the referee decides
// what follows (rules/core/clock.py).
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
    return `${over ? "−" : ""}${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
  };
  const flagged = new Set(); // the sides already told out of time

  const bind = (root) => {
    let readAt = performance.now(); // when the panel's seconds were read
    // Each face as of now: its seconds run down (what is left) or up (the time used) while its side's time
    // runs.
    const tick = () => {
      const elapsed = Math.max(0, (performance.now() - readAt) / 1000);
      for (const el of root.querySelectorAll("[data-clock-side]")) {
        const left = "clockLeft" in el.dataset, running = "running" in el.dataset;
        const seconds = Number(el.dataset.clockSeconds) + (running ? (left ? -elapsed : elapsed) : 0);
        const side = el.dataset.clockSide;
        if (left && seconds <= 0 && !("outOfTime" in el.dataset)) {
          el.dataset.outOfTime = "";
          el.append(" ", Object.assign(document.createElement("strong"), { textContent: "out of time" }));
        }
        const out = "outOfTime" in el.dataset;
        el.querySelector(".clock-time").textContent = face(seconds);
        const what = el.querySelector(".clock-what").textContent;
        el.setAttribute("aria-label", `${el.querySelector(".clock-name").textContent}: ${face(seconds)} ${what}${running ? ", running" : ""}${out ? ", out of time" : ""}`);
        // The score chip's time for the side (_score_panel.html) reads as this face does.
        document.querySelectorAll(`[data-side-clock="${side}"]`).forEach((chip) => { chip.textContent = ` ${face(seconds)}`; });
        if (out && !flagged.has(side)) {
          flagged.add(side);
          window.firestepNotice?.(`The ${side} is out of time: the referee decides what follows.`, false, { key: "clock", tone: "info" });
        } else if (!out) flagged.delete(side);
      }
    };
    const take = (html) => {
      const part = document.createRange().createContextualFragment(html).firstElementChild;
      if (!part || !part.matches("[data-clock-part]")) return;
      root.replaceChildren(part);
      root.dataset.clockState = part.dataset.clockState;
      readAt = performance.now();
      tick();
    };
    const read = async () => {
      const r = await fetch(root.dataset.gameClock, { credentials: "same-origin", headers: { "HX-Request": "true" }, cache: "no-store" }).catch(() => null);
      // Offline: the clock runs on from what it last read; the next frame or resync brings it back.
      if (r && r.ok) take(await r.text());
    };
    document.addEventListener("firestep:event", (e) => {
      const ev = e.detail || {};
      if (ev.clock_panel) take(ev.clock_panel);
      else if (KINDS.has(ev.kind)) read();
    });
    document.addEventListener("firestep:resync", read);
    document.addEventListener("firestep:refresh", read);
    setInterval(() => { if (root.dataset.clockState === "running" && !document.hidden) tick(); }, 1000);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
    tick();
  };
  roots.forEach(bind);
})();
