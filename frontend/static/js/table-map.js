// The table map drawn with Leaflet (1 unit = 1 cm) from the live model (table-model.js): a tap opens the card
// of the nearest stand in a finger's reach, a template drags by its label. The table is drawn from the seat's
// own edge (at the bottom in portrait, on the left in landscape); the referee sees it from the attacker's.
// By keyboard (issue 92) the table is a stop in the Tab order with one stand its active one (aria-activedescendant:
// a stand made focusable would draw a finger's tap to it), each an image named with its card's words; the arrows
// go to the nearest stand that way as seen, Enter opens its card on its name, Escape closes it back to the table.
(() => {
  const { escapeHtml, read, humanise } = window.firestepDom;
  const root = document.querySelector("[data-map-page]");
  const canvas = document.querySelector("[data-map-canvas]");
  if (!root || !canvas || !window.L || !window.firestepTableModel || !window.firestepTableDrawing) return;
  const { createMap, addPanes, frame } = window.firestepTableDrawing;
  const [W, LEN, { game, role }] = [Number(root.dataset.width), Number(root.dataset.length), root.dataset];
  const island = (id) => JSON.parse(document.getElementById(id).textContent);
  const sizes = island("map-sizes");
  // The rule set's counter the markers move (drawn on a stand and its label), its card's fields and the words of
  // its units' kinds and levels (the server's: "MMG"), which name a stand as its card does.
  const { marker, card, unit_words: words } = island("map-state");
  const markersOf = (u) => (marker ? Number(u[marker.name] || 0) : 0);
  const model = window.firestepTableModel.create();
  const HIT_PX = 22; // half of a 44 px finger target: a tap this close to a stand's centre picks it
  const notice = window.firestepNotice;
  // What to do next ("Tap where … goes."): an instruction, in the notices' plain style, never a refusal's.
  const tell = (text) => notice(text, false, { key: "instruction", tone: "info" });
  const api = `/api/v1/games/${game}`;
  // A unit's names are its units list's (read anew as a unit is added); a frame's units carry none: kept.
  const nameOf = (u) => ({ short: u.short_name, full: u.full_name, plain: u.plain_name });
  const clamp = (v, most) => Number(Math.max(0, Math.min(most, v)).toFixed(2));
  const onTheTable = ([x, y]) => [clamp(x, W), clamp(y, LEN)];

  const { send } = window.firestepOutbox;
  const { refusal, failed, overridden, mayOverride } = window.firestepApi;
  // The API refuses a player's override: only the referee is asked.
  const sendOrOverride = async (url, body) => {
    const result = await send(url, { body });
    return role === "referee" ? overridden(result, () => send(url, { body: { ...body, override: true } })) : result;
  };

  let landscape = canvas.clientWidth > canvas.clientHeight;
  // The defender sees the table turned half round; a view turned for the player across (kept on this device)
  // draws it from the other edge, and map.css turns the page's words to face that player.
  const turnKey = `firestep:view-turned:${root.dataset.game}:${role}`;
  const stored = (() => { try { return localStorage.getItem(turnKey) === "1"; } catch { return false; } })();
  document.body.classList.toggle("view-turned", stored);
  document.querySelector("[data-turn-view]")?.setAttribute("aria-pressed", String(stored));
  const turned = (role === "defender") !== stored;
  root.dataset.seenFrom = turned ? "defender" : "attacker";
  // No Leaflet keys (they pan the map): the arrows go from stand to stand (the table's stop: map.html's).
  const map = createMap(canvas, { wheelPxPerZoomLevel: 90, preferCanvas: false, keyboard: false });
  const table = frame(map, { width: () => W, length: () => LEN, landscape: () => landscape, turned: () => turned });
  const { toLL, fromLL, tableBounds, rect, circle, screenPoint } = table;
  const PANES = { cloth: 350, terrain: 360, board: 370, templates: 380, stands: 390, ruler: 395 };
  const renderers = {};
  addPanes(map, PANES);
  for (const name of Object.keys(PANES)) renderers[name] = L.svg({ pane: name, padding: 0.5 });
  const drawIn = (name) => ({ pane: name, renderer: renderers[name] });
  const layers = Object.fromEntries(["cloth", "terrain", "board", "stands", "templates", "handles", "labels", "ruler"]
    .map((name) => [name, name === "labels" ? L.layerGroup() : L.layerGroup().addTo(map)])); // labels as zoomed
  // A narrow screen shows the turn in the map's top corner (map.css): the table starts below it.
  const belowTurn = () => (window.matchMedia("(max-width: 899px)").matches ? 52 : 8);
  const fitTable = () => {
    // A wide screen keeps the details card's column (along the seat's own edge) free of the table.
    const card = canvas.clientWidth >= 1400 ? 416 : 8;
    // Room (1) beyond the table for a card docked over half the screen to leave its stands clear.
    table.fit({ paddingTopLeft: [card, belowTurn()], paddingBottomRight: [8, 8] }, 1);
    showLabels();
  };

  const panel = document.querySelector("[data-map-panel]");
  let panelShows = null;
  const showPanel = (name) => {
    if (panelShows !== name && ruler.length) { ruler = []; drawRuler(); } // a measure ends with its panel
    if (panelShows !== name) panel.scrollTop = 0; // a card opens at its top, not as the last was scrolled
    const left = panelShows === "stand" && name !== "stand" && model.units.get(selectedStand);
    if (left) { selectedStand = null; drawStand(left); } // a stand's outline goes with its card
    panelShows = name; asked += 1; // a card read on its way is dropped: the panel last tapped stays (ci157)
    panel.hidden = !name;
    panel.querySelectorAll("[data-panel]").forEach((s) => { s.hidden = s.dataset.panel !== name; });
    document.querySelectorAll("[data-tool]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.tool === name)));
    root.dataset.shows = name || "";
    // A pick or a move belongs to the card that started it (a stand's target, an arrival's shots, its Move):
    // another card, or the card closed, ends it (the tap that shows it clears "Tap where … goes.").
    if (name !== "ruler" && mode.panel !== name) setMode({ kind: "idle" });
  };
  const section = (name) => panel.querySelector(`[data-panel="${name}"]`);

  const drawCloth = () => table.drawCloth(layers.cloth, drawIn("cloth"));
  const standLayers = new Map(); // unit id -> {shape, label}
  const onTable = (u) => u && u.x !== null && u.y !== null && u.base && !u.off_table && !u.killed && sizes.bases[u.base];
  const coverClass = new Map(); // unit id -> "cov-full" | "cov-partial" (table-coverage.js sets it)
  const noTarget = new Map(); // unit id -> why it may not be the target picked now (table-act.js sets it)
  const standClass = (u) => [
    "map-stand", u.side, markersOf(u) ? `sup sup-${Math.min(3, markersOf(u))}` : "",
    coverClass.get(u.id) || "", noTarget.has(u.id) ? "no-target" : "", selectedStand === u.id ? "selected" : "",
  ].filter(Boolean).join(" ");
  const styleStand = (el, u) => {
    el.setAttribute("class", standClass(u));
    el.toggleAttribute("data-active", stop === u.id); // the table's active stand (ringed while the table has the focus)
    if (noTarget.has(u.id)) el.setAttribute("data-no-target", noTarget.get(u.id));
    else el.removeAttribute("data-no-target");
  };
  // A thing drawn anew: its old layers (shape in `under`, label or handle in `over`) taken off first.
  const undraw = (drawn, id, under, over) => {
    const old = drawn.get(id);
    if (old) { under.removeLayer(old.shape); over.removeLayer(old.label || old.handle); drawn.delete(id); }
  };
  // Its card's words (app.pages.map_cards.stand_head): its name and its label's, side, kind, markers, state.
  const spoken = (u) => {
    const [{ short, plain }, n] = [nameOf(u), markersOf(u)], noun = marker?.label.toLowerCase();
    const marks = marker ? (n ? `${n} ${noun} marker${n > 1 ? "s" : ""}` : `No ${noun} markers`) : "";
    const states = card.filter((f) => u[f.name]).map((f) => (f.kind === "count" ? `${f.label}: ${u[f.name]}` : f.label));
    const kind = words[u.kind || u.level] ?? humanise(u.kind || u.level);
    return [plain || short, plain && short, `${humanise(u.side)} · ${kind}`, marks, ...states].filter(Boolean).join(", ");
  };
  let stop = null; // the table's active stand
  // The first: the seat's own stand nearest the middle of the view (the referee's: any).
  const firstStop = () => {
    const mid = map.getSize().divideBy(2), units = [...standLayers.keys()].map((id) => model.units.get(id));
    const from = (u) => (u.side === role ? 0 : 1e6) + screenPoint([u.x, u.y]).distanceTo(mid);
    return units.reduce((best, u) => (!best || from(u) < from(best) ? u : best), null)?.id ?? null;
  };
  const standEl = (id) => standLayers.get(id)?.shape.getElement();
  const setStop = (id) => {
    const was = stop;
    stop = id === null || standLayers.has(id) ? id : firstStop(); // a stand drawn, not a destroyed one's card
    [was, stop].forEach((s) => standEl(s) && styleStand(standEl(s), model.units.get(s)));
    if (stop === null) canvas.removeAttribute("aria-activedescendant"); else canvas.setAttribute("aria-activedescendant", `map-stand-${stop}`);
  };
  const drawStand = (u) => {
    undraw(standLayers, u.id, layers.stands, layers.labels);
    if (!onTable(u)) { if (stop === u.id) setStop(firstStop()); return; }
    const spec = sizes.bases[u.base];
    const at = spec.shape === "round" ? circle([u.x, u.y], spec.w / 2) : rect([u.x, u.y], u.facing_deg ?? 90, spec.w, spec.d);
    const shape = L.polygon(at, { ...drawIn("stands"), className: standClass(u), interactive: false }).addTo(layers.stands);
    const element = shape.getElement();
    if (element) {
      Object.assign(element.dataset, { stand: String(u.id), side: u.side });
      styleStand(element, u);
      // An image, not a button: Chromium draws a tap near a button to it (a stand beside the formation's handle).
      [["id", `map-stand-${u.id}`], ["role", "img"], ["aria-label", spoken(u)]].forEach(([k, v]) => element.setAttribute(k, v));
    }
    const html = `<i class="leader" hidden></i><span>${escapeHtml(nameOf(u).short)}${markersOf(u) ? ` · ${markersOf(u)}▲` : ""}</span>`;
    const icon = L.divIcon({ className: `stand-label ${u.side}`, html, iconSize: null });
    const label = L.marker(toLL([u.x, u.y]), { interactive: false, keyboard: false, icon }).addTo(layers.labels);
    standLayers.set(u.id, { shape, label });
  };
  const clear = (drawn, ...groups) => { groups.forEach((g) => g.clearLayers()); drawn.clear(); };
  const drawStands = () => {
    clear(standLayers, layers.stands, layers.labels);
    for (const u of model.units.values()) drawStand(u);
    if (!standLayers.has(stop)) setStop(firstStop());
    if (map.hasLayer(layers.labels)) declutter();
  };
  const showLabels = () => {
    const on = table.labelsOn();
    root.classList.toggle("labels-on", on);
    if (on && !map.hasLayer(layers.labels)) layers.labels.addTo(map);
    if (!on && map.hasLayer(layers.labels)) map.removeLayer(layers.labels);
    if (on) declutter();
  };
  // Each drawn stand's box in the map's pixels (a little margin round it) and its centre.
  const standBoxes = () => {
    const stands = [];
    for (const [id, { shape }] of standLayers) {
      const el = shape.getElement();
      const u = model.units.get(id);
      if (el && u) stands.push({ id, c: screenPoint([u.x, u.y]), r: table.boxOf(el, 2) });
    }
    return stands;
  };
  // Labels sit off the stands, each covering no stand nor label, beside its stand or further out with a
  // leader line; the selected stand's first, then nearest the view's middle; one with no clear place, hidden.
  const declutter = () => {
    const stands = standBoxes();
    const mid = map.getSize().divideBy(2);
    stands.sort((a, b) => (b.id === selectedStand) - (a.id === selectedStand) || a.c.distanceTo(mid) - b.c.distanceTo(mid));
    const taken = stands.map((s) => s.r);
    for (const s of stands) {
      const el = standLayers.get(s.id).label.getElement();
      const text = el && el.querySelector("span");
      if (!text) continue;
      const half = { x: (s.r.right - s.r.left) / 2, y: (s.r.bottom - s.r.top) / 2 };
      const spot = table.clearSpot(taken, s.c, half, text.offsetWidth, text.offsetHeight, [2, 24, 48]);
      el.style.visibility = spot ? "" : "hidden";
      const leader = el.querySelector(".leader");
      if (!spot) continue;
      taken.push(spot.r);
      text.style.transform = `translate(${spot.r.left - s.c.x}px, ${spot.r.top - s.c.y}px)`;
      // A label set further out than beside its stand points back to it.
      leader.hidden = spot.far < 24;
      const [dx, dy] = [spot.x - s.c.x, spot.y - s.c.y];
      leader.style.width = `${Math.hypot(dx, dy)}px`;
      leader.style.transform = `rotate(${Math.atan2(dy, dx)}rad)`;
    }
  };

  const templateLayers = new Map();
  let selectedTemplate = null;
  const templateShape = (t) => {
    const spec = sizes.templates[t.kind];
    if (spec.shape === "round") return circle([t.x, t.y], spec.w / 2);
    return rect([t.x, t.y], t.rotation, spec.across ? W : spec.w, spec.d);
  };
  const drawTemplate = (id) => {
    undraw(templateLayers, id, layers.templates, layers.handles);
    const t = model.templates.get(id);
    if (!t) { if (selectedTemplate === id) { selectedTemplate = null; if (panelShows === "template") showPanel(null); } return; }
    const cls = `tpl-${t.side}${selectedTemplate === id ? " selected" : ""}`;
    const shape = L.polygon(templateShape(t), { ...drawIn("templates"), className: `tpl ${cls}`, interactive: false }).addTo(layers.templates);
    shape.getElement()?.setAttribute("data-template", String(id));
    const movable = (role === "referee" || role === t.side) && model.turn.status !== "finished";
    const { name } = sizes.templates[t.kind]; // the server's words (its side's capitalised by map.css)
    const handle = L.marker(toLL([t.x, t.y]), {
      draggable: movable, autoPan: true, keyboard: false, title: `${name} template of the ${t.side}`,
      icon: L.divIcon({
        className: `tpl-handle ${cls}`,
        html: `<span class="tpl-kind">${escapeHtml(name)}</span><span class="tpl-owner">${t.side}</span>`,
        iconSize: [112, 44], iconAnchor: [56, -8], // below its centre: a small template's stands stay in sight
      }),
    }).addTo(layers.handles);
    handle.getElement()?.setAttribute("data-template-handle", String(id));
    handle.on("click", () => selectTemplate(id));
    handle.on("drag", () => { const [x, y] = fromLL(handle.getLatLng()); shape.setLatLngs(templateShape({ ...t, x, y })); });
    // Dropped: shown there at once, the answer or the stream sets its version; refused, put back.
    handle.on("dragend", async () => {
      const [x, y] = onTheTable(fromLL(handle.getLatLng()));
      model.templates.set(id, { ...t, x, y });
      selectTemplate(id);
      const result = await send(`${api}/templates/${id}`, { method: "PATCH", body: { x, y } });
      if (failed(result)) { notice(refusal(result, "The template's move was not saved; it is back where it was.")); model.templates.set(id, t); drawTemplate(id); }
      else if (result.ok && result.data) model.setTemplate(result.data.template);
    });
    templateLayers.set(id, { shape, handle });
  };
  const drawTemplates = () => {
    clear(templateLayers, layers.templates, layers.handles);
    for (const id of model.templates.keys()) drawTemplate(id);
  };

  const renderAll = () => {
    drawCloth();
    window.dispatchEvent(new CustomEvent("firestep:map-redraw"));
    [drawStands, drawTemplates, drawRuler].forEach((draw) => draw());
  };

  // The turn's chip is the server's (app/pages/map_cards.py), read by htmx (map.html) as the turn changes.
  const readTurn = () => window.htmx?.trigger("[data-turn-line]", "firestep:turn-read");

  let selectedStand = null;
  let shownStep = null; // the step of the game when the stand's card was last drawn
  // `tapped`: the player tapped the stand (a finished card starts afresh), not a frame or a new step drawing
  // it again. Offline, sw.js answers a card with the seat's last copy of it.
  let asked = 0; // the card last asked for: an older ask's answer is dropped (`ask` answers it undefined)
  const ask = async (url) => { const mine = ++asked; const part = await read(url); return mine === asked ? part : undefined; };
  const unread = () => document.querySelector("template[data-card-unread]").content.cloneNode(true).childNodes;
  // The card's head is the server's, read anew as the card is drawn (its acts on `firestep:stand-shown`,
  // table-act.js); the same stand's card keeps its play: only a head piece that changed is replaced.
  const HEAD = ["[data-stand-name]", "[data-stand-path]", "[data-stand-facts]"];
  // `keyed`: opened by Enter on its stand: the focus goes to the card's name, Tab on to its acts.
  const showStand = async (id, tapped = false, keyed = false) => {
    const u = model.units.get(id);
    const prev = selectedStand;
    selectedStand = u ? id : null;
    if (prev && model.units.get(prev)) drawStand(model.units.get(prev));
    if (!u) { asked += 1; if (panelShows === "stand") showPanel(null); return; }
    drawStand(u);
    setStop(id);
    // A Move is its stand's: another stand's card shown (tapped, chosen, Enter on it) ends it.
    if (mode.unit !== undefined && mode.unit !== id) setMode({ kind: "idle" });
    const box = section("stand");
    // Another stand's card, or a stand tapped again, starts afresh at its top: none of the last card stays.
    if (tapped || box.dataset.headOf !== String(id)) { box.replaceChildren(); panel.scrollTop = 0; }
    const head = await ask(`/games/${game}/map/units/${id}/head`);
    if (head === undefined || selectedStand !== id) return;
    const old = HEAD.map((piece) => box.querySelector(`:scope > ${piece}`));
    if (box.dataset.headOf !== String(id) || !head || old.some((piece) => !piece)) {
      box.replaceChildren(...(head ? head.childNodes : unread()));
      box.dataset.headOf = head ? String(id) : "";
    } else {
      HEAD.forEach((piece, i) => { const now = head.querySelector(`:scope > ${piece}`); if (!old[i].isEqualNode(now)) old[i].replaceWith(now); });
    }
    setMode(mode); // the mode shown on the card drawn anew: its Move pressed while that Move waits
    if (panelShows !== "stand") showPanel("stand");
    if (keyed) box.querySelector("[data-stand-name]")?.focus();
    const moved = shownStep !== model.turn.step;
    shownStep = model.turn.step;
    window.dispatchEvent(new CustomEvent("firestep:stand-shown", { detail: { id, tapped, moved } }));
  };
  // `forced`: the referee confirmed the override of the card's greyed act (the rules of play refuse it now).
  const standAction = async (action, forced = false) => {
    const u = model.units.get(selectedStand);
    if (!u) return;
    if (action === "move") {
      // Move tapped while its Move waits (the tap cleared the sentence, so ended it already): it stays ended.
      if (moveAtTap === u.id || (mode.kind === "move" && mode.unit === u.id)) { setMode({ kind: "idle" }); return; }
      const m = { kind: "move", unit: u.id, override: forced, panel: "stand" };
      setMode(m);
      m.said = tell(`Tap where ${nameOf(u).short} goes.`);
      return;
    }
    if (action === "measure") { // a marker's button is a write of the page's (data-api: api-action.js)
      showPanel("ruler");
      ruler = [[u.x, u.y]];
      setMode({ kind: "ruler" });
      drawRuler();
    }
  };
  // The move written: refused, the stand put back and said so; answered, its changes applied at once.
  const moveStand = async (id, point, forced = false) => {
    const u = model.units.get(id);
    if (!u) return;
    const before = { ...u };
    const [x, y] = onTheTable(point);
    Object.assign(u, { x, y });
    drawStand(u);
    const r = await sendOrOverride(`${api}/units/${id}/move`, { x, y, facing_deg: u.facing_deg ?? 90, ...(forced ? { override: true } : {}) });
    if (failed(r)) { notice(refusal(r, "The move was not saved; the stand is back where it was.")); Object.assign(u, { x: before.x, y: before.y }); drawStand(u); }
    else if (r.ok && r.data) model.apply({ id: r.data.event_id, kind: "move", payload: { changes: r.data.changes } });
    showStand(id);
  };

  const selectTemplate = async (id) => {
    const prev = selectedTemplate;
    selectedTemplate = id;
    if (prev && prev !== id) drawTemplate(prev);
    drawTemplate(id);
    if (!model.templates.get(id)) return;
    // Its card is the server's for this seat (who may move it), its coverage under it (table-coverage.js).
    const card = await ask(`/games/${game}/map/templates/${id}/card`);
    if (card === undefined || selectedTemplate !== id) return;
    section("template").replaceChildren(...(card ? card.childNodes : unread()));
    showPanel("template");
    window.dispatchEvent(new CustomEvent("firestep:template-selected", { detail: { id } }));
  };
  const addTemplate = async (kind) => {
    const [x, y] = onTheTable(fromLL(map.getCenter()));
    const side = role === "referee" ? document.querySelector("[data-template-side]:checked").value : role;
    const body = { kind, x, y, rotation: side === "defender" ? 270 : 90, ...(role === "referee" ? { side } : {}) };
    const result = await send(`${api}/templates`, { body });
    if (failed(result)) notice(refusal(result, "The template was not laid: check the connection."));
    else if (result.ok && result.data) { model.setTemplate(result.data.template); selectTemplate(result.data.template.id); }
  };

  let mode = { kind: "idle" };
  let ruler = [];
  const setMode = (next) => {
    // A Move armed ends as its card greys it (a marker landed, the game began) unless the referee overrides.
    const move = section("stand").querySelector("[data-stand-action='move']");
    const m = next.unit && !next.override && move?.matches("[data-act-greyed]") ? { kind: "idle" } : next;
    // A move placed or given up: its "Tap where … goes." is done with (another's since told stays).
    if (mode.said && mode !== m) notice.clear("instruction", mode.said);
    mode = m;
    root.dataset.mode = m.kind;
    move?.setAttribute("aria-pressed", String(m.kind === "move" && m.unit === selectedStand));
    // A pick's stands drawn over the others, so the finger sees the stand it takes.
    if (m.kind === "pick" && m.accept) {
      for (const [id, { shape }] of standLayers) if (m.accept(model.units.get(id))) shape.bringToFront();
    }
    canvas.classList.toggle("picking", m.kind !== "idle");
  };
  // A mode lasts as long as the sentence that says it: gone by any means (its OK, a tap on a control, another
  // sentence told in its place: "Move its company"), the mode ends (net-status.js: firestep:notice-gone).
  document.addEventListener("firestep:notice-gone", (e) => { if (mode.said === e.detail.said) setMode({ kind: "idle" }); });
  // The stand whose Move waited as a tap began (before the tap cleared its sentence): its Move tapped ends it.
  let moveAtTap = null;
  window.addEventListener("click", (e) => {
    moveAtTap = mode.kind === "move" && e.target.closest?.("[data-stand-action='move']") ? mode.unit : null;
  }, true);
  const drawRuler = () => {
    layers.ruler.clearLayers();
    ruler.forEach((p) => L.circleMarker(toLL(p), { ...drawIn("ruler"), radius: 6, className: "ruler-point", interactive: false }).addTo(layers.ruler));
    const reading = document.querySelector("[data-ruler-reading]");
    delete reading?.dataset.cm;
    if (ruler.length === 2) {
      const [[x1, y1], [x2, y2]] = ruler;
      const cm = Math.hypot(x2 - x1, y2 - y1);
      L.polyline([toLL(ruler[0]), toLL(ruler[1])], { ...drawIn("ruler"), className: "ruler-line", interactive: false }).addTo(layers.ruler);
      const icon = L.divIcon({ className: "ruler-label", html: `<span>${cm.toFixed(1)} cm</span>`, iconSize: null });
      L.marker(toLL([(x1 + x2) / 2, (y1 + y2) / 2]), { interactive: false, icon }).addTo(layers.ruler);
      Object.assign(reading, { textContent: `${cm.toFixed(1)} cm` }).dataset.cm = cm.toFixed(1);
    } else if (reading) reading.textContent = ruler.length ? "Tap where to measure to." : "Tap two points on the table.";
  };
  // The stands within a finger's reach of a tap (or under it, a large base at high zoom), nearest first.
  // With `accept`, only the stands it accepts: in base contact the enemy under one's own stand is found.
  const standsNear = (containerPoint, accept = null) => {
    const near = [];
    for (const [id] of standLayers) {
      const u = model.units.get(id);
      if (accept && !accept(u)) continue;
      const c = screenPoint([u.x, u.y]);
      const spec = sizes.bases[u.base];
      const reachPx = screenPoint([u.x + Math.max(spec.w, spec.d) / 2, u.y]).distanceTo(c);
      const d = c.distanceTo(containerPoint);
      if (d <= Math.max(HIT_PX, reachPx)) near.push({ id, d, reachPx });
    }
    return near.sort((a, b) => a.d - b.d);
  };
  const standAt = (containerPoint, accept = null) => standsNear(containerPoint, accept)[0]?.id ?? null;
  // Several stands in reach of a tap on no base: the server's chooser (app/pages/map_cards.py) offers each.
  const chooseStand = async (ids) => {
    const chooser = await ask(`/games/${game}/map/choose?${new URLSearchParams(ids.map((id) => ["stand", id]))}`);
    if (chooser === undefined) return;
    if (!chooser) { showStand(ids[0], true); return; }
    section("choose").replaceChildren(...chooser.childNodes);
    showPanel("choose");
  };
  map.on("click", (e) => {
    const point = fromLL(e.latlng);
    if (mode.kind === "pick") {
      // The stand the pick needs, else another stand tapped ends the pick and opens its card.
      const id = standAt(e.containerPoint, mode.accept);
      if (id !== null) { mode.pick(id); return; }
      const other = standAt(e.containerPoint);
      if (other === null) return;
      const { ended } = mode;
      setMode({ kind: "idle" });
      ended?.();
      showStand(other, true);
      return;
    }
    if (mode.kind === "move") {
      const { unit: id, override } = mode;
      setMode({ kind: "idle" });
      // A tap on the moving stand's own base gives its Move up: a move of a few mm would spend its action.
      const own = standsNear(e.containerPoint, (u) => u.id === id)[0];
      if (!own || own.d > own.reachPx) moveStand(id, point, override);
      return;
    }
    if (mode.kind === "ruler") {
      ruler = ruler.length === 2 ? [point] : [...ruler, point];
      drawRuler();
      return;
    }
    const near = standsNear(e.containerPoint);
    // On no stand's base, and another stand less than twice as far: the finger may have meant either.
    const meant = near.filter((n) => n.d < 2 * near[0]?.d);
    if (near.length > 1 && near[0].d > near[0].reachPx && meant.length > 1) {
      chooseStand(meant.slice(0, 4).map((n) => n.id)); // 4 at most (map_cards.CHOICES)
      return;
    }
    if (near.length) showStand(near[0].id, true);
    else if (panelShows === "choose") showPanel(null);
    else if (panelShows === "stand") showStand(null);
  });
  const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  // Where a stand is seen, unrounded (stands a pixel apart at the whole table's zoom are still told apart).
  const seen = (u) => map.project(toLL([u.x, u.y]));
  canvas.addEventListener("keydown", (e) => {
    const u = e.target === canvas && model.units.get(stop), [dx, dy] = ARROWS[e.key] || [];
    if (!u || e.altKey || e.ctrlKey || e.metaKey || !(dx !== undefined || e.key === "Enter" || e.key === " ")) return;
    e.preventDefault();
    if (dx === undefined) { showStand(u.id, true, true); return; }
    // The nearest stand within 45 degrees either side of the arrow's way, panned to the middle where its
    // centre is off the map or under something (the card, the turn's chip).
    const at = seen(u), ways = [...standLayers.keys()].map((id) => { const p = seen(model.units.get(id)); return [id, p.x - at.x, p.y - at.y]; });
    const along = ([, x, y]) => x * dx + y * dy;
    const [next] = ways.filter((w) => along(w) > 0 && Math.abs(w[1] * dy - w[2] * dx) <= along(w))
      .sort((a, b) => Math.hypot(a[1], a[2]) - Math.hypot(b[1], b[2]))[0] || [];
    if (next === undefined) return;
    const t = model.units.get(next), c = table.pagePoint([t.x, t.y]);
    if (document.elementFromPoint(c.x, c.y) !== standEl(next)) map.panTo(toLL([t.x, t.y]), { animate: false });
    setStop(next);
  });
  // Escape closes a stand's card as its × does: the focus goes back to the table, the stand its active one.
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && panelShows === "stand") panel.querySelector("[data-panel-close]").click(); });
  map.on("zoomend", showLabels);
  map.on("moveend", () => { if (map.hasLayer(layers.labels)) declutter(); });
  root.dataset.hitPx = String(HIT_PX * 2);

  document.addEventListener("click", (event) => {
    const tool = event.target.closest("[data-tool]");
    if (tool) {
      const name = tool.dataset.tool;
      showPanel(panelShows === name ? null : name);
      if (name === "ruler") setMode({ kind: panelShows === "ruler" ? "ruler" : "idle" });
      return;
    }
    if (event.target.closest("[data-turn-view]")) {
      // One tap turns the view, one turns it back: the page is drawn anew from the other edge.
      try { localStorage.setItem(turnKey, stored ? "0" : "1"); } catch (err) { return; }
      window.location.reload();
      return;
    }
    const zoom = event.target.closest("[data-zoom]");
    if (zoom) { ({ in: () => map.zoomIn(0.75), out: () => map.zoomOut(0.75) }[zoom.dataset.zoom] || fitTable)(); return; }
    if (event.target.closest("[data-panel-close]")) {
      const u = model.units.get(selectedStand);
      const back = panel.contains(document.activeElement) || document.activeElement === document.body;
      showPanel(null);
      if (u && back) { setStop(u.id); canvas.focus({ preventScroll: true }); }
      return;
    }
    const add = event.target.closest("[data-add-template]");
    if (add) { addTemplate(add.dataset.addTemplate); return; }
    const choice = event.target.closest("[data-stand-choice]");
    if (choice) { showStand(Number(choice.dataset.standChoice), true); return; }
    const sa = event.target.closest("[data-stand-action]:not([data-api])");
    if (sa) {
      // A greyed act is the referee's to do anyway, as on the board (table-act.js tells the rest).
      const greyed = sa.matches("[data-act-greyed]");
      if (!greyed || (role === "referee" && mayOverride(sa.title))) standAction(sa.dataset.standAction, greyed);
    }
  });

  // A new step, the game's end or a change to its stand: the card, while shown, reads anew what may be done.
  const readAnew = (changed) => { if (selectedStand && panelShows === "stand" && (changed || shownStep !== model.turn.step)) showStand(selectedStand); };
  model.listen((what) => {
    if (what.all || what.turn) readTurn();
    if (what.all) renderAll();
    for (const id of what.changed || []) { const u = model.units.get(id); if (u) drawStand(u); }
    if (what.changed && map.hasLayer(layers.labels)) declutter();
    if (what.changed?.has(selectedStand)) readAnew(true);
    if (what.template !== undefined) drawTemplate(what.template);
    // A template's card is read anew as it changes (its Turn carries the rotation); the game over, it goes.
    const over = model.turn.status === "finished";
    if (over && what.turn && panelShows?.startsWith("template")) showPanel(null);
    if (over && what.turn && !what.all) drawTemplates();
    else if (!over && (what.all || what.template === selectedTemplate) && panelShows === "template") selectTemplate(selectedTemplate);
    if (what.turn) readAnew(false);
    if (what.units || what.templates) window.dispatchEvent(new CustomEvent("firestep:map-changed"));
  });

  const getJson = (url) => fetch(url, { cache: "no-store" }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
  // The state first, so the units read after it (where asked for) are at least as new as its event id.
  const readTable = async (withUnits) => {
    const state = await getJson(`${api}/state`);
    const units = withUnits ? await getJson(`${api}/units`) : null;
    model.setState(state, units);
  };
  let loading = null;
  const load = () => (loading ||= readTable(true).then(() => {
    const svg = map.getPane("cloth").querySelector("svg");
    if (svg) { svg.dataset.tableMap = ""; svg.dataset.loaded = String(standLayers.size); }
    root.dataset.asOf = String(model.asOf);
    root.dataset.loaded = String(standLayers.size);
  }, (status) => {
    notice(status === 401 || status === 403 ? "Join this game to see its table." : "The table could not be loaded; check the connection.");
  }).finally(() => { loading = null; }));
  // Frames in a burst are read back once (the units only if a frame asked), the state they carry set once.
  const wanted = new Set();
  let [pendingRead, carried] = [null, null];
  document.addEventListener("firestep:event", (e) => {
    const ev = e.detail;
    let need = model.apply(ev);
    if (need.includes("state") && ev.state) {
      const id = Math.max(ev.id, Number(ev.as_of_event) || 0); // as of the newest event it holds
      if (carried === null) setTimeout(() => { const s = carried; carried = null; model.setState(s, null); }, 0);
      if (carried === null || id >= carried.last_event_id) carried = { ...ev.state, last_event_id: id };
      need = need.filter((n) => n !== "state");
    }
    root.dataset.lastEvent = String(Math.max(Number(root.dataset.lastEvent || 0), ev.id || 0));
    if (!need.length) return;
    need.forEach((n) => wanted.add(n));
    clearTimeout(pendingRead);
    pendingRead = setTimeout(() => { const units = wanted.has("units"); wanted.clear(); readTable(units).catch(() => null); }, 40);
  });
  document.addEventListener("firestep:resync", () => load());
  // A write of this device (or the outbox's kept taps): its frame brings it while the stream is connected.
  document.addEventListener("firestep:refresh", () => { if (!window.firestepLive?.connected) load(); });

  // The orientation follows the screen: redraw when a turned device or a resized window changes it.
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const now = canvas.clientWidth > canvas.clientHeight;
      map.invalidateSize();
      if (now !== landscape) { landscape = now; drawnFor(); renderAll(); fitTable(); }
      drawnFor();
    }, 120);
  });
  const drawnFor = () => Object.assign(root.dataset, { orientation: landscape ? "landscape" : "portrait", drawnFor: `${innerWidth}x${innerHeight}` });
  drawnFor();
  drawCloth();
  fitTable();
  drawRuler();
  // A link to #stand-<id> (the board's "End the game" list) opens its card once the table is read.
  const linked = Number(/^#stand-(\d+)$/.exec(location.hash)?.[1]);
  load().then(() => { if (model.units.has(linked)) showStand(linked, true); });
  const restyle = () => standLayers.forEach(({ shape }, id) => {
    if (shape.getElement() && model.units.has(id)) styleStand(shape.getElement(), model.units.get(id));
  });
  // An event taken back (while it is the game's latest), for the cards' Undo: true when it was.
  const undoEvent = async (eventId) => {
    const r = await send(`${api}/events/${eventId}/undo`, { body: {} });
    if (failed(r)) { notice(refusal(r, "The undo was not saved; check the connection.")); return false; }
    if (r.ok && r.data) model.apply(r.data);
    notice("Taken back.", false, { tone: "info" }); // an Undo that worked: not an error
    return true;
  };
  // For the map's other scripts (table-*.js, run after this one: deferred, in order) and tests.
  const marking = (marks) => (entries) => { marks.clear(); for (const [id, v] of entries || []) marks.set(id, v); restyle(); };
  window.firestepMap = {
    undoEvent, model, sizes, api, role, send, refusal, failed, nameOf, notice, tell, onTable, escapeHtml, section,
    root, panel, belowTurn, setCover: marking(coverClass),
    // While a target is picked: the stands it may not be (id -> why), greyed on the map; none once it stops.
    markTargets: marking(noTarget),
    selectedTemplate: () => selectedTemplate,
    selectedStand: () => selectedStand,
    fitZoom: table.fitZoom, // the zoom that shows the whole table
    clearSpot: table.clearSpot, boxOf: table.boxOf, grow: table.grow, isClear: table.isClear,
    screenPoint, standBoxes, leaflet: map, layers, showPanel, showStand, fitTable, tableBounds,
    // A tap near a stand `accept`ed: `pick(id)`, while `panel` shows; on another: `ended()`, its card opens.
    pickStand: (pick, { accept = null, ended = null, panel = "stand" } = {}) => setMode({ kind: "pick", pick, accept, ended, panel }),
    stopPicking: () => { if (mode.kind === "pick") setMode({ kind: "idle" }); },
    // The table's corners on the screen (the map's own pixels): labels are kept inside it.
    tableBox: () => {
      const { min, max } = L.bounds(screenPoint([0, 0]), screenPoint([W, LEN]));
      return { left: min.x, right: max.x, top: min.y, bottom: max.y };
    },
    drawIn, toLL, fromLL, rect, circle, pointObjective: table.pointObjective,
  };
})();
