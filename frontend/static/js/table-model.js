// The live model of one game's table: stands, templates, the board (the rule set's, and the terrain) and the
// turn, each item with the id of the event that last changed it. A full state sets everything "as of" an
// event id; a stream frame changes only what it names, and only where it is newer than what the model holds,
// so a late or repeated frame never rolls anything back. Listeners hear which parts changed.
(() => {
  const create = () => {
    const units = new Map(); // id -> unit (API fields) with .v, the event id that last changed it
    const templates = new Map(); // id -> template with .version
    const removed = new Map(); // template id -> event id that removed it: a late "moved" must not revive it
    let board = { drawn: [], v: 0 }; // what the rule set draws of the game's board (GameState.board_drawn)
    let terrain = { features: [] }; // GeoJSON; it changes only when the referee edits the game
    let turn = { status: "", turn: 0, side_to_move: "", step: "", v: 0 };
    let asOf = 0;
    const listeners = [];
    const emit = (what) => listeners.forEach((fn) => fn(what));
    // A template's version newer than the model's, and than its removal's (a late "moved" must not revive it).
    const newer = (t) => !(templates.get(t.id)?.version >= t.version) && (removed.get(t.id) || 0) < t.version;
    // Kinds whose payload says exactly what changed; any other kind changes the board or the turn, which the
    // model reads back from the game (they are rare: a turn, an arrival, a barrage step).
    const UNIT_KINDS = new Set(["move", "marker", "unit-update", "undo", "roll", "arrival-roll", "arrival-fire", "end-of-turn", "fire-plan-arrival"]);
    // The referee's acts on the clock (app.core.touched.CLOCK_KINDS): neither a stand nor the game changes
    // (the clock is in the frame, game-clock.js), so nothing is read back and the table is not redrawn.
    const CLOCK_KINDS = new Set(["clock-paused", "clock-resumed", "clock-time-given", "clock-limits-set"]);

    const setState = (state, unitList) => {
      asOf = Math.max(asOf, Number(state.last_event_id) || 0);
      const v = Number(state.last_event_id) || 0;
      if (unitList) {
        const seen = new Set();
        for (const u of unitList) {
          const cur = units.get(u.id);
          seen.add(u.id);
          if (cur && cur.v > v) continue;
          units.set(u.id, { ...u, v });
        }
        for (const id of [...units.keys()]) if (!seen.has(id) && units.get(id).v <= v) units.delete(id);
      }
      const b = state.board || {};
      // What the table draws, before: a state that changes only the turn (a step, the game's end) redraws the
      // turn alone, not every stand (a whole redraw of a big table costs a phone a second or more).
      const drawnBefore = JSON.stringify([board.drawn, terrain, [...templates.values()]]);
      if (board.v <= v) {
        board = { drawn: state.board_drawn || [], v };
        if (state.terrain) terrain = state.terrain;
      }
      const fresh = new Set();
      for (const t of b.templates || []) {
        fresh.add(t.id);
        if (newer(t)) templates.set(t.id, { ...t });
      }
      for (const [id, t] of [...templates]) if (!fresh.has(id) && t.version <= v) templates.delete(id);
      if (turn.v <= v) {
        turn = { status: state.status, turn: state.turn, side_to_move: state.side_to_move, step: state.step, v };
      }
      if (!unitList && drawnBefore === JSON.stringify([board.drawn, terrain, [...templates.values()]])) {
        emit({ turn: true });
        return;
      }
      emit({ units: true, templates: true, board: true, turn: true, all: true });
    };

    const applyChanges = (ev, changed) => {
      const changes = ev.payload && Array.isArray(ev.payload.changes) ? ev.payload.changes : [];
      let unknown = false;
      for (const c of changes) {
        if (!c || c.unit === undefined || !c.field || !("after" in c)) continue;
        const u = units.get(c.unit);
        if (!u) { unknown = true; continue; }
        if (u.v > ev.id) continue;
        u[c.field] = c.after;
        u.v = ev.id;
        changed.add(c.unit);
      }
      return unknown;
    };

    // A frame's units are as of `as_of_event` (read when it was rendered, which may be after newer events).
    const applyUnits = (ev, changed) => {
      let unknown = false;
      const v = Math.max(ev.id, Number(ev.as_of_event) || 0);
      for (const u of ev.units) {
        const cur = units.get(u.id);
        if (!cur) { unknown = true; continue; }
        if (cur.v > v) continue;
        units.set(u.id, { ...cur, ...u, v }); // the names read with /units stay
        changed.add(u.id);
      }
      return unknown;
    };

    // One stream frame. Answers what the caller must read back: "units" (a unit the model does not know),
    // "state" (the board or the turn changed in ways the frame does not spell out), or nothing.
    const apply = (ev) => {
      if (!ev || typeof ev.id !== "number") return [];
      const need = [];
      const changed = new Set();
      let turnChanged = false;
      if (ev.id > turn.v && ev.turn !== undefined) {
        // Every event is stamped with the game's turn and side to move when it was recorded.
        turnChanged = ev.turn !== turn.turn || ev.side !== turn.side_to_move;
        if (turnChanged) need.push("state");
        // A new turn or side: its step is not in the frame, so none is claimed until the state is read back.
        turn = { ...turn, turn: ev.turn, side_to_move: ev.side, ...(turnChanged ? { step: null } : {}), v: ev.id };
      }
      const t = ev.payload && ev.payload.template;
      if (ev.kind === "template-placed" || ev.kind === "template-moved") {
        setTemplate({ ...t, version: ev.id });
      } else if (ev.kind === "template-removed") {
        dropTemplate(t.id, ev.id, true);
      } else {
        // A frame of the map's view (live.js, data-live-view="map") carries the units it touched as /units
        // answers them; an older frame, or one too big to carry them, carries only the changes.
        const unknown = Array.isArray(ev.units) ? applyUnits(ev, changed) : applyChanges(ev, changed);
        if (unknown || ev.kind === "unit-added" || ev.kind === "forces-built") need.push("units");
        if ((!UNIT_KINDS.has(ev.kind) && !CLOCK_KINDS.has(ev.kind)) || ev.kind === "fire-plan-arrival") need.push("state");
        if (changed.size) emit({ units: true, changed });
      }
      asOf = Math.max(asOf, ev.id);
      if (turnChanged) emit({ turn: true });
      return need;
    };

    const setTemplate = (t) => {
      if (!newer(t)) return;
      templates.set(t.id, { ...t });
      emit({ templates: true, template: t.id });
    };
    // Removed as of event `version` (from a frame: only a template older than it; the write's answer: at once).
    const dropTemplate = (id, version, older = false) => {
      removed.set(id, Math.max(removed.get(id) || 0, version));
      if ((!older || templates.get(id)?.version < version) && templates.delete(id)) emit({ templates: true, template: id });
    };

    return {
      units,
      templates,
      get board() { return board; },
      get terrain() { return terrain; },
      get turn() { return turn; },
      get asOf() { return asOf; },
      setState,
      apply,
      setTemplate,
      dropTemplate,
      listen: (fn) => listeners.push(fn),
    };
  };
  window.firestepTableModel = { create };
})();
