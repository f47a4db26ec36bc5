// firestep service worker.
// - Static files: a versioned URL (?v=...) never changes, so it is served from the cache once fetched; an
//   unversioned one comes from the cache at once and is refreshed in the background.
// - Pages go to the network; without one, the last copy of that same page, else a page saying plainly that
//   the server cannot be reached (never another page under this URL).
// - The lookup asks the worker to keep its page, the start page and its period's playsheet tables
//   (/lookup/sheets/...), which lookup-offline.js shows when the server cannot be reached.
// - The API and every write always go to the network.
const VERSION = "firestep-v5";
const SHELL = [
  "/static/css/app.css",
  "/static/css/lookup.css",
  "/static/vendor/htmx.min.js",
  "/static/js/stepper.js",
  "/static/js/net-status.js",
  "/static/js/reveal.js",
  "/static/js/sw-register.js",
  "/static/js/lookup-dice.js",
  "/static/js/lookup-offline.js",
  "/static/js/org-tables.js",
  "/static/js/api-action.js",
  "/static/js/live.js",
  "/static/js/long-press.js",
  "/static/js/grid-pick.js",
  "/static/js/table-map.js",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/manifest.webmanifest",
];
const OFFLINE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · firestep</title></head>
<body style="font-family: system-ui, sans-serif; margin: 2rem; line-height: 1.5; color: #1a1a1a; background: #f3f0e8">
<h1>The server cannot be reached</h1>
<p>This device has no copy of this page. Check the wifi, then try again.</p>
<p><a href="/lookup" style="display: inline-block; padding: .75rem 1rem; border: 2px solid #1f4d3a; border-radius: 10px; color: #1f4d3a">Open the lookup and your playsheet</a></p>
</body></html>`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Only the lookup's own pages and sheets, on this origin, may be kept at a page's request.
const KEEPABLE = /^\/lookup(\/|$|\?)/;

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .slice(0, 8)
    .map((u) => new URL(String(u), self.location.origin))
    .filter((u) => u.origin === self.location.origin && KEEPABLE.test(u.pathname + u.search));
  event.waitUntil(
    caches.open(VERSION).then((cache) =>
      Promise.all(urls.map((u) => fetch(u, { credentials: "same-origin", headers: { Purpose: "prefetch" } })
        .then((response) => (response.ok ? cache.put(u, response) : null))
        .catch(() => null))),
    ),
  );
});

const networkFirst = (request, fallback) =>
  fetch(request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(VERSION).then((cache) => cache.put(request, copy));
      }
      return response;
    })
    .catch(() => caches.match(request).then((hit) => hit || fallback()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return; // live data: never from a cache
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      caches.open(VERSION).then(async (cache) => {
        const cached = await cache.match(request);
        if (cached && url.searchParams.has("v")) return cached;
        const fresh = fetch(request).then((response) => {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
        return cached || fresh;
      }),
    );
    return;
  }
  if (url.pathname.startsWith("/lookup/sheets/")) {
    event.respondWith(networkFirst(request, () => new Response("", { status: 504 })));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, () =>
      new Response(OFFLINE_PAGE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } })));
  }
});
