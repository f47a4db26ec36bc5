// Connection and server trouble shown as a plain message at the top of the page, never a raw body.
(() => {
  const box = () => document.getElementById("net-status");
  const show = (text, ok) => {
    const el = box();
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("ok", Boolean(ok));
    el.hidden = false;
    if (ok) setTimeout(() => { el.hidden = true; }, 2500);
  };
  window.firestepNotice = show;
  window.addEventListener("offline", () => show("Connection lost: changes will not reach the server until it is back."));
  window.addEventListener("online", () => show("Connection back.", true));
  document.addEventListener("htmx:sendError", () => show("Could not reach the server. Check the wifi and try again."));
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    const status = xhr ? xhr.status : 0;
    // A refusal that explains itself (e.g. an out-of-date CSRF token) sends its own sentence.
    const own = xhr ? xhr.getResponseHeader("X-Firestep-Notice") : null;
    if (own) { show(own); return; }
    const retry = xhr ? xhr.getResponseHeader("Retry-After") : null;
    const text = {
      401: "You are not signed in to this game: join it with a code first.",
      403: "Your side may not do that.",
      404: "That no longer exists (it may have been removed on another device).",
      409: "Someone changed this on another device: the page shows the current state now.",
      422: "That value is not allowed here.",
      429: `Too many tries from this device: wait ${retry || "a few"} seconds and try again.`,
    }[status] || `The server could not do that (error ${status}). Try again.`;
    show(text);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const el = box();
    if (el && event.detail.successful && !el.classList.contains("ok") && navigator.onLine) el.hidden = true;
  });
})();
