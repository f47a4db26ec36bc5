// firestep service worker: the static shell (styles, scripts, icons, htmx) comes from the cache at once
// and is refreshed in the background; pages and the API always go to the network, falling back to the
// last copy of a page when the wifi drops.
const VERSION = "firestep-shell-v3";
const SHELL = [
  "/static/css/app.css",
  "/static/vendor/htmx.min.js",
  "/static/js/stepper.js",
  "/static/js/net-status.js",
  "/static/js/reveal.js",
  "/static/js/sw-register.js",
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
  "/lookup",
];

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

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return; // live data: never from a cache
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      caches.open(VERSION).then(async (cache) => {
        const cached = await cache.match(request);
        const fresh = fetch(request).then((response) => {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
        return cached || fresh;
      }),
    );
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) caches.open(VERSION).then((cache) => cache.put(request, response.clone()));
          return response;
        })
        .catch(() => caches.match(request).then((hit) => hit || caches.match("/lookup"))),
    );
  }
});
