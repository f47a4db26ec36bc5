// The scenario editor's deployment: each stand drawn to scale where it is placed, with a handle a finger can
// drag (44 px, however small the base); a stand picked from the list and put down with one tap, or a whole
// formation laid out in its side's zone in one step (the server's places). One outside its zone is marked.
(() => {
  const S = window.firestepScenario;
  if (!S) return;
  const { data, root, map, layers, toLL, fromLL, rect, round, say, standsOf } = S;
  const SIDES = ["attacker", "defender"];
  const FACING = { attacker: 90, defender: 270 }; // the document's frame: 90 faces the defender
  const list = root.querySelector("[data-deploy-list]");
  const outsideLine = root.querySelector("[data-outside-note]");
  const drawn = new Map(); // stand id -> { shape, handle, label }
  const island = root.querySelector("[data-deploy-labels]"); // the server's: stand id -> name under formation
  let names = {};
  const labels = L.layerGroup(); // on the map only when zoomed in far enough to read them
  const { escapeHtml, read, draw } = window.firestepDom;
  // Labels from as far in as the game's map shows its stands' (table-drawing.js).
  const showLabels = () => {
    const on = S.labelsOn();
    if (on && !map.hasLayer(labels)) labels.addTo(map);
    if (!on && map.hasLayer(labels)) map.removeLayer(labels);
  };
  map.on("zoomend", showLabels);
  let placing = null; // stand id waiting for a tap

  const size = (stand) => {
    const spec = data.sizes.bases[stand.base];
    return spec ? { w: spec.w, d: spec.shape === "round" ? spec.w : spec.d } : { w: 2, d: 2 };
  };
  const corners = (stand) => {
    const { w, d } = size(stand);
    return rect(stand.placement.center, stand.placement.facing_deg ?? 90, w, d);
  };
  const stands = (side) => S.doc().sides[side].forces.flatMap(standsOf);
  const outside = (side, stand) => stand.placement && !corners(stand).every((p) => S.insideZone(side, p));

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
      icon: L.divIcon({ className: `stand-label ${side}`, html: `<span>${escapeHtml(names[stand.id] || stand.name)}</span>`, iconSize: null }),
    }).addTo(labels);
    handle.on("drag", (e) => label.setLatLng(e.latlng));
    drawn.set(stand.id, { shape, handle, label });
  };
  const drawAll = () => {
    layers.stands.clearLayers();
    labels.clearLayers();
    drawn.clear();
    names = JSON.parse(island.textContent);
    for (const side of SIDES) for (const stand of stands(side)) drawStand(side, stand);
    count();
  };
  const count = () => {
    const of = (test) => String(SIDES.reduce((n, side) => n + stands(side).filter((s) => test(side, s)).length, 0));
    root.dataset.placed = of((side, s) => s.placement);
    root.dataset.outside = of(outside);
  };
  const put = (side, stand, [x, y]) => {
    if (!S.onTable([x, y])) { say(`${stand.name} must stand on the table.`); drawStand(side, stand); return; }
    stand.placement = { center: [round(x), round(y)], facing_deg: stand.placement?.facing_deg ?? FACING[side] };
    stand.off_table = false;
    const placedIn = find(stand.id);
    if (placedIn) placedIn.formation.off_table = false;
    drawStand(side, stand);
    count();
    S.changed({ placement: stand.id });
  };

  // Laid out as the server lays it out from the draft (its Lay out button's places: rules.table.layout); the
  // buttons wait for the list read again once a placement is kept, so the next one lays out around it.
  const layOut = (formation, button) => {
    const { at, said, done } = JSON.parse(button.dataset.layout);
    if (!at) { say(said); return; }
    const mine = new Map(standsOf(formation).map((s) => [s.id, s]));
    mine.forEach((s) => { s.placement = null; });
    for (const [id, x, y, facing] of at) Object.assign(mine.get(id), { placement: { center: [x, y], facing_deg: facing }, off_table: false });
    formation.off_table = false;
    drawAll();
    S.changed({ placement: formation.id });
    say(said, done);
  };

  // The list is the server's, from the draft; offline it stays as it was (the map and the counts are ours).
  const pressed = () =>
    list.querySelectorAll("[data-place]").forEach((b) => { b.ariaPressed = String(b.dataset.place === placing); });
  let reads = 0; // only the latest read is drawn: two placements kept in a row answer in any order
  const reread = async () => {
    const url = root.querySelector("[data-forces-url]")?.dataset.forcesUrl;
    const n = ++reads;
    const part = url && (await read(`${url}/deploy`));
    if (!part || n !== reads) return;
    const open = [...list.querySelectorAll("details[open]")].map((d) => d.dataset.deployStands);
    const [words, items, labelled] = part.children;
    draw(outsideLine, words);
    outsideLine.hidden = words.hidden;
    draw(list, items);
    list.querySelectorAll("details").forEach((d) => { d.open = open.includes(d.dataset.deployStands); });
    pressed();
    // The forces changed (their labels too): drawn again; not on a mere placement (a drag may be under way).
    if (labelled.textContent !== island.textContent) { island.textContent = labelled.textContent; drawAll(); }
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
    pressed();
  };
  list.addEventListener("change", (e) => {
    const box = e.target.closest("[data-off-table]");
    const f = box && find(box.dataset.offTable);
    if (!f) return;
    f.formation.off_table = box.checked;
    if (box.checked) standsOf(f.formation).forEach((s) => { s.placement = null; });
    drawAll(); S.changed({ placement: f.formation.id });
  });
  list.addEventListener("click", (e) => {
    const lay = e.target.closest("[data-lay-out]");
    if (lay) { const f = find(lay.dataset.layOut); if (f) layOut(f.formation, lay); return; }
    const clear = e.target.closest("[data-clear]");
    if (clear) {
      const f = find(clear.dataset.clear);
      if (!f) return;
      standsOf(f.formation).forEach((s) => { s.placement = null; });
      drawAll(); S.changed({ placement: f.formation.id });
      return;
    }
    const place = e.target.closest("[data-place]");
    if (place) placeByTap(place.dataset.place);
  });
  // A formation's placements go to the draft as they change through the outbox (outbox.js: kept on the
  // device, sent again when a flaky wifi drops it). A game's table has no draft: it saves to the game.
  S.onChange(async (what) => {
    const forcesUrl = root.querySelector("[data-forces-url]")?.dataset.forcesUrl;
    const f = forcesUrl && what.placement && find(what.placement);
    if (!f) return;
    const placed = standsOf(f.formation).filter((s) => s.placement);
    const at = (fn) => placed.map((s) => fn(s.placement));
    const body = { formation: f.formation.id, off_table: Boolean(f.formation.off_table),
      stand: placed.map((s) => s.id), x: at((p) => p.center[0]), y: at((p) => p.center[1]),
      facing: at((p) => p.facing_deg ?? 90) };
    list.querySelectorAll("[data-lay-out]").forEach((b) => { b.disabled = true; });
    const r = await window.firestepOutbox.send(`${forcesUrl}/deploy`, { body });
    if (!r.queued) reread();
    if (!r.ok && !r.queued) say(r.data?.detail || window.firestepExplain(r.status, r.data, r.retryAfter));
  });
  document.addEventListener("firestep:refresh", reread); // the placements kept offline, sent
  // The draft's forces changed, or its zones (the particulars' answer): the list read anew.
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (["scn-formations", "scn-checks"].includes(e.detail.target.id)) reread();
  });
  S.onChange((what) => {
    if (what.placement) return;
    if (what.all || what.forces || what.form) drawAll();
  });
  drawAll();
  showLabels();
})();
