// Keep the screen on while a game page is open (Screen Wake Lock, in a secure context). [data-wake-lock] is
// the toggle, [data-wake-lock-status] says what holds; the choice is kept on this device, on by default. The
// browser lets the lock go when the page is hidden, so it is asked for again when the page is shown.
(() => {
  const button = document.querySelector("[data-wake-lock]");
  const status = document.querySelector("[data-wake-lock-status]");
  if (!button || !status) return;
  const PREF = "firestep-wake-lock";
  let sentinel = null;

  const wanted = () => {
    try { return localStorage.getItem(PREF) !== "off"; } catch (err) { return true; }
  };
  const say = (state, words) => {
    button.dataset.wakeLock = state;
    button.setAttribute("aria-pressed", String(wanted()));
    status.textContent = words;
  };

  const acquire = async () => {
    if (!("wakeLock" in navigator)) {
      say("unsupported", window.isSecureContext
        ? "This browser cannot keep the screen on."
        : "Keeping the screen on needs the club's secure address (https).");
      return;
    }
    if (!wanted()) { say("off", "Off: the screen may sleep."); return; }
    if (sentinel || document.visibilityState !== "visible") return;
    try {
      sentinel = await navigator.wakeLock.request("screen");
      sentinel.addEventListener("release", () => {
        sentinel = null;
        if (wanted()) say("released", "The screen may sleep: it is kept on again when this page is shown.");
      });
      say("held", "On: the screen stays on while this page is open.");
    } catch (err) {
      sentinel = null;
      say("refused", `The device did not keep the screen on${err && err.message ? ` (${err.message})` : ""}.`);
    }
  };

  button.addEventListener("click", async () => {
    const on = !wanted();
    try { localStorage.setItem(PREF, on ? "on" : "off"); } catch (err) { /* kept for this page only */ }
    if (!on && sentinel) await sentinel.release(); // its "release" lets it go
    acquire();
  });
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") acquire(); });
  acquire();
})();
