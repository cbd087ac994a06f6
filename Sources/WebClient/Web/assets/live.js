// `/events/{slug}/live`: an event's constellation as it grows, for its organizers. The picture,
// the summary and the growth chart load from the API; new connections arrive through the
// event's stream (Server-Sent Events) and are drawn at once, then the warm-started layout is
// fetched again (at most every 3 s) and positions glide to it; the summary and growth follow
// every 10 s (or 4× what they cost the server, for large events). `?wall`: full screen for a
// projector, naming only those who chose the wall, with the event's join code as a QR code.
//
// Credentials: a view token from the link `constellation event open SLUG` prints
// (`#view=TOKEN&code=XXXX-XXXX`, kept for this tab only), else this browser's organizer key.
import { json, call, session, explain, say, ApiError } from './api.js';
import { GraphView } from './graph-view.js';
import { EventStream } from './sse.js';
import { drawGrowth } from './growth-chart.js';
import { StableCommunities } from './stable-communities.js';
import { describePicture } from './picture-text.js';
import { t, number, language, localize, addMessages } from './i18n.js';

await addMessages('live');

const $ = (id) => document.getElementById(id);
const NETWORK_EVERY_MS = 3000;
/** How long the server shares an event's picture and summary among its screens (CONSTELLATION_PICTURE_INTERVAL_MS), with a margin. */
const SHARED_MS = 2500;
const INSIGHTS_EVERY_MS = 10_000;
/** How often a wall asks for the join code, to follow a rotation. */
const JOIN_CODE_MS = 3000;
const IDLE_CHECK_MS = 30_000;
const GLIDE_MS = 900;
/** How long after a grown picture of a quiet graph the page asks again: the server settles such a
 * picture after ten seconds (checks it against a fresh layout, and redraws it if it falls short). */
const SETTLE_MS = 11_000;
/** How many times it asks for the settled picture: 11 s after the last grown one, then 6, 12, 24 and 48 s later. */
const SETTLE_ASKS = 5;

/** The pseudonym the server would show for node `id` (`p` + base32), in this page's language: never a name. */
function pseudonym(id) {
  return t('live.pseudonym', { code: id.slice(1, 7).toUpperCase() });
}


