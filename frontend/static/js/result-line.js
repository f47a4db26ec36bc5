// The result line (a map frame's `result`, the server's) swapped in as the game ends; a frame's `notice` (the
// referee now plays another reading) told, and each answer asked before it (data-as-of) marked stale.
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
