// The trust page on the plain port: try the laptop's HTTPS address in the background and move there as soon
// as it answers. Only a device that trusts the club's authority gets an answer (a certificate error fails the
// fetch), so it goes straight on; the others see the steps, and move on once the authority is trusted.
(() => {
  const root = document.querySelector("[data-trust][data-https-port]");
  if (!root || location.protocol !== "http:") return;
  const https = `https://${location.hostname}:${root.dataset.httpsPort}/`;
  const steps = root.querySelector("[data-trust-steps]");
  const opening = root.querySelector("[data-trust-probe]");
  const WAIT_MS = 2000; // a laptop on the club's wifi answers well within this
  const AGAIN_MS = 3000; // while the steps are followed on this device
  const show = (trying) => { steps.hidden = trying; opening.hidden = !trying; };
  const tryHttps = async () => {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), WAIT_MS);
    try {
      // no-cors: nothing is read, the answer only has to arrive over a connection this device trusts.
      await fetch(`${https}healthz`, { mode: "no-cors", cache: "no-store", signal: stop.signal });
      show(true);
      location.replace(https);
      return;
    } catch (err) {
      show(false);
    } finally {
      clearTimeout(timer);
    }
    setTimeout(tryHttps, AGAIN_MS);
  };
  show(true);
  tryHttps();
})();
