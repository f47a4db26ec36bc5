// The game clock's faces between the server's readings: each [data-clock-seconds] (a clock panel's, or a
// table's on the organiser's board) runs on each second while data-running, down what is left
// (data-clock-left) or up the time used; a side out of time is told once. A panel ([data-game-clock]) is
// taken from a live frame (`clock_panel`); htmx reads it anew (its hx-trigger) after a resync, a write, or a
// frame too big to carry it (`refetch`). An event's round timer ([data-round-ends="<ISO time>"]) counts down
// to the round's end, .over once passed, its line hidden while stopped (empty); it moves live on a table's
// game stream (firestep:aside) and the organiser's own (firestep:board).
(() => {
  const pad = (n) => String(n).padStart(2, "0");
  const face = (seconds) => {
    const s = Math.floor(Math.abs(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return `${seconds < 0 ? "−" : ""}${h ? `${h}:${pad(m)}` : m}:${pad(s % 60)}`;
  };
  const readAt = new WeakMap(); // each face: when it came, its seconds the server's as it was read
  const flagged = new Set(); // the sides already told out of time
  const panelFace = (el, seconds) => {
    const side = el.dataset.clockSide;
    if ("clockLeft" in el.dataset && seconds <= 0) el.dataset.outOfTime = ""; // its words shown (score.css)
    const out = "outOfTime" in el.dataset, running = "running" in el.dataset;
    const [name, what] = [".clock-name", ".clock-what"].map((part) => el.querySelector(part).textContent);
    const state = `${running ? ", running" : ""}${out ? ", out of time" : ""}`;
    el.setAttribute("aria-label", `${name}: ${face(seconds)} ${what}${state}`);
    const time = ` ${face(seconds)}`;
    for (const chip of document.querySelectorAll(`[data-side-clock="${side}"]`)) chip.textContent = time;
    if (out && !flagged.has(side)) {
      flagged.add(side);
      const said = `The ${side} is out of time: the referee decides what follows.`;
      window.firestepNotice?.(said, false, { key: "clock", tone: "info" });
    } else if (!out) flagged.delete(side);
  };
  const roundFace = (el) => {
    el.closest("[data-round-line], #ev-ends").hidden = !el.dataset.roundEnds;
    if (!el.dataset.roundEnds) return;
    const left = Math.round((Date.parse(el.dataset.roundEnds) - Date.now()) / 1000);
    el.textContent = face(left);
    el.classList.toggle("over", left < 0);
  };
  const tick = () => {
    document.querySelectorAll("[data-round-ends]").forEach(roundFace);
    const now = performance.now();
    for (const el of document.querySelectorAll("[data-clock-seconds]")) {
      if (!readAt.has(el)) readAt.set(el, now);
      const ran = "running" in el.dataset ? Math.max(0, (now - readAt.get(el)) / 1000) : 0;
      const seconds = Number(el.dataset.clockSeconds) + ("clockLeft" in el.dataset ? -ran : ran);
      el.querySelector(".clock-time").textContent = face(seconds);
      if (el.dataset.clockSide) panelFace(el, seconds);
    }
  };
  document.addEventListener("firestep:event", (e) => {
    const ev = e.detail || {};
    for (const el of document.querySelectorAll("[data-game-clock]")) {
      if (ev.clock_panel) window.htmx.swap(el, ev.clock_panel, { swapStyle: "outerHTML" });
      else if (ev.refetch) window.htmx.trigger(el, "firestep:clock-read");
    }
    tick();
  });
  document.addEventListener("firestep:aside", ({ detail }) => {
    if (!detail?.round) return;
    document.querySelectorAll("[data-round-ends]").forEach((el) => { el.dataset.roundEnds = detail.round.ends_at || ""; });
    tick();
  });
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("firestep:board", tick);
  const runs = () => document.querySelector("[data-clock-seconds][data-running], [data-round-ends]");
  setInterval(() => { if (!document.hidden && runs()) tick(); }, 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
  tick();
})();
