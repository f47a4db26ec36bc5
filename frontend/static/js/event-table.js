// A seat's event table page is read anew when its game ends or its result changes (the stream's `aside`: the
// other player confirms or disputes, the organiser sets it), so no tap is needed; not over a reason typed.
(() => {
  const page = document.querySelector("[data-table-result]");
  const reload = () => { if (page && !document.getElementById("why")?.value) window.location.reload(); };
  document.addEventListener("firestep:event", (ev) => { if (ev.detail?.kind === "game-finished") reload(); });
  document.addEventListener("firestep:aside", ({ detail: { round: r } = {} }) => {
    if (r?.result && `${r.result} ${r.confirmed}` !== page?.dataset.tableResult) reload();
  });
})();
