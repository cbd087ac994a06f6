// `/c#TOKEN`, what a phone's camera opens: check the code against the server's keys, then
// connect (registering first if this phone has no profile yet), or keep the scan for later
// when there is no network.
import { json, session, explain, say, OfflineError } from './api.js';
import { tokenFrom, publishedKeys, verify, parse } from './paseto.js';
import { enqueue, flushWhenOnline } from './scan-queue.js';

const status = document.getElementById('status');
const form = document.getElementById('join');
const next = document.getElementById('next');
const scannedAt = new Date();

function finish(text, kind) {
  say(status, text, kind);
  form.hidden = true;
  next.hidden = false;
}

function describe(peer) {
  return peer.headline ? `${peer.displayName} (${peer.headline})` : peer.displayName;
}

async function redeem(token) {
  say(status, 'Connecting…');
  try {
    const redemption = await json('/connections', { method: 'POST', body: { token } });
    const peer = redemption.connection.peer;
    finish(redemption.created ? `Connected with ${describe(peer)}.` : `You were already connected with ${describe(peer)}.`, 'success');
  } catch (error) {
    if (error instanceof OfflineError) {
      enqueue(token, scannedAt);
      finish('No network: the scan is saved on this phone and will connect as soon as you are online.', 'info');
      flushWhenOnline(({ done }) => { if (done.length) finish(`Connected with ${describe(done[0].connection.peer)}.`, 'success'); });
    } else {
      finish(explain(error), 'error');
    }
  }
}

async function register(event) {
  event.preventDefault();
  const button = form.querySelector('button');
  button.disabled = true;
  try {
    const headline = form.headline.value.trim();
    const registered = await json('/profiles', {
      method: 'POST', auth: null, body: { displayName: form.name.value.trim(), headline: headline || undefined },
    });
    session.save(registered);
    await redeem(form.dataset.token);
  } catch (error) {
    say(status, explain(error), 'error');
  } finally {
    button.disabled = false;
  }
}

async function start() {
  const token = tokenFrom(location.hash);
  // The token is in the fragment: it never reached the server's logs; keep it out of the history too.
  history.replaceState(null, '', '/c');
  if (!token) return finish('This link holds no code. Open the link from a Constellation QR code.', 'error');
  let claims;
  try {
    const { set, fresh } = await publishedKeys();
    if (set) {
      claims = await verify(token, set, scannedAt.getTime());
    } else {
      claims = parse(token).claims; // never seen this server and offline: the server checks it later
      if (!fresh) {
        enqueue(token, scannedAt);
        return finish('No network: the scan is saved on this phone and will connect as soon as you are online.', 'info');
      }
    }
  } catch (error) {
    return finish(explain(error), 'error');
  }
  if (session.profile && session.profile.id.toLowerCase() === claims.subject) {
    return finish('That is your own code: show it to someone else.', 'error');
  }
  if (!session.key) {
    form.dataset.token = token;
    say(status, 'This code is genuine.');
    form.hidden = false;
    form.addEventListener('submit', register);
    form.name.focus();
    return;
  }
  await redeem(token);
}

start();
