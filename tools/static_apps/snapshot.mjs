// Makes the static apps' Pyodide snapshot (a module Web Worker, started by runtime.mjs
// once a page without one is shown). A second Pyodide boots here, off the page's thread,
// loads the apps' packages and imports every module they use (kernel.py prepare), and its
// memory is kept in the browser's Cache Storage. The next app page resumes from it
// (start.js) instead of booting Pyodide and importing again: ~0.3 s instead of ~4 s.
// The snapshot holds no reference to JavaScript: nothing before it touches any.

self.onmessage = async ({ data }) => {
  const { pyodideDir, packagesUrl, dir, cacheName, key } = data;
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideDir).href);
    const pyodide = await loadPyodide({ indexURL: pyodideDir, _makeSnapshot: true });
    // A page resumes a snapshot into Pyodide's initial memory (this Pyodide does not grow
    // it first): a snapshot whose heap grew past that would not load.
    const initial = pyodide._module.HEAP8.byteLength;
    const response = await fetch(packagesUrl);
    if (!response.ok) throw new Error(`packages.zip: HTTP ${response.status}`);
    pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: dir });
    pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(dir)})\n` +
      "import tc_static_kernel\ntc_static_kernel.prepare(preload=True)\n");
    const heap = pyodide._module.HEAP8.byteLength;
    if (heap > initial) throw new Error(`the preloaded heap (${heap} bytes) outgrew Pyodide's initial memory (${initial})`);
    const snapshot = pyodide.makeMemorySnapshot();
    const cache = await caches.open(cacheName);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(key, new Response(snapshot, {
      headers: { "content-type": "application/octet-stream" } }));
    self.postMessage({ ok: true, bytes: snapshot.byteLength });
  } catch (error) {
    self.postMessage({ ok: false, error: String((error && error.message) || error) });
  }
};
