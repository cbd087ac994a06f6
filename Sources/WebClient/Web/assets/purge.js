// The organizer page's personal data: when the event is purged (moved with a date field, within
// the bounds the server gives, refusals said next to it), purging it now after a confirmation
// naming what goes, and, once it is purged, the figures its record kept.
import { json, explain, say, fieldSentence, ApiError } from './api.js';
import { t, number, language } from './i18n.js';
import { confirmBox } from './confirm-box.js';

const $ = (id) => document.getElementById(id);

/** `date` as the `yyyy-mm-dd` of a date field, in the event's time zone. */
function day(date, timeZone) {
  return new Date(date).toLocaleDateString('en-CA', { timeZone });
}

/**
 * Fills and wires the section for the event `current()` gives (as it is now): `path(rest)` is the event's API path, `when(date)` how
 * the page writes a date, `status` its live region, `purged()` what the page does once it is purged.
 */
export function initPurge({ current, path, when, status, purged }) {
  let bounds = null;
  let offerLater = null;

  function show(date) {
    bounds = date;
    $('purge-date-text').textContent = t('organize.purgeDate', { date: when(date.purgeOn) });
    Object.assign($('purge-on'), { value: day(date.purgeOn, current().timeZone), min: day(date.earliest, current().timeZone), max: day(date.latest, current().timeZone) });
    // Before the end and the grace, its codes still redeem: it can only be moved, and the page says
    // from when it can go early, and offers it then (a timer's longest wait is about 24 days: it is
    // set again). Once possible, `earliest` is the server's now, which a clock may see a little ahead.
    const wait = Date.parse(date.earliest) - Date.now();
    const later = wait > 60_000;
    $('purge-now').hidden = later;
    $('purge-early').hidden = !later;
    $('purge-early').textContent = later ? t('organize.purgeEarlyFrom', { date: when(date.earliest) }) : '';
    clearTimeout(offerLater);
    if (later) offerLater = setTimeout(() => show(bounds), Math.min(wait + 1_000, 2_000_000_000));
  }

  function fieldError(text) {
    $('purge-on-error').textContent = text;
    $('purge-on-error').hidden = !text;
    if (text) $('purge-on').setAttribute('aria-invalid', 'true');
    else $('purge-on').removeAttribute('aria-invalid');
  }

  /** The chosen day: its noon UTC, kept within the bounds (on the first day, the earliest moment; on the last, the latest). */
  async function move() {
    const value = $('purge-on').value;
    if (!value) return fieldError(t('organize.error.purgeOn'));
    const noon = Date.parse(`${value}T12:00:00Z`);
    const purgeOn = value === day(bounds.earliest, current().timeZone) ? Math.max(noon, Date.parse(bounds.earliest) + 60_000)
      : value === day(bounds.latest, current().timeZone) ? Math.min(noon, Date.parse(bounds.latest)) : noon;
    $('move-purge').disabled = true;
    try {
      const moved = await json(path('/purge-date'), { method: 'PUT', body: { purgeOn: new Date(purgeOn).toISOString().replace(/\.\d+Z$/, 'Z') } });
      fieldError('');
      show(moved);
      say(status, t('organize.purgeMoved', { date: when(moved.purgeOn) }), 'success');
    } catch (error) {
      const field = error instanceof ApiError ? error.errors.find((each) => each.pointer === '/purgeOn') : null;
      const text = field && fieldSentence(field);
      if (text) fieldError(text);
      else say(status, explain(error), 'error');
    } finally {
      $('move-purge').disabled = false;
    }
  }

  async function purgeNow() {
    try {
      await json(path('/purge'), { method: 'POST', body: { confirm: current().slug } });
      purged();
    } catch (error) {
      // Said where the question is, beside the buttons that asked it.
      say($('purge-now-error'), explain(error), 'error');
    }
  }

  $('move-purge').addEventListener('click', move);
  confirmBox('purge-now', {
    question: () => {
      say($('purge-now-error'), '');
      return t('organize.purgeQuestion', { event: current().name });
    },
    act: purgeNow,
  });
  return async () => show(await json(path('/purge-date')));
}

/** The figures a purged event's record kept, as a list of terms and values. */
export async function showRecord(path) {
  const record = await json(path('/record'));
  const { figures } = record;
  const percent = new Intl.NumberFormat(language, { style: 'percent' });
  const rows = [
    ['organize.record.people', t('organize.record.peopleValue', { count: figures.attendees, people: figures.people, attendees: figures.attendees })],
    ['organize.record.connections', number(figures.connections)],
    ['organize.record.connected', percent.format(figures.connectedShare)],
    ['organize.record.communities', number(figures.communities)],
  ];
  $('record').replaceChildren(...rows.flatMap(([term, value]) => [
    Object.assign(document.createElement('dt'), { textContent: t(term) }),
    Object.assign(document.createElement('dd'), { textContent: value }),
  ]));
  $('record').hidden = false;
}
