// The scenario editor's deployment: each stand drawn to scale where it is placed, with a handle a finger can
// drag (44 px, however small the base); a stand picked from the list and put down with one tap, or a whole
// formation laid out in one step. The list, the counts, the stands outside their zone and each Lay out's
// places are the server's (app/pages/scenario_forces.py), read again once a placement is kept.
(() => {
  const S = window.firestepScenario;
  if (!S) return;
  const { data, root, map, layers, toLL, fromLL, rect, round, say, standsOf } = S;
  const { escapeHtml, read, draw } = window.firestepDom;
  const FACING = { attacker: 90, defender: 270 }; // the document's frame: 90 faces the defender
  const deploy = root.querySelector("[data-deploy]");
  const list = deploy.querySelector("[data-deploy-list]");
  const outsideLine = deploy.querySelector("[data-outside-note]");
  const island = deploy.querySelector("[data-deploy-labels]"); // stand id -> its name under its formation
  const drawn = new Map(); // stand id -> { shape, handle, label }
  let found = new Map(); // a formation's or a stand's id -> { side, formation, stand }
  let outside = []; // the ids of the stands outside their side's zone, as the server judged them last
  let placing = null; // stand id waiting for a tap
  const labels = L.layerGroup(); // on the map only when zoomed in as far as the game's map labels its stands
  const showLabels = () => {
    if (S.labelsOn() !== map.hasLayer(labels)) labels[map.hasLayer(labels) ? "remove" : "addTo"](map);
  };
  map.on("zoomend", showLabels);
  // The server's counts and marks: the list's, or a Lay out's until the list is read again.
  const judged = (said) => {
    ({ outside } = said);
    Object.assign(root.dataset, { placed: said.placed, outside: outside.length });
    drawn.forEach((d, id) => [d.shape, d.handle].forEach((l) => l.getElement()?.classList.toggle("scn-outside", outside.includes(id))));
  };

  const drawStand = (side, stand) => {
    const old = drawn.get(stand.id);
    if (old) { layers.stands.removeLayer(old.shape); layers.stands.removeLayer(old.handle); labels.removeLayer(old.label); drawn.delete(stand.id); }
    if (!stand.placement) return;
    const spec = data.sizes.bases[stand.base];
    const [w, d] = spec ? [spec.w, spec.shape === "round" ? spec.w : spec.d] : [2, 2];
    const at = (centre) => rect(centre, stand.placement.facing_deg ?? 90, w, d).map(toLL);
    const out = outside.includes(stand.id) ? " scn-outside" : "";
    const shape = L.polygon(at(stand.placement.center), { pane: "stands", className: `map-stand ${side}${out}`, interactive: false }).addTo(layers.stands);
    const handle = L.marker(toLL(stand.placement.center), {
      pane: "stands", draggable: true, autoPan: true, keyboard: false, title: stand.name,
      icon: L.divIcon({ className: `scn-handle ${side}${out}`, iconSize: [44, 44], html: "" }),
    }).addTo(layers.stands);
    handle.getElement()?.setAttribute("data-stand", stand.id);
    const label = L.marker(toLL(stand.placement.center), {
      pane: "stands", interactive: false, keyboard: false,
      icon: L.divIcon({ className: `stand-label ${side}`, html: `<span>${escapeHtml(names[stand.id] || stand.name)}</span>`, iconSize: null }),
    }).addTo(labels);
    handle.on("drag", (e) => { shape.setLatLngs(at(fromLL(e.latlng))); label.setLatLng(e.latlng); });
    handle.on("dragend", () => put(side, stand, fromLL(handle.getLatLng())));
    drawn.set(stand.id, { shape, handle, label });
  };
  let names = {};
  const drawAll = () => {
    layers.stands.clearLayers();
    labels.clearLayers();
    drawn.clear();
    found = new Map();
    names = JSON.parse(island.textContent);
    for (const side of ["attacker", "defender"]) {
      for (const formation of S.doc().sides[side].forces) {
        found.set(formation.id, { side, formation });
        standsOf(formation).forEach((stand) => { found.set(stand.id, { side, formation, stand }); drawStand(side, stand); });
      }
    }
  };
  const put = (side, stand, [x, y]) => {
    if (!S.onTable([x, y])) { say(`${stand.name} must stand on the table.`); drawStand(side, stand); return; }
    const facing_deg = stand.placement?.facing_deg ?? FACING[side];
    Object.assign(stand, { placement: { center: [round(x), round(y)], facing_deg }, off_table: false });
    found.get(stand.id).formation.off_table = false;
    drawStand(side, stand);
    S.changed({ placement: stand.id });
  };
  // Laid out as its Lay out button says (the server's places: rules.table.layout); the buttons wait for the
  // list read again once a placement is kept, so the next one lays out around it.
  const layOut = (formation, button) => {
    const { at, said, done, ...counts } = JSON.parse(button.dataset.layout);
    if (!at) { say(said); return; }
    const mine = new Map(standsOf(formation).map((s) => [s.id, s]));
    mine.forEach((s) => { s.placement = null; });
    for (const [id, x, y, facing] of at) Object.assign(mine.get(id), { placement: { center: [x, y], facing_deg: facing }, off_table: false });
    formation.off_table = false;
    judged({ ...counts, outside: [...outside.filter((id) => !mine.has(id)), ...counts.outside] });
    drawAll();
    S.changed({ placement: formation.id });
    say(said, done);
  };
  // A formation taken off the table (none placed), or its "Starts off the table" ticked (none placed) or not.
  const unplace = ({ formation }, off) => {
    if (off !== undefined) formation.off_table = off;
    if (off !== false) standsOf(formation).forEach((s) => { s.placement = null; });
    drawAll();
    S.changed({ placement: formation.id });
  };

  // The list is the server's, from the draft; offline it stays as it was (the map is ours).
  const pressed = () => list.querySelectorAll("[data-place]").forEach((b) => { b.ariaPressed = String(b.dataset.place === placing); });
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
    judged(JSON.parse(part.dataset.judged));
    // The forces changed (their labels too): drawn again; not on a mere placement (a drag may be under way).
    if (labelled.textContent !== island.textContent) { island.textContent = labelled.textContent; drawAll(); }
  };
  const placeByTap = (id) => {
    placing = placing === id ? null : id;
    const f = placing && found.get(placing);
    S.setTap(f ? (latlng) => { placing = null; S.setTap(null); S.mode(""); put(f.side, f.stand, fromLL(latlng)); return true; } : null);
    S.mode(f ? `Tap the table where ${f.stand.name} goes.` : "");
    pressed();
  };
  list.addEventListener("change", (e) => {
    const box = e.target.closest("[data-off-table]");
    if (box && found.has(box.dataset.offTable)) unplace(found.get(box.dataset.offTable), box.checked);
  });
  list.addEventListener("click", (e) => {
    const b = e.target.closest("[data-lay-out], [data-clear], [data-place]");
    const { layOut: lay, clear, place } = b?.dataset || {};
    if (place !== undefined) placeByTap(place);
    else if (found.has(lay)) layOut(found.get(lay).formation, b);
    else if (found.has(clear)) unplace(found.get(clear));
  });
  // A formation's placements go to the draft as they change through the outbox (outbox.js: kept on the
  // device, sent again when a flaky wifi drops it). A game's table has no draft: it saves to the game.
  S.onChange(async (what) => {
    const forcesUrl = root.querySelector("[data-forces-url]")?.dataset.forcesUrl;
    const f = forcesUrl && what.placement && found.get(what.placement);
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
  S.onChange((what) => { if (!what.placement && (what.all || what.forces || what.form)) drawAll(); });
  judged(JSON.parse(deploy.dataset.judged));
  drawAll();
  showLabels();
})();
