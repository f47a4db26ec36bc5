// The scenario editor's file: read a stored scenario in, Save it (POST new, PUT stored), Import a file (one
// saved here already offers to replace it or keep both), Start a game; Export and Print are its links.
// `S.file` (the API call, a refusal in one sentence, the panel's message) serves the game's table too.
(() => {
  const S = window.firestepScenario;
  if (!S) return;
  const { root, say } = S;
  const message = root.querySelector("[data-file-message]");
  const keyInput = root.querySelector("[data-organiser-key]");
  const headers = () => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
    const key = keyInput && keyInput.value ? { [root.dataset.organiserHeader]: keyInput.value } : {};
    return { "Content-Type": "application/json", "X-CSRFToken": csrf, ...key };
  };
  const call = async (url, method, body) => {
    const init = { method, headers: headers(), body: body && JSON.stringify(body) };
    const answer = await fetch(url, init).catch(() => null);
    if (!answer) return { ok: false, status: 0, data: null };
    const data = await answer.json().catch(() => null);
    return { ok: answer.ok, status: answer.status, data, retryAfter: answer.headers.get("Retry-After") };
  };
  // After `lead` ("Not saved"), the API's sentence for whoever edits (`detail`, not the players' `said`: "at
  // most 200 scenarios: delete one" matters here); a 422 names the field in the document and what it allows.
  const refusal = (result, lead) => {
    const { status } = result;
    const body = result.data || {};
    if (keyInput && status === 401) return `${lead}: this server takes scenarios from its organiser only; enter the organiser key above.`;
    if (keyInput && status === 403 && !String(body.why).includes("ships with")) return `${lead}: that is not the organiser key; check it with the organiser.`;
    if (typeof body.detail !== "string" || status < 400 || status >= 500) return window.firestepExplain(status, body, result.retryAfter);
    const clause = `${body.detail.charAt(0).toLowerCase()}${body.detail.slice(1)}`;
    if (status !== 422) return `${lead}: ${clause}`;
    const allowed = Array.isArray(body.allowed) && body.allowed.length ? ` (allowed: ${body.allowed.slice(0, 12).join(", ")}${body.allowed.length > 12 ? ", …" : ""})` : "";
    return `${lead}: ${body.field ? `${body.field}: ` : ""}${clause}${allowed}`;
  };
  const tell = (text, good = false) => {
    message.textContent = text;
    message.classList.toggle("good", good);
    say(text, good);
  };
  S.file = { call, refusal, tell };
  if (root.dataset.gameId) return; // a game's table is saved to the game (scenario-game-table.js)
  const API = "/api/v1/scenarios";
  const savedAs = root.querySelector("[data-saved-as]");
  const startForm = root.querySelector("[data-start-form]");
  const choice = root.querySelector("[data-import-choice]");
  let id = root.dataset.scenarioId || "";
  let pending = null; // a file whose id is saved here already, until its user chooses

  // The forces panel is the server's (app/pages/scenario_forces.py): drawn again, its adds posted, as the
  // scenario's read in or saved anew (its draft, or as saved).
  const forcesOf = (scenario) => {
    const url = `/scenarios/${encodeURIComponent(scenario)}/edit/forces`;
    root.querySelectorAll("[data-add-formation]").forEach((b) => { b.setAttribute("hx-post", url); htmx.process(b); });
    if (root.querySelector("#scn-formations")) htmx.ajax("GET", url, { target: "#scn-formations", swap: "outerHTML" });
  };
  const saved = (doc) => {
    id = doc.id;
    root.dataset.scenarioId = id;
    savedAs.textContent = `Saved as “${doc.title || id}” (${id}).`;
    startForm.querySelector("[data-start-scenario]").value = id;
    startForm.querySelector("[data-start]").disabled = false;
    const at = `${API}/${encodeURIComponent(id)}`;
    Object.assign(root.querySelector("[data-export]"), { href: at, download: `${id}.json` });
    const sheet = root.querySelector("[data-print-sheet]");
    sheet.href = `${at}/sheet${sheet.dataset.printSheet === "view" ? "" : ".pdf"}`;
    // Saved, it is no draft: the next new scenario starts empty.
    const discard = { method: "POST", credentials: "same-origin", headers: { ...headers(), "HX-Request": "true" } };
    if (location.pathname === "/scenarios/new") fetch(`/scenarios/new/${encodeURIComponent(S.data.ruleset)}/discard`, discard).catch(() => {});
    if (location.pathname !== `/scenarios/${id}/edit`) { forcesOf(id); history.replaceState(null, "", `/scenarios/${id}/edit`); }
    delete root.dataset.dirty;
  };

  const save = async () => {
    const doc = JSON.parse(JSON.stringify(S.current()));
    if (!doc.title) { tell("Give the scenario a title first (under Scenario)."); return false; }
    if (id) doc.id = id; else delete doc.id;
    const result = await call(id ? `${API}/${encodeURIComponent(id)}` : API, id ? "PUT" : "POST", doc);
    if (!result.ok) { tell(refusal(result, "Not saved")); return false; }
    saved(result.data);
    tell(`Saved: ${result.data.title}.`, true);
    return true;
  };
  // Export is a link to the saved document (its download named after the id): only what is saved is a file.
  const exportFile = (e) => {
    if (id && !root.dataset.dirty) { tell(`Exported ${id}.json.`, true); return; }
    e.preventDefault();
    tell("Save the scenario first: the file is the saved scenario.");
  };
  const imported = (result, name) => {
    // Another rule set's file is edited on its own rule set's page (its terrain, forces and bases).
    if (result.data.ruleset !== S.data.ruleset) { location.assign(`/scenarios/${encodeURIComponent(result.data.id)}/edit`); return; }
    S.load(result.data);
    // Replaced where it is open: `saved` draws the forces again only for another address.
    if (location.pathname === `/scenarios/${result.data.id}/edit`) forcesOf(result.data.id);
    saved(result.data);
    tell(`Imported ${name} as “${result.data.title}” (${result.data.id}).`, true);
  };
  const importFile = async (file) => {
    let doc;
    try { doc = JSON.parse(await file.text()); } catch (err) { tell(`Not imported: ${file.name} is not a JSON file.`); return; }
    choice.hidden = true;
    const result = await call(API, "POST", doc);
    const held = result.status === 409 && result.data && result.data.current;
    if (held && held.id) {
      // Saved here already (often the very file exported from here): replace it, or keep both.
      pending = { doc, name: file.name, held };
      choice.querySelector("[data-import-choice-text]").textContent = held.shipped
        ? `“${held.title}” (${held.id}) ships with firestep: keep both, and this file is saved as a copy with a new id.`
        : `“${held.title}” (${held.id}) is saved here already: replace the saved one with ${file.name}, or keep both (the file saved as a copy with a new id).`;
      choice.querySelector("[data-import-replace]").hidden = held.shipped;
      choice.hidden = false;
      tell(`${file.name}: a scenario with its id is saved here already. Replace the saved one, or keep both?`);
      return;
    }
    if (!result.ok) { tell(refusal(result, "Not imported")); return; }
    imported(result, file.name);
  };
  const settle = async (keepBoth) => {
    if (!pending) return;
    const { doc, name, held } = pending;
    const copy = { ...doc };
    delete copy.id; // kept beside the saved one: the server gives it a new id from its title
    const result = keepBoth ? await call(API, "POST", copy) : await call(`${API}/${encodeURIComponent(held.id)}`, "PUT", doc);
    if (!result.ok) { tell(refusal(result, keepBoth ? "Not imported" : "Not replaced")); return; }
    pending = null;
    choice.hidden = true;
    imported(result, name);
  };
  // Print is a link to the sheet of what is saved (its PDF, or without the server's PDF engine its print
  // view): unsaved changes are saved first, as Start does, then the sheet opens as the link would.
  const printSheet = async (e, link) => {
    const say = () => tell("The sheet opens in a new tab: print it from there.", true);
    if (id && !root.dataset.dirty) { say(); return; }
    e.preventDefault();
    if (await save()) { window.open(link.href, "_blank"); say(); }
  };
  root.addEventListener("click", async (e) => {
    if (e.target.closest("[data-save]")) { await save(); return; }
    if (e.target.closest("[data-export]")) { exportFile(e); return; }
    const sheet = e.target.closest("[data-print-sheet]");
    if (sheet) { await printSheet(e, sheet); return; }
    if (e.target.closest("[data-import-keep]")) { await settle(true); return; }
    if (e.target.closest("[data-import-replace]")) await settle(false);
  });
  root.querySelector("[data-import]").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (file) await importFile(file);
  });
  // Start from what is saved: unsaved changes are saved first, so the game is what the editor shows.
  startForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    if ((!id || root.dataset.dirty) && !(await save())) return;
    startForm.querySelector("[data-start-key]").value = keyInput ? keyInput.value : "";
    startForm.submit();
  });

  if (id) {
    call(`${API}/${encodeURIComponent(id)}`, "GET").then((result) => {
      if (!result.ok) { tell(result.status === 404 ? `There is no scenario ${id}: this page starts a new one.` : refusal(result, "Not read")); id = ""; return; }
      S.load(result.data);
      forcesOf(result.data.id); // this browser's draft of its forces, if it has one
      if (root.hasAttribute("data-shipped")) {
        // A scenario that ships with firestep is not replaced: saving makes the club's own copy.
        id = "";
        savedAs.textContent = `${result.data.title} ships with firestep: Save makes your own copy.`;
      } else {
        saved(result.data);
      }
      root.dataset.loadedScenario = result.data.id;
    });
  }
})();
