// "Not live": when sw.js answers with its kept copy because the server cannot be reached, [data-not-live]
// says so, with the time that copy was made (a page's <meta name="firestep-saved-at">, or the worker's
// message for the map's state). It goes once the live stream is connected again (data-live-connected).
(() => {
  const box = document.querySelector("[data-not-live]");
  if (!box) return;
  const when = box.querySelector("[data-not-live-time]");
  let oldest = Infinity;

  const timeOf = (ms) => {
    const at = new Date(ms);
    const today = at.toDateString() === new Date().toDateString();
    const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    return today ? time : `${at.toLocaleDateString()} ${time}`;
  };
  const show = (savedAt) => {
    if (!(savedAt > 0)) return;
    oldest = Math.min(oldest, savedAt); // what the page shows is as old as its oldest part
    when.textContent = timeOf(oldest);
    when.setAttribute("datetime", new Date(oldest).toISOString());
    box.dataset.savedAt = String(oldest);
    box.hidden = false;
    document.documentElement.dataset.offlineCopy = "";
  };
  const hide = () => {
    oldest = Infinity;
    box.hidden = true;
    delete box.dataset.savedAt;
    delete document.documentElement.dataset.offlineCopy;
  };

  show(Number(document.querySelector('meta[name="firestep-saved-at"]')?.content));
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "not-live") show(Number(event.data.savedAt));
    });
    navigator.serviceWorker.startMessages();
  }
  const stream = document.querySelector("[data-live-stream]");
  if (stream) {
    new MutationObserver(() => { if ("liveConnected" in stream.dataset) hide(); })
      .observe(stream, { attributes: true, attributeFilter: ["data-live-connected"] });
  }
  box.querySelector("[data-not-live-retry]")?.addEventListener("click", () => window.location.reload());
})();
