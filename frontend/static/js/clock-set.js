// The referee board's clock form is the server's (posted by htmx: app.pages.referee.set_clock); a live change
// of the clock draws it anew out of band, except while the referee is typing in it (until it is sent).
(() => {
  let editing = false;
  document.addEventListener("input", (event) => { if (event.target.closest("[data-clock-form]")) editing = true; });
  document.addEventListener("submit", (event) => { if (event.target.closest("[data-clock-form]")) editing = false; });
  document.addEventListener("htmx:oobBeforeSwap", (event) => { if (editing && event.detail.target.id === "clock-set") event.preventDefault(); });
})();
