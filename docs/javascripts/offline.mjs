// The site offline and its dice ready: on every page of the reference site.
//
// 1. The site's service worker (sw.js, written by tools/build_static_apps.py) keeps every
//    page, app and Pyodide file once the site has been opened, so a phone that visited it
//    once keeps working with no network.
// 2. A page with live roller cells starts loading Pyodide as soon as the browser is idle
//    after the page opens (the roller's own warm-up, as when a Roll button is approached),
//    so the first roll answers at once while the reader reads. Pyodide's files come from
//    the service worker's copy after the first visit: no network on later pages.

const siteRoot = new URL("../", import.meta.url);

// A reader who asked their browser to save data (Android's Data Saver, or a slow network)
// is not sent the engine (about 7 MB) or the offline copy unasked: the first tap of Roll
// loads the engine, and the site stays online-only.
const connection = navigator.connection;
const savingData = Boolean(connection && (connection.saveData ||
  ["slow-2g", "2g"].includes(connection.effectiveType)));

// Automated browsers (the site's tests, each page in a fresh profile) do not register it:
// every test page would copy the whole site (about 80 MB) again.
if ("serviceWorker" in navigator && location.protocol !== "file:" && !navigator.webdriver &&
    !savingData) {
  navigator.serviceWorker.register(new URL("sw.js", siteRoot).href, { scope: siteRoot.pathname })
    .catch(() => { /* a site built without the apps has no sw.js: nothing to keep */ });
}

function warmRoller() {
  const button = document.querySelector(".roller .roller-roll");
  if (button) button.dispatchEvent(new Event("pointerenter"));
}

const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 200));
if (savingData) {
  // nothing before the reader asks for it
} else if (document.readyState === "complete") idle(warmRoller);
else window.addEventListener("load", () => idle(warmRoller), { once: true });
