// The helpers the page scripts share, written once: `h` builds an element (`text` its text; a key with a
// capital, as htmlFor or maxLength, or a function is set as the element's property; false, null and undefined
// leave the attribute out, true sets it empty), and `humanise` says an identifier in words ("gas-cloud" ->
// "Gas cloud", "sos" -> "SOS"), as the server's (app/pages/templates.py) says its own; `partOf` parses a part
// the server drew (HTML) to its first element, its siblings beside it in the fragment; `draw` puts a part the
// server drew into `el`, each of its pieces the same as before kept as it is (a row of dice not tapped, a
// "Why?" opened): a finger on it, or the focus, is not lost to a redraw of the same thing. `escapeHtml` makes
// words safe inside the markup Leaflet's icons take (a stand's name on its label).
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
  const draw = (el, part) => {
    const fresh = part ? [...part.childNodes] : [], old = [...el.childNodes];
    if (fresh.length !== old.length) { el.replaceChildren(...fresh); return; }
    fresh.forEach((node, i) => { if (!old[i].isEqualNode(node)) old[i].replaceWith(node); });
  };
  window.firestepDom = Object.freeze({ h, humanise, partOf, draw, escapeHtml });
})();
