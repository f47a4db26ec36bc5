// A finished game's result line (_result_line.html), rendered by the server and pushed in a map frame's
// `result` part (app.routes.events): swapped in as the game ends, on every page open. A frame's `notice` (the
// referee now plays another reading) is told, and an answer read by the old one marked (asked after it,
// data-as-of: it stands).
(() => {
  document.addEventListener("firestep:event", (ev) => {
    const told = ev.detail && ev.detail.notice;
    if (told && window.firestepNotice) window.firestepNotice(told, true, { key: "reading" });
    if (told) document.querySelectorAll("[data-play-reading-line]").forEach((p) => { if (!(Number(p.dataset.asOf) >= ev.detail.id)) p.dataset.stale = told; });
    const html = ev.detail && ev.detail.result;
    const line = document.querySelector("[data-result-line]");
    if (typeof html !== "string" || !line) return;
    const next = document.createRange().createContextualFragment(html).querySelector("[data-result-line]");
    if (next) line.replaceWith(next);
  });
})();
