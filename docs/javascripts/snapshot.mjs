// Makes a Pyodide memory snapshot in a module Web Worker, off the page's thread, and keeps
// it in the browser's Cache Storage; a later page resumes Pyodide from it (~0.3 s) instead
// of booting it and importing again (~3-4 s). Used by the static apps (apps/static/
// runtime.mjs, start.js) and by the roller cells (roller.mjs).
//
// Message: { pyodideDir, zipUrl, dir, setup, cacheName, key, prefix }: the zip is unpacked
// into dir, the Python `setup` runs, and the snapshot is kept under `key`, replacing older
// keys that start with `prefix`. A snapshot holds no reference to JavaScript: `setup`
// must not touch any. The page is sent { ok, bytes } or { ok: false, error }.

self.onmessage = async ({ data }) => {
  const { pyodideDir, zipUrl, dir, setup, cacheName, key, prefix } = data;
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideDir).href);
    const pyodide = await loadPyodide({ indexURL: pyodideDir, _makeSnapshot: true });
    // A page resumes a snapshot into Pyodide's initial memory (this Pyodide does not grow
    // it first): a snapshot whose heap grew past that would not load.
    const initial = pyodide._module.HEAP8.byteLength;
    const response = await fetch(zipUrl);
    if (!response.ok) throw new Error(`${zipUrl}: HTTP ${response.status}`);
    pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: dir });
    pyodide.runPython(setup);
    const heap = pyodide._module.HEAP8.byteLength;
    if (heap > initial) {
      throw new Error(`the heap (${heap} bytes) outgrew Pyodide's initial memory (${initial})`);
    }
    const snapshot = pyodide.makeMemorySnapshot();
    const cache = await caches.open(cacheName);
    for (const old of await cache.keys()) {
      if (old.url.startsWith(prefix) && old.url !== key) await cache.delete(old);
    }
    await cache.put(key, new Response(snapshot, {
      headers: { "content-type": "application/octet-stream" } }));
    self.postMessage({ ok: true, bytes: snapshot.byteLength });
  } catch (error) {
    self.postMessage({ ok: false, error: String((error && error.message) || error) });
  }
};
