// The scenario editor's deployment: every stand drawn to scale where it is placed, with a handle a finger
// can drag (44 px, however small the base); a stand picked from the list and put down with one tap, or a
// whole formation laid out in its side's zone in one step (base to base with firestep's gap, front rows
// first, facing the enemy). A stand outside its side's zone is marked and counted.
(() => {
  const S = window.firestepScenario;
  if (!S) return;
  const { data, root, map, layers, toLL, fromLL, rect, round, humanise, say, h, standsOf } = S;
  // A formation's name as the forces panel shows it.
  const formationName = (u) =>
    u.name || (u.table_id ? humanise(`${u.table_id} ${u.template || ""}`.trim()) : u.id);
  const SIDES = ["attacker", "defender"];
  const FACING = { attacker: 90, defender: 270 }; // the document's frame: 90 faces the defender
  const GAP = data.deploy_gap_cm;
  const list = root.querySelector("[data-deploy-list]");
  const outsideLine = root.querySelector("[data-outside-note]");
  const drawn = new Map(); // stand id -> { shape, handle, label }
  const names = new Map(); // stand id -> its name under its formation
  const labels = L.layerGroup(); // on the map only when zoomed in far enough to read them
  const { escapeHtml } = window.firestepDom;
  // Labels from as far in as the game's map shows its stands' (table-drawing.js).
  const showLabels = () => {
    const on = S.labelsOn();
    if (on && !map.hasLayer(labels)) labels.addTo(map);
    if (!on && map.hasLayer(labels)) map.removeLayer(labels);
  };
  map.on("zoomend", showLabels);
  let placing = null; // stand id waiting for a tap
  // A game's table (scenario-game-table.js): its stands are only moved; none is laid out or taken off.
  const movesOnly = Boolean(root.dataset.gameId);

  const size = (stand) => {
    const spec = data.sizes.bases[stand.base];
    return spec ? { w: spec.w, d: spec.shape === "round" ? spec.w : spec.d } : { w: 2, d: 2 };
  };
  const corners = (stand) => {
    const { w, d } = size(stand);
    return rect(stand.placement.center, stand.placement.facing_deg ?? 90, w, d);
  };
  const stands = (side) => S.doc().sides[side].forces.flatMap(standsOf);
  // A stand's name with the boxes between it and its formation ("Infantry Company 2 · Infantry Platoon 1"):
  // two "Infantry Platoon 1"s of a battalion are told apart.
  const labelled = (formation) => {
    const out = [];
    const visit = (unit, path) => {
      const here = unit === formation ? [] : [...path, unit.name];
      if (unit.base) out.push({ stand: unit, label: here.join(" · ") || unit.name });
      for (const child of unit.children || []) visit(child, here);
    };
    visit(formation, []);
    return out;
  };
  const outside = (side, stand) => stand.placement && !corners(stand).every((p) => S.insideZone(side, p));

  // -- drawing --------------------------------------------------------------------------------------------
  const drawStand = (side, stand) => {
    const old = drawn.get(stand.id);
    if (old) { layers.stands.removeLayer(old.shape); layers.stands.removeLayer(old.handle); labels.removeLayer(old.label); drawn.delete(stand.id); }
    if (!stand.placement) return;
    const out = outside(side, stand);
    const shape = L.polygon(corners(stand).map(toLL), {
      pane: "stands", className: `map-stand ${side}${out ? " scn-outside" : ""}`, interactive: false,
    }).addTo(layers.stands);
    const handle = L.marker(toLL(stand.placement.center), {
      pane: "stands", draggable: true, autoPan: true, keyboard: false, title: stand.name,
      icon: L.divIcon({ className: `scn-handle ${side}${out ? " scn-outside" : ""}`, iconSize: [44, 44], html: "" }),
    }).addTo(layers.stands);
    handle.getElement()?.setAttribute("data-stand", stand.id);
    handle.on("drag", (e) => shape.setLatLngs(rect(fromLL(e.latlng), stand.placement.facing_deg ?? 90, size(stand).w, size(stand).d).map(toLL)));
    handle.on("dragend", () => put(side, stand, fromLL(handle.getLatLng())));
    const label = L.marker(toLL(stand.placement.center), {
      pane: "stands", interactive: false, keyboard: false,
      icon: L.divIcon({ className: `stand-label ${side}`, html: `<span>${escapeHtml(names.get(stand.id) || stand.name)}</span>`, iconSize: null }),
    }).addTo(labels);
    handle.on("drag", (e) => label.setLatLng(e.latlng));
    drawn.set(stand.id, { shape, handle, label });
  };
  const drawAll = () => {
    layers.stands.clearLayers();
    labels.clearLayers();
    drawn.clear();
    names.clear();
    for (const side of SIDES) for (const f of S.doc().sides[side].forces) for (const { stand, label } of labelled(f)) names.set(stand.id, label);
    for (const side of SIDES) for (const stand of stands(side)) drawStand(side, stand);
    count();
  };
  const count = () => {
    const out = SIDES.flatMap((side) => stands(side).filter((s) => outside(side, s)).map((s) => s.name));
    const placed = SIDES.reduce((n, side) => n + stands(side).filter((s) => s.placement).length, 0);
    root.dataset.placed = String(placed);
    root.dataset.outside = String(out.length);
    outsideLine.hidden = !out.length;
    outsideLine.textContent = out.length
      ? `${out.length} stand${out.length > 1 ? "s are" : " is"} outside ${out.length > 1 ? "their" : "its"} side's zone: ${out.slice(0, 4).join(", ")}${out.length > 4 ? "…" : ""}.`
      : "";
  };
  const put = (side, stand, [x, y]) => {
    if (!S.onTable([x, y])) { say(`${stand.name} must stand on the table.`); drawStand(side, stand); return; }
    stand.placement = { center: [round(x), round(y)], facing_deg: stand.placement?.facing_deg ?? FACING[side] };
    stand.off_table = false;
    const placedIn = find(stand.id);
    if (placedIn) placedIn.formation.off_table = false;
    drawStand(side, stand);
    count();
    renderList();
    S.changed({ placement: stand.id });
  };

  // -- a whole formation in line in its zone --------------------------------------------------------------
  const boxOf = (stand) => {
    const xs = corners(stand).map((p) => p[0]);
    const ys = corners(stand).map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  };
  const overlaps = (a, b) => a[0] < b[2] - 1e-6 && b[0] < a[2] - 1e-6 && a[1] < b[3] - 1e-6 && b[1] < a[3] - 1e-6;
  const layOut = (side, formation) => {
    const zone = S.doc().sides[side].deployment_zone;
    if (!zone) { say(`The ${side} has no deployment zone: give its depth under Scenario.`); return; }
    const ys = zone.coordinates[0].map((p) => p[1]);
    const xs = zone.coordinates[0].map((p) => p[0]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const mine = standsOf(formation);
    mine.forEach((s) => { s.placement = null; });
    formation.off_table = false;
    const taken = stands(side).filter((s) => s.placement).map(boxOf);
    // Rows run from the zone's front (the edge nearer the enemy) towards the side's base edge.
    const front = side === "attacker" ? y1 : y0;
    const back = side === "attacker" ? -1 : 1;
    const rowDepth = Math.max(...mine.map((s) => size(s).d));
    let row = 0;
    let x = x0 + GAP;
    const left = [];
    for (const stand of mine) {
      const { w, d } = size(stand);
      for (;;) {
        const rowFront = row * (rowDepth + GAP);
        if (rowFront + d > y1 - y0 + 1e-6) { left.push(stand); break; }
        if (x + w + GAP > x1 + 1e-6) { row += 1; x = x0 + GAP; continue; }
        const cy = front + back * (rowFront + d / 2);
        const box = [x, Math.min(cy - d / 2, cy + d / 2), x + w, Math.max(cy - d / 2, cy + d / 2)];
        const hit = taken.find((t) => overlaps(t, box));
        if (hit) { x = hit[2] + GAP; continue; }
        stand.placement = { center: [x + w / 2, cy], facing_deg: FACING[side] };
        stand.off_table = false;
        taken.push(box);
        x += w + GAP;
        break;
      }
    }
    drawAll();
    renderList();
    S.changed({ placement: formation.id });
    const placed = mine.length - left.length;
    if (left.length) say(`${formation.name}: ${placed} stands laid out; ${left.length} did not fit in the zone (place them by hand or make the zone deeper).`);
    else say(`${formation.name} laid out in the ${side}'s zone: ${placed} stands.`, true);
  };

  // -- the list: per side, per formation, its stands ------------------------------------------------------
  const renderList = () => {
    const blocks = [];
    for (const side of SIDES) {
      blocks.push(h("h3", { text: `${humanise(side)}` }));
      const forces = S.doc().sides[side].forces;
      if (!forces.length) blocks.push(h("p", { class: "muted", text: "No formations yet: add them under Forces." }));
      for (const formation of forces) {
        const name = formationName(formation);
        if (formation.table_id) {
          blocks.push(h("div", { class: "scn-deploy" }, h("p", { class: "scn-deploy-name", text: name }),
            h("p", { class: "muted", text: `Built from the ${formation.table_id} table and lined up at the ${side}'s base edge when the game starts.` })));
          continue;
        }
        const all = labelled(formation);
        const placed = all.filter(({ stand }) => stand.placement).length;
        blocks.push(h("div", { class: "scn-deploy", "data-deploy-formation": formation.id },
          h("p", { class: "scn-deploy-name", text: formation.off_table ? `${name}: starts off the table` : `${name}: ${placed} of ${all.length} placed` }),
          movesOnly ? null : h("label", { class: "toggle scn-toggle" },
            h("input", { type: "checkbox", "data-off-table": formation.id, checked: Boolean(formation.off_table) }),
            h("span", { text: "Starts off the table (say when it arrives in the notes)" })),
          movesOnly ? null : h("div", { class: "actions" },
            h("button", { type: "button", class: "button primary", "data-lay-out": formation.id, text: `Lay out ${name} in the ${side}'s zone` }),
            // Named by side: both sides may field an "Infantry Company 1", heard alike.
            h("button", { type: "button", class: "button", "data-clear": formation.id, text: `Take the ${side}'s ${name} off the table` })),
          h("details", { "data-deploy-stands": formation.id },
            h("summary", { text: "Place its stands one by one" }),
            h("ul", { class: "scn-list" }, ...all.map(({ stand, label }) => h("li", {},
              h("button", {
                type: "button", class: `button scn-item${outside(side, stand) ? " scn-outside" : ""}`, "data-place": stand.id,
                "aria-pressed": String(placing === stand.id),
                text: `${label}${stand.placement ? (outside(side, stand) ? " · outside its zone" : " · placed") : " · not placed"}`,
              })))))));
      }
    }
    const open = new Set([...list.querySelectorAll("details[open]")].map((d) => d.dataset.deployStands));
    list.replaceChildren(...blocks);
    list.querySelectorAll("details").forEach((d) => { if (open.has(d.dataset.deployStands)) d.open = true; });
  };
  const find = (id) => {
    for (const side of SIDES) {
      for (const formation of S.doc().sides[side].forces) {
        if (formation.id === id) return { side, formation };
        const stand = standsOf(formation).find((s) => s.id === id);
        if (stand) return { side, formation, stand };
      }
    }
    return null;
  };
  const placeByTap = (id) => {
    placing = placing === id ? null : id;
    const found = placing && find(placing);
    S.setTap(found ? (latlng) => {
      const [x, y] = fromLL(latlng);
      placing = null;
      S.setTap(null);
      S.mode("");
      put(found.side, found.stand, [x, y]);
      return true;
    } : null);
    S.mode(found ? `Tap the table where ${found.stand.name} goes.` : "");
    renderList();
  };
  list.addEventListener("change", (e) => {
    const box = e.target.closest("[data-off-table]");
    const f = box && find(box.dataset.offTable);
    if (!f) return;
    f.formation.off_table = box.checked;
    if (box.checked) standsOf(f.formation).forEach((s) => { s.placement = null; });
    drawAll(); renderList(); S.changed({ placement: f.formation.id });
  });
  list.addEventListener("click", (e) => {
    const lay = e.target.closest("[data-lay-out]");
    if (lay) { const f = find(lay.dataset.layOut); if (f) layOut(f.side, f.formation); return; }
    const clear = e.target.closest("[data-clear]");
    if (clear) {
      const f = find(clear.dataset.clear);
      if (!f) return;
      standsOf(f.formation).forEach((s) => { s.placement = null; });
      drawAll(); renderList(); S.changed({ placement: f.formation.id });
      return;
    }
    const place = e.target.closest("[data-place]");
    if (place) placeByTap(place.dataset.place);
  });
  // A formation's placements go to the draft as they change through the outbox (outbox.js: kept on the
  // device, sent again when a flaky wifi drops it). A game's table has no draft: it saves to the game.
  const forcesUrl = root.querySelector("[data-forces-url]")?.dataset.forcesUrl;
  S.onChange(async (what) => {
    const f = forcesUrl && what.placement && find(what.placement);
    if (!f) return;
    const placed = standsOf(f.formation).filter((s) => s.placement);
    const at = (fn) => placed.map((s) => fn(s.placement));
    const body = { formation: f.formation.id, off_table: Boolean(f.formation.off_table),
      stand: placed.map((s) => s.id), x: at((p) => p.center[0]), y: at((p) => p.center[1]),
      facing: at((p) => p.facing_deg ?? 90) };
    const r = await window.firestepOutbox.send(`${forcesUrl}/deploy`, { body });
    if (!r.ok && !r.queued) say(r.data?.detail || window.firestepExplain(r.status, r.data, r.retryAfter));
  });
  S.onChange((what) => {
    if (what.placement) return;
    if (what.all || what.forces || what.form) { drawAll(); renderList(); }
  });
  drawAll();
  renderList();
  showLabels();
})();
