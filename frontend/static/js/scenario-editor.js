// The scenario editor's table and terrain: the table drawn to scale in table-map.js's orientation, its
// grid and deployment zones, and the terrain drawn, reshaped, moved and deleted with leaflet-geoman. Each
// change is posted whole; the server judges each piece (app.pages.scenario_terrain) and answers the list of
// pieces, or the first piece's problem in a sentence: the terrain is then drawn as the server last took it.
(() => {
  const { humanise } = window.firestepDom;
  const root = document.querySelector("[data-scenario-editor]");
  const canvas = document.querySelector("[data-scn-canvas]");
  if (!root || !canvas || !window.L || !L.PM || !window.firestepTableDrawing) return;
  const { createMap, addPanes, frame, corners } = window.firestepTableDrawing;
  const data = JSON.parse(document.getElementById("scn-data").textContent);
  const form = root.querySelector("[data-scn-form]");
  const kinds = new Map(data.kinds.map((k) => [k.kind, k]));
  const say = (text, good = false) => window.firestepNotice?.(text, good, { key: "editor" });
  const listeners = [];
  // Unsaved: a change made here (a redraw of what the server holds is none); a draft kept is, from the page.
  const changed = (what) => { if (!what.all) root.dataset.dirty = "1"; listeners.forEach((fn) => fn(what)); };

  // The document the table is drawn from is the server's (this browser's draft, the scenario as saved, or a
  // game's table): its particulars come back with each post's answer, its drawings are posted as they change.
  let doc = JSON.parse(document.querySelector("#scn-doc, #scn-game-doc").textContent);
  doc.terrain ||= { type: "FeatureCollection", features: [] };
  for (const side of ["attacker", "defender"]) doc.sides[side] = { deployment_zone: null, forces: [], ...doc.sides[side] };
  const standsOf = (u) => [...(u.base ? [u] : []), ...(u.children || []).flatMap(standsOf)];
  const W = () => doc.table.width_cm;
  const LEN = () => doc.table.length_cm;
  const onTable = ([x, y]) => x >= 0 && y >= 0 && x <= W() && y <= LEN();

  const landscape = canvas.clientWidth >= canvas.clientHeight;
  const round = (v) => Math.round(v * 10) / 10;
  const map = createMap(canvas);
  const table = frame(map, { width: W, length: LEN, landscape: () => landscape });
  const { toLL, fromLL } = table;
  const PANES = { cloth: 350, grid: 355, zones: 358, stands: 640 };
  addPanes(map, PANES);
  map.getPane("grid").style.pointerEvents = "none";
  map.getPane("zones").style.pointerEvents = "none";
  const layers = {
    cloth: L.layerGroup().addTo(map), grid: L.layerGroup().addTo(map), zones: L.layerGroup().addTo(map),
    terrain: L.featureGroup().addTo(map), stands: L.layerGroup().addTo(map),
  };
  map.pm.setGlobalOptions({ allowSelfIntersection: false, snappable: false, continueDrawing: false });
  map.pm.setLang("en");

  // Leaflet ignores a zoom asked for while one animates: the zoom buttons' taps add up to a target, and the
  // map goes on to it when the animation ends, so a quick second tap is never lost.
  let zoomTarget = null;
  const zoomBy = (step) => {
    const from = zoomTarget === null ? map.getZoom() : zoomTarget;
    zoomTarget = Math.min(map.getMaxZoom(), Math.max(map.getMinZoom(), from + step));
    map.setZoom(zoomTarget);
  };
  map.on("zoomend", () => {
    const target = zoomTarget;
    zoomTarget = null;
    if (target !== null && Math.abs(map.getZoom() - target) > 1e-9) map.setZoom(target);
  });

  const fitTable = () => table.fit({ padding: [12, 12] }, 0.3);

  const drawTable = () => {
    table.drawCloth(layers.cloth);
    layers.grid.clearLayers();
    const line = (from, to, at) => L.polyline([toLL(from), toLL(to)], {
      pane: "grid", className: at % 50 ? "scn-grid" : "scn-grid major", interactive: false,
    }).addTo(layers.grid);
    for (let x = 10; x < W(); x += 10) line([x, 0], [x, LEN()], x);
    for (let y = 10; y < LEN(); y += 10) line([0, y], [W(), y], y);
    const label = (p, text) => L.marker(toLL(p), {
      pane: "grid", interactive: false, keyboard: false,
      icon: L.divIcon({ className: "scn-grid-label", html: `<span>${text}</span>`, iconSize: null }),
    }).addTo(layers.grid);
    for (let x = 0; x <= W(); x += 10) label([x, 0], x);
    for (let y = 10; y <= LEN(); y += 10) label([0, y], y);
    drawZones();
  };
  const drawZones = () => {
    layers.zones.clearLayers();
    for (const side of ["attacker", "defender"]) {
      const zone = doc.sides[side].deployment_zone;
      if (!zone) continue;
      L.polygon(zone.coordinates[0].map(toLL), { pane: "zones", className: `scn-zone ${side}`, interactive: false }).addTo(layers.zones);
    }
  };

  const pieces = new Map(); // a piece's place in doc.terrain.features (its key in the server's list) -> { feature, layer }
  let selected = null;
  // The click a browser sends at the end of a piece's drag, turn or reshape is not a tap on the table: it is
  // let pass once such a gesture began, until the next press (however long the page took between the two).
  let pieceGesture = false;
  const list = root.querySelector("[data-terrain-list]");
  const kindSelect = root.querySelector("[data-terrain-kind]");
  const breadthInput = root.querySelector("[data-terrain-breadth]");
  const ownerSelect = root.querySelector("[data-terrain-owner]");

  // The kind's card is the server's (app.pages.terrain_kinds, also a drawn piece's); a typical width's tap
  // fills the breadth in, and a kind picked starts at its first.
  const classSelect = root.querySelector("[data-terrain-class]");
  const pressOffers = () => root.querySelectorAll("[data-breadth-offer]").forEach((b) => {
    b.setAttribute("aria-pressed", String(Number(breadthInput.value) === Number(b.dataset.breadthOffer)));
  });
  root.addEventListener("click", (e) => {
    const b = e.target.closest("[data-breadth-offer]");
    if (b) { breadthInput.value = b.dataset.breadthOffer; pressOffers(); }
  });
  breadthInput.addEventListener("input", pressOffers);
  root.addEventListener("htmx:load", pressOffers);
  kindSelect.addEventListener("change", () => {
    const { widths } = kinds.get(kindSelect.value);
    if (widths.length) breadthInput.value = String(widths[0].cm);
  });

  const geometryOf = (layer) => {
    if (layer instanceof L.Polygon) {
      const ring = layer.getLatLngs()[0].map((ll) => fromLL(ll).map(round));
      return { type: "Polygon", coordinates: [[...ring, ring[0]]] };
    }
    return { type: "LineString", coordinates: layer.getLatLngs().map((ll) => fromLL(ll).map(round)) };
  };
  const latLngsOf = (geometry) => (geometry.type === "Polygon"
    ? [geometry.coordinates[0].slice(0, -1).map(toLL)] : geometry.coordinates.map(toLL));

  // Its class also as its option: a piece added before the map has its first view is drawn later, with it.
  const styleLayer = (layer, kind) => {
    layer.options.className = `terrain terrain-${kind}${layer instanceof L.Polygon ? "" : " line"}${selected && pieces.get(selected)?.layer === layer ? " scn-selected" : ""}`;
    layer.getElement()?.setAttribute("class", `leaflet-interactive ${layer.options.className}`);
  };
  // A piece's name is the server's list's (its own, else its kind's and its number).
  const nameOf = (key) => list.querySelector(`[data-piece="${key}"]`)?.textContent || "";
  const pressList = () => list.querySelectorAll("[data-piece]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.piece === selected)));

  const addPiece = (feature, key) => {
    const { type } = feature.geometry;
    if (type !== "Polygon" && type !== "LineString") return;
    const layer = (type === "Polygon" ? L.polygon : L.polyline)(latLngsOf(feature.geometry)).addTo(layers.terrain);
    pieces.set(key, { feature, layer });
    styleLayer(layer, feature.properties.kind);
    layer.on("pm:edit pm:dragend pm:rotateend", () => { feature.geometry = geometryOf(layer); changed({ terrain: key }); });
    layer.on("pm:dragstart pm:rotatestart pm:markerdragstart", () => { pieceGesture = true; });
    layer.on("click", (e) => {
      if (tapHandler && tapHandler(e.latlng)) return;
      if (selected !== key) select(key); // a tap on the piece edited keeps its tool
    });
  };
  const modeLine = root.querySelector("[data-scn-mode]");
  const mode = (text) => { modeLine.textContent = text; modeLine.hidden = !text; };
  let drawing = null;
  const setDrawing = (shape) => {
    drawing = shape;
    root.querySelector("[data-draw-finish]").hidden = !shape || shape === "Rectangle";
    root.querySelector("[data-draw-cancel]").hidden = !shape;
    root.querySelectorAll("[data-draw]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.draw === shape)));
    mode(shape ? `Drawing ${humanise(kindSelect.value).toLowerCase()}: tap ${shape === "Rectangle" ? "two opposite corners" : "each point, then Finish"}.` : "");
  };
  const startDrawing = (shape) => {
    select(null);
    const kind = kindSelect.value;
    if (shape === "Line" && kinds.get(kind).area) { say(`A ${humanise(kind).toLowerCase()} is an area: draw a box or an outline.`); return; }
    if (shape === "Line" && kind !== "wire" && kinds.get(kind).breadth && !(Number(breadthInput.value) > 0)) {
      say(`A ${humanise(kind).toLowerCase()} drawn as a line needs its width in cm: enter it first.`);
      breadthInput.focus();
      return;
    }
    map.pm.disableDraw();
    map.pm.enableDraw(shape, { finishOn: null, pathOptions: { className: `terrain terrain-${kind}` } });
    setDrawing(shape);
  };
  // A piece drawn is the server's to make (its properties from the tools, its id): its answer draws it.
  map.on("pm:create", (e) => {
    if (!drawing) return; // an objective's area (scenario-objectives.js), not terrain
    const add = JSON.stringify(geometryOf(e.layer));
    map.removeLayer(e.layer);
    setDrawing(null);
    root.dataset.dirty = "1";
    keepTerrain({ add, piece_kind: kindSelect.value, breadth: breadthInput.value, owner: ownerSelect.value,
      height: root.querySelector("[data-terrain-height]").value, piece_class: classSelect?.value || "" });
  });
  map.on("pm:drawend", () => { if (drawing) setDrawing(null); });
  map.on("pm:intersect", () => say("That shape would cross itself: draw its outline without crossing."));

  const piecePanel = root.querySelector(".scn-piece[data-piece]");
  const stopEditing = () => {
    for (const { layer } of pieces.values()) {
      if (layer.pm.enabled()) layer.pm.disable();
      if (layer.pm.layerDragEnabled && layer.pm.layerDragEnabled()) layer.pm.disableLayerDrag();
      if (layer.pm.rotateEnabled && layer.pm.rotateEnabled()) layer.pm.disableRotate();
    }
    piecePanel.querySelectorAll("[data-piece-action]").forEach((b) => b.setAttribute("aria-pressed", false));
    pieceMode("");
  };
  // What a pressed Move, Reshape or Turn asks of the hand; cleared only while the mode line still says it.
  const PIECE_HOW = {
    move: "drag it to move it.",
    reshape: "drag a corner to pull it out, or a middle point to add a corner.",
    turn: "drag one of its corners around it to turn it.",
  };
  let pieceSaid = "";
  const pieceMode = (text) => {
    if (!text && modeLine.textContent !== pieceSaid) return;
    pieceSaid = text;
    mode(text);
  };
  const select = (id) => {
    stopEditing();
    selected = id;
    for (const { feature, layer } of pieces.values()) styleLayer(layer, feature.properties.kind);
    piecePanel.hidden = !id;
    if (id) { // its panel the server's, from its properties (app.pages.terrain_kinds)
      const p = pieces.get(id).feature.properties, at = piecePanel.firstElementChild;
      const values = { piece: "true", key: id, name: p.name || "", terrain_kind: p.kind, owner: p.owner || "",
        terrain_class: p[data.class_property] || "", forces_period: doc.period || "", height: p.height_cm || "" };
      htmx.ajax("GET", piecePanel.dataset.pieceUrl, { target: at, swap: "innerHTML", values });
      if (!at.closest("[data-scn-panel]").hidden) piecePanel.scrollIntoView({ block: "nearest" });
    }
    pressList();
  };
  const pieceAction = (action) => {
    if (!selected) return;
    const { layer } = pieces.get(selected);
    const button = piecePanel.querySelector(`[data-piece-action="${action}"]`);
    const wasOn = button.getAttribute("aria-pressed") === "true";
    stopEditing();
    if (action === "delete") { root.dataset.dirty = "1"; keepTerrain({ piece: selected, delete: "1" }); return; }
    if (wasOn) return;
    if (action === "reshape") layer.pm.enable({ allowSelfIntersection: false, snappable: false });
    if (action === "move") layer.pm.enableLayerDrag();
    if (action === "turn") layer.pm.enableRotate();
    button.setAttribute("aria-pressed", "true");
    pieceMode(`${nameOf(selected)}: ${PIECE_HOW[action]}`);
  };

  // A stand being placed (scenario-deploy.js) takes a tap on the table first.
  let tapHandler = null;
  map.getContainer().addEventListener("pointerdown", () => { pieceGesture = false; }, true); // a new gesture
  map.on("click", (e) => {
    if (pieceGesture) { pieceGesture = false; return; }
    if (drawing) return;
    if (tapHandler && tapHandler(e.latlng)) return;
    if (selected) select(null);
  });

  // The particulars are the draft's (app.pages.scenario_drafts): each change posted by htmx, and its answer
  // carries them back as the draft holds them, the table and zones drawn from them.
  const takeParticulars = () => {
    const { sides, ...kept } = JSON.parse(form.querySelector("[data-scn-particulars]").textContent);
    const resized = kept.table.width_cm !== W() || kept.table.length_cm !== LEN();
    for (const k of Object.keys(doc)) if (!["terrain", "table_objectives", "sides"].includes(k)) delete doc[k];
    Object.assign(doc, kept);
    for (const side of ["attacker", "defender"]) Object.assign(doc.sides[side], sides[side]);
    if (resized) { redrawAll(); fitTable(); keepTerrain(); } else drawZones(); // a piece off the table said
    changed({ form: true });
  };
  const NOT_THE_DOCUMENT = "[data-import], [data-organiser-key]"; // a file chosen, the key typed: no change
  form.addEventListener("change", (e) => {
    const t = e.target;
    if (e.isTrusted && !t.matches(NOT_THE_DOCUMENT)) root.dataset.dirty = "1";
    // The period's: the kind's card and org-tables.js's tables follow (the rules and readings: the server's).
    if (t.matches("[data-doc-period]")) {
      doc.period = t.value;
      form.querySelector("[data-org-forces]")?.dispatchEvent(new Event("change", { bubbles: false }));
      htmx.trigger("#scn-kind-ask", "firestep:period");
      if (selected) select(selected);
    }
    if (t.matches("[data-piece-class]") && selected) keepTerrain({ piece: selected, piece_class: t.value });
  });
  // The terrain drawn is posted whole as it changes (each in its turn), kept in the draft
  // and answered by the list; refused, it is drawn again as the server last took it.
  let held = JSON.stringify(doc.terrain);
  // A piece's rename, class or deletion (`edit`) is the server's: its answer carries the terrain as it made it.
  // Each post waits its turn (the list's hx-sync) and sends the terrain as it is then, an edit's answer taken.
  const keepTerrain = (edit = {}) => root.dataset.terrainUrl && htmx.ajax("POST", root.dataset.terrainUrl, {
    source: list, target: list, swap: "innerHTML", values: edit,
  });
  list.addEventListener("htmx:configRequest", (e) => { e.detail.parameters.terrain = JSON.stringify(doc.terrain); });
  listeners.push((what) => { if ("terrain" in what) keepTerrain(); });
  list.addEventListener("htmx:afterSwap", (e) => {
    held = list.querySelector("[data-terrain-taken]").textContent;
    const sent = e.detail.requestConfig.formData, taken = JSON.parse(held).features;
    if (sent.has("add") || sent.has("delete")) { // a piece more or fewer: drawn anew, one added picked
      doc.terrain.features = taken;
      select(null);
      redrawAll();
      if (sent.has("add")) select(String(taken.length - 1));
    }
    else if (sent.has("piece")) { // each piece's properties as the server made them, its layer restyled
      doc.terrain.features.forEach((f, i) => { if (taken[i]) f.properties = taken[i].properties; });
      for (const { feature, layer } of pieces.values()) styleLayer(layer, feature.properties.kind);
      if (sent.has("piece_class") && selected) select(selected);
    }
    pressList();
    const named = piecePanel.querySelector("[data-piece-name]"); // renamed: as the list now says
    if (selected && named) named.textContent = nameOf(selected);
  });
  list.addEventListener("htmx:responseError", (e) => {
    if (e.detail.xhr.status !== 422) return; // not taken for another reason: said, and kept here
    const still = selected;
    doc.terrain = JSON.parse(held);
    select(null);
    redrawAll();
    if (pieces.has(still)) select(still);
  });
  form.addEventListener("input", (e) => {
    if (e.isTrusted && !e.target.matches(NOT_THE_DOCUMENT)) root.dataset.dirty = "1";
    if (e.target.matches("[data-piece-rename]") && selected) keepTerrain({ piece: selected, name: e.target.value });
  });
  form.addEventListener("submit", (e) => e.preventDefault());

  const redrawAll = () => {
    for (const { layer } of pieces.values()) layers.terrain.removeLayer(layer);
    pieces.clear();
    doc.terrain.features.forEach((f, i) => addPiece(f, String(i)));
    root.dataset.terrain = String(doc.terrain.features.length);
    drawTable();
    changed({ all: true });
  };
  // The forces are the server's panel's (app/pages/scenario_forces.py: this browser's draft, or the scenario
  // as saved): its island taken into the document at load and after each swap, its sentence said.
  const takeForces = () => {
    const island = form.querySelector("[data-scn-forces]");
    const before = JSON.stringify([doc.sides.attacker.forces, doc.sides.defender.forces]);
    if (island) for (const [side, forces] of Object.entries(JSON.parse(island.textContent))) doc.sides[side].forces = forces;
    return before !== JSON.stringify([doc.sides.attacker.forces, doc.sides.defender.forces]);
  };
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target.id !== "scn-formations") return;
    if (takeForces()) changed({ forces: true });
    const said = form.querySelector("#scn-formations").dataset.scnSaid;
    if (said) say(said, true);
  });
  document.addEventListener("click", (event) => {
    const tab = event.target.closest("[data-scn-tab]");
    if (tab) {
      root.querySelectorAll("[data-scn-tab]").forEach((b) => b.setAttribute("aria-pressed", String(b === tab)));
      root.querySelectorAll("[data-scn-panel]").forEach((p) => { p.hidden = p.dataset.scnPanel !== tab.dataset.scnTab; });
      root.dataset.tab = tab.dataset.scnTab;
      return;
    }
    const zoom = event.target.closest("[data-scn-zoom]");
    if (zoom) {
      if (zoom.dataset.scnZoom === "in") zoomBy(0.75);
      else if (zoom.dataset.scnZoom === "out") zoomBy(-0.75);
      else { zoomTarget = null; fitTable(); }
      return;
    }
    const draw = event.target.closest("[data-draw]");
    if (draw) { startDrawing(draw.dataset.draw); return; }
    if (event.target.closest("[data-draw-finish]")) {
      const handler = drawing && map.pm.Draw[drawing];
      if (handler && handler._layer && handler._layer.getLatLngs().length) handler._finishShape();
      else say("Tap the table to put the shape's points first.");
      return;
    }
    if (event.target.closest("[data-draw-cancel]")) { map.pm.disableDraw(); setDrawing(null); return; }
    const piece = event.target.closest("[data-piece]");
    if (piece && pieces.has(piece.dataset.piece)) { select(piece.dataset.piece); return; } // one drawn here
    const action = event.target.closest("[data-piece-action]");
    if (action) pieceAction(action.dataset.pieceAction);
  });

  document.body.addEventListener("htmx:afterSwap", (e) => { if (e.detail.target.id === "scn-checks") takeParticulars(); });
  takeForces();
  select(null);
  redrawAll();
  fitTable();

  window.firestepScenario = {
    data, root, map, layers, toLL, fromLL, rect: corners, round, say, standsOf,
    pointObjective: table.pointObjective, labelsOn: table.labelsOn,
    doc: () => doc, current: () => doc, W, LEN, onTable, mode,
    onChange: (fn) => listeners.push(fn),
    changed,
    setTap: (fn) => { tapHandler = fn; canvas.classList.toggle("picking", Boolean(fn)); },
    // For tests and the screen checks: a table point's position in the page.
    pagePoint: table.pagePoint,
  };
})();
