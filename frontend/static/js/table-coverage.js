// Each template's coverage, the server's (app/pages/template_coverage.py), read as the map changes: stands
// covered marked, the selected template's block on its card, and one tap marking each fully covered stand,
// what it did said by the page's one notice (the panel's read after each marker leaves it be).
(() => {
  const m = window.firestepMap;
  const list = document.querySelector("[data-coverage-list]");
  if (!m || !list) return;
  const url = `/games/${m.root.dataset.game}/map/coverage`;
  let [seq, timer, none] = [0, null, false]; // none: the last read had no template (nor has the table now)

  const blockOf = (id) => list.querySelector(`[data-coverage-template="${id}"]`);
  // The selected template's card shows its block.
  const showSelected = () => {
    const id = m.selectedTemplate();
    const here = document.querySelector(`[data-template-coverage="${id}"]`);
    const block = blockOf(id);
    if (!here || !block) return;
    const copy = block.cloneNode(true);
    copy.removeAttribute("data-coverage-template"); // its heading hidden on the card (map.css)
    here.replaceChildren(copy);
  };
  const update = async () => {
    if (none && !m.model.templates.size) return; // nothing laid covers anything: no read (a stand's move)
    const mine = ++seq;
    const part = await window.firestepDom.read(url);
    if (mine !== seq) return; // a newer change is being worked out
    if (!part) { m.notice("What a template covers could not be worked out; check the connection."); return; }
    list.replaceChildren(part);
    none = !m.model.templates.size;
    showSelected();
    m.setCover(Object.entries(JSON.parse(part.dataset.cover)).map(([id, cls]) => [Number(id), cls]));
  };
  const schedule = () => { clearTimeout(timer); timer = setTimeout(update, 80); };
  window.addEventListener("firestep:map-changed", schedule);
  window.addEventListener("firestep:template-selected", showSelected);

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-apply-coverage]");
    if (!button) return;
    button.disabled = true;
    let count = 0;
    const refused = [];
    // One marker per stand, one request each: the markers API applies the rules of play to every one.
    for (const unit of button.dataset.units.split(",").map(Number)) {
      const result = await m.send(`${m.api}/units/${unit}/markers`, { body: { delta: 1 } });
      const u = m.model.units.get(unit);
      if (m.failed(result)) refused.push(`${u ? m.nameOf(u).short : `unit ${unit}`}: ${m.refusal(result, "not saved")}`);
      else count += 1;
    }
    const text = `Marker added to ${count} stand${count === 1 ? "" : "s"}.${refused.length ? ` Not added: ${refused.join("; ")}` : ""}`;
    m.notice(text, false, refused.length ? {} : { tone: "info" });
    button.disabled = false;
  });
  schedule();
})();
