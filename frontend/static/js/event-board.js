// The organiser's view live (issue 57): [data-event-board] names the event's stream; each `board` frame
// (the API's /board answer) redraws every table's turn, score and result and the disputes waiting, with no
// request of its own.
(() => {
  const root = document.querySelector("[data-event-board]");
  if (!root || !window.EventSource) return;
  const words = { drafted: "Draft", playing: "Playing", offered: "Result offered", confirmed: "Confirmed",
    disputed: "Disputed", altered: "Set by the organiser" };
  const note = root.querySelector("[data-live-note]");
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
    }
    document.querySelectorAll("[data-round-ends]").forEach((el) => {
      if (board.round_ends_at) el.dataset.roundEnds = board.round_ends_at;
    });
    root.dispatchEvent(new CustomEvent("firestep:board", { bubbles: true }));
  });
})();
