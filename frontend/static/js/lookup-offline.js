// The lookup without a server: the service worker keeps this period's printed playsheet (the HTML the sheet
// prints, from /lookup/sheets/...) and this page; when a request cannot reach the server the page says so and
// shows the playsheet table of the chosen resolver (its link's data-resolver, else the panel's). The answers
// already on screen stay.
(() => {
  const kept = new Set();
  const panel = () => document.querySelector("[data-lookup-panel]");

  // A second copy of the sheet in this device's storage: a page on plain http (a club's wifi) has no service
  // worker, and a worker's cache can be lost; the copy is fetched once per sheet and period.
  const storedKey = (url) => `firestep-sheet:${url}`;
  const stored = (url) => {
    try { return localStorage.getItem(storedKey(url)); } catch (err) { return null; }
  };
  const store = (url) => {
    if (!url || stored(url)) return;
    fetch(url, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => { if (html) localStorage.setItem(storedKey(url), html); })
      .catch(() => {});
  };

  const keep = () => {
    const p = panel();
    if (!p || !navigator.onLine) return;
    store(p.dataset.sheetUrl);
    if (!("serviceWorker" in navigator)) return;
    const urls = ["/lookup", location.pathname + location.search, p.dataset.sheetUrl].filter((u) => u && !kept.has(u));
    if (!urls.length) return;
    navigator.serviceWorker.ready.then((reg) => {
      if (!reg.active) return;
      reg.active.postMessage({ type: "keep", urls });
      urls.forEach((u) => kept.add(u));
    });
  };

  let shown = 0; // the latest call wins: an offline event and a failed request may both ask at once
  const show = (picked) => { // the resolver a failed request asked for (its link's), else the page's
    const call = ++shown;
    const p = panel();
    const box = p && p.querySelector("[data-offline-sheet]");
    if (!box) return;
    const resolver = picked || p.dataset.resolver;
    const answer = document.getElementById("answer");
    if (answer) answer.classList.add("stale");
    // The sentences are the page's own (_lookup_panel.html): the one that is true said.
    const intro = box.querySelector(".offline-note");
    const copy = box.querySelector("[data-offline-copy]");
    intro.textContent = answer ? intro.dataset.saidStale : intro.dataset.said;
    copy.replaceChildren();
    box.hidden = false;
    const dockLine = p.querySelector(".dock-line");
    if (dockLine) dockLine.textContent = "No server: read your playsheet";
    box.scrollIntoView({ block: "start" });
    const url = p.dataset.sheetUrl;
    const none = () => { if (call === shown) intro.textContent = intro.dataset.saidNone; };
    if (!url) { none(); return; }
    // The worker's copy, read straight from its cache (the page may not be under the worker yet); failing
    // that the stored copy, the network, and the cache once more a moment later.
    const fromStorage = () => (stored(url) ? new Response(stored(url)) : Promise.reject(new Error("none")));
    const fromCache = () => Promise.resolve("caches" in window ? caches.match(url) : null)
      .then((hit) => hit || fromStorage());
    const fromNetwork = () => fetch(url).then((r) => (r.ok ? r : Promise.reject(new Error(`status ${r.status}`))));
    const later = () => new Promise((resolve) => { setTimeout(resolve, 400); }).then(fromCache);
    fromCache()
      .catch(fromNetwork)
      .catch(later)
      .then((r) => r.text())
      .then((html) => {
        if (call !== shown) return;
        const sheet = new DOMParser().parseFromString(html, "text/html").querySelector(".sheet-fallback");
        if (!sheet) { none(); return; }
        const sections = [...sheet.querySelectorAll("[data-sheet-section]")];
        const mine = sections.filter((s) => s.dataset.resolvers.split(" ").includes(resolver));
        if (mine.length) sections.filter((s) => !mine.includes(s)).forEach((s) => s.remove());
        copy.replaceChildren(document.adoptNode(sheet));
      })
      .catch(none);
  };

  document.addEventListener("DOMContentLoaded", () => {
    keep();
    if (!navigator.onLine) show();
  });
  document.addEventListener("htmx:afterSettle", keep);
  document.addEventListener("htmx:sendError", (e) => show(e.detail?.elt?.closest?.("[data-resolver]")?.dataset.resolver));
  window.addEventListener("offline", () => { if (panel()) show(); });
})();
