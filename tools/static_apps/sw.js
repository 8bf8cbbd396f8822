// The site's service worker (written into site/sw.js by tools/build_static_apps.py, with
// the build's version): after one visit every page, app and Pyodide file of the site is
// kept in the browser, and the site works with no network.
//
// Install: every file listed in precache.json (made at build time) goes into this
// version's cache. Fetch: a same-origin GET is answered from the cache first (a page's
// query string is ignored: apps/x.html?campaign=.. is apps/x.html), else from the network
// (and kept). Activate: older versions' caches are deleted.
"use strict";
const VERSION = "__VERSION__";
const CACHE = "table-companion-" + VERSION;
// The site's root (this file sits there).
const ROOT = new URL("./", self.location.href);

async function precache() {
  const cache = await caches.open(CACHE);
  const list = await (await fetch(new URL("precache.json", ROOT), { cache: "no-store" })).json();
  const urls = list.files.map((f) => new URL(f, ROOT).href);
  urls.push(ROOT.href);
  let next = 0;
  async function worker() {
    while (next < urls.length) {
      const url = urls[next++];
      if (await cache.match(url)) continue;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          const response = await fetch(url, { cache: "no-cache" });
          if (response.ok) { await cache.put(url, response); break; }
        } catch (e) { /* retried */ }
      }
    }
  }
  await Promise.all([worker(), worker(), worker(), worker(), worker(), worker()]);
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("table-companion-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  const plain = url.origin + url.pathname;
  let hit = await cache.match(plain);
  if (!hit && url.pathname.endsWith("/")) hit = await cache.match(plain + "index.html");
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic" && !url.search) {
    cache.put(plain, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.href.startsWith(ROOT.href)) return;
  if (url.pathname.endsWith("/precache.json")) return;
  event.respondWith(answer(request));
});
