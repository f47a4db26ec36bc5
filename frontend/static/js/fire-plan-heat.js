// The rehearsal's turn chips (inputs with data-heat-pick inside a [data-heat] section): show the heat layer
// and the table of the chosen turn, hide the others.
document.addEventListener("change", (event) => {
  const pick = event.target.closest("[data-heat-pick]");
  if (!pick) return;
  const section = pick.closest("[data-heat]");
  if (!section) return;
  for (const el of section.querySelectorAll("[data-heat-turn]")) {
    el.hidden = el.dataset.heatTurn !== pick.value;
  }
});
