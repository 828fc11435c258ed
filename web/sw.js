// Service worker: the whole site, cached under one version (a hash of its files, set by build.py),
// so that after the first visit the page works offline. A new version replaces the old cache.
const VERSION = "__VERSION__";
const PRECACHE = [] /* __PRECACHE__ */;
const CACHE = `background-battle-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "no-cache": revalidate with the server (cheap 304s), never take a stale copy into a new version.
      await cache.addAll(PRECACHE.map((path) => new Request(path, { cache: "no-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith("background-battle-") && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(request, { ignoreSearch: true });
      if (hit) return hit;
      if (request.mode === "navigate") {
        const page = await cache.match("./");
        if (page) return page;
      }
      return fetch(request);
    })(),
  );
});
