// What the game itself has on the table map: the terrain (with the key showing only the kinds this table has)
// and the board's arrived fire-plan fire, gas clouds and rolling barrages with their danger zones, each
// labelled. Drawn from the live model (table-model.js) whenever the state is read, and again when the map
// turns to fit the screen.
(() => {
  const start = () => {
    const m = window.firestepMap;
    if (!m) return;
    const { layers, sizes, toLL, rect, circle, W, LEN, humanise, drawIn } = m;

    const drawTerrain = () => {
      layers.terrain.clearLayers();
      const present = new Set();
      for (const f of m.model.terrain.features || []) {
        const kind = (f.properties && f.properties.kind) || "feature";
        const geom = f.geometry || {};
        present.add(kind);
        const polys = geom.type === "Polygon" ? [geom.coordinates] : geom.type === "MultiPolygon" ? geom.coordinates : [];
        for (const rings of polys) {
          L.polygon(rings.map((ring) => ring.map(toLL)), { ...drawIn("terrain"), className: `terrain terrain-${kind}`, interactive: false }).addTo(layers.terrain);
        }
        if (geom.type === "LineString") {
          L.polyline(geom.coordinates.map(toLL), { ...drawIn("terrain"), className: `terrain line terrain-${kind}`, interactive: false }).addTo(layers.terrain);
        }
      }
      document.querySelectorAll("[data-legend-kind]").forEach((li) => { li.hidden = !present.has(li.dataset.legendKind); });
    };

    const drawBoard = () => {
      layers.board.clearLayers();
      const b = m.model.board;
      const item = (latlngs, cls, label) => {
        const layer = L.polygon(latlngs, { ...drawIn("board"), className: cls, interactive: false }).addTo(layers.board);
        // Labelled on the table, as the templates are: a finger gets no hover.
        layer.bindTooltip(label, { className: "board-label", direction: "center", permanent: true, opacity: 1 });
      };
      for (const f of b.fire || []) {
        if (!f.point) continue;
        const label = `${humanise(f.kind)} of the ${f.side}${f.battery ? ` (${f.battery})` : ""}`;
        // Drawn with the template the rule set's kit names for its kind, else by its aiming point.
        const spec = sizes.templates[sizes.item_templates[f.kind]];
        const at = f.lands || f.point; // where its deviation put it, as it arrived
        if (spec) item(rect(at, sizes.ahead[f.side], spec.w, spec.d), "board-fire", label);
        else item(circle(at, 2), "board-fire point", label);
      }
      for (const c of b.clouds || []) {
        const spec = sizes.templates[c.side === "attacker" ? "gas-attacker" : "gas-defender"];
        item(rect(c.center, sizes.ahead[c.side], spec.w, spec.d), "board-gas", `${c.gas ? `${humanise(c.gas)} gas` : "Gas"} cloud of the ${c.side}`);
      }
      const band = (y0, y1, cls, label) => {
        const lo = Math.max(0, Math.min(y0, y1));
        const hi = Math.min(LEN, Math.max(y0, y1));
        if (hi > lo) item([toLL([0, lo]), toLL([W, lo]), toLL([W, hi]), toLL([0, hi])], cls, label);
      };
      for (const br of b.barrages || []) {
        const [lo, hi] = br.covers_y;
        band(lo, hi, "board-barrage", `Rolling barrage of the ${br.side}`);
        // "6 cm" behind its rear edge, on its own side's side of the barrage.
        if (br.side === "attacker") band(lo - sizes.danger_cm, lo, "board-danger", "Its danger zone");
        else band(hi, hi + sizes.danger_cm, "board-danger", "Its danger zone");
      }
      m.root.dataset.boardItems = String((b.fire || []).filter((f) => f.point).length + (b.clouds || []).length + (b.barrages || []).length);
    };

    const redraw = () => { drawTerrain(); drawBoard(); };
    window.addEventListener("firestep:map-redraw", redraw);
    m.model.listen((what) => { if (what.board && !what.all) drawBoard(); });
    redraw();
  };
  if (window.firestepMap) start();
  else window.addEventListener("firestep:map-ready", start, { once: true });
})();
