// A game page's offline copy follows what it shows: when the board changed or htmx swapped a part of the
// page, the service worker is asked to keep this page again (sw.js, under the page's seat). Each keep
// renders the whole page on the server: asked at most once per EVERY_MS, and at once when the page is hidden.
(() => {
  if (!("serviceWorker" in navigator) || !document.querySelector('meta[name="firestep-seat"]')) return;
  const EVERY_MS = 20000;
  let due = false;
  let timer = null;
  let last = 0;
  const keepNow = () => {
    clearTimeout(timer);
    timer = null;
    if (!due) return;
    due = false;
    last = Date.now();
    navigator.serviceWorker.ready.then((reg) => {
      if (reg.active) reg.active.postMessage({ type: "keep", urls: [location.pathname + location.search] });
    });
  };
  const changed = () => {
    if (document.documentElement.dataset.offlineCopy !== undefined) return; // a kept copy: nothing newer
    due = true;
    if (!timer) timer = setTimeout(keepNow, Math.max(1000, last + EVERY_MS - Date.now()));
  };
  document.addEventListener("firestep:board-updated", changed);
  document.addEventListener("htmx:afterSettle", changed);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") keepNow(); });
})();
