// Coverage per template: for every template on the table, which stands it covers fully, partly, or too
// close to call, as the rule set's coverage lookup says (POST /api/v1/rulesets/<id>/lookups/coverage, the
// list's data-coverage-url; none where the rule set has no such lookup), named so no two stands read
// alike; and one tap to put a suppression marker on every fully covered stand through the markers API (the
// same rules of play as a marker placed by hand).
(() => {
  const { humanise } = window.firestepDom;
  const start = () => {
    const m = window.firestepMap;
    if (!m) return;
    const list = document.querySelector("[data-coverage-list]");
    const coverageUrl = list?.dataset.coverageUrl || "";
    const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content || "";
    const sideName = (s) => (s === "attacker" ? "Attacker" : "Defender");
    const results = new Map(); // template id -> {full, partial, ambiguous} (unit ids)
    const applied = new Map(); // template id -> what its last "apply" did (kept across redraws)
    let seq = 0;
    let timer = null;

    const onTable = () => [...m.model.units.values()].filter(
      (u) => u.x !== null && u.y !== null && u.base && !u.off_table && !u.killed && m.sizes.bases[u.base],
    );
    const label = (id) => {
      const u = m.model.units.get(id);
      return u ? m.nameOf(u).short : `unit ${id}`;
    };
    const line = (kind, text, ids) => {
      const p = document.createElement("p");
      p.dataset.coverage = kind;
      p.dataset.count = String(ids.length);
      p.textContent = `${text} (${ids.length}): ${ids.length ? ids.map(label).join(", ") : "none"}`;
      return p;
    };
    // A list less the stands too close to call (each stand is in one list only). The stands fully under that no
    // nudge of the tolerance could take out are the ones marked with one tap.
    const beyondDoubt = (ids, cov) => ids.filter((id) => !cov.ambiguous.includes(id));
    const clearlyFull = (cov) => beyondDoubt(cov.full, cov);
    const block = (t, cov, heading) => {
      const box = document.createElement("div");
      box.className = "coverage-block";
      if (heading) {
        box.dataset.coverageTemplate = String(t.id);
        const h = document.createElement("h3");
        h.textContent = `${humanise(t.kind)} · ${sideName(t.side)}`;
        box.append(h);
      }
      const sure = clearlyFull(cov);
      box.append(line("full", "Fully under", sure), line("partial", "Partly under", beyondDoubt(cov.partial, cov)));
      if (cov.ambiguous.length) box.append(line("ambiguous", "Too close to call, measure on the table", cov.ambiguous));
      if (sure.length) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "button";
        b.dataset.applyCoverage = String(t.id);
        b.textContent = `+1 marker on ${sure.length === 1 ? label(sure[0]) : `${sure.length} stands: ${sure.map(label).join(", ")}`}`;
        box.append(b);
      }
      if (applied.has(t.id)) {
        const said = document.createElement("p");
        said.dataset.applied = String(applied.get(t.id).done);
        said.textContent = applied.get(t.id).text;
        box.append(said);
      }
      return box;
    };
    const render = () => {
      const templates = [...m.model.templates.values()].sort((a, b) => a.id - b.id);
      if (list) {
        list.replaceChildren(...templates.filter((t) => results.has(t.id)).map((t) => block(t, results.get(t.id), true)));
        if (!templates.length) list.replaceChildren(Object.assign(document.createElement("p"), { className: "muted", textContent: "No template is on the table." }));
      }
      const sel = m.selectedTemplate();
      const here = document.querySelector(`[data-template-coverage="${sel}"]`);
      const t = m.model.templates.get(sel);
      if (here && t && results.has(sel)) here.replaceChildren(block(t, results.get(sel), false));
      const classes = new Map();
      for (const cov of results.values()) {
        cov.partial.forEach((id) => { if (!classes.has(id)) classes.set(id, "cov-partial"); });
        cov.full.forEach((id) => classes.set(id, "cov-full"));
      }
      m.setCover(classes);
    };
    const update = async () => {
      const mine = ++seq;
      const stands = onTable().map((u) => ({
        id: String(u.id), side: u.side, base: u.base, center: [u.x, u.y], facing_deg: u.facing_deg ?? 90,
      }));
      const templates = [...m.model.templates.values()];
      const answers = await Promise.all(templates.map(async (t) => {
        if (!coverageUrl) return [t.id, null];
        const response = await fetch(coverageUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify({
            template: { kind: t.kind, center: [t.x, t.y], facing_deg: t.rotation },
            stands,
            table: { width_cm: m.W, length_cm: m.LEN },
          }),
        }).catch(() => null);
        if (!response || !response.ok) return [t.id, null];
        const cov = await response.json();
        const ids = (xs) => xs.map(Number);
        return [t.id, { full: ids(cov.full), partial: ids(cov.partial), ambiguous: ids(cov.ambiguous) }];
      }));
      if (mine !== seq) return; // a newer change is being worked out
      results.clear();
      for (const [id, cov] of answers) if (cov) results.set(id, cov);
      if (answers.some(([, cov]) => !cov)) m.notice("What a template covers could not be worked out; check the connection.");
      render();
      document.querySelector("[data-map-page]").dataset.coverageSeq = String(mine);
    };
    const schedule = () => { clearTimeout(timer); timer = setTimeout(update, 80); };
    window.addEventListener("firestep:map-changed", schedule);
    window.addEventListener("firestep:template-selected", render);

    document.addEventListener("click", async (event) => {
      const button = event.target.closest("[data-apply-coverage]");
      if (!button) return;
      const id = Number(button.dataset.applyCoverage);
      const cov = results.get(id);
      if (!cov) return;
      button.disabled = true;
      let done = 0;
      const refused = [];
      // One marker per stand, one request each: the markers API applies the rules of play to every one.
      for (const unit of clearlyFull(cov)) {
        const result = await m.send(`${m.api}/units/${unit}/markers`, { body: { delta: 1 } });
        if (m.failed(result)) refused.push(`${label(unit)}: ${m.refusal(result, "not saved")}`);
        else done += 1;
      }
      const text = `Marker added to ${done} stand${done === 1 ? "" : "s"}.${refused.length ? ` Not added: ${refused.join("; ")}` : ""}`;
      applied.set(id, { done, text });
      if (refused.length) m.notice(text);
      button.disabled = false;
      render();
    });
    schedule();
  };
  if (window.firestepMap) start();
  else window.addEventListener("firestep:map-ready", start, { once: true });
})();
