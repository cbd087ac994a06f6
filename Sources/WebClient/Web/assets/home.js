// `/`: a profile (its key stays in this browser), my code, connections, constellation and events.
// `/#join=SLUG&code=CODE` (a wall's QR) joins that event; `/#link=TOKEN` brings another device's profile.
import { call, json, everyItem, session, sessionEnds, explain, say, refocus, sayWaits, registerFrom, ApiError } from './api.js';
import { takeDeviceLink, joinByLink, initDevices, offerToReplace, sayReplaced } from './devices.js';
import { EventStream } from './sse.js';
import { GraphView } from './graph-view.js';
import { initCard, sharedEntries, contactLink } from './card.js';
import { badgeControls } from './badges.js';
import { choiceBox } from './choice-box.js';
import { describePicture } from './picture-text.js';
import { pending, flushWhenOnline, keepProfile, keptProfile, registerKeptProfile } from './scan-queue.js';
import { keepPagesForOffline } from './offline-pages.js';
import { t, language, localize, list } from './i18n.js';

const $ = (id) => document.getElementById(id);
const status = $('status');
sayWaits(status);
const JOIN_LINK = 'constellation.joinLink';
/** Set (for this tab) when the server no longer knew this phone's key: the page says so once, reloaded. */
const KEY_ENDED = 'constellation.keyEnded';
let codeTimer = null;
let codeURL = null;
/** Whether I picked the code shown myself: then it stays as I left it. */
let codePicked = false;
/** The server's offline grace in ms, asked once. */
let offlineGrace = null;
let view = null;

function register(event) {
  event.preventDefault();
  const link = keptJoinLink();
  const waiting = pending()[0];
  const via = link ? { event: link.slug, joinCode: link.code } : waiting ? { token: waiting.token } : null;
  return registerFrom($('join'), status, welcome, via, (profile) => {
    keepProfile(profile, link ? via : null);
    say(status, t('home.offline'), 'info');
    sendWaitingThenWelcome();
  });
}

/** Greets a newcomer whose profile was just made, and shows their code. */
function welcome(registered) {
  // Registering with the link's code joined its event already.
  if (registered.event) sessionStorage.removeItem(JOIN_LINK);
  const name = registered.profile.displayName;
  say(status, registered.event ? t('home.welcomeToEvent', { name, event: registered.event.event.name }) : t('home.welcome', { name }), 'success');
  showHome();
  // The form that had the focus is gone: it goes to what comes next, the code.
  $('code-title').focus();
}

/** A name kept offline (here or on `/c`): its profile is made once the server answers, then welcomed. */
function sendWaitingThenWelcome() {
  flushWhenOnline(({ registered, done, error }) => {
    if (registered) welcome(registered);
    else if (error) say(status, explain(error), 'error');
    if (done.length) sayConnected(done);
  });
}

