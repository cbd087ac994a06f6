// The organizer page's co-organizers: who organizes the event, an invitation link (and its code)
// to give someone, the invitations that wait for an answer (each withdrawn with a click), and
// stepping down after a confirmation that says what stops working.
import { call, json, session, explain, say, showItems, ApiError } from './api.js';
import { t } from './i18n.js';
import { confirmBox } from './confirm-box.js';

const $ = (id) => document.getElementById(id);

/**
 * Fills and wires the section for `event`: `path(rest)` is the event's API path, `when(date)` how
 * the page writes a date, `copy(text, what)` how it copies, `status` its live region,
 * `steppedDown()` what the page does once I no longer organize the event.
 */
export function initCoOrganizers({ event, path, when, copy, status, steppedDown }) {
  /** Who organizes, me marked; the pending invitations, each with its Withdraw button. */
  async function refresh() {
    const [organizers, pending] = await Promise.all([json(path('/organizers')), json(path('/invitations'))]);
    const me = session.profile?.id;
    showItems($('organizers'), organizers.items.map((organizer) => {
      const item = document.createElement('li');
      item.textContent = organizer.profileId === me ? t('organize.you', { name: organizer.displayName }) : organizer.displayName;
      return item;
    }));
    const items = [
      ...pending.links.map((link) => pendingItem(t('organize.pendingLink', { name: link.invitedByName, until: when(link.expiresAt) }),
        t('organize.withdrawLinkLabel', { name: link.invitedByName, until: when(link.expiresAt) }), `/invitation-links/${link.id}`)),
      ...pending.people.map((person) => pendingItem(t('organize.pendingPerson', { name: person.profileName, by: person.invitedByName }),
        t('organize.withdrawPersonLabel', { name: person.profileName }), `/invitations/${person.profileId}`)),
    ];
    if (!items.length) items.push(Object.assign(document.createElement('li'), { textContent: t('organize.noPending') }));
    showItems($('pending-invitations'), items);
  }

  function pendingItem(text, label, withdrawPath) {
    const item = document.createElement('li');
    const words = Object.assign(document.createElement('span'), { textContent: text });
    const withdraw = Object.assign(document.createElement('button'), { type: 'button', className: 'inline secondary', textContent: t('organize.withdraw') });
    withdraw.setAttribute('aria-label', label);
    withdraw.addEventListener('click', async () => {
      withdraw.disabled = true;
      try {
        await call(path(withdrawPath), { method: 'DELETE' });
        say(status, t('organize.withdrawn'), 'success');
        await refresh();
        $('invite').focus();
      } catch (error) {
        // Accepted, declined or withdrawn meanwhile: said, and the list shows what waits now.
        say(status, explain(error), 'error');
        withdraw.disabled = false;
        await refresh().catch(() => {});
      }
    });
    item.append(words, withdraw);
    return item;
  }

  async function invite() {
    $('invite').disabled = true;
    try {
      const issued = await json(path('/invitation-links'), { method: 'POST' });
      // This page's own address, which the organizer reached (the server's may be one it only listens on).
      const link = `${location.origin}/invitation#code=${issued.code}`;
      $('invitation-link').textContent = link;
      $('invitation-link').href = link;
      $('invitation-code').textContent = issued.code;
      $('invitation').hidden = false;
      say(status, t('organize.invitationMade', { until: when(issued.invitation.expiresAt) }), 'success');
      await refresh();
    } catch (error) {
      say(status, explain(error), 'error');
    } finally {
      $('invite').disabled = false;
    }
  }

  async function stepDown(close) {
    try {
      await call(path('/organizers/me'), { method: 'DELETE' });
      steppedDown();
    } catch (error) {
      say(status, error instanceof ApiError && error.code === 'last_organizer' ? t('organize.lastOrganizer', { event: event.name }) : explain(error), 'error');
      close();
    }
  }

  $('invite').addEventListener('click', invite);
  $('copy-invitation').addEventListener('click', () => copy($('invitation-link').href, t('organize.invitationLink')));
  confirmBox('step-down', { question: () => t('organize.stepDownQuestion', { event: event.name }), act: stepDown });
  return refresh;
}
