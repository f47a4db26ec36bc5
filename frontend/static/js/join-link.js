// A join card's link (or an organiser's token's, to the start page) has its code in the fragment, which no
// request sends: put it in the join form, hide the code's row where there is one, and drop the fragment.
(() => {
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  const input = document.getElementById("join-code");
  if (!code || !input) return;
  input.value = code;
  document.querySelector("[data-code-row]")?.style.setProperty("display", "none");
  history.replaceState(null, "", location.pathname + location.search);
})();
