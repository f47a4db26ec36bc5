// The round timer of an event: every [data-round-ends="<ISO time>"] counts down to the round's end, .over
// once passed, its [data-round-line] hidden while the timer is stopped (an empty value). It moves live: a
// table game's pages hear it on the game's stream (firestep:aside), the organiser's on its own.
(() => {
  const pad = (n) => String(n).padStart(2, "0");
  const show = (el) => {
    el.closest("[data-round-line], #ev-ends").hidden = !el.dataset.roundEnds;
    if (!el.dataset.roundEnds) return;
    const left = Math.round((Date.parse(el.dataset.roundEnds) - Date.now()) / 1000);
    const s = Math.abs(left), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    el.textContent = (left < 0 ? "−" : "") + (h ? `${h}:${pad(m)}` : `${m}`) + `:${pad(s % 60)}`;
    el.classList.toggle("over", left < 0);
  };
  const tick = () => document.querySelectorAll("[data-round-ends]").forEach(show);
  document.addEventListener("firestep:aside", ({ detail }) => {
    if (!detail?.round) return;
    document.querySelectorAll("[data-round-ends]").forEach((el) => { el.dataset.roundEnds = detail.round.ends_at || ""; });
    tick();
  });
  document.addEventListener("firestep:board", tick); // the organiser's view swapped its round's end in
  tick();
  setInterval(tick, 1000);
})();
