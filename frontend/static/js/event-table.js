// An event table's page on a player's seat offers no result while its game is played: when the game ends
// (its stream, live.js) the page is read anew, so the result and the seat's "Confirm" come with no tap.
(() => {
  if (!document.querySelector("[data-reload-on-end]")) return;
  document.addEventListener("firestep:event", (ev) => {
    if (ev.detail && ev.detail.kind === "game-finished") window.location.reload();
  });
})();
