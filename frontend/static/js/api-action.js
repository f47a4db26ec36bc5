// Buttons with data-api="<url>" (and data-body='<json>') POST to the JSON API with this device's cookie.
// A refusal is shown as a sentence; success asks the live view to refresh (the event stream also will).
(() => {
  const explain = async (response) => {
    let detail = "";
    try {
      const body = await response.json();
      detail = Array.isArray(body.detail)
        ? body.detail.map((d) => `${(d.loc || []).slice(-1)[0] || "value"}: ${d.msg}`).join("; ")
        : String(body.detail || "");
    } catch (err) {
      detail = "";
    }
    const lead = {
      401: "This device has not joined the game.",
      403: "Your side may not do that.",
      404: "That is no longer there.",
      409: "Someone changed this on another device; the screen now shows the current state.",
      422: "Not allowed:",
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
      const response = await fetch(button.dataset.api, {
        method: button.dataset.method || "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        body: button.dataset.body || "{}",
      });
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
