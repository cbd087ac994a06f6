// Scans made without a network, kept on this device (with the moment of the scan) and sent
// when the page is online again, as the CLI's offline queue does. A newcomer's scan waits for
// their profile: the name they typed offline is kept too, and registered first.
import { call, register, session, ApiError, OfflineError } from './api.js';

const QUEUE = 'constellation.pendingScans';
const PROFILE = 'constellation.pendingProfile';
/** How often a page with scans waiting tries again while the server cannot be reached. */
const RETRY_MS = 5000;

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

/** Keeps the profile a newcomer asked for offline, made (through `via`, a link's join code, if given) once online. */
export function keepProfile(profile, via = null) {
  localStorage.setItem(PROFILE, JSON.stringify({ ...profile, via }));
}

/** The profile kept offline, if any. */
export function keptProfile() {
  try { return JSON.parse(localStorage.getItem(PROFILE)); } catch { return null; }
}

let registering = null;

/**
 * Makes the profile a newcomer asked for offline (through the first waiting scan, which counts it
 * against that person's budget), if there is one and no profile yet; throws an OfflineError if the
 * server still cannot be reached. Callers at once share one registration (two made two profiles).
 */
export function registerKeptProfile() {
  registering ??= registerOnce().finally(() => { registering = null; });
  return registering;
}

async function registerOnce() {
  const kept = keptProfile();
  if (session.key || !kept) return null;
  const { via, ...profile } = kept;
  const scan = pending()[0];
  try {
    const registered = await register(profile, via ?? (scan ? { token: scan.token } : null));
    localStorage.removeItem(PROFILE);
    return registered;
  } catch (error) {
    // Refused (a name the server will not take): asked again, not retried.
    if (error instanceof ApiError) localStorage.removeItem(PROFILE);
    throw error;
  }
}

/** Whether the same request may go later: no answer in time, a wait (408, 429), a 5xx, a proxy's page. */
export function mayGoLater(error) {
  return error instanceof OfflineError || !(error instanceof ApiError) || error.status >= 500 || [408, 429].includes(error.status)
    || error.code.startsWith('http_');
}

/** Whether `error` refuses the scan itself (an expired or used-up code, a block), not its sender or the moment. */
function refusesTheScan(error) {
  return !mayGoLater(error) && !['invalid_credentials', 'missing_credentials'].includes(error.code);
}

/**
 * Sends every pending scan; returns the redemptions made and the scans refused (with their errors).
 * A scan stays queued, and sending stops, while it may go later (`mayGoLater`) or has no key to go with.
 */
export async function flush() {
  const done = [];
  const refused = [];
  if (!session.key) return { done, refused };
  for (const scan of pending()) {
    try {
      const response = await call('/connections', { method: 'POST', body: scan });
      done.push(await response.json());
    } catch (error) {
      if (!refusesTheScan(error)) break;
      refused.push({ scan, error });
    }
    store(pending().filter((kept) => kept.clientNonce !== scan.clientNonce));
  }
  return { done, refused };
}

let reporter = () => {};
let started = false;
let running = false;

/** Sends what waits: a kept profile first, then the scans; tells the page's `reporter`. */
async function sendWaiting() {
  if (running || (!pending().length && !keptProfile()) || navigator.onLine === false) return;
  running = true;
  try {
    const registered = await registerKeptProfile().catch((error) => {
      if (error instanceof OfflineError) return null;
      throw error;
    });
    reporter({ registered, ...await flush() });
  } catch (error) {
    reporter({ registered: null, done: [], refused: [], error });
  } finally {
    running = false;
  }
}

/**
 * Sends what waits now, whenever the browser comes back online, and every few seconds while
 * something waits (a phone may say it is online while the server is out of reach); `report`
 * (the latest one given) hears `{ registered, done, refused, error }`.
 */
export function flushWhenOnline(report) {
  reporter = report;
  if (!started) {
    started = true;
    window.addEventListener('online', sendWaiting);
    setInterval(sendWaiting, RETRY_MS);
  }
  sendWaiting();
}
