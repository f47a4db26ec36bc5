// The event form's time zone: the organiser's browser knows its own (the round's end is printed in it); a
// zone already typed, or kept from a refused form, is left as it is.
(() => {
  const input = document.querySelector("[data-time-zone]");
  if (!input || input.value !== "UTC") return;
  try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch (err) { /* none */ }
})();
