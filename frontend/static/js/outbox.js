// The outbox: send(url, { method, body }) resolves to { ok, status, data, queued } (a refusal's words its
// data's `said`), each write with the CSRF token and its own Idempotency-Key (app/guard/idempotency.py: a
// write that arrived acts once). With no answer it is kept in localStorage and sent again, oldest first, when
// the connection is back, a later request gets through, or on the next page. A tap is sent only from a page
// of the seat that made it (<meta name="firestep-seat">); another seat of the same game drops it and says so.
(() => {
  const STORE = "firestep-outbox";
  const MAX_WAITING = 200;
  const RETRY_MS = 10000;
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content || "";
  const seatNow = () => document.querySelector('meta[name="firestep-seat"]')?.content || "";
  const gameOf = (seat) => String(seat || "").split("-")[0];
  const mine = (item) => !item.seat || item.seat === seatNow();
  // Made as another seat of the game this page is of: that seat is no longer this device's.
  const orphaned = (item) => item.seat && seatNow() && item.seat !== seatNow() && gameOf(item.seat) === gameOf(seatNow());
  // One message about the connection and what waits for it.
  const notice = (text, good) => window.firestepNotice?.(text, good, { key: "connection" });
  const taps = (n) => (n === 1 ? "1 tap" : `${n} taps`);
  const were = (n) => (n === 1 ? "was" : "were");

  // crypto.randomUUID needs a secure context; a tablet on the club's wifi reaches the server over plain http.
  const newKey = () => {
    if (window.crypto?.randomUUID) return window.crypto.randomUUID();
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  const load = () => {
    let queue = [];
    try { queue = JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { /* unreadable: none */ }
    return Array.isArray(queue) ? queue : [];
  };
  const save = (queue) => {
    try { localStorage.setItem(STORE, JSON.stringify(queue)); } catch (err) { /* storage full or blocked */ }
  };

  // The write sent: its answer, or a rejection where none came (kept then).
  const post = async ({ url, method, body, key }) => {
    const json = "application/json";
    const headers = { "Content-Type": json, Accept: json, "X-CSRFToken": csrf(), "Idempotency-Key": key };
    const r = await fetch(url, { method, headers, credentials: "same-origin", body });
    return { ok: r.ok, status: r.status, data: await r.json().catch(() => null), queued: false };
  };
  const unsent = (queued) => ({ ok: false, status: 0, data: null, queued });

  let retry = null;
  const waiting = () => {
    const n = load().filter(mine).length;
    if (n) notice(`No connection: ${taps(n)} kept on this device, to be sent when the connection is back.`);
    clearTimeout(retry);
    if (n) retry = setTimeout(flush, RETRY_MS);
  };

  const keep = (item) => {
    const queue = load();
    if (queue.length >= MAX_WAITING) {
      notice(`No connection, and ${taps(queue.length)} are already waiting: this one was not kept. Wait for the connection.`);
      return unsent(false);
    }
    save([...queue, item]);
    waiting();
    return unsent(true);
  };

  // Send what is waiting, oldest first; stop at the first that still gets no answer.
  let flushing = null;
  const flush = () => {
    if (!flushing) flushing = sendWaiting().finally(() => { flushing = null; });
    return flushing;
  };
  const sendWaiting = async () => {
    const gone = load().filter(orphaned);
    if (gone.length) {
      save(load().filter((q) => !orphaned(q)));
      notice(`${taps(gone.length)} made as another seat of this game ${were(gone.length)} not sent: this device has changed seat.`, false);
    }
    if (!navigator.onLine || !load().some(mine)) return;
    let sent = 0;
    const refused = [];
    for (;;) {
      const item = load().find(mine);
      if (!item) break;
      const result = await post(item).catch(() => null);
      if (!result) break; // still no answer: keep it and everything after it
      // The same key is still being answered (an earlier try of this very tap): ask again later.
      if (result.status === 409 && !result.data?.current && result.data?.field === "Idempotency-Key") break;
      save(load().filter((q) => q.key !== item.key));
      // Carried out before the server stopped, its answer lost: made, not refused.
      if (result.ok || result.data?.carried_out) sent += 1;
      else refused.push(window.firestepExplain ? window.firestepExplain(result.status, result.data) : "");
    }
    if (load().some(mine)) {
      waiting();
    } else if (refused.length) {
      // One sentence of at most 120 characters (app/errors.py), in the place of the "kept" notice: the
      // refusal's own, naming the act and its rule, led by what became of the kept tap where that fits.
      const late = `Not done when sent – ${refused[0].charAt(0).toLowerCase()}${refused[0].slice(1)}`;
      notice(late.length <= 120 ? late : refused[0], false);
    } else if (sent) {
      notice(`Connection back: ${taps(sent)} made without a connection ${were(sent)} sent.`, true);
    }
    if (sent || refused.length) document.dispatchEvent(new CustomEvent("firestep:refresh"));
  };

  const send = async (url, { method = "POST", body = "{}" } = {}) => {
    const item = { url, method, body: typeof body === "string" ? body : JSON.stringify(body), key: newKey(), at: Date.now(), seat: seatNow() };
    if (!navigator.onLine) return keep(item);
    if (load().some(mine)) {
      await flush(); // earlier taps first
      if (load().some(mine)) return keep(item);
    }
    return post(item).catch(() => keep(item));
  };

  window.firestepOutbox = { send, flush, waiting: () => load().length };
  window.addEventListener("online", flush);
  if (load().length) {
    if (load().some(mine)) waiting();
    flush(); // and drops what another seat of this game made
  }
})();
