// The first script of a static app page (site/apps/<app>.html): starts the slow parts
// (Pyodide and the app's Python packages) before the widget manager's 3.6 MB of script is
// read; runtime.mjs picks them up. Pyodide resumes from the snapshot this browser keeps
// (javascripts/snapshot.mjs) when there is one for this build, else boots (and the page
// then has one made for the next). Timings for the benchmark: step -> ms since navigation.
(function () {
  "use strict";
  var times = (window.tcStaticTimes = {});
  function mark(step) { times[step] = Math.round(performance.now()); }
  window.tcStaticMark = mark;
  var script = document.currentScript;
  var apps = new URL("../", script.src);
  var pyodideDir = new URL("../assets/pyodide/", apps).href;
  var snapshot = {
    cacheName: "tc-pyodide-snapshot",
    // One per build: the Pyodide version and the packages' digest.
    key: new URL("snapshot/" + script.getAttribute("data-snapshot"), apps).href,
    used: false,
  };
  window.tcStaticSnapshot = snapshot;

  function keptSnapshot() {
    if (!("caches" in window)) return Promise.resolve(null);  // not a secure context
    return caches.open(snapshot.cacheName)
      .then(function (cache) { return cache.match(snapshot.key); })
      .then(function (hit) { return hit ? hit.arrayBuffer() : null; })
      .catch(function () { return null; });
  }

  function boot(module, kept) {
    if (kept) {
      mark("snapshot");
      return module.loadPyodide({ indexURL: pyodideDir, _loadSnapshot: new Uint8Array(kept) })
        .then(function (p) { snapshot.used = true; return p; })
        .catch(function (error) {
          console.warn("Table Companion: the kept snapshot did not load; starting afresh", error);
          caches.open(snapshot.cacheName).then(function (c) { return c.delete(snapshot.key); });
          return module.loadPyodide({ indexURL: pyodideDir });
        });
    }
    return module.loadPyodide({ indexURL: pyodideDir });
  }

  window.tcStaticBoot = {
    pyodide: Promise.all([import(new URL("pyodide.mjs", pyodideDir).href), keptSnapshot()])
      .then(function (both) { return boot(both[0], both[1]); })
      .then(function (p) { mark("pyodide"); return p; }),
    packages: fetch(new URL("packages.zip", apps)).then(function (r) {
      if (!r.ok) throw new Error("packages.zip: HTTP " + r.status);
      return r.arrayBuffer();
    }).then(function (b) { mark("packages"); return b; }),
  };
  // Unhandled until runtime.mjs awaits them: no console noise if a fetch fails first.
  window.tcStaticBoot.pyodide.catch(function () {});
  window.tcStaticBoot.packages.catch(function () {});
})();
