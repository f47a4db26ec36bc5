// Messages for the people at the table, in a toast fixed to the screen (#net-status), so they are seen
// wherever the page is scrolled, placed where it covers no menu, dice or card (top centre, taps pass through
// around it). A refusal or failure stays until the player dismisses it or acts again (taps another control);
// good news fades by itself.
//   window.firestepNotice(text, good, { key, why, source, tone })  shows one (tone "info": an instruction, in
//     a plain style, never a refusal's red); a later notice with the same key
//     replaces it (callers that give no key share one slot). Key "connection" speaks of the device's state
//     (and of the taps outbox.js keeps for it) rather than of one tap, so acting again leaves it; its own news
//     replaces it. With `why` (the rule in full) or `source` (where it is printed) it has a "Why?" to open.
//   window.firestepExplain(status, body, retryAfter)  the API's refusal (app/errors.py: one sentence in
//     `detail`, the rule in `why` and `source`) as the sentence to show; a notice showing that sentence next
//     offers its "Why?".
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

  const remove = (key) => {
    const item = shown.get(key);
    if (!item) return;
    clearTimeout(item.fade);
    item.remove();
    shown.delete(key);
    const el = region();
    if (el && !shown.size) el.hidden = true;
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
    item.querySelector("p").textContent = text;
    const reason = options.why || options.source ? options : shows(text, lastRefusal) ? lastRefusal : {};
    const why = item.querySelector(".notice-why");
    why.open = false;
    why.hidden = !(reason.why || reason.source);
    why.querySelector("p").textContent = reason.why && reason.why !== text ? sentence(reason.why) : "";
    why.querySelector("cite").textContent = reason.source || "";
    item.classList.toggle("ok", Boolean(good));
    item.classList.toggle("info", options.tone === "info"); // an instruction ("Tap where … goes."), not an error
    clearTimeout(item.fade);
    if (good) item.fade = setTimeout(() => remove(key), GOOD_FOR_MS);
    el.hidden = false;
    place();
  };
  show.clear = remove;
  window.firestepNotice = show;

  // Acting again (a tap on any control, a form sent) clears what earlier taps were told.
  const actedAgain = (event) => {
    if (event.target.closest?.("#net-status")) return;
    if (event.type === "click" && !event.target.closest?.("button, a[href], input, select, textarea, summary, label, [role=button]")) return;
    for (const key of [...shown.keys()]) if (!LASTING.has(key)) remove(key);
  };
  document.addEventListener("click", actedAgain, true);
  document.addEventListener("submit", actedAgain, true);

  // -- the API's refusals in plain words ---------------------------------------------------------------------
  const sentence = (text) => {
    const s = String(text || "").trim();
    if (!s) return "";
    const capital = s[0].toUpperCase() + s.slice(1);
    return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
  };
  // Messages name rows by id ("unit 17"); the people at the table see names, so speak of "this unit".
  const plain = (msg) => String(msg || "").replace(/\b(unit|stand|item|event|device) \d+\b/g, "this $1");
  const seconds = (retryAfter) => (retryAfter ? `${retryAfter} seconds` : "a few seconds");

  // The last refusal explained: a notice that shows its sentence (or the API's, within its own words) offers
  // its rule.
  let lastRefusal = {};
  const bare = (s) => String(s || "").toLowerCase().replace(/[.?]$/, "");
  const shows = (text, refusal) =>
    [refusal.text, refusal.detail].some((s) => s && bare(text).includes(bare(s)));
  const explain = (status, body, retryAfter) => {
    const text = sentence(plain(typeof body?.detail === "string" ? body.detail : ""));
    const said = words(status, body, text, retryAfter);
    lastRefusal = { text: said, detail: text, why: body?.why ? plain(body.why) : "", source: body?.source || "" };
    return said;
  };
  const words = (status, body, text, retryAfter) => {
    if (!status) return "Could not reach the server: check the wifi and try again.";
    if (status === 403 && body?.field === "x-csrftoken") {
      return "Nothing was changed: reload the page and try again, its security token is out of date.";
    }
    if (status === 409 && Array.isArray(body?.current?.allowed_now)) return text;
    if (status === 422 && Array.isArray(body?.errors)) {
      // Rule refusals (value_error, from the game) say what to do; anything else means this page sent
      // something the server does not take, which the player cannot fix but by reloading.
      const rules = body.errors.filter((d) => d && d.type === "value_error" && (d.loc || [])[0] !== "header");
      if (text && rules.length === body.errors.length) return text;
      return "Nothing was changed: reload the page and try again, it sent something the server does not take.";
    }
    const fixed = {
      401: "Join again with a code from the referee: this device is not signed in to this game.",
      403: text || "Your side may not do that.",
      404: "That is no longer there: it may have been removed on another device.",
      409: "Someone changed this on another device: try again if it is still needed, the screen shows it now.",
      413: "That is too much to send at once.",
      422: text || "That value is not allowed here.",
      429: `Too many tries from this device: wait ${seconds(retryAfter)} and try again.`,
    }[status];
    return fixed || `The server could not do that (error ${status}): try again, and tell the referee if it keeps on.`;
  };
  window.firestepExplain = explain;

  // -- the connection, and htmx's requests ---------------------------------------------------------------------
  window.addEventListener("offline", () =>
    show("No connection: taps are kept on this device and sent when it is back.", false, { key: "connection" }));
  window.addEventListener("online", () => show("Connection back.", true, { key: "connection" }));
  document.addEventListener("htmx:sendError", () =>
    show("Could not reach the server: check the wifi and try again.", false, { key: "action" }));
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr) return;
    // A refusal that explains itself (e.g. an out-of-date CSRF token) sends its own sentence.
    const own = xhr.getResponseHeader("X-Firestep-Notice");
    let body = null;
    try {
      body = JSON.parse(xhr.responseText);
    } catch (err) {
      body = null;
    }
    show(own || explain(xhr.status, body, xhr.getResponseHeader("Retry-After")), false, { key: "action" });
  });
})();
