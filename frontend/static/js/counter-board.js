// The page of counters of a game played on the players' own board: its panels (the turn, what the step still
// needs, set-up, the counters list, a counter's card) are the server's (app/pages/counters_panel.py), drawn from
// the act pipeline's own answers. This script only swaps them and sends the writes: a tap on [data-go] reads the
// panels for the query it names (the card's state: the counter, its act, target, options, dice); a tap on
// [data-write] sends its write through the outbox (CSRF, an idempotency key, kept offline), a typed value
// (data-write-field) put in its body, then reads the panels anew. Live: each event of the game's stream reads
// them anew too (a burst once), and a resync does.
(() => {
  const root = document.querySelector("[data-counters-page]");
  if (!root) return;
  const game = root.dataset.game;
  const notice = (text, ok = false) => window.firestepNotice?.(text, ok);
  const refusal = (r, fallback) => (r?.status && window.firestepExplain ? window.firestepExplain(r.status, r.data, r.retryAfter)
    : (typeof r?.data?.detail === "string" && r.data.detail) || fallback);
  const send = (url, body, method = "POST") => window.firestepOutbox.send(url, { method, body: JSON.stringify(body) });
  const failed = (r) => !r || (!r.ok && !r.queued);
  const stand = /^#stand-(\d+)$/.exec(location.hash); // a need's "Open its card" on the referee board
  let want = stand ? `group=place&unit=${stand[1]}` : "group=place";
  let reading = 0;

  // The panels read for `want`, each swapped for the one of its name; what is typed in them and the focus kept.
  const read = async () => {
    const mine = ++reading;
    let r;
    try {
      r = await fetch(`/games/${game}/counters/panel?${want}`, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" });
    } catch (err) { notice("The counters could not be read; check the connection."); return; }
    if (mine !== reading) return; // a newer read is on its way
    if (!r.ok) { notice(r.status === 401 || r.status === 403 ? "Join this game to see its counters." : "The counters could not be read; check the connection."); return; }
    const t = document.createElement("template");
    t.innerHTML = await r.text();
    const typed = new Map([...root.querySelectorAll("[data-panel] input[id]")].map((i) => [i.id, i.value]));
    const focused = document.activeElement?.id;
    for (const next of t.content.querySelectorAll("[data-panel]")) {
      const old = root.querySelector(`[data-panel="${next.dataset.panel}"]`);
      if (old && old.innerHTML !== next.innerHTML) old.replaceWith(next); // only when it reads differently
      else if (old) for (const a of ["loaded", "turn", "status", "card"]) if (a in next.dataset) old.dataset[a] = next.dataset[a];
    }
    for (const [id, value] of typed) { const i = document.getElementById(id); if (i && value && !i.value) i.value = value; }
    if (focused) document.getElementById(focused)?.focus();
    shown();
  };
  // The page's own attributes, as the stage panel says them; the turn in view on the track.
  const shown = () => {
    const stage = root.querySelector("[data-panel='stage']");
    for (const a of ["loaded", "turn", "card"]) root.dataset[a] = stage.dataset[a];
    root.querySelector("[data-track-turn][aria-current]")?.scrollIntoView({ block: "nearest", inline: "center" });
  };
  const go = (query) => {
    const opened = new URLSearchParams(query).get("unit");
    const was = new URLSearchParams(want).get("unit");
    want = query;
    return read().then(() => {
      if (opened && opened !== was && window.matchMedia("(max-width: 899px)").matches) root.querySelector("[data-counter-card]")?.scrollIntoView({ block: "nearest" });
    });
  };
  // A write the server drew ({url, method, body}), a typed value put in its body; the panels read anew after it
  // (`then`: the query they show next; `thenDone`: the roll's, with the event it recorded).
  const write = async (el, form) => {
    const w = JSON.parse(el.dataset.write || form?.dataset.write);
    const input = form?.querySelector("[data-write-input]");
    if (input) {
      if (!input.value.trim()) { notice(`Type its ${input.placeholder || "place"} first.`); return false; }
      w.body[form.dataset.writeField] = input.value.trim();
    }
    el.disabled = true;
    const r = await send(w.url, w.body, w.method);
    el.disabled = false;
    if (failed(r)) { notice(refusal(r, "Not recorded; check the connection.")); return false; }
    if (r.queued || !r.data) notice("Kept on this device: it is recorded when the connection is back.");
    else if (el.dataset.playUndo) notice("Taken back.", true);
    if (input) input.value = "";
    if (el.dataset.thenDone !== undefined && r.data?.event_id) want = `${el.dataset.thenDone}&done=${r.data.event_id}`;
    else if (el.dataset.then !== undefined) want = el.dataset.then;
    await read();
    return true;
  };

  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-go], [data-write], [data-act-greyed], [data-setup-all]");
    if (!el || !root.contains(el) || el.type === "submit") return;
    if (el.matches("[data-act-greyed]")) notice(el.title);
    else if (el.matches("[data-setup-all]")) placeAll(el.closest("[data-setup-group]"));
    else if (el.dataset.write) write(el);
    else go(el.dataset.go);
  });
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (form.matches("[data-entry-form]")) { e.preventDefault(); enter(form); return; }
    if (!root.contains(form) || !form.matches("[data-write-field]")) return;
    e.preventDefault();
    write(e.submitter?.dataset.write ? e.submitter : form.querySelector("[data-write]") || form, form);
  });
  // Set-up: Place all of a group's typed places, the first refusal stopping the rest.
  const placeAll = async (group) => {
    const rows = [...group.querySelectorAll("[data-setup-form]")].filter((f) => f.querySelector("input").value.trim());
    if (!rows.length) { notice("Type the place of each counter to place first."); return; }
    for (const f of rows) if (!(await write(f, f))) return;
  };
  // The referee enters a counter from the club's set in one act (once the game is played, by override).
  const enter = async (form) => {
    const state = {};
    for (const i of form.querySelectorAll("[data-entry-field]")) if (i.value.trim()) state[i.name] = i.dataset.entryField === "number" ? Number(i.value) : i.value.trim();
    const data = new FormData(form);
    const playing = root.querySelector("[data-panel='stage']").dataset.status === "playing";
    const made = await send(`/api/v1/games/${game}/units`, { side: data.get("side"), name: String(data.get("name")).trim(), level: form.dataset.level, state, override: playing });
    if (failed(made)) { notice(refusal(made, "The counter was not added; check the connection.")); return; }
    if (!made.ok || !made.data) { notice("Kept on this device: it is added when the connection is back."); return; }
    notice(`${made.data.unit.name} added.`, true);
    form.querySelectorAll("input:not([data-entry-keep])").forEach((i) => { i.value = ""; });
    read();
  };

  let soon = null; // a burst of frames (a new turn) read once
  const later = () => { clearTimeout(soon); soon = setTimeout(read, 40); };
  document.addEventListener("firestep:event", later);
  document.addEventListener("firestep:resync", later);
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) later(); });
  if (stand) read(); else shown();
})();
