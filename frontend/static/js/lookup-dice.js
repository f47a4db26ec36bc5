// The lookup's dice pad always answers: a marked face tapped again resolves again (a radio fires no change),
// a tap while htmx swaps the panel is kept, and a page back by Back with a die marked and no answer asks.
(() => {
  const form = () => document.getElementById("lookup-form");
  const resolve = (el) => el.dispatchEvent(new Event("change", { bubbles: true }));

  document.addEventListener("click", (event) => {
    const input = event.target.closest("[data-die-pad] input[type=radio], [data-card-pick] input[type=radio]");
    if (!input) return;
    let changed = false;
    const seen = () => { changed = true; };
    input.addEventListener("change", seen, { once: true });
    // The browser fires change (if any) right after the click handlers: look once they have run.
    setTimeout(() => {
      input.removeEventListener("change", seen);
      if (!changed && input.checked && input.isConnected) resolve(input);
    }, 0);
  });

  // htmx hears a swapped-in form only once it has settled (about 20 ms): a tap in that moment (a chip, then a
  // die at once) changes the form with nobody listening. Note it, and ask again once htmx listens.
  let missed = false;
  document.addEventListener("change", (event) => {
    const panel = event.target.closest && event.target.closest("[data-lookup-panel]");
    if (panel && panel.classList.contains("htmx-settling")) missed = true;
  }, true);
  document.addEventListener("htmx:afterSettle", () => {
    if (!missed) return;
    missed = false;
    const f = form();
    if (f) resolve(f);
  });

  const answerMissing = () => {
    const f = form();
    return f && f.querySelector("[data-die-pad] input:checked") && !document.getElementById("answer")
      && !f.querySelector(".needed-note, .errors");
  };
  const reresolve = () => { if (answerMissing()) resolve(form()); };
  window.addEventListener("pageshow", reresolve);
  document.addEventListener("htmx:historyRestore", reresolve);
})();
