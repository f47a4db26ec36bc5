// The scenario editor of a game on a board of counters: the form is the server's (app/pages/club_form.py,
// club_save.py). What needs the browser: a counter added as a copy of its side's blank row, a new one
// removed, and a refusal (a 4xx naming its field) shown in place.
(() => {
  const root = document.querySelector("[data-club-editor]");
  if (!root) return;
  let made = root.querySelectorAll("[data-club-counter]").length; // rows on the page: a new one's ids follow

  // A new counter starts as the side's last one (its division and values): only its name is new.
  const addCounter = (side) => {
    const box = root.querySelector(`[data-club-side="${side}"] [data-club-counters]`);
    const last = box.lastElementChild;
    made += 1;
    const blank = root.querySelector(`[data-club-blank="${side}"]`).innerHTML.replaceAll("__N__", String(made));
    box.insertAdjacentHTML("beforeend", blank);
    const row = box.lastElementChild;
    for (const input of row.querySelectorAll("[data-counter-field]")) {
      const was = last && last.querySelector(`[data-counter-field="${input.dataset.counterField}"]`);
      input.value = was ? was.value : "";
    }
    row.querySelector("[data-counter-name]").focus();
  };
  root.addEventListener("click", (e) => {
    const add = e.target.closest("[data-club-add]");
    if (add) addCounter(add.dataset.clubAdd);
    const remove = e.target.closest("[data-club-remove]");
    if (remove) remove.closest("[data-club-counter]").remove();
  });

  // A refusal said where the Save button's message is (dom.js): the input it names (a counter's name, the
  // title) focused so the one to fix is in view.
  document.body.addEventListener("htmx:afterSwap", () => {
    const named = root.querySelector("[data-club-message] [data-focus]");
    if (named) document.getElementById(named.dataset.focus)?.focus();
  });
  root.dataset.loaded = "true";
})();
