// The helpers the page scripts share, written once: `h` builds an element (`text` its text; a key with a
// capital, or a function, set as a property; false, null, undefined leave the attribute out, true sets it
// empty); `humanise` says an identifier in words, as app/pages/templates.py does; `partOf` parses a part the
// server drew to its first element, `read` fetches one, `draw` puts one in `el` keeping the pieces equal to
// the old (a finger or the focus on them stays); `escapeHtml` makes words safe in Leaflet's icon markup.
(() => {
  const h = (tag, attrs = {}, ...kids) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined) continue;
      if (k === "text") node.textContent = v;
      else if (/[A-Z]/.test(k) || typeof v === "function") node[k] = v;
      else if (v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    kids.flat().forEach((kid) => kid && node.append(kid));
    return node;
  };
  const humanise = (s) => (s === "sos" ? "SOS" : String(s || "").replace(/[-_]/g, " ").replace(/^./, (c) => c.toUpperCase()));
  const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const partOf = (html) => document.createRange().createContextualFragment(html).firstElementChild;
  // A part read as htmx would (past the HTTP cache), or null; `failed` hears the status (0: none) and body.
  const read = async (url, failed) => {
    const r = await fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" }).catch(() => null);
    const text = r ? await r.text().catch(() => "") : "";
    const part = r?.ok && text ? partOf(text) : null;
    if (!part && failed) failed(r ? r.status : 0, text);
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
  window.firestepDom = Object.freeze({ h, humanise, partOf, read, draw, escapeHtml });
})();
