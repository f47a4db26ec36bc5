// "Check it now" in a [data-verify] section: ask the verify endpoint to rebuild the commitment from the
// revealed plan and say, in plain words, whether it matches the one published at locking.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-verify-run]");
  if (!button) return;
  const section = button.closest("[data-verify]");
  const out = section.querySelector("[data-verify-result]");
  button.disabled = true;
  out.textContent = "Checking…";
  out.className = "fp-verdict";
  try {
    const response = await fetch(section.dataset.verifyUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) {
      // A secret objective's section (_score_panel.html) says its own "not yet" (409: nothing revealed).
      out.textContent = response.status === 403 || response.status === 409
        ? section.dataset.verifyNotYet || "Not yet: the other side's plan can be checked once the game is over."
        : "The check could not be made just now. Try again in a moment.";
      out.classList.add("bad");
      return;
    }
    const body = await response.json();
    const items = body.items.length;
    if (body.verified) {
      out.textContent = `Match: ${items === 1 ? "the 1 item revealed gives" : items ? `the ${items} items revealed give` : "with no item (none was sealed) the seal gives"} exactly the commitment published ${section.dataset.verifyWhat ? "as the game started" : "at locking"} (${body.recomputed.slice(0, 12)}…). The ${section.dataset.verifyWhat || "plan"} ${section.dataset.verifyWhat ? "were" : "was"} not changed.`;
      out.classList.add("good");
    } else {
      out.textContent = `No match: the plan revealed gives ${String(body.recomputed).slice(0, 12)}…, not the commitment published (${String(body.commitment).slice(0, 12)}…). Tell the referee.`;
      out.classList.add("bad");
    }
  } catch (err) {
    out.textContent = "The check could not be made: no connection. Try again when you are back online.";
    out.classList.add("bad");
  } finally {
    button.disabled = false;
  }
});
