// Scans made without a network, kept on this device (with the moment of the scan) and sent
// when the page is online again, as the CLI's offline queue does.
import { call, ApiError, OfflineError } from './api.js';

const QUEUE = 'constellation.pendingScans';

export function pending() {
  try { return JSON.parse(localStorage.getItem(QUEUE)) || []; } catch { return []; }
}

function store(scans) {
  localStorage.setItem(QUEUE, JSON.stringify(scans));
}

/** Keeps a scan for later; the same token twice is kept once. */
export function enqueue(token, scannedAt = new Date()) {
  const scans = pending();
  if (!scans.some((scan) => scan.token === token)) {
    scans.push({ token, scannedAt: scannedAt.toISOString().replace(/\.\d+Z$/, 'Z'), clientNonce: crypto.randomUUID() });
    store(scans);
  }
}

/**
 * Sends every pending scan; returns the redemptions made and the scans refused (with their errors).
 * A scan stays queued only while the server cannot be reached.
 */
export async function flush() {
  const done = [];
  const refused = [];
  for (const scan of pending()) {
    try {
      const response = await call('/connections', { method: 'POST', body: scan });
      done.push(await response.json());
    } catch (error) {
      if (error instanceof OfflineError) break;
      if (!(error instanceof ApiError) || error.status >= 500) break;
      refused.push({ scan, error });
    }
    store(pending().filter((kept) => kept.clientNonce !== scan.clientNonce));
  }
  return { done, refused };
}

/** Flushes whenever the browser comes back online; `report` hears what happened. */
export function flushWhenOnline(report) {
  const run = async () => { if (pending().length && navigator.onLine !== false) report(await flush()); };
  window.addEventListener('online', run);
  run();
}
