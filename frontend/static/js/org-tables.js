// Start page, "forces from the organisation tables": each side's table list shows only the tables of the
// nation and period picked, and its quality list only the grades that table allows. Touching any of it picks
// that way of setting up. Without this script every option stays and the server checks the choice.
(() => {
  const box = document.querySelector("[data-org-forces]");
  if (!box) return;
  const form = box.closest("form");
  const chosen = (name) => (form.querySelector(`input[name="${name}"]:checked`) || {}).value || "";

  function fit(sideBox) {
    const side = sideBox.dataset.orgSide;
    const nation = chosen(`${side}_force_nation`);
    const period = chosen("forces_period");
    const table = sideBox.querySelector("[data-org-table]");
    for (const opt of table.options) {
      const ok = (!nation || opt.dataset.nation === nation) && (!period || opt.dataset.periods.split(" ").includes(period));
      opt.hidden = opt.disabled = !ok;
    }
    if (table.selectedOptions[0]?.disabled) {
      const first = [...table.options].find((o) => !o.disabled);
      table.value = first ? first.value : "";
      table.dispatchEvent(new Event("change")); // not bubbling: the editor's formations list follows (htmx)
    }
    const picked = table.selectedOptions[0];
    const allowed = picked ? picked.dataset.qualities.split(" ") : [];
    const quality = sideBox.querySelector("[data-org-quality]");
    for (const opt of quality.options) opt.hidden = opt.disabled = opt.value !== "" && !allowed.includes(opt.value);
    if (quality.selectedOptions[0]?.disabled) quality.value = "";
    quality.options[0].textContent = picked ? `The table's own grade (${picked.dataset.default})` : "The table's own grade";
    const rule = sideBox.querySelector("[data-side-quality-rule]"); // the editor's: the grades rule
    if (rule) rule.textContent = picked ? picked.dataset.rule : "";
  }

  const all = () => box.querySelectorAll("[data-org-side]").forEach(fit);
  box.addEventListener("change", () => {
    const radio = form.querySelector('input[name="scenario"][value="tables"]');
    if (radio) radio.checked = true;
    all();
  });
  box.addEventListener("toggle", () => { if (box.open) all(); });
  all();
})();
