// firestep service worker.
// - Static files: a versioned URL (?v=...) never changes, so it is served from the cache once fetched; an
//   unversioned one comes from the cache at once and is refreshed in the background.
// - Pages go to the network; when it fails (or is silent for PATIENCE_MS and a copy is kept), the last copy
//   of that same page, marked as not live with the time it was kept (not-live.js shows it), else a page
//   saying plainly that the server cannot be reached (never another page under this URL).
// - A game's pages (referee board, map, fire plan, the lookup in a game), the map's state (the game's
//   /state and /units) and its cards (a stand's head, the chooser, a template's card) are kept PER SEAT: a game page names its seat in <meta name="firestep-seat"> (game,
//   role and a digest of the token: no secret), and its copies go to that seat's cache only. There is one
//   seat cache at a time: a page of another seat, a request that may seat it (SEATING), or a game
//   page refusing the device (its seat withdrawn) drops the others, so no seat is ever shown another's view.
// - The lookup asks the worker to keep its page, the start page and its period's playsheet tables
//   (/lookup/sheets/...), which lookup-offline.js shows when the server cannot be reached; a game page asks
//   it to keep the page again when its board changed (keep-page.js).
// - Every other API request and every write always go to the network; the outbox (outbox.js) keeps a write
//   that gets no answer and sends it again with its Idempotency-Key.
const VERSION = "firestep-v6";
const SEAT = "firestep-seat:"; // + the seat's name: that seat's kept pages and state
const PATIENCE_MS = 6000;
const SEAT_PAGES_KEPT = 80;
const SAVED_AT = "X-Firestep-Saved-At";
const SHELL = [
  "/static/css/app.css",
  "/static/css/night.css",
  "/static/css/lookup.css",
  "/static/vendor/htmx.min.js",
  "/static/js/dom.js",
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
  "/static/js/table-drawing.js",
  "/static/js/table-map.js",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/manifest.webmanifest",
];
const OFFLINE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · firestep</title></head>
<body style="font-family: system-ui, sans-serif; margin: 2rem; line-height: 1.5; color: #1a1a1a; background: #f3f0e8">
<main><h1>The server cannot be reached</h1>
<p>This device has no copy of this page. Check the wifi, then try again.</p>
<p><a href="/lookup" style="display: inline-block; padding: .75rem 1rem; border: 2px solid #1f4d3a; border-radius: 10px; color: #1f4d3a">Open the lookup and your playsheet</a></p>
</main></body></html>`;

// Pages kept per seat (when they name one), pages kept for every seat alike, and the map's state.
const SEAT_PAGES = /^\/(games\/\d+\/(referee|map|fire-plan)|lookup(\/(?!sheets\/).*)?)$/;
const SHARED_PAGES = /^\/(lookup(\/(?!sheets\/).*)?)?$/; // the start page and the free lookup
const GAME_STATE = /^\/api\/v1\/games\/(\d+)\/(state|units)$/;
// The map's own cards of a seat (app/pages/map_cards.py: a stand's head, the chooser, a template's card, the
// turn's chip), kept as the state is: the last copy of each shows while the server cannot be reached.
const MAP_CARDS = /^\/games\/(\d+)\/map\/(units\/\d+\/head|templates\/\d+\/card|choose|turn)$/;
// Every request that may seat this device elsewhere: joining by code or by a join card, an organiser taking a
// table's referee seat, creating a game or a campaign, a campaign battle's "Fight this battle" and "Play"
// buttons, and their APIs
// (tests/frontend/test_sw_seats.py holds it to every route that sets a seat cookie).
const SEATING = /^\/(join|games\/new|games\/\d+\/join\/[^/]+|events\/rekey|events\/\d+\/tables\/\d+\/referee|campaigns\/(new|join|\d+\/table-battle|\d+\/table-battles\/[^/]+\/play)|api\/v1\/(join|campaigns\/join|campaigns\/\d+\/table-battles\/[^/]+\/seat))\/?$/;
const SEAT_META = /<meta name="firestep-seat" content="([A-Za-z0-9_-]{1,100})">/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION && !k.startsWith(SEAT)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// -- the seat ------------------------------------------------------------------------------------------------
// Changes to the seat caches run one after another, so "drop the others, then keep this" is never interleaved.
let seatWork = Promise.resolve();
const serially = (work) => {
  seatWork = seatWork.catch(() => null).then(work);
  return seatWork;
};
const seatCacheNames = () => caches.keys().then((keys) => keys.filter((k) => k.startsWith(SEAT)));
// The seat whose copies are kept: the one seat cache there is (none after a join or a refusal).
const currentSeat = () => seatCacheNames().then((names) => (names.length === 1 ? names[0].slice(SEAT.length) : null));
const forgetSeatsBut = (seat) =>
  seatCacheNames().then((names) => Promise.all(names.filter((n) => n !== SEAT + seat).map((n) => caches.delete(n))));
const seatCache = (seat) => serially(() => forgetSeatsBut(seat).then(() => caches.open(SEAT + seat)));
const gameOf = (seat) => (seat ? seat.split("-")[0] : null);

// -- keeping copies --------------------------------------------------------------------------------------------
const keepable = (response) => response.ok && !/no-store/i.test(response.headers.get("Cache-Control") || "");
const stamped = (body, response) => {
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT, String(Date.now()));
  headers.delete("Content-Length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
};

// A page: under the seat it names, or (the start page and the free lookup) for every seat; nothing else.
const keepPage = async (url, html, response) => {
  const path = url.pathname;
  const seat = (SEAT_META.exec(html) || [])[1];
  const key = url.href;
  if (seat && SEAT_PAGES.test(path)) {
    const cache = await seatCache(seat);
    await cache.put(key, stamped(html, response));
    // Each unit's lookup is a page of its own: the oldest copies go past SEAT_PAGES_KEPT.
    const keys = await cache.keys();
    await Promise.all(keys.slice(0, Math.max(0, keys.length - SEAT_PAGES_KEPT)).map((k) => cache.delete(k)));
  } else if (!seat && SHARED_PAGES.test(path) && !url.searchParams.has("game")) {
    await (await caches.open(VERSION)).put(key, stamped(html, response));
    const held = await currentSeat(); // an older copy of this URL as a seat's page would hide this one
    if (held) await (await caches.open(SEAT + held)).delete(key);
  }
};
const kept = (url) => SEAT_PAGES.test(url.pathname) || SHARED_PAGES.test(url.pathname);

const keptCopy = async (url) => {
  const seat = await currentSeat();
  const mine = seat ? await (await caches.open(SEAT + seat)).match(url.href, { ignoreVary: true }) : null;
  return mine || (await caches.open(VERSION)).match(url.href, { ignoreVary: true });
};

const savedAt = (response) => Number(response.headers.get(SAVED_AT)) || 0;

// A kept page, told that it is not live: not-live.js reads the time from the meta tag.
const notLivePage = async (hit) => {
  const html = (await hit.text()).replace("<head>", `<head><meta name="firestep-saved-at" content="${savedAt(hit)}">`);
  const headers = new Headers(hit.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
};

// The network's answer, or after PATIENCE_MS the kept copy if there is one (the network's answer still
// refreshes the copy when it comes).
const patiently = (fetching, copy) =>
  new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      copy().then((hit) => {
        if (hit && !settled) { settled = true; resolve({ hit }); }
      });
    }, PATIENCE_MS);
    fetching.then(
      (response) => { clearTimeout(timer); if (!settled) { settled = true; resolve({ response }); } },
      (err) => { clearTimeout(timer); if (!settled) { settled = true; reject(err); } },
    );
  });

const page = async (event) => {
  const url = new URL(event.request.url);
  const answered = async (response) => {
    if (keepable(response) && kept(url)) {
      // Kept before the page is handed over, so its own requests (the map's state) already know its seat.
      const html = await response.text();
      await keepPage(url, html, response).catch(() => null);
      return new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    // The game of the kept seat refusing this device: its seat was withdrawn or taken back, and so are its copies.
    const game = (/^\/games\/(\d+)\//.exec(url.pathname) || [])[1] || url.searchParams.get("game");
    if ((response.status === 401 || response.status === 403) && SEAT_PAGES.test(url.pathname)
        && game && gameOf(await currentSeat()) === game) {
      await serially(() => forgetSeatsBut(null));
    }
    return response;
  };
  const fetching = fetch(event.request).then(answered);
  event.waitUntil(fetching.catch(() => null));
  try {
    const { response, hit } = await patiently(fetching, () => keptCopy(url));
    return response || notLivePage(hit);
  } catch (err) {
    const hit = await keptCopy(url);
    if (hit) return notLivePage(hit);
    return new Response(OFFLINE_PAGE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
};

// The map's state of the seat's own game: from the network, else the kept copy, and the page is told so.
const gameState = async (event, game) => {
  const url = new URL(event.request.url);
  const tell = (hit) =>
    self.clients.get(event.clientId).then((client) => client && client.postMessage({ type: "not-live", savedAt: savedAt(hit) }));
  const copy = async () => {
    const seat = await currentSeat();
    if (gameOf(seat) !== game) return null;
    return (await caches.open(SEAT + seat)).match(url.href, { ignoreVary: true });
  };
  const fetching = fetch(event.request);
  event.waitUntil(fetching.then(async (response) => {
    if (!response.ok) return;
    const copy = response.clone(); // now, before the page reads the body
    const seat = await currentSeat();
    if (gameOf(seat) === game) await (await caches.open(SEAT + seat)).put(url.href, stamped(await copy.blob(), copy));
  }).catch(() => null));
  try {
    const { response, hit } = await patiently(fetching, copy);
    if (response) return response;
    await tell(hit);
    return hit;
  } catch (err) {
    const hit = await copy();
    if (!hit) throw err;
    await tell(hit);
    return hit;
  }
};

// -- messages from the pages ---------------------------------------------------------------------------------
// Only the lookup's own pages and sheets and a game's pages, on this origin, may be kept at a page's request.
const KEEPABLE = /^\/(lookup(\/|$|\?)|games\/\d+\/(referee|map|fire-plan)(\?|$))/;

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .slice(0, 8)
    .map((u) => new URL(String(u), self.location.origin))
    .filter((u) => u.origin === self.location.origin && KEEPABLE.test(u.pathname + u.search));
  event.waitUntil(
    Promise.all(urls.map((u) => fetch(u, { credentials: "same-origin", headers: { Purpose: "prefetch" } })
      .then((response) => {
        if (!keepable(response)) return null;
        if (u.pathname.startsWith("/lookup/sheets/")) return caches.open(VERSION).then((cache) => cache.put(u, response));
        return response.text().then((html) => keepPage(u, html, response));
      })
      .catch(() => null))),
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
    .catch(() => caches.open(VERSION).then((cache) => cache.match(request)).then((hit) => hit || fallback()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // A request that may change this device's seat: every seat's copies go (the new seat's pages are kept
    // anew), whichever way it came (a path without "join" in it too: the campaign battle's Play button).
    if (SEATING.test(url.pathname)) event.waitUntil(serially(() => forgetSeatsBut(null)));
    return;
  }
  const state = GAME_STATE.exec(url.pathname) || MAP_CARDS.exec(url.pathname);
  if (state) {
    event.respondWith(gameState(event, state[1]));
    return;
  }
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
  if (request.mode === "navigate") event.respondWith(page(event));
});