/** Fetches a fresh code and schedules the next one half a minute before this one expires. */
async function refreshCode() {
  clearTimeout(codeTimer);
  const event = $('code-event').value;
  try {
    const response = await call(`/me/qr?format=svg${event ? `&event=${encodeURIComponent(event)}` : ''}`);
    const expires = new Date(response.headers.get('Constellation-Token-Expires'));
    const url = URL.createObjectURL(await response.blob());
    $('qr').src = url;
    if (codeURL) URL.revokeObjectURL(codeURL);
    codeURL = url;
    $('valid-until').textContent = t('home.validUntil', { time: expires.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' }) });
    codeTimer = setTimeout(refreshCode, Math.max(5_000, expires - Date.now() - 30_000));
  } catch (error) {
    $('valid-until').textContent = explain(error);
    codeTimer = setTimeout(refreshCode, 10_000);
  }
}

/** Lists my events (all of them, page by page, the latest to start first); the code shown follows them unless I picked one: says whether it changed. */
async function loadEvents() {
  try {
    const events = await everyItem('/me/events');
    const select = $('code-event');
    const shown = select.value;
    select.replaceChildren(new Option(t('home.personal'), ''), ...events.map(({ event }) => new Option(event.name, event.slug)));
    select.value = codePicked ? shown : await defaultCode(events);
    $('my-events').replaceChildren(...events.map(myEvent));
    await loadInvitations();
    return select.value !== shown;
  } catch { return false; /* the personal code still works */ }
}

/** The code shown unless I pick one: that of the event I joined last among those running now (or
 * within the offline grace after their end, when scans made at them still count), else my own. */
async function defaultCode(items) {
  offlineGrace ??= json('/keys').then((keys) => keys.offlineGraceSeconds * 1000, () => 0);
  const grace = await offlineGrace;
  const now = Date.now();
  const running = items.filter(({ event }) => Date.parse(event.startsAt) <= now && now <= Date.parse(event.endsAt) + grace);
  running.sort((a, b) => Date.parse(b.joinedAt) - Date.parse(a.joinedAt));
  return running[0]?.event.slug ?? '';
}

/** An event I belong to, with my choices there (each sent at once): how its organizers see me,
 * whether its walls show my name, and my badge. */
function myEvent({ event, role, visibility, printsBadge, onWall }) {
  const item = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = event.name;
  const named = choiceBox(event, visibility === 'named', t('home.organizersSeeMyName'), {
    body: (checked) => ({ visibility: checked ? 'named' : 'pseudonymous' }),
    chosen: (privacy) => privacy.visibility === 'named',
    said: ['home.nowNamed', 'home.nowPseudonymous'],
  });
  const wall = choiceBox(event, onWall, t('home.nameOnTheWall'), {
    body: (checked) => ({ onWall: checked }), chosen: (privacy) => privacy.onWall, said: ['home.nowOnWall', 'home.nowOffWall'],
  });
  item.append(name, role === 'organizer' ? ` ${t('home.organizer')}` : '');
  if (role === 'organizer') {
    const organize = Object.assign(document.createElement('a'), {
      href: `/events/${encodeURIComponent(event.slug)}/organize`, textContent: t('home.organizeEvent'), className: 'organize-link',
    });
    item.append(' ', organize);
  }
  item.append(named, wall, badgeControls({ event, role, printsBadge }));
  if (role === 'attendee') item.append(forgotten(event));
  return item;
}

/** When `event` forgets me, and leaving it now. */
function forgotten(event) {
  const line = Object.assign(document.createElement('p'), {
    className: 'hint', textContent: t('home.forgottenOn', { date: new Date(event.purgeOn).toLocaleDateString(language, { dateStyle: 'long' }) }),
  });
  const leave = Object.assign(document.createElement('button'), { type: 'button', className: 'inline secondary', textContent: t('home.leave') });
  leave.setAttribute('aria-label', t('home.leaveLabel', { event: event.name }));
  leave.addEventListener('click', async () => {
    leave.disabled = true;
    try {
      await call(`/events/${event.id}/me`, { method: 'DELETE' });
      say($('event-status'), t('home.left', { event: event.name }), 'success');
      await loadEvents();
      refocus($('event-status'));
    } catch (error) {
      say($('event-status'), explain(error), 'error');
      leave.disabled = false;
    }
  });
  line.append(' ', leave);
  return line;
}

/** The invitations to organize an event made to my profile, each answered here with a click. */
async function loadInvitations() {
  let items;
  try { items = await everyItem('/me/invitations'); } catch { return; }
  $('invitations-box').hidden = !items.length;
  $('invitations').replaceChildren(...items.map((invitation) => {
    const item = document.createElement('li');
    const text = Object.assign(document.createElement('span'), {
      textContent: t('home.invitation', { name: invitation.invitedByName, event: invitation.eventName }),
    });
    const buttons = [['POST', 'home.acceptInvitation', ''], ['DELETE', 'home.declineInvitation', 'secondary']].map(([method, key, className]) => {
      const button = Object.assign(document.createElement('button'), { type: 'button', className: `inline ${className}`, textContent: t(key) });
      button.setAttribute('aria-label', t(`${key}Label`, { event: invitation.eventName }));
      button.addEventListener('click', async () => {
        for (const each of buttons) each.disabled = true;
        try {
          await call(`/me/invitations/${invitation.eventId}`, { method });
          say($('event-status'), t(method === 'POST' ? 'home.invitationAccepted' : 'home.invitationDeclined', { event: invitation.eventName }), 'success');
          await loadEvents();
          refocus($('event-status'));
        } catch (error) {
          say($('event-status'), explain(error), 'error');
          for (const each of buttons) each.disabled = false;
        }
      });
      return button;
    });
    item.append(text, ...buttons);
    return item;
  }));
}

// Each load's number: an answer that arrives after a later load's began is not shown (a list read
// before a scan committed must not replace the one read after it).
const loads = { connections: 0, network: 0 };

async function loadConnections() {
  const load = ++loads.connections;
  try {
    const page = await json('/me/connections?limit=100');
    if (load !== loads.connections) return;
    $('connection-count').textContent = page.items.length ? `(${page.items.length}${page.nextCursor ? '+' : ''})` : '';
    $('connections').replaceChildren(...page.items.map((connection) => {
      const item = document.createElement('li');
      const name = document.createElement('strong');
      name.textContent = connection.peer.displayName;
      item.append(name);
      if (connection.peer.headline) item.append(` — ${connection.peer.headline}`);
      if (connection.card?.length) item.append(sharedEntries(connection.card), contactLink(connection.peer));
      return item;
    }));
    if (!page.items.length) $('connections').replaceChildren(Object.assign(document.createElement('li'), { textContent: t('home.nobodyYet') }));
  } catch (error) {
    say(status, explain(error), 'error');
  }
  const waiting = pending().length;
  $('pending').hidden = !waiting;
  $('pending').textContent = t('home.pending', { count: waiting });
}

async function loadNetwork() {
  const load = ++loads.network;
  try {
    const network = await json('/me/network');
    if (load !== loads.network) return;
    view.setGraph(network, { glideMs: 600 });
    $('network').setAttribute('aria-label', t('home.networkLabel', { people: t('count.people', { count: network.nodes.length }), connections: t('count.connections', { count: network.edges.length }) }));
    $('network-text').textContent = describePicture(network.nodes, network.edges.length);
  } catch (error) {
    $('network-detail').textContent = explain(error);
  }
}

async function joinEvent(event) {
  event.preventDefault();
  const form = $('event-join');
  const slug = form.slug.value.trim();
  try {
    const joined = await json(`/events/${encodeURIComponent(slug)}/join`, { method: 'POST', body: { code: form.code.value.trim().toUpperCase() } });
    if (form.named.checked && joined.visibility !== 'named') {
      await call(`/events/${encodeURIComponent(slug)}/me`, { method: 'PATCH', body: { visibility: 'named' } });
    }
    const named = form.named.checked || joined.visibility === 'named';
    say($('event-status'), t(named ? 'home.joinedNamed' : 'home.joinedPseudonymous', { event: joined.event.name }), 'success');
    form.reset();
    if (await loadEvents()) refreshCode();
  } catch (error) {
    say($('event-status'), explain(error), 'error');
  }
}

/** Keeps a `#join=` link's event and code for this tab (until there is a profile) and takes them out of the address bar. */
function takeJoinLink() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.get('join')) return null;
  const link = { slug: fragment.get('join'), code: fragment.get('code') || '' };
  sessionStorage.setItem(JOIN_LINK, JSON.stringify(link));
  history.replaceState(null, '', location.pathname + location.search);
  return link;
}

