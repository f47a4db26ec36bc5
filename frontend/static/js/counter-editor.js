// The scenario editor of a game played on a board of counters (app/pages/counter_editor.py): the club's data as
// its rule set declares it (places, pairs of places, places by kind, a sequence, rows of numbers, a number) and
// the order of battle (each side's counters with their printed values). A scenario is saved through the
// scenario API (POST a new one, PUT a stored one; a stored one comes filled in) and a game is
// started from it through the start page's form; a game in set-up is saved to the game itself (PATCH its
// `club` over its version, then each new counter added with its values in one request, each changed one saved
// over its version, through the units API). Refusals are the server's, one sentence naming the field or the
// counter. The form comes filled in by the server (app/pages/club_form.py), a counter added a copy of its side's
// blank row: this script reads it back and saves it, building no element of it.
(() => {
  const root = document.querySelector("[data-club-editor]");
  if (!root) return;
  const spec = JSON.parse(document.getElementById("club-editor-data").textContent);
  const inGame = Boolean(root.dataset.gameId);
  const form = root.querySelector("[data-club-form]");
  const message = root.querySelector("[data-club-message]");
  const keyInput = root.querySelector("[data-organiser-key]");
  const startForm = document.querySelector("[data-start-form]");
  let scenarioId = root.dataset.scenarioId || "";
  let version = Number(root.dataset.gameVersion || 0);

  const tell = (text, good = false) => {
    message.textContent = text;
    message.classList.toggle("good", good); // said beside the Save button (role=status), nothing drawn over the form
  };
  const headers = () => {
    const out = { "Content-Type": "application/json", "X-CSRFToken": document.querySelector('meta[name="csrf-token"]')?.content || "" };
    if (keyInput && keyInput.value) out[root.dataset.organiserHeader] = keyInput.value;
    return out;
  };
  const call = async (url, method, body) => {
    try {
      const r = await fetch(url, { method, credentials: "same-origin", headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
      return { ok: r.ok, status: r.status, data: await r.json().catch(() => null), retryAfter: r.headers.get("Retry-After") };
    } catch (err) {
      return { ok: false, status: 0, data: null };
    }
  };
  // The server's refusal: one sentence, naming the field it refuses.
  const refusal = (r, doing) => {
    const body = r.data || {};
    if (r.status === 401) return `Not ${doing}: this server takes scenarios from its organiser only; enter the organiser key.`;
    if (typeof body.detail === "string" && r.status >= 400 && r.status < 500) {
      const field = body.field ? `${body.field}: ` : "";
      return `Not ${doing}: ${field}${body.detail.charAt(0).toLowerCase()}${body.detail.slice(1)}`;
    }
    if (window.firestepExplain && r.status) return window.firestepExplain(r.status, body, r.retryAfter);
    return `Not ${doing}: the server could not be reached; check the connection.`;
  };

  // A counter the game refused: the server's own sentence with its rule, after the counter's name, and the row
  // marked and focused so the one to fix is in view.
  const counterRefused = (row, r, name) => {
    const detail = r.data && typeof r.data.detail === "string" && r.status >= 400 && r.status < 500 ? r.data.detail : "";
    tell(detail ? `${name}: ${detail}` : refusal(r, `saved (${name})`));
    row.dataset.refused = "true";
    row.querySelector("[data-counter-name]").focus();
  };

  // -- the club's data ---------------------------------------------------------------------------------------
  const words = (text) => String(text || "").split(/[\s,;]+/).filter(Boolean);
  const fieldNode = (name) => form.querySelector(`[data-club-field="${name}"]`);
  // What the form says of each field, as the document's `board` keeps it; a field left empty is left out.
  const clubValues = () => {
    const out = {};
    for (const f of spec.fields) {
      const node = fieldNode(f.name);
      if (!node) continue;
      if (f.kind === "places") {
        const v = words(node.value);
        if (v.length) out[f.name] = v;
      } else if (f.kind === "pairs") {
        const v = words(node.value).map((p) => p.split(/[-/]/));
        if (v.length) out[f.name] = v;
      } else if (f.kind === "places_by_kind") {
        const by = {};
        for (const input of node.querySelectorAll("[data-club-kind]")) {
          for (const place of words(input.value)) (by[place] = by[place] || []).push(input.dataset.clubKind);
        }
        if (Object.keys(by).length) out[f.name] = by;
      } else if (f.kind === "sequence") {
        const v = [...node.querySelectorAll("[data-club-index]")].map((s) => s.value);
        if (v.some(Boolean)) out[f.name] = v;
      } else if (f.kind === "rows") {
        const rows = Array.from({ length: f.length }, () => Array(f.columns.length).fill(null));
        let any = false;
        for (const input of node.querySelectorAll("[data-club-index]")) {
          if (input.value === "") continue;
          any = true;
          rows[Number(input.dataset.clubIndex)][Number(input.dataset.clubColumn)] = Number(input.value);
        }
        if (any) out[f.name] = rows;
      } else if (f.kind === "number" && node.value !== "") out[f.name] = Number(node.value);
    }
    return out;
  };
  // A box of places grows with what is typed in it (up to its CSS max-height), so the list reads whole.
  const fit = (box) => { box.style.height = "auto"; box.style.height = `${box.scrollHeight + 4}px`; };
  form.addEventListener("input", (e) => { if (e.target.matches("textarea.club-places")) fit(e.target); });
  window.addEventListener("resize", () => form.querySelectorAll("textarea.club-places").forEach(fit)); // rewrapped
  // -- the order of battle -----------------------------------------------------------------------------------
  const sideBox = (side) => root.querySelector(`[data-club-side="${side}"] [data-club-counters]`);
  let made = root.querySelectorAll("[data-club-counter]").length; // rows on the page: a new one's ids follow
  const rowValues = (row) => {
    const state = {};
    for (const input of row.querySelectorAll("[data-counter-field]")) {
      if (input.value.trim() === "") continue;
      state[input.dataset.counterField] = input.dataset.edit === "number" ? Number(input.value) : input.value.trim();
    }
    return { name: row.querySelector("[data-counter-name]").value.trim(), state };
  };
  // A new counter starts as the side's last one (its division and values): only its name is new.
  const addCounter = (side) => {
    const box = sideBox(side);
    const last = box.lastElementChild;
    made += 1;
    box.insertAdjacentHTML("beforeend", root.querySelector(`[data-club-blank="${side}"]`).innerHTML.replaceAll("__N__", String(made)));
    const row = box.lastElementChild;
    const state = last ? rowValues(last).state : {};
    row.querySelectorAll("[data-counter-field]").forEach((input) => { input.value = String(state[input.dataset.counterField] ?? ""); });
    row.querySelector("[data-counter-name]").focus();
  };
  const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "scenario";
  const forces = (side) => [...sideBox(side).children].map((row, i) => {
    const { name, state } = rowValues(row);
    return { id: `${side}-${i + 1}`, name: name || `${i + 1}`, level: spec.level, kind: spec.level, state };
  });
  const documentOf = () => ({
    format: "firestep-scenario/1",
    ...(scenarioId && !root.hasAttribute("data-shipped") ? { id: scenarioId } : {}),
    title: (form.querySelector("[data-club-title]").value || "").trim(),
    ruleset: spec.ruleset,
    period: null,
    table: { width_cm: spec.table.width_cm, length_cm: spec.table.length_cm },
    board: clubValues(),
    sides: Object.fromEntries(spec.sides.map((s) => [s.side, { nationality: s.nation, forces: forces(s.side) }])),
  });
  const unnamed = () => [...root.querySelectorAll("[data-counter-name]")].find((i) => !i.value.trim());

  // -- saving ------------------------------------------------------------------------------------------------
  const saveScenario = async () => {
    const doc = documentOf();
    if (!doc.title) { tell("Not saved: give the scenario a title."); form.querySelector("[data-club-title]").focus(); return; }
    if (unnamed()) { tell("Not saved: give every counter its name."); unnamed().focus(); return; }
    const r = scenarioId && !root.hasAttribute("data-shipped")
      ? await call(`/api/v1/scenarios/${encodeURIComponent(scenarioId)}`, "PUT", doc)
      : await call("/api/v1/scenarios", "POST", doc);
    if (!r.ok) { tell(refusal(r, "saved")); return; }
    scenarioId = r.data.id;
    root.dataset.scenarioId = scenarioId;
    root.removeAttribute("data-shipped");
    root.querySelector("[data-saved-as]").textContent = `Saved as “${r.data.title}” (${scenarioId}).`;
    if (startForm) {
      startForm.querySelector("[data-start-scenario]").value = scenarioId;
      startForm.querySelector("[data-start]").disabled = false;
    }
    tell("Saved: start a game from it here or on the start page.", true);
  };
  const saveGame = async () => {
    if (unnamed()) { tell("Not saved: give every counter its name."); unnamed().focus(); return; }
    const api = `/api/v1/games/${root.dataset.gameId}`;
    const r = await call(api, "PATCH", { version, club: clubValues() });
    if (!r.ok) { tell(refusal(r, "saved")); return; }
    version = r.data.version;
    for (const row of root.querySelectorAll("[data-club-counter]")) {
      const { name, state } = rowValues(row);
      const said = JSON.stringify({ name, state });
      if (row.dataset.saved === said) continue; // as read: nothing to write
      // A new counter is added with its values in one request, checked at the door (a refused one leaves
      // nothing behind); one read from the game is saved over the version it was read at.
      const r = row.dataset.unitId
        ? await call(`${api}/units/${row.dataset.unitId}`, "PUT", { version: Number(row.dataset.version), name, ...state })
        : await call(`${api}/units`, "POST", { side: row.dataset.clubCounter, name, level: spec.level, state });
      if (!r.ok) { counterRefused(row, r, name); return; }
      row.dataset.unitId = String(r.data.unit.id);
      row.dataset.version = String(r.data.unit.version);
      row.dataset.saved = said;
      delete row.dataset.refused;
      row.querySelector("[data-club-remove]")?.remove();
    }
    tell("Saved to the game.", true);
  };
  const exportFile = () => {
    const doc = documentOf();
    const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
    const a = Object.assign(document.createElement("a"), { href: url, download: `${slug(doc.title)}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  };

  root.addEventListener("click", (e) => {
    const add = e.target.closest("[data-club-add]");
    if (add) { addCounter(add.dataset.clubAdd); return; }
    const remove = e.target.closest("[data-club-remove]");
    if (remove) { remove.closest("[data-club-counter]").remove(); return; }
    if (e.target.closest("[data-club-save]")) { (inGame ? saveGame : saveScenario)(); return; }
    if (e.target.closest("[data-club-export]")) exportFile();
  });
  // A file the club shares: stored as a new scenario (checked at the door, its refusal said), then edited here.
  const importer = root.querySelector("[data-club-import]");
  if (importer) importer.addEventListener("change", async () => {
    const file = importer.files && importer.files[0];
    importer.value = "";
    if (!file) return;
    let doc;
    try { doc = JSON.parse(await file.text()); } catch (err) { tell("Not imported: the file is not a scenario file (JSON)."); return; }
    const r = await call("/api/v1/scenarios", "POST", doc);
    if (!r.ok) { tell(refusal(r, "imported")); return; }
    window.location.assign(`/scenarios/${encodeURIComponent(r.data.id)}/edit`);
  });
  form.addEventListener("submit", (e) => e.preventDefault());
  if (startForm && keyInput) startForm.addEventListener("submit", () => { startForm.querySelector("[data-start-key]").value = keyInput.value; });

  // -- what the page opens with: a game's counters as read (nothing to write until one changes) --------------
  form.querySelectorAll("textarea.club-places").forEach(fit);
  root.querySelectorAll("[data-club-counter][data-unit-id]").forEach((row) => { row.dataset.saved = JSON.stringify(rowValues(row)); });
  root.dataset.loaded = "true";
})();
