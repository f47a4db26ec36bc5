// A game page's offline copy follows what it shows: when the board changed (board-live.js) or htmx swapped a
// part of the page, the service worker is asked, a few seconds later and once for a burst, to keep this page
// again (sw.js keeps it under the seat the page names, so the copy is this seat's own).
(() => {
  if (!("serviceWorker" in navigator) || !document.querySelector('meta[name="firestep-seat"]')) return;
  const QUIET_MS = 3000;
  let timer = null;
  const keepSoon = () => {
    if (document.documentElement.dataset.offlineCopy !== undefined) return; // a kept copy is shown: nothing newer
    clearTimeout(timer);
    timer = setTimeout(() => {
      navigator.serviceWorker.ready.then((reg) => {
        if (reg.active) reg.active.postMessage({ type: "keep", urls: [location.pathname + location.search] });
      });
    }, QUIET_MS);
  };
  document.addEventListener("firestep:board-updated", keepSoon);
  document.addEventListener("htmx:afterSettle", keepSoon);
})();
