// The game's terrain (the key showing only its kinds) and what the rule set draws of its board, labelled,
// drawn from the live model (table-model.js) as the state is read and as the map turns to fit the screen.
(() => {
  const m = window.firestepMap;
  if (!m) return;
  const { layers, toLL, circle, drawIn } = m;
  const { ringsOf } = window.firestepTableDrawing;

  const drawTerrain = () => {
    layers.terrain.clearLayers();
    const present = new Set();
    for (const f of m.model.terrain.features || []) {
      const kind = (f.properties && f.properties.kind) || "feature";
      const geom = f.geometry || {};
      present.add(kind);
      for (const rings of ringsOf(geom)) {
        L.polygon(rings.map((ring) => ring.map(toLL)), { ...drawIn("terrain"), className: `terrain terrain-${kind}`, interactive: false }).addTo(layers.terrain);
      }
      if (geom.type === "LineString") {
        L.polyline(geom.coordinates.map(toLL), { ...drawIn("terrain"), className: `terrain line terrain-${kind}`, interactive: false }).addTo(layers.terrain);
      }
    }
    document.querySelectorAll("[data-legend-kind]").forEach((li) => { li.hidden = !present.has(li.dataset.legendKind); });
  };

  // The rule set's board (GameState.board_drawn): polygons, or points with a radius, each styled, labelled
  // with its zone; each label on its thing, else at the nearest spot clear of stands and labels.
  let tips = [];
  const placeLabels = () => {
    const taken = m.standBoxes().map((s) => s.r);
    for (const tip of tips) {
      tip.options.offset = L.point(0, 0);
      tip.update();
      const el = tip.getElement();
      if (!el) continue;
      const r = m.boxOf(el);
      const c = { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
      const [w, hi] = [r.right - r.left, r.bottom - r.top];
      const spot = m.isClear(taken, r) ? null : m.clearSpot(taken, c, { x: 0, y: 0 }, w, hi, [24, 48, 96, 160]);
      const at = spot ? spot.r : r;
      // Inside the table at every size (and on the screen): moved in by what runs over an edge.
      const t = m.tableBox();
      const size = m.leaflet.getSize();
      const edge = { left: Math.max(0, t.left), right: Math.min(size.x, t.right), top: Math.max(0, t.top), bottom: Math.min(size.y, t.bottom) };
      const inX = at.left < edge.left ? edge.left - at.left : at.right > edge.right ? Math.max(edge.left - at.left, edge.right - at.right) : 0;
      const inY = at.top < edge.top ? edge.top - at.top : at.bottom > edge.bottom ? Math.max(edge.top - at.top, edge.bottom - at.bottom) : 0;
      taken.push({ left: at.left + inX, right: at.right + inX, top: at.top + inY, bottom: at.bottom + inY });
      if (spot || inX || inY) {
        tip.options.offset = L.point((spot ? spot.x - c.x : 0) + inX, (spot ? spot.y - c.y : 0) + inY);
        tip.update();
      }
    }
  };
  const drawBoard = () => {
    layers.board.clearLayers();
    tips = [];
    const draw = (d) => {
      const latlngs = d.point ? circle(d.point, d.radius_cm) : d.polygon.map(toLL);
      const layer = L.polygon(latlngs, { ...drawIn("board"), className: d.point ? `${d.style} point` : d.style, interactive: false }).addTo(layers.board);
      // Labelled on the table like the templates: a finger gets no hover. Its words escaped, never markup.
      layer.bindTooltip(m.escapeHtml(d.label), { className: "board-label", direction: "center", permanent: true, opacity: 1 });
      tips.push(layer.getTooltip());
      (d.zone || []).forEach(draw);
    };
    const drawn = m.model.board.drawn;
    drawn.forEach(draw);
    m.root.dataset.boardItems = String(drawn.length);
    placeLabels();
  };

  const redraw = () => { drawTerrain(); drawBoard(); };
  window.addEventListener("firestep:map-redraw", redraw);
  m.model.listen((what) => { if (what.board && !what.all) drawBoard(); else placeLabels(); });
  m.leaflet.on("zoomend moveend", placeLabels);
  redraw();
})();
