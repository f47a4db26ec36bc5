// The card never hides what is acted on: a stand's card docks at the end of the screen that covers fewer of
// the stands it is about (its side's line, the target's company; while picking, the other side), and the map
// is panned (zoomed out only if need be) to clear them all. While the whole table is in view, a stand's card
// or the arrivals' has the table fitted into what it leaves free, and the screen again once it closes.
(() => {
  const m = window.firestepMap;
  if (!m) return;
  const { model, leaflet: map, toLL, root, screenPoint, onTable, panel } = m;
  const chip = document.querySelector("[data-score-chip]");
  const canvas = map.getContainer();
  const REACH = 24; // a finger's reach round each stand's centre stays clear of the card
  const narrow = window.matchMedia("(max-width: 899px), (orientation: portrait)");
  const about = () => {
    const u = model.units.get(m.selectedStand());
    if (panel.hidden || root.dataset.shows !== "stand" || !onTable(u)) return [];
    if (root.dataset.picking === "target") {
      return [u, ...[...model.units.values()].filter((t) => onTable(t) && t.side !== u.side)];
    }
    // The whole line the stand is in: the next one it acts with is one tap away.
    const line = [...model.units.values()].filter((t) => onTable(t) && t.side === u.side);
    const target = model.units.get(Number(root.dataset.playTarget));
    const hit = onTable(target) ? m.standsUnder(model.units.get(target.parent_id) || target) : [];
    return [...line, ...hit, ...(onTable(target) ? [target] : [])];
  };
  // The part of the map the card leaves free (the map's pixels): a sheet counts at the most it may grow to
  // (map.css's --sheet), so that the table does not move under a finger as the card's content comes.
  const free = () => {
    const size = map.getSize();
    const box = canvas.getBoundingClientRect();
    const card = panel.getBoundingClientRect();
    const r = { left: 0, top: 0, right: size.x, bottom: size.y };
    if (narrow.matches) {
      const depth = Math.max(card.height, size.y * Number(getComputedStyle(panel).getPropertyValue("--sheet")));
      if (panel.dataset.dock === "start") r.top = card.top - box.top + depth; else r.bottom = card.bottom - box.top - depth;
      // The turn and score chip over the map's top corner (a narrow screen) is tapped too: stay below it.
      if (panel.dataset.dock !== "start" && chip && getComputedStyle(chip).position === "absolute") {
        r.top = Math.max(r.top, chip.getBoundingClientRect().bottom - box.top);
      }
    } else if (panel.dataset.dock === "end") r.right = card.left - box.left;
    else r.left = card.right - box.left;
    return r;
  };
  const clearOf = (r, p) => p.x >= r.left + REACH && p.x <= r.right - REACH && p.y >= r.top + REACH && p.y <= r.bottom - REACH;
  // `bounds` fitted into the free part `r`, `by` px inside its edges (`top` inside its top), at once.
  const fitInto = (bounds, r, by, top, more = {}) => {
    const size = map.getSize();
    const paddingBottomRight = [size.x - r.right + by, size.y - r.bottom + by];
    map.fitBounds(bounds, { paddingTopLeft: [r.left + by, r.top + top], paddingBottomRight, animate: false, ...more });
  };
  // The whole table fitted beside the card: at what zoom, on what screen, its sheet's share (map.css) what; fitted
  // to the screen again when the card closes.
  const fitted = () => [map.getZoom(), innerWidth, innerHeight, getComputedStyle(panel).getPropertyValue("--sheet")].join();
  let shrunk = null;
  const wholeTable = () => {
    panel.dataset.dock = narrow.matches ? "end" : "start"; // the seat's own edge, in reach of the thumb
    fitInto(m.tableBounds(), free(), 8, panel.dataset.dock === "end" ? m.belowTurn() : 8); // as fitTable
    shrunk = fitted();
  };
  const place = () => {
    if (panel.hidden) { delete panel.dataset.dock; if (shrunk) { shrunk = null; m.fitTable(); } return; }
    // A stand's card or the arrivals' act on the table; a tool's card leaves it where the finger expects.
    const acting = root.dataset.shows === "stand" || root.dataset.shows === "arrival";
    // Fitted so and not zoomed since, it stays (a notice's row come or gone: the observer below keeps it in place).
    if (acting && shrunk === fitted()) return;
    if (acting && map.getZoom() <= m.fitZoom() + 0.01) { wholeTable(); return; }
    shrunk = null; // zoomed in by the player: the card keeps its stands clear by panning, as below
    const stands = about();
    if (!stands.length) { delete panel.dataset.dock; return; }
    const points = stands.map((u) => screenPoint([u.x, u.y]));
    // Dock at the end that leaves more of them clear (the seat's own edge when it is a tie).
    const clearAt = (dock) => { panel.dataset.dock = dock; const r = free(); return points.filter((p) => clearOf(r, p)).length; };
    const [own, other] = narrow.matches ? ["end", "start"] : ["start", "end"];
    const atOther = clearAt(other);
    if (clearAt(own) >= atOther) panel.dataset.dock = own; else clearAt(other);
    const r = free();
    if (points.every((p) => clearOf(r, p))) return;
    // Never closer in than it was or than the whole table.
    fitInto(L.latLngBounds(stands.map((u) => toLL([u.x, u.y]))), r, REACH, REACH, { maxZoom: Math.max(map.getZoom(), m.fitZoom()) });
  };
  let pending = 0;
  const schedule = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(place); };
  // At once when a card opens or starts or stops picking (the next tap must find the table where it is
  // drawn), and after any other change of the card's size.
  window.addEventListener("firestep:stand-shown", place);
  new ResizeObserver(schedule).observe(panel);
  // The table gives up the height of a notice's row (feedback.css): what it shows stays where it was on the
  // screen (a finger on its way to a stand still finds it there), except that the stand whose card is open
  // and its company are never left under the row: then the table moves down just enough to show them.
  let top = canvas.getBoundingClientRect().top;
  new ResizeObserver(() => {
    const now = canvas.getBoundingClientRect().top;
    map.invalidateSize({ pan: false });
    if (now !== top) map.panBy([0, now - top], { animate: false });
    top = now;
    const u = model.units.get(m.selectedStand());
    if (panel.hidden || !onTable(u)) return;
    const company = m.standsUnder(model.units.get(u.parent_id) || u);
    const highest = Math.min(...[u, ...company].map((t) => screenPoint([t.x, t.y]).y));
    if (highest < REACH) map.panBy([0, highest - REACH], { animate: false });
  }).observe(canvas);
  m.placeCard = place;
})();
