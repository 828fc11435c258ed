// Service worker: the whole site, cached under one version (a hash of its files, set by build.py),
// so that after the first visit the page works offline. A new version replaces the old cache.
const VERSION = "__VERSION__";
const PRECACHE = /* __PRECACHE__ */ [];
const CACHE = `background-battle-${VERSION}`;

// A file that fails to come (mobile data at the table drops a request now and then) is asked
// again after a short wait, so one lost request does not leave the page without offline use.
const ATTEMPTS = 4;
const PAUSE_MS = 500;

/** The file's response, asked up to ATTEMPTS times; throws when the last attempt fails too. */
async function fetchKept(path) {
  for (let attempt = 1; ; attempt++) {
    try {
      // "no-cache": revalidate with the server (cheap 304s), never take a stale copy into a new version.
      const response = await fetch(new Request(path, { cache: "no-cache" }));
      if (response.ok) return response;
      if (attempt >= ATTEMPTS) throw new Error(`${path}: HTTP ${response.status}`);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS * attempt));
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      // Every file or none: a version is cached whole (a failed install is tried again on the
      // next visit, when the page registers the worker again).
      const responses = await Promise.all(PRECACHE.map(async (path) => [path, await fetchKept(path)]));
      const cache = await caches.open(CACHE);
      await Promise.all(responses.map(([path, response]) => cache.put(path, response)));
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
