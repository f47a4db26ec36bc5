// A draft pairing edited by hand: tap a player then another (the bye's too) to swap them, or a table then
// another to swap their pairs. The second tap sends the form (with the event's version it was read at): the
// page comes back with the draft as edited and what it breaks.
(() => {
  const form = document.querySelector("[data-draft-swap]");
  if (!form) return;
  const note = form.querySelector("[data-swap-note]");
  let picked = null;
  const say = (text) => { if (note) note.textContent = text; };
  form.querySelectorAll("[data-swap]").forEach((button) => {
    button.addEventListener("click", () => {
      if (picked === button) {
        button.setAttribute("aria-pressed", "false");
        picked = null;
        say("");
        return;
      }
      if (!picked || picked.dataset.swap !== button.dataset.swap) {
        if (picked) picked.setAttribute("aria-pressed", "false");
        picked = button;
        button.setAttribute("aria-pressed", "true");
        say(button.dataset.swap === "tables" ? "Now tap the table to swap it with." : "Now tap the player to swap with.");
        return;
      }
      button.setAttribute("aria-pressed", "true");
      form.elements.swap.value = button.dataset.swap;
      form.elements.first.value = picked.dataset.swapId;
      form.elements.second.value = button.dataset.swapId;
      say("Swapping…");
      form.querySelectorAll("[data-swap]").forEach((b) => { b.disabled = true; });
      form.submit();
    });
  });
})();
