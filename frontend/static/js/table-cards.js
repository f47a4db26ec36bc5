// A side's cards at the table: "Draw a card" (or "Enter a card" from the club's own pack), offered by map.css
// to the side to move; its buttons the page's writes (map.html: data-api, data-done, through api-action.js).
// Opened, it shows no card drawn before (the server's reading of one: app/pages/drawn_cards.py).
(() => {
  const tool = document.querySelector("[data-cards-tool]");
  const shown = document.querySelector("[data-panel='cards'] [data-card-drawn]");
  if (tool && shown) tool.addEventListener("click", () => shown.replaceChildren());
})();
