// The scenario editor's objectives on the map (`table_objectives`, GeoJSON in table cm), their list and form
// the server's (app/pages/scenario_objectives.py, each answer naming where it goes): here a point, a box or an
// area put down, a tap selecting one, Move and Reshape, each posted as done, and the form's posts, each waiting
// its turn on the section (htmx drops a waiting post whose element an answer swapped) with its own values.
(() => {
  const S = window.firestepScenario;
  const panel = S && S.root.querySelector('[data-scn-panel="objectives"]');
  if (!S || !panel) return;
  const { map, toLL, fromLL, round, pointObjective, onTable } = S;
  const { centreOf } = window.firestepTableDrawing; // as the game's map draws them (table-drawing.js)
  map.createPane("objectives").style.zIndex = "450"; // tapped in the Objectives section only (its CSS)
  const group = L.featureGroup().addTo(map);
  const box = () => panel.querySelector("#scn-objective-panel");
  const shapes = new Map(); // feature id -> its polygon
  let relocating = false;
  const features = () => S.doc().table_objectives?.features || [];
  const reshaping = () => [...shapes.values()].some((s) => s.pm && s.pm.enabled());
  const post = (values) => htmx.ajax("POST", box().dataset.objectivesUrl, { source: panel, values });
  panel.addEventListener("input", ({ target: t }) => {
    const fields = [...(t.closest("[data-objective-piece]")?.querySelectorAll("[name]") || [])];
    if (fields.length) post({ do: "set", ...Object.fromEntries(fields.map((f) => [f.name, f.value])) });
  });
  const geometry = (d) => { // a shape's closed ring, or a point's place
    if (!d.getLatLngs) return JSON.stringify({ type: "Point", coordinates: fromLL(d).map(round) });
    const pts = d.getLatLngs()[0].map((ll) => fromLL(ll).map(round));
    return JSON.stringify({ type: "Polygon", coordinates: [[...pts, pts[0]]] });
  };

  const draw = () => {
    group.clearLayers();
    shapes.clear();
    for (const f of features()) {
      const g = f.geometry;
      const lls = g.type === "Point" ? pointObjective(g.coordinates) : [g.coordinates[0].slice(1).map(toLL)];
      const on = box().dataset.selected === f.id ? " scn-selected" : "";
      const shape = L.polygon(lls, {
        pane: "objectives", className: `objective holder-none scn-objective${on}`, bubblingMouseEvents: false,
      }).addTo(group);
      shape.getElement()?.setAttribute("data-objective-shape", f.id);
      // Placing or relocating: the tap is where, even on an objective.
      shape.on("click", (e) => S.tap(e.latlng) || post({ do: "select", objective_id: f.id }));
      shape.on("pm:edit", () => post({ do: "shape", objective_id: f.id, obj_geometry: geometry(shape) }));
      const label = L.marker(toLL(centreOf(g)), {
        pane: "objectives", interactive: false, keyboard: false,
        icon: L.divIcon({ className: "scn-objective-label", html: "", iconSize: null }),
      }).addTo(group);
      const named = box().querySelector(`template[data-objective-label="${CSS.escape(f.id)}"]`); // server's
      if (named) label.getElement()?.append(named.content.cloneNode(true));
      shapes.set(f.id, shape);
    }
    S.root.dataset.objectives = String(features().length);
  };
  const stopEditing = () => {
    for (const s of shapes.values()) if (s.pm && s.pm.enabled()) s.pm.disable();
    panel.querySelectorAll("[data-objective-action]").forEach((b) => b.setAttribute("aria-pressed", "false"));
    if (relocating) { S.setTap(null); S.mode(""); relocating = false; }
  };
  // Once settled: the server's collection is the document's (saved with it), drawn again unless one is being
  // reshaped; a refused reshape drawn back as it was.
  const take = (quiet) => {
    const before = JSON.stringify(features());
    const held = JSON.parse(box().querySelector("[data-scn-objectives]").value);
    if (held.features.length) S.doc().table_objectives = held; else delete S.doc().table_objectives;
    if (!reshaping()) draw();
    if (!quiet && before !== JSON.stringify(features())) S.changed({ objectives: true });
  };
  document.body.addEventListener("htmx:afterSettle", ({ detail: d }) => {
    if (d.target.id === "scn-objective-list") take();
    if (d.target.id !== "scn-objective-panel") return;
    stopEditing();
    take();
    if (box().dataset.said) S.say(box().dataset.said, true);
    box().querySelector("[data-focus]")?.focus({ preventScroll: true }); // one just put down: name it
  });
  document.body.addEventListener("htmx:responseError", ({ detail: d }) => {
    if (d.elt === panel && reshaping()) { stopEditing(); draw(); }
  });
  // The scenario read anew (its draft, or as saved; once saved, at its own address): its objectives too.
  document.body.addEventListener("htmx:afterSwap", ({ target: t, detail: d }) => {
    if (t.id !== "scn-formations" || d.requestConfig.verb !== "get") return;
    box().dataset.objectivesUrl = t.dataset.forcesUrl.replace(/forces$/, "objectives");
    post({ do: "select", objective_id: "" });
  });
  panel.addEventListener("change", (e) => { if (e.target.name?.startsWith("obj_")) e.stopPropagation(); });

  S.drawTools(panel, "objective-draw", {
    path: () => "objective holder-none",
    ready: () => { stopEditing(); return true; },
    made: (d) => post({ do: "add", obj_geometry: geometry(d) }),
  });

  panel.addEventListener("click", (e) => {
    const posts = e.target.closest("[data-post]"); // a selection, a deletion: what it posts the server's
    if (posts) return post(JSON.parse(posts.dataset.post));
    // Move and Reshape: pressed again, stopped.
    const a = e.target.closest('[data-objective-action="relocate"], [data-objective-action="reshape"]');
    const id = box().dataset.selected;
    const f = a && features().find((x) => x.id === id);
    if (!f) return;
    const wasOn = a.getAttribute("aria-pressed") === "true";
    stopEditing();
    if (wasOn) return;
    a.setAttribute("aria-pressed", "true");
    if (a.dataset.objectiveAction === "reshape") return shapes.get(id)?.pm.enable({ allowSelfIntersection: false, snappable: false });
    relocating = true;
    S.mode(`Tap where the middle of ${f.properties.name || id} goes.`);
    S.setTap((latlng) => {
      const [x, y] = fromLL(latlng);
      if (!onTable([x, y])) S.say("It would go off the table there: tap nearer the middle.");
      else { stopEditing(); post({ do: "relocate", objective_id: id, obj_x: round(x), obj_y: round(y) }); }
      return true;
    });
  });
  // Another tab: whatever was being moved stops (as what was put down does: scenario-editor.js).
  const away = "[data-scn-tab]:not([data-scn-tab=objectives])";
  S.root.addEventListener("click", (e) => { if (relocating && e.target.closest(away)) stopEditing(); });
  S.onChange((what) => { if (what.all) draw(); });
  take(true);
})();
