// The table map: the game's terrain and stands in SVG at true proportions (cm = SVG units; table y runs
// towards the defender, so it is drawn upwards), templates to drag, coverage from the geometry API,
// a ruler, pan and pinch-zoom. Moving a stand is sent to the game API; a refusal puts it back.
(() => {
  const svg = document.querySelector("svg[data-table-map]");
  if (!svg) return;
  const NS = "http://www.w3.org/2000/svg";
  const W = Number(svg.dataset.width);
  const L = Number(svg.dataset.length);
  const game = svg.dataset.game;
  // The page's CSRF token: the server refuses a cookie-authorised write without it (app/security.py).
  const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content || "";
  const sizes = JSON.parse(document.getElementById("map-sizes").textContent);
  const layer = (name) => svg.querySelector(`g.${name}`);
  const info = document.getElementById("map-info");
  const notice = (text) => window.firestepNotice && window.firestepNotice(text);
  let stands = [];
  const templates = [];
  let selected = null;
  let view = { x: 0, y: 0, w: W, h: L };

  const el = (tag, attrs, parent) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  };
  const sy = (y) => L - y; // table y -> SVG y
  const rotation = (facing) => 90 - facing; // SVG rotates clockwise; width across the facing
  const toTable = (event) => {
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, L - p.y];
  };
  const setView = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);

  // -- terrain ------------------------------------------------------------------------------------------------
  const drawTerrain = (terrain) => {
    const g = layer("terrain");
    g.replaceChildren();
    for (const f of terrain.features || []) {
      const kind = (f.properties && f.properties.kind) || "feature";
      const geom = f.geometry || {};
      const polys = geom.type === "Polygon" ? [geom.coordinates] : geom.type === "MultiPolygon" ? geom.coordinates : [];
      for (const rings of polys) {
        const d = rings.map((ring) => "M" + ring.map(([x, y]) => `${x},${sy(y)}`).join("L") + "Z").join("");
        el("path", { d, class: kind, "fill-rule": "evenodd" }, g);
      }
      if (geom.type === "LineString") {
        el("polyline", { points: geom.coordinates.map(([x, y]) => `${x},${sy(y)}`).join(" "), class: `line ${kind}` }, g);
      }
    }
  };

  // -- stands -------------------------------------------------------------------------------------------------
  const drawStand = (s) => {
    const spec = sizes.bases[s.base] || { shape: "rect", w: 2, d: 2 };
    const g = el("g", { class: `map-stand ${s.side}`, "data-stand": s.id, tabindex: 0 }, layer("stands"));
    const t = el("title", {}, g);
    t.textContent = s.name;
    if (spec.shape === "round") el("circle", { r: spec.w / 2 }, g);
    else el("rect", { x: -spec.w / 2, y: -spec.d / 2, width: spec.w, height: spec.d }, g);
    s.node = g;
    placeStand(s);
  };
  const placeStand = (s) => {
    s.node.setAttribute("transform", `translate(${s.x} ${sy(s.y)}) rotate(${rotation(s.facing_deg ?? 90)})`);
  };

  // -- templates and coverage ---------------------------------------------------------------------------------
  const templateSize = (t) => {
    const spec = sizes.templates[t.kind];
    return { w: spec.across ? W : spec.w, d: spec.d };
  };
  const drawTemplate = (t) => {
    const { w, d } = templateSize(t);
    const g = el("g", { class: "template", "data-template": t.kind }, layer("templates"));
    el("rect", { x: -w / 2, y: -d / 2, width: w, height: d }, g);
    t.node = g;
    placeTemplate(t);
  };
  const placeTemplate = (t) => {
    if (sizes.templates[t.kind].across) t.center[0] = W / 2;
    t.node.setAttribute("transform", `translate(${t.center[0]} ${sy(t.center[1])}) rotate(${rotation(t.facing_deg)})`);
  };
  const select = (t) => {
    selected = t;
    for (const other of templates) other.node.classList.toggle("selected", other === t);
  };

  let coverageTimer = null;
  let coverageSeq = 0;
  const updateCoverage = () => {
    clearTimeout(coverageTimer);
    coverageTimer = setTimeout(async () => {
      const seq = ++coverageSeq;
      const onTable = stands.filter((s) => sizes.bases[s.base]);
      const full = new Set();
      const partial = new Set();
      for (const t of templates) {
        const response = await fetch("/api/v1/geometry/coverage", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify({
            template: { kind: t.kind, center: t.center, facing_deg: t.facing_deg },
            stands: onTable.map((s) => ({ id: String(s.id), side: s.side, base: s.base, center: [s.x, s.y], facing_deg: s.facing_deg ?? 90 })),
            table: { width_cm: W, length_cm: L },
          }),
        });
        if (!response.ok) { notice("The table geometry could not be worked out for that template."); return; }
        const cov = await response.json();
        cov.full.forEach((id) => full.add(id));
        cov.partial.forEach((id) => partial.add(id));
      }
      if (seq !== coverageSeq) return;
      for (const s of stands) {
        const id = String(s.id);
        s.node.classList.toggle("cov-full", full.has(id));
        s.node.classList.toggle("cov-partial", !full.has(id) && partial.has(id));
      }
      const names = (ids) => [...ids].map((id) => { const s = stands.find((x) => String(x.id) === id); return s ? `${s.name} (${s.side})` : id; });
      info.replaceChildren();
      if (!templates.length) return;
      const add = (label, list) => {
        const p = document.createElement("p");
        p.dataset.coverage = label;
        p.textContent = `${label === "full" ? "Fully under" : "Partly under"} (${list.length}): ${list.join(", ") || "none"}`;
        info.appendChild(p);
      };
      add("full", names(full));
      add("partial", names([...partial].filter((id) => !full.has(id))));
    }, 60);
  };

  // -- ruler ----------------------------------------------------------------------------------------------------
  let rulerOn = false;
  let rulerPoints = [];
  const drawRuler = () => {
    const g = layer("ruler");
    g.replaceChildren();
    rulerPoints.forEach(([x, y]) => el("circle", { cx: x, cy: sy(y), r: 0.8 }, g));
    if (rulerPoints.length === 2) {
      const [[x1, y1], [x2, y2]] = rulerPoints;
      el("line", { x1, y1: sy(y1), x2, y2: sy(y2) }, g);
      const cm = Math.hypot(x2 - x1, y2 - y1);
      const label = el("text", { x: (x1 + x2) / 2 + 1, y: sy((y1 + y2) / 2) - 1 }, g);
      label.textContent = `${cm.toFixed(1)} cm`;
      info.replaceChildren(Object.assign(document.createElement("p"), { textContent: `Ruler: ${cm.toFixed(1)} cm`, className: "ruler-reading" }));
    }
  };

  // -- what the game has on the table: arrived fire-plan items, gas clouds, rolling barrages ------------------
  // Drawn from the game's board (GET /state), under the stands; they move only when the game moves them.
  const FIRE_TEMPLATE = { "aiming-point": "artillery", bombardment: "artillery", superimposed: "artillery" };
  const drawBoard = (board) => {
    const g = layer("board");
    g.replaceChildren();
    const lines = [];
    const band = (y0, y1, cls, label) => {
      const lo = Math.max(0, Math.min(y0, y1));
      const hi = Math.min(L, Math.max(y0, y1));
      if (hi <= lo) return;
      const r = el("rect", { x: 0, y: sy(hi), width: W, height: hi - lo, class: cls }, g);
      el("title", {}, r).textContent = label;
    };
    const shape = (kind, center, facing, cls, label) => {
      const spec = sizes.templates[kind];
      const node = el("g", { class: cls, transform: `translate(${center[0]} ${sy(center[1])}) rotate(${rotation(facing)})` }, g);
      el("rect", { x: -spec.w / 2, y: -spec.d / 2, width: spec.w, height: spec.d }, node);
      el("title", {}, node).textContent = label;
    };
    for (const f of board.fire || []) {
      if (!f.point) continue;
      const label = `${f.kind.replace(/-/g, " ")} of the ${f.side}${f.battery ? ` (${f.battery})` : ""}`;
      if (FIRE_TEMPLATE[f.kind]) {
        shape(FIRE_TEMPLATE[f.kind], f.point, sizes.ahead[f.side], "board-fire", label);
      } else {
        // Mortars and air missions: the aiming point (their template depends on the weapon).
        const m = el("g", { class: "board-fire point", transform: `translate(${f.point[0]} ${sy(f.point[1])})` }, g);
        el("circle", { r: 2 }, m);
        el("path", { d: "M-3,0H3M0,-3V3" }, m);
        el("title", {}, m).textContent = label;
      }
      lines.push(label);
    }
    for (const c of board.clouds || []) {
      const label = `${c.gas || "gas"} gas cloud of the ${c.side}`;
      shape(c.side === "attacker" ? "gas-attacker" : "gas-defender", c.center, sizes.ahead[c.side], "board-gas", label);
      lines.push(label);
    }
    for (const b of board.barrages || []) {
      const [lo, hi] = b.covers_y;
      const label = `rolling barrage of the ${b.side}`;
      band(lo, hi, "board-barrage", label);
      // "6 cm" behind the rear edge, on the side's own side of the barrage.
      if (b.side === "attacker") band(lo - sizes.danger_cm, lo, "board-danger", `${label}: danger zone`);
      else band(hi, hi + sizes.danger_cm, "board-danger", `${label}: danger zone`);
      lines.push(label);
    }
    const box = document.getElementById("board-info");
    if (box) {
      box.replaceChildren();
      if (lines.length) {
        const p = document.createElement("p");
        p.dataset.boardItems = String(lines.length);
        p.textContent = `On the table: ${lines.join("; ")}.`;
        box.appendChild(p);
      }
    }
  };

  // -- pointer handling: drag stands and templates, pan, pinch ------------------------------------------------
  const pointers = new Map();
  let drag = null;
  let pinch = null;
  svg.addEventListener("pointerdown", (event) => {
    pointers.set(event.pointerId, event);
    svg.setPointerCapture(event.pointerId);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { dist: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), view: { ...view } };
      drag = null;
      return;
    }
    const [x, y] = toTable(event);
    if (rulerOn) {
      rulerPoints = rulerPoints.length === 2 ? [[x, y]] : [...rulerPoints, [x, y]];
      drawRuler();
      return;
    }
    const tNode = event.target.closest("[data-template]");
    const sNode = event.target.closest("[data-stand]");
    if (tNode) {
      const t = templates.find((tt) => tt.node === tNode);
      select(t);
      drag = { kind: "template", item: t, dx: t.center[0] - x, dy: t.center[1] - y };
    } else if (sNode) {
      const s = stands.find((ss) => ss.node === sNode);
      drag = { kind: "stand", item: s, dx: s.x - x, dy: s.y - y, from: [s.x, s.y] };
    } else {
      drag = { kind: "pan", start: [event.clientX, event.clientY], view: { ...view } };
    }
  });
  svg.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, event);
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const scale = pinch.dist / Math.max(1, Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY));
      zoomTo(pinch.view, scale);
      return;
    }
    if (!drag) return;
    if (drag.kind === "pan") {
      const rect = svg.getBoundingClientRect();
      const k = Math.max(drag.view.w / rect.width, drag.view.h / rect.height);
      view.x = drag.view.x - (event.clientX - drag.start[0]) * k;
      view.y = drag.view.y - (event.clientY - drag.start[1]) * k;
      setView();
      return;
    }
    const [x, y] = toTable(event);
    const nx = Math.max(0, Math.min(W, x + drag.dx));
    const ny = Math.max(0, Math.min(L, y + drag.dy));
    if (drag.kind === "template") {
      drag.item.center = [nx, ny];
      placeTemplate(drag.item);
    } else {
      drag.item.x = nx;
      drag.item.y = ny;
      placeStand(drag.item);
    }
    updateCoverage();
  });
  const release = async (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    const done = drag;
    drag = null;
    if (!done || done.kind !== "stand") return;
    const s = done.item;
    if (s.x === done.from[0] && s.y === done.from[1]) return;
    const response = await fetch(`/api/v1/games/${game}/units/${s.id}/move`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
      body: JSON.stringify({ x: Number(s.x.toFixed(2)), y: Number(s.y.toFixed(2)), facing_deg: s.facing_deg ?? 90 }),
    }).catch(() => null);
    if (!response || !response.ok) {
      // A refusal by the rules of play (the game's status or the current step) says why in words.
      const refusal = response && response.status === 409 ? await response.json().catch(() => null) : null;
      notice(response && response.status === 403 ? "That stand belongs to the other side: it stays where it was."
        : Array.isArray(refusal?.current?.allowed_now) ? `Not now: the stand is back where it was. ${refusal.detail}`
        : "The move was not saved; the stand is back where it was.");
      [s.x, s.y] = done.from;
      placeStand(s);
      updateCoverage();
    }
  };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);

  const zoomTo = (base, scale, cx, cy) => {
    const w = Math.max(10, Math.min(W * 2, base.w * scale));
    const h = w * (base.h / base.w);
    const fx = cx === undefined ? 0.5 : (cx - base.x) / base.w;
    const fy = cy === undefined ? 0.5 : (cy - base.y) / base.h;
    view = { x: base.x + (base.w - w) * fx, y: base.y + (base.h - h) * fy, w, h };
    setView();
  };
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [x, y] = toTable(event);
    zoomTo({ ...view }, event.deltaY > 0 ? 1.15 : 1 / 1.15, x, sy(y));
  }, { passive: false });

  // -- tools ----------------------------------------------------------------------------------------------------
  document.addEventListener("click", (event) => {
    const add = event.target.closest("[data-add-template]");
    if (add) {
      const t = { kind: add.dataset.addTemplate, center: [W / 2, L / 2], facing_deg: 90 };
      templates.push(t);
      drawTemplate(t);
      select(t);
      updateCoverage();
    }
    if (event.target.closest("[data-ruler]")) {
      rulerOn = !rulerOn;
      event.target.closest("[data-ruler]").setAttribute("aria-pressed", String(rulerOn));
      rulerPoints = [];
      drawRuler();
    }
    if (event.target.closest("[data-rotate-template]") && selected) {
      selected.facing_deg = (selected.facing_deg + 45) % 360;
      placeTemplate(selected);
      updateCoverage();
    }
    if (event.target.closest("[data-remove-template]") && selected) {
      selected.node.remove();
      templates.splice(templates.indexOf(selected), 1);
      select(templates[templates.length - 1] || null);
      updateCoverage();
    }
    if (event.target.closest("[data-zoom-reset]")) {
      view = { x: 0, y: 0, w: W, h: L };
      setView();
    }
  });

  // -- load -----------------------------------------------------------------------------------------------------
  const load = async () => {
    try {
      const [state, units] = await Promise.all([
        fetch(`/api/v1/games/${game}/state`, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : Promise.reject(r.status))),
        fetch(`/api/v1/games/${game}/units`, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : Promise.reject(r.status))),
      ]);
      drawTerrain(state.terrain || {});
      drawBoard(state.board || {});
      layer("stands").replaceChildren();
      stands = units.filter((u) => u.x !== null && u.y !== null && u.base && !u.off_table && !u.killed);
      stands.forEach(drawStand);
      svg.dataset.loaded = String(stands.length);
      updateCoverage();
    } catch (status) {
      notice(status === 401 || status === 403 ? "Join this game to see its table." : "The table could not be loaded; check the connection.");
    }
  };
  load();
})();
