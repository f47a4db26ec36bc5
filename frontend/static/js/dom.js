// The helpers the page scripts share, written once: `humanise` says an identifier in words (as
// app/pages/templates.py does); `partOf` parses a part the server drew to its first element; `readText` reads
// a part's markup, `read` the part; `draw` puts one in `el` keeping the pieces equal to the old (a finger or
// the focus on them stays); `escapeHtml` makes words safe in Leaflet's markup. No script builds an element.
(() => {
  const humanise = (s) => (s === "sos" ? "SOS" : String(s || "").replace(/[-_]/g, " ").replace(/^./, (c) => c.toUpperCase()));
  const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const partOf = (html) => document.createRange().createContextualFragment(html).firstElementChild;
  // A part's markup read as htmx would (past the HTTP cache), or an Error with the status (0: none) and body.
  const readText = async (url) => {
    const r = await fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" }).catch(() => null);
    const text = r ? await r.text().catch(() => "") : "";
    if (r?.ok && text) return text;
    throw Object.assign(new Error("not read"), { status: r ? r.status : 0, text });
  };
  // A part read to its first element, or null; `failed` hears the status and body.
  const read = async (url, failed) => {
    const [part, status, text] = await readText(url).then((t) => [partOf(t), 200, t], (e) => [null, e.status, e.text]);
    if (!part && failed) failed(status, text);
    return part;
  };
  const draw = (el, part) => {
    const fresh = part ? [...part.childNodes] : [], old = [...el.childNodes];
    if (fresh.length !== old.length) { el.replaceChildren(...fresh); return; }
    fresh.forEach((node, i) => { if (!old[i].isEqualNode(node)) old[i].replaceWith(node); });
  };
  // A form's refusal (a 4xx naming its field, in the server's words) swapped into a target that says them.
  document.body.addEventListener("htmx:beforeSwap", ({ detail: d }) => {
    if (d.target?.matches("[data-says-refusals]") && d.xhr.status < 500) Object.assign(d, { shouldSwap: true, isError: false });
  });
  // A hidden field sent with its form as a copy of a field of another (the organiser key typed once: Save, Start).
  document.addEventListener("submit", (e) => e.target.querySelectorAll("[data-copy-of]").forEach((i) => { i.value = document.getElementById(i.dataset.copyOf)?.value || ""; }));
  window.firestepDom = Object.freeze({ humanise, partOf, readText, read, draw, escapeHtml });
})();
