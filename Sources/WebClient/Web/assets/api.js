// The Constellation API from the browser: the key this device keeps, JSON calls, and problems
// (RFC 9457, with a `code`) turned into errors that say what happened in plain words.
import { t, has, language } from './i18n.js';

const KEY = 'constellation.apiKey';
const PROFILE = 'constellation.profile';

/** The profile and API key this browser registered (kept in localStorage, never sent anywhere but this server). */
export const session = {
  get key() { return localStorage.getItem(KEY); },
  get profile() {
    try { return JSON.parse(localStorage.getItem(PROFILE)); } catch { return null; }
  },
  save(registered) {
    localStorage.setItem(KEY, registered.apiKey);
    localStorage.setItem(PROFILE, JSON.stringify(registered.profile));
  },
  remember(profile) { localStorage.setItem(PROFILE, JSON.stringify(profile)); },
  /** Forgets the key and profile (the server no longer knows the key), and tells `sessionEnds`. */
  forget() {
    localStorage.removeItem(KEY);
    localStorage.removeItem(PROFILE);
    sessionEnds.dispatchEvent(new Event('ended'));
  },
};

/** Told when the server no longer knows this browser's key (its device removed, its profile deleted): it is forgotten. */
export const sessionEnds = new EventTarget();

/** The server answered with a problem. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || `http_${status}`;
    this.detail = problem.detail;
    /** Each field's mistake, structured (`{pointer, rule, minimum?, maximum?, format?, …}`): said from the catalogs. */
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    /** Seconds the server asked to wait before trying again, if it did. */
    this.retryAfter = Number.isFinite(problem.retryAfter) ? problem.retryAfter : null;
  }
}

/** The server could not be reached (no network, or the request was cut). */
export class OfflineError extends Error {
  constructor() { super('offline'); }
}

/**
 * Told when a request waits because the server is busy or a limit was reached (`detail.seconds`),
 * so that the page can say so: a venue's crowd shares one address, and its limits may refuse a
 * moment's rush.
 */
export const waits = new EventTarget();

/** Refusals after which nothing was written, and the same request may go again after `Retry-After`. */
const WAITABLE = new Set(['rate_limited', 'database_busy', 'too_many_graph_requests', 'graph_work_busy']);
const MOST_WAITS = 5;

/**
 * Calls `/v1${path}` and returns the Response; a problem becomes an ApiError, no answer an OfflineError.
 * `body` is sent as JSON; `auth` is the bearer credential (the stored key unless given); `headers` adds others.
 * A refusal that says to come back (429 `rate_limited` or `too_many_graph_requests`, 503 `database_busy` or `graph_work_busy`, which write nothing) is
 * waited out and sent again, up to five times and two minutes a wait, told to `waits`.
 */
export async function call(path, options = {}) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await callOnce(path, options);
    } catch (error) {
      const seconds = error instanceof ApiError && WAITABLE.has(error.code) ? error.retryAfter : null;
      if (seconds == null || seconds > 120 || attempt > MOST_WAITS || options.signal?.aborted) throw error;
      waits.dispatchEvent(new CustomEvent('wait', { detail: { seconds } }));
      // A little jitter: a room refused at once does not come back at once.
      await new Promise((resolve) => { setTimeout(resolve, seconds * 1000 + Math.random() * 1000); });
    }
  }
}

/** Says on `element` that a request waits its turn, each time one does. */
export function sayWaits(element) {
  waits.addEventListener('wait', (event) => say(element, t('api.waiting', { seconds: event.detail.seconds })));
}

