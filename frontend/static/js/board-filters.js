// The referee board's choices, kept per game for this tab (sessionStorage): the filters pressed, a battalion
// (its block data-picked) and the blocks closed by hand; "override rules" is not kept. What they hide is CSS
// (board.css, referee.html's rules for the rule set's flags), so a live swap of the board's pieces keeps it.
(() => {
  const bar = document.querySelector("[data-board-filters]");
  if (!bar) return;
  const page = bar.closest(".referee-page");
  const pick = bar.querySelector("[data-filter-block]");
  const key = `firestep:board:${bar.dataset.boardFilters}`;
  const saved = (() => {
    try { return JSON.parse(sessionStorage.getItem(key) || "{}"); } catch (err) { return {}; }
  })();
  // Only the filters this board has (a filter saved by an older page, or another rule set's, is dropped).
  const filters = new Set((saved.filters || []).filter((f) => bar.querySelector(`[data-filter="${CSS.escape(String(f))}"]`)));
  const collapsed = new Set(saved.collapsed || []);
  let block = saved.block || "";
  const save = () => {
    try {
      sessionStorage.setItem(key, JSON.stringify({ filters: [...filters], block, collapsed: [...collapsed] }));
    } catch (err) { /* private mode: the choices last as long as the page */ }
  };

  const apply = () => {
    if (filters.size) page.dataset.filters = [...filters].join(" "); else delete page.dataset.filters;
    if (block) page.dataset.block = block; else delete page.dataset.block;
    for (const b of document.querySelectorAll("#board details.block")) {
      b.toggleAttribute("data-picked", b.dataset.block === block);
      const open = !collapsed.has(b.dataset.block);
      if (b.open !== open) b.open = open;
    }
    for (const b of bar.querySelectorAll("[data-filter]")) b.setAttribute("aria-pressed", String(filters.has(b.dataset.filter)));
    pick.value = block;
  };

  bar.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-filter]");
    const override = event.target.closest("[data-override-toggle]");
    if (chip) {
      const f = chip.dataset.filter;
      if (filters.has(f)) filters.delete(f); else filters.add(f);
    } else if (event.target.closest("[data-collapse-all]")) {
      for (const b of document.querySelectorAll("#board details.block")) collapsed.add(b.dataset.block);
    } else if (event.target.closest("[data-expand-all]")) {
      collapsed.clear();
    } else if (override) {
      override.setAttribute("aria-pressed", String(override.getAttribute("aria-pressed") !== "true"));
      return;
    } else return;
    save();
    apply();
  });
  pick.addEventListener("change", () => {
    block = pick.value;
    save();
    apply();
  });
  document.addEventListener("toggle", (event) => {
    const b = event.target;
    if (!(b instanceof HTMLDetailsElement) || !b.matches("#board details.block")) return;
    if (b.open) collapsed.delete(b.dataset.block); else collapsed.add(b.dataset.block);
    save();
  }, true);
  document.addEventListener("firestep:board-updated", apply);
  apply();
})();
