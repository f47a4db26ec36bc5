// After htmx swaps in an answer, bring it into view (on a portrait tablet it sits below the dice).
document.addEventListener("htmx:afterSettle", () => {
  const el = document.querySelector("[data-reveal]");
  if (el) el.scrollIntoView({ block: "nearest", behavior: "smooth" });
});
