// Share a result where the device offers it (Web Share: a tablet's share sheet): the [data-share] buttons
// stay hidden where navigator.share is missing (it needs a secure context), in htmx's swaps too.
(() => {
  const can = typeof navigator.share === "function";
  const reveal = () => {
    if (!can) return;
    for (const b of document.querySelectorAll("[data-share][hidden]")) b.hidden = false;
  };
  document.addEventListener("click", async (event) => {
    const button = event.target.closest?.("[data-share]");
    if (!button || !can) return;
    try {
      await navigator.share({ title: button.dataset.shareTitle, text: button.dataset.shareText });
    } catch (err) {
      // Closing the share sheet is no failure; anything else is said plainly.
      if (err && err.name !== "AbortError" && window.firestepNotice) window.firestepNotice("This device could not share the result.");
    }
  });
  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);
})();
