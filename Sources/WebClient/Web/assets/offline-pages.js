// Asks the browser to keep the pages for offline use (`/sw.js`, the service worker): a phone that
// has visited once opens `/c#TOKEN` from its camera even with no signal, and the scan is kept.
export function keepPagesForOffline() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* the pages still work online */ });
}
