// Buttons with data-api="<url>" (and data-body='<json>') POST to the JSON API with this device's cookie.
// A refusal is shown as a sentence; success asks the live view to refresh (the event stream also will).
// A button marked data-override (the referee's) offers to override a refusal by the rules of play.
(() => {
  // The page's CSRF token: the server refuses a cookie-authorised write without it (app/security.py).
  const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content || "";
  const explain = async (response) => {
    let detail = "";
    let rulesOfPlay = false;
    try {
      const body = await response.json();
      // The game's status or the current step of the turn sequence does not allow this now.
      rulesOfPlay = Array.isArray(body.current?.allowed_now);
      detail = Array.isArray(body.detail)
        ? body.detail.map((d) => `${(d.loc || []).slice(-1)[0] || "value"}: ${d.msg}`).join("; ")
        : String(body.detail || "");
    } catch (err) {
      detail = "";
    }
    if (response.status === 403 && detail.includes("CSRF")) {
      return "Nothing was changed: this page's security token is out of date. Reload the page and try again.";
    }
    if (rulesOfPlay) return `Not now. ${detail}`;
    const lead = {
      401: "This device has not joined the game.",
      403: "Your side may not do that.",
      404: "That is no longer there.",
      409: "Someone changed this on another device; the screen now shows the current state.",
      422: "Not allowed:",
      429: `Too many tries from this device: wait ${response.headers.get("Retry-After") || "a few"} seconds and try again.`,
    }[response.status] || `The server could not do that (${response.status}).`;
    return detail ? `${lead} ${detail}` : lead;
  };
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-api]");
    if (!button || button.dataset.busy) return;
    event.preventDefault();
    button.dataset.busy = "1";
    button.disabled = true;
    try {
      const send = (body) =>
        fetch(button.dataset.api, {
          method: button.dataset.method || "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
          credentials: "same-origin",
          body,
        });
      let response = await send(button.dataset.body || "{}");
      if (response.status === 409 && "override" in button.dataset) {
        const refusal = await response.clone().json().catch(() => null);
        if (
          Array.isArray(refusal?.current?.allowed_now) &&
          window.confirm(`${refusal.detail}\n\nDo it anyway as the referee? The log will show the override.`)
        ) {
          response = await send(JSON.stringify({ ...JSON.parse(button.dataset.body || "{}"), override: true }));
        }
      }
      if (!response.ok) window.firestepNotice(await explain(response));
      document.dispatchEvent(new CustomEvent("firestep:refresh"));
    } catch (err) {
      window.firestepNotice("Could not reach the server. Check the wifi and try again.");
    } finally {
      delete button.dataset.busy;
      button.disabled = false;
    }
  });
})();
