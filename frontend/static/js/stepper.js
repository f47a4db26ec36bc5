// Steppers: a button with data-stepper="<input id>" and data-step="+1|-1" nudges a number input and
// fires `change`, so htmx forms listening for change update at once.
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
