// The organiser's view live: [data-event-board] names the event's stream; each `board` frame (the API's
// /board answer) redraws every table's turn, score and result and the disputes waiting, with no request of
// its own. Each table's game clock (the frame's GameClock) runs on here once a second while a side's time
// runs, as game-clock.js shows it: the tighter of the time left in the game and the turn, else the time used.
(() => {
  const root = document.querySelector("[data-event-board]");
  if (!root || !window.EventSource) return;
  const words = { drafted: "Draft", playing: "Playing", offered: "Result offered", confirmed: "Confirmed",
    disputed: "Disputed", altered: "Set by the organiser" };
  const note = root.querySelector("[data-live-note]");
  const clocks = new Map(); // table id -> [its GameClock, Date.now() when the frame came]
  const mmss = (seconds) => {
    const s = Math.round(Math.abs(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, "0");
    return (seconds < 0 ? "−" : "") + (h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`);
  };
  const sideTime = (side, ran) => {
    const run = side.running ? ran : 0;
    const left = [side.remaining_seconds, side.turn_remaining_seconds].filter((v) => v !== null && v !== undefined);
    return left.length ? mmss(Math.min(...left) - run) : mmss(side.used_seconds - side.given_seconds + run);
  };
  const drawClocks = () => {
    for (const [id, [clock, at]] of clocks) {
      const cell = root.querySelector(`[data-table-id="${id}"] [data-clock]`);
      if (!cell) continue;
      const ran = clock.paused ? 0 : (Date.now() - at) / 1000;
      const text = clock.sides.map((s) => `${s.side.charAt(0).toUpperCase()}${s.side.slice(1, 3)} ${sideTime(s, ran)}`).join(" · ");
      cell.textContent = (clock.paused ? "paused: " : "") + (text || "–");
      cell.dataset.running = clock.running.join(" ");
    }
  };
  setInterval(() => { if ([...clocks.values()].some(([c]) => c.running.length && !c.paused)) drawClocks(); }, 1000);
  const source = new EventSource(root.dataset.eventBoard);
  source.onopen = () => { if (note) note.textContent = "live"; };
  source.onerror = () => { if (note) note.textContent = "reconnecting…"; };
  source.addEventListener("board", (ev) => {
    const board = JSON.parse(ev.data);
    root.querySelector("[data-disputes]").textContent = String(board.disputes);
    for (const t of board.tables) {
      const row = root.querySelector(`[data-table-id="${t.id}"]`);
      if (!row) continue;
      row.querySelector("[data-turn]").textContent = t.game_status === "finished" ? "ended" : (t.turn ?? "–");
      const r = Object.keys(t.result).length ? t.result : t.offered;
      const score = Object.keys(r).length ? `${r.a_points}–${r.b_points}`
        : (t.score.attacker !== undefined ? `${t.score.attacker}–${t.score.defender}` : "–");
      row.querySelector("[data-score]").textContent = score;
      const badge = row.querySelector("[data-status]");
      badge.textContent = words[t.status] || t.status;
      badge.className = `ev-badge ${t.status}`;
      if (t.clock) clocks.set(t.id, [t.clock, Date.now()]); else clocks.delete(t.id);
    }
    drawClocks();
    document.querySelectorAll("[data-round-ends]").forEach((el) => { el.dataset.roundEnds = board.round_ends_at || ""; });
    root.dispatchEvent(new CustomEvent("firestep:board", { bubbles: true }));
  });
})();
