// The scenario editor's forces: per side, formations picked from the organisation tables (any box of a table,
// division down to a single stand, read from the rule set's organisation datasets), graded with a quality the
// table allows (org-tables.js narrows the choice; crewed weapons keep their own grade, as the tables build
// them), named as a club reads them, and kept in the document as the game's unit tree.
(() => {
  const start = () => {
    const S = window.firestepScenario;
    const { data, root, form, humanise, say, h } = S;
    const SIDES = ["attacker", "defender"];
    const trees = new Map(); // table id -> promise of its dataset
    const tree = (table) => {
      if (!trees.has(table)) {
        trees.set(table, fetch(`/api/v1/rulesets/${data.ruleset}/organisation-${table}`, { credentials: "same-origin" })
          .then((r) => (r.ok ? r.json() : Promise.reject(r.status))));
      }
      return trees.get(table);
    };
    function* walk(unit, depth = 0) {
      yield [unit, depth];
      for (const child of unit.children || []) yield* walk(child, depth + 1);
    }
    const standsOf = (unit) => [...walk(unit)].map(([u]) => u).filter((u) => u.base);
    const crewed = (unit) => Boolean(unit.gun) || data.crewed_kinds.includes(unit.kind);
    const plainName = (name) => String(name).replace(/ \d+$/, "");
    const sel = (what, side) => form.querySelector(`[data-side-${what}="${side}"]`);
    const tableOption = (side) => sel("table", side).selectedOptions[0];
    // The table a formation came from, by the citation its units carry (the table's own source first).
    const tableOf = (unit) => [...sel("table", "attacker").options].find((o) => String(unit.source || "").startsWith(`${o.dataset.source}:`));

    // -- the formations a table offers: each distinct box once, the largest first ---------------------------------
    const fillFormations = async (side) => {
      const select = sel("formation", side);
      const option = tableOption(side);
      const rule = form.querySelector(`[data-side-quality-rule="${side}"]`);
      rule.textContent = option ? option.dataset.rule : "";
      if (!option || option.disabled) { select.replaceChildren(); return; }
      const table = option.value;
      let force;
      try { force = (await tree(table)).force; } catch (status) { say("The organisation table could not be read; check the connection."); return; }
      if (tableOption(side)?.value !== table) return; // picked another meanwhile
      const seen = new Set();
      const options = [];
      for (const [unit, depth] of walk(force)) {
        const key = `${unit.level}|${unit.kind}|${plainName(unit.name)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const n = standsOf(unit).length;
        options.push({ id: unit.id, depth, label: `${plainName(unit.name)} (${unit.level}, ${n} stand${n === 1 ? "" : "s"})` });
      }
      options.sort((a, b) => a.depth - b.depth);
      const before = select.value;
      select.replaceChildren(...options.map((o) => new Option(o.label, o.id)));
      if (options.some((o) => o.id === before)) select.value = before;
    };

    // -- adding, regrading, renaming and removing formations -------------------------------------------------------
    const allIds = () => new Set(SIDES.flatMap((s) => S.doc().sides[s].forces.flatMap((f) => [...walk(f)].map(([u]) => u.id))));
    const regrade = (unit, quality) => {
      for (const [u] of walk(unit)) if (!crewed(u)) u.quality = quality;
    };
    const addFormation = async (side) => {
      const option = tableOption(side);
      const pick = sel("formation", side).value;
      if (!option || option.disabled || !pick) { say(`Pick the ${side}'s organisation table and a formation from it first.`); return; }
      const force = (await tree(option.value)).force;
      const node = [...walk(force)].map(([u]) => u).find((u) => u.id === pick);
      if (!node) return;
      const ids = allIds();
      let n = 1;
      while ([...ids].some((id) => id.startsWith(`${side}-${n}/`))) n++;
      const copy = (u) => ({
        id: `${side}-${n}/${u.id}`, name: u.name, level: u.level, kind: u.kind, base: u.base, quality: u.quality,
        models: u.models, gun: u.gun, source: u.source, placement: null, off_table: false,
        children: (u.children || []).map(copy),
      });
      const unit = copy(node);
      const quality = sel("quality", side).value;
      if (quality) regrade(unit, quality);
      const name = sel("name", side).value.trim();
      if (name) unit.name = name;
      S.doc().sides[side].forces.push(unit);
      sel("name", side).value = "";
      render();
      S.changed({ forces: side });
      say(`${unit.name} added to the ${side}: ${standsOf(unit).length} stands.`, true);
    };

    const render = () => {
      for (const side of SIDES) {
        const list = form.querySelector(`[data-formations="${side}"]`);
        const forces = S.doc().sides[side].forces;
        if (!forces.length) { list.replaceChildren(h("li", { class: "muted", text: "None yet." })); continue; }
        list.replaceChildren(...forces.map((unit, i) => {
          const id = `${side}-f${i}`;
          const name = formationName(unit);
          const remove = h("button", { type: "button", class: "button danger", "data-formation-remove": unit.id ?? `entry-${i}`, text: `Remove ${name}` });
          if (unit.table_id) {
            // An organisation-table entry (a file written by hand): the game builds and deploys it.
            return h("li", { class: "scn-formation", "data-formation": unit.id ?? `entry-${i}` },
              h("p", { class: "scn-deploy-name", text: name }),
              h("p", { class: "muted", text: `Built from the ${unit.table_id} table${unit.quality ? `, ${unit.quality}` : ""}, and lined up at the ${side}'s base edge when the game starts.` }),
              remove);
          }
          const byReading = unit.quality && typeof unit.quality === "object";
          const table = tableOf(unit);
          const grades = byReading ? [] : table ? table.dataset.qualities.split(" ") : [unit.quality].filter(Boolean);
          const fixed = byReading || crewed(unit) || !unit.quality;
          const note = byReading ? `The grade depends on the reading of ${unit.quality.by_reading} (see Errata).`
            : table ? (fixed ? "Crewed weapons keep their own grade." : table.dataset.rule) : "";
          return h("li", { class: "scn-formation", "data-formation": unit.id },
            h("div", { class: "form-row" },
              h("label", { for: `${id}-name`, text: `Name (${unit.level}, ${standsOf(unit).length} stands)` }),
              h("input", { id: `${id}-name`, type: "text", maxlength: "200", value: unit.name, "data-formation-name": unit.id })),
            h("div", { class: "form-row" },
              h("label", { for: `${id}-quality`, text: "Quality" }),
              h("select", { id: `${id}-quality`, "data-formation-quality": unit.id, disabled: fixed },
                ...(byReading ? [new Option("By the erratum's reading", "")] : grades.map((q) => { const o = new Option(humanise(q), q); o.selected = q === unit.quality; return o; }))),
              note ? h("p", { class: "muted", text: note }) : null),
            remove);
        }));
      }
      root.dataset.formations = String(SIDES.reduce((n, s) => n + S.doc().sides[s].forces.length, 0));
    };
    const formationName = (unit) => unit.name || (unit.table_id ? humanise(`${unit.table_id} ${unit.template || ""}`.trim()) : unit.id);
    const formationById = (id) => {
      for (const side of SIDES) {
        const i = S.doc().sides[side].forces.findIndex((f, j) => (f.id ?? `entry-${j}`) === id);
        if (i >= 0) return { side, i, unit: S.doc().sides[side].forces[i] };
      }
      return null;
    };

    form.addEventListener("change", (e) => {
      const t = e.target;
      const side = t.dataset.sideTable || t.dataset.sideNation || (t.matches("[data-doc-period]") ? "both" : null);
      // After org-tables.js has refitted the table lists to the nationality and period.
      if (side) setTimeout(() => (side === "both" ? SIDES : [side]).forEach(fillFormations), 0);
      if (t.dataset.formationQuality) {
        const found = formationById(t.dataset.formationQuality);
        if (found) { regrade(found.unit, t.value); S.changed({ forces: found.side }); }
      }
      if (t.dataset.formationName) {
        const found = formationById(t.dataset.formationName);
        if (found && t.value.trim()) { found.unit.name = t.value.trim(); S.changed({ forces: found.side }); }
      }
    });
    form.addEventListener("click", (e) => {
      const add = e.target.closest("[data-add-formation]");
      if (add) { addFormation(add.dataset.addFormation); return; }
      const remove = e.target.closest("[data-formation-remove]");
      if (remove) {
        const found = formationById(remove.dataset.formationRemove);
        if (!found) return;
        S.doc().sides[found.side].forces.splice(found.i, 1);
        render();
        S.changed({ forces: found.side });
        say(`${formationName(found.unit)} removed.`, true);
      }
    });
    S.onChange((what) => { if (what.all) render(); });
    window.firestepScenarioForces = { walk, standsOf, formationName };
    SIDES.forEach(fillFormations);
    render();
    window.dispatchEvent(new CustomEvent("firestep:scenario-forces-ready"));
  };
  if (window.firestepScenario) start();
  else window.addEventListener("firestep:scenario-ready", start, { once: true });
})();
