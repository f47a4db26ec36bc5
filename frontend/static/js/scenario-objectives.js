// The scenario editor's objectives: points and areas scored for victory points (`table_objectives`, GeoJSON
// in table cm). "Place a point" then a tap; "Draw a box" or "Draw an area" with leaflet-geoman. A tap on one
// selects it: its name, worth and scoring in the form, Move, Reshape, Delete. The server checks again.
(() => {
  const S = window.firestepScenario;
  const panel = S && S.root.querySelector('[data-scn-panel="objectives"]');
  if (!S || !panel) return;
  const { map, toLL, fromLL, round, h, pointObjective, onTable } = S;
  const { centreOf } = window.firestepTableDrawing; // as the game's map draws them (table-drawing.js)
  const MOST = 50; // objectives a scenario may have (rules.table.objectives MAX_OBJECTIVES)
  const pane = map.createPane("objectives");
  pane.style.zIndex = "450";
  // Tapped only while the Objectives section is open: elsewhere a tap on one is a tap on the table.
  const tappable = () => pane.classList.toggle("scn-objectives-off", S.root.dataset.tab !== "objectives");
  new MutationObserver(tappable).observe(S.root, { attributes: true, attributeFilter: ["data-tab"] });
  tappable();
  const group = L.featureGroup().addTo(map);
  const list = panel.querySelector("[data-objective-list]");
  const piece = panel.querySelector("[data-objective-piece]");
  const shapes = new Map(); // feature id -> { shape, label }
  let selected = null;
  let tap = null; // what a tap on the table does now (placing a point, moving one), else null
  const setTap = (fn) => { tap = fn; S.setTap(fn); };
  let drawing = null; // "point", "Rectangle", "Polygon" while one is being put down

  const collection = () => S.doc().table_objectives || { type: "FeatureCollection", features: [] };
  const features = () => collection().features;
  const store = (list_) => {
    // An empty list leaves the key out, as a scenario without objectives writes it.
    if (list_.length) S.doc().table_objectives = { type: "FeatureCollection", features: list_ };
    else delete S.doc().table_objectives;
  };
  const byId = (id) => features().find((f) => f.id === id);
  const freshId = (n = features().length + 1) => (byId(`objective-${n}`) ? freshId(n + 1) : `objective-${n}`);
  const nameOf = (f) => f.properties.name || f.id;
  const worth = (f) => `${nameOf(f)} · ${f.properties.vp ?? 0} VP`;
  const pointsOf = (g) => (g.type === "Point" ? [g.coordinates] : g.coordinates[0]);

  const draw = () => {
    group.clearLayers();
    shapes.clear();
    for (const f of features()) {
      const g = f.geometry;
      const lls = g.type === "Point" ? pointObjective(g.coordinates) : [g.coordinates[0].slice(0, -1).map(toLL)];
      const shape = L.polygon(lls, {
        pane: "objectives", className: `objective holder-none scn-objective${selected === f.id ? " scn-selected" : ""}`,
        bubblingMouseEvents: false,
      }).addTo(group);
      shape.getElement()?.setAttribute("data-objective-shape", f.id);
      shape.on("click", (e) => {
        if (tap) tap(e.latlng); // placing or moving: the tap is where, even on an objective
        else select(f.id);
      });
      shape.on("pm:edit", () => reshaped(f.id, shape));
      const label = L.marker(toLL(centreOf(g)), {
        pane: "objectives", interactive: false, keyboard: false,
        icon: L.divIcon({ className: "scn-objective-label", html: "", iconSize: null }),
      }).addTo(group);
      label.getElement()?.append(h("span", { text: worth(f) }));
      shapes.set(f.id, { shape, label });
    }
    S.root.dataset.objectives = String(features().length);
    renderList();
  };
  const renderList = () => {
    list.replaceChildren(...features().map((f) => h("li", {}, h("button", {
      type: "button", class: "button scn-item", "data-objective-item": f.id,
      "aria-pressed": String(selected === f.id), text: worth(f),
    }))));
    if (!features().length) list.replaceChildren(h("li", { class: "muted", text: "No objectives yet." }));
  };

  const field = (name) => piece.querySelector(`[data-objective-field="${name}"]`);
  const stopEditing = () => {
    for (const { shape } of shapes.values()) if (shape.pm && shape.pm.enabled()) shape.pm.disable();
    piece.querySelectorAll("[data-objective-action]").forEach((b) => b.setAttribute("aria-pressed", "false"));
    if (relocating()) { setTap(null); S.mode(""); }
    movingId = null;
  };
  const select = (id) => {
    stopEditing();
    selected = id && byId(id) ? id : null;
    piece.hidden = !selected;
    if (selected) {
      const f = byId(selected);
      piece.querySelector("[data-objective-title]").textContent = `${nameOf(f)} (${f.geometry.type === "Point" ? "a point" : "an area"})`;
      field("name").value = f.properties.name || "";
      field("vp").value = f.properties.vp ?? 0;
      field("scored").value = f.properties.scored || "each_turn";
      field("held_by").value = f.properties.held_by || "stands";
      field("turns").value = f.properties.turns ?? 1; field("consecutive").value = String(Boolean(f.properties.consecutive)); if (field("secret_to")) field("secret_to").value = f.properties.secret_to || "";
      piece.querySelector("[data-objective-held-turns]").hidden = f.properties.scored !== "held_turns";
      piece.querySelector('[data-objective-action="reshape"]').hidden = f.geometry.type === "Point";
    }
    draw();
  };
  panel.addEventListener("input", (e) => {
    const input = e.target.closest("[data-objective-field]");
    if (!input || !selected) return;
    const f = byId(selected);
    const name = input.dataset.objectiveField;
    if (name === "name") f.properties.name = input.value.trim();
    if (name === "vp") {
      const vp = Number(input.value);
      if (input.value === "" || !Number.isInteger(vp) || vp < 0 || vp > 100) { S.say("Victory points are a whole number from 0 to 100."); return; }
      f.properties.vp = vp;
    }
    if (name === "scored") { f.properties.scored = input.value; piece.querySelector("[data-objective-held-turns]").hidden = input.value !== "held_turns"; }
    if (f.properties.scored === "held_turns") { f.properties.turns = Number(field("turns").value) || 1; f.properties.consecutive = field("consecutive").value === "true"; } else { delete f.properties.turns; delete f.properties.consecutive; } // its turns (1 until said), in a row or in all; another kind takes neither
    if (name === "secret_to") { if (input.value) f.properties.secret_to = input.value; else delete f.properties.secret_to; }
    if (name === "held_by") { if (input.value === "stands") delete f.properties.held_by; else f.properties.held_by = input.value; }
    S.changed({ objectives: selected });
    const entry = shapes.get(selected);
    if (entry) entry.label.getElement()?.replaceChildren(h("span", { text: worth(f) }));
    renderList();
  });
  panel.addEventListener("change", (e) => { if (e.target.closest("[data-objective-field]")) e.stopPropagation(); });

  const add = (geometry) => {
    if (features().length >= MOST) { S.say(`A scenario has at most ${MOST} objectives.`); return; }
    if (!pointsOf(geometry).every(onTable)) { S.say(`That objective goes off the table: every point must be on the ${S.W()} × ${S.LEN()} cm table.`); return; }
    const id = freshId();
    const n = Number(id.split("-")[1]);
    const f = { type: "Feature", id, geometry, properties: { name: `Objective ${n}`, vp: 1, scored: "each_turn" } };
    store([...features(), f]);
    S.changed({ objectives: id });
    select(id);
    S.say(`${nameOf(f)} placed: name it and give its worth.`, true);
    field("name").focus({ preventScroll: true });
  };
  const setDrawing = (what) => {
    drawing = what;
    panel.querySelector("[data-objective-finish]").hidden = what !== "Polygon";
    panel.querySelector("[data-objective-cancel]").hidden = !what;
    panel.querySelectorAll("[data-objective-draw]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.objectiveDraw === what)));
    S.mode(what === "point" ? "Tap the table where the objective is." : what === "Rectangle" ? "Tap two opposite corners of the objective." : what ? "Tap each corner of the objective, then Finish." : "");
    if (what === "point") {
      setTap((latlng) => {
        const p = fromLL(latlng).map(round);
        setDrawing(null);
        add({ type: "Point", coordinates: p });
        return true;
      });
    } else setTap(null);
  };
  const startDrawing = (what) => {
    select(null);
    map.pm.disableDraw();
    if (what !== "point") map.pm.enableDraw(what, { finishOn: null, pathOptions: { className: "objective holder-none" } });
    setDrawing(what);
  };
  map.on("pm:create", (e) => {
    if (!drawing || drawing === "point") return;
    const layer = e.layer;
    map.removeLayer(layer);
    const pts = layer.getLatLngs()[0].map((ll) => fromLL(ll).map(round));
    setDrawing(null);
    if (pts.length < 3) { S.say("An area needs at least three corners."); return; }
    add({ type: "Polygon", coordinates: [[...pts, pts[0]]] });
  });
  map.on("pm:drawend", () => { if (drawing && drawing !== "point") setDrawing(null); });

  let movingId = null;
  const relocating = () => movingId !== null;
  const moveTo = (id, to) => {
    const f = byId(id);
    const [cx, cy] = centreOf(f.geometry);
    const [dx, dy] = [to[0] - cx, to[1] - cy];
    const moved = f.geometry.type === "Point"
      ? { type: "Point", coordinates: to.map(round) }
      : { type: "Polygon", coordinates: [f.geometry.coordinates[0].map(([x, y]) => [round(x + dx), round(y + dy)])] };
    if (!pointsOf(moved).every(onTable)) { S.say("It would go off the table there: tap nearer the middle."); return false; }
    f.geometry = moved;
    S.changed({ objectives: id });
    return true;
  };
  const reshaped = (id, shape) => {
    const f = byId(id);
    const pts = shape.getLatLngs()[0].map((ll) => fromLL(ll).map(round));
    if (!pts.every(onTable)) { S.say("That corner is off the table: the objective keeps its shape."); select(id); return; }
    f.geometry = { type: "Polygon", coordinates: [[...pts, pts[0]]] };
    S.changed({ objectives: id });
  };
  const action = (what) => {
    if (!selected) return;
    const id = selected;
    const button = piece.querySelector(`[data-objective-action="${what}"]`);
    const wasOn = button.getAttribute("aria-pressed") === "true";
    if (what === "delete") {
      const gone = nameOf(byId(id));
      store(features().filter((f) => f.id !== id));
      S.changed({ objectives: id });
      select(null);
      S.say(`${gone} deleted.`, true);
      return;
    }
    stopEditing();
    if (wasOn) return;
    button.setAttribute("aria-pressed", "true");
    if (what === "relocate") {
      movingId = id;
      S.mode(`Tap where the middle of ${nameOf(byId(id))} goes.`);
      setTap((latlng) => {
        const ok = moveTo(id, fromLL(latlng));
        if (ok) { setTap(null); S.mode(""); movingId = null; select(id); }
        return true;
      });
    }
    if (what === "reshape") shapes.get(id)?.shape.pm.enable({ allowSelfIntersection: false, snappable: false });
  };

  panel.addEventListener("click", (e) => {
    const d = e.target.closest("[data-objective-draw]");
    if (d) { startDrawing(d.dataset.objectiveDraw); return; }
    if (e.target.closest("[data-objective-finish]")) {
      const handler = map.pm.Draw.Polygon;
      if (handler && handler._layer && handler._layer.getLatLngs().length >= 3) handler._finishShape();
      else S.say("Tap the table at three corners or more first.");
      return;
    }
    if (e.target.closest("[data-objective-cancel]")) { map.pm.disableDraw(); setDrawing(null); return; }
    const item = e.target.closest("[data-objective-item]");
    if (item) { select(item.dataset.objectiveItem); return; }
    const a = e.target.closest("[data-objective-action]");
    if (a) action(a.dataset.objectiveAction);
  });
  // Another tab: whatever was being put down or moved stops.
  S.root.addEventListener("click", (e) => {
    if (e.target.closest("[data-scn-tab]") && !e.target.closest('[data-scn-tab="objectives"]') && (drawing || relocating())) {
      map.pm.disableDraw();
      setDrawing(null);
      stopEditing();
    }
  });
  S.onChange((what) => { if (what.all) { selected = null; piece.hidden = true; draw(); } });
  // A draft keeps them (app/pages/scenario_forces.py): taken from the forces panel's island at load and
  // when it is read, posted whole as they change (from the editor's root: htmx queues one post a source).
  const island = () => S.form.querySelector("[data-scn-objectives]");
  const take = (i = island()) => i && store(JSON.parse(i.textContent)?.features || []);
  take();
  document.body.addEventListener("htmx:afterSwap", ({ detail: d }) => {
    if (d.target.id === "scn-formations" && d.requestConfig.verb === "get") { take(); select(null); }
  });
  S.onChange((what) => {
    const i = island();
    if (!i || !what.objectives) return;
    const to = S.form.querySelector("#scn-taken") && { target: "#scn-taken", swap: "outerHTML" };
    const values = { table_objectives: JSON.stringify(collection()) };
    htmx.ajax("POST", i.dataset.objectivesUrl, { source: S.root, swap: "none", ...to, values });
  });
  draw();
})();
