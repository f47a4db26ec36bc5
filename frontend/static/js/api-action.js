// Buttons with data-api="<url>" (and data-body='<json>') write to the JSON API through the outbox (kept and
// sent later when offline). A refusal stays on screen in plain words (net-status.js); success asks the live
// view to refresh. data-override (the referee's) offers to override a refusal by the rules of play;
// data-reload reloads the page once the write is done. Until bound here the buttons are inert (board.css).
(() => {
  document.documentElement.classList.add("api-ready");
  const say = (result) =>
    window.firestepNotice(window.firestepExplain(result.status, result.data, result.retryAfter), false, { key: "action" });
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-api]");
    if (!button || button.dataset.busy) return;
    event.preventDefault();
    button.dataset.busy = "1";
    button.disabled = true;
    try {
      const send = (body) =>
        window.firestepOutbox.send(button.dataset.api, { method: button.dataset.method || "POST", body });
      let result = await send(button.dataset.body || "{}");
      if (result.queued) return; // the outbox has told the player
      if (result.status === 409 && "override" in button.dataset) {
        const refusal = result.data;
        if (
          Array.isArray(refusal?.current?.allowed_now) &&
          window.confirm(`${refusal.detail}\n\nDo it anyway as the referee? The log will show the override.`)
        ) {
          result = await send(JSON.stringify({ ...JSON.parse(button.dataset.body || "{}"), override: true }));
          if (result.queued) return;
        }
      }
      if (!result.ok) say(result);
      // A write after which the page as a whole changes (a finished game).
      if (result.ok && "reload" in button.dataset) { window.location.reload(); return; }
      document.dispatchEvent(new CustomEvent("firestep:refresh"));
    } finally {
      delete button.dataset.busy;
      button.disabled = false;
    }
  });
})();
