// The scenario editor's forces: per side, formations picked from the organisation tables (any box of a table,
// division down to a single stand, read from the rule set's organisation datasets), graded with a quality the
// table allows (org-tables.js narrows the choice; crewed weapons keep their own grade, as the tables build
// them), named as a club reads them, and kept in the document as the game's unit tree. A rule set with a chart
// of troops instead (data.chart) builds each formation from rows of sub-units, a kind and a number of bases
// each, built by the server (POST /api/v1/rulesets/{id}/formations) into the same unit tree.
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
    const tableOf = (unit) => [...(sel("table", "attacker")?.options || [])].find((o) => String(unit.source || "").startsWith(`${o.dataset.source}:`));
    const chart = data.chart;

    // -- the formations a table offers: each distinct box once, the largest first ---------------------------------
    const fillFormations = async (side) => {
      if (chart) return;
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
    // A chart's formation carries its quality itself (its sub-units read it); a table's every troop unit does.
    const regrade = (unit, quality) => {
      if (chart) { unit.quality = quality; return; }
      for (const [u] of walk(unit)) if (!crewed(u)) u.quality = quality;
    };
    const nextPrefix = (side) => {
      const ids = allIds();
      let n = 1;
      while ([...ids].some((id) => id === `${side}-${n}` || id.startsWith(`${side}-${n}/`))) n++;
      return `${side}-${n}`;
    };
    const added = (side, unit) => {
      S.doc().sides[side].forces.push(unit);
      sel("name", side).value = "";
      render();
      S.changed({ forces: side });
      say(`${unit.name} added to the ${side}: ${standsOf(unit).length} stands.`, true);
    };

    // -- a chart's formation: rows of sub-units, each a kind of the chart and a number of bases ---------------------
    const rows = { attacker: [], defender: [] };
    const renderRows = (side) => {
      const list = form.querySelector(`[data-chart-rows="${side}"]`);
      if (!list) return;
      const kindOptions = (picked) => chart.kinds.map((k) => { const o = new Option(`${k.name} (${k.what})`, k.id); o.selected = k.id === picked; return o; });
      list.replaceChildren(...rows[side].map((row, i) => {
        const id = `${side}-row${i}`;
        return h("li", { class: "scn-chart-row", "data-chart-row": String(i) },
          h("div", { class: "form-row" }, h("label", { for: `${id}-kind`, text: `${humanise(chart.words.sub_unit)} ${i + 1}: kind` }),
            h("select", { id: `${id}-kind`, "data-chart-kind": side, "data-row": String(i) }, ...kindOptions(row.kind))),
          h("div", { class: "form-row" }, h("label", { for: `${id}-bases`, text: `${humanise(chart.words.base)}s` }),
            h("input", { id: `${id}-bases`, type: "number", min: "1", max: String(chart.most_bases), step: "1", inputmode: "numeric", value: String(row.bases), "data-chart-bases": side, "data-row": String(i) })),
          h("button", { type: "button", class: "button danger", "data-chart-remove-row": side, "data-row": String(i), text: `Remove ${chart.words.sub_unit} ${i + 1}` }));
      }));
    };
    const addRow = (side) => {
      if (rows[side].length >= chart.most_sub_units) { say(`A ${chart.words.formation} has at most ${chart.most_sub_units} ${chart.words.sub_unit}s.`); return; }
      const last = rows[side][rows[side].length - 1];
      rows[side].push({ kind: last ? last.kind : chart.kinds[0].id, bases: last ? last.bases : 2 });
      renderRows(side);
    };
    const buildFormation = async (side) => {
      if (!rows[side].length) { say(`Give the ${side}'s ${chart.words.formation} a ${chart.words.sub_unit} first.`); return; }
      const body = { quality: sel("quality", side).value, sub_units: rows[side].map((r) => ({ kind: r.kind, bases: r.bases })) };
      const name = sel("name", side).value.trim();
      if (name) body.name = name;
      let r;
      try {
        r = await fetch(`/api/v1/rulesets/${data.ruleset}/formations`, {
          method: "POST", credentials: "same-origin", body: JSON.stringify(body),
          headers: { "Content-Type": "application/json", "X-CSRFToken": document.querySelector('meta[name="csrf-token"]')?.content || "" },
        });
      } catch (err) { say(`The ${chart.words.formation} could not be built; check the connection.`); return; }
      const answer = await r.json().catch(() => ({}));
      if (!r.ok) { say(`Not added: ${answer.field ? `${answer.field}: ` : ""}${answer.detail || `error ${r.status}`}`); return; }
      const prefix = nextPrefix(side);
      const copy = (u) => ({ ...u, id: prefix + u.id.slice("formation".length), placement: null, off_table: false, children: u.children.map(copy) });
      added(side, copy(answer));
    };

    const addFormation = async (side) => {
      if (chart) { await buildFormation(side); return; }
      const option = tableOption(side);
      const pick = sel("formation", side).value;
      if (!option || option.disabled || !pick) { say(`Pick the ${side}'s organisation table and a formation from it first.`); return; }
      const force = (await tree(option.value)).force;
      const node = [...walk(force)].map(([u]) => u).find((u) => u.id === pick);
      if (!node) return;
      const prefix = nextPrefix(side);
      const copy = (u) => ({
        id: `${prefix}/${u.id}`, name: u.name, level: u.level, kind: u.kind, base: u.base, quality: u.quality,
        models: u.models, gun: u.gun, source: u.source, placement: null, off_table: false,
        children: (u.children || []).map(copy),
      });
      const unit = copy(node);
      const quality = sel("quality", side).value;
      if (quality) regrade(unit, quality);
      const name = sel("name", side).value.trim();
      if (name) unit.name = name;
      added(side, unit);
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
          const grades = byReading ? [] : table ? table.dataset.qualities.split(" ") : chart ? chart.qualities : [unit.quality].filter(Boolean);
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
      if (t.dataset.chartKind) { rows[t.dataset.chartKind][Number(t.dataset.row)].kind = t.value; return; }
      if (t.dataset.chartBases) {
        const bases = Number(t.value);
        if (!(Number.isInteger(bases) && bases >= 1 && bases <= chart.most_bases)) { say(`A ${chart.words.sub_unit} has 1 to ${chart.most_bases} ${chart.words.base}s.`); t.value = rows[t.dataset.chartBases][Number(t.dataset.row)].bases; return; }
        rows[t.dataset.chartBases][Number(t.dataset.row)].bases = bases;
        return;
      }
      if (t.dataset.formationName) {
        const found = formationById(t.dataset.formationName);
        if (found && t.value.trim()) { found.unit.name = t.value.trim(); S.changed({ forces: found.side }); }
      }
    });
    form.addEventListener("click", (e) => {
      const more = e.target.closest("[data-chart-add-row]");
      if (more) { addRow(more.dataset.chartAddRow); return; }
      const less = e.target.closest("[data-chart-remove-row]");
      if (less) { rows[less.dataset.chartRemoveRow].splice(Number(less.dataset.row), 1); renderRows(less.dataset.chartRemoveRow); return; }
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
    if (chart) SIDES.forEach(addRow);
    render();
    window.dispatchEvent(new CustomEvent("firestep:scenario-forces-ready"));
  };
  if (window.firestepScenario) start();
  else window.addEventListener("firestep:scenario-ready", start, { once: true });
})();
