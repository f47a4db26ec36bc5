// The scenario editor's table to scale, its grid and zones, and its terrain drawn, reshaped, moved, deleted
// with leaflet-geoman, posted whole and judged by the server (app.pages.scenario_terrain).
(() => {
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
  for (const side of ["attacker", "defender"]) doc.sides[side] = { forces: [], ...doc.sides[side] };
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

  // Leaflet ignores a zoom asked while one animates: the taps add up to a target, gone on to once it ends.
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
      const zone = doc.sides[side].deployment_zone?.coordinates[0].map(toLL);
      if (zone) L.polygon(zone, { pane: "zones", className: `scn-zone ${side}`, interactive: false }).addTo(layers.zones);
    }
  };

  const pieces = new Map(); // its place in the terrain (the server's list's key) -> { feature, layer }
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
      if (!tap(e.latlng) && selected !== key) select(key); // a tap on the piece edited keeps its tool
    });
  };
  const modeLine = root.querySelector("[data-scn-mode]");
  const mode = (text) => { modeLine.textContent = text; modeLine.hidden = !text; };
  // A section's drawing tools (terrain's, objectives'): buttons `data-<tool>="<shape>"` with their mode line's
  // words, Finish and Stop (`data-<tool>-finish`, `-cancel`); `ready` may refuse a press. Geoman draws the
  // shape, a point is the next tap; `made` takes the layer drawn, or the point's place.
  let drawing = null; // { shape, set, made } while a shape is put down
  const drawTools = (panel, tool, { path, ready = () => true, made }) => {
    const the = (end) => panel.querySelector(`[data-${tool}${end}]`), shapeOf = (b) => b?.getAttribute(`data-${tool}`);
    const set = (shape) => {
      drawing = shape && { shape, set, made };
      the("-finish").hidden = shape !== "Polygon" && shape !== "Line";
      the("-cancel").hidden = !shape;
      for (const b of panel.querySelectorAll(`[data-${tool}]`)) b.ariaPressed = String(shapeOf(b) === shape);
      mode(shape ? the(`="${shape}"`).dataset.prompt : ""); canvas.classList.toggle("drawing", !!shape);
      setTap(shape === "point" ? (latlng) => { set(null); made(latlng); return true; } : null);
    };
    panel.addEventListener("click", (e) => {
      const b = e.target.closest(`[data-${tool}]`), shape = shapeOf(b);
      if (b && ready(b)) {
        map.pm.disableDraw();
        if (shape !== "point") map.pm.enableDraw(shape, { pathOptions: { className: path() } });
        set(shape);
      } else if (e.target.closest(`[data-${tool}-cancel]`)) stopDrawing();
      else if (e.target.closest(`[data-${tool}-finish]`)) {
        const handler = map.pm.Draw[drawing?.shape], least = drawing?.shape === "Polygon" ? 3 : 2;
        if (handler?._layer?.getLatLngs().length >= least) handler._finishShape();
        else say(the("-finish").dataset.said);
      }
    });
  };
  const stopDrawing = () => { map.pm.disableDraw(); drawing?.set(null); };
  map.on("pm:create", (e) => {
    if (!drawing) return;
    const { set, made } = drawing;
    map.removeLayer(e.layer);
    set(null);
    made(e.layer);
  });
  map.on("pm:drawend", () => { if (drawing?.shape !== "point") drawing?.set(null); });
  map.on("pm:intersect", () => say("That shape would cross itself: draw its outline without crossing."));
  drawTools(root.querySelector('[data-scn-panel="terrain"]'), "draw", {
    path: () => `terrain terrain-${kindSelect.value}`,
    ready: (b) => { // a line of a kind that needs its width: its card's sentence says so first
      select(null);
      if (!b.dataset.needs || Number(breadthInput.value) > 0) return true;
      say(b.dataset.needs);
      breadthInput.focus();
      return false;
    },
    made: (layer) => { // the server's to make (its properties from the tools, its id): its answer draws it
      root.dataset.dirty = "1";
      const tools = { piece_kind: kindSelect.value, breadth: breadthInput.value, owner: ownerSelect.value };
      const height = root.querySelector("[data-terrain-height]").value, piece_class = classSelect?.value || "";
      keepTerrain({ ...tools, height, piece_class, add: JSON.stringify(geometryOf(layer)) });
    },
  });

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
  // What a pressed Move, Reshape or Turn asks of the hand (its button's prompt, the page's); cleared only while
  // the mode line still says it.
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
    pieceMode(`${nameOf(selected)}: ${button.dataset.prompt}`);
  };

  // A point put down, a stand placed (scenario-deploy.js), an objective moved: each takes a tap first.
  let tapHandler = null;
  const setTap = (fn) => { tapHandler = fn; canvas.classList.toggle("picking", Boolean(fn)); };
  const tap = (latlng) => Boolean(tapHandler?.(latlng));
  map.getContainer().addEventListener("pointerdown", () => { pieceGesture = false; }, true); // a new gesture
  map.on("click", (e) => {
    if (pieceGesture) pieceGesture = false;
    else if (!tap(e.latlng) && !drawing && selected) select(null);
  });

  // The particulars are the draft's (app.pages.scenario_drafts): each change posted by htmx, and its answer
  // carries them back as the draft holds them, the table and zones drawn from them.
  const takeParticulars = () => {
    const { sides, ...kept } = JSON.parse(form.querySelector("[data-scn-particulars]").textContent);
    const resized = kept.table.width_cm !== W() || kept.table.length_cm !== LEN();
    for (const k in doc) if (!["terrain", "table_objectives", "sides"].includes(k)) delete doc[k];
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
  // The terrain is posted whole as it changes, each post in its turn (the list's hx-sync), kept in the draft and
  // answered by the list; a piece's rename, class or deletion (`edit`) made by the server, its answer the terrain
  // as it made it; refused, the terrain is drawn again as the server last took it.
  let held = JSON.stringify(doc.terrain);
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
  form.addEventListener("input", ({ target: t, isTrusted }) => {
    if (isTrusted && !t.matches(NOT_THE_DOCUMENT)) root.dataset.dirty = "1";
    if (t.matches("[data-piece-rename]") && selected) keepTerrain({ piece: selected, name: t.value });
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
  const forcesOf = () => JSON.stringify([doc.sides.attacker.forces, doc.sides.defender.forces]);
  const takeForces = () => {
    const before = forcesOf(), island = JSON.parse(form.querySelector("[data-scn-forces]")?.textContent ?? "{}");
    for (const [side, forces] of Object.entries(island)) doc.sides[side].forces = forces;
    return before !== forcesOf();
  };
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target.id === "scn-checks") takeParticulars();
    if (e.detail.target.id !== "scn-formations") return;
    if (takeForces()) changed({ forces: true });
    const said = form.querySelector("#scn-formations").dataset.scnSaid;
    if (said) say(said, true);
  });
  document.addEventListener("click", (event) => {
    const tab = event.target.closest("[data-scn-tab]");
    if (tab) {
      for (const b of root.querySelectorAll("[data-scn-tab]")) b.ariaPressed = String(b === tab);
      for (const p of root.querySelectorAll("[data-scn-panel]")) p.hidden = p.dataset.scnPanel !== tab.dataset.scnTab;
      root.dataset.tab = tab.dataset.scnTab;
      stopDrawing(); // what was being put down in the section left
      return;
    }
    const zoom = event.target.closest("[data-scn-zoom]");
    if (zoom) {
      if (zoom.dataset.scnZoom === "in") zoomBy(0.75);
      else if (zoom.dataset.scnZoom === "out") zoomBy(-0.75);
      else { zoomTarget = null; fitTable(); }
      return;
    }
    const piece = event.target.closest("[data-piece]");
    if (piece && pieces.has(piece.dataset.piece)) { select(piece.dataset.piece); return; } // one drawn here
    const action = event.target.closest("[data-piece-action]");
    if (action) pieceAction(action.dataset.pieceAction);
  });

  takeForces();
  select(null);
  redrawAll();
  fitTable();

  window.firestepScenario = {
    data, root, map, layers, toLL, fromLL, rect: corners, round, say, standsOf,
    pointObjective: table.pointObjective, labelsOn: table.labelsOn,
    doc: () => doc, current: () => doc, W, LEN, onTable, mode,
    onChange: (fn) => listeners.push(fn),
    changed, setTap, tap, drawTools, stopDrawing,
    // For tests and the screen checks: a table point's position in the page.
    pagePoint: table.pagePoint,
  };
})();
