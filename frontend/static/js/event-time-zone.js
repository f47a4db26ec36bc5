// The event form's time zone: the organiser's browser knows its own (the round's end is printed in it); a
// zone already typed, or kept from a refused form, is left as it is.
(function () {
  "use strict";
  const input = document.querySelector("[data-time-zone]");
  if (!input || input.value !== "UTC") return;
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) input.value = zone;
  } catch (e) {
    // No Intl time zones in this browser: UTC stays.
  }
})();
