// The page of counters: its panels are the server's (app/pages/counters_panel.py), read anew for the query a
// [data-go] names, after a [data-write]'s write (through the outbox), and on each live event and resync.
(() => {
  const root = document.querySelector("[data-counters-page]");
  if (!root) return;
  const game = root.dataset.game, notice = window.firestepNotice, { send } = window.firestepOutbox;
  const { refusal, failed } = window.firestepApi; // the map's too (api-action.js)
  const stand = /^#stand-(\d+)$/.exec(location.hash); // a need's "Open its card" on the referee board
  let want = stand ? `group=place&unit=${stand[1]}` : "group=place", reading = 0;
  // A panel of the server's swapped in where it differs from the one last read (keyed by data-panel): a field
  // typed in keeps its text and focus (hx-preserve, its id its counter's), an opened details and the card's
  // scroll stay, a live region (data-kept) stays, its words changed in place (so a screen reader says them).
  const last = new Map();
  const swap = (next) => {
    const key = next.dataset.panel, old = root.querySelector(`[data-panel="${key}"]`);
    if (!old || last.get(key) === next.outerHTML) return;
    last.set(key, next.outerHTML);
    const open = [...old.querySelectorAll("details[open][id]")].map((d) => d.id), top = old.querySelector("[data-counter-card]")?.scrollTop;
    const kept = [...old.querySelectorAll("[data-kept][id]")];
    window.htmx.swap(old, next.outerHTML, { swapStyle: "outerHTML" });
    open.forEach((id) => document.getElementById(id)?.setAttribute("open", ""));
    for (const [el, now] of kept.map((k) => [k, document.getElementById(k.id)])) if (now && now !== el) {
      el.replaceChildren(...now.childNodes); el.hidden = now.hidden; now.replaceWith(el);
    }
    if (top) root.querySelector("[data-counter-card]").scrollTop = top;
  };
  const read = async () => {
    const mine = ++reading;
    let status = 0;
    const part = await window.firestepDom.read(`/games/${game}/counters/panel?${want}`, (s) => { status = s; });
    if (mine !== reading) return; // a newer read is on its way
    if (!part) { root.querySelector("[data-counter-card]")?.removeAttribute("aria-busy"); notice(status === 401 || status === 403 ? "Join this game to see its counters." : "The counters could not be read; check the connection."); return; }
    part.parentNode.querySelectorAll("[data-panel]").forEach(swap);
    shown();
    inSight();
  };
  const shown = () => { // the page's attributes as the stage panel says them; the turn in view on the track
    for (const a of ["loaded", "turn", "card"]) root.dataset[a] = root.querySelector("[data-panel='stage']").dataset[a];
    root.querySelector("[data-track-turn][aria-current]")?.scrollIntoView({ block: "nearest", inline: "center" });
  };
  // The card's counter, on screen, in sight whole: on a phone above the card (counters.css's scroll-margin).
  const inSight = (el = root.querySelector(`.counter-group [data-counter="${root.dataset.card}"]`),
    y = el?.getBoundingClientRect().y) => y >= 0 && y < innerHeight && el.scrollIntoView({ block: "nearest" });
  const go = (query) => {
    const opened = new URLSearchParams(query).get("unit"), was = new URLSearchParams(want).get("unit");
    want = query; // another counter's card on its way: the one shown is busy (not to be used) till read
    if (opened !== was) root.querySelector("[data-counter-card]")?.setAttribute("aria-busy", "true");
    return read();
  };
  // A write the server drew ({url, method, body}), a typed value put in its body; the panels read anew after
  // it (`then`: the query they show next; `thenDone`: the roll's, with the event it recorded).
  const write = async (el, form) => {
    const w = JSON.parse(el.dataset.write || form?.dataset.write);
    const input = form?.querySelector("[data-write-input]");
    if (input) {
      if (!input.value.trim()) { notice(`Type its ${input.placeholder || "place"} first.`); return false; }
      w.body[form.dataset.writeField] = input.value.trim();
    }
    el.disabled = true;
    const r = await send(w.url, { method: w.method, body: w.body }).finally(() => { el.disabled = false; });
    if (failed(r)) { notice(refusal(r, "Not recorded; check the connection.")); read(); return false; }
    if (r.data && el.dataset.playUndo) notice("Taken back.", true); // kept: the outbox tells the player
    if (input) input.value = "";
    if (el.dataset.thenDone !== undefined && r.data?.event_id) want = `${el.dataset.thenDone}&done=${r.data.event_id}`;
    else if (el.dataset.then !== undefined) want = el.dataset.then;
    await read();
    return true;
  };

  // Taps in turn, each made on the panels as read since: its button found again by its key, else by its words
  // and its row's in its panel (ci140: a Next step lost unsaid under a swapped panel); if none, a notice.
  const again = (was, row = (b) => b.parentElement?.textContent) => was.dataset.key ? root.querySelector(`[data-key="${was.dataset.key}"]`)
    : was.isConnected ? was : [...root.querySelectorAll(`[data-panel="${was.closest("[data-panel]")?.dataset.panel}"] button`)]
      .find((b) => b.textContent === was.textContent && row(b) === row(was));
  let tapped = Promise.resolve();
  document.addEventListener("click", (e) => {
    const was = e.target.closest("button:is([data-go], [data-write], [data-act-greyed], [data-setup-all])");
    if (!was || !root.contains(was) || was.type === "submit") return; // a form's own: its submit
    tapped = tapped.then(() => {
      const el = again(was);
      if (!el) return notice("That changed as you tapped it: look again.");
      if (el.matches("[data-act-greyed]")) return notice(el.title);
      if (el.matches("[data-setup-all]")) return placeAll(el.closest("[data-setup-group]"));
      return el.dataset.write ? write(el) : go(el.dataset.go);
    }).catch(() => null);
  });
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!root.contains(form) || !form.matches("[data-write-field]")) return;
    e.preventDefault();
    write(e.submitter?.dataset.write ? e.submitter : form.querySelector("[data-write]") || form, form);
  });
  // Set-up: Place all of a group's typed places, the first refusal stopping the rest (each row found again
  // by its key: the panels are swapped after each place).
  const placeAll = async (group) => {
    const rows = [...group.querySelectorAll("[data-setup-form]")].filter((f) => f.querySelector("input").value.trim());
    if (!rows.length) { notice("Type the place of each counter to place first."); return; }
    for (const key of rows.map((f) => f.dataset.key)) {
      const f = root.querySelector(`[data-key="${key}"]`);
      if (!f || !(await write(f, f))) return;
    }
  };

  let soon = null; const later = () => { clearTimeout(soon); soon = setTimeout(read, 40); }; // a burst: once
  ["firestep:event", "firestep:resync"].forEach((name) => document.addEventListener(name, later));
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) later(); });
  if (stand) read(); else shown();
})();
