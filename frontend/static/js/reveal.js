// After htmx swaps in an answer, bring it into view inside the result column when that column scrolls on its
// own (wide screens); the page itself never jumps: on narrow screens the dice dock shows the outcome.
document.addEventListener("htmx:afterSettle", () => {
  const el = document.querySelector("[data-reveal]");
  const column = el && el.closest(".lookup-result");
  if (!column || column.scrollHeight <= column.clientHeight) return;
  const top = el.getBoundingClientRect().top - column.getBoundingClientRect().top + column.scrollTop;
  if (top < column.scrollTop || top > column.scrollTop + column.clientHeight - 80) column.scrollTop = top;
});
