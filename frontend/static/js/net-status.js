// Messages for the people at the table, in a toast fixed to the screen (#net-status), so they are seen
// wherever the page is scrolled. A refusal or failure stays until the player dismisses it or acts again
// (taps another control); good news fades by itself.
//   window.firestepNotice(text, good, { key })  shows one; a later notice with the same key replaces it
//     (callers that give no key share one slot). Key "connection" speaks of the device's state (and of the
//     taps outbox.js keeps for it) rather than of one tap, so acting again leaves it; its own news replaces it.
//   window.firestepExplain(status, body, retryAfter)  the API's error JSON (app/errors.py) in plain words:
//     the one mapping from API refusals to sentences for the pages. The API keeps its precise messages.
(() => {
  const GOOD_FOR_MS = 4000;
  const LASTING = new Set(["connection"]);
  const shown = new Map(); // key -> the notice element
  const region = () => document.getElementById("net-status");

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
      item = document.createElement("div");
      item.className = "notice";
      item.dataset.noticeKey = key;
      const words = document.createElement("p");
      const dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "notice-dismiss";
      dismiss.textContent = "OK";
      dismiss.setAttribute("aria-label", "OK: dismiss this message"); // the visible word first (WCAG 2.5.3)
      dismiss.addEventListener("click", () => remove(key));
      item.append(words, dismiss);
      el.append(item);
      shown.set(key, item);
    }
    item.querySelector("p").textContent = text;
    item.classList.toggle("ok", Boolean(good));
    clearTimeout(item.fade);
    if (good) item.fade = setTimeout(() => remove(key), GOOD_FOR_MS);
    el.hidden = false;
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

  const explain = (status, body, retryAfter) => {
    const detail = body && body.detail;
    const text = typeof detail === "string" ? detail : "";
    if (!status) return "Could not reach the server. Check the wifi and try again.";
    if (status === 403 && text.includes("CSRF")) {
      return "Nothing was changed: this page's security token is out of date. Reload the page and try again.";
    }
    if (status === 409 && Array.isArray(body?.current?.allowed_now)) return `Not now. ${sentence(text)}`;
    if (status === 422 && Array.isArray(detail)) {
      // Rule refusals (value_error, from the game) say what is wrong; anything else means this page sent
      // something the server does not take, which the player cannot fix but by reloading.
      const rules = detail.filter((d) => d && d.type === "value_error" && (d.loc || [])[0] !== "header");
      if (rules.length && rules.length === detail.length) {
        return `Not done: ${rules.map((d) => plain(d.msg)).join("; ")}.`.replace(/\.\.$/, ".");
      }
      return "Nothing was changed: this page sent something the server does not accept. Reload the page and try again.";
    }
    const words = {
      401: "This device is not signed in to this game (or its seat was withdrawn): join again with a code from the referee.",
      403: sentence(plain(text)) || "Your side may not do that.",
      404: "That is no longer there: it may have been removed on another device.",
      409: "Someone changed this on another device: the screen now shows the current state. Try again if it is still needed.",
      413: "That is too much to send at once.",
      422: "That value is not allowed here.",
      429: `Too many tries from this device: wait ${seconds(retryAfter)} and try again.`,
    }[status];
    return words || `The server could not do that (error ${status}). Try again; if it keeps happening, tell the referee.`;
  };
  window.firestepExplain = explain;

  // -- the connection, and htmx's requests ---------------------------------------------------------------------
  window.addEventListener("offline", () =>
    show("No connection: taps are kept on this device and sent when it is back.", false, { key: "connection" }));
  window.addEventListener("online", () => show("Connection back.", true, { key: "connection" }));
  document.addEventListener("htmx:sendError", () =>
    show("Could not reach the server. Check the wifi and try again.", false, { key: "action" }));
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
