// Table Companion static app page (put first in every rendered page by
// tools/build_static_apps.py). Runs before Voici starts the kernel.
(function () {
  "use strict";
  // The page's query (?campaign=..&who=..&role=..) for the kernel, which runs in a worker
  // and cannot read the page's address: handed over in IndexedDB (boot.py reads it).
  try {
    var req = indexedDB.open("table-companion-page", 1);
    req.onupgradeneeded = function () { req.result.createObjectStore("page"); };
    req.onsuccess = function () {
      req.result.transaction("page", "readwrite").objectStore("page")
        .put({ query: location.search, at: Date.now() }, "query");
    };
  } catch (e) { /* no IndexedDB: the app opens without a campaign */ }

  // Links between apps name notebooks (app.ipynb?...): here each app is app.html.
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest("a[href]") : null;
    if (!link) return;
    var href = link.getAttribute("href");
    var m = /^([A-Za-z0-9_]+)\.ipynb(\?.*)?$/.exec(href || "");
    if (m) link.setAttribute("href", m[1] + ".html" + (m[2] || ""));
  }, true);

  // Timings for the benchmark and the tests: when the app is on screen and usable.
  window.tcStaticStart = performance.now();

  // The site's service worker keeps every file for offline use.
  var root = new URL("../../../../", location.href);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(new URL("sw.js", root).href, { scope: root.pathname })
      .catch(function (e) { console.warn("Table Companion: no offline copy", e); });
  }
})();
