// One of my choices at an event, as a checkbox on the home page's "My events": how its organizers
// see me, whether its walls show my name, whether its organizers print my badge.

import { json, explain, say } from './api.js';
import { t } from './i18n.js';

/** A checkbox for one of my choices at `event`: a change is sent at once (`body`), the answer
 * (`chosen`) shown and said (`said`: the catalog's keys for on and for off, given the event's name); a
 * refusal puts it back. */
export function choiceBox(event, checked, text, { body, chosen, said }) {
  const label = document.createElement('label');
  label.className = 'choice';
  const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked });
  box.addEventListener('change', async () => {
    box.disabled = true;
    try {
      const privacy = await json(`/events/${encodeURIComponent(event.slug)}/me`, { method: 'PATCH', body: body(box.checked) });
      box.checked = chosen(privacy);
      say(document.getElementById('event-status'), t(said[box.checked ? 0 : 1], { event: event.name }), 'success');
    } catch (error) {
      box.checked = !box.checked;
      say(document.getElementById('event-status'), explain(error), 'error');
    } finally {
      box.disabled = false;
    }
  });
  label.append(box, ` ${text}`);
  return label;
}
