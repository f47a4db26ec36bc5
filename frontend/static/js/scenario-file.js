// The scenario editor's Save panel: Save, Import (one saved here already: replace it or keep both) and Start
// are the server's, on this browser's draft; Export and Print are links to what is saved.
(() => {
  const S = window.firestepScenario;
  if (!S) return;
  const { root, say } = S;
  const message = root.querySelector("[data-file-message]");
  const tell = (text, good = false) => {
    message.textContent = text;
    message.classList.toggle("good", good);
    say(text, good);
  };
  // Save, Import and Start are the server's, on this browser's draft (app.pages.scenario_saving), as a game's
  // table's Save is (app.pages.game_table_save): a refusal is said in the panel (dom.js).
  const good = () => Boolean(root.dataset.gameId && message.querySelector(".good")); // a table saved to the game
  document.body.addEventListener("htmx:afterSwap", (e) => { if (e.detail.target === message) say(message.textContent, good()); });
  if (root.dataset.gameId) return; // the rest is a scenario's: a game's table is the game's own
  // A file chosen may be chosen again.
  root.querySelector("[data-import]").addEventListener("htmx:afterRequest", (e) => { e.target.value = ""; });
  // Export and Print are links to what is saved: with changes unsaved, Save comes first.
  root.addEventListener("click", (e) => {
    const link = e.target.closest("[data-export], [data-print-sheet]");
    if (!link) return;
    if (!root.dataset.scenarioId || root.hasAttribute("data-shipped") || root.dataset.dirty) {
      e.preventDefault();
      tell(`Save the scenario first: the ${link.matches("[data-export]") ? "file" : "sheet"} is the saved scenario.`);
    } else tell(link.matches("[data-export]") ? `Exported ${root.dataset.scenarioId}.json.` : "The sheet opens in a new tab: print it from there.", true);
  });
})();
