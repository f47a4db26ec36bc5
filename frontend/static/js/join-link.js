// A join card's link carries its code in the fragment (#code=...), which no request sends: put it in the join
// form, hide the field it fills (one tap joins), and drop the fragment from the address bar and history.
(() => {
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  const input = document.getElementById("join-code");
  if (!code || !input) return;
  input.value = code;
  document.querySelector("[data-code-row]").style.display = "none";
  history.replaceState(null, "", location.pathname + location.search);
})();
