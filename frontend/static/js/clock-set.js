// The referee sets the clock from the board: each side's limits per game and turn, in seconds or minutes,
// and the tournament rules, sent as one act (PUT .../clock/limits, a ClockLimits) through the outbox. The
// server draws the form anew in each live change of the clock, unless the referee is editing it.
(() => {
  let editing = false;
  document.addEventListener("input", (event) => { if (event.target.closest("[data-clock-form]")) editing = true; });
  document.addEventListener("htmx:oobBeforeSwap", (event) => { if (editing && event.detail.target.id === "clock-set") event.preventDefault(); });

  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("[data-clock-form]");
    if (!form) return;
    event.preventDefault();
    const seconds = (name) => {
      const value = form.elements[name].value.trim();
      return value === "" ? null : Number(value) * Number(form.elements[`${name}_unit`].value);
    };
    const sides = [...form.querySelectorAll("[name^='game_']:not([name$='_unit'])")].map((el) => el.name.slice(5));
    const button = form.querySelector("button[type=submit]");
    const body = {
      game_seconds: Object.fromEntries(sides.map((s) => [s, seconds(`game_${s}`)])),
      turn_seconds: Object.fromEntries(sides.map((s) => [s, seconds(`turn_${s}`)])),
      dispute_pause: form.elements.dispute_pause.checked,
      finish_act: form.elements.finish_act.checked,
      end_under_seconds: seconds("end_under"),
    };
    button.disabled = true;
    try {
      const result = await window.firestepOutbox.send(form.dataset.clockForm, { method: "PUT", body: JSON.stringify(body) });
      if (result.queued) return; // the outbox has told the referee
      if (!result.ok) {
        window.firestepNotice(window.firestepExplain(result.status, result.data, result.retryAfter), false, { key: "action" });
        return;
      }
      editing = false;
      document.getElementById("clock-set").open = false;
      window.firestepNotice("The clock is set: the log shows it, with its Undo.", false, { key: "action", tone: "info" });
      document.dispatchEvent(new CustomEvent("firestep:refresh"));
    } finally {
      button.disabled = false;
    }
  });
})();
