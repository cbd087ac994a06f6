// `/events/{slug}/live`: an event's constellation as it grows, for its organizers. The picture,
// the summary and the growth chart load from the API; new connections arrive through the
// event's stream (Server-Sent Events) and are drawn at once, then the warm-started layout is
// fetched again (at most every 3 s) and positions glide to it; the summary and growth follow
// every 10 s (or 4× what they cost the server, for large events). `?wall`: full screen for a
// projector, pseudonyms only, with the event's join code as a QR code.
//
// Credentials: a view token from the link `constellation event open SLUG` prints
// (`#view=TOKEN&code=XXXX-XXXX`, kept for this tab only), else this browser's organizer key.
import { json, call, session, explain, say, ApiError } from './api.js';
import { GraphView } from './graph-view.js';
import { EventStream } from './sse.js';
import { drawGrowth } from './growth-chart.js';

const $ = (id) => document.getElementById(id);
const slug = decodeURIComponent(location.pathname.split('/')[2] || '');
const wall = new URLSearchParams(location.search).has('wall');
const VIEW = `constellation.view.${slug}`;
const CODE = `constellation.joinCode.${slug}`;
/** The label the server gives a person who did not choose to be named. */
const PSEUDONYM = /^Attendee [A-Z2-7]{6}$/;
const NETWORK_EVERY_MS = 3000;
const INSIGHTS_EVERY_MS = 10_000;
const GLIDE_MS = 900;

const status = $('status');
let event = null;
let stream = null;
let stopped = false;
let helloSeen = false;
let networkAsked = false;
let problemShown = false;
/** Connections drawn from the stream that no fetched picture has shown yet, by pair. */
const unconfirmed = new Map();

// On the wall, the title and counts lie over the top of the picture and the join code over a corner.
const view = new GraphView($('network'), { onSelect: describe, padding: wall ? 140 : 20 });

/** The pseudonym the server would show for node `id` (`p` + base32): never a name. */
function pseudonym(id) {
  return `Attendee ${id.slice(1, 7).toUpperCase()}`;
}

/** A node as this page shows it: on the wall, by pseudonym only. */
function face(node) {
  return wall ? { ...node, label: pseudonym(node.id) } : node;
}

/** Takes the view token and join code from the fragment into this tab's storage, and out of the address bar. */
function readFragment() {
  if (!location.hash) return;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('view')) sessionStorage.setItem(VIEW, fragment.get('view'));
  if (fragment.get('code')) sessionStorage.setItem(CODE, fragment.get('code'));
  history.replaceState(null, '', location.pathname + location.search);
}

function credential() {
  return sessionStorage.getItem(VIEW) || session.key;
}

/** What to say about an error that stops the page (401, 403, 404), in this page's terms. */
function explainStop(error) {
  const usingView = Boolean(sessionStorage.getItem(VIEW));
  if (error.code === 'view_token_expired') return `This view link has expired. Run \`constellation event open ${slug}\` for a fresh one.`;
  if (error.status === 401) {
    return usingView ? `This view link is not valid here. Run \`constellation event open ${slug}\` for a fresh one.`
      : 'This browser\'s key is no longer valid. Open the link `constellation event open` prints.';
  }
  if (error.code === 'view_token_wrong_event') return `This view link is for another event, not "${slug}".`;
  if (error.code === 'not_an_organizer') return 'Only the event\'s organizers can watch it live, and this browser\'s profile is not one of them.';
  if (error.status === 404) return `There is no event called "${slug}".`;
  return explain(error);
}

/** When to try again after `error`: soon when the server said so (429), else in a few seconds. */
function retryDelay(error) {
  return error instanceof ApiError && error.status === 429 ? 1500 : 5000;
}

/** Shows `error`; true if the page cannot go on (credentials or event refused). */
function report(error) {
  // Busy with this credential's other graph requests: retried quietly.
  if (error instanceof ApiError && error.code === 'too_many_graph_requests') return false;
  if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
    stop();
    if (error.code === 'view_token_expired') sessionStorage.removeItem(VIEW);
    say(status, explainStop(error), 'error');
    setState('stopped', 'Not live');
    return true;
  }
  // No answer (offline, cut, silent): keep the picture. A problem (busy, rate limited): say which.
  say(status, error instanceof ApiError ? explain(error) : 'Offline: showing the last picture, reconnecting…', 'error');
  problemShown = true;
  return false;
}

function clearProblem() {
  if (problemShown) { say(status, ''); problemShown = false; }
}

function stop() {
  stopped = true;
  stream?.stop();
}

function setState(state, text) {
  const element = $('live-state');
  element.dataset.state = state;
  element.textContent = text;
}

function showCount() {
  const count = $('live-count');
  const nodes = view.nodes.length; const edges = view.edgeCount;
  count.dataset.nodes = nodes;
  count.dataset.edges = edges;
  count.textContent = `${nodes.toLocaleString()} ${nodes === 1 ? 'person' : 'people'}, ${edges.toLocaleString()} connection${edges === 1 ? '' : 's'}`;
  $('network').setAttribute('aria-label', `The event's constellation: ${count.textContent}`);
}

