// `/events/new`: an organizer creates an event from the browser: its name, a short address (slug)
// suggested from the name until it is edited, its time zone (the browser's unless chosen) and its
// start and end in that zone. Each field's mistake is said next to it, in the page's language,
// whether the page or the server found it; nothing is created until all are right. Then the
// event's organizer page opens.
import { call, everyItem, session, explain, say, sayWaits, registerFrom } from './api.js';
import { t, localize, addMessages } from './i18n.js';
import { keepPagesForOffline } from './offline-pages.js';
import { instantIn, apiTime, offerTimeZones, fieldError, dateErrors, refusal } from './event-fields.js';

await addMessages('organizer');

const $ = (id) => document.getElementById(id);
const SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;
/** The fields, by the JSON Pointer the server's `errors` name them with. */
const FIELDS = { '/name': 'event-name', '/slug': 'event-slug', '/timeZone': 'event-zone', '/startsAt': 'event-starts', '/endsAt': 'event-ends' };
/** Letters that no decomposition takes apart, and German's umlauts, as they are written in a web address. */
const LETTERS = { ß: 'ss', æ: 'ae', ø: 'o', ł: 'l', đ: 'd', þ: 'th', ä: 'ae', ö: 'oe', ü: 'ue' };
let slugEdited = false;

/** A slug from `name`: letters without their accents, lower case, anything else a hyphen. */
export function suggestSlug(name) {
  const spelled = name.replace(/[ßæøłđþäöü]/gi, (letter) => LETTERS[letter.toLowerCase()]);
  const slug = spelled.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
  return slug.length >= 3 ? slug : slug ? `${slug}-event` : '';
}

/** A `datetime-local` value for `days` from today at `hour` o'clock. */
function localValue(days, hour) {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(hour)}:00`;
}

/** The page's own checks: the first wrong field's id, every wrong one said; null when all are right. */
function check() {
  const zone = $('event-zone').value;
  const name = $('event-name').value.trim();
  const slug = $('event-slug').value.trim();
  const starts = instantIn($('event-starts').value, zone);
  const ends = instantIn($('event-ends').value, zone);
  const dates = dateErrors(starts, ends);
  const errors = {
    'event-name': !name ? t('newEvent.error.name') : '',
    'event-slug': !SLUG.test(slug) ? t('newEvent.error.slug') : '',
    'event-zone': !zone ? t('newEvent.error.timeZone') : '',
    'event-starts': dates.starts,
    'event-ends': dates.ends,
  };
  for (const [id, message] of Object.entries(errors)) fieldError(id, message);
  const wrong = Object.keys(errors).find((id) => errors[id]);
  return wrong ? wrong : { name, slug, timeZone: zone, startsAt: apiTime(starts), endsAt: apiTime(ends) };
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
    // Its address taken by the very event asked for, mine: the answer to a creation that went
    // through was lost (a weak signal), and the retry met it. Its page, rather than a second event
    // at another address. Another event of mine there (last year's) is said to be taken, as any.
    if (error.code === 'slug_taken' && await madeAlready(checked)) {
      location.assign(`/events/${encodeURIComponent(checked.slug)}/organize`);
      return;
    }
    const [id, message] = refusal(error, FIELDS) ?? [];
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

/** Whether I organize an event just as `asked` (its address, name and times). */
async function madeAlready(asked) {
  const same = (a, b) => Date.parse(a) === Date.parse(b);
  try {
    return (await everyItem('/me/events')).some(({ event, role }) => role === 'organizer' && event.slug === asked.slug
      && event.name === asked.name && same(event.startsAt, asked.startsAt) && same(event.endsAt, asked.endsAt));
  } catch {
    return false;
  }
}

function start() {
  localize();
  keepPagesForOffline();
  sayWaits($('status'));
  if (!session.key) {
    // A blank browser: the organizer's name first, then the event.
    const form = $('no-profile');
    form.hidden = false;
    $('organizer-name').focus();
    form.addEventListener('submit', (submitted) => {
      submitted.preventDefault();
      registerFrom(form, $('status'), () => {
        form.hidden = true;
        showForm();
      });
    });
    return;
  }
  showForm();
}

/** The event's form, filled with tomorrow from 9 to 18 in this browser's time zone. */
function showForm() {
  offerTimeZones($('event-zone'), Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
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
