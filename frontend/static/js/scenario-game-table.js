// The scenario editor on a game's table in set-up (app.pages.scenario_editor.game_document): Save the table
// posts the table as drawn (terrain, objectives, each placed stand's place); the server writes what differs
// from the game over the versions it answered last (app/pages/game_table_save.py), answering the message.
(() => {
  const S = window.firestepScenario;
  const root = S?.root;
  if (!root?.dataset.gameId) return;
  const placed = (d) => [...d.sides.attacker.forces, ...d.sides.defender.forces].flatMap(S.standsOf).filter((s) => s.placement);
  document.body.addEventListener("htmx:configRequest", ({ detail: d }) => {
    if (!d.elt.matches?.("[data-save-table]")) return;
    const doc = S.current(), none = { type: "FeatureCollection", features: [] };
    const stands = placed(doc).map(({ id, placement: p }) => ({ id: Number(id), x: p.center[0], y: p.center[1], facing_deg: p.facing_deg ?? 90 }));
    d.parameters.table = JSON.stringify({ terrain: doc.terrain, table_objectives: doc.table_objectives || none, stands });
  });
  root.addEventListener("htmx:afterRequest", ({ detail: d }) => { if (d.elt.matches("[data-save-table]") && d.successful) delete root.dataset.dirty; });
  root.dataset.loadedGame = root.dataset.gameId;
})();
