// The scenario editor's objectives on the map (`table_objectives`, GeoJSON in table cm). Their list and the
// selected one's form are the server's (`_scenario_objectives.html`, app/pages/scenario_objectives.py: each
// change posted by htmx, checked and kept there); here only the map: "Place a point" then a tap, "Draw a box"
// or "Draw an area" with leaflet-geoman, a tap on one selecting it, Move and Reshape, each posted as done.
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
  let tap = null; // what a tap on the table does now (placing a point, relocating one), else null
  const setTap = (fn) => { tap = fn; S.setTap(fn); };
  let drawing = null; // "point", "Rectangle", "Polygon" while one is being put down
  let relocating = false;
  const features = () => S.doc().table_objectives?.features || [];
  const reshaping = () => [...shapes.values()].some((s) => s.pm && s.pm.enabled());
  // The server checks and keeps each change: its answer is the panel, or after a geometry its list alone.
  const post = (values) => htmx.ajax("POST", box().dataset.objectivesUrl, { source: box(), swap: "outerHTML",
    values, target: `#scn-objective-${["shape", "relocate"].includes(values.do) ? "list" : "panel"}` });
  const ring = (layer) => {
    const pts = layer.getLatLngs()[0].map((ll) => fromLL(ll).map(round));
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
      shape.on("click", (e) => (tap ? tap(e.latlng) : post({ do: "select", objective_id: f.id })));
      shape.on("pm:edit", () => post({ do: "shape", objective_id: f.id, obj_geometry: ring(shape) }));
      const label = L.marker(toLL(centreOf(g)), {
        pane: "objectives", interactive: false, keyboard: false,
        icon: L.divIcon({ className: "scn-objective-label", html: "", iconSize: null }),
      }).addTo(group);
      const named = box().querySelector(`template[data-objective-label="${CSS.escape(f.id)}"]`); // the server's
      if (named) label.getElement()?.append(named.content.cloneNode(true));
      shapes.set(f.id, shape);
    }
    S.root.dataset.objectives = String(features().length);
  };
  const stopEditing = () => {
    for (const s of shapes.values()) if (s.pm && s.pm.enabled()) s.pm.disable();
    panel.querySelectorAll("[data-objective-action]").forEach((b) => b.setAttribute("aria-pressed", "false"));
    if (relocating) { setTap(null); S.mode(""); relocating = false; }
  };
  // Once settled (htmx binds the new form's posts as it settles): the server's collection is the document's
  // (saved with it), drawn again unless one is being reshaped; a refused reshape drawn back as it was.
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
  document.body.addEventListener("htmx:responseError", ({ detail: d }) => { if (box().contains(d.elt) && reshaping()) { stopEditing(); draw(); } });
  // The scenario read anew (its draft, or as saved; once saved, at its own address): its objectives too.
  document.body.addEventListener("htmx:afterSwap", ({ target: t, detail: d }) => {
    if (t.id !== "scn-formations" || d.requestConfig.verb !== "get") return;
    box().dataset.objectivesUrl = t.dataset.forcesUrl.replace(/forces$/, "objectives");
    post({ do: "select", objective_id: "" });
  });
  panel.addEventListener("change", (e) => { if (e.target.name?.startsWith("obj_")) e.stopPropagation(); });

  const setDrawing = (what) => {
    drawing = what;
    panel.querySelector("[data-objective-finish]").hidden = what !== "Polygon";
    panel.querySelector("[data-objective-cancel]").hidden = !what;
    panel.querySelectorAll("[data-objective-draw]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.objectiveDraw === what)));
    S.mode(what ? panel.querySelector(`[data-objective-draw="${what}"]`).dataset.prompt : ""); // the page's words
    const put = (latlng) => { setDrawing(null); post({ do: "add", obj_geometry: JSON.stringify({ type: "Point", coordinates: fromLL(latlng).map(round) }) }); return true; };
    setTap(what === "point" ? put : null);
  };
  map.on("pm:create", (e) => {
    if (!drawing || drawing === "point") return;
    map.removeLayer(e.layer);
    setDrawing(null);
    if (e.layer.getLatLngs()[0].length < 3) S.say("An area needs at least three corners.");
    else post({ do: "add", obj_geometry: ring(e.layer) });
  });
  map.on("pm:drawend", () => { if (drawing && drawing !== "point") setDrawing(null); });

  panel.addEventListener("click", (e) => {
    const d = e.target.closest("[data-objective-draw]");
    if (d) {
      stopEditing();
      map.pm.disableDraw();
      if (d.dataset.objectiveDraw !== "point") map.pm.enableDraw(d.dataset.objectiveDraw, { finishOn: null, pathOptions: { className: "objective holder-none" } });
      setDrawing(d.dataset.objectiveDraw);
      return;
    }
    if (e.target.closest("[data-objective-finish]")) {
      const handler = map.pm.Draw.Polygon;
      if (handler && handler._layer && handler._layer.getLatLngs().length >= 3) handler._finishShape();
      else S.say("Tap the table at three corners or more first.");
      return;
    }
    if (e.target.closest("[data-objective-cancel]")) { map.pm.disableDraw(); setDrawing(null); return; }
    // Move and Reshape (Delete is the server's own post): pressed again, stopped.
    const a = e.target.closest('[data-objective-action="relocate"], [data-objective-action="reshape"]');
    const id = box().dataset.selected;
    const f = a && features().find((x) => x.id === id);
    if (!f) return;
    const wasOn = a.getAttribute("aria-pressed") === "true";
    stopEditing();
    if (wasOn) return;
    a.setAttribute("aria-pressed", "true");
    if (a.dataset.objectiveAction === "reshape") { shapes.get(id)?.pm.enable({ allowSelfIntersection: false, snappable: false }); return; }
    relocating = true;
    S.mode(`Tap where the middle of ${f.properties.name || id} goes.`);
    setTap((latlng) => {
      const [x, y] = fromLL(latlng);
      if (!onTable([x, y])) S.say("It would go off the table there: tap nearer the middle.");
      else { stopEditing(); post({ do: "relocate", objective_id: id, obj_x: round(x), obj_y: round(y) }); }
      return true;
    });
  });
  // Another tab: whatever was being put down or moved stops.
  S.root.addEventListener("click", (e) => {
    if (e.target.closest("[data-scn-tab]:not([data-scn-tab=objectives])") && (drawing || relocating)) {
      map.pm.disableDraw();
      setDrawing(null);
      stopEditing();
    }
  });
  S.onChange((what) => { if (what.all) draw(); });
  take(true);
})();