async function callOnce(path, { method = 'GET', body, auth = session.key, signal, headers: extra = {} } = {}) {
  const headers = { Accept: 'application/json', ...extra };
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(`/v1${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', signal,
    });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new OfflineError();
  }
  if (!response.ok) {
    const problem = await response.json().catch(() => ({ title: response.statusText }));
    const error = new ApiError(response.status, problem);
    if (error.code === 'invalid_credentials' && auth && auth === session.key) session.forget();
    throw error;
  }
  return response;
}

/**
 * Makes a profile (`{ displayName, headline }`) and keeps its key in this browser. `via` says what
 * brought this person (an event's join code, `{ event, joinCode }`, or the code being scanned,
 * `{ token }`): the server counts the registration against that event's or person's budget rather
 * than the venue's shared address, and a join code makes them an attendee too. Should `via` no
 * longer open the door (a rotated join code, an expired scan), the profile is made without it.
 */
export async function register(profile, via = null) {
  let registered;
  try {
    registered = await json('/profiles', { method: 'POST', auth: null, body: { ...profile, ...via } });
  } catch (error) {
    if (!via || !(error instanceof ApiError) || ![400, 401, 403, 404].includes(error.status)) throw error;
    registered = await json('/profiles', { method: 'POST', auth: null, body: profile });
  }
  session.save(registered);
  return registered;
}

/**
 * `register` from a join form (its `name` and, if it has one, `headline` fields), its button disabled meanwhile,
 * then `next` with the registration; a failure is said in `status`, except no network when
 * `offline` is given: it is called with the profile instead, to keep it for later.
 */
export async function registerFrom(form, status, next, via = null, offline = null) {
  const button = form.querySelector('button');
  button.disabled = true;
  const headline = form.headline?.value.trim();
  const profile = { displayName: form.name.value.trim(), headline: headline || undefined };
  try {
    await next(await register(profile, via));
  } catch (error) {
    if (offline && error instanceof OfflineError) offline(profile);
    else say(status, explain(error), 'error');
  } finally {
    button.disabled = false;
  }
}

/** `call`, then the JSON body. */
export async function json(path, options) {
  return (await call(path, options)).json();
}

/** Every item of the paged list `path`, page by page; `until` stops at the first it accepts. */
export async function everyItem(path, until) {
  const items = [];
  let cursor = '';
  do {
    const page = await json(`${path}?limit=200${cursor && `&cursor=${encodeURIComponent(cursor)}`}`);
    items.push(...page.items);
    if (until && page.items.some(until)) break;
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** Lists whose items a `too_long` counts. */
const LISTS = new Set(['entries', 'tags']);

/** A problem's field error (`errors[i]`) in this page's words, as a sentence of its own (said next to its
 * field); null if the catalogs lack its rule. */
export function fieldSentence(error) {
  const text = fieldMessage(error);
  return text && text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}

/** A problem's field error (`errors[i]`) in this page's words, to follow "Not accepted:"; null if the catalogs lack its rule. */
export function fieldMessage(error) {
  const name = error.pointer.split('/').pop();
  const key = error.rule === 'too_long' && LISTS.has(name) ? 'rule.too_many' : error.format ? `rule.format.${error.format}` : `rule.${error.rule}`;
  if (!has(key)) return null;
  const date = (text) => (text ? new Date(text).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }) : '');
  return t(key, {
    count: error.maximum ?? error.minimum ?? 0, minimum: error.minimum, maximum: error.maximum,
    earliest: date(error.earliest), latest: date(error.latest),
    // A card's kinds (`rule.unique`) in this page's words.
    allowed: (error.allowed ?? []).map((value) => (has(`card.kind.${value}`) ? t(`card.kind.${value}`) : value)).join(', '),
  });
}

/** What to tell a person about `error` (an ApiError, or anything with a problem `code`), in their language. */
export function explain(error) {
  if (error instanceof OfflineError) return t('error.offline');
  const field = error?.errors?.length ? fieldMessage(error.errors[0]) : null;
  if (field) return t('error.invalid', { detail: field });
  const key = `problem.${error?.code}`;
  if (has(key)) return t(key);
  // Not a problem document (a proxy's error page), or a code this page does not know: its status,
  // not the server's English words.
  if (error instanceof ApiError) return t('error.status', { status: String(error.status) });
  // A fault of the page or of the browser (no Ed25519 in it, a Wi-Fi login page where JSON was
  // due): its English message is for the console, not for the person.
  console.error(error);
  return t('error.unexpected');
}

/** Shows `text` in `element` (a live region), as an error or as news. */
export function say(element, text, kind = 'info') {
  element.textContent = text;
  element.dataset.kind = kind;
  element.hidden = !text;
}

/** Focus lost with a pressed button (its item gone) goes to `element`, what was said of it, not to the page's top. */
export function refocus(element) {
  if (document.activeElement && document.activeElement !== document.body) return;
  element.tabIndex = -1;
  element.focus();
}

/**
 * Puts `items` in the list `element` unless it shows the same already: a refresh that brings
 * nothing new keeps the buttons where a hand or the keyboard's focus is about to press them.
 */
export function showItems(element, items) {
  const same = element.children.length === items.length
    && items.every((item, index) => item.outerHTML === element.children[index].outerHTML);
  if (!same) element.replaceChildren(...items);
}
