// The result line (a map frame's `result`) swapped in as the game ends; a frame's `notice` (a new reading)
// told, answers asked before it marked stale (data-as-of), the lookup's open one re-asked (data-reasked-by).
(() => {
  document.addEventListener("firestep:event", (ev) => {
    const told = ev.detail?.notice, form = document.querySelector("[data-lookup-form]");
    if (told && window.firestepNotice) window.firestepNotice(told, true, { key: "reading" });
    if (told) document.querySelectorAll("[data-play-reading-line]").forEach((p) => { if (!(Number(p.dataset.asOf) >= ev.detail.id)) p.dataset.stale = told; });
    const by = told && form?.querySelector("[data-stale]") && form.querySelector("[data-reasked-by]");
    if (by) { by.value = String(ev.detail.id); window.htmx.trigger(form, "change"); }
    const html = ev.detail && ev.detail.result;
    const line = document.querySelector("[data-result-line]");
    if (typeof html !== "string" || !line) return;
    const next = document.createRange().createContextualFragment(html).querySelector("[data-result-line]");
    if (next) line.replaceWith(next);
  });
})();
