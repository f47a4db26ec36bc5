// Buttons with data-api="<url>" (and data-body='<json>') write to the JSON API through the outbox (kept and
// sent later when offline). A refusal stays on screen in plain words (net-status.js); success asks the live
// view to refresh. data-override (the referee's) offers to override a refusal by the rules of play;
// data-reload reloads the page once the write is done; data-done, the part then read ({event}: the write's
// event) into the element data-into names. Until bound here the buttons are inert (board.css).
// `firestepApi`: the writes' helpers the map and the counters share.
(() => {
  document.documentElement.classList.add("api-ready");
  // The outbox's answer { ok, status, data, queued }: queued is kept, not refused.
  const failed = (result) => !result || (!result.ok && !result.queued);
  // A refusal in the notices' words, else `fallback` where nothing answered.
  const refusal = (result, fallback) => (result?.status ? window.firestepExplain(result.status, result.data) : fallback);
  const mayOverride = (why) => window.confirm(`${why}\n\nDo it anyway as the referee? The log will show the override.`);
  // A refusal the server says the referee may override (`current.override`) is sent `again` once confirmed.
  const overridden = async (result, again) =>
    (result.status === 409 && result.data?.current?.override && mayOverride(result.data.detail) ? again() : result);
  window.firestepApi = Object.freeze({ failed, refusal, mayOverride, overridden });
  const answer = async ({ done, into }, data) => {
    const part = await window.firestepDom.read(done.replace("{event}", data.event_id));
    if (part) return document.querySelector(into)?.replaceChildren(part.parentNode); // the part and what follows it
    window.firestepNotice("It is recorded; it shows when the connection is back.", false, { key: "action" });
    document.addEventListener("firestep:resync", () => answer({ done, into }, data), { once: true });
  };
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-api]");
    if (!button) return;
    event.preventDefault();
    button.disabled = true; // a disabled button hears no click: one write a tap
    const { api, method, body } = button.dataset;
    const send = (sent) => window.firestepOutbox.send(api, { method: method || "POST", body: sent || "{}" });
    // A button naming the game's version is spent once its write is done: that version is gone (a quick second
    // tap was refused as "someone changed this"). The panel of the new version brings a fresh button.
    let spent = false;
    try {
      let result = await send(body);
      const again = () => send({ ...JSON.parse(body || "{}"), override: true });
      if (!result.queued && "override" in button.dataset) result = await overridden(result, again);
      if (result.queued) return; // the outbox has told the player
      if (!result.ok) window.firestepNotice(window.firestepExplain(result.status, result.data), false, { key: "action" });
      // A write after which the page as a whole changes (a finished game).
      if (result.ok && "reload" in button.dataset) { window.location.reload(); return; }
      if (result.ok && button.dataset.done && result.data) answer(button.dataset, result.data);
      spent = result.ok && "version" in JSON.parse(body || "{}");
      document.dispatchEvent(new CustomEvent("firestep:refresh"));
    } finally {
      button.disabled = spent;
    }
  });
})();