/** The `#join=` link this tab keeps, if any. */
function keptJoinLink() {
  try { return JSON.parse(sessionStorage.getItem(JOIN_LINK)); } catch { return null; }
}

/** Offers to join the event a `#join=` link names (form filled, event named, button focused): the press joins, not the link. */
async function joinFromLink() {
  const link = keptJoinLink();
  sessionStorage.removeItem(JOIN_LINK);
  if (!link) return;
  const form = $('event-join');
  form.slug.value = link.slug;
  form.code.value = link.code;
  const name = await json(`/events/${encodeURIComponent(link.slug)}`).then((event) => event.name, () => link.slug);
  say($('event-status'), t('home.joinOffered', { event: name }), 'info');
  form.querySelector('button[type=submit]').focus();
}

function refreshAll() {
  loadConnections();
  loadNetwork();
}

function showHome() {
  $('join').hidden = true;
  $('link-join').hidden = true;
  $('home').hidden = false;
  initDevices(status);
  initCard();
  view = new GraphView($('network'), {
    onSelect: (node) => { $('network-detail').textContent = node ? t('node.detail', { name: node.label, count: node.degree }) : ''; },
  });
  $('code-event').addEventListener('change', () => {
    codePicked = true;
    refreshCode();
  });
  $('full-screen').addEventListener('click', () => $('code').requestFullscreen?.());
  $('event-join').addEventListener('submit', joinEvent);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) return;
    loadEvents().then(refreshCode);
    refreshAll();
  });
  flushWhenOnline(({ done, refused }) => {
    if (refused.length) say(status, t('home.savedScanRefused', { reason: explain(refused[0].error) }), 'error');
    if (done.length) {
      // Sent: a replacement of the profile they held back may go on.
      if (!pending().length && $('replace-yes').disabled) { $('replace-yes').disabled = false; say(status, ''); }
      sayConnected(done);
      refreshAll();
    }
  });
  // The code for the event running now, if I joined one: known once my events are.
  loadEvents().then(refreshCode);
  refreshAll();
  joinFromLink();
  hearNewConnections();
}

