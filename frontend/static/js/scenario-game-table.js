// The scenario editor on a game's table in set-up (app.pages.scenario_editor.game_document): Save posts the
// table as drawn (terrain, objectives, placed stands); the server writes what differs from the game over the
// versions it answered last (app/pages/game_table_save.py): a 200 all saved, a 202 the rest carried on.
(() => {
  const S = window.firestepScenario;
  const root = S?.root;
  if (!root?.dataset.gameId) return;
  const stands = (d) => [...d.sides.attacker.forces, ...d.sides.defender.forces].flatMap(S.standsOf);
  document.body.addEventListener("htmx:configRequest", ({ detail: d }) => {
    if (!d.elt.matches?.("[data-save-table]")) return;
    const doc = S.current(), none = { type: "FeatureCollection", features: [] };
    const placed = stands(doc).filter((s) => s.placement).map(({ id, placement }) => ({ id, placement }));
    d.parameters.table = JSON.stringify({ terrain: doc.terrain, table_objectives: doc.table_objectives || none, stands: placed });
  });
  root.addEventListener("htmx:afterRequest", ({ detail: d }) => { if (d.elt.matches("[data-save-table]") && d.xhr.status === 200) delete root.dataset.dirty; });
  root.dataset.loadedGame = root.dataset.gameId;
})();
