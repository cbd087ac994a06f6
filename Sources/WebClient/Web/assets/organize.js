// `/events/{slug}/organize`: the organizer's page of one event, with nothing but a browser. The
// event itself (its name, time zone and dates changed, or ended now: event-edit.js), the door (the join code and link, copy buttons, the join poster, replacing the code after a
// confirmation), live pages and walls (each opened in a new tab through a view link of its own;
// the links now live, extended or revoked one by one or all at once), co-organizers (invitations,
// stepping down: co-organizers.js), exports, the badge sheet, the purge date (purge.js), and the way to growth and the summary.
// Someone who does not organize the event gets a page saying so; a purged event, the figures it left.
import { call, json, everyItem, session, explain, say, sayWaits, showItems, ApiError } from './api.js';
import { t, number, language, localize, addMessages } from './i18n.js';
import { sheetButtons } from './badges.js';
import { download, today } from './download.js';
import { initCoOrganizers } from './co-organizers.js';
import { initPurge, showRecord } from './purge.js';
import { confirmBox } from './confirm-box.js';
import { initEventEdit } from './event-edit.js';

await addMessages('organizer');

const $ = (id) => document.getElementById(id);
const status = $('status');
const slug = decodeURIComponent(location.pathname.split('/')[2] || '');
const path = (rest = '') => `/events/${encodeURIComponent(slug)}${rest}`;
/** The exports, as `GET /v1/events/{event}/network?format=…` gives them, and the summary; with the file each is saved as. */
const EXPORTS = [
  { key: 'gexf', url: '/network?format=gexf', file: 'gexf' },
  { key: 'graphml', url: '/network?format=graphml', file: 'graphml' },
  { key: 'csv', url: '/network?format=csv', file: 'csv' },
  { key: 'graphology', url: '/network?format=graphology', file: 'graphology.json' },
  { key: 'cytoscape', url: '/network?format=cytoscape', file: 'cytoscape.json' },
  { key: 'summary', url: '/summary', file: 'summary.json' },
  { key: 'report', url: '/report', file: 'report.html' },
];
/** How often the page asks for the join code, to follow another organizer's rotation. */
const CODE_EVERY_MS = 5000;
/** Who came, co-organizers, invitations and links are asked again every this many of those (30 s). */
const FIGURES_EVERY = 6;
let event = null;
/** The timer that follows the join code, stopped once I no longer organize the event. */
let following = null;

/** My membership of the event `id`, looked for page by page among my events; undefined if I have none. */
async function membership(id) {
  const mine = (item) => item.event.id === id;
  return (await everyItem('/me/events', mine)).find(mine);
}

function refuse(text) {
  $('refused-text').textContent = text;
  $('refused').hidden = false;
  $('organizer').hidden = true;
}

/** A date and time as this page's language writes them, in the event's time zone (in UTC if this browser does not know the zone). */
function when(date) {
  const options = { dateStyle: 'medium', timeStyle: 'short', timeZone: event.timeZone };
  try {
    return new Date(date).toLocaleString(language, options);
  } catch {
    return new Date(date).toLocaleString(language, { ...options, timeZone: 'UTC', timeZoneName: 'short' });
  }
}

/** Shows the join code and link now (`GET …/join-code`); an event made before codes could be shown says so. */
async function showCode() {
  try {
    const code = await json(path('/join-code'));
    $('join-code').textContent = code.joinCode;
    $('join-link').textContent = code.link;
    $('join-link').href = code.link;
    $('code-unknown').hidden = true;
    for (const id of ['copy-code', 'copy-link', 'poster-a4', 'poster-letter']) $(id).hidden = false;
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'join_code_unknown')) throw error;
    $('code-unknown').hidden = false;
    for (const id of ['copy-code', 'copy-link', 'poster-a4', 'poster-letter']) $(id).hidden = true;
  }
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(status, t('organize.copied', { what }), 'success');
  } catch {
    say(status, t('organize.copyFailed'), 'error');
  }
}

/** Replaces the join code, once confirmed (`close` closes the confirmation). */
async function rotate(close) {
  try {
    await call(path('/join-code'), { method: 'POST' });
    // Another organizer may have replaced it at the same moment: the code shown is the one that stands.
    await showCode();
    say(status, t('organize.rotated', { code: $('join-code').textContent }), 'success');
    close();
  } catch (error) {
    say(status, explain(error), 'error');
  }
}