/** Says who the scans sent from this phone's queue connected me with. */
function sayConnected(redemptions) {
  say($('heard'), t('connect.connected', { people: list(redemptions.map((redemption) => redemption.connection.peer.displayName)) }), 'success');
}

/**
 * Says at once who just connected with me, and shows them in my lists. A cut stream resumes from the
 * last id it heard, the hello's included. `#heard`'s `data-stream` tells its state.
 */
function hearNewConnections() {
  new EventStream('/v1/me/stream', {
    auth: () => session.key,
    onState: (state) => { $('heard').dataset.stream = state; },
    onEvent: ({ type, data }) => {
      if (type !== 'connection') return;
      const connection = JSON.parse(data);
      say($('heard'), t('home.connectedWithYou', { name: connection.peer.displayName }), 'success');
      refreshAll();
    },
  }).start();
}

localize();
const joinLink = takeJoinLink();
const deviceLink = takeDeviceLink();
// A link opened in this tab while the page is open changes only the fragment.
window.addEventListener('hashchange', () => {
  const link = takeJoinLink();
  if (link && session.key) joinFromLink();
  else if (link) checkJoinLink(link);
  if (takeDeviceLink()) {
    if (session.key) offerToReplace(status);
    else offerDeviceLink();
  }
});
keepPagesForOffline();
sessionEnds.addEventListener('ended', () => {
  sessionStorage.setItem(KEY_ENDED, '1');
  location.reload();
});
if (!session.key && keptProfile()) await registerKeptProfile().catch(() => null);
if (sessionStorage.getItem(KEY_ENDED)) {
  sessionStorage.removeItem(KEY_ENDED);
  say(status, t('home.keyEnded'), 'error');
}
if (session.key) {
  showHome();
  sayReplaced(status);
  if (deviceLink) offerToReplace(status);
} else {
  showForms();
  if (deviceLink) offerDeviceLink();
}

/**
 * A link from another device is taken only when this person says so: a link someone else sent
 * would otherwise sign this browser in as them, and everything done here would be theirs.
 */
function offerDeviceLink() {
  say(status, t('devices.offer'));
  const accept = $('link-accept');
  accept.hidden = false;
  accept.focus();
}

/** A `#join=` link's event, looked at first: an ended or purged one is said at once, and its link dropped. */
async function checkJoinLink(link) {
  say(status, t('home.typeNameToJoin', { event: link.slug }));
  try {
    const event = await json(`/events/${encodeURIComponent(link.slug)}`, { auth: null });
    if (!event.purgedAt && Date.now() < Date.parse(event.endsAt)) return say(status, t('home.typeNameToJoin', { event: event.name }));
    sessionStorage.removeItem(JOIN_LINK);
    say(status, t('home.joinOver', { event: event.name }), 'error');
  } catch (error) {
    // Offline: the link is kept, and the server decides once it answers.
    if (!(error instanceof ApiError)) return;
    sessionStorage.removeItem(JOIN_LINK);
    say(status, explain(error), 'error');
  }
}

/** The two ways in without a profile: make one, or take one from another device. */
function showForms() {
  if (joinLink) checkJoinLink(joinLink);
  else if (keptProfile()) {
    say(status, t('home.offlineWithScans'), 'info');
    sendWaitingThenWelcome();
  } else if (pending().length) say(status, t('home.scanWaiting'));
  $('join').hidden = false;
  $('link-join').hidden = false;
  $('join').addEventListener('submit', register);
  $('link-accept').addEventListener('click', () => {
    $('link-accept').hidden = true;
    joinByLink(status, showHome);
  });
  $('link-join').addEventListener('submit', (event) => {
    event.preventDefault();
    joinByLink(status, showHome, $('link-code-input').value.trim());
  });
  $('name').focus();
}
