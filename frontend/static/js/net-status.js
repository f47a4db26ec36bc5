// Messages for the people at the table, in a toast (#net-status) placed clear of the menu, dice and card; a
// refusal stays until dismissed or the player acts again, good news fades. firestepNotice(text, good, { key,
// why, source, tone }) shows one (a key replaces its own; "connection" and the stream's outlast a tap; `why`
// or `source` give a "Why?"); firestepExplain(status, body) is what to say of an API answer: its `said` and
// behind "Why?" its `said_why` (app/errors.py: shown as they come), or "Could not reach the server" for none.
(() => {
  const GOOD_FOR_MS = 4000;
  const LASTING = new Set(["connection", "live", "board"]); // the device's or the stream's state, not a tap's
  const shown = new Map(); // key -> the notice element
  const region = () => document.getElementById("net-status");
  // Below the page's menu bar while it is on screen, and above what sits lower down that must stay in view
  // (the map's card and tool bar, the dice pad): the notices never cover them; a long "Why?" scrolls.
  const KEEP_CLEAR = ".map-panel:not([hidden]), .map-toolbar, .dock";
  const place = () => {
    const el = region();
    if (!el || el.hidden) return;
    const bar = document.querySelector(".topbar");
    const top = Math.max(0, bar ? bar.getBoundingClientRect().bottom : 0);
    let bottom = window.innerHeight;
    for (const clear of document.querySelectorAll(KEEP_CLEAR)) {
      const r = clear.getBoundingClientRect();
      if (r.height && r.top > top && r.top < bottom) bottom = r.top;
    }
    el.style.setProperty("--notice-top", `${top}px`);
    el.style.setProperty("--notice-max", `${Math.max(96, bottom - top - 16)}px`);
  };
  window.addEventListener("scroll", place, { passive: true });
  window.addEventListener("resize", place);

  // Each sentence shown is numbered (`show` returns it): as it goes, removed by any means or replaced by another
  // under its key, `firestep:notice-gone` says so ({ key, said }), and what lasted as long as it ends (a map's Move).
  let saidCount = 0;
  const gone = (key, said) => document.dispatchEvent(new CustomEvent("firestep:notice-gone", { detail: { key, said } }));
  // `said`: only that sentence (another since shown under its key stays).
  const remove = (key, said) => {
    const item = shown.get(key);
    if (!item || (said !== undefined && Number(item.dataset.said) !== said)) return;
    clearTimeout(item.fade);
    item.remove();
    shown.delete(key);
    const el = region();
    if (el && !shown.size) el.hidden = true;
    gone(key, Number(item.dataset.said));
  };

  const show = (text, good = false, options = {}) => {
    const el = region();
    if (!el) return;
    const key = options.key || "notice";
    let item = shown.get(key);
    if (!item) {
      item = document.querySelector("template[data-notice]").content.firstElementChild.cloneNode(true);
      item.dataset.noticeKey = key;
      item.querySelector(".notice-why").addEventListener("toggle", place);
      item.querySelector(".notice-dismiss").addEventListener("click", () => remove(key));
      el.append(item);
      shown.set(key, item);
    }
    const was = Number(item.dataset.said || 0);
    const said = (saidCount += 1);
    item.dataset.said = String(said);
    item.querySelector("p").textContent = text;
    const reason = options.why || options.source ? options : shows(text, lastRefusal) ? lastRefusal : {};
    const why = item.querySelector(".notice-why");
    why.open = false;
    why.querySelector("p").textContent = reason.why && bare(reason.why) !== bare(text) ? reason.why : "";
    why.hidden = !(why.querySelector("p").textContent || reason.source); // else nothing to open
    why.querySelector("cite").textContent = reason.source || "";
    item.classList.toggle("ok", Boolean(good));
    item.classList.toggle("info", options.tone === "info"); // an instruction ("Tap where … goes."), not an error
    clearTimeout(item.fade);
    if (good) item.fade = setTimeout(() => remove(key), GOOD_FOR_MS);
    el.hidden = false;
    place();
    if (was) gone(key, was);
    return said;
  };
  show.clear = remove;
  window.firestepNotice = show;

  // Acting again (a tap on any control, a form sent) clears what earlier taps were told, and good news.
  const actedAgain = (event) => {
    if (event.target.closest?.("#net-status")) return;
    if (event.type === "click" && !event.target.closest?.("button, a[href], input, select, textarea, summary, label, [role=button]")) return;
    for (const [key, item] of shown) if (!LASTING.has(key) || item.classList.contains("ok")) remove(key);
  };
  document.addEventListener("click", actedAgain, true);
  document.addEventListener("submit", actedAgain, true);

  // -- the API's refusals, worded by the server (app/errors.py: `said`, `said_why`) ----------------------------
  const OFFLINE = "Could not reach the server: check the wifi and try again.";
  // The last refusal: a notice showing its sentence (or the API's, in its own words) offers its rule.
  let lastRefusal = {};
  const bare = (s) => String(s || "").toLowerCase().replace(/[.?]$/, "");
  const shows = (text, refusal) =>
    [refusal.text, refusal.detail].some((s) => s && bare(text).includes(bare(s)));
  const explain = (status, body) => {
    const said = !status ? OFFLINE : typeof body?.said === "string" ? body.said
      : `The server could not do that (error ${status}): try again, and tell the referee if it keeps on.`;
    lastRefusal = { text: said, detail: body?.detail, why: body?.said_why, source: body?.source || "" };
    return said;
  };
  window.firestepExplain = explain;

  // -- the connection, and htmx's requests ------------------------------------------------------------------
  window.addEventListener("offline", () =>
    show("No connection: taps are kept on this device and sent when it is back.", false, { key: "connection" }));
  window.addEventListener("online", () => show("Connection back.", true, { key: "connection" }));
  document.addEventListener("htmx:sendError", () => show(OFFLINE, false, { key: "action" }));
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr) return;
    // A page's refusal (HTML) sends its sentence in a header (app/guard/notice.py), the API's in its JSON.
    const own = xhr.getResponseHeader("X-Firestep-Notice");
    let body = null;
    try { body = JSON.parse(xhr.responseText); } catch (err) { /* a page's refusal: its header says it */ }
    show(own || explain(xhr.status, body), false, { key: "action" });
  });
})();
