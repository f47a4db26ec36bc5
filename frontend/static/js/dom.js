// The two helpers the page scripts share, written once (issue 67): `h` builds an element (`text` its text; a key
// with a capital, as htmlFor or maxLength, or a function is set as the element's property; false, null and
// undefined leave the attribute out, true sets it empty), and `humanise` says an identifier in words
// ("gas-cloud" -> "Gas cloud", "sos" -> "SOS"), as the server's (app/pages/templates.py) says its own.
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
  window.firestepDom = Object.freeze({ h, humanise });
})();
