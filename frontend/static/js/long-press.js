// Long-press (600 ms) on an element with data-long-press="<button id>" clicks that button: a marker chip
// removes itself this way, with the visible "−" button as the second, accessible control.
(() => {
  let timer = null;
  const cancel = () => { clearTimeout(timer); timer = null; };
  document.addEventListener("pointerdown", (event) => {
    const chip = event.target.closest("[data-long-press]");
    if (!chip) return;
    cancel();
    timer = setTimeout(() => {
      timer = null;
      const target = document.getElementById(chip.dataset.longPress);
      if (target) target.click();
    }, 600);
  });
  ["pointerup", "pointerleave", "pointercancel", "scroll"].forEach((t) => document.addEventListener(t, cancel, true));
  document.addEventListener("contextmenu", (event) => {
    if (event.target.closest("[data-long-press]")) event.preventDefault();
  });
})();
