// Moving a whole company or battalion on the map in one drag, keeping its formation: a move handle beside
// the formation and a turn handle ahead of it (one finger each; two fingers stay the map's pinch). The stands
// follow as a ghost while dragged; on release one write moves them all (POST .../units/{id}/move-formation:
// one event, one Undo), where the rules put them (rules.table.frame.shifted_about_centre).
(() => {
  const m = window.firestepMap;
  if (!m) return;
  const { section, api, model, nameOf, notice, refusal, failed, send, leaflet: map, toLL, fromLL, rect, sizes, drawIn, panel } = m;
  const ghosts = L.layerGroup().addTo(map);
  const handles = L.layerGroup().addTo(map);
  let moving = null; // { formation, stands, centre, dx, dy, turn, facing }
  let told = null; // its "Drag ✥ …" (the map's notice), which goes with its handles
  let dragging = false;

  // A stand is under formation f where it or a formation above it is f.
  const under = (u, f) => Boolean(u) && (u.id === f.id || under(model.units.get(u.parent_id), f));
  const standsUnder = (f) => [...model.units.values()].filter((u) => m.onTable(u) && under(u, f));
  m.standsUnder = standsUnder; // table-dock.js keeps a formation's stands clear of the card
  const base = (u) => { const b = sizes.bases[u.base] || { w: 0, d: 0 }; return [b.w, b.d]; };
  // The ghosts: each stand shifted and turned about the centre, as the rules will put it.
  const drawGhosts = () => {
    ghosts.clearLayers();
    const { centre: [cx, cy], dx, dy, turn } = moving;
    const a = (turn * Math.PI) / 180, cos = Math.cos(a), sin = Math.sin(a);
    for (const u of moving.stands) {
      const rx = u.x - cx, ry = u.y - cy, at = [cx + dx + rx * cos - ry * sin, cy + dy + rx * sin + ry * cos];
      const ghost = { ...drawIn("ruler"), className: "formation-ghost", interactive: false };
      L.polygon(rect(at, (u.facing_deg ?? 90) + turn, ...base(u)), ghost).addTo(ghosts);
    }
  };
  // Where the handles go: each in sight, off the card (else under it: in sight once it closes), off the
  // formation's stands' tap targets and a handle's width clear of the other, so one finger drags what
  // it meant. The move handle off the flank (else the rear, else the front) of the stand whose card is open
  // (else the one nearest the centre), further out until clear; the turn handle ahead of the formation, else
  // a step from the move handle (away from the formation first, turned inward near the table's edges).
  const HALF = 24; // half a handle (48 px)
  const px = m.screenPoint;
  const handleSpots = (centre, a) => {
    const { stands, dx, dy, centre: [cx, cy] } = moving;
    const size = map.getSize(), square = (p, by = 0) => m.grow({ left: p.x, right: p.x, top: p.y, bottom: p.y }, HALF + by);
    const target = (u, at) => { // a stand's tap target: its base and a 44 px square about its centre
      const c = px(at);
      const b = L.bounds([c.subtract([22, 22]), c.add([22, 22]), ...rect(at, u.facing_deg ?? 90, ...base(u)).map((ll) => map.latLngToContainerPoint(ll))]);
      return { left: b.min.x, right: b.max.x, top: b.min.y, bottom: b.max.y };
    };
    const boxes = stands.map((u) => target(u, [u.x + dx, u.y + dy]));
    // Off every stand's where it can be: a finger on its way to the next stand finds it there, not a handle.
    const others = [...model.units.values()].filter(m.onTable).map((u) => target(u, [u.x, u.y]));
    const card = panel && !panel.hidden ? [m.boxOf(panel)] : [];
    const clear = (p, over) => {
      const r = square(p);
      return r.left >= 0 && r.top >= 0 && r.right <= size.x && r.bottom <= size.y && m.isClear(boxes.concat(over), r);
    };
    const take = (spots) => {
      const p = spots.find((q) => clear(q, card.concat(others))) || spots.find((q) => clear(q, card)) || spots.find((q) => clear(q, [])) || spots[0];
      boxes.push(square(p, 8)); // the next handle a finger's width clear of it
      return p;
    };
    const near = (u) => Math.hypot(u.x - cx, u.y - cy);
    const anchor = stands.find((u) => u.id === m.selectedStand()) || stands.reduce((best, u) => (near(u) < near(best) ? u : best));
    const perPx = 1 / px([1, 0]).distanceTo(px([0, 0]));
    const far = (out) => Math.max(...base(anchor)) / 2 + out * perPx;
    const sides = [a - Math.PI / 2, a + Math.PI / 2, a + Math.PI, a];
    const mv = take([48, 72, 104, 144].flatMap((out) => sides.map((d) => px([anchor.x + dx + far(out) * Math.cos(d), anchor.y + dy + far(out) * Math.sin(d)]))));
    const reach = Math.max(8, ...stands.map(near)) + 6, c = px(centre);
    const away = Math.atan2(mv.y - c.y, mv.x - c.x);
    const steps = [0, 1, -1, 2, -2, 3, -3, 4].map((k) => mv.add([64 * Math.cos(away + (k * Math.PI) / 4), 64 * Math.sin(away + (k * Math.PI) / 4)]));
    const lever = take([px([centre[0] + reach * Math.cos(a), centre[1] + reach * Math.sin(a)]), ...steps]);
    return [mv, lever].map((p) => fromLL(map.containerPointToLatLng(p)));
  };
  const handle = (at, text, label, data) => {
    const icon = L.divIcon({ className: "formation-handle", html: `<span role="img" aria-label="${label}">${text}</span>`, iconSize: [48, 48], iconAnchor: [24, 24] });
    const marker = L.marker(toLL(at), { draggable: true, keyboard: false, icon }).addTo(handles);
    marker.getElement()?.setAttribute(data, "");
    marker.on("dragstart", () => { dragging = true; notice.clear("notice"); }); // a drag acts again
    marker.on("dragend", () => { dragging = false; commit(); });
    return marker;
  };
  const showHandles = () => {
    handles.clearLayers();
    const { centre: [cx, cy], dx, dy, turn, facing } = moving;
    const centre = [cx + dx, cy + dy];
    const [at, lever] = handleSpots(centre, ((facing + turn) * Math.PI) / 180); // ahead: as it faces
    const move = handle(at, "✥", "Drag to move the formation", "data-formation-move");
    const turner = handle(lever, "↻", "Drag to turn the formation", "data-formation-turn");
    move.on("drag", () => {
      const [x, y] = fromLL(move.getLatLng());
      moving.dx = x - at[0] + dx; moving.dy = y - at[1] + dy;
      drawGhosts();
    });
    // The turn follows the handle about the centre from where it was put (not always straight ahead).
    const from = Math.atan2(lever[1] - centre[1], lever[0] - centre[0]);
    turner.on("drag", () => {
      const [x, y] = fromLL(turner.getLatLng());
      moving.turn = turn + ((Math.atan2(y - centre[1], x - centre[0]) - from) * 180) / Math.PI;
      drawGhosts();
    });
  };
  const stop = () => { notice.clear("instruction", told); moving = null; dragging = false; ghosts.clearLayers(); handles.clearLayers(); };
  // The map moved (a card docked, a pinch): the handles placed again in sight, but only once a finger on a
  // handle is lifted (a drag begins at its first move, and a handle drawn anew then would lose it).
  let pressed = false;
  let missed = false;
  map.on("moveend zoomend", () => {
    if (!moving || dragging) return;
    if (pressed) missed = true;
    else showHandles();
  });
  document.addEventListener("pointerdown", (e) => {
    pressed = Boolean(e.target.closest?.("[data-formation-move], [data-formation-turn]"));
  }, true);
  const lifted = () => {
    pressed = false;
    if (missed && moving && !dragging) showHandles();
    missed = false;
  };
  document.addEventListener("pointerup", lifted, true);
  document.addEventListener("pointercancel", lifted, true);
  // The stands where they stand (the move written, or refused: where they were), the handles beside them.
  const begin = (f) => {
    const stands = standsUnder(f);
    const centre = [0, 1].map((i) => stands.reduce((s, u) => s + [u.x, u.y][i], 0) / stands.length);
    moving = { formation: f, stands, centre, dx: 0, dy: 0, turn: 0, facing: stands[0]?.facing_deg ?? 90 };
    ghosts.clearLayers();
    showHandles();
  };
  const commit = async () => {
    if (!moving) return;
    const { formation, dx, dy, turn } = moving;
    const body = { dx: Number(dx.toFixed(2)), dy: Number(dy.toFixed(2)), turn_deg: Number((((turn + 540) % 360) - 180).toFixed(1)) };
    const r = await send(`${api}/units/${formation.id}/move-formation`, { body });
    if (failed(r)) notice(refusal(r, "The formation did not move; check the connection."));
    else if (r.ok && r.data) model.apply({ id: r.data.event_id, kind: "move", payload: { changes: r.data.changes } });
    if (moving?.formation === formation) begin(formation);
  };

  window.addEventListener("firestep:stand-shown", (e) => {
    // Its handles last while the card shown offers its move, not greyed, in the step the move was begun in.
    const shown = moving && section("stand").querySelector(`[data-move-formation="${moving.formation.id}"]`);
    if (moving && (e.detail.moved || !shown || shown.matches("[data-act-greyed]"))) stop();
    else shown?.setAttribute("aria-pressed", "true");
  });
  // "Move its company" pressed: its handles shown, or (pressed again) put away. Greyed, table-act.js says why.
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-panel-close]")) stop();
    const b = e.target.closest("[data-move-formation]:not([data-act-greyed])");
    const f = b && model.units.get(Number(b.dataset.moveFormation));
    if (!f) return;
    const again = moving?.formation.id === f.id;
    stop();
    b.setAttribute("aria-pressed", String(!again));
    if (again) return;
    begin(f);
    told = m.tell(`Drag ✥ to move ${nameOf(f).short} (${moving.stands.length} stands) or ↻ to turn it.`);
  });
  // A change to another of its stands reads the card anew, which may grey its move (the map reads its own).
  model.listen(({ changed }) => { if (moving?.stands.some((s) => changed?.has(s.id)) && !changed.has(m.selectedStand())) m.showStand(m.selectedStand()); });
})();
