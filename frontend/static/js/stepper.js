// Steppers: a button with data-stepper="<input id>" and data-step="+1|-1" nudges a number input and fires
// `change`, so htmx forms listening for change update at once.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-stepper]");
  if (!button) return;
  const input = document.getElementById(button.dataset.stepper);
  if (!input) return;
  const step = Number(button.dataset.step || 1);
  const current = input.value === "" ? Number(input.min || 0) - (step > 0 ? step : 0) : Number(input.value);
  let next = current + step;
  if (input.min !== "" && next < Number(input.min)) next = Number(input.min);
  if (input.max !== "" && next > Number(input.max)) next = Number(input.max);
  input.value = String(next);
  input.dispatchEvent(new Event("change", { bubbles: true }));
});
// Enter in a lookup field updates the form; it must not submit it, since the form's first submit button is
// "Roll for me" (inside a game, "Roll for me and record"): a keyboard Enter would roll the dice.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !event.target.matches("#lookup-form input:not([type=submit])")) return;
  event.preventDefault();
  event.target.dispatchEvent(new Event("change", { bubbles: true }));
});