/** How many screens a new link may light, or null (said next to the field) when it is not 1 to 50. */
function screens() {
  const value = Number($('screen-count').value);
  const good = Number.isInteger(value) && value >= 1 && value <= 50;
  $('screen-count-error').textContent = good ? '' : t('organize.error.screens');
  $('screen-count-error').hidden = good;
  if (good) $('screen-count').removeAttribute('aria-invalid');
  else $('screen-count').setAttribute('aria-invalid', 'true');
  return good ? value : null;
}

/** Opens the live page or the wall in a new tab, through a new view link. The tab opens at the
 * click (a browser lets a page open tabs only then) and goes to the link once it is made. */
async function openScreen(wall) {
  const count = screens();
  if (count === null) {
    $('screen-count').focus();
    return;
  }
  const tab = window.open('about:blank', '_blank');
  let issued;
  try {
    issued = await json(path('/view-tokens'), { method: 'POST', body: { wall, screens: count } });
  } catch (error) {
    tab?.close();
    say(status, explain(error), 'error');
    return;
  }
  if (tab) tab.location.href = issued.path;
  else say(status, t('organize.openHere', { link: location.origin + issued.path }), 'info');
  // The link is made and its tab open: a list that cannot be read now is said, and the tab stays.
  await listLinks().catch((error) => say(status, explain(error), 'error'));
}

/** The view links now live, newest first, each with who made it, until when, and how many screens it may light. */
async function listLinks() {
  const links = (await json(path('/view-tokens'))).items;
  const items = links.map((link) => {
    const item = document.createElement('li');
    const text = document.createElement('span');
    text.textContent = t(link.showsNames ? 'organize.linkLive' : 'organize.linkWall', {
      name: link.createdByName, until: when(link.expiresAt), count: link.screens,
    });
    const revoke = Object.assign(document.createElement('button'), { type: 'button', className: 'inline secondary', textContent: t('organize.revoke') });
    revoke.setAttribute('aria-label', t('organize.revokeLabel', { name: link.createdByName, until: when(link.expiresAt) }));
    revoke.dataset.revoke = link.id;
    revoke.addEventListener('click', () => revokeLinks(link.id, revoke));
    item.append(text);
    // Extending keeps the link: its open pages go on.
    if (Date.parse(link.expiresAt) < Date.parse(link.longestUntil)) {
      const extend = Object.assign(document.createElement('button'), { type: 'button', className: 'inline secondary', textContent: t('organize.extend') });
      extend.dataset.link = link.id;
      extend.setAttribute('aria-label', t('organize.extendLabel', { name: link.createdByName, until: when(link.longestUntil) }));
      extend.addEventListener('click', () => extendLink(link, extend));
      item.append(extend);
    }
    item.append(revoke);
    return item;
  });
  if (!links.length) items.push(Object.assign(document.createElement('li'), { textContent: t('organize.noLinks') }));
  showItems($('view-links'), items);
  $('revoke-all').hidden = !links.length;
}

/** Extends `link` to the latest its token allows (the event's end). */
async function extendLink(link, button) {
  button.disabled = true;
  try {
    const extended = await json(path(`/view-tokens/${link.id}`), { method: 'PATCH', body: { expiresAt: link.longestUntil } });
    say(status, t('organize.extended', { until: when(extended.expiresAt) }), 'success');
    await listLinks();
  } catch (error) {
    say(status, explain(error), 'error');
    button.disabled = false;
  }
}

/** Revokes one link (`id`) or all: every page open through them says so within a minute. */
async function revokeLinks(id, button) {
  button.disabled = true;
  try {
    const response = await call(path(id ? `/view-tokens/${id}` : '/view-tokens'), { method: 'DELETE' });
    const count = id ? 1 : (await response.json()).revoked;
    say(status, t('organize.revoked', { count }), 'success');
    await listLinks();
    $('open-live').focus();
  } catch (error) {
    say(status, explain(error), 'error');
  } finally {
    button.disabled = false;
  }
}

/** Who came: the event's members, those who joined in the last hour and the share connected with someone, as its summary gives them. */
async function showWhoCame() {
  const summary = await json(path('/summary'));
  $('figure-attendees').textContent = number(summary.attendees);
  $('figure-joined').textContent = number(summary.joinedLastHour);
  $('figure-connected').textContent = number(summary.connectedShare, { style: 'percent' });
}

/** Says how many attendees asked for a printed badge: what the sheet will hold. */
async function countBadges() {
  const { count } = await json(path('/badge-requests'));
  $('badge-count').textContent = t('organize.badgeCount', { count });
}