/** When to try again after `error`: soon when the server said so (429), else in a few seconds. */
function retryDelay(error) {
  return error instanceof ApiError && error.status === 429 ? 1500 : 5000;
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

/**
 * Calls `task` at most every `everyMs()`; a call while it runs makes it run once more afterwards.
 * Nothing is scheduled once `stopped()`.
 */
function throttled(task, everyMs, stopped) {
  let last = -Infinity; let timer = null; let running = false; let again = false;
  const schedule = () => {
    if (stopped()) return;
    if (running) { again = true; return; }
    if (timer) return;
    timer = setTimeout(async () => {
      timer = null;
      if (stopped()) return;
      running = true; last = performance.now();
      try { await task(); } finally {
        running = false;
        if (again) { again = false; schedule(); }
      }
    }, Math.max(0, last + everyMs() - performance.now()));
  };
  return schedule;
}

/** The bucket that gives the event's span a readable number of bars. */
function bucketFor(startsAt, endsAt) {
  const hours = (new Date(endsAt) - new Date(startsAt)) / 3_600_000;
  if (hours <= 3) return '5m';
  if (hours <= 12) return '15m';
  if (hours <= 96) return '1h';
  return '1d';
}

/** The page: everything it knows and has under way is here, made once when the page loads. */
class LivePage {
  constructor() {
    this.slug = decodeURIComponent(location.pathname.split('/')[2] || '');
    this.wall = new URLSearchParams(location.search).has('wall');
    /** This tab's storage keys for the view token and the join code. */
    this.viewKey = `constellation.view.${this.slug}`;
    this.codeKey = `constellation.joinCode.${this.slug}`;
    this.status = $('status');
    this.event = null;
    this.stream = null;
    /** Community numbers (colours) kept from one picture to the next. */
    this.communities = new StableCommunities();
    this.stopped = false;
    this.helloSeen = false;
    this.networkAsked = false;
    this.problemShown = false;
    /** Connections drawn from the stream that no fetched picture has shown yet, by pair. */
    this.unconfirmed = new Map();
    /** Whether the last picture placed people as an earlier graph did (`meta.behind`), or a change came since. */
    this.pictureBehind = true;
    /** How many `changed` events came: a picture asked for before one is behind, whatever it says. */
    this.changes = 0;
    /** Whether the page asked again for the settled picture since the last pair or change came. */
    this.settleAsks = 0;
    this.lastConnectionAt = -Infinity;
    // On the wall, the title and counts lie over the top of the picture, the join code and the fit
    // control over corners: the picture keeps clear of them, drawn large enough for the back of a room.
    this.view = new GraphView($('network'), {
      onSelect: (node) => this.describe(node),
      padding: this.wall ? 28 : 20,
      overlays: this.wall
        ? ['.live-header', '#join', '#fit', '#join-controls', '#node-detail', '#status'].map((selector) => document.querySelector(selector))
        : [],
      magnify: this.wall ? 1.6 : 1,
    });
    if (this.wall) {
      this.followScreen();
      addEventListener('resize', () => this.followScreen());
    }
    this.pictureLane = lane();
    this.insightsLane = lane();
    /** What the last summary and growth cost the server, in ms: a large event's statistics take seconds. */
    this.insightsCost = 0;
    const stopped = () => this.stopped;
    this.scheduleNetwork = throttled(() => this.loadNetwork(), () => NETWORK_EVERY_MS, stopped);
    // The server's graph work is shared with the picture: the insights take at most a quarter of it.
    this.scheduleInsights = throttled(() => this.loadInsights(), () => Math.max(INSIGHTS_EVERY_MS, 4 * this.insightsCost), stopped);
    this.firstPicture = new Promise((resolve) => { this.pictured = resolve; });
    const view = this.view;
    const live = this;
    /** For tests and benchmarks: what is drawn, and what drawing it cost. */
    window.constellationLive = {
      frameMs: () => view.lastFrameMs,
      nodes: () => view.nodes.length,
      edges: () => view.edgeCount,
      firstPictureMs: null,
      /** Whether the picture drawn places every pair drawn as the graph now is: the last picture
       * was not `meta.behind`, no streamed pair waits for a picture, and no change came since. */
      get pictureCurrent() { return live.networkShown && !live.pictureBehind && live.unconfirmed.size === 0; },
      view,
    };
  }

  /** A node (or a person of the stream) as this page shows it: a name as the server gave it; a
   * pseudonym (the server says which, `pseudonymous`) in this page's language, or on the wall not at
   * all (`Attendee TK2G5Z` means nothing to the room), kept for the node's description. */
  face(node) {
    const named = node.pseudonymous === false;
    if (named) return { ...node, named, title: node.label };
    // The room reads no pseudonym, not even in a node's description.
    if (this.wall) return { ...node, named, label: '', title: t('live.someone') };
    return { ...node, named, label: pseudonym(node.id), title: pseudonym(node.id) };
  }

  /** Takes the view token and join code from the fragment into this tab's storage, and out of the address bar. */
  readFragment() {
    if (!location.hash) return;
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (fragment.get('view')) sessionStorage.setItem(this.viewKey, fragment.get('view'));
    if (fragment.get('code')) sessionStorage.setItem(this.codeKey, fragment.get('code'));
    history.replaceState(null, '', location.pathname + location.search);
  }

  /** On the wall, the query that asks for the room's view (names only of those who chose the wall), whatever the credential. */
  asWall() {
    return this.wall ? '?view=wall' : '';
  }

  credential() {
    return sessionStorage.getItem(this.viewKey) || session.key;
  }

  /** What to say about an error that stops the page (401, 403, 404, a purge's 410), in this page's terms. */
  explainStop(error) {
    const slug = this.slug;
    const usingView = Boolean(sessionStorage.getItem(this.viewKey));
    if (error.code === 'view_token_expired') return t('live.viewExpired', { slug });
    if (error.code === 'view_token_revoked') return t('live.viewRevoked');
    if (error.code === 'event_purged') return t('live.purged');
    if (error.status === 401) return usingView ? t('live.viewInvalid', { slug }) : t('live.keyInvalid');
    if (error.code === 'view_token_wrong_event') return t('live.otherEvent', { slug });
    if (error.code === 'not_an_organizer') return t('live.notOrganizer');
    if (error.status === 404) return t('live.noEvent', { slug });
    return explain(error);
  }

  /** Shows `error`; true if the page cannot go on (credentials or event refused). */
  report(error) {
    // Busy with this credential's other graph requests: retried quietly.
    if (error instanceof ApiError && error.code === 'too_many_graph_requests') return false;
    if (error instanceof ApiError && ([401, 403, 404].includes(error.status) || error.code === 'event_purged')) {
      if (error.code === 'view_token_expired') sessionStorage.removeItem(this.viewKey);
      this.end(this.explainStop(error), t('live.notLive'));
      return true;
    }
    // No answer (offline, cut, silent): keep the picture. A problem (busy, rate limited): say which.
    say(this.status, error instanceof ApiError ? explain(error) : t('live.offline'), 'error');
    this.problemShown = true;
    return false;
  }

  clearProblem() {
    if (this.problemShown) { say(this.status, ''); this.problemShown = false; }
  }

  stop() {
    this.stopped = true;
    this.stream?.stop();
    clearInterval(this.idleCheck);
  }

  /** Stops the page for good, clearing everything it may no longer show (the picture, its
   * labels and words, the figures, the growth chart, the join code), and says why. */
  end(why, state) {
    this.stop();
    this.view.setGraph({ nodes: [], edges: [] }, { glideMs: 0 });
    this.unconfirmed.clear();
    this.describe(null);
    $('network-text').textContent = '';
    $('summary').replaceChildren();
    $('connectors').replaceChildren();
    $('growth').replaceChildren();
    $('growth-detail').textContent = '';
    $('growth-value').textContent = '';
    $('search-results').replaceChildren();
    $('join').hidden = true;
    $('join-controls').hidden = true;
    const image = $('join-qr');
    if (image.src.startsWith('blob:')) URL.revokeObjectURL(image.src);
    image.removeAttribute('src');
    $('join-code').textContent = '';
    $('join').removeAttribute('data-code');
    this.showCount();
    say(this.status, why, 'error');
    this.setState('stopped', state);
  }

  setState(state, text) {
    const element = $('live-state');
    element.dataset.state = state;
    element.textContent = text;
  }

  showCount() {
    const count = $('live-count');
    const nodes = this.view.nodes.length; const edges = this.view.edgeCount;
    count.dataset.nodes = nodes;
    count.dataset.edges = edges;
    count.textContent = t('live.count', { people: t('count.people', { count: nodes }), connections: t('count.connections', { count: edges }) });
    // Before the first connection, the picture says so; a wall with its code shown invites the first scan.
    const empty = $('empty-picture');
    empty.hidden = nodes > 0 || !this.networkShown;
    empty.dataset.i18n = this.wall && !$('join').hidden ? 'live.firstScan' : 'live.nobodyConnected';
    empty.textContent = t(empty.dataset.i18n);
    $('network').setAttribute('aria-label', t('live.networkLabel', { count: count.textContent }));
    // Words for the picture, at most once a second (a busy event changes it many times a second).
    this.describing ??= setTimeout(() => {
      this.describing = null;
      $('network-text').textContent = describePicture(this.view.nodes, this.view.edgeCount);
    }, 1000);
  }

  async loadNetwork() {
    this.networkAsked = true;
    const view = this.view;
    const changes = this.changes;
    try {
      const network = await this.pictureLane(() => json(`/events/${encodeURIComponent(this.slug)}/network${this.asWall()}`, { auth: this.credential() }));
      if (this.stopped) return; // ended while it was asked for: nothing more is drawn
      const first = view.nodes.length === 0 && view.edgeCount === 0;
      const nodes = this.communities.relabel(network.nodes).map((node) => this.face(node));
      view.setGraph({ nodes, edges: network.edges }, { glideMs: first ? 0 : GLIDE_MS });
      this.networkShown = true;
      for (const [key, pair] of this.unconfirmed) {
        // Shown by this picture: confirmed. Not yet in it (made while it was computed): drawn again.
        if (!view.addEdge(pair.source, pair.target)) this.unconfirmed.delete(key);
      }
      // A picture the server shared from before the last pairs (it computes one an interval for
      // every screen): the next one will have them. A picture that draws every pair may still
      // place people as an earlier graph did (`meta.behind`: the server draws today's pairs on the
      // last picture while it makes the next): the next one places them. Without asking again, a
      // wall kept the picture of a burst's middle until the next scan (six groups drawn mixed: 23%
      // of each person's five nearest in their group, 98% in the picture made after it).
      // A pair removed or re-dated while it was asked for: the answer may be of the graph before.
      this.pictureBehind = network.meta.behind || changes !== this.changes;
      if (this.unconfirmed.size || this.pictureBehind) this.scheduleNetwork();
      // A grown picture (`meta.warmStart`) of the graph as it is: once the room has been quiet a
      // while, the server settles it, and the page asks for it. An answer may be the picture the
      // server shares for its interval (up to a minute), so it asks a few times, ever less often.
      clearTimeout(this.settling);
      if (!this.unconfirmed.size && !this.pictureBehind && network.meta.warmStart && this.settleAsks < SETTLE_ASKS) {
        const asks = this.settleAsks;
        this.settling = setTimeout(() => { this.settleAsks = asks + 1; this.scheduleNetwork(); }, asks ? NETWORK_EVERY_MS * 2 ** asks : SETTLE_MS);
      }
      this.showCount();
      this.clearProblem();
      if (first) this.markFirstPicture();
    } catch (error) {
      if (!this.report(error)) setTimeout(this.scheduleNetwork, retryDelay(error));
    }
  }

  async loadInsights() {
    if (this.wall) return;
    const started = performance.now();
    try {
      const bucket = $('growth-bucket').value;
      const summary = await this.insightsLane(() => json(`/events/${encodeURIComponent(this.slug)}/summary`, { auth: this.credential() }));
      const growth = await this.insightsLane(() => json(`/events/${encodeURIComponent(this.slug)}/growth?bucket=${bucket}`, { auth: this.credential() }));
      if (this.stopped) return;
      this.showSummary(summary);
      $('growth-detail').textContent = drawGrowth($('growth'), growth.buckets, {
        timeZone: this.event.timeZone, announce: (text) => { $('growth-value').textContent = text; }, axis: $('growth-axis'),
      });
      this.insightsCost = performance.now() - started;
      // Asked for just after a connection, or counting fewer pairs than are drawn: the server may
      // have shared a summary from before them (while it makes the next, it answers with the last).
      if (started - this.lastConnectionAt < SHARED_MS || summary.connections < this.view.edgeCount) this.scheduleInsights();
    } catch (error) {
      if (!this.report(error)) setTimeout(this.scheduleInsights, retryDelay(error));
    }
  }

  showSummary(summary) {
    const peak = summary.peakHour ? t('live.peak', {
      time: new Date(summary.peakHour.start).toLocaleString(language, { timeZone: this.event.timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit' }),
      new: summary.peakHour.newConnections,
    }) : '—';
    const modularity = number(summary.modularity, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const rows = [
      [t('live.peopleConnected'), number(summary.people)],
      [t('live.connections'), number(summary.connections)],
      [t('live.attendees'), number(summary.attendees)],
      [t('live.shareConnected'), number(summary.connectedShare, { style: 'percent' })],
      [t('live.communities'), t('live.communitiesValue', { count: summary.communities, modularity })],
      [t('live.largestGroup'), number(summary.largestComponent)],
      [t('live.busiestHour'), peak],
    ];
    $('summary').replaceChildren(...rows.flatMap(([term, value]) => [
      Object.assign(document.createElement('dt'), { textContent: term }),
      Object.assign(document.createElement('dd'), { textContent: value }),
    ]));
    const items = summary.topByDegree.map((person) => {
      const item = document.createElement('li');
      // A connector not named carries its pseudonym (its six symbols last), told by `named`.
      const name = person.named ? person.name : t('live.pseudonym', { code: person.name.slice(-6) });
      item.textContent = t('live.connector', { name, count: person.degree });
      return item;
    });
    $('connectors').replaceChildren(...(items.length ? items : [Object.assign(document.createElement('li'), { textContent: t('live.nobodyYet') })]));
  }

  describe(node) {
    const detail = $('node-detail');
    if (!node) { detail.textContent = ''; return; }
    const details = { name: node.title ?? node.label, count: node.degree || 0, community: (node.community ?? 0) + 1 };
    detail.textContent = t(node.community == null ? 'node.detail' : 'node.detailInCommunity', details);
  }

  /** A new connection from the stream: drawn at once, the layout refetched soon. */
  connected(data) {
    this.lastConnectionAt = performance.now();
    clearTimeout(this.settling);
    this.settleAsks = 0;
    const pair = { source: this.face(data.source), target: this.face(data.target) };
    this.unconfirmed.set(data.source.id < data.target.id ? `${data.source.id} ${data.target.id}` : `${data.target.id} ${data.source.id}`, pair);
    if (this.view.addEdge(pair.source, pair.target)) this.showCount();
    this.scheduleNetwork();
    this.scheduleInsights();
  }

  onEvent({ type, data }) {
    let payload;
    try { payload = JSON.parse(data); } catch { return; }
    if (type === 'connection') {
      this.connected(payload);
    } else if (type === 'hello') {
      // Resume after this point if the stream is cut before any connection arrives.
      if (!this.stream.lastEventId && payload.seq != null) this.stream.lastEventId = String(payload.seq);
      // A picture asked for before the stream opened may miss what happened in between.
      if (!this.helloSeen && this.networkAsked) this.scheduleNetwork();
      this.helloSeen = true;
    } else if (type === 'changed') {
      this.changes += 1;
      clearTimeout(this.settling);
      this.settleAsks = 0;
      this.pictureBehind = true;
      this.unconfirmed.clear();
      this.scheduleNetwork();
      this.scheduleInsights();
    }
  }

  onState(state, error) {
    if (state === 'open') {
      this.setState('live', t('live.live'));
      this.clearProblem();
    } else if (state === 'reconnecting') {
      this.setState('reconnecting', t('live.reconnecting'));
      if (error) this.report(error);
    } else if (error.status === 404) {
      // The event exists (its picture loaded): this server has no stream.
      this.setState('stopped', t('live.noStream'));
    } else {
      this.report(error);
    }
  }

  /** Records when the first complete picture was drawn (the frame after the picture was given). */
  markFirstPicture() {
    requestAnimationFrame(() => {
      window.constellationLive.firstPictureMs = performance.now();
      this.pictured();
    });
  }

  /** On the wall, labels, nodes, edges and the margin follow the screen's height, as the CSS does
   * (1.6× a laptop's at 1080 lines, twice that at 2160). */
  followScreen() {
    const share = Math.min(4, Math.max(0.5, innerHeight / 1080));
    this.view.painter.magnify = 1.6 * share;
    this.view.transform.padding = 28 * share;
    this.view.request();
  }

  /** The join code's two switches on the wall: large for the door rush, or tucked away. */
  initJoinControls() {
    const large = $('join-large');
    const hide = $('join-hide');
    $('join-controls').hidden = false;
    large.addEventListener('click', () => {
      const door = $('join').classList.toggle('door');
      large.setAttribute('aria-pressed', String(door));
    });
    hide.addEventListener('click', () => {
      const hidden = !$('join').hidden;
      $('join').hidden = hidden;
      hide.setAttribute('aria-pressed', String(hidden));
      hide.textContent = t(hidden ? 'live.joinShow' : 'live.joinHide');
      large.disabled = hidden;
      this.showCount();
    });
  }

  /** The wall's join code: the event's current one, asked again every few seconds so that a
   * rotation shows by itself (the QR code is drawn again only when the code changed). An event made
   * before codes could be shown has none to give (409): then the code the link carried, if any. */
  async showJoinCode() {
    const event = this.event;
    const given = sessionStorage.getItem(this.codeKey);
    let shown = null;
    const show = async () => {
      // An event whose end has come joins nobody: no code to scan. Once the offline grace after it
      // has passed too (scans made before the end may still arrive until then), the wall ends.
      if (Date.now() >= Date.parse(this.event.endsAt) + await this.offlineGrace()) {
        this.end(t('live.ended'), t('live.endedState'));
        return;
      }
      if (Date.now() >= Date.parse(this.event.endsAt)) {
        $('join').hidden = true;
        $('join-controls').hidden = true;
        this.setState('ended', t('live.endedState'));
        return;
      }
      let code = null;
      try {
        code = (await json(`/events/${encodeURIComponent(event.id)}/join-code`, { auth: this.credential() })).joinCode;
        if (this.stopped) return;
      } catch (error) {
        // A live page's link opened as a wall reads no join code: the wall goes on without it.
        if (error instanceof ApiError && error.code === 'view_token_read_only') return;
        // A revoked or expired link, or a purged event, stops the page here too, within a poll on a wall.
        if (error instanceof ApiError && ([401, 403, 404].includes(error.status) || error.code === 'event_purged')) {
          this.report(error);
          return;
        }
        if (!(error instanceof ApiError && error.code === 'join_code_unknown' && given)) {
          if (shown === null) $('join-caption').textContent = explain(error);
          return;
        }
        code = given.toUpperCase();
      }
      if (code === shown) return;
      let response;
      try {
        response = await call(`/events/${encodeURIComponent(event.id)}/join-qr?code=${encodeURIComponent(code)}`, { auth: this.credential() });
      } catch (error) {
        // The code the link carried is not the event's (any more): said, and not asked again until it changes.
        if (!(error instanceof ApiError && error.status === 400)) throw error;
        shown = code;
        $('join-caption').textContent = explain(error);
        return;
      }
      const image = $('join-qr');
      const previous = image.src;
      image.src = URL.createObjectURL(await response.blob());
      if (previous.startsWith('blob:')) URL.revokeObjectURL(previous);
      shown = code;
      if ($('join').hidden && !this.joinShown) {
        $('join').hidden = false;
        this.initJoinControls();
        this.showCount();
      }
      this.joinShown = true;
      $('join').dataset.code = code;
      $('join-caption').textContent = t('live.scanToJoinEvent', { event: this.event.name });
      $('join-code').textContent = `${this.event.slug} · ${code}`;
    };
    const again = async () => {
      if (this.stopped) return;
      try { await this.readEvent(); await show(); } catch { /* kept as it was: asked again in a moment */ }
      setTimeout(again, JOIN_CODE_MS);
    };
    await again();
  }

  /** The event as it is now (public: its name, dates and purge), read again by the wall's poll. */
  async readEvent() {
    this.event = await json(`/events/${encodeURIComponent(this.event.id)}`, { auth: null });
    $('event-name').textContent = this.event.name;
    document.title = t('live.documentTitle', { event: this.event.name });
    if (this.joinShown) $('join-caption').textContent = t('live.scanToJoinEvent', { event: this.event.name });
    if (this.event.purgedAt) this.report(new ApiError(410, { code: 'event_purged' }));
  }

  /** The server's offline grace in ms (asked once): how long after an event's end its scans still count. */
  offlineGrace() {
    this.grace ??= json('/keys', { auth: null }).then((keys) => keys.offlineGraceSeconds * 1000, () => 0);
    return this.grace;
  }

  search() {
    const query = $('search').value.trim().toLowerCase();
    const results = $('search-results');
    const found = [];
    if (query) {
      for (const node of this.view.nodes) {
        if (node.named && node.label.toLowerCase().includes(query)) found.push(node);
        if (found.length === 8) break;
      }
    }
    results.replaceChildren(...found.map((node) => {
      const item = document.createElement('li');
      const button = Object.assign(document.createElement('button'), { type: 'button', textContent: node.label });
      button.addEventListener('click', () => this.choose(node));
      item.append(button);
      return item;
    }));
    if (query && !found.length) results.replaceChildren(Object.assign(document.createElement('li'), { textContent: t('live.noMatch') }));
    results.hidden = !query;
    return found;
  }

  choose(node) {
    this.view.focus(node.id, { center: true });
    this.describe(node);
    $('search-results').hidden = true;
  }

  listen() {
    const view = this.view;
    $('zoom-in').addEventListener('click', () => view.zoom(1.5));
    $('zoom-out').addEventListener('click', () => view.zoom(1 / 1.5));
    $('fit').addEventListener('click', () => view.fit());
    $('search').addEventListener('input', () => this.search());
    $('search').addEventListener('keydown', (key) => {
      if (key.key === 'Enter') { const [first] = this.search(); if (first) this.choose(first); }
      if (key.key === 'Escape') { $('search').value = ''; this.search(); view.focus(null); }
    });
    $('growth-bucket').addEventListener('change', () => this.loadInsights());
    // The projector's screen: a double click fills it (a browser allows that only after a gesture).
    if (this.wall) document.addEventListener('dblclick', () => document.documentElement.requestFullscreen?.().catch(() => {}));
  }

  async start() {
    const slug = this.slug;
    document.body.classList.toggle('wall', this.wall);
    this.showCount();
    this.readFragment();
    this.listen();
    if (!this.credential()) {
      say(this.status, t('live.noCredential', { slug }), 'error');
      this.setState('stopped', t('live.notLive'));
      return;
    }
    // The picture by the event's slug, while the event itself (name, zone, id) is read.
    this.loadNetwork();
    while (!this.event) {
      try {
        this.event = await json(`/events/${encodeURIComponent(slug)}`, { auth: null });
      } catch (error) {
        if (this.report(error)) return;
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    }
    const event = this.event;
    $('event-name').textContent = event.name;
    if (this.stopped) return; // the picture was refused (credentials): nothing to stream
    document.title = t('live.documentTitle', { event: event.name });
    $('growth-bucket').value = bucketFor(event.startsAt, event.endsAt);
    this.stream = new EventStream(`/v1/events/${encodeURIComponent(event.id)}/stream${this.asWall()}`, {
      auth: () => this.credential(),
      onEvent: (message) => this.onEvent(message),
      onState: (state, error) => this.onState(state, error),
    });
    this.stream.start();
    if (this.wall) this.showJoinCode();
    // Idle, a live page still asks every 30 s, so that a revoked link or a purge clears it then.
    else this.idleCheck = setInterval(() => this.scheduleNetwork(), IDLE_CHECK_MS);
    // After the first picture: the summary's statistics would hold the server's graph work up.
    await this.firstPicture;
    this.loadInsights();
  }
}

localize();
new LivePage().start();