/**
 * A lane runs its tasks one at a time. Graph requests go through two (the picture, the insights):
 * the server lets one credential run only two at once (429 `too_many_graph_requests`), and a slow
 * summary must not hold the picture back.
 */
function lane() {
  let last = Promise.resolve();
  return (task) => {
    const run = last.then(task, task);
    last = run.catch(() => {});
    return run;
  };
}
const pictureLane = lane();
const insightsLane = lane();

/** Calls `task` at most every `everyMs()`; a call while it runs makes it run once more afterwards. */
function throttled(task, everyMs) {
  let last = -Infinity; let timer = null; let running = false; let again = false;
  const schedule = () => {
    if (stopped) return;
    if (running) { again = true; return; }
    if (timer) return;
    timer = setTimeout(async () => {
      timer = null; running = true; last = performance.now();
      try { await task(); } finally {
        running = false;
        if (again) { again = false; schedule(); }
      }
    }, Math.max(0, last + everyMs() - performance.now()));
  };
  return schedule;
}

async function loadNetwork() {
  networkAsked = true;
  try {
    const network = await pictureLane(() => json(`/events/${encodeURIComponent(slug)}/network`, { auth: credential() }));
    const first = view.nodes.length === 0 && view.edgeCount === 0;
    view.setGraph({ nodes: network.nodes.map(face), edges: network.edges }, { glideMs: first ? 0 : GLIDE_MS });
    for (const [key, pair] of unconfirmed) {
      // Shown by this picture: confirmed. Not yet in it (made while it was computed): drawn again.
      if (!view.addEdge(pair.source, pair.target)) unconfirmed.delete(key);
    }
    showCount();
    clearProblem();
    if (first) markFirstPicture();
  } catch (error) {
    if (!report(error)) setTimeout(scheduleNetwork, retryDelay(error));
  }
}

async function loadInsights() {
  if (wall) return;
  const started = performance.now();
  try {
    const bucket = $('growth-bucket').value;
    const summary = await insightsLane(() => json(`/events/${encodeURIComponent(slug)}/summary`, { auth: credential() }));
    const growth = await insightsLane(() => json(`/events/${encodeURIComponent(slug)}/growth?bucket=${bucket}`, { auth: credential() }));
    showSummary(summary);
    $('growth-detail').textContent = drawGrowth($('growth'), growth.buckets, { timeZone: event.timeZone });
    insightsCost = performance.now() - started;
  } catch (error) {
    if (!report(error)) setTimeout(scheduleInsights, retryDelay(error));
  }
}

/** What the last summary and growth cost the server, in ms: a large event's statistics take seconds. */
let insightsCost = 0;
const scheduleNetwork = throttled(loadNetwork, () => NETWORK_EVERY_MS);
// The server's graph work is shared with the picture: the insights take at most a quarter of it.
const scheduleInsights = throttled(loadInsights, () => Math.max(INSIGHTS_EVERY_MS, 4 * insightsCost));

function showSummary(summary) {
  const number = (n) => n.toLocaleString();
  const peak = summary.peakHour
    ? `${new Date(summary.peakHour.start).toLocaleString([], { timeZone: event.timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit' })} (${number(summary.peakHour.newConnections)} new)`
    : '—';
  const rows = [
    ['People connected', number(summary.people)],
    ['Connections', number(summary.connections)],
    ['Attendees', number(summary.attendees)],
    ['Share connected', `${Math.round(summary.connectedShare * 100)}%`],
    ['Communities', `${number(summary.communities)} (modularity ${summary.modularity.toFixed(2)})`],
    ['Largest group', number(summary.largestComponent)],
    ['Busiest hour', peak],
  ];
  $('summary').replaceChildren(...rows.flatMap(([term, value]) => [
    Object.assign(document.createElement('dt'), { textContent: term }),
    Object.assign(document.createElement('dd'), { textContent: value }),
  ]));
  const items = summary.topByDegree.map((person) => {
    const item = document.createElement('li');
    item.textContent = `${person.name} — ${number(person.degree)} connection${person.degree === 1 ? '' : 's'}`;
    return item;
  });
  $('connectors').replaceChildren(...(items.length ? items : [Object.assign(document.createElement('li'), { textContent: 'Nobody yet' })]));
}

function describe(node) {
  const detail = $('node-detail');
  if (!node) { detail.textContent = ''; return; }
  const degree = node.degree || 0;
  const community = node.community == null ? '' : `, community ${node.community + 1}`;
  detail.textContent = `${node.label}: ${degree} connection${degree === 1 ? '' : 's'}${community}`;
}

/** A new connection from the stream: drawn at once, the layout refetched soon. */
function connected(data) {
  const pair = { source: face(data.source), target: face(data.target) };
  unconfirmed.set(data.source.id < data.target.id ? `${data.source.id} ${data.target.id}` : `${data.target.id} ${data.source.id}`, pair);
  if (view.addEdge(pair.source, pair.target)) showCount();
  scheduleNetwork();
  scheduleInsights();
}

