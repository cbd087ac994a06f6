// Server-Sent Events read with fetch(): EventSource cannot send an Authorization header.
// Parses the text/event-stream format (fields event, data, id, retry; comments), reconnects
// with backoff and resumes with `Last-Event-ID`.
import { ApiError } from './api.js';

/** Turns text/event-stream chunks into events: `{type, data, id}` handed to `dispatch`. */
export class SSEParser {
  constructor(dispatch, { onRetry = () => {} } = {}) {
    this.dispatch = dispatch;
    this.onRetry = onRetry;
    this.buffer = '';
    this.lastEventId = '';
    this.reset();
  }

  reset() {
    this.type = '';
    this.data = [];
    this.hasData = false;
  }

  /** Reads a chunk of text; complete lines are processed, a partial one waits for the next chunk. */
  feed(text) {
    this.buffer += text;
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/g;
      match.lastIndex = start;
      const found = match.exec(this.buffer);
      if (!found) break;
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (found[0] === '\r' && found.index === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, found.index));
      start = found.index + found[0].length;
    }
    this.buffer = this.buffer.slice(start);
  }

  line(line) {
    if (line === '') {
      if (this.hasData) this.dispatch({ type: this.type || 'message', data: this.data.join('\n'), id: this.lastEventId });
      this.reset();
      return;
    }
    if (line.startsWith(':')) return; // a comment, e.g. `: keep-alive`
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event': this.type = value; break;
      case 'data': this.data.push(value); this.hasData = true; break;
      case 'id': if (!value.includes('\0')) this.lastEventId = value; break;
      case 'retry': if (/^\d+$/.test(value)) this.onRetry(Number(value)); break;
      default: break; // unknown fields are ignored
    }
  }
}

/**
 * A stream that stays open: `onEvent({type, data, id})` for each event; `onState(state, error)`
 * with 'open', 'reconnecting' (the error that cut it) or 'failed' (an ApiError that retrying
 * cannot fix: 401, 403, 404). Silence longer than `silenceMs` (no event, no keep-alive) counts as a
 * cut, and so does the browser saying it went offline (a stream can look open long after the
 * network is gone); it comes back as soon as the browser is online again, resuming after the last
 * event it had (`Last-Event-ID`), so what happened meanwhile arrives too.
 */
export class EventStream {
  constructor(url, { auth, onEvent, onState = () => {}, silenceMs = 45_000 }) {
    Object.assign(this, { url, auth, onEvent, onState, silenceMs });
    this.retryMs = 2000;
    this.failures = 0;
    this.lastEventId = '';
    this.controller = null;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    if (!this.listening) {
      this.listening = true;
      window.addEventListener('offline', () => this.controller?.abort(new Error('offline')));
      window.addEventListener('online', () => this.wake?.());
    }
    this.run();
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }

  /** Waits `ms`, or less if the browser comes back online meanwhile; while offline, until it is online. */
  pause(ms) {
    return new Promise((resolve) => {
      const timer = navigator.onLine === false ? null : setTimeout(resolve, ms);
      this.wake = () => { clearTimeout(timer); this.wake = null; resolve(); };
    });
  }

  async run() {
    while (!this.stopped) {
      try {
        await this.connect();
        this.failures = 0; // the server closed a healthy stream: come back at once (after `retry`)
        this.onState('reconnecting', null);
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof ApiError && [400, 401, 403, 404].includes(error.status)) {
          this.onState('failed', error);
          return;
        }
        this.failures += 1;
        this.onState('reconnecting', error);
      }
      await this.pause(this.delay());
    }
  }

  /** The server's `retry`, doubled for each failure in a row up to 30 s, with jitter. */
  delay() {
    const base = Math.min(30_000, this.retryMs * 2 ** Math.min(this.failures, 4));
    return this.failures ? base * (0.75 + Math.random() * 0.5) : this.retryMs;
  }

  async connect() {
    const controller = new AbortController();
    this.controller = controller;
    const headers = { Accept: 'text/event-stream' };
    const auth = this.auth();
    if (auth) headers.Authorization = `Bearer ${auth}`;
    if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
    let silence = null;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(new Error('silent')), this.silenceMs);
    };
    try {
      heard();
      let response;
      try {
        response = await fetch(this.url, { headers, cache: 'no-store', signal: controller.signal });
      } catch (error) {
        throw this.stopped ? error : new Error('offline');
      }
      if (!response.ok) {
        const problem = await response.json().catch(() => ({ title: response.statusText }));
        throw new ApiError(response.status, problem);
      }
      this.onState('open', null);
      const parser = new SSEParser((event) => {
        if (event.id) this.lastEventId = event.id;
        this.onEvent(event);
      }, { onRetry: (ms) => { this.retryMs = ms; } });
      parser.lastEventId = this.lastEventId;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        heard();
        parser.feed(value);
      }
    } finally {
      clearTimeout(silence);
    }
  }
}
