// A finished game's result line (frontend/templates/_result_line.html), rendered by the server and pushed in a
// map frame's `result` part (app.routes.events): swapped in as the game ends, on every page already open.
(() => {
  document.addEventListener("firestep:event", (ev) => {
    const html = ev.detail && ev.detail.result;
    const line = document.querySelector("[data-result-line]");
    if (typeof html !== "string" || !line) return;
    const next = document.createRange().createContextualFragment(html).querySelector("[data-result-line]");
    if (next) line.replaceWith(next);
  });
})();
