// The table to scale for the game's map and the scenario editor (L.CRS.Simple, 1 unit = 1 cm): one frame
// (the attacker's edge, y = 0, on the left in landscape, at the bottom in portrait; the other where `turned`)
// and the objectives' shapes; the map keeps its stands and stream, the editor its grid, zones and geoman.
(() => {
  // Zoomed by the pages' buttons and the fingers, never by a double tap (two quick taps are two taps).
  const createMap = (canvas, extra = {}) => L.map(canvas, {
    crs: L.CRS.Simple, zoomControl: false, attributionControl: false, zoomSnap: 0, zoomDelta: 0.5,
    minZoom: -2, maxZoom: 6, boxZoom: false, doubleClickZoom: false, ...extra,
  });
  // One pane per kind of thing, so that what is redrawn later never ends up over what it should not.
  const addPanes = (map, panes) => {
    for (const [name, z] of Object.entries(panes)) map.createPane(name).style.zIndex = String(z);
  };
  // A base or template of w x d cm facing `facingDeg` (90: towards the defender), its corners in table cm.
  const corners = (center, facingDeg, w, d) => {
    const f = (facingDeg * Math.PI) / 180;
    const u = [Math.cos(f), Math.sin(f)];
    const v = [-Math.sin(f), Math.cos(f)];
    return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([a, b]) => [
      center[0] + (a * d * u[0]) / 2 + (b * w * v[0]) / 2,
      center[1] + (a * d * u[1]) / 2 + (b * w * v[1]) / 2,
    ]);
  };
  // Stands' labels show from this many zoom levels in from the whole table (two zoom-in taps, 0.75 each).
  const LABEL_ZOOM_STEPS = 1.5;
  const LABEL_SPOTS = [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, 1], [1, -1], [-1, -1]];
  const grow = (r, by) => ({ left: r.left - by, right: r.right + by, top: r.top - by, bottom: r.bottom + by });
  const isClear = (taken, r) => taken.every((o) => r.right <= o.left || r.left >= o.right || r.bottom <= o.top || r.top >= o.bottom);
  const POINT_CM = 2.5; // a point objective is drawn as a ring this wide round it, to be seen and tapped
  // The middle of a point or area (its outer ring's corners averaged), where its label goes.
  const ringsOf = (g) => (g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : []);
  const centreOf = (g) => {
    if (g.type === "Point") return g.coordinates;
    const ring = ringsOf(g)[0]?.[0] || [[0, 0]];
    const pts = ring.slice(0, -1).length ? ring.slice(0, -1) : ring;
    return [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
  };
  // Table (x, y) cm <-> LatLng, the frame's sizes read at each call; turned: (x, y) -> (W - x, LEN - y).
  const frame = (map, { width, length, landscape, turned = () => false }) => {
    const seen = ([x, y]) => (turned() ? [width() - x, length() - y] : [x, y]);
    const toLL = (p) => { const [x, y] = seen(p); return landscape() ? L.latLng(width() - x, y) : L.latLng(y, x); };
    const fromLL = (ll) => seen(landscape() ? [width() - ll.lat, ll.lng] : [ll.lng, ll.lat]);
    const tableBounds = () => L.latLngBounds(toLL([0, 0]), toLL([width(), length()]));
    const screenPoint = (p) => map.latLngToContainerPoint(toLL(p)); // in the map's own pixels
    let fitZoom = 0; // the zoom that shows the whole table, as last fitted
    const circle = (center, r) => Array.from({ length: 20 }, (_, i) => toLL([
      center[0] + r * Math.cos((i * Math.PI) / 10), center[1] + r * Math.sin((i * Math.PI) / 10),
    ]));
    // The labels' one placer, in the map's pixels: the first spot round c for a w x hi label, beside a thing
    // of half size `half` then `fars` further out, on the map and meeting no box `taken` (else null).
    const clearSpot = (taken, c, half, w, hi, fars) => {
      const size = map.getSize();
      for (const far of fars) {
        for (const [dx, dy] of LABEL_SPOTS) {
          const x = c.x + dx * (half.x + far + w / 2);
          const y = c.y + dy * (half.y + far + hi / 2);
          const r = { left: x - w / 2, right: x + w / 2, top: y - hi / 2, bottom: y + hi / 2 };
          if (r.left >= 0 && r.top >= 0 && r.right <= size.x && r.bottom <= size.y && isClear(taken, r)) return { r, x, y, far };
        }
      }
      return null;
    };
    const boxOf = (el, by = 0) => {
      const [b, m] = [el.getBoundingClientRect(), map.getContainer().getBoundingClientRect()];
      return grow({ left: b.left - m.left, right: b.right - m.left, top: b.top - m.top, bottom: b.bottom - m.top }, by);
    };
    return {
      toLL, fromLL, tableBounds, circle, screenPoint, clearSpot, boxOf, grow, isClear,
      fitZoom: () => fitZoom,
      labelsOn: () => map.getZoom() >= fitZoom + LABEL_ZOOM_STEPS - 1e-6,
      rect: (center, facingDeg, w, d) => corners(center, facingDeg, w, d).map(toLL),
      pointObjective: (p) => circle(p, POINT_CM),
      // The cloth under everything (its <svg> stands for the map in tests and screen checks).
      drawCloth: (group, options = {}) => {
        group.clearLayers();
        L.rectangle(tableBounds(), { pane: "cloth", ...options, className: "table-cloth", interactive: false }).addTo(group);
      },
      // The whole table in view (a zoom out at the most), and `room` (a share of the table) to pan past it.
      fit: (fitOptions, room) => {
        map.invalidateSize();
        map.fitBounds(tableBounds(), { ...fitOptions, animate: false });
        fitZoom = map.getZoom();
        map.setMinZoom(fitZoom - 1);
        map.setMaxBounds(tableBounds().pad(room));
      },
      // A table point's position in the page (CSS pixels), for tests and the screen checks.
      pagePoint: (p) => {
        const [at, box] = [screenPoint(p), map.getContainer().getBoundingClientRect()];
        return { x: box.left + at.x, y: box.top + at.y };
      },
    };
  };
  window.firestepTableDrawing = Object.freeze({ createMap, addPanes, corners, frame, ringsOf, centreOf });
})();