function onEvent({ type, data }) {
  let payload;
  try { payload = JSON.parse(data); } catch { return; }
  if (type === 'connection') {
    connected(payload);
  } else if (type === 'hello') {
    // Resume after this point if the stream is cut before any connection arrives.
    if (!stream.lastEventId && payload.seq != null) stream.lastEventId = String(payload.seq);
    // A picture asked for before the stream opened may miss what happened in between.
    if (!helloSeen && networkAsked) scheduleNetwork();
    helloSeen = true;
  } else if (type === 'changed') {
    unconfirmed.clear();
    scheduleNetwork();
    scheduleInsights();
  }
}

function onState(state, error) {
  if (state === 'open') {
    setState('live', 'Live');
    clearProblem();
  } else if (state === 'reconnecting') {
    setState('reconnecting', 'Reconnecting…');
    if (error) report(error);
  } else if (error.status === 404) {
    // The event exists (its picture loaded): this server has no stream.
    setState('stopped', 'Live updates unavailable: reload to update');
  } else {
    report(error);
  }
}

let pictured;
const firstPicture = new Promise((resolve) => { pictured = resolve; });

/** Records when the first complete picture was drawn (the frame after the picture was given). */
function markFirstPicture() {
  requestAnimationFrame(() => {
    window.constellationLive.firstPictureMs = performance.now();
    pictured();
  });
}

async function showJoinCode() {
  const code = sessionStorage.getItem(CODE);
  if (!code) return;
  $('join').hidden = false;
  try {
    const response = await call(`/events/${encodeURIComponent(event.id)}/join-qr?code=${encodeURIComponent(code)}`, { auth: credential() });
    $('join-qr').src = URL.createObjectURL(await response.blob());
    $('join-caption').textContent = `Scan to join ${event.name}`;
    $('join-code').textContent = `${event.slug} · ${code.toUpperCase()}`;
  } catch (error) {
    $('join-caption').textContent = explain(error);
  }
}

function search() {
  const query = $('search').value.trim().toLowerCase();
  const results = $('search-results');
  const found = [];
  if (query) {
    for (const node of view.nodes) {
      if (!PSEUDONYM.test(node.label) && node.label.toLowerCase().includes(query)) found.push(node);
      if (found.length === 8) break;
    }
  }
  results.replaceChildren(...found.map((node) => {
    const item = document.createElement('li');
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: node.label });
    button.addEventListener('click', () => choose(node));
    item.append(button);
    return item;
  }));
  if (query && !found.length) results.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'No named attendee matches' }));
  results.hidden = !query;
  return found;
}

function choose(node) {
  view.focus(node.id, { center: true });
  describe(node);
  $('search-results').hidden = true;
}

function listen() {
  $('zoom-in').addEventListener('click', () => view.zoom(1.5));
  $('zoom-out').addEventListener('click', () => view.zoom(1 / 1.5));
  $('fit').addEventListener('click', () => view.fit());
  $('search').addEventListener('input', search);
  $('search').addEventListener('keydown', (key) => {
    if (key.key === 'Enter') { const [first] = search(); if (first) choose(first); }
    if (key.key === 'Escape') { $('search').value = ''; search(); view.focus(null); }
  });
  $('growth-bucket').addEventListener('change', loadInsights);
  // The projector's screen: a double click fills it (a browser allows that only after a gesture).
  if (wall) document.addEventListener('dblclick', () => document.documentElement.requestFullscreen?.().catch(() => {}));
}

/** The bucket that gives the event's span a readable number of bars. */
function bucketFor(startsAt, endsAt) {
  const hours = (new Date(endsAt) - new Date(startsAt)) / 3_600_000;
  if (hours <= 3) return '5m';
  if (hours <= 12) return '15m';
  if (hours <= 96) return '1h';
  return '1d';
}

async function start() {
  document.body.classList.toggle('wall', wall);
  readFragment();
  listen();
  if (!credential()) {
    say(status, `No credential: open the link \`constellation event open ${slug}\` prints, or this page in the browser where you use Constellation as the event's organizer.`, 'error');
    setState('stopped', 'Not live');
    return;
  }
  // The picture by the event's slug, while the event itself (name, zone, id) is read.
  loadNetwork();
  while (!event) {
    try {
      event = await json(`/events/${encodeURIComponent(slug)}`, { auth: null });
    } catch (error) {
      if (report(error)) return;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
  $('event-name').textContent = event.name;
  if (stopped) return; // the picture was refused (credentials): nothing to stream
  document.title = `${event.name} · live · Constellation`;
  $('growth-bucket').value = bucketFor(event.startsAt, event.endsAt);
  stream = new EventStream(`/v1/events/${encodeURIComponent(event.id)}/stream`, { auth: credential, onEvent, onState });
  stream.start();
  if (wall) showJoinCode();
  // After the first picture: the summary's statistics would hold the server's graph work up.
  await firstPicture;
  loadInsights();
}

/** For tests and benchmarks: what is drawn, and what drawing it cost. */
window.constellationLive = {
  frameMs: () => view.lastFrameMs,
  nodes: () => view.nodes.length,
  edges: () => view.edgeCount,
  firstPictureMs: null,
  view,
};

start();
