// The referee board follows the game: a stream frame (view=board) carries the pieces its event changed,
// swapped by htmx out of band (app/pages/referee.py; the Undo a new roll ends, deleted so). A resync, a frame
// too big for its pieces (`refetch`) and this device's write while the stream is down read what changed after
// the newest event shown (#board[data-changes]?after=), retried until it succeeds: nothing missed or twice.
(() => {
  const board = () => document.getElementById("board");
  if (!board() || !window.htmx) return;
  const { readText: read } = window.firestepDom;
  let applied = Number(board().dataset.upto) || 0; // the newest event the board shows
  let inFlight = false;
  let again = false; // something arrived while a read was running: read once more after it
  let failures = 0;
  let retryTimer = null;
  let soon = null;

  // What the reader opened stays open through a swap (the referee's "End the game…"); an entry already in
  // the log is swapped in its place, not added twice.
  document.addEventListener("htmx:oobBeforeSwap", (e) => {
    const { target, fragment } = e.detail;
    for (const d of [target, ...target.querySelectorAll("details[open][data-keep-open]")]) {
      if (d.open && d.dataset.keepOpen) fragment.querySelector(`details[data-keep-open="${d.dataset.keepOpen}"]`)?.setAttribute("open", "");
    }
    if (target.id === "log") for (const li of [...fragment.children]) document.getElementById(li.id)?.replaceWith(li);
  });

  // A changes fragment's pieces, or the whole board read anew where it says `reload` (a new unit or force).
  const show = async (html) => {
    const changes = new DOMParser().parseFromString(html, "text/html").body;
    const root = changes.querySelector("[data-board-changes]");
    if (!root) throw new Error("no changes");
    for (const el of root.querySelectorAll("[id][hx-swap-oob]")) if (!document.getElementById(el.id)) el.remove();
    const swapped = "reload" in root.dataset ? await read(window.location.pathname) : changes.innerHTML;
    const scroller = document.querySelector("[data-log-scroll]");
    const before = scroller.scrollHeight;
    const keep = scroller.scrollTop > 0; // the reader's place in the log stays where it was
    window.htmx.swap(board(), swapped, { swapStyle: "none" });
    if (keep && scroller.isConnected) scroller.scrollTop += scroller.scrollHeight - before;
    const log = document.getElementById("log");
    while (log.children.length > 60) log.lastElementChild.remove();
    applied = Math.max(applied, Number(root.dataset.upto) || 0, Number(board().dataset.upto) || 0);
    board().dataset.upto = String(applied);
    document.dispatchEvent(new CustomEvent("firestep:board-updated"));
  };

  const fetchChanges = async () => {
    if (inFlight) { again = true; return; }
    inFlight = true;
    again = false;
    clearTimeout(retryTimer);
    try {
      await show(await read(`${board().dataset.changes}?after=${applied}`));
      if (failures >= 3) window.firestepNotice?.clear("board");
      failures = 0;
    } catch (err) {
      failures += 1;
      if (failures === 3) window.firestepNotice?.("The board could not be brought up to date: trying again…", false, { key: "board" });
      retryTimer = setTimeout(fetchChanges, Math.min(5000, 400 * 2 ** (failures - 1)));
    } finally {
      inFlight = false;
      if (again) fetchChanges();
    }
  };

  // Events that come in together (a turn change logs several) are read together.
  const schedule = () => {
    if (soon) return;
    soon = setTimeout(() => { soon = null; fetchChanges(); }, 0);
  };

  document.addEventListener("firestep:event", (event) => {
    const ev = event.detail || {};
    if (Number(ev.id) <= applied) return; // already on the board
    // A frame's own pieces; while a read is on its way (or due) it brings them with the rest.
    if (typeof ev.board !== "string" || inFlight || soon) { schedule(); return; }
    inFlight = true;
    show(ev.board).catch(() => { again = true; }).finally(() => { inFlight = false; if (again) fetchChanges(); });
  });
  document.addEventListener("firestep:resync", () => { failures = 0; schedule(); });
  // This device's write: its frame brings it while the stream is connected.
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) schedule(); });
})();
