// `/events/new`: an organizer creates an event from the browser: its name, a short address (slug)
// suggested from the name until it is edited, its time zone (the browser's unless chosen) and its
// start and end in that zone. Each field's mistake is said next to it, in the page's language,
// whether the page or the server found it; nothing is created until all are right. Then the
// event's organizer page opens.
import { call, session, explain, say, sayWaits } from './api.js';
import { t, localize, addMessages } from './i18n.js';
import organizerEn from './organizer-messages-en.js';
import organizerDe from './organizer-messages-de.js';
import { keepPagesForOffline } from './offline-pages.js';

addMessages({ en: organizerEn, de: organizerDe });

const $ = (id) => document.getElementById(id);
const SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;
/** The years an event may lie in, as the server allows them. */
const YEARS = [2000, 2199];
const MAXIMUM_DAYS = 31;
/** The fields, by the JSON Pointer the server's `errors` name them with. */
const FIELDS = { '/name': 'event-name', '/slug': 'event-slug', '/timeZone': 'event-zone', '/startsAt': 'event-starts', '/endsAt': 'event-ends' };
/** Letters that no decomposition takes apart, as they are written in a web address. */
const LETTERS = { ß: 'ss', æ: 'ae', ø: 'o', ł: 'l', đ: 'd', þ: 'th' };
let slugEdited = false;

/** A slug from `name`: letters without their accents, lower case, anything else a hyphen. */
export function suggestSlug(name) {
  const spelled = name.replace(/[ßæøłđþ]/gi, (letter) => LETTERS[letter.toLowerCase()]);
  const slug = spelled.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
  return slug.length >= 3 ? slug : slug ? `${slug}-event` : '';
}

/** The offset of `zone` from UTC at `instant`, in ms (Europe/Paris in summer: +7,200,000). */
function offset(instant, zone) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(instant).map(({ type, value }) => [type, value]));
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a `datetime-local` value (`2026-05-01T09:00`) names in `zone`; null if it is none. */
export function instantIn(value, zone) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const wall = Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5]);
  // The zone's offset at the wall time, corrected once for a change of offset (summer time) in between.
  let instant = wall - offset(wall, zone);
  instant = wall - offset(instant, zone);
  return new Date(instant);
}

/** A `datetime-local` value for `days` from today at `hour` o'clock. */
function localValue(days, hour) {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(hour)}:00`;
}

function offerTimeZones() {
  const select = $('event-zone');
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const zones = [...new Set([...(Intl.supportedValuesOf?.('timeZone') ?? []), 'UTC', own])].sort();
  select.replaceChildren(...zones.map((zone) => new Option(zone.replaceAll('_', ' '), zone, false, zone === own)));
}

/** Says `message` under the field `id` (none: clears it), and marks the field for assistive technology. */
function fieldError(id, message) {
  const field = $(id);
  const error = $(`${id}-error`);
  error.textContent = message || '';
  error.hidden = !message;
  if (message) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
}

/** The page's own checks: the first wrong field's id, every wrong one said; null when all are right. */
function check() {
  const zone = $('event-zone').value;
  const name = $('event-name').value.trim();
  const slug = $('event-slug').value.trim();
  const starts = instantIn($('event-starts').value, zone);
  const ends = instantIn($('event-ends').value, zone);
  const inYears = (date) => date && date.getUTCFullYear() >= YEARS[0] && date.getUTCFullYear() <= YEARS[1];
  const errors = {
    'event-name': !name ? t('newEvent.error.name') : '',
    'event-slug': !SLUG.test(slug) ? t('newEvent.error.slug') : '',
    'event-zone': !zone ? t('newEvent.error.timeZone') : '',
    'event-starts': !starts ? t('newEvent.error.date') : !inYears(starts) ? t('newEvent.error.years', { from: YEARS[0], to: YEARS[1] }) : '',
    'event-ends': !ends ? t('newEvent.error.date') : !inYears(ends) ? t('newEvent.error.years', { from: YEARS[0], to: YEARS[1] })
      : starts && ends <= starts ? t('newEvent.error.endsBeforeStart')
        : starts && ends - starts > MAXIMUM_DAYS * 86_400_000 ? t('newEvent.error.tooLong', { days: MAXIMUM_DAYS }) : '',
  };
  for (const [id, message] of Object.entries(errors)) fieldError(id, message);
  const wrong = Object.keys(errors).find((id) => errors[id]);
  return wrong ? wrong : { name, slug, timeZone: zone, startsAt: starts.toISOString().replace(/\.\d{3}Z$/, 'Z'), endsAt: ends.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/** The field a refusal of the server's is about, and what to say there. */
function refusal(error) {
  if (error.code === 'slug_taken') return ['event-slug', t('newEvent.error.slugTaken')];
  const mistake = error.errors?.[0];
  const field = mistake && FIELDS[mistake.pointer];
  if (!field) return null;
  const said = {
    date_range: () => t('newEvent.error.years', { from: new Date(mistake.earliest).getUTCFullYear(), to: new Date(mistake.latest).getUTCFullYear() }),
    after: () => (mistake.maximum ? t('newEvent.error.tooLong', { days: mistake.maximum }) : t('newEvent.error.endsBeforeStart')),
  }[mistake.rule];
  const own = { 'event-name': 'newEvent.error.name', 'event-slug': 'newEvent.error.slug', 'event-zone': 'newEvent.error.timeZone' }[field];
  return [field, said ? said() : own ? t(own) : t('newEvent.error.date')];
}

async function create(event) {
  event.preventDefault();
  const form = $('new-event');
  const checked = check();
  if (typeof checked === 'string') {
    $(checked).focus();
    return;
  }
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  say($('status'), '');
  try {
    const response = await call('/events', { method: 'POST', body: checked });
    const created = await response.json();
    location.assign(`/events/${encodeURIComponent(created.event.slug)}/organize#created`);
  } catch (error) {
    const [id, message] = refusal(error) ?? [];
    if (id) {
      fieldError(id, message);
      $(id).focus();
    } else {
      say($('status'), explain(error), 'error');
    }
  } finally {
    button.disabled = false;
  }
}

function start() {
  localize();
  keepPagesForOffline();
  sayWaits($('status'));
  if (!session.key) {
    $('no-profile').hidden = false;
    return;
  }
  offerTimeZones();
  $('event-starts').value = localValue(1, 9);
  $('event-ends').value = localValue(1, 18);
  const form = $('new-event');
  form.hidden = false;
  $('event-name').addEventListener('input', () => {
    if (!slugEdited) $('event-slug').value = suggestSlug($('event-name').value);
  });
  $('event-slug').addEventListener('input', () => { slugEdited = $('event-slug').value !== ''; });
  form.addEventListener('submit', create);
  $('event-name').focus();
}

start();
