// An event's fields as the organizer's pages edit them (creating one, `new-event.js`; changing one,
// `event-edit.js`): times written in the event's own time zone, the zones this browser knows, and
// each field's mistake said next to it, whether the page or the server found it.
import { t } from './i18n.js';
import { fieldSentence } from './api.js';

const $ = (id) => document.getElementById(id);
/** The years an event may lie in, as the server allows them. */
export const YEARS = [2000, 2199];
export const MAXIMUM_DAYS = 31;

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

/** The `datetime-local` value of `instant` on the clocks of `zone` (to the minute). */
export function wallTime(instant, zone) {
  const wall = new Date(Date.parse(instant) + offset(Date.parse(instant), zone));
  return wall.toISOString().slice(0, 16);
}

/** The instant as the API writes it: to the second, in UTC. */
export function apiTime(date) {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Fills `select` with the time zones this browser knows, `chosen` selected. */
export function offerTimeZones(select, chosen) {
  const zones = [...new Set([...(Intl.supportedValuesOf?.('timeZone') ?? []), 'UTC', chosen])].sort();
  select.replaceChildren(...zones.map((zone) => new Option(zone.replaceAll('_', ' '), zone, false, zone === chosen)));
}

/** Says `message` under the field `id` (none: clears it), and marks the field for assistive technology. */
export function fieldError(id, message) {
  const field = $(id);
  const error = $(`${id}-error`);
  error.textContent = message || '';
  error.hidden = !message;
  if (message) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
}

/** What is wrong with an event's `starts` and `ends` (instants or null), by field: '' when right. */
export function dateErrors(starts, ends) {
  const inYears = (date) => date && date.getUTCFullYear() >= YEARS[0] && date.getUTCFullYear() <= YEARS[1];
  const wrong = (date) => (!date ? t('newEvent.error.date') : !inYears(date) ? t('newEvent.error.years', { from: String(YEARS[0]), to: String(YEARS[1]) }) : '');
  return {
    starts: wrong(starts),
    ends: wrong(ends) || (starts && ends <= starts ? t('newEvent.error.endsBeforeStart')
      : starts && ends - starts > MAXIMUM_DAYS * 86_400_000 ? t('newEvent.error.tooLong', { days: MAXIMUM_DAYS }) : ''),
  };
}

/** The field (of `fields`, ids by the JSON Pointer the server names) a refusal of the server's is about, and what to say there. */
export function refusal(error, fields) {
  if (error.code === 'slug_taken') return [fields['/slug'], t('newEvent.error.slugTaken')];
  const mistake = error.errors?.[0];
  const field = mistake && fields[mistake.pointer];
  if (!field) return null;
  if (mistake.rule === 'date_range' && mistake.earliest && mistake.earliest === mistake.latest) return [field, t('editEvent.error.stays')];
  if (mistake.rule === 'after') return [field, mistake.maximum ? t('newEvent.error.tooLong', { days: mistake.maximum }) : t('newEvent.error.endsBeforeStart')];
  const own = { '/name': 'newEvent.error.name', '/slug': 'newEvent.error.slug', '/timeZone': 'newEvent.error.timeZone' }[mistake.pointer];
  return [field, own ? t(own) : fieldSentence(mistake) ?? t('newEvent.error.date')];
}
