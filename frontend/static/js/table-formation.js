// Moving a whole company or battalion on the map in one drag, keeping its formation: a move handle beside the
// formation (on a flank, clear of its stands and of the enemy in contact ahead) and a turn handle ahead of it
// (one finger each; two fingers stay the map's pinch). The stands follow as a ghost while dragged; on release
// one write moves them all (POST .../units/{id}/move-formation: one event, one Undo).
(() => {
  const start = () => {
    const m = window.firestepMap;
    if (!m || m.formations) return;
    m.formations = true;
    const { section, api, model, nameOf, notice, refusal, failed, send, leaflet: map, toLL, fromLL, rect, sizes, drawIn } = m;
    const ghosts = L.layerGroup().addTo(map);
    const handles = L.layerGroup().addTo(map);
    let moving = null; // { formation, stands, centre, dx, dy, turn, facing }
    let dragging = false;

    const standsUnder = (f) => {
      const under = (u) => { for (let a = u; a; a = model.units.get(a.parent_id)) if (a.id === f.id) return true; return false; };
      return [...model.units.values()].filter((u) => u.base && u.x !== null && u.y !== null && !u.killed && !u.off_table && under(u));
    };
    m.standsUnder = standsUnder; // table-dock.js keeps a formation's stands clear of the card
    const placedAt = (u) => {
      const { centre: [cx, cy], dx, dy, turn } = moving;
      const a = (turn * Math.PI) / 180;
      const rx = u.x - cx, ry = u.y - cy;
      return [cx + dx + rx * Math.cos(a) - ry * Math.sin(a), cy + dy + rx * Math.sin(a) + ry * Math.cos(a), (u.facing_deg ?? 90) + turn];
    };
    const drawGhosts = () => {
      ghosts.clearLayers();
      for (const u of moving.stands) {
        const [x, y, f] = placedAt(u);
        const b = sizes.bases[u.base];
        L.polygon(rect([x, y], f, b.w, b.d), { ...drawIn("ruler"), className: "formation-ghost", interactive: false }).addTo(ghosts);
      }
    };
    const icon = (text, label) => L.divIcon({ className: "formation-handle", html: `<span role="img" aria-label="${label}">${text}</span>`, iconSize: [48, 48], iconAnchor: [24, 24] });
    const reach = () => Math.max(8, ...moving.stands.map((u) => Math.hypot(u.x - moving.centre[0], u.y - moving.centre[1]))) + 6;
    // Where the handles go: each in sight, off the card, over none of the formation's stands' tap targets and
    // a handle's width clear of the other, so one finger drags what it meant.
    const panel = document.querySelector("[data-map-panel]");
    const HALF = 24; // half a handle (48 px)
    const px = m.screenPoint;
    const placer = () => {
      const { dx, dy } = moving;
      const size = map.getSize();
      const box = map.getContainer().getBoundingClientRect();
      const card = panel && !panel.hidden ? panel.getBoundingClientRect() : null;
      const targets = moving.stands.map((u) => {
        const b = sizes.bases[u.base] || { w: 0, d: 0 };
        const c = px([u.x + dx, u.y + dy]);
        const corners = rect([u.x + dx, u.y + dy], u.facing_deg ?? 90, b.w, b.d).map((ll) => map.latLngToContainerPoint(ll));
        const xs = [c.x - 22, c.x + 22, ...corners.map((q) => q.x)], ys = [c.y - 22, c.y + 22, ...corners.map((q) => q.y)];
        return { l: Math.min(...xs), r: Math.max(...xs), t: Math.min(...ys), b: Math.max(...ys) };
      });
      const placed = [];
      const clear = (p, card) => {
        const onMap = p.x >= HALF && p.y >= HALF && p.x <= size.x - HALF && p.y <= size.y - HALF;
        const x = p.x + box.left, y = p.y + box.top;
        const offCard = !(card && x >= card.left - HALF && x <= card.right + HALF && y >= card.top - HALF && y <= card.bottom + HALF);
        const offStands = targets.every((t) => p.x + HALF <= t.l || p.x - HALF >= t.r || p.y + HALF <= t.t || p.y - HALF >= t.b);
        const offHandles = placed.every((q) => Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y)) >= 2 * HALF + 8);
        return onMap && offCard && offStands && offHandles;
      };
      // The first clear spot of `spots` (container points); where the card lies over the formation, one under
      // the card (in sight once it closes); else the first. Kept clear of the next handle.
      const take = (spots) => {
        const p = spots.find((q) => clear(q, card)) || spots.find((q) => clear(q, null)) || spots[0];
        placed.push(p);
        return p;
      };
      return { take };
    };
    // The move handle off the flank (else the rear, else the front) of the stand whose card is open (else the
    // one nearest the centre), further out until clear; as its offset from the centre, which it drags.
    const aside = (centre, a, place) => {
      const { dx, dy } = moving;
      const shown = moving.stands.find((u) => u.id === m.selectedStand());
      const anchor = shown || moving.stands.reduce((best, u) => (Math.hypot(u.x - moving.centre[0], u.y - moving.centre[1]) < Math.hypot(best.x - moving.centre[0], best.y - moving.centre[1]) ? u : best));
      const b = sizes.bases[anchor.base] || { w: 0, d: 0 };
      const perPx = 1 / px([1, 0]).distanceTo(px([0, 0]));
      const at = [anchor.x + dx, anchor.y + dy];
      const spots = [];
      for (const out of [48, 72, 104, 144]) {
        const far = Math.max(b.w, b.d) / 2 + out * perPx;
        for (const d of [a - Math.PI / 2, a + Math.PI / 2, a + Math.PI, a]) spots.push([at[0] + far * Math.cos(d), at[1] + far * Math.sin(d)]);
      }
      const p = place.take(spots.map(px));
      const spot = fromLL(map.containerPointToLatLng(p));
      return [spot[0] - centre[0], spot[1] - centre[1]];
    };
    // The turn handle ahead of the formation, else a fixed step from the move handle (away from the formation
    // first, turned inward near the table's edges).
    const ahead = (centre, a, back, place) => {
      const lever = px([centre[0] + reach() * Math.cos(a), centre[1] + reach() * Math.sin(a)]);
      const mv = px([centre[0] + back[0], centre[1] + back[1]]), c = px(centre);
      const away = Math.atan2(mv.y - c.y, mv.x - c.x);
      const step = 2 * HALF + 16;
      const spots = [lever];
      for (const k of [0, 1, -1, 2, -2, 3, -3, 4]) spots.push(L.point(mv.x + step * Math.cos(away + (k * Math.PI) / 4), mv.y + step * Math.sin(away + (k * Math.PI) / 4)));
      return fromLL(map.containerPointToLatLng(place.take(spots)));
    };
    const showHandles = () => {
      handles.clearLayers();
      const [cx, cy] = moving.centre;
      const centre = [cx + moving.dx, cy + moving.dy];
      const a = ((moving.facing + moving.turn) * Math.PI) / 180; // ahead: as the formation faces
      const place = placer();
      const back = aside(centre, a, place);
      const lever = ahead(centre, a, back, place);
      const move = L.marker(toLL([centre[0] + back[0], centre[1] + back[1]]), { draggable: true, keyboard: false, icon: icon("✥", "Drag to move the formation") }).addTo(handles);
      const turner = L.marker(toLL(lever), {
        draggable: true, keyboard: false, icon: icon("↻", "Drag to turn the formation"),
      }).addTo(handles);
      move.getElement()?.setAttribute("data-formation-move", "");
      turner.getElement()?.setAttribute("data-formation-turn", "");
      move.on("drag", () => {
        const [x, y] = fromLL(move.getLatLng());
        moving.dx = x - back[0] - cx; moving.dy = y - back[1] - cy;
        drawGhosts();
      });
      // The turn follows the handle about the centre from where it was put (not always straight ahead).
      const from = Math.atan2(lever[1] - centre[1], lever[0] - centre[0]), turned = moving.turn;
      turner.on("drag", () => {
        const [x, y] = fromLL(turner.getLatLng());
        moving.turn = turned + ((Math.atan2(y - centre[1], x - centre[0]) - from) * 180) / Math.PI;
        drawGhosts();
      });
      for (const handle of [move, turner]) {
        handle.on("dragstart", () => { dragging = true; });
        handle.on("dragend", () => { dragging = false; commit(); });
      }
    };
    const stop = () => { moving = null; dragging = false; ghosts.clearLayers(); handles.clearLayers(); };
    // The map moved (a card docked, a pinch): the move handle placed again in sight, but only once a finger
    // on a handle is lifted (a drag begins at its first move, and a handle drawn anew then would lose it).
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
    const commit = async () => {
      if (!moving) return;
      const { formation, dx, dy, turn } = moving;
      const body = { dx: Number(dx.toFixed(2)), dy: Number(dy.toFixed(2)), turn_deg: Number((((turn + 540) % 360) - 180).toFixed(1)) };
      const r = await send(`${api}/units/${formation.id}/move-formation`, { body });
      if (failed(r)) {
        notice(refusal(r, "The formation did not move; check the connection."));
        moving.dx = 0; moving.dy = 0; moving.turn = 0;
        drawGhosts(); showHandles();
        return;
      }
      if (r.ok && r.data) model.apply({ id: r.data.event_id, kind: "move", payload: { changes: r.data.changes } });
      // The stands are where the ghosts were: start again from there for the next drag.
      moving.stands = standsUnder(formation);
      moving.centre = centreOf(moving.stands);
      moving.dx = 0; moving.dy = 0; moving.turn = 0; moving.facing = moving.stands[0]?.facing_deg ?? 90;
      ghosts.clearLayers();
      showHandles();
      window.dispatchEvent(new CustomEvent("firestep:map-changed"));
    };
    const centreOf = (stands) => [stands.reduce((s, u) => s + u.x, 0) / stands.length, stands.reduce((s, u) => s + u.y, 0) / stands.length];
    const begin = (f) => {
      const stands = standsUnder(f);
      moving = { formation: f, stands, centre: centreOf(stands), dx: 0, dy: 0, turn: 0, facing: stands[0].facing_deg ?? 90 };
      showHandles();
      m.tell(`Drag ✥ to move ${nameOf(f).short} (${stands.length} stands) or ↻ to turn it.`);
    };

    window.addEventListener("firestep:stand-shown", (e) => {
      const u = model.units.get(e.detail.id);
      // Its handles go with another company's card, or with the step the move was begun in.
      if (moving && (!u || e.detail.moved || !moving.stands.some((s) => s.id === u.id))) stop();
      // The head's "Move its company" (app/pages/map_cards.py): the one moving shown pressed.
      if (moving) section("stand").querySelector(`[data-move-formation="${moving.formation.id}"]`)?.setAttribute("aria-pressed", "true");
    });
    document.addEventListener("click", (e) => {
      const b = e.target.closest("[data-move-formation]");
      if (b && b.matches("[data-act-greyed]")) return; // greyed: table-act.js says why
      if (b) {
        const f = model.units.get(Number(b.dataset.moveFormation));
        if (moving && moving.formation.id === f.id) { stop(); b.setAttribute("aria-pressed", "false"); return; }
        stop();
        if (f) { begin(f); b.setAttribute("aria-pressed", "true"); }
        return;
      }
      if (e.target.closest("[data-panel-close]")) stop();
    });
  };
  if (window.firestepMap) start();
  window.addEventListener("firestep:map-ready", start);
})();
