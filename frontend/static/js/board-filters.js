// What the referee board shows: filters by state (the rule set's markers, killed, each of its flags with a
// badge: any of those pressed) and by one battalion; blocks collapsed by hand; the referee's "override rules"
// switch, which shows the marker buttons the current step refuses. Bound to [data-board-filters] (its value
// names the game, so each game keeps its own choices for this browser tab); re-applied after every live
// update of the board ("firestep:board-updated").
(() => {
  const bar = document.querySelector("[data-board-filters]");
  if (!bar) return;
  const page = bar.closest(".referee-page") || document.body;
  const key = `firestep:board:${bar.dataset.boardFilters}`;
  const saved = (() => {
    try { return JSON.parse(sessionStorage.getItem(key) || "{}"); } catch (err) { return {}; }
  })();
  const state = {
    // Only the filters this board has (a filter saved by an older page, or another rule set's, is dropped).
    filters: new Set((saved.filters || []).filter((f) => bar.querySelector(`[data-filter="${CSS.escape(String(f))}"]`))),
    block: saved.block || "",
    collapsed: new Set(saved.collapsed || []),
    override: false,
  };
  const save = () => {
    try {
      sessionStorage.setItem(key, JSON.stringify({
        filters: [...state.filters], block: state.block, collapsed: [...state.collapsed],
      }));
    } catch (err) { /* private mode: the choices last as long as the page */ }
  };
  // "marked": the rule set's markers; "killed"; "flag-<name>": a rule set's flag, set on the stand, on the
  // unit its row is headed by (a company under fire shows its platoons) or on the unit its block is headed by
  // (a battalion's morale test due shows its whole block).
  const shows = (filter, li, heads) => {
    if (filter === "marked") return li.hasAttribute("data-sup");
    if (filter === "killed") return li.hasAttribute("data-killed");
    const attr = `data-${filter}`;
    return li.hasAttribute(attr) || heads.some((h) => h && h.hasAttribute(attr));
  };

  const apply = () => {
    const board = document.getElementById("board");
    if (!board) return;
    const states = [...state.filters];
    let any = false;
    for (const side of board.querySelectorAll("section.side")) {
      let sideShown = false;
      for (const block of side.querySelectorAll("details.block")) {
        const head = block.querySelector(".block-head");
        const blockOk = !state.block || block.dataset.block === state.block;
        let blockShown = false;
        for (const row of block.querySelectorAll("li.row")) {
          let rowShown = false;
          const heads = [head, row.querySelector(".row-name")];
          for (const li of row.querySelectorAll("li.stand")) {
            const shown = blockOk && (!states.length || states.some((s) => shows(s, li, heads)));
            if (li.hidden === shown) li.hidden = !shown;
            rowShown = rowShown || shown;
          }
          if (row.hidden === rowShown) row.hidden = !rowShown;
          blockShown = blockShown || rowShown;
        }
        if (block.hidden === blockShown) block.hidden = !blockShown;
        const open = !state.collapsed.has(block.dataset.block);
        if (block.open !== open) block.open = open;
        sideShown = sideShown || blockShown;
      }
      if (side.hidden === sideShown) side.hidden = !sideShown;
      any = any || sideShown;
    }
    const empty = board.querySelector(".filter-empty");
    if (empty) empty.hidden = any;
    for (const b of bar.querySelectorAll("[data-filter]")) b.setAttribute("aria-pressed", String(state.filters.has(b.dataset.filter)));
    const pick = bar.querySelector("[data-filter-block]");
    if (pick) pick.value = state.block;
    page.classList.toggle("override-on", state.override);
  };

  bar.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-filter]");
    if (chip) {
      const f = chip.dataset.filter;
      if (state.filters.has(f)) state.filters.delete(f); else state.filters.add(f);
    } else if (event.target.closest("[data-collapse-all]")) {
      for (const b of document.querySelectorAll("#board details.block")) state.collapsed.add(b.dataset.block);
    } else if (event.target.closest("[data-expand-all]")) {
      state.collapsed.clear();
    } else if (event.target.closest("[data-override-toggle]")) {
      state.override = !state.override;
      event.target.closest("[data-override-toggle]").setAttribute("aria-pressed", String(state.override));
    } else return;
    save();
    apply();
  });
  bar.addEventListener("change", (event) => {
    if (!event.target.matches("[data-filter-block]")) return;
    state.block = event.target.value;
    save();
    apply();
  });
  // A block opened or closed by its own head.
  document.addEventListener("toggle", (event) => {
    const block = event.target;
    if (!(block instanceof HTMLDetailsElement) || !block.matches("#board details.block")) return;
    if (block.open) state.collapsed.delete(block.dataset.block); else state.collapsed.add(block.dataset.block);
    save();
  }, true);
  document.addEventListener("firestep:board-updated", apply);
  apply();
})();
