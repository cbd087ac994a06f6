// The Constellation API from the browser: the key this device keeps, JSON calls, and problems
// (RFC 9457, with a `code`) turned into errors that say what happened in plain words.

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
};

/** The server answered with a problem. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || `http_${status}`;
    this.detail = problem.detail;
  }
}

/** The server could not be reached (no network, or the request was cut). */
export class OfflineError extends Error {
  constructor() { super('offline'); }
}

/**
 * Calls `/v1${path}` and returns the Response; a problem becomes an ApiError, no answer an OfflineError.
 * `body` is sent as JSON; `auth` is the bearer credential (the stored key unless given).
 */
export async function call(path, { method = 'GET', body, auth = session.key, signal } = {}) {
  const headers = { Accept: 'application/json' };
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
    throw new ApiError(response.status, problem);
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
 * `register` from a join form (its `name` and `headline` fields), its button disabled meanwhile,
 * then `next` with the registration; a failure is said in `status`, except no network when
 * `offline` is given: it is called with the profile instead, to keep it for later.
 */
export async function registerFrom(form, status, next, via = null, offline = null) {
  const button = form.querySelector('button');
  button.disabled = true;
  const headline = form.headline.value.trim();
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

const messages = {
  token_expired: 'This code has expired. Ask them to show a fresh one.',
  token_not_yet_valid: 'This code is not valid yet: check the clock on this phone.',
  token_used_up: 'This code has been used as many times as it may be. Ask them to show a fresh one.',
  token_revoked: 'Its owner has replaced this code. Ask them to show the new one.',
  invalid_signature: 'This code is not genuine.',
  unknown_key: 'This code comes from another Constellation server.',
  key_expired: 'This code was signed by a key this server no longer trusts. Ask for a fresh one.',
  malformed_token: 'This is not a Constellation code.',
  unsupported_token: 'This is not a Constellation code.',
  bad_token_encoding: 'This is not a Constellation code.',
  invalid_claims: 'This is not a Constellation code.',
  self_connection: 'That is your own code: show it to someone else.',
  blocked: 'You cannot connect with this person.',
  unknown_profile: 'The person behind this code has left Constellation.',
  unknown_event: 'That event does not exist.',
  event_ended: 'That event has ended.',
  invalid_join_code: 'That join code is not right for this event.',
  not_a_member: 'Join the event first.',
  rate_limited: 'Too many tries in a short time. Wait a moment and try again.',
  invalid_credentials: 'This phone\'s key is no longer valid.',
  database_busy: 'The server is busy. Try again in a moment.',
  database_unavailable: 'The server is having trouble. Try again in a moment.',
  invalid_device_link: 'That is not a code from another device: it looks like XXXXX-XXXXX.',
  device_link_unknown: 'No device shows that code. Check it, or make a new one on your other device.',
  device_link_used: 'That code was used already: make a new one on your other device.',
  device_link_expired: 'That code has expired: make a new one on your other device.',
};

/** What to tell a person about `error` (an ApiError, or anything with a problem `code`). */
export function explain(error) {
  if (error instanceof OfflineError) return 'No network. Check your connection and try again.';
  if (error && error.code === 'validation_failed' && error.detail) return error.detail;
  if (error && messages[error.code]) return messages[error.code];
  return error && error.message ? error.message : String(error);
}

/** Shows `text` in `element` (a live region), as an error or as news. */
export function say(element, text, kind = 'info') {
  element.textContent = text;
  element.dataset.kind = kind;
  element.hidden = !text;
}
