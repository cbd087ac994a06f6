// The organizer page's "The event": its name, time zone, start and end changed from the browser
// (`PATCH /v1/events/{event}`, with the version read as `If-Match`, so that two organizers never
// overwrite each other), and ending it now, once confirmed. A start that has come stays, and so
// does the end of an event that has ended: their fields are shown, not offered. The address stays,
// so that printed posters keep working.
import { call, explain, say, ApiError } from './api.js';
import { t } from './i18n.js';
import { instantIn, wallTime, apiTime, offerTimeZones, fieldError, dateErrors, refusal } from './event-fields.js';
import { confirmBox } from './confirm-box.js';

const $ = (id) => document.getElementById(id);
/** The fields, by the JSON Pointer the server's `errors` name them with. */
const FIELDS = { '/name': 'edit-name', '/timeZone': 'edit-zone', '/startsAt': 'edit-starts', '/endsAt': 'edit-ends' };

/**
 * Wires the form for `event` (`path` makes its API paths, `status` says what happened); `changed`
 * is told of the event as it is after a change. Returns `show(event, etag)`, which fills the form
 * with the event as read (and the version to change).
 */
export function initEventEdit({ path, status, changed }) {
  let event = null;
  let etag = null;
  /** The fields' values as shown: what differs from them is what the organizer changed. */
  let shownValues = {};
  const values = () => ({
    name: $('edit-name').value.trim(), timeZone: $('edit-zone').value, startsAt: $('edit-starts').value, endsAt: $('edit-ends').value,
  });

  function show(shown, tag) {
    event = shown;
    etag = tag;
    const now = Date.now();
    const started = Date.parse(event.startsAt) <= now;
    const ended = Date.parse(event.endsAt) <= now;
    $('edit-name').value = event.name;
    offerTimeZones($('edit-zone'), event.timeZone);
    $('edit-starts').value = wallTime(event.startsAt, event.timeZone);
    $('edit-ends').value = wallTime(event.endsAt, event.timeZone);
    $('edit-starts').disabled = started;
    $('edit-ends').disabled = ended;
    $('edit-starts-hint').hidden = !started;
    $('edit-ends-hint').hidden = !ended;
    $('end-now').hidden = ended;
    for (const id of Object.values(FIELDS)) fieldError(id, '');
    shownValues = values();
  }

  /** What the form changes of the event, or the id of the first wrong field (every wrong one said). */
  function changes() {
    const zone = $('edit-zone').value;
    const name = $('edit-name').value.trim();
    const starts = instantIn($('edit-starts').value, zone);
    const ends = instantIn($('edit-ends').value, zone);
    const dates = dateErrors(starts, ends);
    const errors = {
      'edit-name': !name ? t('newEvent.error.name') : '',
      'edit-zone': !zone ? t('newEvent.error.timeZone') : '',
      'edit-starts': $('edit-starts').disabled ? '' : dates.starts,
      'edit-ends': $('edit-ends').disabled ? '' : dates.ends,
    };
    for (const [id, message] of Object.entries(errors)) fieldError(id, message);
    const wrong = Object.keys(errors).find((id) => errors[id]);
    if (wrong) return wrong;
    // Only what the organizer changed (the fields show times to the minute: an event made through
    // the API may start at 09:00:30). A new time zone keeps the clock times shown, as when it was
    // chosen wrong: the start and end move with it, those that have come excepted.
    const asked = { name, timeZone: zone, startsAt: apiTime(starts), endsAt: apiTime(ends) };
    const now = values();
    const zoneChanged = now.timeZone !== shownValues.timeZone;
    const field = { startsAt: 'edit-starts', endsAt: 'edit-ends' };
    return Object.fromEntries(Object.entries(asked).filter(([key]) => now[key] !== shownValues[key]
      || (zoneChanged && field[key] && !$(field[key]).disabled)));
  }

  async function send(body, button) {
    button.disabled = true;
    try {
      const response = await call(path(), { method: 'PATCH', body, headers: { 'If-Match': etag } });
      show(await response.json(), response.headers.get('ETag'));
      say(status, t('editEvent.saved', { event: event.name }), 'success');
      changed(event);
      return true;
    } catch (error) {
      // An end past a purge date the organizers chose: said at the end, which is what moved.
      const purgeDate = error instanceof ApiError && error.errors[0]?.pointer === '/purgeOn';
      const [id, message] = purgeDate ? ['edit-ends', t('editEvent.error.purgeOn')] : (error instanceof ApiError && refusal(error, FIELDS)) || [];
      if (id) {
        fieldError(id, message);
        $(id).focus();
      } else if (error instanceof ApiError && error.code === 'event_changed') {
        // Another organizer changed it: the form shows their change, to change again from.
        try {
          const response = await call(path(), { auth: null });
          show(await response.json(), response.headers.get('ETag'));
          changed(event);
          say(status, t('editEvent.changedMeanwhile'), 'error');
        } catch (again) {
          say(status, explain(again), 'error');
        }
      } else {
        say(status, explain(error), 'error');
      }
      return false;
    } finally {
      button.disabled = false;
    }
  }

  $('edit-event').addEventListener('submit', async (submitted) => {
    submitted.preventDefault();
    const body = changes();
    if (typeof body === 'string') {
      $(body).focus();
      return;
    }
    if (!Object.keys(body).length) {
      say(status, t('editEvent.nothingChanged'), 'info');
      return;
    }
    await send(body, $('save-event'));
  });
  confirmBox('end-now', {
    question: () => t('editEvent.endNowQuestion', { event: event.name }),
    act: async (close) => {
      if (await send({ endsAt: apiTime(new Date()) }, $('end-now-yes'))) close();
    },
  });
  return show;
}
