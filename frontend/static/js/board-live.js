// The referee board follows the game: each event from live.js ("firestep:event", the stream's board view)
// carries the pieces of the board it changed (the stands and block heads it touched, its log entry and, when
// the turn moved on, the turn panel); each piece replaces the element with its id, and nothing is fetched.
// "firestep:resync" (reconnect, back online, page shown again), a frame that says `refetch` (too big to carry
// its pieces) and this device's own write while the stream is down fetch what changed since the last event
// the board shows (#board[data-changes]?after=<id>) instead, so nothing is missed and nothing is applied
// twice. A failed fetch is retried until it succeeds. When too much changed, the whole board is fetched once.
(() => {
  const board = () => document.getElementById("board");
  if (!board()) return;
  let applied = Number(board().dataset.upto) || 0; // the newest event the board shows
  let inFlight = false;
  let again = false; // something arrived while a fetch was running: fetch once more after it
  let failures = 0;
  let retryTimer = null;
  let soon = null;

  const template = (html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  };

  // New log entries go on top; the reader's place in the log stays where it was.
  const prependLog = (entries) => {
    const log = document.getElementById("log");
    if (!log || !entries.length) return;
    const scroller = log.closest("[data-log-scroll]");
    const before = scroller ? scroller.scrollHeight : 0;
    const keep = scroller && scroller.scrollTop > 0;
    log.querySelector(".log-empty")?.remove();
    for (const li of entries.reverse()) log.prepend(li); // oldest first, so the newest ends on top
    while (log.children.length > 60) log.lastElementChild.remove();
    if (keep) scroller.scrollTop += scroller.scrollHeight - before;
  };

  // What the reader opened stays open through a swap or a whole board read anew ("End the game…" while the
  // referee calls what is still to settle in it).
  const replace = (old, el) => {
    for (const d of old.querySelectorAll("details[open][data-keep-open]")) {
      el.querySelector(`details[data-keep-open="${d.dataset.keepOpen}"]`)?.setAttribute("open", "");
    }
    old.replaceWith(el);
  };
  const swap = (el) => {
    const old = document.getElementById(el.id);
    if (old) replace(old, el);
  };

  const applyChanges = (root) => {
    for (const el of root.querySelectorAll(":scope > [data-swap], :scope > ul > [data-swap], :scope > ol:not([data-new-log]) > [data-swap]")) swap(el);
    const fresh = [];
    for (const li of [...(root.querySelector("[data-new-log]")?.children || [])]) {
      if (document.getElementById(li.id)) swap(li);
      else fresh.push(li);
    }
    prependLog(fresh);
    // A player may undo back to the last die roll only (app/services/undo.py): older Undo buttons go.
    const lastRoll = Number(root.dataset.lastRoll) || 0;
    for (const b of document.querySelectorAll("#log [data-player-undo]")) {
      if (Number(b.closest("[data-event]").dataset.event) < lastRoll) b.remove();
    }
  };

  const reloadBoard = async () => {
    const url = new URL(window.location.href);
    const response = await fetch(url.pathname, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error(String(response.status));
    const next = template(await response.text()).getElementById("board");
    if (!next) throw new Error("no board");
    replace(board(), next);
    applied = Math.max(applied, Number(next.dataset.upto) || 0);
  };

  const fetchChanges = async () => {
    if (inFlight) { again = true; return; }
    inFlight = true;
    again = false;
    clearTimeout(retryTimer);
    try {
      const url = `${board().dataset.changes}?after=${applied}`;
      const response = await fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" });
      if (!response.ok) throw new Error(String(response.status));
      const root = template(await response.text()).querySelector("[data-board-changes]");
      if (!root) throw new Error("no changes");
      if ("reload" in root.dataset) await reloadBoard();
      else {
        applyChanges(root);
        applied = Math.max(applied, Number(root.dataset.upto) || 0);
      }
      if (failures >= 3 && window.firestepNotice) window.firestepNotice.clear("board");
      failures = 0;
      board().dataset.upto = String(applied);
      document.dispatchEvent(new CustomEvent("firestep:board-updated"));
    } catch (err) {
      failures += 1;
      if (failures === 3 && window.firestepNotice) window.firestepNotice("The board could not be brought up to date: trying again…", false, { key: "board" });
      retryTimer = setTimeout(fetchChanges, Math.min(5000, 400 * 2 ** (failures - 1)));
    } finally {
      inFlight = false;
      if (again) fetchChanges();
    }
  };

  // Events that come in together (a turn change logs several) are fetched together.
  const schedule = () => {
    if (soon) return;
    soon = setTimeout(() => { soon = null; fetchChanges(); }, 0);
  };

  // A frame's own pieces; while a fetch is on its way (or due) the fetch brings them with the rest.
  const applyFrame = async (html) => {
    const root = template(html).querySelector("[data-board-changes]");
    if (!root) { schedule(); return; }
    if ("reload" in root.dataset) {
      // A new unit or force: the whole board, once; frames that come meanwhile are fetched after it.
      inFlight = true;
      try { await reloadBoard(); } catch (err) { again = true; } finally { inFlight = false; }
      if (again) { fetchChanges(); return; }
    } else {
      applyChanges(root);
      applied = Math.max(applied, Number(root.dataset.upto) || 0);
    }
    board().dataset.upto = String(applied);
    document.dispatchEvent(new CustomEvent("firestep:board-updated"));
  };

  document.addEventListener("firestep:event", (event) => {
    const ev = event.detail || {};
    const id = Number(ev.id);
    if (Number.isFinite(id) && id <= applied) return; // already on the board
    if (typeof ev.board === "string" && !inFlight && !soon) applyFrame(ev.board);
    else schedule();
  });
  document.addEventListener("firestep:resync", () => { failures = 0; schedule(); });
  // This device's write: its frame brings it while the stream is connected.
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) schedule(); });
})();
