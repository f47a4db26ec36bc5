// The one live connection of a game page ([data-live-stream]: its stream, ticket and last event id, and the
// frame's `view`): read with fetch streaming (every named event kind seen, Last-Event-ID resumes after a
// drop), opened with a short-lived ticket fetched with the device's cookie (no token in a URL). It sends
// firestep:event, firestep:aside and firestep:resync (app/pages/page_events.py); firestepLive.lastId is the
// newest event id seen, .connected whether the stream is open (a write's own read is skipped while it is).
(() => {
  const root = document.querySelector("[data-live-stream]");
  if (!root || !window.fetch) return;
  const streamUrl = root.dataset.liveStream;
  const ticketUrl = root.dataset.liveTicket;
  const after = Number(root.dataset.liveAfter);
  const view = root.dataset.liveView ? `&view=${encodeURIComponent(root.dataset.liveView)}` : "";
  // The server sends a comment at least every 15 s; a silent stream for longer is a dead one.
  const SILENCE_MS = 40000;
  const live = { lastId: Number.isFinite(after) ? after : 0, connected: false };
  window.firestepLive = live;

  // The stream's news has its own slot ("live"): "reconnecting…" goes the moment the stream is open again.
  const notice = (text, ok) => window.firestepNotice && window.firestepNotice(text, ok, { key: "live" });
  let toldLost = false;
  const resync = () => document.dispatchEvent(new CustomEvent("firestep:resync"));

  let failures = 0; // consecutive failed connects: the backoff
  let everConnected = false;
  let controller = null; // aborts the open stream (offline, silence, a forced reconnect)
  let retryTimer = null;
  let refused = false; // the device has no seat in this game: retrying will not help

  const refusedBy = (r) => {
    if (r.status !== 401 && r.status !== 403) return false;
    refused = true;
    notice("Live updates need this device to have joined the game.");
    return true;
  };

  // A frame's id, kind and data: a retry:, a keep-alive or a frame cut short is dropped (the next says it).
  const deliver = (text) => {
    let id = null, kind = "";
    const data = [];
    for (const line of text.split("\n")) {
      if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("event:")) kind = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    let detail;
    try { detail = JSON.parse(data.join("\n")); } catch (err) { return; }
    // No event of the game: an event table's round timer (game-clock.js).
    if (kind === "aside") { document.dispatchEvent(new CustomEvent("firestep:aside", { detail })); return; }
    const n = Number(id);
    if (id === null || (Number.isFinite(n) && n <= live.lastId)) return; // delivered before a reconnect
    if (Number.isFinite(n)) live.lastId = n;
    document.dispatchEvent(new CustomEvent("firestep:event", { detail }));
  };

  const schedule = (ms) => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, ms);
  };

  const reconnectNow = () => {
    if (refused) return;
    if (controller) controller.abort(); // its loop ends and schedules the next connect
    else schedule(0);
  };

  async function connect() {
    clearTimeout(retryTimer);
    if (controller || refused) return;
    const mine = new AbortController();
    controller = mine;
    let silence = null;
    const watch = () => {
      clearTimeout(silence);
      silence = setTimeout(() => mine.abort(), SILENCE_MS);
    };
    try {
      watch();
      const issued = await fetch(ticketUrl, { credentials: "same-origin", cache: "no-store", signal: mine.signal });
      if (refusedBy(issued)) return;
      if (!issued.ok) throw new Error(String(issued.status));
      const { ticket } = await issued.json();
      const headers = { Accept: "text/event-stream", "Last-Event-ID": String(live.lastId) };
      const response = await fetch(`${streamUrl}?ticket=${encodeURIComponent(ticket)}${view}`, {
        headers, credentials: "omit", cache: "no-store", signal: mine.signal,
      });
      if (refusedBy(response)) return;
      if (!response.ok) throw new Error(String(response.status));
      root.dataset.liveConnected = "1";
      live.connected = true;
      if (toldLost) window.firestepNotice?.clear("live"); // "back": the device's to say, not twice
      toldLost = false;
      failures = 0;
      // Whatever happened while this page was not connected is refetched by each view.
      if (everConnected) resync();
      everConnected = true;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        watch();
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          deliver(frame);
        }
      }
      throw new Error("stream closed");
    } catch (err) {
      failures += 1;
      if (failures >= 2 && !toldLost && !refused) {
        notice("Connection to the game lost: reconnecting…");
        toldLost = true;
      }
    } finally {
      clearTimeout(silence);
      if (controller === mine) controller = null;
      delete root.dataset.liveConnected;
      live.connected = false;
      if (!refused) schedule(failures <= 1 ? 250 : Math.min(5000, 500 * failures));
    }
  }

  // Offline: drop the stream now (it may otherwise hang silently). Back online or shown again: reconnect at
  // once (with Last-Event-ID) and let every view catch up.
  window.addEventListener("offline", () => { if (controller) controller.abort(); });
  window.addEventListener("online", () => { failures = Math.min(failures, 1); reconnectNow(); resync(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (!controller) reconnectNow();
    resync();
  });
  connect();
})();
