// The round timer of an event (issue 57): every [data-round-ends="<ISO time>"] counts down to the round's end
// as mm:ss (h:mm:ss over an hour), marked .over once it has passed. The time comes with the page; the
// organiser's live view (event-board.js) moves it when the organiser does.
(() => {
  const pad = (n) => String(n).padStart(2, "0");
  const show = (el) => {
    const left = Math.round((Date.parse(el.dataset.roundEnds) - Date.now()) / 1000);
    const s = Math.abs(left);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    el.textContent = (left < 0 ? "−" : "") + (h ? `${h}:${pad(m)}` : `${m}`) + `:${pad(s % 60)}`;
    el.classList.toggle("over", left < 0);
  };
  const tick = () => document.querySelectorAll("[data-round-ends]").forEach(show);
  tick();
  setInterval(tick, 1000);
})();
