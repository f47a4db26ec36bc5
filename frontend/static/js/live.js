// Live view: read the game's Server-Sent Events (fetch streaming, so every named event kind is seen and
// Last-Event-ID resumes after a drop) and re-render the fragment from the page's own URL via htmx.
// The stream is opened with a short-lived ticket fetched (with the device's cookie) right before every
// connect and reconnect: no token ever goes into a URL.
(() => {
  const root = document.querySelector("[data-live-stream]");
  if (!root || !window.fetch) return;
  const url = root.dataset.liveStream;
  const ticketUrl = root.dataset.liveTicket;
  const refreshUrl = root.dataset.liveRefresh;
  const target = root.dataset.liveTarget;
  let lastId = root.dataset.liveAfter || null; // the newest event the page already shows
  let pending = null;
  let failures = 0;

  const refresh = () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      htmx.ajax("GET", refreshUrl, { target, swap: "outerHTML" });
    }, 30);
  };
  document.addEventListener("firestep:refresh", refresh);

  const connect = async () => {
    const headers = { Accept: "text/event-stream" };
    if (lastId !== null) headers["Last-Event-ID"] = lastId;
    try {
      const issued = await fetch(ticketUrl, { credentials: "same-origin", cache: "no-store" });
      if (issued.status === 401 || issued.status === 403) {
        window.firestepNotice("Live updates need this device to have joined the game.");
        return;
      }
      if (!issued.ok) throw new Error(String(issued.status));
      const { ticket } = await issued.json();
      const streamUrl = `${url}?ticket=${encodeURIComponent(ticket)}`;
      const response = await fetch(streamUrl, { headers, credentials: "omit", cache: "no-store" });
      if (!response.ok) {
        window.firestepNotice(response.status === 401 || response.status === 403
          ? "Live updates need this device to have joined the game."
          : "Live updates are unavailable; retrying.");
        if (response.status === 401 || response.status === 403) return;
        throw new Error(String(response.status));
      }
      if (failures) { window.firestepNotice("Live updates are back.", true); refresh(); }
      failures = 0;
      root.dataset.liveConnected = "1";
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const idLine = frame.split("\n").find((l) => l.startsWith("id:"));
          if (idLine) {
            const id = idLine.slice(3).trim();
            lastId = id;
            refresh();
          }
        }
      }
      throw new Error("stream closed");
    } catch (err) {
      delete root.dataset.liveConnected;
      failures += 1;
      if (failures === 2) window.firestepNotice("Connection to the game lost: reconnecting…");
      setTimeout(connect, Math.min(5000, 500 * failures));
    }
  };
  connect();
})();
