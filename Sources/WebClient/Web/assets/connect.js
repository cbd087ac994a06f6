// `/c#TOKEN`, what a phone's camera opens: check the code against the server's keys, then
// connect (registering first if this phone has no profile yet), or keep the scan (and a
// newcomer's name) for later when there is no network.
import { json, session, explain, say, sayWaits, registerFrom } from './api.js';
import { tokenFrom, publishedKeys, verify, parse } from './paseto.js';
import { enqueue, flushWhenOnline, keepProfile, keptProfile, mayGoLater, pending, registerKeptProfile } from './scan-queue.js';
import { keepPagesForOffline } from './offline-pages.js';
import { offerContact, sharedEntries } from './card.js';
import { t, localize, list } from './i18n.js';

const status = document.getElementById('status');
sayWaits(status);
const form = document.getElementById('join');
const next = document.getElementById('next');
/** The code being handled and when it was scanned (the page opened, or its fragment changed). */
let scan = null;

function finish(text, kind) {
  say(status, text, kind);
  form.hidden = true;
  next.hidden = false;
}

function describe(peer) {
  return peer.headline ? `${peer.displayName} (${peer.headline})` : peer.displayName;
}

/** Shows the name form (for someone with no profile yet), with `text` above it. */
function askName(text, kind = 'info') {
  say(status, text, kind);
  form.hidden = false;
  next.hidden = true;
  form.name.focus();
}

function keepForLater() {
  enqueue(scan.token, scan.at);
  if (session.key) finish(t('connect.savedScan'), 'info');
  else if (keptProfile()) finish(t('connect.savedNameAndScan'), 'info');
  else askName(t('connect.savedScanAskName'));
  sendWhenOnline();
}

/** Sends the scans kept on this phone (and a newcomer's kept name first) once the server answers. */
function sendWhenOnline() {
  flushWhenOnline(({ done, refused, error }) => {
    if (error) askName(explain(error), 'error');
    else if (done.length) finish(t('connect.connected', { people: list(done.map((redemption) => describe(redemption.connection.peer))) }), 'success');
    else if (refused.length) finish(explain(refused[0].error), 'error');
  });
}

async function redeem() {
  say(status, t('connect.connecting'));
  try {
    // Not answered within 20 s (a signal that comes and goes), the scan is kept for later.
    const redemption = await json('/connections', { method: 'POST', body: { token: scan.token }, signal: AbortSignal.timeout(20000) });
    const peer = redemption.connection.peer;
    finish(t(redemption.created ? 'connect.connected' : 'connect.already', { people: describe(peer) }), 'success');
    // What they share with their connections came with the answer: shown at once, to write to.
    if (redemption.connection.card?.length) document.getElementById('peer-card').replaceChildren(sharedEntries(redemption.connection.card));
    offerContact(document.getElementById('save-contact'), peer).catch(() => { /* the connection stands; the card can wait */ });
  } catch (error) {
    // No answer, or a server (or the proxy before it) that cannot take it now: kept, sent later.
    if (mayGoLater(error)) keepForLater();
    else finish(explain(error), 'error');
  }
}

function register(event) {
  event.preventDefault();
  return registerFrom(form, status, redeem, { token: scan.token }, (profile) => {
    keepProfile(profile);
    keepForLater();
  });
}

async function start() {
  // A reload (the language switch) finds the scan in this history entry's state, not in the address.
  const fromLink = tokenFrom(location.hash);
  const kept = history.state || {};
  scan = fromLink || !kept.scan ? { token: fromLink, at: new Date() } : { token: kept.scan, at: new Date(kept.at) };
  // The token is in the fragment: it never reached the server's logs; keep it out of the address bar too.
  history.replaceState(scan.token ? { scan: scan.token, at: scan.at.getTime() } : null, '', '/c');
  form.hidden = true;
  next.hidden = true;
  if (!scan.token) return finish(t('connect.noCode'), 'error');
  say(status, t('connect.checking'));
  let claims;
  try {
    const { set, fresh } = await publishedKeys();
    if (set) {
      claims = await verify(scan.token, set, scan.at.getTime());
    } else {
      claims = parse(scan.token).claims; // offline, and this phone has never seen the server's keys
      if (!fresh) return keepForLater();
    }
  } catch (error) {
    return finish(explain(error), 'error');
  }
  if (session.profile && session.profile.id.toLowerCase() === claims.subject) {
    return finish(t('problem.self_connection'), 'error');
  }
  // A name typed offline on an earlier visit: that profile is made now, not a second one.
  if (!session.key && keptProfile()) await registerKeptProfile().catch(() => null);
  if (!session.key && keptProfile()) return keepForLater();
  if (!session.key) return askName(t('connect.genuine'));
  await redeem();
}

localize();
form.addEventListener('submit', register);
keepPagesForOffline();
// Scans kept by a page that was closed before the network came back go now.
if (pending().length) sendWhenOnline();
// Another code opened while this page is showing (only the fragment changed: no reload).
window.addEventListener('hashchange', start);
start();
