// An event table's page on a player's seat: while the table's game is played the page offers no result; when
// the game ends (the game's stream, live.js) the page is read anew, so the result it offers and the seat's
// "Confirm" come with no tap of the player's. Only a page marked [data-reload-on-end] does so.
(() => {
  if (!document.querySelector("[data-reload-on-end]")) return;
  document.addEventListener("firestep:event", (ev) => {
    if (ev.detail && ev.detail.kind === "game-finished") window.location.reload();
  });
})();
