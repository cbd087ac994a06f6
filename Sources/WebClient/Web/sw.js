// The service worker: once a phone has visited, the pages open with no signal. Pages and assets
// are fetched from the network first (so they stay current) and from this cache when the network
// fails, hangs or answers with a server error; the API (`/v1/…`) and the metrics are never cached: an answer about people is
// only ever fresh.
const CACHE = 'constellation-pages-v1';
/** The files under /assets/ (but the catalogs of the server's own documents): the server writes
 * them in as it loads this file (WebAssets), so that a file added is kept offline with no list to edit. */
const ASSETS = [/* the server's files */];
/** Every page and asset, kept at install. */
const PRECACHE = ['/', '/c', ...ASSETS];
/** How long a page waits for the network before the kept copy is shown (bad signal, not none). */
const PATIENCE_MS = 3000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** A page (`/`, `/c`, an event's live page) or an asset of this origin, fetched with GET: what the cache may answer. */
function cacheable(request) {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return false;
  return PRECACHE.includes(url.pathname) || url.pathname.startsWith('/assets/') || /^\/events\/[^/]+\/live$/.test(url.pathname);
}

self.addEventListener('fetch', (event) => {
  if (cacheable(event.request)) event.respondWith(networkFirst(event.request));
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  // The fragment (`/c#TOKEN`) never reaches here; the query is not part of what is kept.
  const key = new URL(request.url);
  key.search = '';
  const fromNetwork = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(key.href, response.clone());
    return response;
  });
  const kept = await cache.match(key.href);
  if (!kept) return fromNetwork;
  const late = new Promise((resolve) => setTimeout(() => resolve(kept), PATIENCE_MS));
  // A server that cannot answer now (or the proxy before it: 502, 503, 504) is no page: the kept
  // copy is, and its script keeps a scan for later.
  const answered = fromNetwork.then((response) => (response.status >= 500 ? kept : response), () => kept);
  return Promise.race([answered, late]);
}
