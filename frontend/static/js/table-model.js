// The live model of a game's table (stands, templates, board, terrain, turn), each with the event id that
// last changed it: a state sets all "as of" an event, a frame only what it names where newer (a late frame
// never rolls back). Listeners hear which parts changed.
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
    // A template's version newer than the model's and than its removal's (a late "moved" never revives it).
    const newer = (t) => !(templates.get(t.id)?.version >= t.version) && (removed.get(t.id) || 0) < t.version;

    // Each of `map`'s items as of event `v`: one the state lacks goes, unless newer than it.
    const keepOnly = (map, ids, v, versionOf) => { for (const [id, x] of map) if (!ids.has(id) && versionOf(x) <= v) map.delete(id); };
    const setState = (state, unitList) => {
      const v = Number(state.last_event_id) || 0;
      asOf = Math.max(asOf, v);
      if (unitList) {
        for (const u of unitList) if (!(units.get(u.id)?.v > v)) units.set(u.id, { ...u, v });
        keepOnly(units, new Set(unitList.map((u) => u.id)), v, (u) => u.v);
      }
      const laid = (state.board || {}).templates || [];
      // A state changing only the turn redraws the turn alone (a big table's redraw costs a phone a second).
      const drawn = () => JSON.stringify([board.drawn, terrain, [...templates.values()]]);
      const drawnBefore = drawn();
      if (board.v <= v) {
        board = { drawn: state.board_drawn || [], v };
        if (state.terrain) terrain = state.terrain;
      }
      for (const t of laid) if (newer(t)) templates.set(t.id, { ...t });
      keepOnly(templates, new Set(laid.map((t) => t.id)), v, (t) => t.version);
      const said = (t) => [t.status, t.turn, t.side_to_move, t.step].join("|"), turnBefore = said(turn);
      if (turn.v <= v) turn = { status: state.status, turn: state.turn, side_to_move: state.side_to_move, step: state.step, v };
      // A state changing neither the drawing nor the turn (a score call's frame) is not told: no panel read.
      if (!unitList && drawnBefore === drawn()) { if (said(turn) !== turnBefore) emit({ turn: true }); return; }
      emit({ units: true, templates: true, board: true, turn: true, all: true });
    };

    // A write's changes or a frame's units, each where newer than the model's unit: true if one was unknown.
    const applyTo = (items, v, changed, idOf, next) => items.reduce((unknown, item) => {
      const u = units.get(idOf(item));
      if (u && u.v <= v) { units.set(u.id, { ...next(u, item), v }); changed.add(u.id); }
      return unknown || !u;
    }, false);

    // One stream frame; answers what to read back: "units" (one unknown), "state" (the game changed, judged
    // by app.core.touched.touches_game; a frame's `refetch`; a new turn unspelt), or nothing.
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
        turn = { ...turn, turn: ev.turn, side_to_move: ev.side, step: turnChanged ? null : turn.step, v: ev.id };
      }
      const t = ev.payload && ev.payload.template;
      if (ev.kind === "template-placed" || ev.kind === "template-moved") {
        setTemplate({ ...t, version: ev.id });
      } else if (ev.kind === "template-removed") {
        dropTemplate(t.id, ev.id);
      } else {
        // The map's frame (live.js) carries its units as of `as_of_event`; one too big, only its changes.
        const changes = (Array.isArray(ev.payload?.changes) ? ev.payload.changes : []).filter((c) => c && c.unit !== undefined && c.field && "after" in c);
        const unknown = Array.isArray(ev.units)
          ? applyTo(ev.units, Math.max(ev.id, Number(ev.as_of_event) || 0), changed, (u) => u.id, (u, item) => ({ ...u, ...item }))
          : applyTo(changes, ev.id, changed, (c) => c.unit, (u, c) => ({ ...u, [c.field]: c.after }));
        if (unknown || ev.kind === "unit-added" || ev.kind === "forces-built") need.push("units");
        if (ev.state || ev.refetch) need.push("state");
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
    // Removed as of event `version`: a template older goes, a late "moved" never revives it.
    const dropTemplate = (id, version) => {
      removed.set(id, Math.max(removed.get(id) || 0, version));
      if (templates.get(id)?.version < version && templates.delete(id)) emit({ templates: true, template: id });
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
      listen: (fn) => listeners.push(fn),
    };
  };
  window.firestepTableModel = { create };
})();
