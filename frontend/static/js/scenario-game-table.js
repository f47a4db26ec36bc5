// The scenario editor on a game's table in set-up (app.pages.scenario_editor.game_document): Save the table
// writes the terrain and objectives with one PATCH over the game's version, each stand moved over its own
// version. What was saved before a refusal stays saved.
(() => {
  const S = window.firestepScenario;
  const gameId = S?.root.dataset.gameId;
  if (!gameId || !S.file) return;
  const { root } = S;
  const { call, refusal, tell } = S.file;
  const API = `/api/v1/games/${encodeURIComponent(gameId)}`;
  let version = Number(root.dataset.gameVersion);

  // What the game holds now: the terrain as JSON, and each stand's place and version.
  const standsIn = (d) => [...d.sides.attacker.forces, ...d.sides.defender.forces].flatMap(S.standsOf);
  // The objectives as the game's PATCH takes them (none: an empty collection, which clears them).
  const objectivesOf = (d) => d.table_objectives || { type: "FeatureCollection", features: [] };
  let savedTerrain = JSON.stringify(S.doc().terrain);
  let savedObjectives = JSON.stringify(objectivesOf(S.doc()));
  const saved = new Map(standsIn(S.doc()).map((s) => [s.id, { place: JSON.stringify(s.placement || null), version: s.version }]));

  const save = async () => {
    // Only before the game starts (the page refuses itself with a 409 once it has; this page may be older).
    const game = await call(API, "GET");
    if (game.ok && game.data.status !== "setup") { tell("Not saved: the game has started, and its table can be edited only before it starts."); return; }
    const current = S.current();
    let done = 0;
    const terrain = JSON.stringify(current.terrain);
    const objectives = JSON.stringify(objectivesOf(current));
    if (terrain !== savedTerrain || objectives !== savedObjectives) {
      const body = { version };
      if (terrain !== savedTerrain) body.terrain = current.terrain;
      if (objectives !== savedObjectives) body.table_objectives = objectivesOf(current);
      const what = body.terrain && body.table_objectives ? "The terrain and objectives" : body.terrain ? "The terrain" : "The objectives";
      const result = await call(API, "PATCH", body);
      if (result.status === 409) { tell(`${what} not saved: the game was changed elsewhere since this page was opened; reload the page to edit the table as it is now.`); return; }
      if (!result.ok) { tell(refusal(result, `${what} not saved`)); return; }
      version = result.data.version;
      savedTerrain = terrain;
      savedObjectives = objectives;
      done += 1;
    }
    for (const stand of standsIn(current)) {
      const was = saved.get(stand.id);
      const place = JSON.stringify(stand.placement || null);
      if (!was || !stand.placement || place === was.place) continue;
      const [x, y] = stand.placement.center;
      const body = { x, y, facing_deg: stand.placement.facing_deg ?? 90, version: was.version };
      const result = await call(`${API}/units/${encodeURIComponent(stand.id)}/move`, "POST", body);
      if (!result.ok) { tell(refusal(result, `${stand.name} not saved`)); return; }
      saved.set(stand.id, { place, version: result.data.unit.version });
      done += 1;
    }
    delete root.dataset.dirty;
    tell(done ? "The table is saved to the game." : "Nothing has changed since the last save.", true);
  };
  root.addEventListener("click", (e) => { if (e.target.closest("[data-save-table]")) save(); });
  root.dataset.loadedGame = gameId;
})();
