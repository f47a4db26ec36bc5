// The referee sets the clock from the board: each side's limits for the game and each turn, in seconds or
// minutes, and the tournament rules, sent as one act (PUT /api/v1/games/{id}/clock/limits, a ClockLimits of
// app/data/schemas_clock.py) through the outbox; the log shows it and its Undo. The form is rendered by the
// server as the clock stands; a live frame that changes the clock (an undo among them) fills it again, unless
// the referee is editing it.
(() => {
  const form = document.querySelector("[data-clock-form]");
  if (!form) return;
  const seconds = (name) => {
    const value = form.elements[name].value.trim();
    return value === "" ? null : Number(value) * Number(form.elements[`${name}_unit`].value);
  };
  const sides = [...form.querySelectorAll("[name^='game_']")].map((el) => el.name.slice(5)).filter((n) => !n.endsWith("_unit"));
  const show = (name, value) => {
    const whole = value !== null && value % 60 === 0;
    form.elements[name].value = value === null ? "" : String(whole ? value / 60 : value);
    form.elements[`${name}_unit`].value = value === null || whole ? "60" : "1";
  };
  let editing = false;
  form.addEventListener("input", () => { editing = true; });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
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
      form.closest("details").open = false;
      window.firestepNotice("The clock is set: the log shows it, with its Undo.", false, { key: "action", tone: "info" });
      document.dispatchEvent(new CustomEvent("firestep:refresh"));
    } finally {
      button.disabled = false;
    }
  });

  document.addEventListener("firestep:event", (e) => {
    const limits = e.detail?.clock?.limits;
    if (!limits || editing) return;
    for (const s of sides) {
      show(`game_${s}`, limits.game_seconds[s] ?? null);
      show(`turn_${s}`, limits.turn_seconds[s] ?? null);
    }
    form.elements.dispute_pause.checked = limits.dispute_pause;
    form.elements.finish_act.checked = limits.finish_act;
    show("end_under", limits.end_under_seconds);
  });
})();
