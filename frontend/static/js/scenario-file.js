// The scenario editor's Save panel: Save, Import (one saved here already: replace it or keep both) and Start
// are the server's, on this browser's draft; Export and Print are links to what is saved.
// `S.file` (the API call, a refusal in one sentence, the panel's message) serves the game's table.
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
  // Save, Import and Start are the server's, on this browser's draft (app.pages.scenario_saving): its refusal
  // (a 4xx naming the field) is said in the panel as its answer, and a file chosen may be chosen again.
  document.body.addEventListener("htmx:beforeSwap", ({ detail: d }) => {
    if (d.target === message && d.xhr.status < 500) Object.assign(d, { shouldSwap: true, isError: false });
  });
  document.body.addEventListener("htmx:afterSwap", (e) => { if (e.detail.target === message) say(message.textContent, false); });
  root.querySelector("[data-import]").addEventListener("htmx:afterRequest", (e) => { e.target.value = ""; });
  // Export and Print are links to what is saved: with changes unsaved, Save comes first.
  root.addEventListener("click", (e) => {
    const link = e.target.closest("[data-export], [data-print-sheet]");
    if (!link) return;
    if (!root.dataset.scenarioId || root.hasAttribute("data-shipped") || root.dataset.dirty) {
      e.preventDefault();
      tell(`Save the scenario first: the ${link.matches("[data-export]") ? "file" : "sheet"} is the saved scenario.`);
    } else tell(link.matches("[data-export]") ? `Exported ${root.dataset.scenarioId}.json.` : "The sheet opens in a new tab: print it from there.", true);
  });
  const start = root.querySelector("[data-start-form]");
  start.addEventListener("submit", () => { start.querySelector("[data-start-key]").value = keyInput?.value || ""; });
})();