/** The exports asked for, one after another: the server runs two graph requests of one credential
 * at once (429 `too_many_graph_requests` past them), and an organizer may click every export in a row. */
let exporting = Promise.resolve();

/** Saves the export `key` (one of EXPORTS) as a file, `button` disabled meanwhile. */
async function save(button, { key, url, file }) {
  button.disabled = true;
  try {
    const asked = exporting.then(() => call(path(key === 'report' ? `${url}?lang=${language}` : url)));
    exporting = asked.catch(() => {});
    const response = await asked;
    download(await response.blob(), `${event.slug}-${today()}.${file}`);
    say(status, t('organize.exported', { format: button.textContent }), 'success');
  } catch (error) {
    say(status, explain(error), 'error');
  } finally {
    button.disabled = false;
  }
}

function offerExports() {
  $('exports').replaceChildren(...EXPORTS.map((entry) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: t(`organize.export.${entry.key}`) });
    button.dataset.format = entry.key;
    button.addEventListener('click', () => save(button, entry));
    return button;
  }));
}

/** The event's name and dates at the top of the page, and in its title. */
function showHeading() {
  document.title = t('organize.documentTitle', { event: event.name });
  $('event-name').textContent = event.name;
  $('event-dates').textContent = `${when(event.startsAt)} – ${when(event.endsAt)} (${event.timeZone.replaceAll('_', ' ')})`;
}

async function start() {
  localize();
  sayWaits(status);
  if (!session.key) return refuse(t('organize.noProfile'));
  let etag = null;
  try {
    const response = await call(path(), { auth: null });
    event = await response.json();
    etag = response.headers.get('ETag');
  } catch (error) {
    return refuse(error instanceof ApiError && error.status === 404 ? t('organize.noSuchEvent', { slug }) : explain(error));
  }
  showHeading();
  const gone = () => {
    clearInterval(following);
    refuse(t('organize.purged', { event: event.name }));
    // The report stays: made from what the record kept.
    const report = $('purged-report');
    report.hidden = false;
    report.onclick = () => save(report, EXPORTS.find(({ key }) => key === 'report'));
    return showRecord(path).catch(() => {});
  };
  try {
    const mine = await membership(event.id);
    if (mine?.role !== 'organizer') return refuse(t('organize.notOrganizer', { event: event.name }));
    if (event.purgedAt) return gone();
    $('organizer').hidden = false;
    if (location.hash === '#created') {
      say(status, t('organize.created', { event: event.name }), 'success');
      history.replaceState(null, '', location.pathname);
    }
    for (const paper of ['a4', 'letter']) $(`poster-${paper}`).href = path(`/poster?paper=${paper}`);
    $('live-link').href = path('/live');
    $('copy-code').addEventListener('click', () => copy($('join-code').textContent, t('organize.joinCode')));
    $('copy-link').addEventListener('click', () => copy($('join-link').href, t('organize.joinLink')));
    confirmBox('rotate', { act: rotate });
    $('open-live').addEventListener('click', () => openScreen(false));
    $('open-wall').addEventListener('click', () => openScreen(true));
    $('revoke-all').addEventListener('click', () => revokeLinks(null, $('revoke-all')));
    offerExports();
    $('badges').replaceChildren(...sheetButtons(event, status));
    const coOrganizers = initCoOrganizers({
      event, path, when, copy, status,
      steppedDown: () => {
        clearInterval(following);
        refuse(t('organize.steppedDown', { event: event.name }));
      },
    });
    const purge = initPurge({ current: () => event, path, when, status, purged: gone });
    const showEvent = initEventEdit({
      path, status,
      changed: (now) => {
        event = now;
        showHeading();
        // A later end lets the links live longer: their Extend buttons show at once.
        Promise.all([purge(), listLinks()]).catch(() => {});
      },
    });
    showEvent(event, etag);
    await Promise.all([showCode(), listLinks(), coOrganizers(), countBadges(), purge(), showWhoCame()]);
    // Other organizers change the event too: the page follows the code as the walls do, and who
    // came, the co-organizers, invitations and links every 30 s and whenever the page comes back into view.
    const others = () => Promise.all([showWhoCame(), coOrganizers(), listLinks()]).catch(() => {});
    let polls = 0;
    following = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      showCode().catch(() => {});
      polls += 1;
      if (polls % FIGURES_EVERY === 0) others();
    }, CODE_EVERY_MS);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible' && !$('organizer').hidden) others(); });
  } catch (error) {
    say(status, explain(error), 'error');
  }
}

start();
