// The round timer of an event: every [data-round-ends="<ISO time>"] counts down to the round's end, .over
// once passed, "stopped" while the organiser has it stopped (an empty value). It moves live: a table game's
// pages hear it on the game's stream (firestep:aside: null once stopped or over), the organiser's on its own.
(() => {
  const pad = (n) => String(n).padStart(2, "0");
  const show = (el) => {
    if (!el.dataset.roundEnds) { el.textContent = "stopped"; el.classList.remove("over"); return; }
    const left = Math.round((Date.parse(el.dataset.roundEnds) - Date.now()) / 1000);
    const s = Math.abs(left);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    el.textContent = (left < 0 ? "−" : "") + (h ? `${h}:${pad(m)}` : `${m}`) + `:${pad(s % 60)}`;
    el.classList.toggle("over", left < 0);
  };
  const tick = () => document.querySelectorAll("[data-round-ends]").forEach(show);
  document.addEventListener("firestep:aside", (ev) => {
    const round = ev.detail && ev.detail.round;
    if (!round) return;
    document.querySelectorAll("[data-round-ends]").forEach((el) => { el.dataset.roundEnds = round.ends_at || ""; });
    tick();
  });
  document.addEventListener("firestep:board", tick); // the organiser's view swapped its round's end in
  tick();
  setInterval(tick, 1000);
})();
