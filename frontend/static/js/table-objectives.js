// The scenario's objectives on the table map, drawn anew from the server's cards (data-geometry and a label
// <template>) whenever game-score.js swaps them. Its holder shows in its edge's colour and pattern and its
// label's shape (map.css); the label sits a finger's reach clear of every stand and off the other labels
// (else left out until there is room). A tap on it opens its card (the stands on it named by the server).
(() => {
  const m = window.firestepMap;
  if (!m) return;
  const { leaflet: map, toLL, pointObjective } = m;
  const { ringsOf, centreOf } = window.firestepTableDrawing; // as the editor draws them (table-drawing.js)
  map.createPane("objectives").style.zIndex = "365";
  map.createPane("objective-labels").style.zIndex = "389";
  const renderer = L.svg({ pane: "objectives", padding: 0.5 });
  const shapes = L.layerGroup().addTo(map);
  const labels = L.layerGroup().addTo(map);
  const drawn = new Map(); // objective id -> { o, shape, label, at }
  let shown = null; // the objective whose card is open
  const draw = () => {
    shapes.clearLayers();
    labels.clearLayers();
    drawn.clear();
    for (const part of document.querySelectorAll("[data-objective-cards] [data-objective-card][data-geometry]")) {
      const id = part.dataset.objectiveCard;
      const g = JSON.parse(part.dataset.geometry);
      const cls = `objective ${part.dataset.holderClass}${g.type === "Point" ? " point" : ""}`;
      const latlngs = g.type === "Point" ? [pointObjective(g.coordinates)] : ringsOf(g).map((rings) => rings.map((ring) => ring.map(toLL)));
      const shape = L.polygon(latlngs, { pane: "objectives", renderer, className: cls, interactive: false }).addTo(shapes);
      shape.getElement()?.setAttribute("data-objective-shape", String(id));
      const at = centreOf(g);
      const icon = L.divIcon({ className: `objective-label objective-tag ${part.dataset.holderClass}`, iconSize: null, html: "" });
      const label = L.marker(toLL(at), { pane: "objective-labels", keyboard: true, title: "", icon }).addTo(labels);
      const el = label.getElement();
      if (el) {
        el.replaceChildren(part.querySelector("template[data-objective-label]").content.cloneNode(true));
        // Centred on its place (Leaflet sets no margin for an icon of no given size).
        Object.assign(el.style, { marginLeft: `${-el.offsetWidth / 2}px`, marginTop: `${-el.offsetHeight / 2}px` });
        el.setAttribute("role", "button");
        Object.assign(el.dataset, { objective: id, holder: part.dataset.holder, contested: part.dataset.contested });
      }
      label.on("click", () => openCard(id));
      label.on("keypress", (e) => { if (e.originalEvent.key === "Enter" || e.originalEvent.key === " ") openCard(id); });
      drawn.set(id, { shape, label, at });
    }
    place();
  };
  // Each label beside its objective where it covers no stand and no other label; on the screen.
  const FINGER = 22; // a tap this near a stand picks it (table-map.js HIT_PX): no label within it
  const place = () => {
    const taken = m.standBoxes().map((s) => m.grow(s.r, FINGER));
    // The board's own labels (table-board.js, placed first on the same events) are kept clear of too.
    taken.push(...[...map.getContainer().querySelectorAll(".leaflet-tooltip.board-label")].map((t) => m.boxOf(t)));
    for (const { label, at, shape } of drawn.values()) {
      label.setLatLng(toLL(at));
      const el = label.getElement();
      if (!el) continue;
      const c = m.screenPoint(at);
      // Beside its point or area (below it first), so that the holder's colour and pattern stay in sight.
      const b = shape.getElement()?.getBoundingClientRect();
      const half = b ? { x: b.width / 2, y: b.height / 2 } : { x: 0, y: 0 };
      const spot = m.clearSpot(taken, c, half, el.offsetWidth, el.offsetHeight, [4, 24, 48, 96]);
      // Nowhere clear (zoomed out over a crowd): left out until there is room, as a stand's label is.
      el.style.visibility = spot ? "" : "hidden";
      if (!spot) continue;
      taken.push(spot.r);
      label.setLatLng(map.containerPointToLatLng([spot.x, spot.y]));
    }
  };

  const card = m.section("objective");
  const fill = () => {
    const server = document.querySelector(`[data-objective-cards] [data-objective-card="${CSS.escape(String(shown))}"]`);
    if (!drawn.has(shown) || !card || !server) return;
    card.replaceChildren(...server.cloneNode(true).childNodes);
    window.htmx?.process(card);
  };
  const openCard = (id) => { shown = id; fill(); m.showPanel("objective"); };

  // The cards read anew (game-score.js): the objectives drawn from them, and the one open shows it.
  document.addEventListener("firestep:score", () => { draw(); if (shown !== null && m.root.dataset.shows === "objective") fill(); });
  window.addEventListener("firestep:map-redraw", draw); // the map turned to fit the screen
  m.model.listen(() => place());
  map.on("zoomend moveend", place);
  draw();
})();
